-- A table, not a view: the reviewers' file is parsed once, then read by staging and the
-- quarantine (docs/rules.md#reviewer-decisions). Every row is kept, later marks of a turn too:
-- which one wins is decided among the clean rows (int_turn_marks).
{{ config(materialized='table') }}
{#- The columns of `checked` (for star_except: Spark has no `* exclude`). -#}
{%- set raw_kept = ['mark', 'expected_verdict', 'verdict_at_mark'] -%}
{%- set checked_columns = parsed_input_columns('turn_marks', raw_kept=raw_kept) + [
    'is_unknown_mark', 'is_unknown_expected_verdict', 'is_unknown_verdict_at_mark'
] -%}

with source as (
    select * from {{ source('chat_logs', 'turn_marks') }}
),

verdict_words as (
    select verdict from {{ ref('verdict_words') }}
),

parsed as {{ cte_materialized_hint() }} (
    {{ parse_input('turn_marks', 'source', raw_kept=raw_kept) }}
),

checked as (
    select
        parsed.*,
        parsed.mark is not null
        and parsed.mark not in ('rule_right', 'rule_wrong') as is_unknown_mark,
        parsed.expected_verdict is not null
        and expected_words.verdict is null as is_unknown_expected_verdict,
        parsed.verdict_at_mark is not null
        and shown_words.verdict is null as is_unknown_verdict_at_mark
    from parsed
    left join verdict_words as expected_words
        on parsed.expected_verdict = expected_words.verdict
    left join verdict_words as shown_words
        on parsed.verdict_at_mark = shown_words.verdict
)

select
    {{ star_except(checked_columns, [
        '_column_violations',
        'is_unknown_mark',
        'is_unknown_expected_verdict',
        'is_unknown_verdict_at_mark',
    ]) }},
    {{ list_concat_function() }}(
        _column_violations,
        {{ collect_violations([
            {
                'condition': 'is_unknown_mark',
                'column': 'mark',
                'reason': "'unknown_mark'",
                'raw': 'raw_mark',
            },
            {
                'condition': 'is_unknown_expected_verdict',
                'column': 'expected_verdict',
                'reason': "'unknown_verdict'",
                'raw': 'raw_expected_verdict',
            },
            {
                'condition': 'is_unknown_verdict_at_mark',
                'column': 'verdict_at_mark',
                'reason': "'unknown_verdict'",
                'raw': 'raw_verdict_at_mark',
            },
        ]) }}
    ) as _violations
from checked
