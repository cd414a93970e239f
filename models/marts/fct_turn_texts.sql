-- The texts of every clean turn, one row per turn: the user's message and the reply, for the
-- screen's verdict rows and conversation view (the verdict mart does not copy the texts).
-- A view: a projection of the clean turns that calls no Python UDF, so any connection reads it
-- and no reply is written twice.
{{ config(materialized='view', contract={'enforced': contract_enforced()}) }}

with turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
),

turn_texts as (
    select
        turn_id,
        user_message,
        reply_text
    from turns
)

select * from turn_texts
