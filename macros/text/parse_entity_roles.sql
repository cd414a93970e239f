{#
    Parse entity_roles given as JSON text: an array of {"role": text, "entity": text} objects,
    in card order. Both fields are normalised and must be non-empty; anything else is
    malformed (is_entity_roles() is false) and parses to null (docs/rules.md#input-contract).
#}
{% macro parse_entity_roles(expression) -%}
    {{- adapter.dispatch('parse_entity_roles', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__parse_entity_roles(expression) -%}
    case
        when {{ is_entity_roles(expression) }}
            then list_transform(
                from_json({{ expression }}, '[{"role": "VARCHAR", "entity": "VARCHAR"}]'),
                lambda pair: {
                    'role': {{ normalize_text('pair.role') }},
                    'entity': {{ normalize_text('pair.entity') }}
                }
            )
    end
{%- endmacro %}

{# CASE, not AND: DuckDB evaluates both sides of an AND, and json_type() fails on bad JSON. #}
{% macro is_entity_roles(expression) -%}
    {{- adapter.dispatch('is_entity_roles', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__is_entity_roles(expression) -%}
    case
        when not coalesce(json_valid({{ expression }}), false) then false
        when json_type({{ expression }}) <> 'ARRAY' then false
        when len(list_filter(
            json_type({{ expression }}, '$[*]'), lambda t: t is distinct from 'OBJECT'
        )) > 0 then false
        when len(list_filter(
            json_type({{ expression }}, '$[*].role'), lambda t: t is distinct from 'VARCHAR'
        )) > 0 then false
        when len(list_filter(
            json_type({{ expression }}, '$[*].entity'), lambda t: t is distinct from 'VARCHAR'
        )) > 0 then false
        else len(list_filter(
            from_json({{ expression }}, '[{"role": "VARCHAR", "entity": "VARCHAR"}]'),
            lambda pair: coalesce({{ normalize_text('pair.role') }}, '') = ''
            or coalesce({{ normalize_text('pair.entity') }}, '') = ''
        )) = 0
    end
{%- endmacro %}
