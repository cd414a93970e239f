-- Manual check 1: 20 금지 소재 접촉 turns sampled reproducibly (var review_sample_seed) for a
-- creator to read: is the touched topic really a problem for this character?
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    where verdict = '금지 소재 접촉'
),

sampled as (
    select
        turn_id,
        model_id,
        character_id,
        touched_term,
        touched_topic,
        reply_text,
        summary,
        row_number() over (
            order by md5(turn_id || '{{ var("review_sample_seed") }}')
        ) as sample_rank
    from verdicts
)

select * from sampled
where sample_rank <= 20
