{#
    DuckDB: a table model may choose the compression of some of its columns with the config
    `column_compression` ({column: method}). Long free text (reply_text, and the evidence values
    that quote it) is the case: DuckDB's default for text, dictionary + FSST, costs about twice
    the CPU of zstd to write a million replies and stores them in twice the space, while
    reading either costs the same. The table is created from the query's own column types
    (DESCRIBE, which runs nothing; with an enforced contract, the contract's columns in the
    contract's order, after dbt's usual check), then filled with one insert. Every other table
    keeps dbt-duckdb's create table as. Only DuckDB calls this macro (adapter dispatch), so the
    config is inert on any other target.
#}
{% macro duckdb__create_table_as(
    temporary, relation, compiled_code, language='sql', partitioned_by=none, sorted_by=none
) -%}
    {%- set compression = config.get('column_compression') or {} -%}
    {%- if language != 'sql' or temporary or not compression or partitioned_by or sorted_by
        or not execute -%}
        {{ return(dbt.duckdb__create_table_as(
            temporary, relation, compiled_code, language, partitioned_by, sorted_by
        )) }}
    {%- endif -%}

    {%- if config.get('contract').enforced -%}
        {{ get_assert_columns_equivalent(compiled_code) }}
        {%- set select_sql = get_select_subquery(compiled_code) -%}
    {%- else -%}
        {%- set select_sql = compiled_code -%}
    {%- endif -%}
    {%- set columns = run_query('describe (\n' ~ select_sql ~ '\n)') -%}
    {%- set column_names = columns.columns['column_name'].values() -%}
    {%- for name in compression if name not in column_names -%}
        {{ exceptions.raise_compiler_error(
            "column_compression names '" ~ name ~ "', which " ~ relation ~ " does not have"
        ) }}
    {%- endfor -%}
    {%- set sql_header = config.get('sql_header', none) -%}

    {{ sql_header if sql_header is not none }}
    create table {{ relation }} (
        {%- for column in columns %}
            {{ adapter.quote(column['column_name']) }} {{ column['column_type'] }}
            {%- if column['column_name'] in compression %}
                using compression {{ compression[column['column_name']] }}
            {%- endif %}
            {{- ',' if not loop.last }}
        {%- endfor %}
    );
    insert into {{ relation }}
    select * from (
        {{ select_sql }}
    ) as model_subq;
{%- endmacro %}
