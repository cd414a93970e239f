with base as (
    select * from {{ ref('base_chat_logs__turns') }}
),

clean as (
    select
        turn_id,
        session_id,
        character_id,
        model_id,
        created_at,
        prompt_id,
        user_message,
        reply_text,
        first_person,
        named_entities,
        honorific_level,
        user_asked_recall
    from base
    where len(_violations) = 0
)

select * from clean
