-- Seed 001 "which axis stays low over time is the next thing to fix": the deviation figures
-- per model per ISO week of created_at (weeks start on Monday).
{{ config(contract={'enforced': target.type != 'spark'}) }}

with compared as (
    select * from {{ ref('int_turns_compared') }}
),

weekly as (
    select
        cast(model_id as {{ sql_type_text() }}) as model_id,
        cast(date_trunc('week', created_at) as date) as week_start,
        {{ deviation_figures() }}
    from compared
    group by model_id, date_trunc('week', created_at)
)

select * from weekly
