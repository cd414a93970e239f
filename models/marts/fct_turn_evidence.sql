-- SPEC §4 evidence as a relational table: what each verdict cites, in order, each row keeping
-- the key of the row it quotes (cited_turn_id / cited_character_id / cited_term_order) so the
-- verbatim check can compare the value with that very row.
{{ config(
    contract={'enforced': true},
) }}

{#-
    The citation plan. Each entry cites one value: its order (block, position), the source
    table and field, the expression giving the value, its JSON kind, which row it quotes
    (`key`: the current turn, the recall source turn, the card, or the lexicon row), and when
    it applies. Every verdict starts with the reply itself.
-#}
{%- set register = "verdict in ('설정대로 말함', '말투 어긋남')" -%}
{%- set citations = [
    {'block': 10, 'position': '0', 'source': 'chat_turn', 'field': 'reply_text',
     'value': 'reply_text', 'key': 'turn', 'when': 'true'},

    {'block': 20, 'position': '1', 'source': 'character_card', 'field': 'honorific_rule',
     'value': 'honorific_rule', 'key': 'card', 'when': register},
    {'block': 20, 'position': '2', 'source': 'chat_turn', 'field': 'first_person',
     'value': 'first_person', 'key': 'turn', 'when': register},
    {'block': 20, 'position': '3', 'source': 'character_card', 'field': 'first_person',
     'value': 'card_first_person', 'key': 'card', 'when': register},

    {'block': 30, 'position': 'entity_number', 'source': 'chat_turn', 'field': 'named_entities',
     'value': 'entity', 'key': 'turn', 'when': 'true', 'from': 'off_canon_names'},
    {'block': 31, 'position': '0', 'source': 'character_card', 'field': 'canon_entities',
     'agg': 'count', 'value': 'cast(canon_entity_count as varchar)', 'kind': 'number',
     'key': 'card', 'when': "verdict = '세계관 밖 고유명사'"},

    {'block': 40, 'position': '1', 'source': 'topic_lexicon', 'field': 'term',
     'value': 'touched_term', 'key': 'term', 'when': "verdict = '금지 소재 접촉'"},
    {'block': 40, 'position': '2', 'source': 'topic_lexicon', 'field': 'topic',
     'value': 'touched_topic', 'key': 'term', 'when': "verdict = '금지 소재 접촉'"},
    {'block': 40, 'position': '3', 'source': 'character_card', 'field': 'forbidden_topics',
     'value': 'touched_topic', 'key': 'card', 'when': "verdict = '금지 소재 접촉'"},

    {'block': 50, 'position': '1', 'source': 'chat_turn', 'field': 'user_asked_recall',
     'value': 'cast(user_asked_recall as varchar)', 'kind': 'boolean', 'key': 'turn',
     'when': "verdict = '앞 회차를 기억 못 함'"},
    {'block': 50, 'position': '2', 'source': 'chat_turn', 'field': 'user_message',
     'value': 'user_message', 'key': 'turn', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'block': 50, 'position': '3', 'source': 'character_card', 'field': 'entity_roles',
     'value': 'asked_role', 'key': 'card', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'block': 50, 'position': '4', 'source': 'chat_turn', 'field': 'turn_id',
     'value': 'recall_source_turn', 'key': 'source_turn', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'block': 50, 'position': '5', 'source': 'chat_turn', 'field': 'named_entities',
     'value': 'recall_target', 'key': 'source_turn', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'block': 50, 'position': '6', 'source': 'chat_turn', 'field': 'reply_text',
     'value': 'reply_text', 'key': 'turn', 'when': "verdict = '앞 회차를 기억 못 함'"},

    {'block': 60, 'position': '1', 'source': 'chat_turn', 'field': 'named_entities',
     'value': 'null', 'key': 'turn', 'when': "off_canon_status = 'skipped'"},
    {'block': 60, 'position': '2', 'source': 'chat_turn', 'field': 'first_person',
     'value': 'null', 'key': 'turn', 'when': 'first_person is null and not ' ~ register},
    {'block': 60, 'position': '3', 'source': 'character_card', 'field': 'first_person',
     'value': 'null', 'key': 'card',
     'when': 'first_person is not null and card_first_person is null and not ' ~ register},
    {'block': 60, 'position': '4', 'source': 'chat_turn', 'field': 'user_message',
     'value': 'user_message', 'key': 'turn', 'when': "recall_status = 'skipped'"},
    {'block': 60, 'position': '5', 'source': 'character_card', 'field': 'entity_roles',
     'agg': 'count', 'value': 'cast(' ~ list_length('entity_roles') ~ ' as varchar)',
     'kind': 'number', 'key': 'card', 'when': "recall_reason = 'recall_role_not_in_message'"},
] -%}
{%- set keys = {
    'turn': ('turn_id', 'null', 'null'),
    'source_turn': ('recall_source_turn', 'null', 'null'),
    'card': ('null', 'character_id', 'null'),
    'term': ('null', 'null', 'touched_term_order'),
} %}

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
    {%- for citation in citations %}
        {%- set cited_turn, cited_character, cited_term = keys[citation.key] %}
        select
            turn_id,
            {{ citation.block }} as block,
            {{ citation.position }} as position,
            '{{ citation.source }}' as source,
            '{{ citation.field }}' as field,
            {{ "'" ~ citation.agg ~ "'" if citation.agg else 'null' }} as agg,
            {{ citation.value }} as value,
            '{{ citation.get("kind", "text") }}' as value_kind,
            {{ cited_turn }} as cited_turn_id,
            {{ cited_character }} as cited_character_id,
            {{ cited_term }} as cited_term_order
        from {{ citation.get('from', 'judged') }}
        where {{ citation.when }}
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- endfor %}
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
