-- Assert that touched_term / touched_topic equal a plain-SQL recomputation: every lexicon row
-- whose term is a substring of reply_text is a hit; the forbidden hit with the smallest
-- term_order wins, else the smallest term_order with topic null (check 5, docs/rules.md#lexicon).
-- The model matches with an Aho-Corasick UDF; this joins turns with terms on contains(),
-- over a deterministic sample when turns × terms exceed var('recheck_max_comparisons').
with verdicts as (
    select * from {{ ref('fct_turn_verdicts') }}
    -- The rows this build wrote and a sample of older ones (checked_turn).
    where {{ checked_turn('turn_id', ref('int_turns_to_judge')) }}
),

turns as (
    select * from {{ ref('stg_chat_logs__turns') }}
    where
        {{ recheck_sample(
            'turn_id',
            ref('stg_chat_logs__turns'),
            lexicon_recheck_turns(ref('stg_chat_logs__topic_terms')),
        ) }}
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

topic_terms as (
    select * from {{ ref('stg_chat_logs__topic_terms') }}
),

hits as (
    select
        turns.turn_id,
        topic_terms.term_order,
        {{ list_has('character_cards.forbidden_topics', 'topic_terms.topic') }} as is_forbidden
    from turns
    inner join character_cards
        on turns.character_id = character_cards.character_id
    inner join topic_terms
        on contains(turns.reply_text, topic_terms.term)
),

first_hits as (
    select
        turn_id,
        min(term_order) filter (where is_forbidden) as forbidden_order,
        min(term_order) as any_order
    from hits
    group by turn_id
),

recomputed as (
    select
        turns.turn_id,
        topic_terms.term as touched_term,
        case when first_hits.forbidden_order is not null then topic_terms.topic end
            as touched_topic
    from turns
    left join first_hits
        on turns.turn_id = first_hits.turn_id
    left join topic_terms
        on coalesce(first_hits.forbidden_order, first_hits.any_order) = topic_terms.term_order
)

select
    verdicts.turn_id,
    verdicts.touched_term,
    recomputed.touched_term as expected_term,
    verdicts.touched_topic,
    recomputed.touched_topic as expected_topic
from recomputed
inner join verdicts
    on recomputed.turn_id = verdicts.turn_id
where
    verdicts.touched_term is distinct from recomputed.touched_term
    or verdicts.touched_topic is distinct from recomputed.touched_topic
