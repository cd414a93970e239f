-- recall_target / recall_source_turn (docs/rules.md#recall), for the turns where the user
-- asked to recall, among the turns this build judges (int_turns_to_judge); the earlier turns
-- they look back at are every stored turn of the session, whichever build ingested it.
-- Two reads of staging, each with only the columns it needs: one CTE read twice would be
-- materialised with every reply and message of every turn.
with turns_to_judge as (
    select turn_id from {{ ref('int_turns_to_judge') }}
    where not is_removed
),

recall_turns as (
    select
        turns.turn_id,
        turns.session_id,
        turns.character_id,
        turns.created_at,
        turns.user_message,
        turns.reply_text
    from {{ ref('stg_chat_logs__turns') }} as turns
    inner join turns_to_judge
        on turns.turn_id = turns_to_judge.turn_id
    where coalesce(turns.user_asked_recall, false)
),

session_turns as (
    select
        turn_id,
        session_id,
        created_at,
        named_entities
    from {{ ref('stg_chat_logs__turns') }}
),

character_cards as (
    select
        character_id,
        entity_roles
    from {{ ref('stg_chat_logs__character_cards') }}
),

card_role_entries as (
    select
        character_id,
        {{ unnest_with_position('entity_roles', 'role_entry', 'role_number') }}
    from character_cards
),

card_roles as (
    select
        character_id,
        role_number,
        {{ struct_field('role_entry', 'role') }} as role_word,
        {{ struct_field('role_entry', 'entity') }} as role_entity
    from card_role_entries
),

-- The first role in card order that the user's message contains names the asked entity.
asked as (
    select
        recall_turns.turn_id,
        card_roles.role_word as asked_role,
        card_roles.role_entity as asked_entity,
        row_number() over (
            partition by recall_turns.turn_id order by card_roles.role_number
        ) as role_rank
    from recall_turns
    inner join card_roles
        on
            recall_turns.character_id = card_roles.character_id
            and contains(recall_turns.user_message, card_roles.role_word)
),

first_asked as (
    select
        turn_id,
        asked_role,
        asked_entity
    from asked
    where role_rank = 1
),

-- Earlier = strictly before in the session's order (created_at, turn_id).
earlier_mentions as (
    select
        recall_turns.turn_id,
        earlier_turns.turn_id as source_turn_id,
        row_number() over (
            partition by recall_turns.turn_id
            order by earlier_turns.created_at, earlier_turns.turn_id
        ) as mention_rank
    from recall_turns
    inner join first_asked
        on recall_turns.turn_id = first_asked.turn_id
    inner join session_turns as earlier_turns
        on
            recall_turns.session_id = earlier_turns.session_id
            and (
                recall_turns.created_at > earlier_turns.created_at
                or (
                    recall_turns.created_at = earlier_turns.created_at
                    and recall_turns.turn_id > earlier_turns.turn_id
                )
            )
            and {{ list_has('earlier_turns.named_entities', 'first_asked.asked_entity') }}
),

recalled as (
    select
        recall_turns.turn_id,
        first_asked.asked_role,
        first_asked.asked_entity,
        earlier_mentions.source_turn_id as first_mention_turn_id,
        contains(recall_turns.reply_text, first_asked.asked_entity) as is_entity_in_reply,
        case
            when recall_turns.user_message is null then 'user_message_null'
            when first_asked.asked_role is null then 'recall_role_not_in_message'
        end as skip_reason,
        case
            when not contains(recall_turns.reply_text, first_asked.asked_entity)
                then earlier_mentions.source_turn_id
        end as recall_source_turn
    from recall_turns
    left join first_asked
        on recall_turns.turn_id = first_asked.turn_id
    left join earlier_mentions
        on
            recall_turns.turn_id = earlier_mentions.turn_id
            and earlier_mentions.mention_rank = 1
),

final as (
    select
        turn_id,
        asked_role,
        asked_entity,
        first_mention_turn_id,
        is_entity_in_reply,
        skip_reason,
        recall_source_turn,
        case when recall_source_turn is not null then asked_entity end as recall_target
    from recalled
)

select * from final
