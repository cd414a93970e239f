-- touched_term / touched_topic (docs/rules.md#lexicon). Each reply is scanned once for every term
-- (lexicon_hits_ctes: an Aho-Corasick automaton on DuckDB, a join of the reply's substrings with
-- the terms on Spark), never joined with every term. Only the turns this build judges
-- (int_turns_to_judge); int_turns_judged stores the result. A table: on DuckDB it holds Python
-- UDF results.
{{ config(materialized='table') }}

with turns_to_judge as (
    select turn_id from {{ ref('int_turns_to_judge') }}
    where not is_removed
),

turns as (
    select
        turns.turn_id,
        turns.character_id,
        turns.reply_text
    from {{ ref('stg_chat_logs__turns') }} as turns
    inner join turns_to_judge
        on turns.turn_id = turns_to_judge.turn_id
),

topic_terms as (
    select * from {{ ref('stg_chat_logs__topic_terms') }}
),

character_cards as (
    select
        character_id,
        forbidden_topics
    from {{ ref('stg_chat_logs__character_cards') }}
),

{{ lexicon_hits_ctes('turns', 'topic_terms') }},

ranked_hits as (
    select
        hits.turn_id,
        topic_terms.term,
        topic_terms.topic,
        topic_terms.term_order,
        {{ list_has('character_cards.forbidden_topics', 'topic_terms.topic') }} as is_forbidden,
        count(*) over (partition by hits.turn_id) as hit_count,
        -- A forbidden hit always wins over a harmless one; then the lexicon's own order.
        row_number() over (
            partition by hits.turn_id
            order by
                {{ list_has('character_cards.forbidden_topics', 'topic_terms.topic') }} desc,
                topic_terms.term_order asc
        ) as hit_rank
    from hits
    inner join topic_terms
        on hits.term_order = topic_terms.term_order
    inner join character_cards
        on hits.character_id = character_cards.character_id
),

chosen as (
    select
        turn_id,
        hit_count,
        term as touched_term,
        term_order as touched_term_order,
        case when is_forbidden then topic end as touched_topic
    from ranked_hits
    where hit_rank = 1
)

select * from chosen
