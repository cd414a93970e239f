-- One row per turn and check, with its status and reason code
-- (docs/rules.md#checks-and-reason-codes). The check names are the ones the screen, the golden
-- runner's "deciding check" and analysts' queries share. Part of the turn store
-- (docs/rules.md#incremental-builds): a build adds or rewrites the rows of the turns it judges.
{{ config(
    contract={'enforced': contract_enforced()},
    materialized=turn_store_materialization(),
    incremental_strategy=turn_store_strategy('append'),
    partition_by=turn_store_partition_by(),
    on_schema_change='fail',
    pre_hook="{{ delete_judged_turns(ref('int_turns_to_judge')) }}",
    post_hook="{{ drop_stale_partitions(ref('int_turns_to_judge')) }}",
) }}

{%- set no_code = 'cast(null as ' ~ text_type() ~ ')' %}
{%- set checks = [
    ('forbidden_topic', 1, no_code, no_code),
    ('off_canon', 2, 'off_canon_reason', no_code),
    ('tone', 3, 'tone_reason', 'tone_note'),
    ('first_person', 4, 'first_person_reason', no_code),
    ('recall', 5, 'recall_reason', no_code),
] %}
{%- set entries = [] %}
{%- for check_name, check_order, reason, note in checks %}
    {%- do entries.append(struct_of([
        ('check_name', "'" ~ check_name ~ "'"),
        ('check_order', check_order),
        ('status', check_name ~ '_status'),
        ('reason_code', reason),
        ('note_code', note),
        ('is_deciding', "coalesce(deciding_check = '" ~ check_name ~ "', false)"),
    ])) %}
{%- endfor %}

-- The batch's rows are the ones its build wrote: picked by judged_by, not by turn_id, so the
-- read does not grow with the store (a removed turn has no judged row).
with batch_builds as (
    select distinct judged_by from {{ ref('int_turns_to_judge') }}
),

judged as (
    select * from {{ ref('int_turns_judged') }}
    where judged_by in (select batch_builds.judged_by from batch_builds)
),

-- One scan of judged: each turn's five checks as a list, unnested.
checks as (
    select
        turn_id,
        {{ unnest_list(list_of(entries), 'check_entry') }}
    from judged
),

final as (
    select
        cast(turn_id as {{ text_type() }}) as turn_id,
        cast({{ struct_field('check_entry', 'check_name') }} as {{ text_type() }}) as check_name,
        cast({{ struct_field('check_entry', 'check_order') }} as integer) as check_order,
        cast({{ struct_field('check_entry', 'status') }} as {{ text_type() }}) as status,
        cast({{ struct_field('check_entry', 'reason_code') }} as {{ text_type() }}) as reason_code,
        cast({{ struct_field('check_entry', 'note_code') }} as {{ text_type() }}) as note_code,
        cast({{ struct_field('check_entry', 'is_deciding') }} as boolean) as is_deciding,
        cast({{ this_build() }} as {{ text_type() }}) as judged_by
    from checks
)

select * from final
{{ kept_turn_store_rows(ref('int_turns_to_judge')) }}
