-- SPEC §2 tone, in SQL: the check `tone_rederived` recomputes it with the Python UDF ck_tone.
{{ config(materialized='table') }}

with turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
),

honorific_endings as (
    select
        ending,
        is_honorific
    from {{ ref('honorific_endings') }}
),

pieces as (
    select
        turn_id,
        {{ split_sentences('reply_text') }} as sentence_pieces
    from turns
),

sentences as (
    select
        turn_id,
        unnest(sentence_pieces) as raw_sentence,
        generate_subscripts(sentence_pieces, 1) as piece_number
    from pieces
),

eojeols as (
    select
        turn_id,
        piece_number,
        {{ last_hangul_eojeol('raw_sentence') }} as last_eojeol
    from sentences
    where {{ trim_whitespace('raw_sentence') }} <> ''
),

-- The longest ending an eojeol ends with decides, so an exception like 아니다 → false can
-- override the shorter 니다 → true.
matched_endings as (
    select
        eojeols.turn_id,
        eojeols.piece_number,
        arg_max(honorific_endings.is_honorific, length(honorific_endings.ending)) as is_honorific
    from eojeols
    inner join honorific_endings
        on {{ ends_with('eojeols.last_eojeol', 'honorific_endings.ending') }}
    group by eojeols.turn_id, eojeols.piece_number
),

judged_sentences as (
    select
        eojeols.turn_id,
        eojeols.piece_number,
        eojeols.last_eojeol,
        coalesce(matched_endings.is_honorific, false) as is_honorific
    from eojeols
    left join matched_endings
        on
            eojeols.turn_id = matched_endings.turn_id
            and eojeols.piece_number = matched_endings.piece_number
),

per_turn as (
    select
        turn_id,
        count(*) as sentence_count,
        count(last_eojeol) as hangul_sentence_count,
        count(*) filter (where is_honorific) as honorific_sentence_count,
        list(last_eojeol order by piece_number) filter (
            where is_honorific
        ) as honorific_eojeols,
        list(last_eojeol order by piece_number) filter (
            where last_eojeol is not null and not is_honorific
        ) as plain_eojeols
    from judged_sentences
    group by turn_id
),

toned as (
    select
        turns.turn_id,
        coalesce(per_turn.sentence_count, 0) as sentence_count,
        coalesce(per_turn.hangul_sentence_count, 0) as hangul_sentence_count,
        coalesce(per_turn.honorific_sentence_count, 0) as honorific_sentence_count,
        coalesce(per_turn.honorific_eojeols, []) as honorific_eojeols,
        coalesce(per_turn.plain_eojeols, []) as plain_eojeols,
        case
            when coalesce(per_turn.hangul_sentence_count, 0) = 0 then null
            when per_turn.honorific_sentence_count > 0 then '존댓말'
            else '반말'
        end as tone
    from turns
    left join per_turn
        on turns.turn_id = per_turn.turn_id
)

select * from toned
