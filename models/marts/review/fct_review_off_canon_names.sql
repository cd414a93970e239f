{{- config(contract={'enforced': target.type != 'spark'}) -}}
-- Manual check 2: every off-canon name ranked by how often it appears, with the models that
-- produce it and the creator's decision so far (seed canon_review: `add` names are canon from
-- the next build on and so leave this list; `block` names stay, marked reviewed).
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

canon_review as (
    select * from {{ ref('canon_review') }}
),

mentions as (
    select
        turn_id,
        character_id,
        model_id,
        {{ sql_unnest('off_canon_entities') }} as name
    from verdicts
),

per_model as (
    select
        character_id,
        name,
        model_id,
        count(*) as model_turns
    from mentions
    group by character_id, name, model_id
),

ranked as (
    select
        per_model.character_id,
        per_model.name,
        cast(sum(per_model.model_turns) as bigint) as turns,
        count(*) as models,
        {{ sql_list_ordered(
            "per_model.model_id || ' ' || per_model.model_turns",
            'per_model.model_turns desc, per_model.model_id asc',
            ['-per_model.model_turns', 'per_model.model_id'],
        ) }} as turns_by_model
    from per_model
    group by per_model.character_id, per_model.name
),

decided as (
    select
        ranked.*,
        canon_review.decision,
        canon_review.note as decision_note,
        -- character_id last: the same name can be off-canon for two characters with the
        -- same counts, and without it their order (and rank) changed from run to run.
        row_number() over (
            order by
                ranked.turns desc,
                ranked.models desc,
                ranked.name asc,
                ranked.character_id asc
        ) as name_rank
    from ranked
    left join canon_review
        on ranked.name = canon_review.name and ranked.character_id = canon_review.character_id
)

select * from decided
