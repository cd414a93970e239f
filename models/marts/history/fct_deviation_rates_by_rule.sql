-- SPEC §5.3: deviation rates per rule fingerprint and model from the verdict history, so a
-- rate that moved can be read next to the rules that moved it.
with history as (
    select * from {{ ref('verdict_history') }}
),

verdict_words as (
    select * from {{ ref('verdict_words') }}
),

rates as (
    select
        history.rule_fingerprint,
        history.rule_version,
        history.model_id,
        min(history.recorded_at) as first_recorded_at,
        count(*) as turns,
        count(*) filter (where verdict_words.is_deviation) as deviations,
        count(*) filter (where verdict_words.is_deviation) / count(*) as deviation_rate
    from history
    inner join verdict_words
        on history.verdict = verdict_words.verdict
    group by history.rule_fingerprint, history.rule_version, history.model_id
)

select * from rates
