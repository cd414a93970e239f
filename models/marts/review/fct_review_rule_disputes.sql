{{- config(contract={'enforced': target.type != 'spark'}) -}}
-- The turns reviewers say the rules judged wrongly (docs/rules.md#reviewer-decisions): one row
-- per turn whose latest mark (int_turn_marks) is rule_wrong, with or without the verdict the
-- reviewer expected, beside today's verdict and whether the rules changed since the mark.
with marks as (
    select * from {{ ref('int_turn_marks') }}
    where mark = 'rule_wrong'
),

verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

disputes as (
    select
        cast(marks.turn_id as {{ sql_type_text() }}) as turn_id,
        cast(verdicts.character_id as {{ sql_type_text() }}) as character_id,
        cast(verdicts.model_id as {{ sql_type_text() }}) as model_id,
        cast(verdicts.verdict as {{ sql_type_text() }}) as current_verdict,
        cast(marks.verdict_at_mark as {{ sql_type_text() }}) as verdict_at_mark,
        cast(marks.expected_verdict as {{ sql_type_text() }}) as expected_verdict,
        cast(marks.note as {{ sql_type_text() }}) as note,
        cast(marks.reviewer as {{ sql_type_text() }}) as reviewer,
        cast(marks.marked_at as timestamp) as marked_at,
        cast(marks.rule_fingerprint as {{ sql_type_text() }}) as rule_fingerprint_at_mark,
        cast(verdicts.rule_fingerprint as {{ sql_type_text() }}) as current_rule_fingerprint,
        -- Null when the mark recorded no fingerprint: unknown, not unchanged.
        cast(
            case
                when marks.rule_fingerprint is not null
                    then marks.rule_fingerprint <> verdicts.rule_fingerprint
            end as boolean
        ) as rule_fingerprint_changed,
        cast(
            case
                when marks.verdict_at_mark is not null
                    then marks.verdict_at_mark <> verdicts.verdict
            end as boolean
        ) as verdict_changed
    from marks
    left join verdicts
        on marks.turn_id = verdicts.turn_id
)

select * from disputes
