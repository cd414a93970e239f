-- The screen's prompt × model matrix (docs/dashboard.md): one row per shared prompt_id (answered by
-- every compared model) and model, with the verdict of the model's first answer to it and how
-- many answers it gave.
with compared as (
    select * from {{ ref('int_turns_compared') }}
    where is_shared_prompt
),

ranked as (
    select
        prompt_id,
        model_id,
        turn_id,
        verdict,
        count(*) over (partition by prompt_id, model_id) as answers,
        row_number() over (
            partition by prompt_id, model_id order by created_at, turn_id
        ) as answer_rank
    from compared
),

first_answers as (
    select
        prompt_id,
        model_id,
        turn_id,
        verdict,
        answers
    from ranked
    where answer_rank = 1
)

select * from first_answers
