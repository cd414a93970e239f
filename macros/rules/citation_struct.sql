{#
    One evidence citation (SPEC §4) as a struct of fixed type, so that the citations of a turn
    form one list: source, field, agg, the value as text (verbatim), its JSON kind for the
    export (text, number or boolean), and the key of the cited row.
#}
{% macro citation_struct(
    source, field, agg, value, kind, cited_turn, cited_character, cited_term
) -%}
    {
        'source': '{{ source }}',
        'field': '{{ field }}',
        'agg': {{ "'" ~ agg ~ "'" if agg else 'cast(null as varchar)' }},
        'value': cast({{ value }} as varchar),
        'value_kind': '{{ kind }}',
        'cited_turn_id': cast({{ cited_turn }} as varchar),
        'cited_character_id': cast({{ cited_character }} as varchar),
        'cited_term_order': cast({{ cited_term }} as bigint)
    }
{%- endmacro %}

{# A citation's value as JSON for the export: a string, or a number / boolean by its kind. #}
{% macro citation_value_json(citation) -%}
    case
        when struct_extract({{ citation }}, 'value_kind') = 'text'
            then to_json(struct_extract({{ citation }}, 'value'))
        else cast(struct_extract({{ citation }}, 'value') as json)
    end
{%- endmacro %}
