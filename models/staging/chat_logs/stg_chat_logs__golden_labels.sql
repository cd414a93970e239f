with base as (
    select * from {{ ref('base_chat_logs__golden_labels') }}
),

clean as (
    select
        turn_id,
        expected_verdict,
        note
    from base
    where {{ has_no_violations('_violations') }}
)

select * from clean
