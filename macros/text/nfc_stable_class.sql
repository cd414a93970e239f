{#
    Characters that NFC leaves alone in any string made of them: assigned, combining class 0,
    their own NFC form, and never the second half of a canonical composition (so no neighbour
    can compose with them). Written by listing those code points of a few common blocks
    (Latin, punctuation and symbols, CJK, Hangul syllables and compatibility jamo, full-width
    forms, emoji); tests/python/test_normalize_text.py re-derives each property, in Python and
    with DuckDB's own nfc_normalize. As RE2 character-class bodies.
#}
{% macro nfc_stable_class() -%}
    \x{1}-\x{2FF}\x{2002}-\x{2064}\x{2066}-\x{206F}\x{2100}-\x{2125}\x{2127}-\x{2129}\x{212C}-\x{218B}\x{2190}-\x{2328}\x{232B}-\x{2426}\x{2440}-\x{244A}\x{2460}-\x{2ADB}\x{2ADD}-\x{2B73}\x{2B76}-\x{2B95}\x{2B97}-\x{2BFF}\x{3000}-\x{3029}\x{3030}-\x{303F}\x{3131}-\x{318E}\x{4E00}-\x{9FFF}\x{AC00}-\x{D7A3}\x{FF01}-\x{FFBE}\x{FFC2}-\x{FFC7}\x{FFCA}-\x{FFCF}\x{FFD2}-\x{FFD7}\x{FFDA}-\x{FFDC}\x{FFE0}-\x{FFE6}\x{FFE8}-\x{FFEE}\x{1F300}-\x{1F6D7}\x{1F6DD}-\x{1F6EC}\x{1F6F0}-\x{1F6FC}\x{1F700}-\x{1F773}\x{1F780}-\x{1F7D8}\x{1F7E0}-\x{1F7EB}\x{1F7F0}\x{1F800}-\x{1F80B}\x{1F810}-\x{1F847}\x{1F850}-\x{1F859}\x{1F860}-\x{1F887}\x{1F890}-\x{1F8AD}\x{1F8B0}-\x{1F8B1}\x{1F900}-\x{1FA53}\x{1FA60}-\x{1FA6D}\x{1FA70}-\x{1FA74}\x{1FA78}-\x{1FA7C}\x{1FA80}-\x{1FA86}\x{1FA90}-\x{1FAAC}\x{1FAB0}-\x{1FABA}\x{1FAC0}-\x{1FAC5}\x{1FAD0}-\x{1FAD9}\x{1FAE0}-\x{1FAE7}\x{1FAF0}-\x{1FAF6}
{%- endmacro %}

{# nfc_stable_class() without the whitespace of whitespace_class(): the chars a trimmed,
   normalised text may start and end with unchanged. #}
{% macro nfc_stable_edge_class() -%}
    \x{1}-\x{8}\x{E}-\x{1B}\x{21}-\x{84}\x{86}-\x{9F}\x{A1}-\x{2FF}\x{200B}-\x{2027}\x{202A}-\x{202E}\x{2030}-\x{205E}\x{2060}-\x{2064}\x{2066}-\x{206F}\x{2100}-\x{2125}\x{2127}-\x{2129}\x{212C}-\x{218B}\x{2190}-\x{2328}\x{232B}-\x{2426}\x{2440}-\x{244A}\x{2460}-\x{2ADB}\x{2ADD}-\x{2B73}\x{2B76}-\x{2B95}\x{2B97}-\x{2BFF}\x{3001}-\x{3029}\x{3030}-\x{303F}\x{3131}-\x{318E}\x{4E00}-\x{9FFF}\x{AC00}-\x{D7A3}\x{FF01}-\x{FFBE}\x{FFC2}-\x{FFC7}\x{FFCA}-\x{FFCF}\x{FFD2}-\x{FFD7}\x{FFDA}-\x{FFDC}\x{FFE0}-\x{FFE6}\x{FFE8}-\x{FFEE}\x{1F300}-\x{1F6D7}\x{1F6DD}-\x{1F6EC}\x{1F6F0}-\x{1F6FC}\x{1F700}-\x{1F773}\x{1F780}-\x{1F7D8}\x{1F7E0}-\x{1F7EB}\x{1F7F0}\x{1F800}-\x{1F80B}\x{1F810}-\x{1F847}\x{1F850}-\x{1F859}\x{1F860}-\x{1F887}\x{1F890}-\x{1F8AD}\x{1F8B0}-\x{1F8B1}\x{1F900}-\x{1FA53}\x{1FA60}-\x{1FA6D}\x{1FA70}-\x{1FA74}\x{1FA78}-\x{1FA7C}\x{1FA80}-\x{1FA86}\x{1FA90}-\x{1FAAC}\x{1FAB0}-\x{1FABA}\x{1FAC0}-\x{1FAC5}\x{1FAD0}-\x{1FAD9}\x{1FAE0}-\x{1FAE7}\x{1FAF0}-\x{1FAF6}
{%- endmacro %}
