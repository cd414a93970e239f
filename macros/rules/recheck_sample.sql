{#
    A predicate keeping a deterministic sample of about `max_turns` turns (a SQL expression),
    for checks whose independent re-derivation costs more than the model it checks: the
    Python UDF re-derivations (tone, summaries) and the join of turns with every lexicon term.
    With fewer turns than that, every turn is kept, so small builds are checked exhaustively.
    `turns` is the relation of stg_chat_logs__turns, which the caller refs: its count sets the
    sampling modulus.
#}
{% macro recheck_sample(turn_id_expression, turns, max_turns=none) -%}
    {{ deterministic_sample(
        turn_id_expression,
        max_turns if max_turns is not none else number_var('recheck_max_turns', integer=true),
        turns
    ) }}
{%- endmacro %}

{#
    Keep about `max_turns` of the clean turns (`turns`, the relation of stg_chat_logs__turns
    the caller refs), chosen by a hash of `key_expression` (the turn id, possibly salted), the
    same ones on every build. The modulus is an integer: a hash taken modulo a double loses
    precision and keeps the wrong share.
#}
{% macro deterministic_sample(key_expression, max_turns, turns) -%}
    {{- adapter.dispatch('deterministic_sample', 'card_keeper')(key_expression, max_turns, turns) -}}
{%- endmacro %}

{% macro duckdb__deterministic_sample(key_expression, max_turns, turns) -%}
    hash({{ key_expression }}) % cast(
        greatest(
            1,
            ceil(
                (select count(*) from {{ turns }})
                / greatest(1, {{ max_turns }})
            )
        ) as ubigint
    ) = 0
{%- endmacro %}

{#
    Spark has no unsigned integers and no DuckDB hash(): xxhash64 (signed) taken with pmod. It
    keeps the same share of turns but not the same turns as DuckDB once there are more turns
    than `max_turns` (below that both keep every turn).
#}
{% macro spark__deterministic_sample(key_expression, max_turns, turns) -%}
    pmod(xxhash64({{ key_expression }}), cast(
        greatest(
            1,
            ceil(
                (select count(*) from {{ turns }})
                / greatest(1, {{ max_turns }})
            )
        ) as bigint
    )) = 0
{%- endmacro %}

{#
    The sample size for a re-derivation that joins turns with every lexicon term: as many
    turns as keep turns × terms within var('recheck_max_comparisons'). `topic_terms` is the
    relation of stg_chat_logs__topic_terms, which the caller refs.
#}
{% macro lexicon_recheck_turns(topic_terms) -%}
    (
        {{ number_var('recheck_max_comparisons', integer=true) }}
        / greatest(1, (select count(*) from {{ topic_terms }}))
    )
{%- endmacro %}

{#
    The verdict rows a seed-000 check reads (docs/rules.md#incremental-builds): every turn of
    the last build's batch (`batch`: the relation of int_turns_to_judge, which the caller refs),
    plus a deterministic sample of the older rows (the share var('recheck_older_share') of
    them, chosen by a hash of the turn id, the same ones every time). A full build judged every
    turn, so it checks every row; an incremental build checks what it judged, and an
    on-run-end line (log_check_coverage) says how many rows of each. The batch's rows of a
    turn-store table are the ones its build wrote: matched by their judged_by
    (`judged_by_expression`), one value, not by looking every stored turn_id up in the batch.
#}
{% macro checked_turn(turn_id_expression, batch, judged_by_expression='judged_by') -%}
    (
        {{ judged_by_expression }} in (select distinct batch.judged_by from {{ batch }} as batch)
        or {{ older_turn_sample(turn_id_expression) }}
    )
{%- endmacro %}

{% macro older_turn_sample(turn_id_expression) -%}
    {{- adapter.dispatch('older_turn_sample', 'card_keeper')(turn_id_expression) -}}
{%- endmacro %}

{% macro duckdb__older_turn_sample(turn_id_expression) -%}
    hash({{ turn_id_expression }}) % 10000 < {{ (number_var('recheck_older_share', maximum=1) | float * 10000) | round | int }}
{%- endmacro %}

{% macro spark__older_turn_sample(turn_id_expression) -%}
    pmod(xxhash64({{ turn_id_expression }}), 10000) < {{ (number_var('recheck_older_share', maximum=1) | float * 10000) | round | int }}
{%- endmacro %}
