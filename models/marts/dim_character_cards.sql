-- The clean character cards as the screen shows them, one row per character: its name, the
-- card's rules, the canon its turns are judged against and whether the character may be shown
-- as the demo.
{{ config(contract={'enforced': contract_enforced()}) }}

with character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

canon as (
    select * from {{ ref('int_character_canon') }}
),

shown_cards as (
    select
        character_cards.character_id,
        character_cards.name,
        character_cards.persona,
        character_cards.honorific_rule,
        character_cards.first_person,
        character_cards.is_public,
        canon.canon_entities
    from character_cards
    left join canon
        on character_cards.character_id = canon.character_id
)

select * from shown_cards
