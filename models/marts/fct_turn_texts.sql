-- The texts of every clean turn, one row per turn: the user's message and the reply, for the
-- screen's verdict rows and conversation view (the verdict mart does not copy the texts).
-- A view: a projection of the clean turns, which calls no Python UDF, so any connection reads
-- it; as a table it wrote every reply again (2 s a million turns).
{{ config(materialized='view') }}

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
