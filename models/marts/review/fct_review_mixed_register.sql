-- Manual check 3: 20 replies that mix 반말 and 존댓말 sentences, sampled reproducibly (var
-- review_sample_seed), with the endings of both kinds and the candidate endings the
-- analyser suggests for them, to read and decide new entries for honorific_endings.
with toned as (
    select * from {{ ref('int_turns_toned') }}
    where honorific_sentence_count > 0 and hangul_sentence_count > honorific_sentence_count
),

verdicts as (
    select
        turn_id,
        model_id,
        character_id,
        verdict
    from {{ ref('fct_turn_verdicts') }}
),

turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
),

-- The 20 turns are picked first, from the mixed replies; only they are joined with their
-- verdicts, replies and candidate endings. int_turns_toned holds the judged turns, each with a
-- verdict and a clean turn row, so the picked turns are not tested against the 11M of each
-- (after a build that stopped early, a turn it toned without a verdict is left out).
sample_keys as (
    select
        turn_id,
        hangul_sentence_count,
        honorific_sentence_count,
        honorific_eojeols,
        plain_eojeols,
        md5(turn_id || {{ text_var('review_sample_seed') }}) as sample_key
    from toned
    order by sample_key
    limit 20
),

candidates as (
    select
        turn_id,
        list(
            candidate_ending || case when candidate_is_honorific then ' → 존댓말' else ' → 반말' end
            order by piece_number
        ) as candidate_endings
    from {{ ref('fct_review_sentence_endings') }}
    where
        candidate_ending is not null
        and turn_id in (select sample_keys.turn_id from sample_keys)
    group by turn_id
),

sampled as (
    select
        sample_keys.turn_id,
        verdicts.model_id,
        verdicts.character_id,
        verdicts.verdict,
        turns.reply_text,
        sample_keys.hangul_sentence_count,
        sample_keys.honorific_sentence_count,
        sample_keys.honorific_eojeols,
        sample_keys.plain_eojeols,
        coalesce(candidates.candidate_endings, []) as candidate_endings,
        row_number() over (order by sample_keys.sample_key) as sample_rank
    from sample_keys
    inner join verdicts
        on sample_keys.turn_id = verdicts.turn_id
    inner join turns
        on sample_keys.turn_id = turns.turn_id
    left join candidates
        on sample_keys.turn_id = candidates.turn_id
)

select * from sampled
