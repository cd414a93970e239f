-- Tone (docs/rules.md#tone), in SQL and row by row (no unnesting of sentences): the check
-- `assert_check_03_tone_rederived` recomputes it with the Python UDF ck_tone.
{{ config(materialized='table') }}

with turns as (
    select
        turn_id,
        reply_text
    from {{ ref('stg_chat_logs__turns') }}
),

-- One row: the endings longest first and their is_honorific flags.
ending_rule as (
    select
        endings,
        flags
    from {{ ref('int_tone_ending_rule') }}
),

sentences as (
    select
        turn_id,
        list_filter(
            {{ split_sentences('reply_text') }},
            lambda piece: {{ has_text('piece') }}
        ) as sentences
    from turns
),

eojeols as (
    select
        sentences.turn_id,
        list_transform(
            sentences.sentences, lambda sentence: {{ last_hangul_eojeol('sentence') }}
        ) as last_eojeols,
        ending_rule.endings,
        ending_rule.flags
    from sentences
    cross join ending_rule
),

judged_sentences as (
    select
        turn_id,
        last_eojeols,
        list_transform(
            last_eojeols,
            lambda eojeol: eojeol is not null
            and {{ ending_is_honorific('eojeol', 'endings', 'flags') }}
        ) as is_honorific
    from eojeols
),

toned as (
    select
        turn_id,
        len(last_eojeols) as sentence_count,
        len(list_filter(last_eojeols, lambda eojeol: eojeol is not null))
            as hangul_sentence_count,
        len(list_filter(is_honorific, lambda flag: flag)) as honorific_sentence_count,
        list_filter(
            list_transform(
                range(1, len(last_eojeols) + 1),
                lambda position: case when is_honorific[position] then last_eojeols[position] end
            ),
            lambda eojeol: eojeol is not null
        ) as honorific_eojeols,
        list_filter(
            list_transform(
                range(1, len(last_eojeols) + 1),
                lambda position: case
                    when not is_honorific[position] then last_eojeols[position]
                end
            ),
            lambda eojeol: eojeol is not null
        ) as plain_eojeols
    from judged_sentences
),

final as (
    select
        turn_id,
        sentence_count,
        hangul_sentence_count,
        honorific_sentence_count,
        honorific_eojeols,
        plain_eojeols,
        case
            when hangul_sentence_count = 0 then null
            when honorific_sentence_count > 0 then '존댓말'
            else '반말'
        end as tone
    from toned
)

select * from final
