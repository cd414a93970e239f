{#
    Ordered aggregates. DuckDB orders inside the aggregate (list(x order by …), string_agg(x, s
    order by …)); Spark's collect_list has no order, so the values are collected as structs
    led by their sort keys, sorted, and unwrapped. `order_by` is a list of (expression,
    direction) pairs, direction 'asc' or 'desc', with DuckDB's default of nulls last either way;
    a descending key must be numeric on Spark (it is negated).
#}

{# The values of a group as a list, in the given order (null over no rows on DuckDB). #}
{% macro ordered_list(value, order_by) -%}
    {{- adapter.dispatch('ordered_list', 'card_keeper')(value, order_by) -}}
{%- endmacro %}

{% macro duckdb__ordered_list(value, order_by) -%}
    list({{ value }} order by {{ order_by_clause(order_by) }})
{%- endmacro %}

{% macro spark__ordered_list(value, order_by) -%}
    {%- set keys = [] -%}
    {%- for expression, direction in order_by -%}
        {%- do keys.append("'n" ~ loop.index ~ "', " ~ expression ~ ' is null') -%}
        {%- do keys.append(
            "'k" ~ loop.index ~ "', " ~ ('-(' ~ expression ~ ')' if direction == 'desc' else expression)
        ) -%}
    {%- endfor -%}
    transform(
        array_sort(collect_list(named_struct({{ keys | join(', ') }}, 'value', {{ value }}))),
        entry -> entry.value
    )
{%- endmacro %}

{# The texts of a group joined with a separator, in the given order; null over no rows. #}
{% macro ordered_text_agg(value, separator, order_by) -%}
    {{- adapter.dispatch('ordered_text_agg', 'card_keeper')(value, separator, order_by) -}}
{%- endmacro %}

{% macro duckdb__ordered_text_agg(value, separator, order_by) -%}
    string_agg({{ value }}, {{ separator }} order by {{ order_by_clause(order_by) }})
{%- endmacro %}

{% macro spark__ordered_text_agg(value, separator, order_by) -%}
    case when count({{ value }}) > 0
        then array_join({{ spark__ordered_list(value, order_by) }}, {{ separator }})
    end
{%- endmacro %}

{# `order_by` pairs as an ORDER BY list; ascending is DuckDB's default and left unsaid. #}
{% macro order_by_clause(order_by) -%}
    {%- set terms = [] -%}
    {%- for expression, direction in order_by -%}
        {%- do terms.append(expression ~ (' desc' if direction == 'desc' else '')) -%}
    {%- endfor -%}
    {{- terms | join(', ') -}}
{%- endmacro %}
