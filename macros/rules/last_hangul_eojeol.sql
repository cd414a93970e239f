{#
    SPEC §2 tone step 2: the last whitespace-separated token of a sentence that holds a Hangul
    syllable (U+AC00–U+D7A3), with the trailing characters that are not syllables stripped
    (~, ^^, quotes, brackets, emoji, ㅋ/ㅎ jamo). Null when no token holds a syllable.
    The regex anchors at the end: the matched token is followed only by tokens without a
    syllable. DuckDB's regexp_extract (RE2), hence behind this macro.
#}
{% macro last_hangul_eojeol(expression) -%}
    {%- set space = whitespace_class() -%}
    nullif(
        regexp_extract(
            {{ expression }},
            '([^{{ space }}]*[가-힣])[^가-힣{{ space }}]*(?:[{{ space }}]+[^가-힣{{ space }}]*)*$',
            1
        ),
        ''
    )
{%- endmacro %}
