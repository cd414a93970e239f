-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
-- Only the contract is checked here; whether a candidate may replace the rule's summary is
-- decided by int_llm_summaries_validated.
{{ config(materialized='table') }}

with source as (
    select * from {{ source('chat_logs', 'llm_summaries') }}
),

parsed as (
    {{ parse_input('llm_summaries', 'source') }}
)

select
    {{ star_except(parsed_input_columns('llm_summaries'), ['_column_violations']) }},
    _column_violations as _violations
from parsed
