-- Assert that every clean turn has exactly one verdict row and no verdict row lacks a turn
-- (docs/rules.md#verdict-order: including turns where a check was skipped).
-- A turn's verdict is written, rewritten or removed only by the build whose batch holds it
-- (int_turn_judging_state's rows of that build: new, judged again or removed), so a `dbt
-- build` compares the turns of its batch, and none when it judged nothing; a full build, or
-- `dbt test` on its own, compares every turn (the scopes of unique_combination).
{%- set scope = unique_combination_scope(ref('int_turn_judging_state'), 'judged_by') %}
{%- set batch_filter = 'judged_by = ' ~ this_build() if scope == 'written' else '1 = 0' %}

with turns as (
    select turn_id from {{ ref('stg_chat_logs__turns') }}
    {%- if scope != 'all' %}
        where turn_id in (
            select batch.turn_id from {{ ref('int_turn_judging_state') }} as batch
            where {{ batch_filter }}
        )
    {%- endif %}
),

verdicts as (
    select turn_id from {{ ref('fct_turn_verdicts') }}
    {%- if scope != 'all' %}
        where turn_id in (
            select batch.turn_id from {{ ref('int_turn_judging_state') }} as batch
            where {{ batch_filter }}
        )
    {%- endif %}
)

select
    coalesce(turns.turn_id, verdicts.turn_id) as turn_id,
    turns.turn_id is null as is_verdict_without_turn
from turns
full outer join verdicts
    on turns.turn_id = verdicts.turn_id
where turns.turn_id is null or verdicts.turn_id is null
