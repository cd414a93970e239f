-- Assert that each verdict row's skipped_checks lists exactly the checks fct_turn_checks
-- marks skipped for that turn, with the same reason codes, in check order.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

skipped as (
    select
        turn_id,
        {{ sql_list_ordered(
            "check_name || ':' || reason_code", 'check_order', ['check_order'],
        ) }} as skipped_checks
    from {{ ref('fct_turn_checks') }}
    where status = 'skipped'
    group by turn_id
)

select
    verdicts.turn_id,
    verdicts.skipped_checks,
    skipped.skipped_checks as expected
from verdicts
left join skipped
    on verdicts.turn_id = skipped.turn_id
where
    verdicts.skipped_checks
    is distinct from coalesce(skipped.skipped_checks, {{ sql_empty_text_list() }})
