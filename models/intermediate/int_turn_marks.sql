-- The reviewers' mark of each turn (docs/rules.md#reviewer-decisions): among the clean rows of
-- turn_marks.csv, the latest per turn_id wins, by marked_at, then file and line (a later line of
-- the same second wins: the file is appended to).
with marks as (
    select * from {{ ref('stg_chat_logs__turn_marks') }}
),

ranked as (
    select
        *,
        row_number() over (
            partition by turn_id
            order by marked_at desc, _source_file desc, _source_row desc
        ) as mark_order
    from marks
),

latest as (
    select
        turn_id,
        mark,
        expected_verdict,
        note,
        reviewer,
        marked_at,
        verdict_at_mark,
        rule_fingerprint,
        _source_file as source_file,
        _source_row as source_row
    from ranked
    where mark_order = 1
)

select * from latest
