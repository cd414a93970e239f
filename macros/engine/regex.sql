{#
    A regular expression as the body of a Spark SQL string literal. Spark unescapes backslashes
    in string literals (`'\s'` is `s`), so each is doubled; DuckDB keeps them as written.
#}
{% macro spark_regex_literal(pattern) -%}
    {{- pattern | replace('\\', '\\\\') -}}
{%- endmacro %}
