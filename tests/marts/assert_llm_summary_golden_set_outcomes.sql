-- Assert that every broken LLM-summary sample of seed llm_summary_golden_set is rejected for
-- the reason it was built to trip and every valid one is accepted (SPEC §5.4, seed 001's
-- golden set of deliberately broken samples). Samples whose turn is not in this build with
-- the reply they were written against (an analyst's own logs) cannot be judged and are left
-- out; pytest proves the whole set on seed 000's turns.
with outcomes as (
    select * from {{ ref('int_llm_summary_golden_set_validated') }}
)

select * from outcomes
where actual_outcome <> expected_outcome and actual_outcome <> 'not_applicable'
