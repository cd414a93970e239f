-- Assert that the export wrote one object per verdict row: its receipt counts exactly the
-- turns of fct_turn_verdicts, or with export_scope `changed` those of this build's batch (the file
-- itself is validated against the schema by pytest).
with receipt as (
    select * from {{ ref('export_turn_verdicts') }}
),

verdicts as (
    select count(*) as turn_count
    from {{ ref('fct_turn_verdicts') }}
    where
        (select receipt.export_scope from receipt) = 'all'
        or turn_id in (select batch.turn_id from {{ ref('int_turns_to_judge') }} as batch)
)

select
    receipt.export_path,
    receipt.turn_count as exported_turns,
    verdicts.turn_count as verdict_turns
from receipt
cross join verdicts
where receipt.turn_count <> verdicts.turn_count
