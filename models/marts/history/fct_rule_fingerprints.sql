-- One row per rule fingerprint of verdict_history (docs/rules.md#rule-history), in the order the
-- fingerprints were first recorded, so the screen can list them and fct_verdict_changes can
-- pair each with the one before it. Recomputed from the history on every build: one scan
-- grouped by fingerprint and version; the window runs over those few groups only.
with history as (
    select * from {{ ref('verdict_history') }}
),

input_history as (
    select * from {{ ref('rule_input_history') }}
),

rule_fingerprint as (
    select * from {{ ref('int_rule_fingerprint') }}
),

by_version as (
    select
        rule_fingerprint,
        rule_version,
        min(recorded_at) as first_recorded_at,
        max(recorded_at) as last_recorded_at
    from history
    group by rule_fingerprint, rule_version
),

turns as (
    select
        rule_fingerprint,
        count(distinct turn_id) as turns,
        count(*) as history_rows
    from history
    group by rule_fingerprint
),

versions as (
    select
        rule_fingerprint,
        min(first_recorded_at) as first_recorded_at,
        max(last_recorded_at) as last_recorded_at,
        {{ ordered_text_agg(
            'rule_version', "', '", [('first_recorded_at', 'asc'), ('rule_version', 'asc')]
        ) }} as rule_versions
    from by_version
    group by rule_fingerprint
),

latest_version as (
    {{ sql_first_per_partition(
        'by_version', 'rule_fingerprint', 'last_recorded_at desc, rule_version desc'
    ) }}
),

recorded_inputs as (
    select distinct rule_fingerprint
    from input_history
),

ordered as (
    select
        versions.rule_fingerprint,
        latest_version.rule_version,
        versions.rule_versions,
        versions.first_recorded_at,
        versions.last_recorded_at,
        turns.turns,
        turns.history_rows,
        row_number() over (
            order by versions.first_recorded_at, versions.rule_fingerprint
        ) as fingerprint_order,
        lag(versions.rule_fingerprint) over (
            order by versions.first_recorded_at, versions.rule_fingerprint
        ) as previous_fingerprint,
        recorded_inputs.rule_fingerprint is not null as inputs_recorded,
        rule_fingerprint.rule_fingerprint is not null as is_current
    from versions
    inner join latest_version
        on versions.rule_fingerprint = latest_version.rule_fingerprint
    inner join turns
        on versions.rule_fingerprint = turns.rule_fingerprint
    left join recorded_inputs
        on versions.rule_fingerprint = recorded_inputs.rule_fingerprint
    left join rule_fingerprint
        on versions.rule_fingerprint = rule_fingerprint.rule_fingerprint
)

select * from ordered
