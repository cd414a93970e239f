-- Assert that nulls are handled as check 7 requires (docs/rules.md#null-rules):
-- named_entities null ⇔ off_canon_entities null, and then the off_canon check is skipped
-- (named_entities_null), the evidence cites the null and the hedge says so; first_person
-- null ⇒ the first_person check is skipped (first_person_null) and the hedge says so; and no
-- off_canon check is skipped when named_entities is present. Returns the turns that break it.
-- One join of every checked verdict with its turn, narrowed to flags (the nulls must agree on
-- all of them); the check rows and the cited nulls are then looked up only for the few turns
-- with a null, and the skipped off_canon checks joined to their turns: two such checks can run
-- side by side on a full build of millions of turns within the build's memory limit.
with verdicts as (
    select
        turn_id,
        off_canon_entities is null as off_canon_null,
        contains(coalesce(hedge, ''), '세계관 대조는 건너뛰었습니다') as hedges_off_canon_skip,
        contains(coalesce(hedge, ''), '1인칭 비교는 건너뛰었습니다') as hedges_first_person_skip
    from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

turns as (
    select
        turn_id,
        named_entities is null as named_entities_null,
        first_person is null as first_person_null
    from {{ ref('stg_chat_logs__turns') }}
),

paired as (
    select
        verdicts.*,
        turns.named_entities_null,
        turns.first_person_null
    from verdicts
    inner join turns
        on verdicts.turn_id = turns.turn_id
),

null_input_turns as (
    select * from paired
    where named_entities_null or first_person_null
),

null_input_checks as (
    select
        turn_id,
        check_name,
        status,
        reason_code
    from {{ ref('fct_turn_checks') }}
    where
        check_name in ('off_canon', 'first_person')
        and turn_id in (select null_input_turns.turn_id from null_input_turns)
),

null_citations as (
    select distinct turn_id
    from {{ ref('fct_turn_evidence') }}
    where
        source = 'chat_turn' and field = 'named_entities' and value is null
        and turn_id in (select null_input_turns.turn_id from null_input_turns)
),

-- The turns with a null input, with their two checks and whether the null is cited.
null_turns as (
    select
        null_input_turns.*,
        off_canon_checks.status as off_canon_status,
        off_canon_checks.reason_code as off_canon_reason,
        first_person_checks.status as first_person_status,
        first_person_checks.reason_code as first_person_reason,
        null_citations.turn_id is not null as named_entities_null_cited
    from null_input_turns
    left join null_input_checks as off_canon_checks
        on
            null_input_turns.turn_id = off_canon_checks.turn_id
            and off_canon_checks.check_name = 'off_canon'
    left join null_input_checks as first_person_checks
        on
            null_input_turns.turn_id = first_person_checks.turn_id
            and first_person_checks.check_name = 'first_person'
    left join null_citations
        on null_input_turns.turn_id = null_citations.turn_id
),

-- An off_canon check skipped although the turn has named_entities.
skipped_with_names as (
    select checks.turn_id
    from {{ ref('fct_turn_checks') }} as checks
    inner join paired
        on checks.turn_id = paired.turn_id
    where
        checks.check_name = 'off_canon'
        and checks.status = 'skipped'
        and not paired.named_entities_null
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
            or not hedges_off_canon_skip
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
            or not hedges_first_person_skip
        )
)

select * from broken
