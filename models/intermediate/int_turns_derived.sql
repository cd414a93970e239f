-- The derived values of each turn this build judges (docs/rules.md#derived-values): its tone,
-- the names off its card's canon, the lexicon term it touched and the recall outcome, one row
-- per turn, without the turn's own columns. A table of this build's turns only, rebuilt on
-- every build: int_turns_judged joins it to the turns, so the widest rows of the build meet
-- the checks' outcomes in one join, on a relation whose size the planner knows.
{{ config(materialized='table') }}

with turns_to_judge as (
    select turn_id from {{ ref('int_turns_to_judge') }}
    where not is_removed
),

batch_builds as (
    select distinct judged_by from {{ ref('int_turns_to_judge') }}
),

-- The tone of the store's turns: the batch's rows are the ones its build wrote, picked by
-- judged_by (as int_turns_judged_with_cards does), so the read does not grow with the store.
toned as (
    select * from {{ ref('int_turns_toned') }}
    where judged_by in (select batch_builds.judged_by from batch_builds)
),

canon_checked as (
    select * from {{ ref('int_turns_checked_against_canon') }}
),

lexicon_matched as (
    select * from {{ ref('int_turns_matched_to_lexicon') }}
),

recalled as (
    select * from {{ ref('int_turns_recalled') }}
),

derived as (
    select
        turns_to_judge.turn_id,
        toned.hangul_sentence_count,
        toned.honorific_sentence_count,
        toned.honorific_eojeols,
        toned.tone,
        canon_checked.canon_entity_count,
        canon_checked.off_canon_entities,
        lexicon_matched.touched_term,
        lexicon_matched.touched_term_order,
        lexicon_matched.touched_topic,
        recalled.asked_role,
        recalled.skip_reason as recall_skip_reason,
        recalled.recall_target,
        recalled.recall_source_turn,
        coalesce(lexicon_matched.hit_count, 0) as lexicon_hit_count,
        recalled.turn_id is not null as is_recall_asked
    from turns_to_judge
    left join toned
        on turns_to_judge.turn_id = toned.turn_id
    left join canon_checked
        on turns_to_judge.turn_id = canon_checked.turn_id
    left join lexicon_matched
        on turns_to_judge.turn_id = lexicon_matched.turn_id
    left join recalled
        on turns_to_judge.turn_id = recalled.turn_id
)

select * from derived
