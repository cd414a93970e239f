-- Tone (docs/rules.md#tone), in SQL and row by row (no unnesting of sentences): the check
-- `assert_check_03_tone_rederived` recomputes it with the Python UDF ck_tone. Part of the turn
-- store (docs/rules.md#incremental-builds): a build adds or rewrites the turns it judges.
{{ config(
    materialized=turn_store_materialization(),
    incremental_strategy=turn_store_strategy('append'),
    partition_by=turn_store_partition_by(),
    on_schema_change='fail',
    pre_hook="{{ delete_judged_turns(ref('int_turns_to_judge')) }}",
    post_hook="{{ drop_stale_partitions(ref('int_turns_to_judge')) }}",
) }}

with turns_to_judge as (
    select turn_id from {{ ref('int_turns_to_judge') }}
    where not is_removed
),

turns as (
    select
        turns.turn_id,
        turns.reply_text
    from {{ ref('stg_chat_logs__turns') }} as turns
    inner join turns_to_judge
        on turns.turn_id = turns_to_judge.turn_id
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
        {{ sentence_pieces('reply_text') }} as sentences
    from turns
),

eojeols as (
    select
        sentences.turn_id,
        {{ transform_list('sentences.sentences', 'sentence', last_hangul_eojeol('sentence')) }}
            as last_eojeols,
        ending_rule.endings,
        ending_rule.flags
    from sentences
    cross join ending_rule
),

judged_sentences as (
    select
        turn_id,
        last_eojeols,
        {{ transform_list(
            'last_eojeols',
            'eojeol',
            'eojeol is not null and ' ~ ending_is_honorific('eojeol', 'endings', 'flags')
        ) }} as is_honorific
    from eojeols
),

toned as (
    select
        turn_id,
        {{ list_size('last_eojeols') }} as sentence_count,
        {{ list_size(filter_list('last_eojeols', 'eojeol', 'eojeol is not null')) }}
            as hangul_sentence_count,
        {{ list_size(filter_list('is_honorific', 'flag', 'flag')) }} as honorific_sentence_count,
        {{ list_where('last_eojeols', 'is_honorific') }} as honorific_eojeols,
        {{ list_where('last_eojeols', 'is_honorific', negate=true) }} as plain_eojeols
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
        end as tone,
        cast({{ this_build() }} as {{ text_type() }}) as judged_by
    from toned
)

select * from final
{{ kept_turn_store_rows(ref('int_turns_to_judge')) }}
