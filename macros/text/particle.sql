{#
    The Korean particle that fits a word: `after_consonant` (은, 이, 을, 으로) when the word's
    last syllable has a final consonant (batchim), `after_vowel` (는, 가, 를, 로) otherwise;
    for (으)로 a final ㄹ takes 로, as Korean does. A word that does not end in a Hangul
    syllable gets both forms, e.g. 을(를). Summaries quote words as 「word」 and append this.
#}
{% macro particle(word_expression, after_consonant, after_vowel) -%}
    {%- set last = char_code('right(' ~ word_expression ~ ', 1)') -%}
    {%- set final_consonant = '(' ~ last ~ ' - 44032) % 28' -%}
    case
        when {{ last }} not between 44032 and 55203
            then '{{ after_consonant }}({{ after_vowel }})'
        {%- if after_consonant == '으로' %}
        when {{ final_consonant }} in (0, 8) then '{{ after_vowel }}'
        {%- else %}
        when {{ final_consonant }} = 0 then '{{ after_vowel }}'
        {%- endif %}
        else '{{ after_consonant }}'
    end
{%- endmacro %}

{# The code point of a text's first character (DuckDB's unicode(); Spark's ascii() is the same). #}
{% macro char_code(expression) -%}
    {{- adapter.dispatch('char_code', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__char_code(expression) -%}
    unicode({{ expression }})
{%- endmacro %}

{% macro spark__char_code(expression) -%}
    ascii({{ expression }})
{%- endmacro %}
