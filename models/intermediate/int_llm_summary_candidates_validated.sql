-- Every LLM summary candidate the build validates, accepted or rejected with the reason of the
-- first check it fails (docs/rules.md#summary-and-hedge): the analyst's candidates of
-- input_llm_summaries and seed 001's broken-sample golden set, each judged against this
-- build's turns, cards and lexicon. A candidate passes only if it passes checks 1, 2, 8, 9 and
-- 10 and claims the rule's own verdict; the reasons, in order: unknown_turn, non_enum_verdict,
-- missing_required_field, invented_field_name, altered_value, banmal_summary, verdict_differs.
-- A table: on DuckDB the validation calls a Python UDF.
{{ config(materialized='table') }}

{% set sources = evidence_source_models(
    ref('stg_chat_logs__turns'),
    ref('stg_chat_logs__character_cards'),
    ref('stg_chat_logs__topic_terms'),
) %}

with input_candidates as (
    select
        'input_llm_summaries' as candidate_set,
        cast(candidate_number as {{ text_type() }}) as candidate_id,
        turn_id,
        verdict,
        summary,
        evidence
    from {{ ref('stg_chat_logs__llm_summaries') }}
),

golden_set_candidates as (
    select
        'llm_summary_golden_set' as candidate_set,
        sample_id as candidate_id,
        turn_id,
        verdict,
        summary,
        evidence
    from {{ ref('llm_summary_golden_set') }}
),

-- evidence is JSON text: an array of {source, field, agg, value}.
candidates as (
    select
        candidate_set,
        candidate_id,
        turn_id,
        verdict,
        summary,
        evidence,
        {{ json_text_is_array('evidence') }} as is_evidence_array
    from (
        select * from input_candidates
        union all
        select * from golden_set_candidates
    ) as all_candidates
),

judged as (
    select
        turn_id,
        session_id,
        character_id,
        verdict
    from {{ ref('int_turns_judged') }}
),

verdict_words as (
    select verdict from {{ ref('verdict_words') }}
),

turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
),

{{ summary_evidence_ctes(sources) }},

per_candidate as (
    select
        candidate_set,
        candidate_id,
        count(*) as item_count,
        bool_and(has_required_keys) as has_required_keys,
        bool_and(is_real_field) as has_real_fields,
        bool_and(coalesce(is_verbatim, false)) as has_verbatim_values
    from item_checks
    group by candidate_set, candidate_id
),

honorific as (
    {{ last_sentence_honorific_select('candidates', ref('int_tone_ending_rule')) | indent(4) }}
),

reasons as (
    select
        candidates.candidate_set,
        candidates.candidate_id,
        candidates.turn_id,
        candidates.summary,
        case
            when judged.turn_id is null then 'unknown_turn'
            when
                coalesce(candidates.verdict, '') <> ''
                and verdict_words.verdict is null
                then 'non_enum_verdict'
            when
                coalesce(candidates.verdict, '') = ''
                or coalesce(candidates.summary, '') = ''
                or not candidates.is_evidence_array
                or coalesce(per_candidate.item_count, 0) = 0
                or not per_candidate.has_required_keys
                then 'missing_required_field'
            when not per_candidate.has_real_fields then 'invented_field_name'
            when not per_candidate.has_verbatim_values then 'altered_value'
            when not coalesce(honorific.ends_honorific, false) then 'banmal_summary'
            when candidates.verdict <> judged.verdict then 'verdict_differs'
        end as rejection_reason
    from candidates
    left join judged
        on candidates.turn_id = judged.turn_id
    left join verdict_words
        on candidates.verdict = verdict_words.verdict
    left join per_candidate
        on
            candidates.candidate_set = per_candidate.candidate_set
            and candidates.candidate_id = per_candidate.candidate_id
    left join honorific
        on
            candidates.candidate_set = honorific.candidate_set
            and candidates.candidate_id = honorific.candidate_id
),

final as (
    select
        candidate_set,
        candidate_id,
        turn_id,
        summary,
        rejection_reason,
        rejection_reason is null as is_accepted
    from reasons
)

select * from final
