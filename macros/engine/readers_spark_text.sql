{#
    Spark SQL for the text macros of macros/text/ (their comments say what each computes).
    Regular expressions are Java's here, not RE2's: the same classes (\x{…}, \p{…}) read the
    same, but a full match is anchored with ^…\z (Java's $ also matches before a final line
    break), and every pattern is written through sql_text (Spark reads a backslash
    in a literal as an escape). NFC is ICU4J's Normalizer, which ships with Spark.
#}

{% macro spark__normalize_text(expression) -%}
    case
        when {{ expression }} rlike {{ sql_text(
            '^[' ~ nfc_stable_edge_class() ~ '](?:[' ~ nfc_stable_class() ~ ']*['
            ~ nfc_stable_edge_class() ~ '])?\\z'
        ) }}
            then {{ expression }}
        else {{ spark_nfc(trim_whitespace(expression)) }}
    end
{%- endmacro %}

{# NFC of a text; null stays null (ICU's compose fails on a null, so it is not called). #}
{% macro spark_nfc(expression) -%}
    case
        when {{ expression }} is not null
            then java_method('com.ibm.icu.text.Normalizer', 'compose', {{ expression }}, false)
    end
{%- endmacro %}

{% macro spark__trim_whitespace(expression) -%}
    regexp_replace(
        {{ expression }},
        {{ sql_text(
            '^[' ~ whitespace_class() ~ ']+|[' ~ whitespace_class() ~ ']+\\z'
        ) }},
        ''
    )
{%- endmacro %}

{% macro spark__has_text(expression) -%}
    {{ expression }} rlike {{ sql_text('[^' ~ whitespace_class() ~ ']') }}
{%- endmacro %}

{% macro spark__normalize_key(expression) -%}
    case
        when {{ expression }} rlike {{ sql_text(
            '^[\\x{21}-\\x{7E}\\x{AC00}-\\x{D7A3}](?:[\\x{20}-\\x{7E}\\x{AC00}-\\x{D7A3}]*'
            ~ '[\\x{21}-\\x{7E}\\x{AC00}-\\x{D7A3}])?\\z'
        ) }}
            then {{ expression }}
        else {{ spark_nfc(trim_whitespace(strip_format_characters(expression))) }}
    end
{%- endmacro %}

{% macro spark__strip_format_characters(expression) -%}
    regexp_replace({{ expression }}, {{ sql_text('\\p{Cf}') }}, '')
{%- endmacro %}

{#
    A JSON text as an array of VARIANT values, null when it is not valid JSON or not an
    array: try_parse_json is strict (no trailing content), and each element keeps its JSON
    type (schema_of_variant), so a number or a null element is told from a string.
#}
{% macro spark_json_array(expression) -%}
    case
        when schema_of_variant(try_parse_json({{ expression }})) like 'ARRAY<%'
            then cast(try_parse_json({{ expression }}) as array<variant>)
    end
{%- endmacro %}

{% macro spark__is_text_list(expression) -%}
    coalesce(
        forall(
            {{ spark_json_array(expression) }},
            element -> schema_of_variant(element) = 'STRING'
            and {{ normalize_text('cast(element as string)') }} <> ''
        ),
        false
    )
{%- endmacro %}

{% macro spark__parse_text_list(expression) -%}
    case
        when {{ is_text_list(expression) }}
            then transform(
                {{ spark_json_array(expression) }},
                element -> {{ normalize_text('cast(element as string)') }}
            )
    end
{%- endmacro %}

{% macro spark__is_entity_roles(expression) -%}
    coalesce(
        forall(
            {{ spark_json_array(expression) }},
            pair -> coalesce(
                schema_of_variant(pair) like 'OBJECT<%'
                and schema_of_variant(variant_get(pair, '$.role')) = 'STRING'
                and schema_of_variant(variant_get(pair, '$.entity')) = 'STRING'
                and coalesce(
                    {{ normalize_text("variant_get(pair, '$.role', 'string')") }}, ''
                ) <> ''
                and coalesce(
                    {{ normalize_text("variant_get(pair, '$.entity', 'string')") }}, ''
                ) <> '',
                false
            )
        ),
        false
    )
{%- endmacro %}

{% macro spark__parse_entity_roles(expression) -%}
    case
        when {{ is_entity_roles(expression) }}
            then transform(
                {{ spark_json_array(expression) }},
                pair -> named_struct(
                    'role', {{ normalize_text("variant_get(pair, '$.role', 'string')") }},
                    'entity', {{ normalize_text("variant_get(pair, '$.entity', 'string')") }}
                )
            )
    end
{%- endmacro %}

{#
    Spark's cast to timestamp reads more than DuckDB's (a bare year '2026', a date and an
    hour '2026-10-05 21'), so a text is first held to the ISO 8601 shapes both read: a date,
    then optionally a time to the minute or second with a fraction, then optionally Z or an
    offset. The session time zone is UTC (profiles.yml), so an offset converts to UTC.
#}
{% macro spark__parse_timestamp(expression) -%}
    case
        when {{ expression }} rlike {{ sql_text(
            '^[0-9]{4,6}-[0-9]{2}-[0-9]{2}(?:[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\\.[0-9]{1,9})?)?)?'
            ~ ' ?(?:Z|[+-][0-9]{2}(?::?[0-9]{2})?)?\\z'
        ) }}
            then try_cast({{ expression }} as timestamp)
    end
{%- endmacro %}

{% macro spark__names_date_before_common_era(expression) -%}
    {{ expression }} rlike {{ sql_text('^[0-9].*\\b[Bb][Cc]\\b') }}
{%- endmacro %}

{% macro spark__parse_integer(expression) -%}
    case
        when {{ expression }} rlike {{ sql_text('^[+-]?[0-9]+\\z') }}
            then try_cast({{ expression }} as bigint)
    end
{%- endmacro %}
