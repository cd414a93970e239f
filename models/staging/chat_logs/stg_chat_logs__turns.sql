-- The clean turns: no contract violation of their own, and a card that is itself clean (a
-- turn whose card is missing or quarantined cannot be judged; fct_contract_violations lists
-- it as unknown_character_id, by has_clean_card).
with base as (
    select * from {{ ref('base_chat_logs__turns') }}
),

clean_cards as (
    select character_id from {{ ref('stg_chat_logs__character_cards') }}
),

-- An inner join with the clean cards (their character_id is unique), not an IN test: DuckDB's
-- planner guesses that a membership test keeps a fifth of the rows, where a join with a
-- unique key is estimated from the key's counts, so plans over staging see its real size.
clean as (
    select
        base.turn_id,
        base.session_id,
        base.character_id,
        base.model_id,
        base.created_at,
        base.prompt_id,
        base.user_message,
        base.reply_text,
        base.first_person,
        base.named_entities,
        base.honorific_level,
        base.user_asked_recall,
        base._ingested_by
    from base
    inner join clean_cards
        on base.character_id = clean_cards.character_id
    where {{ has_no_violations('base._violations') }}
)

select * from clean
