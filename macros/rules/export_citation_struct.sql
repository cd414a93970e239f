{#
    One evidence citation in the output schema's shape (docs/rules.md#output): source, field, agg
    and the value as JSON, a string or a number / boolean by its kind. fct_turn_verdicts builds its
    evidence list from these directly, without the cited keys.
#}
{% macro export_citation_struct(source, field, agg, value, kind) -%}
    {
        'source': '{{ source }}',
        'field': '{{ field }}',
        'agg': {{ "'" ~ agg ~ "'" if agg else 'cast(null as varchar)' }},
        'value': {{ citation_json(value, kind) }}
    }
{%- endmacro %}

{# A value as JSON by its kind: text becomes a JSON string, a number or boolean stays bare. #}
{% macro citation_json(value, kind) -%}
    {%- if kind == 'text' -%}
        to_json(cast({{ value }} as varchar))
    {%- else -%}
        cast(cast({{ value }} as varchar) as json)
    {%- endif -%}
{%- endmacro %}
