{#
    The characters that separate eojeols, as an RE2 character-class body: every Unicode space
    (\p{Z}) and the control characters Python's str.split() also treats as whitespace, so the
    SQL tone rule and the Python UDF split a sentence at exactly the same places.
#}
{% macro whitespace_class() -%}
    \s\p{Z}\x{0B}\x{1C}-\x{1F}\x{85}
{%- endmacro %}
