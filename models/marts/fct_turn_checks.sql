-- One row per turn and check, with its status and reason code
-- (docs/rules.md#checks-and-reason-codes). The check names are the ones the screen, the golden
-- runner's "deciding check" and analysts' queries share.
{{ config(
    contract={'enforced': true},
) }}

{%- set checks = [
    ('forbidden_topic', 1, 'cast(null as varchar)', 'cast(null as varchar)'),
    ('off_canon', 2, 'off_canon_reason', 'cast(null as varchar)'),
    ('tone', 3, 'tone_reason', 'tone_note'),
    ('first_person', 4, 'first_person_reason', 'cast(null as varchar)'),
    ('recall', 5, 'recall_reason', 'cast(null as varchar)'),
] %}

with judged as (
    select * from {{ ref('int_turns_judged') }}
),

-- One scan of judged: each turn's five checks as a list, unnested.
checks as (
    select
        turn_id,
        unnest([
            {%- for check_name, check_order, reason, note in checks %}
                {
                    'check_name': '{{ check_name }}',
                    'check_order': {{ check_order }},
                    'status': {{ check_name }}_status,
                    'reason_code': {{ reason }},
                    'note_code': {{ note }},
                    'is_deciding': coalesce(deciding_check = '{{ check_name }}', false)
                }{{ ',' if not loop.last }}
            {%- endfor %}
        ]) as check_entry
    from judged
),

final as (
    select
        cast(turn_id as varchar) as turn_id,
        cast(struct_extract(check_entry, 'check_name') as varchar) as check_name,
        cast(struct_extract(check_entry, 'check_order') as integer) as check_order,
        cast(struct_extract(check_entry, 'status') as varchar) as status,
        cast(struct_extract(check_entry, 'reason_code') as varchar) as reason_code,
        cast(struct_extract(check_entry, 'note_code') as varchar) as note_code,
        cast(struct_extract(check_entry, 'is_deciding') as boolean) as is_deciding
    from checks
)

select * from final
