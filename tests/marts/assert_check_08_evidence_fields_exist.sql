-- Assert that every evidence field is a real column of its source table, read from the
-- database's catalog (seed 000 check 8): an invented field name means a made-up citation.
{% set sources = evidence_source_models(
    ref('stg_chat_logs__turns'),
    ref('stg_chat_logs__character_cards'),
    ref('stg_chat_logs__topic_terms'),
) %}

-- The rows this build wrote and a sample of older ones (checked_turn).
with checked_verdicts as (
    select turn_id from {{ ref('fct_turn_verdicts') }}
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

evidence as (
    select * from {{ ref('fct_turn_evidence') }}
    where turn_id in (select checked_verdicts.turn_id from checked_verdicts)
),

{{ evidence_source_columns(sources) }}

select
    evidence.turn_id,
    evidence.ordinal,
    evidence.source,
    evidence.field
from evidence
left join source_columns
    on
        evidence.source = source_columns.source
        and evidence.field = source_columns.field
where source_columns.field is null
