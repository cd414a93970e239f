{{- config(contract={'enforced': target.type != 'spark'}) -}}
-- Manual check 1: 20 금지 소재 접촉 turns sampled reproducibly (var review_sample_seed) for a
-- creator to read: is the touched topic really a problem for this character?
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    where verdict = '금지 소재 접촉'
),

turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
),

sampled as (
    select
        verdicts.turn_id,
        verdicts.model_id,
        verdicts.character_id,
        verdicts.touched_term,
        verdicts.touched_topic,
        turns.reply_text,
        verdicts.summary,
        row_number() over (
            order by md5(verdicts.turn_id || {{ text_var('review_sample_seed') }})
        ) as sample_rank
    from verdicts
    inner join turns
        on verdicts.turn_id = turns.turn_id
)

select * from sampled
where sample_rank <= 20
