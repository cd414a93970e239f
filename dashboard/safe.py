"""Escaping for the few places where Streamlit reads a string as Markdown (labels, captions).

Long user text (messages, replies, evidence values) goes through st.text / st.table /
st.dataframe / st.code, which never interpret it. Labels and captions are Markdown, so any
user-supplied part of them (turn_id, session_id, model_id, a summary) is escaped here first:
every Markdown / directive / LaTeX / HTML-significant character gets a backslash.
"""

from __future__ import annotations

import re

import pandas as pd

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=\"'&])")


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
