-- A table, not a view: the reviewers' file is parsed once, then read by staging and the
-- quarantine (docs/rules.md#reviewer-decisions). Every row is kept, later decisions on a name
-- too: which one wins is decided among the clean rows (int_canon_decisions).
{{ config(materialized='table') }}
{#- The columns of `checked` (for star_except: Spark has no `* exclude`). -#}
{%- set raw_kept = ['decision'] -%}
{%- set checked_columns = parsed_input_columns('canon_decisions', raw_kept=raw_kept) + [
    'is_unknown_decision'
] -%}

with source as (
    select * from {{ source('chat_logs', 'canon_decisions') }}
),

parsed as {{ cte_materialized_hint() }} (
    {{ parse_input('canon_decisions', 'source', raw_kept=raw_kept) }}
),

checked as (
    select
        *,
        decision is not null and decision not in ('add', 'block') as is_unknown_decision
    from parsed
)

select
    {{ star_except(checked_columns, ['_column_violations', 'is_unknown_decision']) }},
    {{ list_concat_function() }}(
        _column_violations,
        {{ collect_violations([
            {
                'condition': 'is_unknown_decision',
                'column': 'decision',
                'reason': "'unknown_decision'",
                'raw': 'raw_decision',
            },
        ]) }}
    ) as _violations
from checked
