-- Every golden label (docs/rules.md#reviewer-decisions, #evaluation): the reviewers' marks
-- with an expected verdict (label_source 'reviewer'; a rule_right mark's expected verdict is the
-- verdict shown) and the rows of the golden labels file (label_source 'golden_labels'); when
-- both label a turn, the reviewer's mark wins. A mark names a clean turn
-- (stg_chat_logs__turn_marks).
with file_labels as (
    select * from {{ ref('stg_chat_logs__golden_labels') }}
),

reviewer_labels as (
    select * from {{ ref('int_turn_marks') }}
    where expected_verdict is not null
),

labels as (
    select
        turn_id,
        expected_verdict,
        note,
        'reviewer' as label_source
    from reviewer_labels

    union all

    select
        file_labels.turn_id,
        file_labels.expected_verdict,
        file_labels.note,
        'golden_labels' as label_source
    from file_labels
    left join reviewer_labels
        on file_labels.turn_id = reviewer_labels.turn_id
    where reviewer_labels.turn_id is null
)

select * from labels
