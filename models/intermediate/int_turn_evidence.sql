-- SPEC §4: each turn's evidence as one ordered list of citations (turn_citations(): the
-- citation plan), each keeping the key of the row it quotes. fct_turn_evidence unnests it.
-- A view: computing the list (about a second per million turns) is cheaper than writing it.
{{ config(materialized='view') }}

-- Every judged turn with the texts and card roles it quotes (judged_with_quoted_sources()).
with judged as (
    {{ judged_with_quoted_sources() }}
),

cited as (
    select
        turn_id,
        {{ turn_citations() | indent(8) }} as citations
    from judged
)

select * from cited
