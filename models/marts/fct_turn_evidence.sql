-- The evidence (docs/rules.md#evidence, #output) of every verdict as a relational table, one row
-- per cited value in citation order, with the key of the row it quotes. Part of the turn store
-- (docs/rules.md#incremental-builds): a build adds or rewrites the rows of the turns it judges.
{{ config(
    contract={'enforced': contract_enforced()},
    materialized=turn_store_materialization(),
    incremental_strategy=turn_store_strategy('append'),
    partition_by=turn_store_partition_by(),
    on_schema_change='fail',
    pre_hook="{{ delete_judged_turns(ref('int_turns_to_judge')) }}",
    post_hook="{{ drop_stale_partitions(ref('int_turns_to_judge')) }}",
) }}
-- depends_on: {{ ref('int_turns_to_judge') }}

with turn_evidence as (
    select * from {{ ref('int_turn_evidence') }}
),

typed as (
    select
        cast(turn_id as {{ text_type() }}) as turn_id,
        cast(ordinal as integer) as ordinal,
        cast(source as {{ text_type() }}) as source,
        cast(field as {{ text_type() }}) as field,
        cast(agg as {{ text_type() }}) as agg,
        cast(value as {{ text_type() }}) as value,
        cast(value_kind as {{ text_type() }}) as value_kind,
        cast(cited_turn_id as {{ text_type() }}) as cited_turn_id,
        cast(cited_character_id as {{ text_type() }}) as cited_character_id,
        cast(cited_term_order as bigint) as cited_term_order,
        cast({{ this_build() }} as {{ text_type() }}) as judged_by
    from turn_evidence
)

select * from typed
{{ kept_turn_store_rows(ref('int_turns_to_judge')) }}
