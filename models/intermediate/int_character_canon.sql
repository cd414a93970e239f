-- The canon each character is judged against: the card's canon_entities plus the names
-- creators marked `add` in seed canon_review (manual check 2 feeds the next build).
with character_cards as (
    select
        character_id,
        canon_entities
    from {{ ref('stg_chat_logs__character_cards') }}
),

added_names as (
    select
        character_id,
        list(name order by name) as added_entities
    from {{ ref('canon_review') }}
    where decision = 'add'
    group by character_id
),

canon as (
    select
        character_cards.character_id,
        list_concat(
            coalesce(character_cards.canon_entities, []),
            coalesce(added_names.added_entities, [])
        ) as canon_entities,
        {{ list_length('character_cards.canon_entities') }} as card_canon_entity_count,
        {{ list_length('added_names.added_entities') }} as added_entity_count
    from character_cards
    left join added_names
        on character_cards.character_id = added_names.character_id
)

select * from canon
