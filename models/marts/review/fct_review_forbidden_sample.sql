{{- config(contract={'enforced': target.type != 'spark'}) -}}
-- Manual check 1: 20 금지 소재 접촉 turns sampled reproducibly (var review_sample_seed) for a
-- creator to read: is the touched topic really a problem for this character?
with verdicts as (
    select
        turn_id,
        model_id,
        character_id,
        touched_term,
        touched_topic,
        summary
    from {{ ref('fct_turn_verdicts') }}
    where verdict = '금지 소재 접촉'
),

turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
),

-- The 20 turns are picked first; only they are joined with their replies. A verdict's turn is a
-- clean turn, so they are not tested against the 11M of staging first.
sample_keys as (
    select
        *,
        md5(turn_id || {{ text_var('review_sample_seed') }}) as sample_key
    from verdicts
    order by sample_key
    limit 20
),

sampled as (
    select
        sample_keys.turn_id,
        sample_keys.model_id,
        sample_keys.character_id,
        sample_keys.touched_term,
        sample_keys.touched_topic,
        turns.reply_text,
        sample_keys.summary,
        row_number() over (order by sample_keys.sample_key) as sample_rank
    from sample_keys
    inner join turns
        on sample_keys.turn_id = turns.turn_id
)

select * from sampled
