-- Manual check 3: where the four-ending rule and the morphological analyser disagree,
-- grouped by the ending they suggest for the honorific_endings seed, most frequent first.
with compared as (
    select * from {{ ref('fct_review_sentence_endings') }}
    where candidate_ending is not null
),

honorific_endings as (
    select ending from {{ ref('honorific_endings') }}
),

grouped as (
    select
        compared.candidate_ending,
        compared.candidate_is_honorific,
        count(*) as sentences,
        count(distinct compared.turn_id) as turns,
        min(compared.turn_id) as example_turn_id,
        arg_min(compared.sentence, compared.turn_id) as example_sentence,
        mode(compared.ef_form) as analyser_ending,
        honorific_endings.ending is not null as is_already_listed
    from compared
    left join honorific_endings
        on compared.candidate_ending = honorific_endings.ending
    group by compared.candidate_ending, compared.candidate_is_honorific, honorific_endings.ending
),

ranked as (
    select
        *,
        row_number() over (
            order by sentences desc, candidate_ending asc
        ) as candidate_rank
    from grouped
)

select * from ranked
