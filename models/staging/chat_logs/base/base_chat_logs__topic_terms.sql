-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
{{ config(materialized='table') }}
{#- The columns of `checked` (for star_except: Spark has no `* exclude`). -#}
{%- set checked_columns = parsed_input_columns(
    'topic_lexicon'
) + ['is_duplicate_key'] -%}

with source as (
    select * from {{ source('chat_logs', 'topic_lexicon') }}
),

parsed as {{ cte_materialized_hint() }} (
    {{ parse_input('topic_lexicon', 'source') }}
),

duplicates as (
    {{ first_occurrences('parsed', 'term_order') }}
),

checked as (
    select
        parsed.*,
        {{ is_later_occurrence('parsed', 'duplicates', 'term_order') }} as is_duplicate_key
    from parsed
)

select
    {{ star_except(checked_columns, ['_column_violations', 'is_duplicate_key']) }},
    {{ list_concat_function() }}(
        _column_violations,
        {{ collect_violations([
            {
                'condition': 'is_duplicate_key',
                'column': 'term_order',
                'reason': "'duplicate_term_order'",
                'raw': 'raw_term_order',
            },
        ]) }}
    ) as _violations
from checked
