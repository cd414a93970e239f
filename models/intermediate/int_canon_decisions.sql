-- The effective decisions on off-canon names (docs/rules.md#reviewer-decisions): seed
-- canon_review's rows, each overridden by the reviewers' latest clean row of
-- canon_decisions.csv for the same (character_id, name) (by decided_at, then file and line), and
-- the reviewers' decisions on names the seed does not hold. `add` names join the card's canon
-- (int_character_canon); `block` names stay off-canon, marked reviewed.
with seed_decisions as (
    select
        name,
        character_id,
        decision,
        note
    from {{ ref('canon_review') }}
),

reviewer_decisions as (
    select * from {{ ref('stg_chat_logs__canon_decisions') }}
),

ranked as (
    select
        *,
        row_number() over (
            partition by character_id, name
            order by decided_at desc, _source_file desc, _source_row desc
        ) as decision_order
    from reviewer_decisions
),

latest as (
    select * from ranked
    where decision_order = 1
),

decisions as (
    select
        name,
        character_id,
        decision,
        note,
        'reviewer' as decided_by,
        reviewer,
        decided_at
    from latest

    union all

    select
        seed_decisions.name,
        seed_decisions.character_id,
        seed_decisions.decision,
        seed_decisions.note,
        'seed' as decided_by,
        cast(null as {{ sql_type_text() }}) as reviewer,
        cast(null as timestamp) as decided_at
    from seed_decisions
    left join latest
        on
            seed_decisions.character_id = latest.character_id
            and seed_decisions.name = latest.name
    where latest.name is null
)

select * from decisions
