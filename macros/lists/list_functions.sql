{#
    List helpers. DuckDB's list and lambda functions differ from Spark's array functions, so
    models call these macros instead of the functions themselves.
#}

{# Whether a list holds a value; a null list holds nothing. #}
{% macro list_has(list_expression, value_expression) -%}
    coalesce(list_contains({{ list_expression }}, {{ value_expression }}), false)
{%- endmacro %}

{# The number of elements; a null list has 0. #}
{% macro list_length(list_expression) -%}
    coalesce(len({{ list_expression }}), 0)
{%- endmacro %}

{#
    The distinct elements of a list that are not in another list, in first-occurrence order
    (off_canon_entities, docs/rules.md#canon). Null when the first list is null.
#}
{% macro list_except_ordered(list_expression, excluded_expression) -%}
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

{# The elements joined into one text with a separator; null elements are skipped. #}
{% macro list_join(list_expression, separator) -%}
    array_to_string({{ list_expression }}, {{ separator }})
{%- endmacro %}

{# Each element wrapped in corner brackets (「…」), joined with ", ", for summaries. #}
{% macro quoted_list(list_expression) -%}
    {{ list_join("list_transform(" ~ list_expression ~ ", lambda element: '「' || element || '」')", "', '") }}
{%- endmacro %}

{# The `role` of every {role, entity} pair of an entity_roles list, in card order. #}
{% macro entity_roles_roles(list_expression) -%}
    list_transform({{ list_expression }}, lambda entry: struct_extract(entry, 'role'))
{%- endmacro %}
