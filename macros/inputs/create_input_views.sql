{#
    on-run-start: (re)create one view per input table in schema `raw`, reading the files the
    input vars name (SPEC §1). The views are the sources of staging; every column is text
    (lists as JSON text) so that parsing, and its failures, happen in staging where a bad value
    can be quarantined instead of failing the read.
#}
{% macro create_input_views() -%}
    {%- if not execute -%}
        {{ return('select 1') }}
    {%- endif -%}
    {%- set root = run_query("select getvariable('ck_project_root')").columns[0].values()[0] -%}
    {%- set statements = ['create schema if not exists raw'] -%}
    {%- for table_name, spec in input_contract().items() -%}
        {%- do statements.append(
            'create or replace view raw.' ~ table_name ~ ' as '
            ~ read_input(table_name, spec, root)
        ) -%}
    {%- endfor -%}
    {{ return(statements | join(';\n')) }}
{%- endmacro %}
