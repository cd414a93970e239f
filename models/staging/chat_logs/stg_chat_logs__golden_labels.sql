with base as (
    select * from {{ ref('base_chat_logs__golden_labels') }}
),

clean as (
    select
        turn_id,
        expected_verdict,
        note
    from base
    where {{ list_size_function() }}(_violations) = 0
)

select * from clean
