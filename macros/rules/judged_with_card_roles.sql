{#
    int_turns_judged with each turn's card entity_roles, for the two readers that quote the
    roles (int_turn_summaries' recall hedge, int_turn_evidence's count citation): joined from
    the card, a few dozen rows, rather than copied onto every one of millions of judged turns.
#}
{% macro judged_with_card_roles() -%}
    select
        judged.*,
        character_cards.entity_roles
    from {{ ref('int_turns_judged') }} as judged
    inner join {{ ref('stg_chat_logs__character_cards') }} as character_cards
        on judged.character_id = character_cards.character_id
{%- endmacro %}
