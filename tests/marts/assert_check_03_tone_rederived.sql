{{- config(enabled=target.type != 'spark') -}}
-- Assert that the tone re-derived from reply_text by the Python UDF ck_tone equals the tone
-- part of rule_observed (seed 000 check 3). The model derives tone in SQL, so a bug in either
-- implementation shows up here. honorific_level is never consulted. Above
-- var('recheck_max_turns') turns, a deterministic sample is re-derived.
-- Both sides are sampled before the join, so that it never holds every reply in memory.
with verdicts as (
    select
        turn_id,
        rule_observed
    from {{ ref('fct_turn_verdicts') }}
    where
        {{ recheck_sample('turn_id', ref('stg_chat_logs__turns')) }}
        -- The rows this build wrote and a sample of older ones (checked_turn).
        and {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

turns as (
    select
        turn_id,
        reply_text,
        first_person
    from {{ ref('stg_chat_logs__turns') }}
    where {{ recheck_sample('turn_id', ref('stg_chat_logs__turns')) }}
),

-- Materialised: otherwise the UDF call is inlined into the comparison below, once per
-- mention of tone_rederived, and runs three times per row.
rederived as materialized (
    select
        verdicts.turn_id,
        verdicts.rule_observed,
        ck_tone(
            turns.reply_text, {{ tone_rule_arguments(ref('int_tone_ending_rule')) }}
        ) as tone_rederived,
        turns.first_person
    from verdicts
    inner join turns
        on verdicts.turn_id = turns.turn_id
)

select
    turn_id,
    rule_observed,
    tone_rederived
from rederived
where rule_observed is distinct from {{ join_rule_parts('tone_rederived', 'first_person') }}
