-- Paired comparison on the shared prompts (docs/rules.md#evaluation): for each pair of
-- compared models, on how many prompts A deviated where B did not, and the reverse. A model
-- that answered a prompt more than once counts as deviating on it when any of its answers
-- deviated.
{{ config(contract={'enforced': target.type != 'spark'}) }}

-- The matrix has a row per shared prompt and model, with how many of the model's answers
-- deviated.
with per_prompt as (
    select
        prompt_id,
        model_id,
        deviating_answers > 0 as deviates
    from {{ ref('fct_prompt_model_matrix') }}
),

paired as (
    select
        model_a.model_id as model_a,
        model_b.model_id as model_b,
        count(*) as shared_prompts,
        count(*) filter (where model_a.deviates and not model_b.deviates) as a_only_deviates,
        count(*) filter (where model_b.deviates and not model_a.deviates) as b_only_deviates,
        count(*) filter (where model_a.deviates and model_b.deviates) as both_deviate,
        count(*) filter (where not model_a.deviates and not model_b.deviates) as neither_deviates
    from per_prompt as model_a
    inner join per_prompt as model_b
        on model_a.prompt_id = model_b.prompt_id and model_a.model_id < model_b.model_id
    group by model_a.model_id, model_b.model_id
)

select
    cast(model_a as {{ sql_type_text() }}) as model_a,
    cast(model_b as {{ sql_type_text() }}) as model_b,
    cast(shared_prompts as bigint) as shared_prompts,
    cast(a_only_deviates as bigint) as a_only_deviates,
    cast(b_only_deviates as bigint) as b_only_deviates,
    cast(both_deviate as bigint) as both_deviate,
    cast(neither_deviates as bigint) as neither_deviates
from paired
