-- Assert that the seven required fields (turn_id, session_id, character_id, model_id,
-- verdict, evidence, summary) are filled on every verdict row (seed 000 check 2).
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
)

select
    turn_id,
    session_id,
    character_id,
    model_id,
    verdict,
    summary
from verdicts
where
    coalesce(turn_id, '') = ''
    or coalesce(session_id, '') = ''
    or coalesce(character_id, '') = ''
    or coalesce(model_id, '') = ''
    or coalesce(verdict, '') = ''
    or coalesce(summary, '') = ''
    or {{ list_length('evidence') }} = 0
