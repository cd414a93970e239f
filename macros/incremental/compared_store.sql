{#
    The compared rows (docs/rules.md#evaluation): int_turns_compared, one row per verdict of a
    compared model, and fct_prompt_model_matrix, one row per shared prompt and model. Whether
    a prompt is shared, and its matrix rows, depend on that prompt's own turns and on which
    models are compared, so on DuckDB an incremental build rewrites the rows of the prompts
    int_prompts_to_compare lists (and of the turns it judged again or removed) and keeps every
    other row; when the compared models or the verdict words changed, every row. Spark builds
    both as tables (no DELETE on its Parquet tables, and these rows are keyed by prompt, not
    by the build that judged them).
#}

{#
    int_turns_compared's pre-hook on DuckDB, on an incremental run: delete every row when the
    stored rows are stale (compared_rows_are_stale), otherwise the rows of the prompts in
    `prompts_to_compare` and of the turns in `turns_to_judge` judged again or removed (a turn
    with no prompt_id is in no prompt). The model then writes those rows again from the judged
    turns. `select 1` otherwise and on Spark. An incremental run first calls
    require_this_builds_batch: it writes the rows of this build's batch. A full one reads every
    judged turn, so `dbt build --full-refresh --select int_turns_compared+` rebuilds the
    compared rows alone.
#}
{% macro delete_compared_rows(prompts_to_compare, turns_to_judge, judged, verdict_words) -%}
    {%- if is_incremental() -%}
        {%- do require_this_builds_batch(turns_to_judge) -%}
    {%- endif -%}
    {%- if is_incremental() and target.type != 'spark' -%}
        delete from {{ this }}
        {%- if not compared_rows_are_stale(judged, verdict_words) %}
        where
            prompt_id in (select prompt_id from {{ prompts_to_compare }})
            or turn_id in ({{ turns_judged_again(turns_to_judge) }})
        {%- endif -%}
    {%- else -%}
        select 1
    {%- endif -%}
{%- endmacro %}

{#
    Whether int_turns_compared's stored rows ({{ this }}, on an incremental run on DuckDB) were
    written for another set of compared models (a model arrived or left, or var
    compared_models changed: the number of models a shared prompt needs changed) or other
    verdict words (is_deviation); false otherwise. `judged` is the relation of
    int_turns_judged, `verdict_words` of the seed. The model's query and its pre-hook both ask,
    before the hook deletes anything, so they agree.
#}
{% macro compared_rows_are_stale(judged, verdict_words) -%}
    {%- if not (execute and is_incremental() and target.type != 'spark') -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set compared_models -%}
        select distinct model_id from {{ judged }} where {{ is_compared_model('model_id') }}
    {%- endset -%}
    {%- set stale = run_query(
        'select ('
        ~ ' exists (select distinct model_id from ' ~ this ~ ' except ' ~ compared_models ~ ')'
        ~ ' or exists (' ~ compared_models ~ ' except select distinct model_id from ' ~ this ~ ')'
        ~ ' or exists (select distinct verdict, is_deviation from ' ~ this
        ~ ' except select verdict, is_deviation from ' ~ verdict_words ~ ')'
        ~ ') as stale'
    ).columns[0].values()[0] -%}
    {{- return(stale) -}}
{%- endmacro %}

{#
    fct_prompt_model_matrix's pre-hook on DuckDB, on an incremental run: delete the rows of the
    prompts in `prompts_to_compare`, or every row when int_turns_compared (`compared`) holds no
    row an earlier build wrote (it was written whole). The model then writes the shared ones
    among them again from the rows of `compared` this build wrote. `select 1` otherwise and on
    Spark.
#}
{% macro delete_matrix_rows(compared, prompts_to_compare) -%}
    {%- if is_incremental() and target.type != 'spark' -%}
        delete from {{ this }}
        where
            prompt_id in (select prompt_id from {{ prompts_to_compare }})
            or not exists (
                select 1 from {{ compared }} where compared_by <> {{ this_build() }}
            )
    {%- else -%}
        select 1
    {%- endif -%}
{%- endmacro %}
