{# Whether a text ends with a suffix (DuckDB's ends_with; Spark calls it endswith). #}
{% macro ends_with(expression, suffix) -%}
    ends_with({{ expression }}, {{ suffix }})
{%- endmacro %}
