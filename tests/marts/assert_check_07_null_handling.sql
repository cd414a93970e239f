-- Assert the null handling of seed 000 check 7: named_entities null ⇔ off_canon_entities null,
-- and then the off_canon check is skipped (named_entities_null), the evidence cites the null
-- and the hedge says so; first_person null ⇒ the first_person check is skipped
-- (first_person_null) and the hedge says so. Returns the turns that break it.
-- Joins row to row (no aggregation over every turn), so it stays cheap at millions of turns.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
),

off_canon_checks as (
    select * from {{ ref('fct_turn_checks') }}
    where check_name = 'off_canon'
),

first_person_checks as (
    select * from {{ ref('fct_turn_checks') }}
    where check_name = 'first_person'
),

null_citations as (
    select distinct turn_id
    from {{ ref('fct_turn_evidence') }}
    where source = 'chat_turn' and field = 'named_entities' and value is null
),

judged as (
    select
        verdicts.turn_id,
        verdicts.hedge,
        off_canon_checks.status as off_canon_status,
        off_canon_checks.reason_code as off_canon_reason,
        first_person_checks.status as first_person_status,
        first_person_checks.reason_code as first_person_reason,
        turns.named_entities is null as named_entities_null,
        verdicts.off_canon_entities is null as off_canon_null,
        null_citations.turn_id is not null as named_entities_null_cited,
        turns.first_person is null as first_person_null
    from verdicts
    inner join turns
        on verdicts.turn_id = turns.turn_id
    inner join off_canon_checks
        on verdicts.turn_id = off_canon_checks.turn_id
    inner join first_person_checks
        on verdicts.turn_id = first_person_checks.turn_id
    left join null_citations
        on verdicts.turn_id = null_citations.turn_id
)

select * from judged
where
    named_entities_null <> off_canon_null
    or (
        named_entities_null
        and (
            off_canon_status <> 'skipped'
            or off_canon_reason <> 'named_entities_null'
            or not named_entities_null_cited
            or not contains(coalesce(hedge, ''), '세계관 대조는 건너뛰었습니다')
        )
    )
    or (not named_entities_null and off_canon_status = 'skipped')
    or (
        first_person_null
        and (
            first_person_status <> 'skipped'
            or first_person_reason <> 'first_person_null'
            or not contains(coalesce(hedge, ''), '1인칭 비교는 건너뛰었습니다')
        )
    )
