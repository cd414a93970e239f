{#
    List helpers. DuckDB's list and lambda functions differ from Spark's array functions, so
    models call these macros instead of the functions themselves.
#}

{# Whether a list holds a value; a null list holds nothing. #}
{% macro list_has(list_expression, value_expression) -%}
    {{- adapter.dispatch('list_has', 'card_keeper')(list_expression, value_expression) -}}
{%- endmacro %}

{% macro duckdb__list_has(list_expression, value_expression) -%}
    coalesce(list_contains({{ list_expression }}, {{ value_expression }}), false)
{%- endmacro %}

{% macro spark__list_has(list_expression, value_expression) -%}
    coalesce(array_contains({{ list_expression }}, {{ value_expression }}), false)
{%- endmacro %}

{# The number of elements; a null list has 0. #}
{% macro list_length(list_expression) -%}
    coalesce({{ list_size(list_expression) }}, 0)
{%- endmacro %}

{#
    The distinct elements of a list that are not in another list, in first-occurrence order
    (off_canon_entities, docs/rules.md#canon). Null when the first list is null. Spark's
    array_except would do in one call, but it does not promise the order.
#}
{% macro list_except_ordered(list_expression, excluded_expression) -%}
    {{- adapter.dispatch('list_except_ordered', 'card_keeper')(list_expression, excluded_expression) -}}
{%- endmacro %}

{% macro duckdb__list_except_ordered(list_expression, excluded_expression) -%}
    case when {{ list_expression }} is not null then list_filter(
        list_transform(
            range(1, len({{ list_expression }}) + 1),
            lambda position: case
                when
                    not {{ list_has(excluded_expression, list_expression ~ '[position]') }}
                    and list_position({{ list_expression }}, {{ list_expression }}[position])
                    = position
                    then {{ list_expression }}[position]
            end
        ),
        lambda element: element is not null
    ) end
{%- endmacro %}

{# An element is kept where it first occurs (array_position is 1-based, the index 0-based). #}
{% macro spark__list_except_ordered(list_expression, excluded_expression) -%}
    filter(
        {{ list_expression }},
        (element, position) -> element is not null
        and not {{ list_has(excluded_expression, 'element') }}
        and array_position({{ list_expression }}, element) = position + 1
    )
{%- endmacro %}

{# The elements joined into one text with a separator; null elements are skipped. #}
{% macro list_join(list_expression, separator) -%}
    {{- adapter.dispatch('list_join', 'card_keeper')(list_expression, separator) -}}
{%- endmacro %}

{% macro duckdb__list_join(list_expression, separator) -%}
    array_to_string({{ list_expression }}, {{ separator }})
{%- endmacro %}

{% macro spark__list_join(list_expression, separator) -%}
    array_join({{ list_expression }}, {{ separator }})
{%- endmacro %}

{# Each element wrapped in corner brackets (「…」), joined with ", ", for summaries. #}
{% macro quoted_list(list_expression) -%}
    {{ list_join(transform_list(list_expression, 'element', "'「' || element || '」'"), "', '") }}
{%- endmacro %}

{# The `role` of every {role, entity} pair of an entity_roles list, in card order. #}
{% macro entity_roles_roles(list_expression) -%}
    {{ transform_list(list_expression, 'entry', struct_field('entry', 'role')) }}
{%- endmacro %}
