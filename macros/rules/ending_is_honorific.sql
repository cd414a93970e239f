{#
    Tone step 3 (docs/rules.md#tone) for one eojeol: the is_honorific of the longest ending it ends
    with, false when none matches (or the eojeol is null). `endings` and `flags` are the columns of
    int_tone_ending_rule: the honorific_endings seed as two parallel lists sorted longest ending
    first, so the first match is the longest. List lambdas and 1-based list positions, hence
    behind this macro.
#}
{% macro ending_is_honorific(eojeol, endings, flags) -%}
    coalesce({{ element_at_position(flags, ending_position(eojeol, endings)) }}, false)
{%- endmacro %}

{#
    The longest ending of `endings` (int_tone_ending_rule's list) that the eojeol ends with, the
    one whose flag ending_is_honorific reads; null when none matches or the eojeol is null.
#}
{% macro matched_ending(eojeol, endings) -%}
    {{ element_at_position(endings, ending_position(eojeol, endings)) }}
{%- endmacro %}

{#
    The position in `endings` (sorted longest first) of the first, so longest, ending the eojeol
    ends with; null when none matches (Spark's array_position gives 0 there, as a bigint that
    element_at does not take).
#}
{% macro ending_position(eojeol, endings) -%}
    {{- adapter.dispatch('ending_position', 'card_keeper')(eojeol, endings) -}}
{%- endmacro %}

{% macro duckdb__ending_position(eojeol, endings) -%}
    list_position(
        list_transform({{ endings }}, lambda ending: {{ ends_with(eojeol, 'ending') }}),
        true
    )
{%- endmacro %}

{% macro spark__ending_position(eojeol, endings) -%}
    cast(nullif(
        array_position(
            transform({{ endings }}, ending -> {{ ends_with(eojeol, 'ending') }}),
            true
        ),
        0
    ) as int)
{%- endmacro %}

{# The element at a 1-based position of a list; null for a null position. #}
{% macro element_at_position(list_expression, position) -%}
    {{- adapter.dispatch('element_at_position', 'card_keeper')(list_expression, position) -}}
{%- endmacro %}

{% macro duckdb__element_at_position(list_expression, position) -%}
    {{ list_expression }}[{{ position }}]
{%- endmacro %}

{% macro spark__element_at_position(list_expression, position) -%}
    element_at({{ list_expression }}, {{ position }})
{%- endmacro %}
