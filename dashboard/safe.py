"""Escaping for the few places where Streamlit reads a string as Markdown (labels, captions).

Long user text (messages, replies, evidence values) goes through st.text / st.table /
st.dataframe / st.code, which never interpret it. Labels and captions are Markdown, so any
user-supplied part of them (turn_id, session_id, model_id, a summary) is escaped here first:
every Markdown / directive / LaTeX / HTML-significant character gets a backslash.

Ids (turn_id, session_id, model_id, character_id) are also bidi-isolated wherever they are
shown (`ident`, `plain_ident`): wrapped in U+2068 FIRST STRONG ISOLATE … U+2069 POP DIRECTIONAL
ISOLATE, so a right-to-left override inside an id reorders at most the id itself, never the
rest of its row. Isolate controls inside the id are shown as U+FFFD, so the id cannot close the
isolate early; the PDI closes every embedding or override the id opens.
"""

from __future__ import annotations

import html
import re

import pandas as pd

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=\"'&])")
_ISOLATE_CONTROLS = re.compile("[\u2066-\u2069]")
FSI, PDI = "\u2068", "\u2069"


def md(text: object) -> str:
    """The text as literal Markdown: special characters escaped, newlines flattened."""
    flat = " ".join(str(text if text is not None else "").split())
    return _SPECIAL.sub(r"\\\1", flat)


def one_line(text: object, limit: int = 90) -> str:
    """A single line of at most `limit` characters (an ellipsis marks a cut)."""
    flat = " ".join(str(text if text is not None else "").split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def text_table(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy whose every cell is escaped text: st.table reads cells as Markdown."""
    return frame.map(lambda value: "" if value is None or value is pd.NA else md(value))


def plain_ident(text: object) -> str:
    """An id for plain-text places (select options, st.text): one line, bidi-isolated."""
    flat = " ".join(str(text if text is not None else "").split())
    return FSI + _ISOLATE_CONTROLS.sub("\ufffd", flat) + PDI


def ident(text: object) -> str:
    """An id for Markdown places (labels, captions): escaped like `md`, bidi-isolated."""
    return FSI + md(_ISOLATE_CONTROLS.sub("\ufffd", str(text if text is not None else ""))) + PDI


def highlighted_html(text: str, marks: dict[str, list[str]]) -> str:
    """`text` as HTML, every character escaped, with each occurrence of a marked term wrapped in
    <mark class="ck-{kind}" data-kind="{kind}">. Kinds are the caller's own words (`term`,
    `off_canon`, `recall`); terms are user text and are matched, never inserted. Overlaps go to
    the earliest, then the longest occurrence."""
    spans = []
    for kind, terms in marks.items():
        for term in {t for t in terms if t}:
            start = text.find(term)
            while start != -1:
                spans.append((start, -(start + len(term)), kind))
                start = text.find(term, start + 1)
    pieces, cursor = [], 0
    for start, negative_end, kind in sorted(spans):
        end = -negative_end
        if start < cursor:
            continue
        pieces.append(html.escape(text[cursor:start]))
        safe_kind = re.sub(r"[^a-z_]", "", kind)
        pieces.append(
            f'<mark class="ck-{safe_kind}" data-kind="{safe_kind}">'
            f"{html.escape(text[start:end])}</mark>"
        )
        cursor = end
    pieces.append(html.escape(text[cursor:]))
    return "".join(pieces).replace("\n", "<br>")
