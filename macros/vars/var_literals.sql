{#
    Vars as SQL: a var is never pasted into a query as typed. Text becomes a quoted literal
    (quotes doubled), numbers and lists are validated first, and a var of the wrong shape
    fails the build with its name and the value it was given.
#}

{# A text var as a SQL string literal. #}
{% macro text_var(name) -%}
    {%- set value = var(name) -%}
    {%- if value is none or value is mapping or (value is iterable and value is not string) -%}
        {{ exceptions.raise_compiler_error(
            "var " ~ name ~ " must be a text, got " ~ tojson(value)
        ) }}
    {%- endif -%}
    {{- sql_text(value) -}}
{%- endmacro %}

{# A numeric var (an integer when `integer`), within [minimum, maximum] when given. #}
{% macro number_var(name, integer=false, minimum=none, maximum=none) -%}
    {%- set value = var(name) -%}
    {%- set text = value | string | trim -%}
    {%- set pattern = '[0-9]+' if integer else '[0-9]+(\\.[0-9]+)?|\\.[0-9]+' -%}
    {%- if value is boolean or not modules.re.fullmatch(pattern, text) -%}
        {{ exceptions.raise_compiler_error(
            "var " ~ name ~ " must be a non-negative " ~ ('integer' if integer else 'number')
            ~ ", got " ~ tojson(value)
        ) }}
    {%- endif -%}
    {%- set number = text | int if integer else text | float -%}
    {%- if (minimum is not none and number < minimum)
        or (maximum is not none and number > maximum) -%}
        {{ exceptions.raise_compiler_error(
            "var " ~ name ~ " must be between " ~ minimum ~ " and " ~ maximum ~ ", got " ~ text
        ) }}
    {%- endif -%}
    {{ text }}
{%- endmacro %}

{# A list-of-text var as the items of a SQL IN list, each a quoted literal; '' when empty. #}
{% macro text_list_var(name) -%}
    {%- set values = var(name) -%}
    {%- if values is string or values is mapping or values is not iterable -%}
        {{ exceptions.raise_compiler_error(
            "var " ~ name ~ " must be a list of texts, got " ~ tojson(values)
        ) }}
    {%- endif -%}
    {%- for value in values -%}
        {%- if value is not string -%}
            {{ exceptions.raise_compiler_error(
                "var " ~ name ~ " must be a list of texts, got the element " ~ tojson(value)
            ) }}
        {%- endif -%}
        {{- sql_text(value) }}{{ ', ' if not loop.last }}
    {%- endfor -%}
{%- endmacro %}
