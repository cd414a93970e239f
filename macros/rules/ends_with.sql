{# Whether a text ends with a suffix (DuckDB's ends_with; Spark calls it endswith). #}
{% macro ends_with(expression, suffix) -%}
    {{- adapter.dispatch('ends_with', 'card_keeper')(expression, suffix) -}}
{%- endmacro %}

{% macro duckdb__ends_with(expression, suffix) -%}
    ends_with({{ expression }}, {{ suffix }})
{%- endmacro %}

{% macro spark__ends_with(expression, suffix) -%}
    endswith({{ expression }}, {{ suffix }})
{%- endmacro %}
