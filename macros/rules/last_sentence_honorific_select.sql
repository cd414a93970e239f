{#
    Check 10 on summaries (docs/rules.md#summary-and-hedge), as the CTE body of
    int_llm_summary_candidates_validated's `honorific`: per candidate of `candidates` (with
    candidate_set, candidate_id, summary), ends_honorific: whether the summary is one line whose
    last sentence ends honorifically by the tone rule's steps 1–3, false for a null or empty
    summary. `ending_rule` is the relation of int_tone_ending_rule, which the caller refs.
    DuckDB calls the Python UDF the tone check also uses; Spark, which runs no Python, runs the
    SQL tone rule on the last sentence (element_at -1: the last piece, null for none), with the
    ending lists joined in (Spark takes no subquery inside a lambda).
#}
{% macro last_sentence_honorific_select(candidates, ending_rule) -%}
    {{- adapter.dispatch('last_sentence_honorific_select', 'card_keeper')(candidates, ending_rule) -}}
{%- endmacro %}

{% macro duckdb__last_sentence_honorific_select(candidates, ending_rule) -%}
    select
        candidate_set,
        candidate_id,
        ck_last_sentence_is_honorific(
            summary, {{ tone_rule_arguments(ending_rule) }}
        )
        and not contains(summary, chr(10)) as ends_honorific
    from {{ candidates }}
{%- endmacro %}

{% macro spark__last_sentence_honorific_select(candidates, ending_rule) -%}
    {%- set eojeol = last_hangul_eojeol(
        'element_at(' ~ sentence_pieces(candidates ~ '.summary') ~ ', -1)'
    ) -%}
    select
        {{ candidates }}.candidate_set,
        {{ candidates }}.candidate_id,
        coalesce(
            {{ eojeol }} is not null
            and {{ ending_is_honorific(eojeol, 'ending_rule.endings', 'ending_rule.flags') }},
            false
        )
        and not contains({{ candidates }}.summary, chr(10)) as ends_honorific
    from {{ candidates }}
    cross join {{ ending_rule }} as ending_rule
{%- endmacro %}
