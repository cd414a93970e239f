{{- config(contract={'enforced': target.type != 'spark'}) -}}
-- Manual check 2: every off-canon name ranked by how often it appears, with the models that
-- produce it and the decision so far (int_canon_decisions: seed canon_review overridden by the
-- reviewers' canon_decisions.csv; `add` names are canon from the next build on and so leave this
-- list; `block` names stay, marked reviewed).
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

canon_decisions as (
    select * from {{ ref('int_canon_decisions') }}
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
        canon_decisions.decision,
        canon_decisions.note as decision_note,
        canon_decisions.decided_by,
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
    left join canon_decisions
        on
            ranked.name = canon_decisions.name
            and ranked.character_id = canon_decisions.character_id
)

select * from decided
