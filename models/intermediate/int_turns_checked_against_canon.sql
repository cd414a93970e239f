-- SPEC §2 off_canon_entities: names in named_entities not in the card's canon_entities.
with turns as (
    select
        turn_id,
        character_id,
        named_entities
    from {{ ref('stg_chat_logs__turns') }}
),

character_cards as (
    select
        character_id,
        canon_entities
    from {{ ref('stg_chat_logs__character_cards') }}
),

checked as (
    select
        turns.turn_id,
        {{ list_length('character_cards.canon_entities') }} as canon_entity_count,
        -- Null stays null (extraction failed, the check is skipped); [] means no names.
        {{ list_except_ordered('turns.named_entities', 'character_cards.canon_entities') }}
            as off_canon_entities
    from turns
    inner join character_cards
        on turns.character_id = character_cards.character_id
)

select * from checked
