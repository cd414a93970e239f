-- The verdict rows of the compared models (var compared_models; all models when empty), each
-- marked whether its prompt_id was answered by every compared model (docs/rules.md#evaluation). A
-- table: the three deviation marts read it, and each would otherwise recompute it from the
-- verdicts. On DuckDB an incremental build writes again only the rows of the prompts
-- int_prompts_to_compare lists and of the turns it judged (compared_by names the build), or
-- every row when the compared models changed (macros/incremental/compared_store.sql).
{{ config(
    materialized=turn_store_materialization(spark='table'),
    incremental_strategy='append',
    on_schema_change='fail',
    pre_hook="{{ delete_compared_rows(
        ref('int_prompts_to_compare'), ref('int_turns_to_judge'), ref('int_turns_judged'),
        ref('verdict_words'),
    ) }}",
) }}
-- depends_on: {{ ref('int_turns_to_judge') }}
{#- An incremental build writes the rows of the prompts it touched; every row on a full build,
    or when the stored ones were written for other compared models or verdict words. #}
{%- set write_touched = is_incremental()
    and not compared_rows_are_stale(ref('int_turns_judged'), ref('verdict_words')) %}

-- The judged turns, not the verdict mart: an intermediate model never reads a mart.
with verdicts as (
    select * from {{ ref('int_turns_judged') }}
),

verdict_words as (
    select * from {{ ref('verdict_words') }}
),

prompts_to_compare as (
    select * from {{ ref('int_prompts_to_compare') }}
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
    where
        {{ is_compared_model('verdicts.model_id') }}
        {%- if write_touched %}
            -- The rows the pre-hook deleted: this build's turns and the turns of the prompts
            -- it rewrites.
            and (
                verdicts.judged_by = {{ this_build() }}
                or verdicts.prompt_id in (
                    select prompts_to_compare.prompt_id from prompts_to_compare
                )
            )
        {%- endif %}
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
    where
        {{ is_compared_model('judged.model_id') }}
        {%- if write_touched %}
            and judged.prompt_id in (
                select prompts_to_compare.prompt_id from prompts_to_compare
            )
        {%- endif %}
),

-- How many models are compared: when only the touched prompts are written, from every stored
-- verdict's model_id (`answered` holds those prompts only).
model_count as (
    {%- if write_touched %}
        select count(distinct judged.model_id) as compared_models
        from {{ ref('int_turns_judged') }} as judged
        inner join verdict_words
            on judged.verdict = verdict_words.verdict
        where {{ is_compared_model('judged.model_id') }}
    {%- else %}
        select count(distinct answered.model_id) as compared_models from answered
    {%- endif %}
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
        shared_prompts.prompt_id is not null as is_shared_prompt,
        cast({{ this_build() }} as {{ text_type() }}) as compared_by
    from compared
    left join shared_prompts
        on compared.prompt_id = shared_prompts.prompt_id
)

select * from marked
