-- One row per contract violation of an input row: bad input never disappears
-- (docs/rules.md#bad-input). Incremental on DuckDB (docs/rules.md#incremental-builds): a chat_turn
-- row's own violations are decided when it is ingested and stay; every other row, including
-- unknown_character_id (which depends on today's cards), is deleted and recomputed each build.
-- On Spark a table, recomputed from the stored rows (base_chat_logs__turns keeps each row's
-- own violations from its ingest): its rows have no partition a build could rewrite alone.
{{ config(
    contract={'enforced': contract_enforced()},
    materialized=turn_store_materialization(spark='table'),
    incremental_strategy='append',
    on_schema_change='fail',
    pre_hook="{% if is_incremental() %}delete from {{ this }} where table_name <> 'chat_turn'"
        ~ " or reason_code = 'unknown_character_id'{% else %}select 1{% endif %}",
) }}

with character_cards as (
    select * from {{ ref('base_chat_logs__character_cards') }}
),

topic_terms as (
    select * from {{ ref('base_chat_logs__topic_terms') }}
),

turns as (
    select * from {{ ref('base_chat_logs__turns') }}
),

clean_cards as (
    select character_id from {{ ref('stg_chat_logs__character_cards') }}
),

-- Whether a turn's card is missing or quarantined: the turn cannot be judged.
carded_turns as (
    select
        *,
        character_id is not null
        and not {{ has_clean_card('character_id', 'clean_cards') }} as is_unknown_character
    from turns
),

-- Every turn with its own violations plus unknown_character_id, quoting the character_id as
-- read; the raw key is the turn_id as read.
checked_turns as (
    select
        _source_file,
        _source_row,
        coalesce(raw_turn_id, turn_id) as row_key,
        {{ list_concat_function() }}(
            {% if is_incremental() -%}
                -- A row whose own violations are stored keeps them (after the pre-hook, the
                -- table holds only those): a row of a build that stopped before this model
                -- still gets its own.
                case
                    when (_source_file, _source_row) in (
                        select (quarantined.source_file, quarantined.source_row)
                        from {{ this }} as quarantined
                    ) then _violations[1:0]
                    else _violations
                end,
            {%- else -%}
                _violations,
            {%- endif %}
            {{ collect_violations([
                {
                    'condition': 'is_unknown_character',
                    'column': 'character_id',
                    'reason': "'unknown_character_id'",
                    'raw': 'coalesce(raw_character_id, character_id)',
                },
            ]) }}
        ) as _violations
    from carded_turns
),

golden_labels as (
    select * from {{ ref('base_chat_logs__golden_labels') }}
),

llm_summaries as (
    select * from {{ ref('base_chat_logs__llm_summaries') }}
),

turn_marks as (
    select * from {{ ref('base_chat_logs__turn_marks') }}
),

clean_turns as (
    select turn_id from {{ ref('stg_chat_logs__turns') }}
),

-- A reviewer's mark whose turn is not a clean turn of this build is no label
-- (docs/rules.md#reviewer-decisions): unknown_turn_id, quoting the turn_id as read.
checked_turn_marks as (
    select
        _source_file,
        _source_row,
        raw_turn_id,
        {{ list_concat_function() }}(
            _violations,
            {{ collect_violations([
                {
                    'condition': 'is_unknown_turn',
                    'column': 'turn_id',
                    'reason': "'unknown_turn_id'",
                    'raw': 'raw_turn_id',
                },
            ]) }}
        ) as _violations
    from (
        -- A join, not an IN test: Spark takes IN subqueries only in a filter.
        select
            turn_marks.*,
            {{ has_no_violations('turn_marks._violations') }}
            and clean_turns.turn_id is null as is_unknown_turn
        from turn_marks
        left join clean_turns
            on turn_marks.turn_id = clean_turns.turn_id
    ) as marks
),

canon_decisions as (
    select * from {{ ref('base_chat_logs__canon_decisions') }}
),

reason_codes as (
    select * from {{ ref('contract_reason_codes') }}
),

-- violation_fields() expands each violation struct into its three fields, hence no alias.
violating_rows as (
    select
        'character_card' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        raw_character_id as row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from character_cards
    where {{ list_size_function() }}(_violations) > 0

    union all

    select
        'topic_lexicon' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        raw_term_order as row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from topic_terms
    where {{ list_size_function() }}(_violations) > 0

    union all

    select
        'chat_turn' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from checked_turns
    where {{ list_size_function() }}(_violations) > 0

    union all

    select
        'golden_labels' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        raw_turn_id as row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from golden_labels
    where {{ list_size_function() }}(_violations) > 0

    union all

    select
        'llm_summaries' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        raw_turn_id as row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from llm_summaries
    where {{ list_size_function() }}(_violations) > 0

    union all

    select
        'turn_marks' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        raw_turn_id as row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from checked_turn_marks
    where {{ list_size_function() }}(_violations) > 0

    union all

    select
        'canon_decisions' as table_name,
        _source_file as source_file,
        _source_row as source_row,
        raw_character_id as row_key,
        {{ violation_fields('_violations') }}  -- noqa: AL03
    from canon_decisions
    where {{ list_size_function() }}(_violations) > 0
),

described as (
    select
        violating_rows.table_name,
        violating_rows.source_file,
        violating_rows.source_row,
        violating_rows.row_key,
        violating_rows.column_name,
        violating_rows.raw_value,
        violating_rows.reason_code,
        reason_codes.description as reason
    from violating_rows
    left join reason_codes
        on violating_rows.reason_code = reason_codes.reason_code
)

select * from described
