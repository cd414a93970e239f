-- Purpose: list the turns whose verdict changed between any two rule fingerprints, with the
-- rule inputs that changed (an ending added to honorific_endings, a lexicon edit, the rule
-- version, the turn's card), to read what a rule change did, turn by turn. The same macro as
-- fct_verdict_changes (verdict_changes), which holds only consecutive fingerprints.
-- Compile with the two fingerprints to compare (fct_rule_fingerprints lists them), e.g.
--   dbt compile -s verdict_changes_between_fingerprints \
--       --vars '{from_fingerprint: 1a2b…, to_fingerprint: 3c4d…}'
-- Without them it compares the two most recently first-recorded fingerprints.
with fingerprints as (
    select * from {{ ref('fct_rule_fingerprints') }}
),

pairs as (
    {%- if var('from_fingerprint', none) %}
        select
            {{ text_var('from_fingerprint') }} as from_fingerprint,
            {{ text_var('to_fingerprint') }} as to_fingerprint
    {%- else %}
        select
            previous_fingerprint as from_fingerprint,
            rule_fingerprint as to_fingerprint
        from fingerprints
        where
            fingerprint_order = (select max(latest.fingerprint_order) from fingerprints as latest)
            and previous_fingerprint is not null
    {%- endif %}
),

{{ verdict_changes(ref('verdict_history'), ref('rule_input_history'), 'pairs') }}

select * from verdict_changes
order by turn_id
