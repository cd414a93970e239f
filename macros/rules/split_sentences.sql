{#
    Tone step 1 (docs/rules.md#tone): the reply's pieces between sentence terminators, as a list
    (not yet trimmed or filtered). The terminators come from the var sentence_terminators, so they
    are part of the rule fingerprint. DuckDB's string_split_regex; Spark's split with limit -1,
    which keeps the empty pieces as DuckDB does.
#}
{% macro split_sentences(expression) -%}
    {{- adapter.dispatch('split_sentences', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__split_sentences(expression) -%}
    string_split_regex({{ expression }}, '[{{ sentence_terminators_class() }}]')
{%- endmacro %}

{#
    Java regex also treats `[` and `&&` as special inside a class, so `[` and `&` are escaped too,
    then every backslash is doubled for the Spark string literal.
#}
{% macro spark__split_sentences(expression) -%}
    {%- set terminators = sentence_terminators_class() | replace('[', '\\[') | replace('&', '\\&') -%}
    split({{ expression }}, '[{{ spark_regex_literal(terminators) }}]', -1)
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

{#
    The reply's sentences for tone step 2: its pieces (split_sentences) that hold anything but
    whitespace. Spark's string literals need the whitespace class's backslashes doubled.
#}
{% macro sentence_pieces(expression) -%}
    {{- adapter.dispatch('sentence_pieces', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro duckdb__sentence_pieces(expression) -%}
    list_filter(
        {{ split_sentences(expression) }},
        lambda piece: {{ has_text('piece') }}
    )
{%- endmacro %}

{% macro spark__sentence_pieces(expression) -%}
    filter(
        {{ split_sentences(expression) }},
        piece -> piece rlike '[^{{ spark_regex_literal(whitespace_class()) }}]'
    )
{%- endmacro %}
