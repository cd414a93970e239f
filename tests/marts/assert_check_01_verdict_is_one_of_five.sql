-- Assert that every verdict is one of the five words of the output schema's enum, verbatim
-- (seed 000 check 1). The seed verdict_words mirrors the schema; pytest keeps them equal.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

verdict_words as (
    select * from {{ ref('verdict_words') }}
)

select
    verdicts.turn_id,
    verdicts.verdict
from verdicts
left join verdict_words
    on verdicts.verdict = verdict_words.verdict
where verdict_words.verdict is null
