-- Every verdict ever produced (docs/rules.md#rule-history), appended and never rewritten — not
-- even by --full-refresh (full_refresh = false) — so that a change in rates can be told apart from
-- a change in the rules (seed 001: record the rubric version). A turn is recorded again whenever
-- anything that decides its verdict changes: the rule version, the rule fingerprint, or its judged
-- inputs (its text and extracted fields, its card's rules, a canon_review decision, its recall
-- outcome: judged_inputs_hash).
{{ config(
    materialized='incremental',
    full_refresh=false,
    on_schema_change='append_new_columns',
) }}
-- depends_on: {{ ref('int_turns_to_judge') }}

with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    {%- if is_incremental() %}
        -- Only the verdicts of this build's batch can differ from the recorded ones: the rows
        -- its build wrote, picked by judged_by (a removed turn has no verdict).
        where judged_by in (
            select distinct batch.judged_by from {{ ref('int_turns_to_judge') }} as batch
        )
    {%- endif %}
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
        verdicts.judged_inputs_hash,
        current_timestamp::timestamp as recorded_at,
        {{ this_build() }} as recorded_by
    from verdicts
),

{%- if is_incremental() %}
    {#- A history recorded before judged_inputs_hash existed gains the column in this very
        build (append_new_columns); its rows have none to match. -#}
    {%- set recorded_columns = adapter.get_columns_in_relation(this)
        | map(attribute='name') | map('lower') | list %}
    {%- set same_inputs = 'recorded.judged_inputs_hash = current_rules.judged_inputs_hash'
        if 'judged_inputs_hash' in recorded_columns else 'false' %}
{%- endif %}

-- This build's verdicts that the history already has under the same rules, in one join: any
-- row of the key (the turn is recorded again) and one with the same inputs (nothing to
-- record). None on the first build: each turn has one verdict.
recorded as (
    {%- if is_incremental() %}
        select
            current_rules.turn_id,
            bool_or({{ same_inputs }}) as has_same_inputs
        from current_rules
        inner join {{ this }} as recorded
            on
                current_rules.turn_id = recorded.turn_id
                and current_rules.rule_version = recorded.rule_version
                and current_rules.rule_fingerprint = recorded.rule_fingerprint
        group by current_rules.turn_id
    {%- else %}
        select
            turn_id,
            false as has_same_inputs
        from current_rules
        where false
    {%- endif %}
)

-- A turn recorded again under the same rules (its inputs changed) is flagged, so that
-- fct_deviation_rates_by_rule finds the keys with more than one row without grouping the whole
-- history.
select
    current_rules.*,
    recorded.turn_id is not null as is_recorded_again
from current_rules
left join recorded
    on current_rules.turn_id = recorded.turn_id
where not coalesce(recorded.has_same_inputs, false)
