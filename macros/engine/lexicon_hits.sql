{#
    The CTEs of int_turns_matched_to_lexicon that find the lexicon hits (docs/rules.md#lexicon),
    ending in `hits (turn_id, character_id, term_order)`: one row per turn and lexicon row whose
    non-empty term occurs in the reply as a substring, each once. `turns` and `topic_terms` are
    the model's CTEs. Either way the cost grows with the text, not with turns × terms.
#}
{% macro lexicon_hits_ctes(turns, topic_terms) -%}
    {{- adapter.dispatch('lexicon_hits_ctes', 'card_keeper')(turns, topic_terms) -}}
{%- endmacro %}

{#
    DuckDB: each reply is scanned once by an Aho-Corasick automaton (ck_lexicon_match, one pass
    over a batch of replies), compiled once per lexicon; its handle is what every row passes on.
#}
{% macro duckdb__lexicon_hits_ctes(turns, topic_terms) -%}
lexicon as (
    select
        ck_lexicon_prepare(
            list(term order by term_order), list(term_order order by term_order)
        ) as lexicon_handle
    from {{ topic_terms }}
),

hits as (
    select
        {{ turns }}.turn_id,
        {{ turns }}.character_id,
        unnest(ck_lexicon_match({{ turns }}.reply_text, lexicon.lexicon_handle)) as term_order
    from {{ turns }}
    cross join lexicon
)
{%- endmacro %}

{#
    Spark, in plain SQL: a term of n characters can only be one of the reply's substrings of n
    characters, and a lexicon has only a handful of distinct term lengths. So each reply is cut
    into its substrings of those lengths (one per start position and length), which are joined
    on equality with the terms: an equi-join (hashed), never a comparison of every turn with
    every term.
#}
{% macro spark__lexicon_hits_ctes(turns, topic_terms) -%}
term_lengths as (
    select distinct length(term) as term_length
    from {{ topic_terms }}
    where length(term) > 0
),

reply_pieces as (
    select
        turn_id,
        character_id,
        explode(
            transform(
                sequence(1, length(reply_text) - term_length + 1),
                start_position -> substring(reply_text, start_position, term_length)
            )
        ) as piece
    from (
        select
            {{ turns }}.turn_id,
            {{ turns }}.character_id,
            {{ turns }}.reply_text,
            term_lengths.term_length
        from {{ turns }}
        inner join term_lengths
            on length({{ turns }}.reply_text) >= term_lengths.term_length
    ) as reply_lengths
),

hits as (
    select distinct
        reply_pieces.turn_id,
        reply_pieces.character_id,
        {{ topic_terms }}.term_order
    from reply_pieces
    inner join {{ topic_terms }}
        on reply_pieces.piece = {{ topic_terms }}.term
)
{%- endmacro %}
