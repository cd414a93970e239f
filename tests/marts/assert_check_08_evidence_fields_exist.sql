-- Assert that every evidence field is a real column of its source table, read from the
-- database's catalog (seed 000 check 8): an invented field name means a made-up citation.
with evidence as (
    select * from {{ ref('fct_turn_evidence') }}
),

{{ evidence_source_columns() }}

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
