{#
    Small SQL spellings that differ between DuckDB and Spark, for the input readers, staging
    and the quarantine. Each default__ renders the DuckDB SQL the models wrote before, so a
    DuckDB build is unchanged; each spark__ is plain Spark SQL.
#}

{# The CTE keyword that makes DuckDB compute a CTE once; Spark has none (it plans CTEs whole). #}
{% macro cte_materialized_hint() -%}
    {{- adapter.dispatch('cte_materialized_hint', 'card_keeper')() -}}
{%- endmacro %}

{% macro default__cte_materialized_hint() -%}materialized{%- endmacro %}

{% macro spark__cte_materialized_hint() -%}{%- endmacro %}

{# The function that concatenates two lists (list_concat / concat). #}
{% macro list_concat_function() -%}
    {{- adapter.dispatch('list_concat_function', 'card_keeper')() -}}
{%- endmacro %}

{% macro default__list_concat_function() -%}list_concat{%- endmacro %}

{% macro spark__list_concat_function() -%}concat{%- endmacro %}

{# The function that counts a list's elements (len / size). #}
{% macro list_size_function() -%}
    {{- adapter.dispatch('list_size_function', 'card_keeper')() -}}
{%- endmacro %}

{% macro default__list_size_function() -%}len{%- endmacro %}

{% macro spark__list_size_function() -%}size{%- endmacro %}

{# Whether a list of texts holds a text (null for a null list). #}
{% macro text_list_contains(list_expression, value_expression) -%}
    {{- adapter.dispatch('text_list_contains', 'card_keeper')(list_expression, value_expression) -}}
{%- endmacro %}

{% macro default__text_list_contains(list_expression, value_expression) -%}
    list_contains({{ list_expression }}, {{ value_expression }})
{%- endmacro %}

{% macro spark__text_list_contains(list_expression, value_expression) -%}
    array_contains({{ list_expression }}, {{ value_expression }})
{%- endmacro %}

{#
    Every column of a relation whose columns are `columns` (in order) but the `excluded`
    ones, with the `replaced` ones ({name: expression}) computed anew in place: DuckDB's
    `* exclude (…) replace (…)`, spelled out column by column on Spark.
#}
{% macro star_except(columns, excluded, replaced={}) -%}
    {{- adapter.dispatch('star_except', 'card_keeper')(columns, excluded, replaced) -}}
{%- endmacro %}

{% macro default__star_except(columns, excluded, replaced) -%}
    * exclude ({{ excluded | join(', ') }})
    {%- if replaced %} replace (
        {%- for name, expression in replaced.items() -%}
            {{ expression }} as {{ name }}{{ ', ' if not loop.last }}
        {%- endfor -%}
    ){% endif %}
{%- endmacro %}

{% macro spark__star_except(columns, excluded, replaced) -%}
    {%- set kept = [] -%}
    {%- for name in columns if name not in excluded -%}
        {%- do kept.append((replaced[name] ~ ' as ' ~ name) if name in replaced else name) -%}
    {%- endfor -%}
    {{ kept | join(', ') }}
{%- endmacro %}

{#
    The fields of each violation struct of a list as columns (column_name, reason_code,
    raw_value), one row per violation: DuckDB's recursive unnest, Spark's inline generator.
#}
{% macro violation_fields(list_expression) -%}
    {{- adapter.dispatch('violation_fields', 'card_keeper')(list_expression) -}}
{%- endmacro %}

{% macro default__violation_fields(list_expression) -%}
    unnest({{ list_expression }}, recursive := true)
{%- endmacro %}

{% macro spark__violation_fields(list_expression) -%}
    inline({{ list_expression }})
{%- endmacro %}
