{#
    Use a model's custom schema as given (staging, intermediate, marts, seeds) instead of
    prefixing it with the target schema: dashboards and analysts query `marts.fct_turn_verdicts`.
#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {%- if custom_schema_name is none -%}
        {{ target.schema }}
    {%- else -%}
        {{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
