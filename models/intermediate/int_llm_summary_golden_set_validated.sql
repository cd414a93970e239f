-- Seed 001's broken-sample golden set, run through the same validator as real candidates
-- (int_llm_summary_candidates_validated), against this build's turns, cards and lexicon. A
-- sample applies only where its turn is in the build with the very reply, and the rule
-- verdict, it was written against; elsewhere it is not_applicable. The outcomes are shown, not
-- asserted: whether a broken sample is rejected depends on the data it is judged against (an
-- analyst's valid lexicon may hold the term a sample 'altered' to), so the proof that every
-- sample is rejected for its own reason runs on a fixed fixture (seed 000's turns, cards and
-- lexicon) in pytest, never on an analyst's build. A unit test cannot hold it: the validator
-- reads the cited columns from the catalog, which a unit test's fixture CTEs are not in.
{{ config(materialized='table') }}

with candidates as (
    select
        sample_id as candidate_id,
        turn_id,
        reply_text,
        rule_verdict,
        expected_outcome
    from {{ ref('llm_summary_golden_set') }}
),

turns as (
    select
        turn_id,
        reply_text,
        verdict
    from {{ ref('int_turns_judged') }}
),

validated as (
    select
        candidate_id,
        turn_id,
        rejection_reason
    from {{ ref('int_llm_summary_candidates_validated') }}
    where candidate_set = 'llm_summary_golden_set'
),

compared as (
    select
        validated.candidate_id as sample_id,
        validated.turn_id,
        candidates.expected_outcome,
        case
            when turns.turn_id is null then 'not_applicable'
            else coalesce(validated.rejection_reason, 'accepted')
        end as actual_outcome
    from validated
    inner join candidates
        on validated.candidate_id = candidates.candidate_id
    left join turns
        on
            candidates.turn_id = turns.turn_id
            and candidates.reply_text = turns.reply_text
            and candidates.rule_verdict = turns.verdict
)

select * from compared
