"""A second opinion on sentence endings from Kiwi, the Korean morphological analyser.

It never decides a verdict: the review queue shows where it and the four-ending rule disagree,
as candidates for the honorific_endings seed (manual check 3 of seed 000). kiwipiepy ships its
model, so this runs offline.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Final endings (EF) of the polite and formal speech levels end like this once composed:
# 해요체 (…요, 죠/지요, 세요) and 하십시오체 (…니다, …니까, …시오, …시다).
HONORIFIC_EF_ENDINGS = ("요", "죠", "니다", "니까", "시오", "시다")
_TRAILING_NON_SYLLABLES = re.compile("[^\uac00-\ud7a3]+$")


@lru_cache(maxsize=1)
def _kiwi():
    from kiwipiepy import Kiwi

    return Kiwi()


def final_ending(sentence: str | None) -> dict[str, str | bool | None] | None:
    """The ending that closes the sentence, as Kiwi reads it: the last morpheme once trailing
    symbols are dropped, if it is a final ending (EF) or a closing 요 that Kiwi tags as a
    particle, connective or determiner (고양이요, 만나요~, 그럼요). Returns its form, the surface
    text it covers and whether its speech level is honorific; None when the sentence closes on
    anything else (a bare noun like 필요)."""
    text = _TRAILING_NON_SYLLABLES.sub("", sentence or "")
    if not text.strip():
        return None
    last = _kiwi().tokenize(text)[-1]
    form = unicodedata.normalize("NFC", last.form)
    if not (last.tag == "EF" or (last.tag in ("JX", "EC", "MM") and form.endswith("요"))):
        return None
    return {
        "ef_form": form,
        "ef_surface": text[last.start : last.start + last.len],
        "is_honorific": form.endswith(HONORIFIC_EF_ENDINGS),
    }
