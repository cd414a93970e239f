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
    {{- adapter.dispatch('normalize_text', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__normalize_text(expression) -%}
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
    {{- adapter.dispatch('trim_whitespace', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__trim_whitespace(expression) -%}
    regexp_replace(
        {{ expression }}, '^[{{ whitespace_class() }}]+|[{{ whitespace_class() }}]+$', '', 'g'
    )
{%- endmacro %}

{# Whether a text holds anything but whitespace_class() (its trimmed form is not ''): one
   regex test instead of trimming a copy only to compare it with ''. Null gives null. #}
{% macro has_text(expression) -%}
    {{- adapter.dispatch('has_text', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__has_text(expression) -%}
    regexp_matches({{ expression }}, '[^{{ whitespace_class() }}]')
{%- endmacro %}

{#
    normalize_text() for a key (an `id` column of the contract: turn_id, session_id,
    character_id, model_id, prompt_id, term_order), which also loses every format character
    (Unicode category Cf: zero-width spaces and joiners U+200B-U+200D, the marks U+200E /
    U+200F, the bidi embeddings and isolates U+202A-U+202E and U+2066-U+2069, the word joiner
    U+2060, the BOM U+FEFF, the soft hyphen, …). They are invisible, so `T-001` and `T-0<U+200B>01`
    would be two look-alike keys: two turns with one id, a turn whose card "does not exist".
    Only keys: every other text (reply_text above all) keeps its characters.
    The fast path is narrower than normalize_text()'s: printable ASCII and Hangul syllables,
    which hold no format character and are NFC-stable, with no space at either end. Anything
    else has its format characters removed first, then is trimmed and normalised.
#}
{% macro normalize_key(expression) -%}
    {{- adapter.dispatch('normalize_key', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__normalize_key(expression) -%}
    case
        when regexp_full_match(
            {{ expression }},
            '[\x{21}-\x{7E}\x{AC00}-\x{D7A3}](?:[\x{20}-\x{7E}\x{AC00}-\x{D7A3}]*[\x{21}-\x{7E}\x{AC00}-\x{D7A3}])?'
        )
            then {{ expression }}
        else nfc_normalize({{ trim_whitespace(strip_format_characters(expression)) }})
    end
{%- endmacro %}

{# Remove every format character (Unicode category Cf) from a text. #}
{% macro strip_format_characters(expression) -%}
    {{- adapter.dispatch('strip_format_characters', 'card_keeper')(expression) -}}
{%- endmacro %}

{% macro default__strip_format_characters(expression) -%}
    regexp_replace({{ expression }}, '\p{Cf}', '', 'g')
{%- endmacro %}
