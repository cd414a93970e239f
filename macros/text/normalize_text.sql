{#
    NFC-normalise and trim a text expression. Trims every Unicode space, not only
    ASCII ones, so a full-width space (U+3000) or a no-break space around a name is removed.
    An empty string stays an empty string; null stays null (docs/rules.md#inputs).
    Most values are already normal: made only of nfc_stable_class() characters, with no space
    at either end. One pass of a regular expression tells them apart and returns them as they
    are; the rest are trimmed and normalised (nfc_normalize decomposes and recomposes every
    Hangul syllable, several times slower than the test).
#}
{% macro normalize_text(expression) -%}
    case
        when regexp_full_match(
            {{ expression }},
            '[{{ nfc_stable_edge_class() }}](?:[{{ nfc_stable_class() }}]*[{{ nfc_stable_edge_class() }}])?'
        )
            then {{ expression }}
        else nfc_normalize({{ trim_whitespace(expression) }})
    end
{%- endmacro %}

{# Trim the whitespace of whitespace_class() from both ends. #}
{% macro trim_whitespace(expression) -%}
    regexp_replace(
        {{ expression }}, '^[{{ whitespace_class() }}]+|[{{ whitespace_class() }}]+$', '', 'g'
    )
{%- endmacro %}

{# Whether a text holds anything but whitespace_class() (its trimmed form is not ''): one
   regex test instead of trimming a copy only to compare it with ''. Null gives null. #}
{% macro has_text(expression) -%}
    regexp_matches({{ expression }}, '[^{{ whitespace_class() }}]')
{%- endmacro %}
