-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
{{ config(materialized='table') }}
{#- The columns of `checked` (for star_except: Spark has no `* exclude`). -#}
{%- set checked_columns = parsed_input_columns(
    'golden_labels', raw_kept=['expected_verdict']
) + ['is_duplicate_key', 'is_unknown_verdict'] -%}

with source as (
    select * from {{ source('chat_logs', 'golden_labels') }}
),

verdict_words as (
    select verdict from {{ ref('verdict_words') }}
),

parsed as {{ cte_materialized_hint() }} (
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
    {{ star_except(
        checked_columns, ['_column_violations', 'is_duplicate_key', 'is_unknown_verdict']
    ) }},
    {{ list_concat_function() }}(
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
