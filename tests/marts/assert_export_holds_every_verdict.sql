-- Assert that the export wrote one object per verdict row: its receipt counts exactly the
-- turns of fct_turn_verdicts, or with export_scope `changed` those this build wrote (the file
-- itself is validated against the schema by pytest).
with receipt as (
    select * from {{ ref('export_turn_verdicts') }}
),

verdicts as (
    select count(*) as turn_count
    from {{ ref('fct_turn_verdicts') }}
    where
        (select receipt.export_scope from receipt) = 'all'
        or judged_by = {{ this_build() }}
)

select
    receipt.export_path,
    receipt.turn_count as exported_turns,
    verdicts.turn_count as verdict_turns
from receipt
cross join verdicts
where receipt.turn_count <> verdicts.turn_count
