-- One row: the honorific_endings seed as the tone rule reads it (docs/rules.md#tone, step 3),
-- two parallel lists sorted longest ending first, so that the first ending an eojeol ends with
-- is the longest: an exception like 아니다 → false then overrides the shorter 니다 → true.
-- int_turns_toned and the review of sentence endings judge with it (macro ending_is_honorific),
-- and the checks that re-derive tone pass it to the Python UDFs (macro tone_rule_arguments).
with honorific_endings as (
    select
        ending,
        is_honorific
    from {{ ref('honorific_endings') }}
),

ending_rule as (
    select
        coalesce(
            {{ ordered_list('ending', [('length(ending)', 'desc'), ('ending', 'asc')]) }},
            {{ list_of([]) }}
        ) as endings,
        coalesce(
            {{ ordered_list('is_honorific', [('length(ending)', 'desc'), ('ending', 'asc')]) }},
            {{ list_of([]) }}
        ) as flags
    from honorific_endings
)

select * from ending_rule
