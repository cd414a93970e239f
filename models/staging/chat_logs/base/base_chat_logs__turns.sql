-- A table, not a view: the input file is parsed once, then read by staging and the quarantine.
-- The pre-hook starts loading Kiwi (for fct_review_sentence_endings) in the background: it
-- holds Python's lock for a moment, which costs nothing while this long parse runs in DuckDB.
{{ config(
    materialized='table',
    pre_hook="select ck_warm_up_analyser()",
) }}

with source as (
    select * from {{ source('chat_logs', 'chat_turn') }}
),

character_cards as (
    select character_id from {{ ref('stg_chat_logs__character_cards') }}
),

parsed as materialized (
    {{ parse_input('chat_turn', 'source', raw_kept=['character_id']) }}
),

duplicates as (
    {{ first_occurrences('parsed', 'turn_id') }}
),

checked as (
    select
        parsed.*,
        {{ is_later_occurrence('parsed', 'duplicates', 'turn_id') }} as is_duplicate_key,
        -- A turn whose card was quarantined is quarantined too: it cannot be judged. Tests
        -- rather than joins, so the hash tables are built on the cards and the duplicates,
        -- never on the turns.
        parsed.character_id is not null
        and not exists (
            select 1
            from character_cards
            where character_cards.character_id = parsed.character_id
        ) as is_unknown_character
    from parsed
),

violations as (
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
)

-- The raw key matters only to the quarantine, and the raw character_id only to the violation
-- quoted above: a clean row keeps neither, so millions of copies are not stored.
select
    * exclude (raw_turn_id, raw_character_id),
    case when len(_violations) > 0 then raw_turn_id end as raw_turn_id
from violations
