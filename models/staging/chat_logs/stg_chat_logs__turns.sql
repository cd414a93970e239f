-- The clean turns: no contract violation of their own, and a card that is itself clean (a
-- turn whose card is missing or quarantined cannot be judged; fct_contract_violations lists
-- it as unknown_character_id).
with base as (
    select * from {{ ref('base_chat_logs__turns') }}
),

clean_cards as (
    select character_id from {{ ref('stg_chat_logs__character_cards') }}
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
        user_asked_recall,
        _ingested_by
    from base
    where
        {{ list_size_function() }}(_violations) = 0
        and {{ has_clean_card('character_id', 'clean_cards') }}
)

select * from clean
