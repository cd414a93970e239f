{#
    Whether a turn's character_id names a clean card (one in `clean_cards`, the relation
    stg_chat_logs__character_cards, which the caller refs):
    the rule that a turn whose card is missing or quarantined cannot be judged. The quarantine
    lists the turns for which it fails as unknown_character_id; staging keeps the others by
    an inner join with the same clean cards (a join's size DuckDB estimates from the key;
    assert_every_input_row_is_clean_or_quarantined holds the two to the same split).
    False for a null character_id. An uncorrelated IN test, so DuckDB builds its hash table
    on the few cards, never on the turns.
#}
{% macro has_clean_card(character_id, clean_cards) -%}
    {{- adapter.dispatch('has_clean_card', 'card_keeper')(character_id, clean_cards) -}}
{%- endmacro %}

{% macro default__has_clean_card(character_id, clean_cards) -%}
    coalesce(
        {{ character_id }} in (
            select clean_cards.character_id
            from {{ clean_cards }} as clean_cards
        ),
        false
    )
{%- endmacro %}
