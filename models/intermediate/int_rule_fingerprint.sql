-- One row: the rule version label and a fingerprint of every rule input
-- (docs/rules.md#rule-history), so a change in rates can be told apart from a change in the rules
-- that produced them.
with honorific_endings as (
    select * from {{ ref('honorific_endings') }}
),

topic_terms as (
    select * from {{ ref('stg_chat_logs__topic_terms') }}
),

endings_part as (
    select
        coalesce(
            {{ ordered_text_agg(
                "ending || '=' || cast(is_honorific as " ~ text_type() ~ ")", "'|'", [('ending', 'asc')]
            ) }},
            ''
        ) as endings_text
    from honorific_endings
),

lexicon_part as (
    select
        count(*) as lexicon_term_count,
        md5(coalesce(
            {{ ordered_text_agg(
                'cast(term_order as ' ~ text_type() ~ ") || '=' || term || '/' || topic",
                "'|'",
                [('term_order', 'asc')],
            ) }},
            ''
        )) as lexicon_md5
    from topic_terms
),

fingerprint as (
    select
        {{ text_var('rule_version') }} as rule_version,
        left(md5(
            endings_part.endings_text
            || '#'
            || {{ text_var('sentence_terminators') }}
            || '#'
            || lexicon_part.lexicon_md5
        ), 16) as rule_fingerprint,
        endings_part.endings_text as endings_rule,
        {{ text_var('sentence_terminators') }} as sentence_terminators,
        lexicon_part.lexicon_term_count,
        lexicon_part.lexicon_md5
    from endings_part
    cross join lexicon_part
)

select * from fingerprint
