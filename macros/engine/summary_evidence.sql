{#
    The JSON reading and the verbatim check (checks 8 and 9, docs/rules.md#summary-and-hedge) of
    int_llm_summary_candidates_validated, by engine. DuckDB reads the evidence text with its
    JSON functions and checks each value with a correlated EXISTS per source (the macros of
    macros/checks). Spark has no JSON type and no EXISTS inside an expression: it parses the
    text into a VARIANT, and finds the cited rows with one join per source.
#}

{# Whether a JSON text is an array (false for null, invalid JSON or any other JSON value). #}
{% macro json_text_is_array(expression) -%}
    {{- adapter.dispatch('json_text_is_array', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__json_text_is_array(expression) -%}
    {{ is_json_array(expression) }}
{%- endmacro %}

{% macro spark__json_text_is_array(expression) -%}
    coalesce(schema_of_variant(try_parse_json({{ expression }})) like 'ARRAY<%', false)
{%- endmacro %}

{#
    The CTEs source_columns (source, field: each source table's columns), items (one row per
    element of an evidence array), evidence (each item's source, field, agg, value as text and
    has_required_keys, with where its candidate's turn may cite from) and item_checks
    (has_required_keys, is_real_field, is_verbatim per item). They read the model's CTEs
    candidates and turns; `sources` is the mapping evidence_source_models() returns.
#}
{% macro summary_evidence_ctes(sources) -%}
    {{- adapter.dispatch('summary_evidence_ctes', 'card_keeper')(sources) -}}
{%- endmacro %}

{% macro duckdb__summary_evidence_ctes(sources) -%}
{{ evidence_source_columns(sources) }},

items as (
    select
        candidate_set,
        candidate_id,
        unnest(from_json(evidence, '["JSON"]')) as item
    from candidates
    where is_evidence_array
),

evidence as (
    select
        items.candidate_set,
        items.candidate_id,
        candidates.turn_id as candidate_turn_id,
        -- Where the candidate's turn may cite from: its session and its card.
        candidate_turns.session_id as candidate_session_id,
        candidate_turns.character_id as candidate_character_id,
        items.item ->> '$.source' as source,
        items.item ->> '$.field' as field,
        items.item ->> '$.agg' as agg,
        case
            when json_type(items.item, '$.value') = 'VARCHAR' then items.item ->> '$.value'
            when json_type(items.item, '$.value') = 'NULL' then null
            else cast(items.item -> '$.value' as varchar)
        end as value,
        coalesce(
            json_type(items.item) = 'OBJECT'
            and json_exists(items.item, '$.source')
            and json_exists(items.item, '$.field')
            and json_exists(items.item, '$.value'),
            false
        ) as has_required_keys
    from items
    inner join candidates
        on
            items.candidate_set = candidates.candidate_set
            and items.candidate_id = candidates.candidate_id
    left join turns as candidate_turns
        on candidates.turn_id = candidate_turns.turn_id
),

item_checks as (
    select
        evidence.candidate_set,
        evidence.candidate_id,
        evidence.has_required_keys,
        source_columns.field is not null as is_real_field,
        (
            {{ candidate_value_is_cited('evidence', sources) }}
        ) as is_verbatim
    from evidence
    left join source_columns
        on evidence.source = source_columns.source and evidence.field = source_columns.field
)
{%- endmacro %}

{#
    Spark: the columns come from the relations' own schemas at compile time (no
    information_schema); a value (a JSON string unquoted, null for JSON null, any other value
    as its JSON text) is verbatim when some row it may cite (a turn of the session, the card,
    any lexicon row) holds it in the named column, compared by the column's type as
    evidence_value_matches() does.
#}
{% macro spark__summary_evidence_ctes(sources) -%}
{%- set columns_by_source = {} %}
{%- for source, relation in sources.items() %}
    {%- do columns_by_source.update(
        {source: adapter.get_columns_in_relation(relation) if execute else []}
    ) %}
{%- endfor %}
source_columns as (
    select source, field
    from values
        ('', '')
        {%- for source, columns in columns_by_source.items() %}
        {%- for column in columns %},
        ('{{ source }}', '{{ column.name }}')
        {%- endfor %}
        {%- endfor %}
        as catalog (source, field)
    where source <> ''
),

items as (
    select
        candidate_set,
        candidate_id,
        posexplode(cast(try_parse_json(evidence) as array<variant>)) as (item_number, item)
    from candidates
    where is_evidence_array
),

evidence as (
    select
        items.candidate_set,
        items.candidate_id,
        items.item_number,
        candidates.turn_id as candidate_turn_id,
        -- Where the candidate's turn may cite from: its session and its card.
        candidate_turns.session_id as candidate_session_id,
        candidate_turns.character_id as candidate_character_id,
        cast(variant_get(items.item, '$.source') as string) as source,
        cast(variant_get(items.item, '$.field') as string) as field,
        cast(variant_get(items.item, '$.agg') as string) as agg,
        case
            when schema_of_variant(variant_get(items.item, '$.value')) = 'STRING'
                then cast(variant_get(items.item, '$.value') as string)
            when is_variant_null(variant_get(items.item, '$.value')) then null
            else to_json(variant_get(items.item, '$.value'))
        end as value,
        coalesce(
            schema_of_variant(items.item) like 'OBJECT<%'
            and variant_get(items.item, '$.source') is not null
            and variant_get(items.item, '$.field') is not null
            and variant_get(items.item, '$.value') is not null,
            false
        ) as has_required_keys
    from items
    inner join candidates
        on
            items.candidate_set = candidates.candidate_set
            and items.candidate_id = candidates.candidate_id
    left join turns as candidate_turns
        on candidates.turn_id = candidate_turns.turn_id
),

cited_items as (
    {%- for source, relation in sources.items() %}
    select
        evidence.candidate_set,
        evidence.candidate_id,
        evidence.item_number
    from evidence
    inner join {{ relation }} as cited
        on
            evidence.source = '{{ source }}'
            {%- if source == 'chat_turn' %}
            and cited.session_id = evidence.candidate_session_id
            {%- elif source == 'character_card' %}
            and cited.character_id = evidence.candidate_character_id
            {%- endif %}
            and case evidence.field
                {%- for column in columns_by_source[source] %}
                when '{{ column.name }}' then {{ spark_cited_value_matches(
                    'cited.' ~ column.name, column.dtype
                ) }}
                {%- endfor %}
                else false
            end
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
),

item_checks as (
    select
        evidence.candidate_set,
        evidence.candidate_id,
        evidence.has_required_keys,
        source_columns.field is not null as is_real_field,
        verbatim.item_number is not null as is_verbatim
    from evidence
    left join source_columns
        on evidence.source = source_columns.source and evidence.field = source_columns.field
    left join (select distinct candidate_set, candidate_id, item_number from cited_items) as verbatim
        on
            evidence.candidate_set = verbatim.candidate_set
            and evidence.candidate_id = verbatim.candidate_id
            and evidence.item_number = verbatim.item_number
)
{%- endmacro %}

{#
    Spark's check 9 comparison of evidence.value / evidence.agg with one cited column of Spark
    type `dtype`: a list by element or, with agg = 'count', by length; a list of
    {role, entity} structs by a role or an entity; anything else by its text. A null value
    matches only a null column.
#}
{% macro spark_cited_value_matches(column, dtype) -%}
    {%- set dtype = dtype | lower -%}
    {%- if dtype.startswith('array<') -%}
        case
            when evidence.agg = 'count'
                then evidence.value = cast({{ list_length(column) }} as string)
            when evidence.value is null then {{ column }} is null
            {%- if dtype.startswith('array<struct<') %}
            else
                {{ list_has(column ~ '.role', 'evidence.value') }}
                or {{ list_has(column ~ '.entity', 'evidence.value') }}
            {%- else %}
            else {{ list_has(column, 'evidence.value') }}
            {%- endif %}
        end
    {%- else -%}
        (evidence.agg is null and evidence.value <=> cast({{ column }} as string))
    {%- endif -%}
{%- endmacro %}
