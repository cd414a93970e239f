{#
    A judged turn's evidence (docs/rules.md#evidence) as one ordered list of citations: an
    expression over the columns of int_turns_judged, row by row (no aggregation over millions of
    rows). Each citation keeps the key of the row it quotes (cited_turn_id / cited_character_id /
    cited_term_order) so the verbatim check can compare the value with that very row.
    int_turn_evidence keeps the list per turn for fct_turn_evidence; fct_turn_verdicts computes it
    again in the same pass as its other columns, cheaper than a join on turn_id. `shape`: 'keyed'
    (citation_struct: the value as text, its kind and the cited keys) or 'export'
    (export_citation_struct: the output schema's source / field / agg / value, the value already
    JSON), so the verdict mart builds its list without reshaping every element.
#}
{% macro turn_citations(shape='keyed') -%}
{#-
    The citation plan, in citation order. Each entry cites one value: the source table and
    field, the expression giving the value, its JSON kind, which row it quotes (`key`: the
    current turn, the recall source turn, the card, or the lexicon row), and when it applies;
    `each` cites once per element of a list (each off-canon name, each canon name of the card).
    Every verdict starts with the reply itself. An off-canon verdict shows the canon the reply
    was compared with (rule v2): the card's canon_entities, their count, and the card's name.
-#}
{%- set register = "verdict in ('설정대로 말함', '말투 어긋남')" -%}
{%- set citations = [
    {'source': 'chat_turn', 'field': 'reply_text',
     'value': 'reply_text', 'key': 'turn', 'when': 'true'},

    {'source': 'character_card', 'field': 'honorific_rule',
     'value': 'honorific_rule', 'key': 'card', 'when': register},
    {'source': 'chat_turn', 'field': 'first_person',
     'value': 'first_person', 'key': 'turn', 'when': register},
    {'source': 'character_card', 'field': 'first_person',
     'value': 'card_first_person', 'key': 'card', 'when': register},

    {'source': 'chat_turn', 'field': 'named_entities', 'value': 'entity',
     'key': 'turn', 'when': "verdict = '세계관 밖 고유명사'", 'each': 'off_canon_entities'},
    {'source': 'character_card', 'field': 'canon_entities',
     'agg': 'count', 'value': 'cast(canon_entity_count as varchar)', 'kind': 'number',
     'key': 'card', 'when': "verdict = '세계관 밖 고유명사'"},
    {'source': 'character_card', 'field': 'canon_entities', 'value': 'entity',
     'key': 'card', 'when': "verdict = '세계관 밖 고유명사'",
     'each': 'coalesce(card_canon_entities, [])'},
    {'source': 'character_card', 'field': 'name',
     'value': 'character_name', 'key': 'card', 'when': "verdict = '세계관 밖 고유명사'"},

    {'source': 'topic_lexicon', 'field': 'term',
     'value': 'touched_term', 'key': 'term', 'when': "verdict = '금지 소재 접촉'"},
    {'source': 'topic_lexicon', 'field': 'topic',
     'value': 'touched_topic', 'key': 'term', 'when': "verdict = '금지 소재 접촉'"},
    {'source': 'character_card', 'field': 'forbidden_topics',
     'value': 'touched_topic', 'key': 'card', 'when': "verdict = '금지 소재 접촉'"},

    {'source': 'chat_turn', 'field': 'user_asked_recall',
     'value': 'cast(user_asked_recall as varchar)', 'kind': 'boolean', 'key': 'turn',
     'when': "verdict = '앞 회차를 기억 못 함'"},
    {'source': 'chat_turn', 'field': 'user_message',
     'value': 'user_message', 'key': 'turn', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'source': 'character_card', 'field': 'entity_roles',
     'value': 'asked_role', 'key': 'card', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'source': 'chat_turn', 'field': 'turn_id',
     'value': 'recall_source_turn', 'key': 'source_turn', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'source': 'chat_turn', 'field': 'named_entities',
     'value': 'recall_target', 'key': 'source_turn', 'when': "verdict = '앞 회차를 기억 못 함'"},
    {'source': 'chat_turn', 'field': 'reply_text',
     'value': 'reply_text', 'key': 'turn', 'when': "verdict = '앞 회차를 기억 못 함'"},

    {'source': 'chat_turn', 'field': 'named_entities',
     'value': 'null', 'key': 'turn', 'when': "off_canon_status = 'skipped'"},
    {'source': 'chat_turn', 'field': 'first_person',
     'value': 'null', 'key': 'turn', 'when': 'first_person is null and not ' ~ register},
    {'source': 'character_card', 'field': 'first_person',
     'value': 'null', 'key': 'card',
     'when': 'first_person is not null and card_first_person is null and not ' ~ register},
    {'source': 'chat_turn', 'field': 'user_message',
     'value': 'user_message', 'key': 'turn', 'when': "recall_status = 'skipped'"},
    {'source': 'character_card', 'field': 'entity_roles',
     'agg': 'count', 'value': 'cast(' ~ list_length('entity_roles') ~ ' as varchar)',
     'kind': 'number', 'key': 'card', 'when': "recall_reason = 'recall_role_not_in_message'"},
] -%}
{%- set keys = {
    'turn': ('turn_id', 'null', 'null'),
    'source_turn': ('recall_source_turn', 'null', 'null'),
    'card': ('null', 'character_id', 'null'),
    'term': ('null', 'null', 'touched_term_order'),
} %}
{#-
    Rendering: consecutive citations with the same condition form one group, built in one
    list. Consecutive groups whose conditions only name verdicts (`verdict = '…'` or
    `verdict in (…)`), and name different ones, exclude each other: they become the branches
    of one case. A row then evaluates a handful of conditions and builds a handful of lists
    instead of one of each per citation.
-#}
{%- set groups = [] %}
{%- for citation in citations %}
    {%- if shape == 'export' %}
        {%- set element = export_citation_struct(
            citation.source, citation.field, citation.get('agg'), citation.value,
            citation.get('kind', 'text')
        ) %}
    {%- else %}
        {%- set cited_turn, cited_character, cited_term = keys[citation.key] %}
        {%- set element = citation_struct(
            citation.source, citation.field, citation.get('agg'), citation.value,
            citation.get('kind', 'text'), cited_turn, cited_character, cited_term
        ) %}
    {%- endif %}
    {%- if not (groups and groups[-1].when == citation.when) %}
        {%- set only_verdicts = modules.re.fullmatch(
            "verdict (= '[^']*'|in \\('[^']*'(, '[^']*')*\\))", citation.when
        ) %}
        {%- do groups.append({
            'when': citation.when,
            'verdicts': modules.re.findall("'([^']*)'", citation.when) if only_verdicts else none,
            'parts': [],
        }) %}
    {%- endif %}
    {%- set parts = groups[-1].parts %}
    {%- if citation.each %}
        {%- do parts.append({'each': citation.each, 'elements': [element]}) %}
    {%- elif parts and not parts[-1].each %}
        {%- do parts[-1].elements.append(element) %}
    {%- else %}
        {%- do parts.append({'each': none, 'elements': [element]}) %}
    {%- endif %}
{%- endfor %}
{%- set pieces = [] %}
{%- for group in groups %}
    {%- set lists = [] %}
    {%- for part in group.parts %}
        {%- if part.each %}
            {%- do lists.append(
                'list_transform(' ~ part.each ~ ', lambda entity: ' ~ part.elements[0] ~ ')'
            ) %}
        {%- else %}
            {%- do lists.append('[' ~ part.elements | join(', ') ~ ']') %}
        {%- endif %}
    {%- endfor %}
    {%- set list = lists[0] if lists | length == 1 else 'flatten([' ~ lists | join(', ') ~ '])' %}
    {%- set previous = pieces[-1] if pieces else none %}
    {%- if group.when == 'true' %}
        {%- do pieces.append({'verdicts': none, 'sql': list}) %}
    {%- elif group.verdicts is not none and previous and previous.verdicts is not none
        and not (group.verdicts | select('in', previous.verdicts) | list) %}
        {%- do previous.verdicts.extend(group.verdicts) %}
        {%- do previous.branches.append((group.when, list)) %}
    {%- else %}
        {%- do pieces.append({
            'verdicts': group.verdicts, 'branches': [(group.when, list)], 'sql': none,
        }) %}
    {%- endif %}
{%- endfor %}
flatten([
    {%- for piece in pieces %}
        {%- if piece.sql is not none %}
        {{ piece.sql }}
        {%- else %}
        case
            {%- for when, list in piece.branches %}
            when {{ when }} then {{ list }}
            {%- endfor %}
            else []
        end
        {%- endif %}{{ ',' if not loop.last }}
    {%- endfor %}
])
{%- endmacro %}
