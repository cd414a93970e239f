-- The turns whose verdict changed from one rule fingerprint to the next
-- (docs/rules.md#rule-history): for each fingerprint of fct_rule_fingerprints and the one
-- recorded before it (previous_fingerprint), the turns whose latest verdict under the earlier
-- differs from their latest verdict under the later, with the rule inputs that differ between
-- the two (rule_input_history) and the turn's card when it differs too. Consecutive pairs only,
-- so the table grows with the history, not with the square of its fingerprints; any other two
-- fingerprints are compared by the analysis verdict_changes_between_fingerprints (the same
-- macro, verdict_changes). Recomputed from the two history tables on every build.
with fingerprints as (
    select * from {{ ref('fct_rule_fingerprints') }}
),

pairs as (
    select
        previous_fingerprint as from_fingerprint,
        rule_fingerprint as to_fingerprint
    from fingerprints
    where previous_fingerprint is not null
),

{{ verdict_changes(ref('verdict_history'), ref('rule_input_history'), 'pairs') }}

select * from verdict_changes
