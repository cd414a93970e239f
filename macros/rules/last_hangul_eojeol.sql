{#
    Tone step 2 (docs/rules.md#tone): the last whitespace-separated token of a sentence that holds
    a Hangul syllable (U+AC00–U+D7A3), with the trailing characters that are not syllables stripped
    (~, ^^, quotes, brackets, emoji, ㅋ/ㅎ jamo). Null when no token holds a syllable. In two
    end-anchored steps, which RE2 runs backwards from the end of the sentence: drop everything
    after the last syllable (trailing characters and tokens without a syllable), then keep the run
    of non-whitespace that ends there. A single regex capturing the token gives the same result at
    half again the cost (it is run on every sentence of every reply). DuckDB's regexp_replace /
    regexp_extract (RE2); Spark's (Java regex) take the same patterns with the backslashes of a
    Spark string literal doubled, and extract group 0 (the whole match) explicitly.
#}
{% macro last_hangul_eojeol(expression) -%}
    {{- adapter.dispatch('last_hangul_eojeol', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__last_hangul_eojeol(expression) -%}
    {%- set space = whitespace_class() -%}
    nullif(
        regexp_extract(
            regexp_replace({{ expression }}, '[^가-힣]*$', ''),
            '[^{{ space }}]*$'
        ),
        ''
    )
{%- endmacro %}

{% macro spark__last_hangul_eojeol(expression) -%}
    {%- set space = spark_regex_literal(whitespace_class()) -%}
    nullif(
        regexp_extract(
            regexp_replace({{ expression }}, '[^가-힣]*$', ''),
            '[^{{ space }}]*$',
            0
        ),
        ''
    )
{%- endmacro %}
