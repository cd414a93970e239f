{#
    Tone step 1 (docs/rules.md#tone): the reply's pieces between sentence terminators, as a list
    (not yet trimmed or filtered). The terminators come from the var sentence_terminators, so they
    are part of the rule fingerprint. DuckDB-only (string_split_regex), hence behind this macro.
#}
{% macro split_sentences(expression) -%}
    string_split_regex({{ expression }}, '[{{ sentence_terminators_class() }}]')
{%- endmacro %}

{#
    The terminators var as the body of an RE2 character class inside a SQL string literal:
    the four characters special in a class (\ ] ^ -) are escaped, and quotes doubled.
#}
{% macro sentence_terminators_class() -%}
    {{- var('sentence_terminators')
        | replace('\\', '\\\\') | replace(']', '\\]') | replace('^', '\\^') | replace('-', '\\-')
        | replace("'", "''") -}}
{%- endmacro %}
