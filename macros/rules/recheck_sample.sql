{#
    A predicate keeping a deterministic sample of about var('recheck_max_turns') turns, for
    the checks whose independent re-derivation is a full scan (the lexicon check joins every
    sampled turn with every term). Below that many turns every turn is kept.
#}
{% macro recheck_sample(turn_id_expression) -%}
    hash({{ turn_id_expression }}) % greatest(
        1,
        ceil(
            (select count(*) from {{ ref('stg_chat_logs__turns') }})
            / {{ var('recheck_max_turns') }}
        )
    ) = 0
{%- endmacro %}
