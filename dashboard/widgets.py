"""Small pieces every part of the screen uses: the failure shield, verdict badges, the reply with
its highlights, and the tables with Korean headers."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pandas as pd
import streamlit as st

from dashboard import db, texts
from dashboard.safe import highlighted_html, md, text_table

LOG = logging.getLogger("card_keeper.dashboard")


@contextmanager
def shielded(message: str, where=st) -> Iterator[None]:
    """Run a piece of the screen; if it fails, show `message` (Korean) instead of a traceback.

    The full traceback goes to the server's log. Streamlit's rerun/stop signals are
    BaseExceptions and pass through; so do the database-busy/missing states the page handles.
    """
    try:
        yield
    except (db.DatabaseBusy, db.DatabaseMissing):
        raise
    except Exception as error:
        LOG.exception("dashboard: %s", message)
        where.error(
            message + " " + texts.FAILED_DETAIL.format(kind=md(type(error).__name__)),
            icon=":material/error:",
        )


def verdict_badge(verdict: str, where=st) -> None:
    if verdict in texts.VERDICT_COLORS:
        where.badge(verdict, color=texts.VERDICT_COLORS[verdict])
    else:
        where.text(verdict)


def shown_value(value: object) -> str:
    """A cell as text: null (None, NaN, NA) is shown as `null`, never `nan`."""
    if value is None or value is pd.NA or (isinstance(value, float) and pd.isna(value)):
        return texts.NULL
    if isinstance(value, list | tuple) or hasattr(value, "tolist"):
        items = value.tolist() if hasattr(value, "tolist") else value
        return ", ".join(shown_value(item) for item in items)
    return str(value)


def korean_table(frame: pd.DataFrame, headers: dict[str, str], where=st) -> None:
    """A table whose headers are Korean with the column's name beside, nulls shown as null."""
    shown = frame[list(headers)].map(shown_value)
    shown.columns = [f"{korean} ({column})" for column, korean in headers.items()]
    where.table(text_table(shown), hide_index=True)


def reply_block(text: str | None, marks: dict[str, list[str]], where=st) -> None:
    """The reply with the matched term, off-canon names and recalled name highlighted.

    The text is HTML-escaped before the <mark> tags go in (safe.highlighted_html); the block
    carries the kinds it highlighted as data attributes, for the reader and the tests.
    """
    if not text:
        where.text(texts.CONVERSATION_EMPTY_REPLY)
        return
    where.html(
        f"<style>{texts.HIGHLIGHT_CSS}</style>"
        f"<div class='ck-reply'>{highlighted_html(text, marks)}</div>"
    )
