-- The turn store's input rows: every chat_turn row ever ingested, parsed once, then read by
-- staging and the quarantine. Incremental (docs/rules.md#incremental-builds): a build
-- appends the rows of the files it ingests (ingest_ledger.sql) and records those files in the
-- ledger in the same transaction. Whether a turn's card exists (unknown_character_id) is
-- decided by its two readers, against the clean cards (stg_chat_logs__turns keeps,
-- fct_contract_violations quarantines).
{{ config(
    materialized=turn_store_materialization(),
    incremental_strategy='append',
    on_schema_change='fail',
    post_hook="{{ record_ingested_files() }}",
) }}
{#- The columns of `checked` (for star_except: Spark has no `* exclude`). -#}
{%- set checked_columns = parsed_input_columns(
    'chat_turn', raw_kept=['character_id']
) + ['is_duplicate_key'] -%}

with source as (
    select * from {{ source('chat_logs', 'chat_turn') }}
),

parsed as {{ cte_materialized_hint() }} (
    {{ parse_input('chat_turn', 'source', raw_kept=['character_id']) }}
),

duplicates as (
    {{ first_occurrences('parsed', 'turn_id') }}
),
{%- if is_incremental() %}

    -- A turn_id an earlier build ingested: its first occurrence is stored, so every row of
    -- this build with it is a later one. Looked up from the new rows' keys (few) into the
    -- store (many).
    ingested_keys as (
        select distinct ingested.turn_id
        from {{ this }} as ingested
        where ingested.turn_id in (select parsed.turn_id from parsed)
    ),
{%- endif %}

checked as (
    select
        parsed.*,
        (
            {{ is_later_occurrence('parsed', 'duplicates', 'turn_id') }}
            {%- if is_incremental() %}
                or coalesce(
                    parsed.turn_id in (select ingested_keys.turn_id from ingested_keys), false
                )
            {%- endif %}
        ) as is_duplicate_key
    from parsed
),

violations as (
    select
        {{ star_except(checked_columns, ['_column_violations', 'is_duplicate_key']) }},
        {{ list_concat_function() }}(
            _column_violations,
            {{ collect_violations([
                {
                    'condition': 'is_duplicate_key',
                    'column': 'turn_id',
                    'reason': "'duplicate_turn_id'",
                    'raw': 'raw_turn_id',
                },
            ]) }}
        ) as _violations
    from checked
)

-- The raw key and character_id as read, kept only where they differ from the normalised
-- values (the quarantine quotes coalesce(raw, normalised)): millions of identical copies
-- are not stored.
select
    {{ star_except(
        parsed_input_columns('chat_turn', raw_kept=['character_id'])
        | reject('equalto', '_column_violations') | list + ['_violations'],
        ['raw_turn_id', 'raw_character_id']
    ) }},
    case when raw_turn_id <> turn_id then raw_turn_id end as raw_turn_id,
    case when raw_character_id <> character_id then raw_character_id end as raw_character_id,
    -- The build that ingested the row (int_turns_to_judge judges its turns as new).
    cast({{ this_build() }} as {{ text_type() }}) as _ingested_by
from violations
