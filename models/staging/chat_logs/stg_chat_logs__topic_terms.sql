with base as (
    select * from {{ ref('base_chat_logs__topic_terms') }}
),

clean as (
    select
        term,
        topic,
        term_order
    from base
    where {{ has_no_violations('_violations') }}
)

select * from clean
