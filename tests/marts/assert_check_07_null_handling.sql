-- Assert the null handling of seed 000 check 7: named_entities null ⇔ off_canon_entities null,
-- and then the off_canon check is skipped (named_entities_null), the evidence cites the null
-- and the hedge says so; first_person null ⇒ the first_person check is skipped
-- (first_person_null) and the hedge says so. Returns the turns that break it.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
),

turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
),

checks as (
    select * from {{ ref('fct_turn_checks') }}
),

evidence as (
    select * from {{ ref('fct_turn_evidence') }}
),

status as (
    select
        turn_id,
        max(case when check_name = 'off_canon' then status end) as off_canon_status,
        max(case when check_name = 'off_canon' then reason_code end) as off_canon_reason,
        max(case when check_name = 'first_person' then status end) as first_person_status,
        max(case when check_name = 'first_person' then reason_code end) as first_person_reason
    from checks
    group by turn_id
),

null_citations as (
    select
        turn_id,
        count(*) as named_entities_null_cited
    from evidence
    where source = 'chat_turn' and field = 'named_entities' and value is null
    group by turn_id
),

judged as (
    select
        verdicts.turn_id,
        status.off_canon_status,
        status.off_canon_reason,
        status.first_person_status,
        status.first_person_reason,
        verdicts.hedge,
        turns.named_entities is null as named_entities_null,
        verdicts.off_canon_entities is null as off_canon_null,
        coalesce(null_citations.named_entities_null_cited, 0) as named_entities_null_cited,
        turns.first_person is null as first_person_null
    from verdicts
    inner join turns
        on verdicts.turn_id = turns.turn_id
    inner join status
        on verdicts.turn_id = status.turn_id
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
            or named_entities_null_cited = 0
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
