-- The turns of this build's batch (int_turns_to_judge), with the card columns that only the
-- evidence and the summaries quote: entity_roles (the recall hedge and count citation) and the
-- card's name as character_name (part of the canon an off-canon verdict cites, rule v2).
-- A view: joined from the cards, a few dozen rows, rather than copied onto every one of
-- millions of judged turns.
{{ config(materialized='view') }}

with turns_to_judge as (
    select turn_id from {{ ref('int_turns_to_judge') }}
    where not is_removed
),

judged as (
    select * from {{ ref('int_turns_judged') }}
    where turn_id in (select turns_to_judge.turn_id from turns_to_judge)
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

joined as (
    select
        judged.*,
        character_cards.entity_roles,
        character_cards.name as character_name
    from judged
    inner join character_cards
        on judged.character_id = character_cards.character_id
)

select * from joined
