{#
    The relation that stands for each evidence source table (chat_turn, character_card,
    topic_lexicon: docs/rules.md#evidence), as a mapping from source to relation. The caller
    passes the staging models with ref() in its own file: stg_chat_logs__turns,
    stg_chat_logs__character_cards and stg_chat_logs__topic_terms. Staging keeps the input
    contract's column names, so a cited field must be one of their columns.
#}
{% macro evidence_source_models(turns, character_cards, topic_terms) -%}
    {{ return({
        'chat_turn': turns,
        'character_card': character_cards,
        'topic_lexicon': topic_terms,
    }) }}
{%- endmacro %}

{#
    A CTE `source_columns (source, field)` listing each source table's columns as the
    database's catalog (information_schema.columns) has them, for check 8. `sources` is the
    mapping evidence_source_models() returns.
#}
{% macro evidence_source_columns(sources) -%}
    {{- return(adapter.dispatch('evidence_source_columns', 'card_keeper')(sources)) -}}
{%- endmacro %}

{% macro duckdb__evidence_source_columns(sources) -%}
    source_columns as (
        {%- for source, relation in sources.items() %}
        select
            '{{ source }}' as source,
            column_name as field
        from information_schema.columns
        where
            table_schema = '{{ relation.schema }}'
            and table_name = '{{ relation.identifier }}'
        {%- if not loop.last %}
        union all
        {%- endif %}
        {%- endfor %}
    )
{%- endmacro %}

{#
    Spark has no information_schema: the same list from the catalog as dbt reads it (describe),
    as literal rows.
#}
{% macro spark__evidence_source_columns(sources) -%}
    source_columns as (
        select * from values
        {%- for source, relation in sources.items() %}
            {%- set outer_loop = loop %}
            {%- for column in (adapter.get_columns_in_relation(relation) if execute else []) %}
            ('{{ source }}', '{{ column.name }}'){{ ',' if not (loop.last and outer_loop.last) }}
            {%- endfor %}
        {%- endfor %}
        {%- if not execute %}
            ('', '')
        {%- endif %}
        as source_columns (source, field)
    )
{%- endmacro %}
