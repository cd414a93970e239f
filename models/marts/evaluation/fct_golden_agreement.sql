-- One row per creator-labelled turn, the label against the rules' verdict
-- (docs/rules.md#evaluation, golden agreement).
{{ config(contract={'enforced': true}) }}

with golden_labels as (
    select * from {{ ref('stg_chat_logs__golden_labels') }}
),

verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

verdict_checks as (
    select * from {{ ref('verdict_checks') }}
),

compared as (
    select
        cast(golden_labels.turn_id as varchar) as turn_id,
        cast(golden_labels.expected_verdict as varchar) as expected_verdict,
        cast(verdicts.verdict as varchar) as predicted_verdict,
        cast(golden_labels.expected_verdict = verdicts.verdict as boolean) as agrees,
        cast(verdicts.deciding_check as varchar) as deciding_check,
        -- The check the disagreement is about: the one that decided the prediction, or, when
        -- the rules found nothing, the one the creator's verdict says should have hit.
        cast(
            case
                when golden_labels.expected_verdict <> verdicts.verdict
                    then coalesce(verdicts.deciding_check, verdict_checks.check_name)
            end as varchar
        ) as disagreement_check,
        cast(golden_labels.note as varchar) as note,
        cast(verdicts.model_id as varchar) as model_id,
        cast(verdicts.character_id as varchar) as character_id
    from golden_labels
    left join verdicts
        on golden_labels.turn_id = verdicts.turn_id
    left join verdict_checks
        on golden_labels.expected_verdict = verdict_checks.verdict
)

select * from compared
