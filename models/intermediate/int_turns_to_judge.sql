-- The turns this build judges (or removes from the verdict marts), with the reason: the rows
-- of int_turn_judging_state this build wrote. Every turn-store model reads its turns through
-- it, and deletes its own rows of these turns first (delete_judged_turns).
-- A table, so that a join with it knows the batch's size: through a view DuckDB estimates
-- `judged_by = <this build>` over the whole judging state, and hashes the larger side of the
-- join, every stored turn. A table keeps its rows after the build: the turn-store models'
-- pre-hook (delete_judged_turns) stops a build that did not write it, and the checks that
-- run in a later `dbt test` read the last build's batch.
{{ config(materialized='table') }}

with judging_state as (
    select * from {{ ref('int_turn_judging_state') }}
),

final as (
    select
        turn_id,
        judge_reason,
        is_removed,
        judged_by
    from judging_state
    where judged_by = {{ this_build() }}
)

select * from final
