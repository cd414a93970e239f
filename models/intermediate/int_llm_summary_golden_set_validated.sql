-- Seed 001's broken-sample golden set, run through the same validator as real candidates:
-- every broken sample must be rejected for its own reason and every valid one accepted
-- (tested by assert_llm_summary_golden_set_outcomes). A table: the validation calls a UDF.
{{ config(materialized='table') }}

with candidates as (
    select
        sample_id as candidate_id,
        turn_id,
        verdict,
        summary,
        evidence,
        expected_outcome
    from {{ ref('llm_summary_golden_set') }}
),

validated as (
    {{ validate_llm_summaries('candidates') }}
),

compared as (
    select
        validated.candidate_id as sample_id,
        validated.turn_id,
        candidates.expected_outcome,
        coalesce(validated.rejection_reason, 'accepted') as actual_outcome
    from validated
    inner join candidates
        on validated.candidate_id = candidates.candidate_id
)

select * from compared
