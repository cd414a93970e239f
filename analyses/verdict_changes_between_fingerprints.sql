-- Purpose: list the turns whose verdict changed between two rule fingerprints, to read what a
-- rule change (an ending added to honorific_endings, a lexicon edit) did, turn by turn.
-- Compile with the two fingerprints to compare, e.g.
--   dbt compile -s verdict_changes_between_fingerprints \
--       --vars '{from_fingerprint: 1a2b…, to_fingerprint: 3c4d…}'
-- Without them it compares the two most recently recorded fingerprints.
with history as (
    select * from {{ ref('verdict_history') }}
),

fingerprints as (
    select
        rule_fingerprint,
        min(recorded_at) as first_recorded_at
    from history
    group by rule_fingerprint
),

chosen as (
    select
        {% if var('from_fingerprint', none) %}
            {{ text_var('from_fingerprint') }} as from_fingerprint,
            {{ text_var('to_fingerprint') }} as to_fingerprint
        {% else %}
            (
                select rule_fingerprint from fingerprints
                order by first_recorded_at desc limit 1 offset 1
            ) as from_fingerprint,
            (
                select rule_fingerprint from fingerprints
                order by first_recorded_at desc limit 1
            ) as to_fingerprint
        {% endif %}
),

changed as (
    select
        before_change.turn_id,
        before_change.model_id,
        before_change.character_id,
        before_change.verdict as verdict_before,
        after_change.verdict as verdict_after,
        chosen.from_fingerprint,
        chosen.to_fingerprint
    from chosen
    inner join history as before_change
        on chosen.from_fingerprint = before_change.rule_fingerprint
    inner join history as after_change
        on
            chosen.to_fingerprint = after_change.rule_fingerprint
            and before_change.turn_id = after_change.turn_id
    where before_change.verdict <> after_change.verdict
)

select * from changed
order by turn_id
