{#
    One evidence citation in the output schema's shape (docs/rules.md#output): source, field, agg
    and the value as JSON, a string or a number / boolean by its kind. fct_turn_verdicts builds its
    evidence list from these directly, without the cited keys.
#}
{% macro export_citation_struct(source, field, agg, value, kind) -%}
    {{ struct_of([
        ('source', "'" ~ source ~ "'"),
        ('field', "'" ~ field ~ "'"),
        ('agg', "'" ~ agg ~ "'" if agg else 'cast(null as ' ~ text_type() ~ ')'),
        ('value', citation_json(value, kind)),
    ]) }}
{%- endmacro %}

{#
    A value as JSON by its kind: text becomes a JSON string, a number or boolean stays bare (a
    JSON value on DuckDB, its JSON text on Spark, which has no JSON type).
#}
{% macro citation_json(value, kind) -%}
    {%- set text = 'cast(' ~ value ~ ' as ' ~ text_type() ~ ')' -%}
    {%- if kind == 'text' -%}
        {{ json_string(text) }}
    {%- else -%}
        {{ json_scalar(text) }}
    {%- endif -%}
{%- endmacro %}
