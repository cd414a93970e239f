-- off_canon_entities (docs/rules.md#canon): names in named_entities not in the card's canon:
-- its canon_entities, its own name and the names creators added through seed canon_review.
-- Only the turns this build judges (int_turns_to_judge).
with turns_to_judge as (
    select turn_id from {{ ref('int_turns_to_judge') }}
    where not is_removed
),

turns as (
    select
        turns.turn_id,
        turns.character_id,
        turns.named_entities
    from {{ ref('stg_chat_logs__turns') }} as turns
    inner join turns_to_judge
        on turns.turn_id = turns_to_judge.turn_id
),

character_canon as (
    select * from {{ ref('int_character_canon') }}
),

checked as (
    select
        turns.turn_id,
        -- Evidence cites the card's own list, so its count is the card's.
        character_canon.card_canon_entity_count as canon_entity_count,
        -- Null stays null (extraction failed, the check is skipped); [] means no names.
        {{ list_except_ordered('turns.named_entities', 'character_canon.canon_entities') }}
            as off_canon_entities
    from turns
    inner join character_canon
        on turns.character_id = character_canon.character_id
)

select * from checked
