{#
    Structs, JSON and unnesting, whose syntax differs between the engines: DuckDB's struct
    literal {'name': value} and struct_extract() are Spark's named_struct() and `.name`; Spark's
    to_json() leaves out null fields unless told not to, and takes only structs, arrays and maps;
    DuckDB's unnest() is Spark's explode().
#}

{# A struct of (name, SQL expression) pairs, in order. #}
{% macro struct_of(fields) -%}
    {{- adapter.dispatch('struct_of', 'card_keeper')(fields) -}}
{%- endmacro %}

{% macro duckdb__struct_of(fields) -%}
    {
        {%- for name, expression in fields %}
        '{{ name }}': {{ expression }}{{ ',' if not loop.last }}
        {%- endfor %}
    }
{%- endmacro %}

{% macro spark__struct_of(fields) -%}
    named_struct(
        {%- for name, expression in fields %}
        '{{ name }}', {{ expression }}{{ ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}

{# One field of a struct. #}
{% macro struct_field(expression, name) -%}
    {{- adapter.dispatch('struct_field', 'card_keeper')(expression, name) -}}
{%- endmacro %}

{% macro duckdb__struct_field(expression, name) -%}
    struct_extract({{ expression }}, '{{ name }}')
{%- endmacro %}

{% macro spark__struct_field(expression, name) -%}
    {{ expression }}.{{ name }}
{%- endmacro %}

{# A struct or list as JSON text with every field, null ones included (what gets hashed). #}
{% macro to_json_text(expression) -%}
    {{- adapter.dispatch('to_json_text', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__to_json_text(expression) -%}
    to_json({{ expression }})
{%- endmacro %}

{% macro spark__to_json_text(expression) -%}
    to_json({{ expression }}, map('ignoreNullFields', 'false'))
{%- endmacro %}

{# A text as a JSON string (quoted and escaped); null stays null. #}
{% macro json_string(expression) -%}
    {{- adapter.dispatch('json_string', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__json_string(expression) -%}
    to_json({{ expression }})
{%- endmacro %}

{#
    Spark encodes only containers: the text is encoded as a one-element array, brackets cut
    (a null would become the JSON text null, not SQL's null). (?s): the JSON text may hold
    U+2028, U+2029 and U+0085 unescaped, which Java's `.` does not match otherwise.
#}
{% macro spark__json_string(expression) -%}
    case
        when {{ expression }} is not null
            then regexp_extract(to_json(array({{ expression }})), '(?s)^\\[(.*)\\]$', 1)
    end
{%- endmacro %}

{# A number or boolean, as text, as a bare JSON value (a JSON value on DuckDB, text on Spark). #}
{% macro json_scalar(text_expression) -%}
    {{- adapter.dispatch('json_scalar', 'card_keeper')(text_expression) -}}
{%- endmacro %}

{% macro duckdb__json_scalar(text_expression) -%}
    cast({{ text_expression }} as json)
{%- endmacro %}

{% macro spark__json_scalar(text_expression) -%}
    {{ text_expression }}
{%- endmacro %}

{# One row per element of a list (a select-list item: the element, as `alias`). #}
{% macro unnest_list(list_expression, alias) -%}
    {{- adapter.dispatch('unnest_list', 'card_keeper')(list_expression, alias) -}}
{%- endmacro %}

{% macro duckdb__unnest_list(list_expression, alias) -%}
    unnest({{ list_expression }}) as {{ alias }}
{%- endmacro %}

{% macro spark__unnest_list(list_expression, alias) -%}
    explode({{ list_expression }}) as {{ alias }}
{%- endmacro %}

{#
    One row per element of a list with its 1-based position (a select-list item: the element
    as `value_alias`, its position as `position_alias`).
#}
{% macro unnest_with_position(list_expression, value_alias, position_alias) -%}
    {{- adapter.dispatch('unnest_with_position', 'card_keeper')(
        list_expression, value_alias, position_alias
    ) -}}
{%- endmacro %}

{% macro duckdb__unnest_with_position(list_expression, value_alias, position_alias) -%}
    unnest({{ list_expression }}) as {{ value_alias }},
    generate_subscripts({{ list_expression }}, 1) as {{ position_alias }}
{%- endmacro %}

{% macro spark__unnest_with_position(list_expression, value_alias, position_alias) -%}
    inline(transform(
        {{ list_expression }},
        (element, position) -> named_struct(
            '{{ value_alias }}', element, '{{ position_alias }}', position + 1
        )
    ))
{%- endmacro %}

{# Every column of the relation but the given ones (a select-list item). #}
{% macro all_columns_except(columns) -%}
    {{- adapter.dispatch('all_columns_except', 'card_keeper')(columns) -}}
{%- endmacro %}

{% macro duckdb__all_columns_except(columns) -%}
    * exclude ({{ columns | join(', ') }})
{%- endmacro %}

{% macro spark__all_columns_except(columns) -%}
    * except ({{ columns | join(', ') }})
{%- endmacro %}
