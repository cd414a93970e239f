-- The turns whose verdict rows the seed checks compare with their sources
-- (docs/rules.md#incremental-builds): every turn this build judged and a deterministic sample
-- of the older ones (checked_turn), without the turns this build removed. A table, so that a
-- check joining it knows how few they are: through a CTE over the verdict mart DuckDB guessed
-- 1.8M of 11M stored verdicts where the checks read 120,000, and hashed the larger side.
{{ config(materialized='table') }}

with judging_state as (
    select
        turn_id,
        judged_by,
        is_removed
    from {{ ref('int_turn_judging_state') }}
),

checked as (
    select turn_id
    from judging_state
    where
        not is_removed
        and {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
)

select * from checked
