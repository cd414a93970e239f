-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
{{ config(materialized='table') }}

with source as (
    select * from {{ source('chat_logs', 'chat_turn') }}
),

character_cards as (
    select character_id from {{ ref('stg_chat_logs__character_cards') }}
),

parsed as (
    {{ parse_input('chat_turn', 'source') }}
),

checked as (
    select
        parsed.*,
        parsed.turn_id is not null
        and row_number() over (
            partition by parsed.turn_id order by parsed._source_file, parsed._source_row
        ) > 1 as is_duplicate_key,
        -- A turn whose card was quarantined is quarantined too: it cannot be judged.
        parsed.character_id is not null
        and character_cards.character_id is null as is_unknown_character
    from parsed
    left join character_cards
        on parsed.character_id = character_cards.character_id
)

select
    * exclude (_column_violations, is_duplicate_key, is_unknown_character),
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
                'condition': 'is_unknown_character',
                'column': 'character_id',
                'reason': "'unknown_character_id'",
                'raw': 'raw_character_id',
            },
        ]) }}
    ) as _violations
from checked
