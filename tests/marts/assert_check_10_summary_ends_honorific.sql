{{- config(enabled=target.type != 'spark') -}}
-- Assert that every summary is one line whose last sentence ends honorifically by the tone
-- rule (seed 000 check 10), judged by the Python UDF with the same endings seed and
-- terminators, independently of the SQL that wrote the summaries (a deterministic sample above
-- var('recheck_max_turns') turns).
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
)

select
    turn_id,
    summary
from verdicts
where
    {{ recheck_sample('turn_id', ref('stg_chat_logs__turns')) }}
    and (
        not ck_last_sentence_is_honorific(
            summary, {{ tone_rule_arguments(ref('int_tone_ending_rule')) }}
        )
        or contains(summary, chr(10))
    )
