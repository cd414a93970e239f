{#
    List building blocks whose syntax differs between the engines. DuckDB writes list literals
    in brackets, lambdas as `lambda x: …`, indexes lists from 1 and sizes them with len();
    Spark writes array(…), `x -> …`, indexes from 0 (element_at from 1) and sizes with
    array_size() (size() of a null array is -1 on Spark, not null).
#}

{# A list of the given SQL expressions; an empty list when there are none. #}
{% macro list_of(elements) -%}
    {{- adapter.dispatch('list_of', 'card_keeper')(elements) -}}
{%- endmacro %}

{% macro duckdb__list_of(elements) -%}
    [{{ elements | join(', ') }}]
{%- endmacro %}

{% macro spark__list_of(elements) -%}
    array({{ elements | join(', ') }})
{%- endmacro %}

{#
    A call block: the list of the SQL expressions in its body (comma-separated), keeping the
    elements for which a predicate of `name` (the element) is true.
#}
{% macro filtered_list_of(name, predicate) -%}
    {{ filter_list(list_of([caller()]), name, predicate) }}
{%- endmacro %}

{# Each element of a list through an expression of `name` (the element). #}
{% macro transform_list(list_expression, name, expression) -%}
    {{- adapter.dispatch('transform_list', 'card_keeper')(list_expression, name, expression) -}}
{%- endmacro %}

{% macro duckdb__transform_list(list_expression, name, expression) -%}
    list_transform({{ list_expression }}, lambda {{ name }}: {{ expression }})
{%- endmacro %}

{% macro spark__transform_list(list_expression, name, expression) -%}
    transform({{ list_expression }}, {{ name }} -> {{ expression }})
{%- endmacro %}

{# The elements of a list for which a predicate of `name` (the element) is true, in order. #}
{% macro filter_list(list_expression, name, predicate) -%}
    {{- adapter.dispatch('filter_list', 'card_keeper')(list_expression, name, predicate) -}}
{%- endmacro %}

{% macro duckdb__filter_list(list_expression, name, predicate) -%}
    list_filter({{ list_expression }}, lambda {{ name }}: {{ predicate }})
{%- endmacro %}

{% macro spark__filter_list(list_expression, name, predicate) -%}
    filter({{ list_expression }}, {{ name }} -> {{ predicate }})
{%- endmacro %}

{# The number of elements; null for a null list (list_length() gives 0 instead). #}
{% macro list_size(list_expression) -%}
    {{- adapter.dispatch('list_size', 'card_keeper')(list_expression) -}}
{%- endmacro %}

{% macro duckdb__list_size(list_expression) -%}
    len({{ list_expression }})
{%- endmacro %}

{% macro spark__list_size(list_expression) -%}
    array_size({{ list_expression }})
{%- endmacro %}

{# Elements `first` to `last` (1-based, inclusive), fewer when the list is shorter. #}
{% macro list_slice(list_expression, first, last) -%}
    {{- adapter.dispatch('list_slice', 'card_keeper')(list_expression, first, last) -}}
{%- endmacro %}

{% macro duckdb__list_slice(list_expression, first, last) -%}
    list_slice({{ list_expression }}, {{ first }}, {{ last }})
{%- endmacro %}

{% macro spark__list_slice(list_expression, first, last) -%}
    slice({{ list_expression }}, {{ first }}, {{ last }} - {{ first }} + 1)
{%- endmacro %}

{# The lists concatenated, in order (a null list gives null: coalesce it first). #}
{% macro concat_lists(lists) -%}
    {{- adapter.dispatch('concat_lists', 'card_keeper')(lists) -}}
{%- endmacro %}

{% macro duckdb__concat_lists(lists) -%}
    list_concat({{ lists | join(', ') }})
{%- endmacro %}

{% macro spark__concat_lists(lists) -%}
    concat({{ lists | join(', ') }})
{%- endmacro %}

{#
    The elements of `values` whose element at the same position of the parallel list `flags`
    is true (false with `negate`), null elements left out, in order.
#}
{% macro list_where(values, flags, negate=false) -%}
    {{- adapter.dispatch('list_where', 'card_keeper')(values, flags, negate) -}}
{%- endmacro %}

{% macro duckdb__list_where(values, flags, negate) -%}
    list_filter(
        list_transform(
            range(1, len({{ values }}) + 1),
            lambda position: case
                when {{ 'not ' if negate }}{{ flags }}[position] then {{ values }}[position]
            end
        ),
        lambda eojeol: eojeol is not null
    )
{%- endmacro %}

{% macro spark__list_where(values, flags, negate) -%}
    filter(
        {{ values }},
        (element, position) -> element is not null
        and coalesce({{ 'not ' if negate }}{{ flags }}[position], false)
    )
{%- endmacro %}
