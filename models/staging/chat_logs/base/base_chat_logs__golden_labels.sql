-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
{{ config(materialized='table') }}

with source as (
    select * from {{ source('chat_logs', 'golden_labels') }}
),

verdict_words as (
    select verdict from {{ ref('verdict_words') }}
),

parsed as materialized (
    {{ parse_input('golden_labels', 'source', raw_kept=['expected_verdict']) }}
),

duplicates as (
    {{ first_occurrences('parsed', 'turn_id') }}
),

checked as (
    select
        parsed.*,
        {{ is_later_occurrence('parsed', 'duplicates', 'turn_id') }} as is_duplicate_key,
        parsed.expected_verdict is not null
        and verdict_words.verdict is null as is_unknown_verdict
    from parsed
    left join verdict_words
        on parsed.expected_verdict = verdict_words.verdict
)

select
    * exclude (_column_violations, is_duplicate_key, is_unknown_verdict),
    list_concat(
        _column_violations,
        {{ collect_violations([
            {
                'condition': 'is_duplicate_key',
                'column': 'turn_id',
                'reason': "'duplicate_turn_id'",
                'raw': 'raw_turn_id',
            },
            {
                'condition': 'is_unknown_verdict',
                'column': 'expected_verdict',
                'reason': "'unknown_verdict'",
                'raw': 'raw_expected_verdict',
            },
        ]) }}
    ) as _violations
from checked
