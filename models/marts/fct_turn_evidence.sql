-- The evidence (docs/rules.md#evidence, #output) of every verdict as a relational table, one row
-- per cited value in citation order, with the key of the row it quotes.
{{ config(contract={'enforced': true}) }}

with turn_evidence as (
    select * from {{ ref('int_turn_evidence') }}
),

citations as (
    select
        turn_id,
        unnest(citations) as citation,
        generate_subscripts(citations, 1) as ordinal
    from turn_evidence
),

numbered as (
    select
        cast(turn_id as varchar) as turn_id,
        cast(ordinal as integer) as ordinal,
        cast(struct_extract(citation, 'source') as varchar) as source,
        cast(struct_extract(citation, 'field') as varchar) as field,
        cast(struct_extract(citation, 'agg') as varchar) as agg,
        cast(struct_extract(citation, 'value') as varchar) as value,
        cast(struct_extract(citation, 'value_kind') as varchar) as value_kind,
        cast(struct_extract(citation, 'cited_turn_id') as varchar) as cited_turn_id,
        cast(struct_extract(citation, 'cited_character_id') as varchar) as cited_character_id,
        cast(struct_extract(citation, 'cited_term_order') as bigint) as cited_term_order
    from citations
)

select * from numbered
