-- The evidence (docs/rules.md#evidence, #output) of every verdict as a relational table, one row
-- per cited value in citation order, with the key of the row it quotes.
{{ config(contract={'enforced': true}) }}

with turn_evidence as (
    select * from {{ ref('int_turn_evidence') }}
),

typed as (
    select
        cast(turn_id as varchar) as turn_id,
        cast(ordinal as integer) as ordinal,
        cast(source as varchar) as source,
        cast(field as varchar) as field,
        cast(agg as varchar) as agg,
        cast(value as varchar) as value,
        cast(value_kind as varchar) as value_kind,
        cast(cited_turn_id as varchar) as cited_turn_id,
        cast(cited_character_id as varchar) as cited_character_id,
        cast(cited_term_order as bigint) as cited_term_order
    from turn_evidence
)

select * from typed
