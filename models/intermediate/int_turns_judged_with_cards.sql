-- The turns of this build's batch (int_turns_to_judge), with the card columns that only the
-- evidence and the summaries quote: entity_roles (the recall hedge and count citation) and the
-- card's name as character_name (part of the canon an off-canon verdict cites, rule v2).
-- A view: joined from the cards, a few dozen rows, rather than copied onto every one of
-- millions of judged turns.
{{ config(materialized='view') }}

-- The batch's rows are the ones its build wrote: picked by judged_by, not by turn_id, so the
-- read does not grow with the store (a removed turn has no judged row).
with batch_builds as (
    select distinct judged_by from {{ ref('int_turns_to_judge') }}
),

judged as (
    select * from {{ ref('int_turns_judged') }}
    where judged_by in (select batch_builds.judged_by from batch_builds)
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
