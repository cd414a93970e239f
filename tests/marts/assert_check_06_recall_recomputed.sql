-- Assert that recall_target / recall_source_turn equal a recomputation from each entity's
-- first mention in its session (check 6, docs/rules.md#recall): on a turn where the user asked to
-- recall, the asked entity (first card role, in card order, found in user_message) is the
-- target when its first mention in the session comes strictly before this turn and the reply
-- does not contain it; the source is that first mention. Otherwise both are null.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

-- The sessions of those rows: a first mention is always in the turn's own session.
turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
    where session_id in (select verdicts.session_id from verdicts)
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

-- A turn's place in its session, as the (created_at, turn_id) pair that orders the session;
-- comparing pairs needs no window over every turn.
mentions as (
    select
        session_id,
        {{ sql_struct([('created_at', 'created_at'), ('turn_id', 'turn_id')]) }} as place,
        {{ sql_unnest('named_entities') }} as entity
    from turns
),

first_mentions as (
    select
        session_id,
        entity,
        min(place) as first_place
    from mentions
    group by session_id, entity
),

asked as (
    select
        turns.turn_id,
        turns.session_id,
        turns.reply_text,
        {{ sql_struct([
            ('created_at', 'turns.created_at'), ('turn_id', 'turns.turn_id'),
        ]) }} as place,
        {{ first_asked_role_entity('character_cards.entity_roles', 'turns.user_message') }}
            as asked_entity
    from turns
    inner join character_cards
        on turns.character_id = character_cards.character_id
    where coalesce(turns.user_asked_recall, false)
),

recomputed as (
    select
        asked.turn_id,
        case
            when
                first_mentions.first_place < asked.place
                and not contains(asked.reply_text, asked.asked_entity)
                then asked.asked_entity
        end as recall_target,
        case
            when
                first_mentions.first_place < asked.place
                and not contains(asked.reply_text, asked.asked_entity)
                then {{ sql_struct_field('first_mentions.first_place', 'turn_id') }}
        end as recall_source_turn
    from asked
    left join first_mentions
        on
            asked.session_id = first_mentions.session_id
            and asked.asked_entity = first_mentions.entity
)

select
    verdicts.turn_id,
    verdicts.recall_target,
    recomputed.recall_target as expected_target,
    verdicts.recall_source_turn,
    recomputed.recall_source_turn as expected_source_turn
from verdicts
left join recomputed
    on verdicts.turn_id = recomputed.turn_id
where
    verdicts.recall_target is distinct from recomputed.recall_target
    or verdicts.recall_source_turn is distinct from recomputed.recall_source_turn
