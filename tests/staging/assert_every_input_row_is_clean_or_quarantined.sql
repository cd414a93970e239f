-- Assert that no input row disappears: for each input table, the rows read from the files
-- equal the clean staging rows plus the distinct quarantined rows (docs/rules.md#bad-input). The
-- base models hold every row of their source view one to one (no filter), so they are counted
-- instead of reading the files a second time.
with counts as (
    select
        'chat_turn' as table_name,
        (select count(*) from {{ ref('base_chat_logs__turns') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__turns') }}) as clean_rows
    union all
    select
        'character_card' as table_name,
        (select count(*) from {{ ref('base_chat_logs__character_cards') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__character_cards') }}) as clean_rows
    union all
    select
        'topic_lexicon' as table_name,
        (select count(*) from {{ ref('base_chat_logs__topic_terms') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__topic_terms') }}) as clean_rows
    union all
    select
        'golden_labels' as table_name,
        (select count(*) from {{ ref('base_chat_logs__golden_labels') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__golden_labels') }}) as clean_rows
    union all
    select
        'llm_summaries' as table_name,
        (select count(*) from {{ ref('base_chat_logs__llm_summaries') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__llm_summaries') }}) as clean_rows
    union all
    select
        'turn_marks' as table_name,
        (select count(*) from {{ ref('base_chat_logs__turn_marks') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__turn_marks') }}) as clean_rows
    union all
    select
        'canon_decisions' as table_name,
        (select count(*) from {{ ref('base_chat_logs__canon_decisions') }}) as input_rows,
        (select count(*) from {{ ref('stg_chat_logs__canon_decisions') }}) as clean_rows
),

quarantined as (
    select
        table_name,
        count(distinct source_file || '#' || source_row) as quarantined_rows
    from {{ ref('fct_contract_violations') }}
    group by table_name
)

select
    counts.table_name,
    counts.input_rows,
    counts.clean_rows,
    coalesce(quarantined.quarantined_rows, 0) as quarantined_rows
from counts
left join quarantined
    on counts.table_name = quarantined.table_name
where counts.input_rows <> counts.clean_rows + coalesce(quarantined.quarantined_rows, 0)
