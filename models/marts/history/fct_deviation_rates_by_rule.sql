-- Deviation rates (docs/rules.md#rule-history) per rule version, rule fingerprint and model from
-- the verdict history, so a rate that moved can be read next to the rules that moved it. Under one
-- version and fingerprint a turn counts once, by its latest recorded verdict: a turn re-recorded
-- because its text, card or canon decisions changed replaces its older row instead of being
-- counted twice.
with history as (
    select * from {{ ref('verdict_history') }}
),

verdict_words as (
    select * from {{ ref('verdict_words') }}
),

-- A turn has one row under a version and fingerprint unless what decided it changed, so only
-- the keys recorded more than once are ranked: ranking every row would sort the whole history.
-- Such a key's later rows are flagged is_recorded_again when recorded; rows recorded before
-- the flag existed (null) are grouped to find theirs.
repeated_keys as (
    select
        turn_id,
        rule_version,
        rule_fingerprint
    from history
    where is_recorded_again
    union distinct
    select
        turn_id,
        rule_version,
        rule_fingerprint
    from history
    where is_recorded_again is null
    group by turn_id, rule_version, rule_fingerprint
    having count(*) > 1
),

recorded_once as (
    select history.*
    from history
    left join repeated_keys
        on
            history.turn_id = repeated_keys.turn_id
            and history.rule_version = repeated_keys.rule_version
            and history.rule_fingerprint = repeated_keys.rule_fingerprint
    where repeated_keys.turn_id is null
),

recorded_again as (
    select history.*
    from history
    inner join repeated_keys
        on
            history.turn_id = repeated_keys.turn_id
            and history.rule_version = repeated_keys.rule_version
            and history.rule_fingerprint = repeated_keys.rule_fingerprint
),

latest_recorded_again as (
    {{ sql_first_per_partition(
        'recorded_again',
        'turn_id, rule_version, rule_fingerprint',
        'recorded_at desc, judged_inputs_hash desc',
    ) }}
),

latest as (
    select * from recorded_once
    union all
    select * from latest_recorded_again
),

first_recorded as (
    select
        rule_fingerprint,
        rule_version,
        model_id,
        min(recorded_at) as first_recorded_at
    from history
    group by rule_fingerprint, rule_version, model_id
),

rates as (
    select
        latest.rule_fingerprint,
        latest.rule_version,
        latest.model_id,
        count(*) as turns,
        count(*) filter (where verdict_words.is_deviation) as deviations,
        count(*) filter (where verdict_words.is_deviation) / count(*) as deviation_rate
    from latest
    inner join verdict_words
        on latest.verdict = verdict_words.verdict
    group by latest.rule_fingerprint, latest.rule_version, latest.model_id
),

final as (
    select
        rates.rule_fingerprint,
        rates.rule_version,
        rates.model_id,
        first_recorded.first_recorded_at,
        rates.turns,
        rates.deviations,
        rates.deviation_rate
    from rates
    inner join first_recorded
        on
            rates.rule_fingerprint = first_recorded.rule_fingerprint
            and rates.rule_version = first_recorded.rule_version
            and rates.model_id = first_recorded.model_id
)

select * from final
