-- The clean reviewer decisions on off-canon names (docs/rules.md#reviewer-decisions): every
-- row without a contract violation, later decisions on a name too: int_canon_decisions keeps
-- the latest and lets it override seed canon_review.
with base as (
    select * from {{ ref('base_chat_logs__canon_decisions') }}
),

clean as (
    select
        name,
        character_id,
        decision,
        note,
        reviewer,
        decided_at,
        _source_file,
        _source_row
    from base
    where {{ has_no_violations('_violations') }}
)

select * from clean
