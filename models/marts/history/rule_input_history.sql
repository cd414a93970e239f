-- Every rule input a verdict was judged with (docs/rules.md#rule-history), one row per input
-- and the fingerprint it counted under, appended and never rewritten — not even by
-- --full-refresh (full_refresh = false) — so that two fingerprints of verdict_history can be
-- told apart input by input (fct_verdict_changes.changed_inputs).
-- Grain: (rule_fingerprint, input_kind, input_key, value_hash). The endings, terminators and
-- lexicon terms are what the fingerprint hashes (int_rule_fingerprint), so they are recorded
-- once, the first build a fingerprint is seen. The rule version and the cards are not in the
-- fingerprint: a new version or a changed card (card_rules_hash) under the same fingerprint
-- adds a row with the same key and another value_hash.
{{ config(
    materialized='incremental',
    full_refresh=false,
    on_schema_change='append_new_columns',
) }}

{#- The terminators var, one character each (distinct, in var order), with its code point:
    the full-width forms look like the ASCII ones. The split of a reply does not depend on
    their order, so a reordered var changes the fingerprint and no row here. -#}
{%- set seen, terminators = [], [] -%}
{%- for character in var('sentence_terminators') | string if character not in seen -%}
    {%- set code = character.encode('utf-32-be') | list -%}
    {%- do seen.append(character) -%}
    {%- do terminators.append(
        (character, 'U+%04X' % (code[1] * 65536 + code[2] * 256 + code[3]))
    ) -%}
{%- endfor %}

with rule_fingerprint as (
    select * from {{ ref('int_rule_fingerprint') }}
),

honorific_endings as (
    select * from {{ ref('honorific_endings') }}
),

topic_terms as (
    select * from {{ ref('stg_chat_logs__topic_terms') }}
),

character_cards as (
    select * from {{ ref('stg_chat_logs__character_cards') }}
),

character_canon as (
    select * from {{ ref('int_character_canon') }}
),

endings as (
    select distinct
        'ending' as input_kind,
        ending as input_key,
        case
            when is_honorific then '존댓말'
            when not is_honorific then '반말'
            else 'null'
        end as input_value
    from honorific_endings
),

terminators as (
    {%- for character, code_point in terminators %}
        select
            'terminator' as input_kind,
            {{ sql_text(character) }} as input_key,
            {{ sql_text(code_point) }} as input_value
        {%- if not loop.last %}
            union all
        {%- endif %}
    {%- else %}
        select
            'terminator' as input_kind,
            '' as input_key,
            '' as input_value
        from rule_fingerprint
        where false
    {%- endfor %}
),

-- A term is keyed with its topic; the value names its term_order too, which the fingerprint
-- hashes and which decides among hits (docs/rules.md#lexicon).
lexicon_terms as (
    select
        'lexicon_term' as input_kind,
        term || ' (' || topic || ')' as input_key,
        'topic ' || topic || ', term_order '
        || {{ ordered_text_agg(
            'cast(term_order as ' ~ text_type() ~ ')', "', '", [('term_order', 'asc')]
        ) }} as input_value
    from topic_terms
    group by term, topic
),

rule_version as (
    select
        'rule_version' as input_kind,
        'rule_version' as input_key,
        rule_version as input_value
    from rule_fingerprint
),

-- A card's rules as JSON text (what card_rules_hash covers: register, first person, the canon
-- with the card's name and canon_review additions, forbidden topics, entity roles); its
-- value_hash is int_character_canon's card_rules_hash itself.
cards as (
    select
        'card' as input_kind,
        character_canon.character_id as input_key,
        cast({{ to_json_text(struct_of([
            ('honorific_rule', 'character_cards.honorific_rule'),
            ('first_person', 'character_cards.first_person'),
            ('canon', 'character_canon.canon_entities'),
            ('forbidden_topics', 'character_cards.forbidden_topics'),
            ('entity_roles', 'character_cards.entity_roles'),
        ])) }} as {{ text_type() }}) as input_value,
        character_canon.card_rules_hash as value_hash
    from character_canon
    inner join character_cards
        on character_canon.character_id = character_cards.character_id
),

fingerprint_inputs as (
    select
        input_kind,
        input_key,
        input_value,
        md5(input_value) as value_hash
    from endings
    union all
    select
        input_kind,
        input_key,
        input_value,
        md5(input_value) as value_hash
    from terminators
    union all
    select
        input_kind,
        input_key,
        input_value,
        md5(input_value) as value_hash
    from lexicon_terms
    union all
    select
        input_kind,
        input_key,
        input_value,
        md5(input_value) as value_hash
    from rule_version
    union all
    select
        input_kind,
        input_key,
        input_value,
        value_hash
    from cards
),

current_inputs as (
    select
        rule_fingerprint.rule_fingerprint,
        rule_fingerprint.rule_version,
        fingerprint_inputs.input_kind,
        fingerprint_inputs.input_key,
        fingerprint_inputs.input_value,
        fingerprint_inputs.value_hash,
        current_timestamp::timestamp as recorded_at
    from rule_fingerprint
    cross join fingerprint_inputs
)

select * from current_inputs
{% if is_incremental() %}
    where not exists (
        select 1
        from {{ this }} as recorded
        where
            recorded.rule_fingerprint = current_inputs.rule_fingerprint
            and recorded.input_kind = current_inputs.input_kind
            and recorded.input_key = current_inputs.input_key
            and recorded.value_hash = current_inputs.value_hash
    )
{% endif %}
