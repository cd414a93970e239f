-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
{{ config(materialized='table') }}

with source as (
    select * from {{ source('chat_logs', 'topic_lexicon') }}
),

parsed as (
    {{ parse_input('topic_lexicon', 'source') }}
),

checked as (
    select
        *,
        term_order is not null
        and row_number() over (
            partition by term_order order by _source_file, _source_row
        ) > 1 as is_duplicate_key
    from parsed
)

select
    * exclude (_column_violations, is_duplicate_key),
    list_concat(
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
