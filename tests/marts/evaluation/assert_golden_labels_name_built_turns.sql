-- Assert that every golden label names a turn of this build (docs/rules.md#evaluation): a label
-- for a turn the build does not hold cannot be scored, and would count as labelled but never
-- agreeing. Each failing row is one such label: its turn_id, the labels file and line, the column,
-- and whether the turn was quarantined or is missing from the chat_turn input. The rows are stored
-- (test_failures.assert_golden_labels_name_built_turns), and the turn_ids are also written to
-- dbt's log, because dbt's failure message gives only a count.
{{ config(store_failures=true) }}

{%- set unknown_labels %}
with labels as (
    select
        turn_id,
        expected_verdict,
        _source_file as source_file,
        _source_row as source_row
    from {{ ref('base_chat_logs__golden_labels') }}
    where {{ sql_len('_violations') }} = 0
),

built_turns as (
    select turn_id from {{ ref('stg_chat_logs__turns') }}
),

quarantined_turns as (
    select distinct turn_id
    from {{ ref('base_chat_logs__turns') }}
    where {{ sql_len('_violations') }} > 0 and turn_id is not null
)

select
    labels.turn_id,
    labels.source_file,
    labels.source_row,
    'turn_id' as column_name,
    labels.expected_verdict,
    case
        when quarantined_turns.turn_id is not null
            then 'the turn was quarantined (see fct_contract_violations)'
        else 'no such turn in the chat_turn input'
    end as problem
from labels
left join built_turns
    on labels.turn_id = built_turns.turn_id
left join quarantined_turns
    on labels.turn_id = quarantined_turns.turn_id
where built_turns.turn_id is null
{%- endset %}

{#- Only while dbt runs the test: its parents are built by then. #}
{%- if execute and load_relation(ref('base_chat_logs__golden_labels')) is not none %}
    {%- set found = run_query(unknown_labels ~ '\norder by source_file, source_row') %}
    {%- if found.rows | length > 0 %}
        {%- set lines = [] %}
        {%- for row in found.rows %}
            {%- do lines.append(
                row['turn_id'] ~ ' (' ~ row['source_file'] ~ ' line ' ~ row['source_row']
                ~ ', column turn_id: ' ~ row['problem'] ~ ')'
            ) %}
        {%- endfor %}
        {%- do log(
            'assert_golden_labels_name_built_turns: ' ~ (lines | length)
            ~ ' golden label(s) name a turn not in this build: ' ~ (lines | join('; ')),
            info=true
        ) %}
    {%- endif %}
{%- endif %}

{{ unknown_labels }}
