-- Assert that nulls are handled as check 7 requires (docs/rules.md#null-rules):
-- named_entities null ⇔ off_canon_entities null, and then the off_canon check is skipped
-- (named_entities_null), the evidence cites the null and the hedge says so; first_person
-- null ⇒ the first_person check is skipped (first_person_null) and the hedge says so; and no
-- off_canon check is skipped when named_entities is present. Returns the turns that break it.
-- One join of every verdict with its turn (the nulls must agree on all of them); the check
-- rows and the cited nulls are then joined only to the few turns with a null, and the
-- skipped off_canon checks only to their turns.
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
),

checks as (
    select * from {{ ref('fct_turn_checks') }}
    where turn_id in (select verdicts.turn_id from verdicts)
),

null_citations as (
    select distinct turn_id
    from {{ ref('fct_turn_evidence') }}
    where
        source = 'chat_turn' and field = 'named_entities' and value is null
        and turn_id in (select verdicts.turn_id from verdicts)
),

paired as (
    select
        verdicts.turn_id,
        verdicts.hedge,
        turns.named_entities is null as named_entities_null,
        verdicts.off_canon_entities is null as off_canon_null,
        turns.first_person is null as first_person_null
    from verdicts
    inner join turns
        on verdicts.turn_id = turns.turn_id
),

-- The turns with a null input, with their two checks and whether the null is cited.
null_turns as (
    select
        paired.*,
        off_canon_checks.status as off_canon_status,
        off_canon_checks.reason_code as off_canon_reason,
        first_person_checks.status as first_person_status,
        first_person_checks.reason_code as first_person_reason,
        null_citations.turn_id is not null as named_entities_null_cited
    from paired
    left join checks as off_canon_checks
        on
            paired.turn_id = off_canon_checks.turn_id
            and off_canon_checks.check_name = 'off_canon'
    left join checks as first_person_checks
        on
            paired.turn_id = first_person_checks.turn_id
            and first_person_checks.check_name = 'first_person'
    left join null_citations
        on paired.turn_id = null_citations.turn_id
    where paired.named_entities_null or paired.first_person_null
),

-- An off_canon check skipped although the turn has named_entities.
skipped_with_names as (
    select checks.turn_id
    from checks
    inner join turns
        on checks.turn_id = turns.turn_id
    where
        checks.check_name = 'off_canon'
        and checks.status = 'skipped'
        and turns.named_entities is not null
),

broken as (
    select
        turn_id,
        'named_entities null and off_canon_entities null disagree' as problem
    from paired
    where named_entities_null <> off_canon_null

    union all

    select
        turn_id,
        'named_entities null not skipped, cited and hedged' as problem
    from null_turns
    where
        named_entities_null
        and (
            off_canon_status is distinct from 'skipped'
            or off_canon_reason is distinct from 'named_entities_null'
            or not named_entities_null_cited
            or not contains(coalesce(hedge, ''), '세계관 대조는 건너뛰었습니다')
        )

    union all

    select
        turn_id,
        'off_canon skipped although named_entities is present' as problem
    from skipped_with_names

    union all

    select
        turn_id,
        'first_person null not skipped and hedged' as problem
    from null_turns
    where
        first_person_null
        and (
            first_person_status is distinct from 'skipped'
            or first_person_reason is distinct from 'first_person_null'
            or not contains(coalesce(hedge, ''), '1인칭 비교는 건너뛰었습니다')
        )
)

select * from broken
