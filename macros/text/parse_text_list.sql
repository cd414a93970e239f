{#
    Parse a list column given as JSON text (docs/rules.md#inputs) into varchar[] with every
    element normalised. Returns null for a null input and also for anything that is not a JSON array
    of non-empty strings; pair it with is_text_list() to tell the two apart.
#}
{% macro parse_text_list(expression) -%}
    {{- adapter.dispatch('parse_text_list', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__parse_text_list(expression) -%}
    case
        when {{ is_text_list(expression) }}
            then list_transform(
                from_json({{ expression }}, '["VARCHAR"]'),
                lambda element: {{ normalize_text('element') }}
            )
    end
{%- endmacro %}

{# CASE, not AND: DuckDB evaluates both sides of an AND, and json_type() fails on bad JSON. #}
{% macro is_text_list(expression) -%}
    {{- adapter.dispatch('is_text_list', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__is_text_list(expression) -%}
    case
        when not coalesce(json_valid({{ expression }}), false) then false
        when json_type({{ expression }}) <> 'ARRAY' then false
        when len(list_filter(
            json_type({{ expression }}, '$[*]'), lambda t: t is distinct from 'VARCHAR'
        )) > 0 then false
        else len(list_filter(
            from_json({{ expression }}, '["VARCHAR"]'),
            lambda element: {{ normalize_text('element') }} = ''
        )) = 0
    end
{%- endmacro %}
