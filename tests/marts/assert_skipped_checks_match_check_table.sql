-- Assert that each verdict row's skipped_checks lists exactly the checks fct_turn_checks
-- marks skipped for that turn, with the same reason codes, in check order. Read as the seed
-- checks read: the turns this build judged and a sample of the older ones (checked_turn).
with verdicts as (
    select
        turn_id,
        skipped_checks
    from {{ ref('fct_turn_verdicts') }}
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

skipped as (
    select
        turn_id,
        {{ sql_list_ordered(
            "check_name || ':' || reason_code", 'check_order', ['check_order'],
        ) }} as skipped_checks
    from {{ ref('fct_turn_checks') }}
    where
        status = 'skipped'
        and {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
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
