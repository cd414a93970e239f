"""A second opinion on sentence endings from Kiwi, the Korean morphological analyser.

It never decides a verdict: the review queue shows where it and the four-ending rule disagree,
as candidates for the honorific_endings seed (manual check 3 of seed 000). kiwipiepy ships its
model, so this runs offline.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

# Final endings (EF) of the polite and formal speech levels end like this once composed:
# 해요체 (…요, 죠/지요, 세요) and 하십시오체 (…니다, …니까, …시오, …시다).
HONORIFIC_EF_ENDINGS = ("요", "죠", "니다", "니까", "시오", "시다")
_TRAILING_NON_SYLLABLES = re.compile("[^\uac00-\ud7a3]+$")


_KIWI_LOCK = threading.Lock()


@lru_cache(maxsize=1)
def _load_kiwi():
    from kiwipiepy import Kiwi

    # Without its default user dictionary (extra nouns and names) and its typo and multi-word
    # dictionaries, none of which a final ending depends on: loading and the first analysis
    # then take 0.6 s instead of 2 s, and Kiwi holds Python's lock all that time, stalling
    # every other dbt thread. The endings found are the same: no difference on 15,306
    # sentences of a million-turn build and 1,894 distinct sentences of the seed notes, the
    # fixtures and the demo data (1,276 of them with a final ending).
    return Kiwi(load_typo_dict=False, load_multi_dict=False, load_default_dict=False)


def _kiwi():
    # One load even when two queries ask at the same time.
    with _KIWI_LOCK:
        return _load_kiwi()


def final_endings(sentences: list[str | None]) -> list[dict[str, str | bool | None] | None]:
    """For each sentence, the ending that closes it as Kiwi reads it: the last morpheme once
    trailing symbols are dropped, if it is a final ending (EF) or a closing 요 that Kiwi tags
    as a particle, connective or determiner (고양이요, 만나요~, 그럼요). Each result holds its
    form, the surface text it covers and whether its speech level is honorific; None when the
    sentence closes on anything else (a bare noun like 필요). Kiwi analyses the whole batch at
    once, which is several times faster than one call per sentence."""
    texts = [_TRAILING_NON_SYLLABLES.sub("", sentence or "") for sentence in sentences]
    todo = [index for index, text in enumerate(texts) if text.strip()]
    results: list[dict[str, str | bool | None] | None] = [None] * len(texts)
    analysed = _kiwi().tokenize([texts[index] for index in todo]) if todo else []
    for index, tokens in zip(todo, analysed, strict=True):
        results[index] = _closing(texts[index], tokens)
    return results


def final_ending(sentence: str | None) -> dict[str, str | bool | None] | None:
    """final_endings() for one sentence."""
    return final_endings([sentence])[0]


def _closing(text: str, tokens) -> dict[str, str | bool | None] | None:
    if not tokens:
        return None
    last = tokens[-1]
    form = unicodedata.normalize("NFC", last.form)
    if not (last.tag == "EF" or (last.tag in ("JX", "EC", "MM") and form.endswith("요"))):
        return None
    return {
        "ef_form": form,
        "ef_surface": text[last.start : last.start + last.len],
        "is_honorific": form.endswith(HONORIFIC_EF_ENDINGS),
    }
