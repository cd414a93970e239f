with base as (
    select * from {{ ref('base_chat_logs__llm_summaries') }}
),

clean as (
    select
        _source_row as candidate_number,
        turn_id,
        verdict,
        summary,
        evidence
    from base
    where {{ has_no_violations('_violations') }}
)

select * from clean
