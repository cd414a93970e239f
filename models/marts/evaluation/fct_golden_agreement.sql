-- One row per labelled turn, the label against the rules' verdict (docs/rules.md#evaluation,
-- golden agreement): the golden labels file's and the reviewers' (int_golden_labels, whose
-- label_source says which; a reviewer's mark wins over the file's label).
{{ config(contract={'enforced': target.type != 'spark'}) }}

with golden_labels as (
    select * from {{ ref('int_golden_labels') }}
),

verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

verdict_checks as (
    select * from {{ ref('verdict_checks') }}
),

compared as (
    select
        cast(golden_labels.turn_id as {{ sql_type_text() }}) as turn_id,
        cast(golden_labels.expected_verdict as {{ sql_type_text() }}) as expected_verdict,
        cast(verdicts.verdict as {{ sql_type_text() }}) as predicted_verdict,
        cast(golden_labels.expected_verdict = verdicts.verdict as boolean) as agrees,
        cast(verdicts.deciding_check as {{ sql_type_text() }}) as deciding_check,
        -- The check the disagreement is about: the one that decided the prediction, or, when
        -- the rules found nothing, the one the creator's verdict says should have hit.
        cast(
            case
                when golden_labels.expected_verdict <> verdicts.verdict
                    then coalesce(verdicts.deciding_check, verdict_checks.check_name)
            end as {{ sql_type_text() }}
        ) as disagreement_check,
        cast(golden_labels.note as {{ sql_type_text() }}) as note,
        cast(verdicts.model_id as {{ sql_type_text() }}) as model_id,
        cast(verdicts.character_id as {{ sql_type_text() }}) as character_id,
        cast(golden_labels.label_source as {{ sql_type_text() }}) as label_source
    from golden_labels
    left join verdicts
        on golden_labels.turn_id = verdicts.turn_id
    left join verdict_checks
        on golden_labels.expected_verdict = verdict_checks.verdict
)

select * from compared
