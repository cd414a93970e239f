-- One row per turn (docs/rules.md#output) with the output schema's fields (evidence as a list of
-- structs), plus rule_version, rule_fingerprint, created_at, prompt_id, summary_source and the
-- skipped checks. export_turn_verdicts writes it to exports/turn_verdicts.json, in turn_id order,
-- on every build. Part of the turn store (docs/rules.md#incremental-builds): a build adds or
-- rewrites the verdicts of the turns it judges (judged_by) and deletes those of removed turns.
{{ config(
    contract={'enforced': contract_enforced()},
    materialized=turn_store_materialization(),
    incremental_strategy=turn_store_strategy('append'),
    partition_by=turn_store_partition_by(),
    on_schema_change='fail',
    pre_hook="{{ delete_judged_turns(ref('int_turns_to_judge')) }}",
    post_hook="{{ drop_stale_partitions(ref('int_turns_to_judge')) }}",
) }}
-- depends_on: {{ ref('int_turns_to_judge') }}

-- Every judged turn with its summary and hedge, and its evidence as one list in the output
-- schema's shape (turn_citations(): the plan int_turn_evidence renders as rows).
with summarised as (
    select * from {{ ref('int_turn_summaries') }}
),

judged as (
    select
        *,
        -- The output schema's shape: the values as JSON, without the cited keys (those stay
        -- in fct_turn_evidence).
        {{ turn_citations() | indent(8) }} as evidence
    from summarised
),

rule_fingerprint as (
    select * from {{ ref('int_rule_fingerprint') }}
),

character_canon as (
    select
        character_id,
        card_rules_hash
    from {{ ref('int_character_canon') }}
),

llm_summaries as (
    select * from {{ ref('int_llm_summaries_validated') }}
),

chosen_llm_summaries as (
    select
        turn_id,
        summary
    from llm_summaries
    where is_chosen
),

rejected_llm_summaries as (
    select
        turn_id,
        {{ ordered_list('rejection_reason', [('candidate_number', 'asc')]) }} as llm_rejection_reasons
    from llm_summaries
    where not is_accepted
    group by turn_id
),

final as (
    select
        cast(judged.turn_id as {{ text_type() }}) as turn_id,
        cast(judged.session_id as {{ text_type() }}) as session_id,
        cast(judged.character_id as {{ text_type() }}) as character_id,
        cast(judged.model_id as {{ text_type() }}) as model_id,
        cast(judged.verdict as {{ text_type() }}) as verdict,
        cast(judged.rule_expected as {{ text_type() }}) as rule_expected,
        cast(judged.rule_observed as {{ text_type() }}) as rule_observed,
        cast(judged.off_canon_entities as {{ text_list_type() }}) as off_canon_entities,
        cast(judged.touched_term as {{ text_type() }}) as touched_term,
        cast(judged.touched_topic as {{ text_type() }}) as touched_topic,
        cast(judged.recall_target as {{ text_type() }}) as recall_target,
        cast(judged.recall_source_turn as {{ text_type() }}) as recall_source_turn,
        judged.evidence,
        cast(coalesce(chosen_llm_summaries.summary, judged.summary) as {{ text_type() }}) as summary,
        cast(judged.hedge as {{ text_type() }}) as hedge,
        cast(
            case when chosen_llm_summaries.summary is not null then 'llm' else 'rule' end
            as {{ text_type() }}
        ) as summary_source,
        cast(rejected_llm_summaries.llm_rejection_reasons as {{ text_list_type() }}) as llm_rejection_reasons,
        cast(rule_fingerprint.rule_version as {{ text_type() }}) as rule_version,
        cast(rule_fingerprint.rule_fingerprint as {{ text_type() }}) as rule_fingerprint,
        cast(judged.created_at as timestamp) as created_at,
        cast(judged.prompt_id as {{ text_type() }}) as prompt_id,
        cast(judged.deciding_check as {{ text_type() }}) as deciding_check,
        cast(
            {% call filtered_list_of('skipped', 'skipped is not null') -%}
                    case
                        when judged.off_canon_status = 'skipped'
                            then 'off_canon:' || judged.off_canon_reason
                    end,
                    case when judged.tone_status = 'skipped' then 'tone:' || judged.tone_reason end,
                    case
                        when judged.first_person_status = 'skipped'
                            then 'first_person:' || judged.first_person_reason
                    end,
                    case
                        when judged.recall_status = 'skipped'
                            then 'recall:' || judged.recall_reason
                    end
            {%- endcall %} as {{ text_list_type() }}
        ) as skipped_checks,
        cast(judged.tone as {{ text_type() }}) as tone,
        -- The inputs that decide this row: the turn's own judged columns, its card's rules
        -- and the recall outcome (which depends on earlier turns of the session).
        cast(left(md5({{ to_json_text(struct_of([
            ('reply_text', 'judged.reply_text'),
            ('first_person', 'judged.first_person'),
            ('named_entities', 'judged.named_entities'),
            ('user_message', 'judged.user_message'),
            ('user_asked_recall', 'judged.user_asked_recall'),
            ('honorific_level', 'judged.honorific_level'),
            ('card', 'character_canon.card_rules_hash'),
            ('recall', list_of(['judged.recall_target', 'judged.recall_source_turn'])),
        ])) }}), 16) as {{ text_type() }}) as judged_inputs_hash,
        cast(judged.judged_by as {{ text_type() }}) as judged_by
    from judged
    left join chosen_llm_summaries
        on judged.turn_id = chosen_llm_summaries.turn_id
    left join rejected_llm_summaries
        on judged.turn_id = rejected_llm_summaries.turn_id
    inner join character_canon
        on judged.character_id = character_canon.character_id
    cross join rule_fingerprint
)

select * from final
{{ kept_turn_store_rows(ref('int_turns_to_judge')) }}
