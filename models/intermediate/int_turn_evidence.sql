-- Each turn's evidence (docs/rules.md#evidence) as one ordered list of citations
-- (turn_citations(): the citation plan), each keeping the key of the row it quotes.
-- fct_turn_evidence unnests it. A view: computing the list (about a second per million turns) is
-- cheaper than writing it.
{{ config(materialized='view') }}

with judged as (
    select * from {{ ref('int_turns_judged_with_cards') }}
),

cited as (
    select
        turn_id,
        {{ turn_citations() | indent(8) }} as citations
    from judged
)

select * from cited
