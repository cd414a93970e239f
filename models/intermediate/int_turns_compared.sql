-- The verdict rows of the compared models (var compared_models; all models when empty), each
-- marked whether its prompt_id was answered by every compared model (docs/rules.md#evaluation). A
-- table: the three deviation marts read it, and each would otherwise recompute it from the
-- verdicts.
{{ config(materialized='table') }}

-- The judged turns, not the verdict mart: an intermediate model never reads a mart.
with verdicts as (
    select * from {{ ref('int_turns_judged') }}
),

verdict_words as (
    select * from {{ ref('verdict_words') }}
),

compared as (
    select
        verdicts.turn_id,
        verdicts.model_id,
        verdicts.character_id,
        verdicts.prompt_id,
        verdicts.created_at,
        verdicts.verdict,
        verdict_words.is_deviation
    from verdicts
    inner join verdict_words
        on verdicts.verdict = verdict_words.verdict
    {% if var('compared_models') %}
        where verdicts.model_id in ({{ text_list_var('compared_models') }})
    {% endif %}
),

model_count as (
    select count(distinct model_id) as compared_models from compared
),

shared_prompts as (
    select compared.prompt_id
    from compared
    cross join model_count
    where compared.prompt_id is not null
    group by compared.prompt_id, model_count.compared_models
    having count(distinct compared.model_id) = model_count.compared_models
),

marked as (
    select
        compared.*,
        shared_prompts.prompt_id is not null as is_shared_prompt
    from compared
    left join shared_prompts
        on compared.prompt_id = shared_prompts.prompt_id
)

select * from marked
