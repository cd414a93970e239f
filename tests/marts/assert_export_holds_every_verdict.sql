-- Assert that the export wrote one object per verdict row: its receipt counts exactly the
-- turns of fct_turn_verdicts (the file itself is validated against the schema by pytest).
with receipt as (
    select * from {{ ref('export_turn_verdicts') }}
),

verdicts as (
    select count(*) as turn_count from {{ ref('fct_turn_verdicts') }}
)

select
    receipt.export_path,
    receipt.turn_count as exported_turns,
    verdicts.turn_count as verdict_turns
from receipt
cross join verdicts
where receipt.turn_count <> verdicts.turn_count
