{#
    on-run-end: which verdict rows the seed-000 checks (tests/marts/assert_check_*) read in this
    build (checked_turn): those of the turns it judged and the sample of older rows. One log line, and one
    row in audit.check_coverage, so that a check passing on an incremental build is never read
    as a check of every row. DuckDB only: a Spark build writes every row, so checks all of them.
#}
{% macro log_check_coverage(results) -%}
    {{- return(adapter.dispatch('log_check_coverage', 'card_keeper')(results)) -}}
{%- endmacro %}

{% macro spark__log_check_coverage(results) -%}
    {{- return('select 1') -}}
{%- endmacro %}

{% macro duckdb__log_check_coverage(results) -%}
    {%- set checks = [] -%}
    {%- for result in results
        if result.node.resource_type == 'test' and result.node.name.startswith('assert_check_') -%}
        {%- do checks.append(result.node.name) -%}
    {%- endfor -%}
    {%- if not execute or not checks -%}
        {{ return('select 1') }}
    {%- endif -%}
    {#- A build that failed before the verdicts or the batch existed has nothing to count. -#}
    {%- if run_query(
        "select count(*) from duckdb_tables() where (schema_name, table_name) in"
        ~ " (('marts', 'fct_turn_verdicts'), ('intermediate', 'int_turn_judging_state'))"
    ).columns[0].values()[0] < 2 -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set counted = run_query(
        "with verdicts as (
            select
                turn_id,
                turn_id in (select turn_id from intermediate.int_turns_to_judge) as in_batch
            from marts.fct_turn_verdicts
        )
        select
            count(*) filter (where in_batch),
            count(*) filter (where not in_batch and " ~ older_turn_sample('turn_id') ~ "),
            count(*)
        from verdicts"
    ).rows[0] -%}
    {%- set written, sampled, total = counted[0], counted[1], counted[2] -%}
    {%- do log(
        "Seed 000 checks (" ~ checks | length ~ ") read " ~ (written + sampled) ~ " of " ~ total
        ~ " verdict rows: the " ~ written ~ " of the turns this build judged"
        ~ (" and a " ~ var('recheck_older_share') ~ " sample (" ~ sampled ~ ") of the "
            ~ (total - written) ~ " older rows" if total > written else "")
        ~ " (docs/rules.md#incremental-builds)",
        info=true
    ) -%}
    {{ return(
        "create schema if not exists audit;
        create table if not exists audit.check_coverage (invocation_id varchar,
            checked_at timestamp, check_count integer, rows_written bigint,
            rows_sampled bigint, rows_total bigint);
        insert into audit.check_coverage values (" ~ this_build() ~ ", current_timestamp,
            " ~ checks | length ~ ", " ~ written ~ ", " ~ sampled ~ ", " ~ total ~ ")"
    ) }}
{%- endmacro %}
