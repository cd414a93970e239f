{#
    Check 9's comparison of one evidence row (`evidence.value`, `evidence.agg`) with the cited
    column, by the column's catalog type: a list is matched by element or, with agg = 'count',
    by length; entity_roles (a list of structs) by a role or an entity; anything else by its
    text. A null value matches only a null column.
#}
{% macro evidence_value_matches(column, dtype) -%}
    {%- set dtype = dtype | upper -%}
    {%- if dtype.endswith('[]') -%}
        case
            when evidence.agg = 'count'
                then evidence.value = cast({{ list_length(column) }} as varchar)
            when evidence.value is null then {{ column }} is null
            {%- if dtype.startswith('STRUCT') %}
            else
                {{ list_has("list_transform(" ~ column ~ ", lambda entry: struct_extract(entry, 'role'))", 'evidence.value') }}
                or {{ list_has("list_transform(" ~ column ~ ", lambda entry: struct_extract(entry, 'entity'))", 'evidence.value') }}
            {%- else %}
            else {{ list_has(column, 'evidence.value') }}
            {%- endif %}
        end
    {%- else -%}
        evidence.agg is null and evidence.value is not distinct from cast({{ column }} as varchar)
    {%- endif -%}
{%- endmacro %}
