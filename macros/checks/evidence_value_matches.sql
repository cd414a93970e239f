{#
    Check 9's comparison of one evidence row (`{{ alias }}.value`, `{{ alias }}.agg`) with the cited
    column, by the column's catalog type: a list is matched by element or, with agg = 'count',
    by length; entity_roles (a list of structs) by a role or an entity; anything else by its
    text. A null value matches only a null column.
#}
{% macro evidence_value_matches(column, dtype, alias='evidence') -%}
    {{- return(adapter.dispatch('evidence_value_matches', 'card_keeper')(column, dtype, alias)) -}}
{%- endmacro %}

{% macro duckdb__evidence_value_matches(column, dtype, alias='evidence') -%}
    {%- set dtype = dtype | upper -%}
    {%- if dtype.endswith('[]') -%}
        case
            when {{ alias }}.agg = 'count'
                then {{ alias }}.value = cast({{ list_length(column) }} as varchar)
            when {{ alias }}.value is null then {{ column }} is null
            {%- if dtype.startswith('STRUCT') %}
            else
                {{ list_has("list_transform(" ~ column ~ ", lambda entry: struct_extract(entry, 'role'))", alias ~ '.value') }}
                or {{ list_has("list_transform(" ~ column ~ ", lambda entry: struct_extract(entry, 'entity'))", alias ~ '.value') }}
            {%- else %}
            else {{ list_has(column, alias ~ '.value') }}
            {%- endif %}
        end
    {%- else -%}
        (
            {{ alias }}.agg is null
            and {{ alias }}.value is not distinct from cast({{ column }} as varchar)
        )
    {%- endif -%}
{%- endmacro %}

{# The same on Spark, whose catalog types read array<...>, struct<...>, string. #}
{% macro spark__evidence_value_matches(column, dtype, alias='evidence') -%}
    {%- set dtype = dtype | lower -%}
    {%- if dtype.startswith('array<') -%}
        case
            when {{ alias }}.agg = 'count'
                then {{ alias }}.value = cast(coalesce({{ sql_len(column) }}, 0) as string)
            when {{ alias }}.value is null then {{ column }} is null
            {%- if dtype.startswith('array<struct') %}
            else
                array_contains(transform({{ column }}, entry -> entry.role), {{ alias }}.value)
                or array_contains(transform({{ column }}, entry -> entry.entity), {{ alias }}.value)
            {%- else %}
            else array_contains({{ column }}, {{ alias }}.value)
            {%- endif %}
        end
    {%- else -%}
        (
            {{ alias }}.agg is null
            and {{ alias }}.value is not distinct from cast({{ column }} as string)
        )
    {%- endif -%}
{%- endmacro %}

{#
    Whether `<alias>.value` is the value of column `<alias>.field` of the cited row (aliased
    `cited`), for whichever column of `relation` the field names — the column list is read
    from the catalog — and false for a field that is no column of it.
#}
{% macro evidence_field_matches(relation, alias='evidence') -%}
    {%- set columns = adapter.get_columns_in_relation(relation) if execute else [] -%}
    {%- if columns | length == 0 -%}
        false
    {%- else -%}
        case {{ alias }}.field
            {%- for column in columns %}
            when '{{ column.name }}'
                then {{ evidence_value_matches('cited.' ~ column.name, column.dtype, alias) }}
            {%- endfor %}
            else false
        end
    {%- endif -%}
{%- endmacro %}
