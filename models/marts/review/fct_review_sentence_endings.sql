-- Manual check 3's second opinion: for every sentence of a deterministic sample of turns
-- (var ending_review_max_turns), the four-ending rule's judgement next to the final ending
-- (EF) Kiwi finds. It suggests; it never decides a verdict. A table: it holds UDF results.
{{ config(materialized='table') }}

-- It reads the clean turns and the register the rule gave each whole reply, so a reviewer
-- sees whether a disagreement would flip it.
with turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
    where
        {{ deterministic_sample(
            'turn_id || ' ~ text_var('review_sample_seed'),
            number_var('ending_review_max_turns', integer=true),
            ref('stg_chat_logs__turns'),
        ) }}
),

toned as (
    select
        turn_id,
        tone
    from {{ ref('int_turns_toned') }}
),

-- The tone rule's endings, as int_turns_toned reads them.
ending_rule as (
    select
        endings,
        flags
    from {{ ref('int_tone_ending_rule') }}
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
        {{ trim_whitespace('raw_sentence') }} as sentence,
        {{ last_hangul_eojeol('raw_sentence') }} as last_eojeol
    from sentences
    where {{ has_text('raw_sentence') }}
),

-- The sentences the review compares: those that close on a Hangul eojeol, each with the
-- ending the tone rule matches and its judgement, by the macros int_turns_toned judges with.
reviewed as (
    select
        eojeols.turn_id,
        eojeols.piece_number,
        eojeols.sentence,
        eojeols.last_eojeol,
        {{ matched_ending('eojeols.last_eojeol', 'ending_rule.endings') }} as rule_ending,
        {{ ending_is_honorific('eojeols.last_eojeol', 'ending_rule.endings', 'ending_rule.flags') }}
            as rule_is_honorific
    from eojeols
    cross join ending_rule
    where eojeols.last_eojeol is not null
),

-- Kiwi reads each distinct sentence once: sentences repeat across replies (a 1M-turn build's
-- sample has 4,585 sentences and 1,781 distinct ones), and Kiwi holds Python's lock.
analyser_endings as (
    select
        sentence,
        ck_final_ending(sentence) as final_ending
    from (select distinct sentence from reviewed) as distinct_sentences
),

analysed as (
    select
        reviewed.turn_id,
        reviewed.piece_number,
        reviewed.sentence,
        reviewed.last_eojeol,
        reviewed.rule_ending,
        analyser_endings.final_ending,
        reviewed.rule_is_honorific
    from reviewed
    inner join analyser_endings
        on reviewed.sentence = analyser_endings.sentence
),

compared as (
    select
        turn_id,
        piece_number,
        sentence,
        last_eojeol,
        rule_ending,
        rule_is_honorific,
        struct_extract(final_ending, 'ef_form') as ef_form,
        struct_extract(final_ending, 'ef_surface') as ef_surface,
        struct_extract(final_ending, 'is_honorific') as analyser_is_honorific
    from analysed
),

suggested as (
    select
        *,
        case
            -- The analyser hears 존댓말 the rule missed (합니까, 습니까): add the ending.
            -- When the eojeol does not end with that ending (a trailing parenthetical hides
            -- it), no entry of the ending list can help: nothing is suggested.
            when
                analyser_is_honorific
                and not rule_is_honorific
                and regexp_full_match(ef_surface, '[가-힣]+')
                and {{ ends_with('last_eojeol', 'ef_surface') }}
                then ef_surface
            -- The rule hears 존댓말 the analyser does not (아니다, a noun-final 필요):
            -- an exception, longer than the ending it overrides.
            when rule_is_honorific and not coalesce(analyser_is_honorific, false)
                then right(last_eojeol, greatest(length(rule_ending) + 1, 2))
        end as candidate_ending,
        case
            when analyser_is_honorific and not rule_is_honorific then true
            when rule_is_honorific and not coalesce(analyser_is_honorific, false) then false
        end as candidate_is_honorific,
        coalesce(analyser_is_honorific, false) <> rule_is_honorific as is_disagreement
    from compared
),

final_rows as (
    select
        suggested.*,
        toned.tone as turn_tone
    from suggested
    inner join toned
        on suggested.turn_id = toned.turn_id
)

select * from final_rows
