-- The evidence (docs/rules.md#evidence) of every turn, one row per cited value, from the
-- citation plan (citation_plan()) rendered as rows: the ordinal, source, field, agg, the value
-- verbatim as text, its JSON kind and the key of the row it quotes.
{{ config(materialized='view') }}

with judged as (
    select * from {{ ref('int_turns_judged_with_cards') }}
),

citations as (
    {{ turn_citation_rows('judged') | indent(4) }}
)

select * from citations
