{#
    The few SQL constructs of the marts (evaluation, review, history), their tests and the
    hooks that DuckDB and Spark spell differently, one macro each, dispatched on the adapter:
    duckdb__ is the project's SQL as it always was, spark__ the same meaning in Spark SQL
    (ANSI off, as dbt-spark runs it).
#}

{# The text type of a cast: DuckDB's varchar; Spark's varchar needs a length, its string not. #}
{% macro sql_type_text() -%}
    {{- return(adapter.dispatch('sql_type_text', 'card_keeper')()) -}}
{%- endmacro %}

{% macro duckdb__sql_type_text() -%}
    {{- return('varchar') -}}
{%- endmacro %}

{% macro spark__sql_type_text() -%}
    {{- return('string') -}}
{%- endmacro %}

{# A list of texts. #}
{% macro sql_type_text_list() -%}
    {{- return(adapter.dispatch('sql_type_text_list', 'card_keeper')()) -}}
{%- endmacro %}

{% macro duckdb__sql_type_text_list() -%}
    {{- return('varchar[]') -}}
{%- endmacro %}

{% macro spark__sql_type_text_list() -%}
    {{- return('array<string>') -}}
{%- endmacro %}

{#
    The aggregate list of `value` in the order of `order_by` (SQL, as after ORDER BY).
    Spark's collect_list has no order: it sorts structs of `spark_keys` (expressions whose
    ascending order is that of order_by: a descending number negated) then `value`, and keeps
    the values. The rows' values are never null here (Spark would drop them).
#}
{% macro sql_list_ordered(value, order_by, spark_keys) -%}
    {{- return(adapter.dispatch('sql_list_ordered', 'card_keeper')(value, order_by, spark_keys)) -}}
{%- endmacro %}

{% macro duckdb__sql_list_ordered(value, order_by, spark_keys) -%}
    list({{ value }} order by {{ order_by }})
{%- endmacro %}

{% macro spark__sql_list_ordered(value, order_by, spark_keys) -%}
    transform(
        array_sort(collect_list(named_struct(
            {%- for key in spark_keys %}'k{{ loop.index }}', {{ key }}, {% endfor -%}
            'v', {{ value }}
        ))),
        sorted -> sorted.v
    )
{%- endmacro %}

{# Every column but `columns` (a comma-separated text) after `*`. #}
{% macro sql_star_except(columns) -%}
    {{- return(adapter.dispatch('sql_star_except', 'card_keeper')(columns)) -}}
{%- endmacro %}

{% macro duckdb__sql_star_except(columns) -%}
    * exclude ({{ columns }})
{%- endmacro %}

{% macro spark__sql_star_except(columns) -%}
    * except ({{ columns }})
{%- endmacro %}

{# One row per element of the list `expression`, as a select-list item. #}
{% macro sql_unnest(expression) -%}
    {{- return(adapter.dispatch('sql_unnest', 'card_keeper')(expression)) -}}
{%- endmacro %}

{% macro duckdb__sql_unnest(expression) -%}
    unnest({{ expression }})
{%- endmacro %}

{% macro spark__sql_unnest(expression) -%}
    explode({{ expression }})
{%- endmacro %}

{#
    The rows of `relation` (a CTE name) that come first in their partition under `order_by`:
    DuckDB's QUALIFY; Spark has none, so a numbered subquery, the number left out.
#}
{% macro sql_first_per_partition(relation, partition_by, order_by) -%}
    {{- return(adapter.dispatch('sql_first_per_partition', 'card_keeper')(
        relation, partition_by, order_by
    )) -}}
{%- endmacro %}

{% macro duckdb__sql_first_per_partition(relation, partition_by, order_by) -%}
    select *
    from {{ relation }}
    qualify row_number() over (
        partition by {{ partition_by }}
        order by {{ order_by }}
    ) = 1
{%- endmacro %}

{% macro spark__sql_first_per_partition(relation, partition_by, order_by) -%}
    select * except (partition_row)
    from (
        select
            *,
            row_number() over (
                partition by {{ partition_by }}
                order by {{ order_by }}
            ) as partition_row
        from {{ relation }}
    )
    where partition_row = 1
{%- endmacro %}


{#
    One row per element of the list `expression`, as the select-list items `value_name` (the
    element) and `number_name` (its 1-based position).
#}
{% macro sql_unnest_numbered(expression, value_name, number_name) -%}
    {{- return(adapter.dispatch('sql_unnest_numbered', 'card_keeper')(
        expression, value_name, number_name
    )) -}}
{%- endmacro %}

{% macro duckdb__sql_unnest_numbered(expression, value_name, number_name) -%}
    unnest({{ expression }}) as {{ value_name }},
        generate_subscripts({{ expression }}, 1) as {{ number_name }}
{%- endmacro %}

{% macro spark__sql_unnest_numbered(expression, value_name, number_name) -%}
    inline(transform({{ expression }}, (item, position) -> named_struct(
        '{{ value_name }}', item, '{{ number_name }}', position + 1
    )))
{%- endmacro %}

{# The length of the list `expression` (null for a null list). #}
{% macro sql_len(expression) -%}
    {{- return(adapter.dispatch('sql_len', 'card_keeper')(expression)) -}}
{%- endmacro %}

{% macro duckdb__sql_len(expression) -%}
    len({{ expression }})
{%- endmacro %}

{# size(null) is -1 with ANSI off: null kept null, as DuckDB's len. #}
{% macro spark__sql_len(expression) -%}
    case when {{ expression }} is not null then size({{ expression }}) end
{%- endmacro %}

{# The empty list of texts. #}
{% macro sql_empty_text_list() -%}
    {{- return(adapter.dispatch('sql_empty_text_list', 'card_keeper')()) -}}
{%- endmacro %}

{% macro duckdb__sql_empty_text_list() -%}
    []
{%- endmacro %}

{% macro spark__sql_empty_text_list() -%}
    cast(array() as array<string>)
{%- endmacro %}

{# A struct of `fields`, a list of (name, expression) pairs. #}
{% macro sql_struct(fields) -%}
    {{- return(adapter.dispatch('sql_struct', 'card_keeper')(fields)) -}}
{%- endmacro %}

{% macro duckdb__sql_struct(fields) -%}
    { {% for name, expression in fields %}'{{ name }}': {{ expression }}{{ ', ' if not loop.last }}{% endfor %} }
{%- endmacro %}

{% macro spark__sql_struct(fields) -%}
    named_struct({% for name, expression in fields %}'{{ name }}', {{ expression }}{{ ', ' if not loop.last }}{% endfor %})
{%- endmacro %}

{# The field `name` of the struct `expression`. #}
{% macro sql_struct_field(expression, name) -%}
    {{- return(adapter.dispatch('sql_struct_field', 'card_keeper')(expression, name)) -}}
{%- endmacro %}

{% macro duckdb__sql_struct_field(expression, name) -%}
    struct_extract({{ expression }}, '{{ name }}')
{%- endmacro %}

{% macro spark__sql_struct_field(expression, name) -%}
    {{ expression }}.{{ name }}
{%- endmacro %}
