-- SPEC §4: each turn's evidence as one ordered list of citations (turn_citations(): the
-- citation plan), each keeping the key of the row it quotes. fct_turn_evidence unnests it.
-- A view: computing the list (about a second per million turns) is cheaper than writing it.
{{ config(materialized='view') }}

with judged as (
    select * from {{ ref('int_turns_judged') }}
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

-- The card's entity_roles, which a skipped recall cites by count (as in int_turn_summaries).
with_roles as (
    select
        judged.*,
        character_cards.entity_roles
    from judged
    inner join character_cards
        on judged.character_id = character_cards.character_id
),

cited as (
    select
        turn_id,
        {{ turn_citations() | indent(8) }} as citations
    from with_roles
)

select * from cited
