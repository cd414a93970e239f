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
    where {{ is_compared_model('verdicts.model_id') }}
),

-- Which model answered which prompt, read from the two columns alone: the shared prompts are
-- found from it. It reads the verdicts again rather than `compared`: DuckDB materialises a CTE
-- read twice, a copy of every stored verdict.
answered as (
    select distinct
        judged.prompt_id,
        judged.model_id
    from {{ ref('int_turns_judged') }} as judged
    inner join verdict_words
        on judged.verdict = verdict_words.verdict
    where {{ is_compared_model('judged.model_id') }}
),

model_count as (
    select count(distinct model_id) as compared_models from answered
),

shared_prompts as (
    select answered.prompt_id
    from answered
    cross join model_count
    where answered.prompt_id is not null
    group by answered.prompt_id, model_count.compared_models
    having count(*) = model_count.compared_models
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
