with base as (
    select * from {{ ref('base_chat_logs__topic_terms') }}
),

clean as (
    select
        term,
        topic,
        term_order
    from base
    where {{ list_size_function() }}(_violations) = 0
)

select * from clean
