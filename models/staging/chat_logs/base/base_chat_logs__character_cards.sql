-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
{{ config(materialized='table') }}
{#- The columns of `checked` (for star_except: Spark has no `* exclude`). -#}
{%- set checked_columns = parsed_input_columns(
    'character_card', raw_kept=['honorific_rule']
) + ['is_duplicate_key'] -%}

with source as (
    select * from {{ source('chat_logs', 'character_card') }}
),

parsed as {{ cte_materialized_hint() }} (
    {{ parse_input('character_card', 'source', raw_kept=['honorific_rule']) }}
),

duplicates as (
    {{ first_occurrences('parsed', 'character_id') }}
),

checked as (
    select
        parsed.*,
        -- The first row of a character_id (in file order) is kept; later ones are quarantined.
        {{ is_later_occurrence('parsed', 'duplicates', 'character_id') }} as is_duplicate_key
    from parsed
)

select
    {{ star_except(checked_columns, ['_column_violations', 'is_duplicate_key']) }},
    {{ list_concat_function() }}(
        _column_violations,
        {{ collect_violations([
            {
                'condition': 'is_duplicate_key',
                'column': 'character_id',
                'reason': "'duplicate_character_id'",
                'raw': 'raw_character_id',
            },
            {
                'condition': "honorific_rule not in ('반말', '존댓말')",
                'column': 'honorific_rule',
                'reason': "'unknown_honorific_rule'",
                'raw': 'raw_honorific_rule',
            },
        ]) }}
    ) as _violations
from checked
