{#
    The staging model that stands for each evidence source table (chat_turn,
    character_card, topic_lexicon: docs/rules.md#evidence). Staging keeps the input contract's
    column names, so a cited field must be one of its columns.
#}
{% macro evidence_source_models() -%}
    {{ return({
        'chat_turn': ref('stg_chat_logs__turns'),
        'character_card': ref('stg_chat_logs__character_cards'),
        'topic_lexicon': ref('stg_chat_logs__topic_terms'),
    }) }}
{%- endmacro %}

{#
    A CTE `source_columns (source, field)` listing each source table's columns as the
    database's catalog (information_schema.columns) has them, for check 8.
#}
{% macro evidence_source_columns() -%}
    source_columns as (
        {%- for source, relation in evidence_source_models().items() %}
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
