{#
    int_turns_judged with the source columns its quoting readers need but it does not store:
    the turn's reply_text and user_message (from staging) and its card's entity_roles. The two
    readers that quote them (int_turn_summaries, int_turn_evidence) join them here; copying
    them onto every one of millions of judged turns would cost more than the join (writing the
    reply texts once more was a third of int_turns_judged's cost).
#}
{% macro judged_with_quoted_sources() -%}
    select
        judged.*,
        turns.reply_text,
        turns.user_message,
        character_cards.entity_roles
    from {{ ref('int_turns_judged') }} as judged
    inner join {{ ref('stg_chat_logs__turns') }} as turns
        on judged.turn_id = turns.turn_id
    inner join {{ ref('stg_chat_logs__character_cards') }} as character_cards
        on judged.character_id = character_cards.character_id
{%- endmacro %}
