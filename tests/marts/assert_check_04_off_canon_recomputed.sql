-- Assert that off_canon_entities equals named_entities minus the canon, distinct, in
-- named_entities order, and null exactly when named_entities is null (seed 000 check 4); the
-- canon is the card's canon_entities, its own name (rule v2) and the names creators added in
-- int_canon_decisions (seed canon_review overridden by the reviewers' canon_decisions.csv).
-- Recomputed relationally (unnest, anti-join, first occurrence), not with the model's
-- list functions.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

-- Only the checked turns are recomputed: the names of every stored turn would be unnested
-- and grouped before the join with the checked verdicts.
turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
    where turn_id in (select verdicts.turn_id from verdicts)
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

named as (
    select
        turn_id,
        character_id,
        {{ sql_unnest_numbered('named_entities', 'entity', 'entity_number') }}
    from turns
),

canon as (
    select
        character_id,
        {{ sql_unnest('canon_entities') }} as entity
    from character_cards
    union all
    -- Rule v2: the card's own name is canon.
    select
        character_id,
        name as entity
    from character_cards
    union all
    select
        character_id,
        name as entity
    from {{ ref('int_canon_decisions') }}
    where decision = 'add'
),

outside as (
    select
        named.turn_id,
        named.entity,
        min(named.entity_number) as first_number
    from named
    left join canon
        on named.character_id = canon.character_id and named.entity = canon.entity
    where canon.entity is null
    group by named.turn_id, named.entity
),

-- Each turn's off-canon names in order, for the turns that have any.
outside_lists as (
    select
        turn_id,
        {{ sql_list_ordered('entity', 'first_number', ['first_number']) }} as entities
    from outside
    group by turn_id
),

recomputed as (
    select
        turns.turn_id,
        case
            when turns.named_entities is not null
                then coalesce(outside_lists.entities, {{ sql_empty_text_list() }})
        end as off_canon_recomputed
    from turns
    left join outside_lists
        on turns.turn_id = outside_lists.turn_id
)

select
    verdicts.turn_id,
    verdicts.off_canon_entities,
    recomputed.off_canon_recomputed
from verdicts
inner join recomputed
    on verdicts.turn_id = recomputed.turn_id
where verdicts.off_canon_entities is distinct from recomputed.off_canon_recomputed
