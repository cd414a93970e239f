"""Tone (말투) extraction (docs/rules.md#tone), as plain Python.

The dbt model `int_turns_toned` does the same in SQL; the tone check re-derives it with this
module so that a bug in either implementation shows up as a disagreement.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# Sentence terminators of tone step 1 (docs/rules.md#tone): ASCII, their full-width forms, and
# the ellipsis.
TERMINATORS = ".?!．？！…"
_HANGUL = re.compile("[\uac00-\ud7a3]")
_TRAILING_NON_SYLLABLES = re.compile("[^\uac00-\ud7a3]+$")


def split_sentences(text: str | None, terminators: str = TERMINATORS) -> list[str]:
    """Split at the terminators, trim, drop empty pieces."""
    if text is None:
        return []
    pieces = re.split("[" + re.escape(terminators) + "]", text) if terminators else [text]
    return [piece.strip() for piece in pieces if piece.strip()]


def last_hangul_eojeol(sentence: str) -> str | None:
    """The last whitespace token holding a Hangul syllable, with trailing non-syllables stripped."""
    for token in reversed(sentence.split()):
        if _HANGUL.search(token):
            return _TRAILING_NON_SYLLABLES.sub("", token)
    return None


def is_honorific(eojeol: str, endings: Mapping[str, bool]) -> bool:
    """True when the longest ending the eojeol ends with is marked honorific."""
    matches = [ending for ending in endings if ending and eojeol.endswith(ending)]
    if not matches:
        return False
    return bool(endings[max(matches, key=len)])


def extract_tone(
    text: str | None, endings: Mapping[str, bool], terminators: str = TERMINATORS
) -> str | None:
    """존댓말 if any sentence is honorific, 반말 if none, None if no sentence holds Hangul."""
    sentences = split_sentences(text, terminators)
    eojeols = [e for e in map(last_hangul_eojeol, sentences) if e is not None]
    if not eojeols:
        return None
    return "존댓말" if any(is_honorific(e, endings) for e in eojeols) else "반말"


def last_sentence_is_honorific(
    text: str | None, endings: Mapping[str, bool], terminators: str = TERMINATORS
) -> bool:
    """Whether the text's last sentence ends honorifically (check 10 on summaries)."""
    sentences = split_sentences(text, terminators)
    if not sentences:
        return False
    eojeol = last_hangul_eojeol(sentences[-1])
    return eojeol is not None and is_honorific(eojeol, endings)


def endings_from_lists(endings: Iterable[str], flags: Iterable[bool]) -> dict[str, bool]:
    """Build the ending lookup from the two parallel lists the SQL side passes in."""
    return dict(zip(endings, flags, strict=True))
