-- Assert that every evidence value equals the cited row's value verbatim (seed 000 check 9):
-- the row is found by the key kept with the citation; a scalar column must equal the value as
-- text, a list column must hold it as an element (entity_roles: as a role or an entity), and
-- agg = 'count' must equal the list's length. The column list is read from the catalog.
{#- Each branch reads the evidence table itself, filtered to its source: a CTE read by
    all three would be materialised, millions of rows copied once more. #}
{% set sources = evidence_source_models(
    ref('stg_chat_logs__turns'),
    ref('stg_chat_logs__character_cards'),
    ref('stg_chat_logs__topic_terms'),
) %}
{% set keys = {'chat_turn': ('turn_id', 'cited_turn_id'),
               'character_card': ('character_id', 'cited_character_id'),
               'topic_lexicon': ('term_order', 'cited_term_order')} %}

-- The rows this build wrote and a sample of older ones (checked_turn, through the table
-- int_turns_to_check, whose size the planner knows).
with checked_turns as (
    select turn_id from {{ ref('int_turns_to_check') }}
),

compared as (
    {%- for source, relation in sources.items() %}
        {%- set key, cited_key = keys[source] %}
        select
            evidence.turn_id,
            evidence.ordinal,
            evidence.source,
            evidence.field,
            evidence.agg,
            evidence.value,
            cited.{{ key }} is not null as is_row_found,
            {{ evidence_field_matches(relation, 'evidence') }} as is_verbatim
        -- The checked turns' rows are kept before the lookup, in a subquery with a membership
        -- test: a join with the checked turns, or the same test after the lookup, may be
        -- applied after it, so that every stored evidence row of the source is looked up.
        from (
            select * from {{ ref('fct_turn_evidence') }}
            where
                source = '{{ source }}'
                and turn_id in (select checked_turns.turn_id from checked_turns)
        ) as evidence
        left join {{ relation }} as cited
            on evidence.{{ cited_key }} = cited.{{ key }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
)

select * from compared
where not is_row_found or not coalesce(is_verbatim, false)
