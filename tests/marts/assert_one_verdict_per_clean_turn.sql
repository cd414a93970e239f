-- Assert that every clean turn has exactly one verdict row and no verdict row lacks a turn
-- (docs/rules.md#verdict-order: including turns where a check was skipped).
with turns as (
    select turn_id from {{ ref('stg_chat_logs__turns') }}
),

verdicts as (
    select turn_id from {{ ref('fct_turn_verdicts') }}
)

select
    coalesce(turns.turn_id, verdicts.turn_id) as turn_id,
    turns.turn_id is null as is_verdict_without_turn
from turns
full outer join verdicts
    on turns.turn_id = verdicts.turn_id
where turns.turn_id is null or verdicts.turn_id is null
