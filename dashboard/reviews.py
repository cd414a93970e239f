"""Reviewers' decisions, kept in CSV files outside the database (docs/rules.md#reviewer-decisions).

A reviewer marks a turn (`rule_right` 규칙이 맞음 / `rule_wrong` 규칙이 틀림, a note, optionally
the verdict expected) or decides an off-canon name (`add` / `block`). Each decision is one row
appended to `turn_marks.csv` or `canon_decisions.csv` in the reviews folder of the database
shown; the next `dbt build` of that database reads them (var `reviews_dir`). Rebuilding or
deleting the database loses nothing a reviewer wrote. The latest row per key wins, so a
decision is changed by appending, and the file is the full record of who decided what, when.

The folder: `reviews/` inside an upload's folder for an upload's database, otherwise
CARD_KEEPER_REVIEWS (relative = to the project root), default `reviews/` at the project root.
Nothing here imports Streamlit.
"""

from __future__ import annotations

import csv
import fcntl
import io
import os
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from dashboard import upload

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TURN_MARKS = "turn_marks.csv"
CANON_DECISIONS = "canon_decisions.csv"
TURN_MARK_COLUMNS = (
    "turn_id",
    "mark",
    "expected_verdict",
    "note",
    "reviewer",
    "marked_at",
    "verdict_at_mark",
    "rule_fingerprint",
)
CANON_COLUMNS = ("name", "character_id", "decision", "note", "reviewer", "decided_at")
MARKS = ("rule_right", "rule_wrong")
DECISIONS = ("add", "block")


def folder_for(database: Path) -> Path:
    """The reviews folder that belongs to a database file."""

    database = Path(database)
    if database.parent.parent.resolve() == upload.uploads_dir().resolve():
        return database.parent / "reviews"
    path = Path(os.environ.get("CARD_KEEPER_REVIEWS", "reviews"))
    return path if path.is_absolute() else PROJECT_ROOT / path


def now_text() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _clean(value: object) -> str:
    return unicodedata.normalize("NFC", " ".join(str(value or "").split()))


def _append(path: Path, columns: tuple[str, ...], row: dict[str, object]) -> None:
    """Append one row (header first if the file is new), under an exclusive lock."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a+", encoding="utf-8", newline="") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            handle.seek(0, os.SEEK_END)
            writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
            if handle.tell() == 0:
                writer.writeheader()
            writer.writerow({column: _clean(row.get(column)) for column in columns})
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _read(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@dataclass
class TurnMark:
    turn_id: str
    mark: str
    expected_verdict: str
    note: str
    reviewer: str
    marked_at: str
    verdict_at_mark: str
    rule_fingerprint: str


def mark_turn(
    folder: Path,
    turn_id: str,
    mark: str,
    verdict_shown: str,
    rule_fingerprint: str,
    note: str = "",
    reviewer: str = "",
    expected_verdict: str = "",
) -> TurnMark:
    """Append a mark: `rule_right` expects the verdict shown, `rule_wrong` the one given."""
    if mark not in MARKS:
        raise ValueError(f"mark must be one of {MARKS}, got {mark!r}")
    expected = verdict_shown if mark == "rule_right" else expected_verdict
    row = TurnMark(
        turn_id,
        mark,
        expected or "",
        note,
        reviewer,
        now_text(),
        verdict_shown,
        rule_fingerprint,
    )
    _append(folder / TURN_MARKS, TURN_MARK_COLUMNS, row.__dict__)
    return row


def decide_name(
    folder: Path, character_id: str, name: str, decision: str, note: str = "", reviewer: str = ""
) -> None:
    if decision not in DECISIONS:
        raise ValueError(f"decision must be one of {DECISIONS}, got {decision!r}")
    _append(
        folder / CANON_DECISIONS,
        CANON_COLUMNS,
        {
            "name": name,
            "character_id": character_id,
            "decision": decision,
            "note": note,
            "reviewer": reviewer,
            "decided_at": now_text(),
        },
    )


def latest_marks(folder: Path) -> dict[str, dict[str, str]]:
    """turn_id -> its latest mark row (later rows win, as in the build)."""
    latest: dict[str, dict[str, str]] = {}
    for row in _read(folder / TURN_MARKS):
        key = row.get("turn_id") or ""
        if key and (key not in latest or (row.get("marked_at") or "") >= latest[key]["marked_at"]):
            latest[key] = {k: v or "" for k, v in row.items()}
    return latest


def latest_decisions(folder: Path) -> dict[tuple[str, str], dict[str, str]]:
    """(character_id, name) -> its latest decision row."""
    latest: dict[tuple[str, str], dict[str, str]] = {}
    for row in _read(folder / CANON_DECISIONS):
        key = (row.get("character_id") or "", row.get("name") or "")
        if all(key) and (
            key not in latest or (row.get("decided_at") or "") >= latest[key]["decided_at"]
        ):
            latest[key] = {k: v or "" for k, v in row.items()}
    return latest


def file_bytes(folder: Path, name: str) -> bytes:
    """A decisions file as it is on disk, or its header alone when nothing was decided yet."""
    path = folder / name
    if path.is_file():
        return path.read_bytes()
    columns = TURN_MARK_COLUMNS if name == TURN_MARKS else CANON_COLUMNS
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(columns)
    return out.getvalue().encode("utf-8")
