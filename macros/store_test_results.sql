{#
    on-run-end: keep the outcome of every data test and unit test of this invocation in
    audit.dbt_test_results, so the screen can show the output-schema checks with pass / fail
    and when they ran, from the database it reads (an upload's own database included).
    Earlier invocations stay; the screen shows the latest one.
    For a failed or warned output-schema check (assert_check_*, which store their failing rows:
    dbt_project.yml), the turn_ids of its failing rows, distinct, at most
    var('test_failure_turn_limit', 1000) per test, go to audit.dbt_test_failures
    (invocation_id, run_started_at, test_name, turn_id); a failures table without a turn_id
    column stores one row with a null turn_id. A passing invocation stores none. DuckDB only.
#}
{% macro store_test_results(results) -%}
    {{- return(adapter.dispatch('store_test_results', 'card_keeper')(results)) -}}
{%- endmacro %}

{% macro duckdb__store_test_results(results) -%}
    {%- if not execute -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set rows = [] -%}
    {%- for result in results if result.node.resource_type in ('test', 'unit_test') -%}
        {%- set model_refs = [] -%}
        {%- for node_id in result.node.depends_on.nodes if node_id.startswith('model.') -%}
            {%- do model_refs.append(node_id.split('.')[-1]) -%}
        {%- endfor -%}
        {%- do rows.append(
            "("
            ~ sql_text(invocation_id) ~ ", "
            ~ sql_text(run_started_at.strftime('%Y-%m-%d %H:%M:%S')) ~ ", "
            ~ sql_text(result.node.name) ~ ", "
            ~ sql_text(result.node.resource_type) ~ ", "
            ~ sql_text(model_refs | join(', ')) ~ ", "
            ~ sql_text(result.status | string) ~ ", "
            ~ (result.failures if result.failures is not none else 'null') ~ ", "
            ~ sql_text((result.message or '') | string | truncate(500)) ~ ")"
        ) -%}
    {%- endfor -%}
    {%- set statements = [
        "create schema if not exists audit",
        "create table if not exists audit.dbt_test_results (
            invocation_id varchar, run_started_at timestamp, test_name varchar,
            resource_type varchar, tested_models varchar, status varchar,
            failures bigint, message varchar)",
    ] -%}
    {%- if rows -%}
        {%- do statements.append(
            "insert into audit.dbt_test_results values " ~ (rows | join(',\n'))
        ) -%}
    {%- endif -%}
    {%- do statements.append(
        "create table if not exists audit.dbt_test_failures (
            invocation_id varchar, run_started_at timestamp, test_name varchar,
            turn_id varchar)"
    ) -%}
    {%- for result in results if result.node.resource_type == 'test'
        and result.node.name.startswith('assert_check_')
        and (result.status | string) in ('fail', 'warn')
        and result.node.relation_name -%}
        {#- Each failing row's turn_id column read through its JSON, so that a failures
            table without one gives null (one row), with no catalog lookup: that would open
            a transaction on this connection, and dbt rolls it back at the end of the hooks. -#}
        {%- set turn_ids = (
            "select distinct json_extract_string(to_json(failed_row), '$.turn_id') as turn_id"
            ~ " from " ~ result.node.relation_name ~ " as failed_row"
            ~ " order by turn_id nulls first limit " ~ (var('test_failure_turn_limit', 1000) | int)
        ) -%}
        {%- do statements.append(
            "insert into audit.dbt_test_failures select "
            ~ sql_text(invocation_id) ~ ", "
            ~ "timestamp " ~ sql_text(run_started_at.strftime('%Y-%m-%d %H:%M:%S')) ~ ", "
            ~ sql_text(result.node.name) ~ ", failing.turn_id from (" ~ turn_ids ~ ") as failing"
        ) -%}
    {%- endfor -%}
    {{ return(statements | join(';\n')) }}
{%- endmacro %}

{#
    Spark runs one statement per call, so each runs here and the hook itself is a no-op; the
    table is parquet, its rows the same as DuckDB's (run_started_at a typed literal: Spark
    stores no text in a timestamp column). audit.dbt_test_failures is DuckDB only: the checks
    store no failures on Spark (dbt_project.yml), whose build no screen reads.
#}
{% macro spark__store_test_results(results) -%}
    {%- if not execute -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set rows = [] -%}
    {%- for result in results if result.node.resource_type in ('test', 'unit_test') -%}
        {%- set model_refs = [] -%}
        {%- for node_id in result.node.depends_on.nodes if node_id.startswith('model.') -%}
            {%- do model_refs.append(node_id.split('.')[-1]) -%}
        {%- endfor -%}
        {%- do rows.append(
            "("
            ~ sql_text(invocation_id) ~ ", "
            ~ "timestamp" ~ sql_text(run_started_at.strftime('%Y-%m-%d %H:%M:%S')) ~ ", "
            ~ sql_text(result.node.name) ~ ", "
            ~ sql_text(result.node.resource_type) ~ ", "
            ~ sql_text(model_refs | join(', ')) ~ ", "
            ~ sql_text(result.status | string) ~ ", "
            ~ (result.failures if result.failures is not none else 'null') ~ ", "
            ~ sql_text((result.message or '') | string | truncate(500)) ~ ")"
        ) -%}
    {%- endfor -%}
    {%- do run_query("create schema if not exists audit") -%}
    {%- do run_query(
        "create table if not exists audit.dbt_test_results (
            invocation_id string, run_started_at timestamp, test_name string,
            resource_type string, tested_models string, status string,
            failures bigint, message string) using parquet"
    ) -%}
    {%- if rows -%}
        {%- do run_query("insert into audit.dbt_test_results values " ~ (rows | join(',\n'))) -%}
    {%- endif -%}
    {{ return('select 1') }}
{%- endmacro %}

{# A SQL string literal of any text, as each engine escapes it. #}
{% macro sql_text(value) -%}
    {{- return(adapter.dispatch('sql_text', 'card_keeper')(value)) -}}
{%- endmacro %}

{% macro duckdb__sql_text(value) -%}
    {{- "'" ~ (value | string | replace("'", "''")) ~ "'" -}}
{%- endmacro %}

{#
    Spark reads a backslash in a literal as an escape, so both a backslash and a quote are
    escaped with one ('it''s' would be the two literals 'it' and 's', read as "its").
#}
{% macro spark__sql_text(value) -%}
    {{- "'" ~ (value | string | replace("\\", "\\\\") | replace("'", "\\'")) ~ "'" -}}
{%- endmacro %}
