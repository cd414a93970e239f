-- Every derived field, the status of each check, and the verdict, one row per turn
-- (docs/rules.md#derived-values, #verdict-order, #checks-and-reason-codes). Part of the turn
-- store (docs/rules.md#incremental-builds): the turns this build judges are added or
-- rewritten; judged_by names the build.
{{ config(
    materialized=turn_store_materialization(),
    incremental_strategy=turn_store_strategy('append'),
    partition_by=turn_store_partition_by(),
    on_schema_change='fail',
    pre_hook="{{ delete_judged_turns(ref('int_turns_to_judge')) }}",
    post_hook="{{ drop_stale_partitions(ref('int_turns_to_judge')) }}",
) }}

-- The turns' own columns meet their derived values (int_turns_derived, this build's turns
-- only) in one join.
with derived as (
    select * from {{ ref('int_turns_derived') }}
),

turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

-- The one calculation, user_asked_recall, keeps its place among the stored columns (ST06 would
-- move it last): on Spark the turn store's kept rows are unioned with new ones by position.
joined as (
    select  -- noqa: ST06
        turns.turn_id,
        turns.session_id,
        turns.character_id,
        turns.model_id,
        turns.created_at,
        turns.prompt_id,
        turns.user_message,
        turns.reply_text,
        turns.first_person,
        turns.named_entities,
        turns.honorific_level,
        character_cards.honorific_rule,
        character_cards.first_person as card_first_person,
        derived.hangul_sentence_count,
        derived.honorific_sentence_count,
        derived.honorific_eojeols,
        derived.tone,
        derived.canon_entity_count,
        derived.off_canon_entities,
        derived.touched_term,
        derived.touched_term_order,
        derived.touched_topic,
        derived.asked_role,
        derived.recall_skip_reason,
        derived.recall_target,
        derived.recall_source_turn,
        coalesce(turns.user_asked_recall, false) as user_asked_recall,
        derived.lexicon_hit_count,
        derived.is_recall_asked
    from turns
    inner join derived
        on turns.turn_id = derived.turn_id
    inner join character_cards
        on turns.character_id = character_cards.character_id
),

checked as (
    select
        *,
        {{ join_rule_parts('honorific_rule', 'card_first_person') }} as rule_expected,
        {{ join_rule_parts('tone', 'first_person') }} as rule_observed,
        case when touched_topic is not null then 'hit' else 'pass' end as forbidden_topic_status,
        case
            when off_canon_entities is null then 'skipped'
            when {{ list_size('off_canon_entities') }} > 0 then 'hit'
            else 'pass'
        end as off_canon_status,
        case when off_canon_entities is null then 'named_entities_null' end as off_canon_reason,
        case
            when tone is null then 'skipped'
            when tone <> honorific_rule then 'hit'
            else 'pass'
        end as tone_status,
        case when tone is null then 'tone_not_extracted' end as tone_reason,
        case
            when tone is not null and honorific_level is not null and honorific_level <> tone
                then 'honorific_level_disagrees'
        end as tone_note,
        case
            when first_person is null or card_first_person is null then 'skipped'
            when first_person <> card_first_person then 'hit'
            else 'pass'
        end as first_person_status,
        case
            when first_person is null or card_first_person is null then 'first_person_null'
        end as first_person_reason,
        case
            when not is_recall_asked then 'not_applicable'
            when recall_skip_reason is not null then 'skipped'
            when recall_target is not null then 'hit'
            else 'pass'
        end as recall_status,
        case
            when not is_recall_asked then 'recall_not_asked'
            else recall_skip_reason
        end as recall_reason
    from joined
),

judged as (
    select
        *,
        -- The first check that applies, in this fixed order (docs/rules.md#verdict-order).
        case
            when forbidden_topic_status = 'hit' then '금지 소재 접촉'
            when off_canon_status = 'hit' then '세계관 밖 고유명사'
            when tone_status = 'hit' or first_person_status = 'hit' then '말투 어긋남'
            when recall_status = 'hit' then '앞 회차를 기억 못 함'
            else '설정대로 말함'
        end as verdict,
        case
            when forbidden_topic_status = 'hit' then 'forbidden_topic'
            when off_canon_status = 'hit' then 'off_canon'
            when tone_status = 'hit' then 'tone'
            when first_person_status = 'hit' then 'first_person'
            when recall_status = 'hit' then 'recall'
        end as deciding_check,
        cast({{ this_build() }} as {{ text_type() }}) as judged_by
    from checked
)

-- The working columns of the recall check are summed up by recall_status / recall_reason.
select {{ all_columns_except(['is_recall_asked', 'recall_skip_reason']) }} from judged
{{ kept_turn_store_rows(ref('int_turns_to_judge')) }}
