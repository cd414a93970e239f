-- The clean character cards as the screen shows them, one row per character: its name, the
-- card's rules and whether the character may be shown as the demo.
{{ config(contract={'enforced': contract_enforced()}) }}

with character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

shown_cards as (
    select
        character_id,
        name,
        persona,
        honorific_rule,
        first_person,
        is_public
    from character_cards
)

select * from shown_cards
