{#
    A judged turn's evidence (docs/rules.md#evidence), written once as a plan and rendered two
    ways over the columns of int_turns_judged_with_cards, row by row:
    - turn_citations(): one ordered list per turn in the output schema's shape
      (export_citation_struct: source, field, agg, the value as JSON), fct_turn_verdicts'
      evidence column;
    - turn_citation_rows(relation): one row per citation with its ordinal, the value as text,
      its kind and the key of the row it quotes (cited_turn_id / cited_character_id /
      cited_term_order), so the verbatim check can compare the value with that very row.
    Both follow the same plan in the same order, so a turn's list and its rows agree.
#}

{#-
    The citation plan, in citation order. Each entry cites one value: the source table and
    field, the expression giving the value, its JSON kind, which row it quotes (`key`: the
    current turn, the recall source turn, the card, or the lexicon row), and when it applies;
    `each` cites once per element of a list (each off-canon name). Every verdict starts with
    the reply itself. An off-canon verdict cites the canon it was compared with by the card's
    canon_entities count and the card's name (rule v2), one row each: the canon list itself
    is a fact of the card (dim_character_cards), not copied onto every verdict that cites it.
-#}
{% macro citation_plan() -%}
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
     'agg': 'count', 'value': 'cast(canon_entity_count as ' ~ text_type() ~ ')', 'kind': 'number',
     'key': 'card', 'when': "verdict = '세계관 밖 고유명사'"},
    {'source': 'character_card', 'field': 'name',
     'value': 'character_name', 'key': 'card', 'when': "verdict = '세계관 밖 고유명사'"},

    {'source': 'topic_lexicon', 'field': 'term',
     'value': 'touched_term', 'key': 'term', 'when': "verdict = '금지 소재 접촉'"},
    {'source': 'topic_lexicon', 'field': 'topic',
     'value': 'touched_topic', 'key': 'term', 'when': "verdict = '금지 소재 접촉'"},
    {'source': 'character_card', 'field': 'forbidden_topics',
     'value': 'touched_topic', 'key': 'card', 'when': "verdict = '금지 소재 접촉'"},

    {'source': 'chat_turn', 'field': 'user_asked_recall',
     'value': 'cast(user_asked_recall as ' ~ text_type() ~ ')', 'kind': 'boolean', 'key': 'turn',
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
     'agg': 'count', 'value': 'cast(' ~ list_length('entity_roles') ~ ' as ' ~ text_type() ~ ')',
     'kind': 'number', 'key': 'card', 'when': "recall_reason = 'recall_role_not_in_message'"},
] -%}
{{ return(citations) }}
{%- endmacro %}

{#
    The key columns of the row a citation quotes, by the plan's `key`: the expressions for
    cited_turn_id, cited_character_id and cited_term_order.
#}
{% macro citation_keys(key) -%}
{%- set keys = {
    'turn': ('turn_id', 'null', 'null'),
    'source_turn': ('recall_source_turn', 'null', 'null'),
    'card': ('null', 'character_id', 'null'),
    'term': ('null', 'null', 'touched_term_order'),
} %}
{{ return(keys[key]) }}
{%- endmacro %}

{#- The list rendering (the output schema's shape). -#}
{% macro turn_citations() -%}
{%- set citations = citation_plan() -%}
{#-
    Rendering: consecutive citations with the same condition form one group, built in one
    list. Consecutive groups whose conditions only name verdicts (`verdict = '…'` or
    `verdict in (…)`), and name different ones, exclude each other: they become the branches
    of one case. A row then evaluates a handful of conditions and builds a handful of lists
    instead of one of each per citation.
-#}
{%- set groups = [] %}
{%- for citation in citations %}
    {%- set element = export_citation_struct(
        citation.source, citation.field, citation.get('agg'), citation.value,
        citation.get('kind', 'text')
    ) %}
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
            {%- do lists.append(transform_list(part.each, 'entity', part.elements[0])) %}
        {%- else %}
            {%- do lists.append(list_of(part.elements)) %}
        {%- endif %}
    {%- endfor %}
    {%- set list = lists[0] if lists | length == 1 else 'flatten(' ~ list_of(lists) ~ ')' %}
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
{%- set rendered = [] %}
{%- for piece in pieces %}
    {%- if piece.sql is not none %}
        {%- do rendered.append(piece.sql) %}
    {%- else %}
        {%- set branches = [] %}
        {%- for when, list in piece.branches %}
            {%- do branches.append('\n    when ' ~ when ~ ' then ' ~ list) %}
        {%- endfor %}
        {%- do rendered.append(
            'case' ~ branches | join('') ~ '\n    else ' ~ list_of([]) ~ '\nend'
        ) %}
    {%- endif %}
{%- endfor %}
flatten({{ list_of(rendered) }})
{%- endmacro %}

{#
    The rows rendering: one select per plan entry, for the turns where it applies, unioned. A
    citation's ordinal is one more than the number of citations before it in the plan that apply
    to the same turn (an `each` entry counts its list's length), plus its place in its own list.
    A relational pass per entry is cheaper than building and unnesting a list of structs per turn:
    an off-canon verdict cites the card's whole canon.
#}
{% macro turn_citation_rows(relation) -%}
{%- set citations = citation_plan() -%}
{#- The citations before the current one, by condition: consecutive entries with the same
    condition are counted together, as `count` fixed citations plus the lengths of `lists`. -#}
{%- set earlier = [] %}
{%- for citation in citations %}
    {%- set cited_turn, cited_character, cited_term = citation_keys(citation.key) %}
    {%- set terms = ['1'] %}
    {%- for group in earlier %}
        {%- set size = ([group.count | string] if group.count else []) + group.lists %}
        {%- set size = size | join(' + ') %}
        {%- do terms.append(
            size if group.when == 'true'
            else 'case when ' ~ group.when ~ ' then ' ~ size ~ ' else 0 end'
        ) %}
    {%- endfor %}
    {%- if citation.each %}{% do terms.append('entity_index - 1') %}{% endif %}
    select
        turn_id,
        {{ terms | join('\n        + ') }} as ordinal,
        '{{ citation.source }}' as source,
        '{{ citation.field }}' as field,
        {{ "'" ~ citation.agg ~ "'" if citation.agg else 'cast(null as ' ~ text_type() ~ ')' }} as agg,
        cast({{ citation.value }} as {{ text_type() }}) as value,
        '{{ citation.get('kind', 'text') }}' as value_kind,
        cast({{ cited_turn }} as {{ text_type() }}) as cited_turn_id,
        cast({{ cited_character }} as {{ text_type() }}) as cited_character_id,
        cast({{ cited_term }} as bigint) as cited_term_order
    {%- if citation.each %}
    from (
        select
            *,
            {{ unnest_with_position(citation.each, 'entity', 'entity_index') }}
        from {{ relation }}
        where {{ citation.when }}
    ) as applying
    {%- else %}
    from {{ relation }}
    {%- if citation.when != 'true' %}
    where {{ citation.when }}
    {%- endif %}
    {%- endif %}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- if not (earlier and earlier[-1].when == citation.when) %}
        {%- do earlier.append({'when': citation.when, 'count': 0, 'lists': []}) %}
    {%- endif %}
    {%- if citation.each %}
        {%- do earlier[-1].lists.append(list_length(citation.each)) %}
    {%- else %}
        {%- do earlier[-1].update({'count': earlier[-1].count + 1}) %}
    {%- endif %}
{%- endfor %}
{%- endmacro %}
