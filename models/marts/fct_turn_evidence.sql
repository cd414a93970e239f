-- SPEC §4 evidence as a relational table: what each verdict cites, in order, each row keeping
-- the key of the row it quotes (cited_turn_id / cited_character_id / cited_term_order) so the
-- verbatim check can compare the value with that very row.
{{ config(
    contract={'enforced': true},
) }}

with judged as (
    select * from {{ ref('int_turns_judged') }}
),

off_canon_names as (
    select
        turn_id,
        character_id,
        unnest(off_canon_entities) as entity,
        generate_subscripts(off_canon_entities, 1) as entity_number
    from judged
    where verdict = '세계관 밖 고유명사'
),

cited as (
    -- Every verdict starts with the reply itself.
    select
        turn_id, 10 as block, 0 as position,
        'chat_turn' as source, 'reply_text' as field, null as agg,
        reply_text as value, 'text' as value_kind,
        turn_id as cited_turn_id, null as cited_character_id, null as cited_term_order
    from judged

    union all

    -- Register verdicts: the card's rule and both first persons.
    select
        turn_id, 20, 1,
        'character_card', 'honorific_rule', null,
        honorific_rule, 'text',
        null, character_id, null
    from judged
    where verdict in ('설정대로 말함', '말투 어긋남')

    union all

    select
        turn_id, 20, 2,
        'chat_turn', 'first_person', null,
        first_person, 'text',
        turn_id, null, null
    from judged
    where verdict in ('설정대로 말함', '말투 어긋남')

    union all

    select
        turn_id, 20, 3,
        'character_card', 'first_person', null,
        card_first_person, 'text',
        null, character_id, null
    from judged
    where verdict in ('설정대로 말함', '말투 어긋남')

    union all

    -- Off-canon: each name outside the canon, then how many names the canon holds.
    select
        turn_id, 30, entity_number,
        'chat_turn', 'named_entities', null,
        entity, 'text',
        turn_id, null, null
    from off_canon_names

    union all

    select
        turn_id, 31, 0,
        'character_card', 'canon_entities', 'count',
        cast(canon_entity_count as varchar), 'number',
        null, character_id, null
    from judged
    where verdict = '세계관 밖 고유명사'

    union all

    -- Forbidden topic: the lexicon row's term and topic, and the card's forbidden topic.
    select
        turn_id, 40, 1,
        'topic_lexicon', 'term', null,
        touched_term, 'text',
        null, null, touched_term_order
    from judged
    where verdict = '금지 소재 접촉'

    union all

    select
        turn_id, 40, 2,
        'topic_lexicon', 'topic', null,
        touched_topic, 'text',
        null, null, touched_term_order
    from judged
    where verdict = '금지 소재 접촉'

    union all

    select
        turn_id, 40, 3,
        'character_card', 'forbidden_topics', null,
        touched_topic, 'text',
        null, character_id, null
    from judged
    where verdict = '금지 소재 접촉'

    union all

    -- Recall: the question, the role asked, the earlier turn that named the entity, the reply.
    select
        turn_id, 50, 1,
        'chat_turn', 'user_asked_recall', null,
        cast(user_asked_recall as varchar), 'boolean',
        turn_id, null, null
    from judged
    where verdict = '앞 회차를 기억 못 함'

    union all

    select
        turn_id, 50, 2,
        'chat_turn', 'user_message', null,
        user_message, 'text',
        turn_id, null, null
    from judged
    where verdict = '앞 회차를 기억 못 함'

    union all

    select
        turn_id, 50, 3,
        'character_card', 'entity_roles', null,
        asked_role, 'text',
        null, character_id, null
    from judged
    where verdict = '앞 회차를 기억 못 함'

    union all

    select
        turn_id, 50, 4,
        'chat_turn', 'turn_id', null,
        recall_source_turn, 'text',
        recall_source_turn, null, null
    from judged
    where verdict = '앞 회차를 기억 못 함'

    union all

    select
        turn_id, 50, 5,
        'chat_turn', 'named_entities', null,
        recall_target, 'text',
        recall_source_turn, null, null
    from judged
    where verdict = '앞 회차를 기억 못 함'

    union all

    select
        turn_id, 50, 6,
        'chat_turn', 'reply_text', null,
        reply_text, 'text',
        turn_id, null, null
    from judged
    where verdict = '앞 회차를 기억 못 함'

    union all

    -- Skipped checks cite the null they skipped on (SPEC §4).
    select
        turn_id, 60, 1,
        'chat_turn', 'named_entities', null,
        null, 'text',
        turn_id, null, null
    from judged
    where off_canon_status = 'skipped'

    union all

    select
        turn_id, 60, 2,
        'chat_turn', 'first_person', null,
        null, 'text',
        turn_id, null, null
    from judged
    where
        first_person is null
        and verdict not in ('설정대로 말함', '말투 어긋남')

    union all

    select
        turn_id, 60, 3,
        'character_card', 'first_person', null,
        null, 'text',
        null, character_id, null
    from judged
    where
        first_person is not null
        and card_first_person is null
        and verdict not in ('설정대로 말함', '말투 어긋남')

    union all

    select
        turn_id, 60, 4,
        'chat_turn', 'user_message', null,
        user_message, 'text',
        turn_id, null, null
    from judged
    where recall_status = 'skipped'

    union all

    select
        turn_id, 60, 5,
        'character_card', 'entity_roles', 'count',
        cast({{ list_length('entity_roles') }} as varchar), 'number',
        null, character_id, null
    from judged
    where recall_reason = 'recall_role_not_in_message'
),

numbered as (
    select
        cast(turn_id as varchar) as turn_id,
        cast(row_number() over (
            partition by turn_id order by block, position
        ) as integer) as ordinal,
        cast(source as varchar) as source,
        cast(field as varchar) as field,
        cast(agg as varchar) as agg,
        cast(value as varchar) as value,
        cast(
            case when value_kind = 'text' then to_json(value) else cast(value as json) end
            as json
        ) as value_json,
        cast(cited_turn_id as varchar) as cited_turn_id,
        cast(cited_character_id as varchar) as cited_character_id,
        cast(cited_term_order as bigint) as cited_term_order
    from cited
)

select * from numbered
