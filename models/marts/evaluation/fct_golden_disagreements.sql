-- The disagreeing labelled turns grouped two ways: by (expected, predicted) verdict pair, and
-- by the check the disagreement is about (docs/rules.md#evaluation).
{{ config(contract={'enforced': target.type != 'spark'}) }}

with disagreements as (
    select * from {{ ref('fct_golden_agreement') }}
    where not agrees
),

by_verdict_pair as (
    select
        'verdict_pair' as group_kind,
        expected_verdict,
        predicted_verdict,
        cast(null as {{ sql_type_text() }}) as disagreement_check,
        count(*) as turns,
        {{ sql_list_ordered('turn_id', 'turn_id', ['turn_id']) }} as turn_ids
    from disagreements
    group by expected_verdict, predicted_verdict
),

by_check as (
    select
        'check' as group_kind,
        cast(null as {{ sql_type_text() }}) as expected_verdict,
        cast(null as {{ sql_type_text() }}) as predicted_verdict,
        disagreement_check,
        count(*) as turns,
        {{ sql_list_ordered('turn_id', 'turn_id', ['turn_id']) }} as turn_ids
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
        cast(group_kind as {{ sql_type_text() }}) as group_kind,
        cast(expected_verdict as {{ sql_type_text() }}) as expected_verdict,
        cast(predicted_verdict as {{ sql_type_text() }}) as predicted_verdict,
        cast(disagreement_check as {{ sql_type_text() }}) as disagreement_check,
        cast(turns as bigint) as turns,
        cast(turn_ids as {{ sql_type_text_list() }}) as turn_ids
    from unioned
)

select * from final
