-- Each LLM summary candidate of input_llm_summaries, accepted or rejected with the reason of
-- the first check it fails (docs/rules.md#summary-and-hedge; the validation is
-- int_llm_summary_candidates_validated), and whether it replaces its turn's summary.
{{ config(materialized='table') }}

with candidates as (
    select
        cast(candidate_number as {{ text_type() }}) as candidate_id,
        candidate_number
    from {{ ref('stg_chat_logs__llm_summaries') }}
),

validated as (
    select
        candidate_id,
        turn_id,
        summary,
        is_accepted,
        rejection_reason
    from {{ ref('int_llm_summary_candidates_validated') }}
    where candidate_set = 'input_llm_summaries'
),

ranked as (
    select
        validated.*,
        candidates.candidate_number,
        -- The first accepted candidate of a turn (in file order) replaces its summary.
        validated.is_accepted
        and row_number() over (
            partition by validated.turn_id, validated.is_accepted
            order by candidates.candidate_number
        ) = 1 as is_chosen
    from validated
    inner join candidates
        on validated.candidate_id = candidates.candidate_id
)

select * from ranked
