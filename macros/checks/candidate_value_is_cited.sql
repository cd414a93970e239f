{#
    Whether a candidate's evidence value is quoted verbatim from a row it may cite: any
    chat_turn of the candidate turn's session (the reply, or an earlier turn for recall), the
    turn's own character_card, or any topic_lexicon row. Compared by the column's type, as
    check 9 does, with the column list read from the catalog. `alias` carries the candidate
    turn's candidate_session_id and candidate_character_id, so the test correlates on them
    alone (joining the turns to the candidate's turn inside it paired every turn of every
    session). `sources` is the mapping evidence_source_models() returns.
#}
{% macro candidate_value_is_cited(alias, sources) -%}
    case {{ alias }}.source
        {%- for source, relation in sources.items() %}
        when '{{ source }}' then exists (
            select 1
            from {{ relation }} as cited
            {%- if source == 'chat_turn' %}
            where cited.session_id = {{ alias }}.candidate_session_id
            {%- elif source == 'character_card' %}
            where cited.character_id = {{ alias }}.candidate_character_id
            {%- else %}
            where true
            {%- endif %}
                and {{ evidence_field_matches(relation, alias) }}
        )
        {%- endfor %}
        else false
    end
{%- endmacro %}

{# Whether a JSON text is an array (false for null, invalid JSON or any other JSON value). #}
{% macro is_json_array(expression) -%}
    case
        when not coalesce(json_valid({{ expression }}), false) then false
        else json_type({{ expression }}) = 'ARRAY'
    end
{%- endmacro %}
