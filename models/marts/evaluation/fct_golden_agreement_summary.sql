-- The self-scoring figures (docs/rules.md#evaluation), one row. Every figure is null when there
-- are no labels (an analyst's own logs), never zero: a number with no source is never shown.
{{ config(contract={'enforced': target.type != 'spark'}) }}

with agreement as (
    select * from {{ ref('fct_golden_agreement') }}
),

summary as (
    select
        cast(nullif(count(*), 0) as bigint) as labelled_turns,
        cast(
            case when count(*) > 0 then count(*) filter (where agrees) end as bigint
        ) as agreeing_turns,
        cast(
            case when count(*) > 0 then count(*) filter (where not agrees) end as bigint
        ) as disagreeing_turns,
        cast(
            case when count(*) > 0 then count(*) filter (where agrees) / count(*) end
            as double
        ) as agreement_rate,
        cast(
            {{ wilson_interval('count(*) filter (where agrees)', 'count(*)', 'low') }}
            as double
        ) as agreement_ci_low,
        cast(
            {{ wilson_interval('count(*) filter (where agrees)', 'count(*)', 'high') }}
            as double
        ) as agreement_ci_high
    from agreement
)

select * from summary
