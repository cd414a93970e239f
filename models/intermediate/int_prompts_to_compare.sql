-- The prompt_ids whose compared rows this build writes again (docs/rules.md#evaluation): the
-- prompts of the turns it judged, new or again, and of the turns it removed. Whether a prompt is
-- shared, and its row of the prompt × model matrix, depend on that prompt's turns alone, so an
-- incremental build rewrites these prompts' rows of int_turns_compared and
-- fct_prompt_model_matrix and keeps every other. A table: both models' pre-hooks read it, and a
-- join with it knows how few they are.
{{ config(materialized='table') }}

with judged as (
    select prompt_id
    from {{ ref('int_turns_judged') }}
    where judged_by = {{ this_build() }}
),

-- A removed turn has left the judged turns (its card is no longer clean): its prompt is read
-- from the ingested rows.
removed as (
    select ingested.prompt_id
    from {{ ref('base_chat_logs__turns') }} as ingested
    where ingested.turn_id in (
        select to_judge.turn_id
        from {{ ref('int_turns_to_judge') }} as to_judge
        where to_judge.is_removed
    )
),

prompts as (
    select prompt_id from judged
    union
    select prompt_id from removed
)

select prompt_id
from prompts
where prompt_id is not null
