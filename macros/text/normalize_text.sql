{#
    NFC-normalise and trim a text expression (SPEC §1). Trims every Unicode space, not only
    ASCII ones, so a full-width space (U+3000) or a no-break space around a name is removed.
    An empty string stays an empty string; null stays null.
#}
{% macro normalize_text(expression) -%}
    nfc_normalize({{ trim_whitespace(expression) }})
{%- endmacro %}

{# Trim the whitespace of whitespace_class() from both ends. #}
{% macro trim_whitespace(expression) -%}
    regexp_replace(
        {{ expression }}, '^[{{ whitespace_class() }}]+|[{{ whitespace_class() }}]+$', '', 'g'
    )
{%- endmacro %}
