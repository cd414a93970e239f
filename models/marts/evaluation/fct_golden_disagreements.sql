-- The disagreeing labelled turns grouped two ways: by (expected, predicted) verdict pair, and
-- by the check the disagreement is about (docs/rules.md#evaluation).
{{ config(contract={'enforced': true}) }}

with disagreements as (
    select * from {{ ref('fct_golden_agreement') }}
    where not agrees
),

by_verdict_pair as (
    select
        'verdict_pair' as group_kind,
        expected_verdict,
        predicted_verdict,
        cast(null as varchar) as disagreement_check,
        count(*) as turns,
        list(turn_id order by turn_id) as turn_ids
    from disagreements
    group by expected_verdict, predicted_verdict
),

by_check as (
    select
        'check' as group_kind,
        cast(null as varchar) as expected_verdict,
        cast(null as varchar) as predicted_verdict,
        disagreement_check,
        count(*) as turns,
        list(turn_id order by turn_id) as turn_ids
    from disagreements
    group by disagreement_check
),

unioned as (
    select * from by_verdict_pair
    union all
    select * from by_check
),

final as (
    select
        cast(group_kind as varchar) as group_kind,
        cast(expected_verdict as varchar) as expected_verdict,
        cast(predicted_verdict as varchar) as predicted_verdict,
        cast(disagreement_check as varchar) as disagreement_check,
        cast(turns as bigint) as turns,
        cast(turn_ids as varchar[]) as turn_ids
    from unioned
)

select * from final
