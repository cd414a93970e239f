{#
    One evidence citation (SPEC §4) as a struct of fixed type, so that the citations of a turn
    form one list: source, field, agg, the value as text (verbatim), the value as JSON typed
    by `kind` (text, number or boolean) for the export, and the key of the cited row.
#}
{% macro citation_struct(
    source, field, agg, value, kind, cited_turn, cited_character, cited_term
) -%}
    {
        'source': '{{ source }}',
        'field': '{{ field }}',
        'agg': {{ "'" ~ agg ~ "'" if agg else 'cast(null as varchar)' }},
        'value': cast({{ value }} as varchar),
        'value_json': {{ 'to_json(cast(' ~ value ~ ' as varchar))' if kind == 'text' else 'cast(cast(' ~ value ~ ' as varchar) as json)' }},
        'cited_turn_id': cast({{ cited_turn }} as varchar),
        'cited_character_id': cast({{ cited_character }} as varchar),
        'cited_term_order': cast({{ cited_term }} as bigint)
    }
{%- endmacro %}
