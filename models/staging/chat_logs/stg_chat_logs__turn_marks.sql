-- The clean reviewer marks (docs/rules.md#reviewer-decisions): no contract violation of their
-- own, and a turn_id that names a clean turn of this build (a mark for any other turn is no
-- label; fct_contract_violations lists it as unknown_turn_id). Every such row, later marks of a
-- turn too: int_turn_marks keeps the latest.
with base as (
    select * from {{ ref('base_chat_logs__turn_marks') }}
),

clean_turns as (
    select turn_id from {{ ref('stg_chat_logs__turns') }}
),

clean as (
    select
        turn_id,
        mark,
        expected_verdict,
        note,
        reviewer,
        marked_at,
        verdict_at_mark,
        rule_fingerprint,
        _source_file,
        _source_row
    from base
    where
        {{ has_no_violations('_violations') }}
        and turn_id in (select clean_turns.turn_id from clean_turns)
)

select * from clean
