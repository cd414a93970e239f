-- Manual check 3: 20 replies that mix 반말 and 존댓말 sentences, sampled reproducibly (var
-- review_sample_seed), with the endings of both kinds and the candidate endings the
-- analyser suggests for them, to read and decide new entries for honorific_endings.
with toned as (
    select * from {{ ref('int_turns_toned') }}
    where honorific_sentence_count > 0 and hangul_sentence_count > honorific_sentence_count
),

verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
),

candidates as (
    select
        turn_id,
        list(
            candidate_ending || case when candidate_is_honorific then ' → 존댓말' else ' → 반말' end
            order by piece_number
        ) as candidate_endings
    from {{ ref('fct_review_sentence_endings') }}
    where candidate_ending is not null
    group by turn_id
),

sampled as (
    select
        toned.turn_id,
        verdicts.model_id,
        verdicts.character_id,
        verdicts.verdict,
        turns.reply_text,
        toned.hangul_sentence_count,
        toned.honorific_sentence_count,
        toned.honorific_eojeols,
        toned.plain_eojeols,
        coalesce(candidates.candidate_endings, []) as candidate_endings,
        row_number() over (
            order by md5(toned.turn_id || {{ text_var('review_sample_seed') }})
        ) as sample_rank
    from toned
    inner join verdicts
        on toned.turn_id = verdicts.turn_id
    inner join turns
        on toned.turn_id = turns.turn_id
    left join candidates
        on toned.turn_id = candidates.turn_id
)

select * from sampled
where sample_rank <= 20
