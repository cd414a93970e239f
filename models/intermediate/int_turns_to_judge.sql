-- The turns this build judges (or removes from the verdict marts), with the reason: the rows
-- of int_turn_judging_state this build wrote. Every turn-store model reads its turns through
-- it, and deletes its own rows of these turns first (delete_judged_turns).
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
