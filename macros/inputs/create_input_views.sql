{#
    on-run-start: (re)create one view per input table in schema `raw`, reading the files the
    input vars name (SPEC §1). The views are the sources of staging; every column is text
    (lists as JSON text) so that parsing, and its failures, happen in staging where a bad value
    can be quarantined instead of failing the read.
#}
{#
    The path an input var names. An optional input (golden labels, LLM summaries) left unset
    falls back to its demo file only while the turns are the demo's own: the demo labels
    describe the demo turns and nobody else's. Returns none when there is no such input.
#}
{% macro input_path(spec) -%}
    {%- set given = var(spec.var, none) -%}
    {%- if given not in (none, '') -%}
        {{ return(given | string) }}
    {%- elif not spec.get('optional') -%}
        {{ exceptions.raise_compiler_error(spec.var ~ ' is required') }}
    {%- elif var('input_chat_turn') == 'data/demo/chat_turn.jsonl' -%}
        {{ return(spec.demo_default) }}
    {%- else -%}
        {{ return(none) }}
    {%- endif -%}
{%- endmacro %}

{# An input view with the contract's columns and no rows, for an optional input not given. #}
{% macro empty_input(spec) -%}
    select
        {% for column in spec.columns -%}
            cast(null as varchar) as {{ column.name }},
        {% endfor -%}
        cast(null as varchar) as _source_file,
        cast(null as varchar) as _parse_error,
        cast(null as varchar) as _raw_line,
        cast(null as bigint) as _source_row
    where false
{%- endmacro %}

{% macro create_input_views() -%}
    {%- if not execute -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set root = run_query("select getvariable('ck_project_root')").columns[0].values()[0] -%}
    {%- set statements = ['create schema if not exists raw'] -%}
    {%- for table_name, spec in input_contract().items() -%}
        {%- do statements.append(
            'create or replace view raw.' ~ table_name ~ ' as '
            ~ (read_input(table_name, spec, root) if input_path(spec) else empty_input(spec))
        ) -%}
    {%- endfor -%}
    {{ return(statements | join(';\n')) }}
{%- endmacro %}
