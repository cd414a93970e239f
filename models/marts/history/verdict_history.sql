-- SPEC §5.3: every verdict ever produced, per (turn_id, rule_fingerprint), appended and never
-- rewritten — not even by --full-refresh (full_refresh = false) — so that a change in rates
-- can be told apart from a change in the rules (seed 001: record the rubric version).
{{ config(
    materialized='incremental',
    full_refresh=false,
    on_schema_change='append_new_columns',
) }}

with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

current_rules as (
    select
        verdicts.turn_id,
        verdicts.session_id,
        verdicts.character_id,
        verdicts.model_id,
        verdicts.prompt_id,
        verdicts.created_at,
        verdicts.verdict,
        verdicts.deciding_check,
        verdicts.rule_version,
        verdicts.rule_fingerprint,
        current_timestamp::timestamp as recorded_at
    from verdicts
)

select * from current_rules
{% if is_incremental() %}
    where not exists (
        select 1
        from {{ this }} as recorded
        where
            recorded.turn_id = current_rules.turn_id
            and recorded.rule_fingerprint = current_rules.rule_fingerprint
    )
{% endif %}
