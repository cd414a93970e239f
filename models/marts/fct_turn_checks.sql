-- SPEC §3: one row per turn and check, with its status and reason code. The check names are
-- the ones the screen, the golden runner's "deciding check" and analysts' queries share.
{{ config(
    contract={'enforced': true},
) }}

with judged as (
    select * from {{ ref('int_turns_judged') }}
),

checks as (
    {% set checks = [
        ('forbidden_topic', 1, "cast(null as varchar)", "cast(null as varchar)"),
        ('off_canon', 2, 'off_canon_reason', "cast(null as varchar)"),
        ('tone', 3, 'tone_reason', 'tone_note'),
        ('first_person', 4, 'first_person_reason', "cast(null as varchar)"),
        ('recall', 5, 'recall_reason', "cast(null as varchar)"),
    ] %}
    {% for check_name, check_order, reason, note in checks %}
        select
            turn_id,
            '{{ check_name }}' as check_name,
            {{ check_order }} as check_order,
            {{ check_name }}_status as status,
            {{ reason }} as reason_code,
            {{ note }} as note_code,
            deciding_check = '{{ check_name }}' as is_deciding
        from judged
        {% if not loop.last %}union all{% endif %}
    {% endfor %}
),

final as (
    select
        cast(turn_id as varchar) as turn_id,
        cast(check_name as varchar) as check_name,
        cast(check_order as integer) as check_order,
        cast(status as varchar) as status,
        cast(reason_code as varchar) as reason_code,
        cast(note_code as varchar) as note_code,
        coalesce(is_deciding, false) as is_deciding
    from checks
)

select * from final
