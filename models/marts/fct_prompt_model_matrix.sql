-- The screen's prompt × model matrix (docs/dashboard.md): one row per shared prompt_id (answered by
-- every compared model) and model, with the verdict of the model's first answer to it, how many
-- answers it gave and how many of them deviated (fct_model_pairwise_deviations counts those). On
-- DuckDB an incremental build writes again the rows of the prompts whose compared rows it wrote
-- (int_prompts_to_compare; every prompt when it wrote them all) and keeps the others
-- (macros/incremental/compared_store.sql).
{{ config(
    materialized=turn_store_materialization(spark='table'),
    incremental_strategy='append',
    on_schema_change='fail',
    pre_hook="{{ delete_matrix_rows(ref('int_turns_compared'), ref('int_prompts_to_compare')) }}",
) }}
-- depends_on: {{ ref('int_prompts_to_compare') }}

with compared as (
    select * from {{ ref('int_turns_compared') }}
    where
        is_shared_prompt
        {%- if is_incremental() %}
            -- Every turn of each prompt rewritten this build, so a prompt's answers are all here.
            and compared_by = {{ this_build() }}
        {%- endif %}
),

ranked as (
    select
        prompt_id,
        model_id,
        turn_id,
        verdict,
        count(*) over (partition by prompt_id, model_id) as answers,
        count(case when is_deviation then 1 end) over (
            partition by prompt_id, model_id
        ) as deviating_answers,
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
        answers,
        deviating_answers,
        cast({{ this_build() }} as {{ text_type() }}) as compared_by
    from ranked
    where answer_rank = 1
)

select * from first_answers
