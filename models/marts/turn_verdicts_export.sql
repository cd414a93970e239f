-- The exported shape of a verdict (SPEC §6): exactly the output schema's fields, one row per
-- turn. Its post-hook writes exports/turn_verdicts.json (var export_path) on every build. A
-- node of its own, so the export is written while the tests of fct_turn_verdicts run.
{{ config(
    materialized='view',
    post_hook="{{ export_turn_verdicts() }}",
) }}

with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

exported as (
    select
        turn_id,
        session_id,
        character_id,
        model_id,
        verdict,
        rule_expected,
        rule_observed,
        off_canon_entities,
        touched_term,
        touched_topic,
        recall_target,
        recall_source_turn,
        evidence,
        summary,
        hedge
    from verdicts
)

select * from exported
