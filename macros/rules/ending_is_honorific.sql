{#
    Tone step 3 (docs/rules.md#tone) for one eojeol: the is_honorific of the longest ending it ends
    with, false when none matches (or the eojeol is null). `endings` and `flags` are the columns of
    int_tone_ending_rule: the honorific_endings seed as two parallel lists sorted longest ending
    first, so the first match is the longest. DuckDB list lambdas, hence behind this macro.
#}
{% macro ending_is_honorific(eojeol, endings, flags) -%}
    coalesce({{ flags }}[{{ ending_position(eojeol, endings) }}], false)
{%- endmacro %}

{#
    The longest ending of `endings` (int_tone_ending_rule's list) that the eojeol ends with, the
    one whose flag ending_is_honorific reads; null when none matches or the eojeol is null.
#}
{% macro matched_ending(eojeol, endings) -%}
    {{ endings }}[{{ ending_position(eojeol, endings) }}]
{%- endmacro %}

{#
    The position in `endings` (sorted longest first) of the first, so longest, ending the eojeol
    ends with; null when none matches.
#}
{% macro ending_position(eojeol, endings) -%}
    list_position(
        list_transform({{ endings }}, lambda ending: {{ ends_with(eojeol, 'ending') }}),
        true
    )
{%- endmacro %}
