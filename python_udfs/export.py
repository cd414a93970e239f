"""Writing the verdict export (docs/rules.md#output): a JSON array, one object per turn, in
turn_id order.

DuckDB serialises each row to JSON in parallel (to_json) and sorts the lines; this module only
streams them to disk batch by batch, writing Arrow's string buffers as they are. That is about
twice as fast as `COPY … (FORMAT json, ARRAY true)`, and holds a few batches in memory.

Before anything is written, `check_target` refuses a target that is not safe to replace: the
database in use, an input file of the build, a directory, a device or fifo, or an existing file
that is not a previous export (`is_previous_export`: the file's first non-blank byte is `[`,
and the first JSON value after it is `]` or an object whose keys include every required field
of the output schema and are all fields of it, read from at most the first 1 MiB).
The file is written to a fresh temporary name in the target's folder (tempfile.mkstemp) and
renamed over the target (os.replace), so two builds sharing a target never interleave: the
last rename wins and the file is always one whole export.
"""

from __future__ import annotations

import glob
import json
import os
import queue
import stat
import tempfile
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path

import duckdb

from python_udfs.arrow_text import utf8_values

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = PROJECT_ROOT / "schemas" / "verdict.schema.json"
# Small batches: each one's buffers are reused from the heap instead of freshly mapped and
# faulted in (50,000-row batches, ~45 MB each, tripled the time spent in the kernel).
BATCH_ROWS = 4_096
# Batches waiting for the writer thread: enough to ride out a slow write, a few MB each.
WRITE_AHEAD = 8


# The shipped default of the var export_path: with a database other than the default one it
# means "beside that database" (default_target), never the demo's export.
DEFAULT_EXPORT = "exports/turn_verdicts.json"
DEFAULT_DATABASE = PROJECT_ROOT / "card_keeper.duckdb"
EXPORT_SUFFIX = ".turn_verdicts.json"
# How much of an existing file is read to tell whether it is a previous export.
PREVIOUS_EXPORT_PROBE_BYTES = 1 << 20


class ExportRefused(ValueError):
    """The export target is not safe to replace; the message names export_path and why."""


def schema_fields(schema_path: Path = SCHEMA_PATH) -> list[str]:
    """The exported fields: the output schema's properties, in the schema's order."""
    return list(json.loads(schema_path.read_text(encoding="utf-8"))["properties"])


def required_fields(schema_path: Path = SCHEMA_PATH) -> list[str]:
    """The output schema's required fields."""
    return list(json.loads(schema_path.read_text(encoding="utf-8"))["required"])


def _absolute(path: str | os.PathLike) -> Path:
    """`~` expanded; a relative path is relative to the project root."""
    expanded = Path(os.path.expanduser(os.fspath(path)))
    return expanded if expanded.is_absolute() else PROJECT_ROOT / expanded


def default_target(database: str | os.PathLike | None) -> Path:
    """Where a build writes its export when export_path is unset or left at its default:
    exports/turn_verdicts.json for the default database (card_keeper.duckdb at the project
    root) or an in-memory one, else `<database folder>/<database stem>.turn_verdicts.json`."""
    if database in (None, "", ":memory:") or "://" in str(database):
        return PROJECT_ROOT / DEFAULT_EXPORT
    path = _absolute(database)
    if os.path.realpath(path) == os.path.realpath(DEFAULT_DATABASE):
        return PROJECT_ROOT / DEFAULT_EXPORT
    return path.with_name(path.stem + EXPORT_SUFFIX)


def resolve_target(export_path: object, database: str | os.PathLike | None) -> Path:
    """The absolute export target for the var export_path (None = unset) and the database.

    An explicit export_path wins, except the shipped default exports/turn_verdicts.json, which
    only the default database writes. An empty export_path is refused.
    """
    if export_path is None:
        return default_target(database)
    given = str(export_path)
    if not given.strip():
        raise ExportRefused(
            f"export_path {given!r}: an empty export_path names no file; give a file path "
            "(e.g. exports/turn_verdicts.json) or leave the var unset"
        )
    if os.path.normpath(given) == os.path.normpath(DEFAULT_EXPORT):
        return default_target(database)
    return _absolute(given)


def input_files(patterns: Iterable[str | None]) -> set[str]:
    """The real paths of every file the input vars name (globs resolved; relative to the
    project root or absolute; `~` taken both literally, as the readers do, and expanded)."""
    found: set[str] = set()
    for pattern in patterns:
        if pattern is None or not str(pattern).strip():
            continue
        text = str(pattern)
        candidates = {text if os.path.isabs(text) else str(PROJECT_ROOT / text)}
        candidates.add(str(_absolute(text)))
        for candidate in candidates:
            matches = glob.glob(candidate, recursive=True) or [candidate]
            found.update(os.path.realpath(match) for match in matches)
    return found


def is_previous_export(path: str | os.PathLike, schema_path: Path = SCHEMA_PATH) -> bool:
    """Whether an existing regular file is an earlier export (the exact test in the module
    docstring): `[` first, then `]` or a first object with only schema fields, all required
    ones among them."""
    with open(path, "rb") as handle:
        head = handle.read(PREVIOUS_EXPORT_PROBE_BYTES)
    text = head.decode("utf-8", errors="ignore").lstrip()
    if not text.startswith("["):
        return False
    rest = text[1:].lstrip()
    if rest.startswith("]"):
        return True
    try:
        first, _ = json.JSONDecoder().raw_decode(rest)
    except ValueError:
        return False
    if not isinstance(first, dict):
        return False
    allowed = set(schema_fields(schema_path))
    return set(required_fields(schema_path)) <= set(first) <= allowed


def check_target(
    target: str | os.PathLike,
    database: str | os.PathLike | None = None,
    inputs: Mapping[str, str | None] | None = None,
) -> None:
    """Raise ExportRefused, naming export_path and the reason, unless `target` is safe to
    replace: not the database in use (nor its .wal), not an input file, not a directory or a
    non-regular file, and either absent or a previous export."""
    target = Path(target)
    real = os.path.realpath(target)

    def refuse(reason: str) -> ExportRefused:
        return ExportRefused(f"export_path {str(target)!r}: {reason}; nothing was written")

    if database not in (None, "", ":memory:") and "://" not in str(database):
        database_real = os.path.realpath(_absolute(database))
        if real in (database_real, database_real + ".wal"):
            raise refuse("it is the database this build writes to")
    for name, pattern in (inputs or {}).items():
        if real in input_files([pattern]):
            raise refuse(f"it is an input file of this build ({name}: {pattern})")
    if os.path.isdir(target):
        raise refuse("it is a directory, not a file")
    parent = target.parent
    if parent.exists() and not parent.is_dir():
        raise refuse(f"its folder {str(parent)!r} is not a directory")
    if not os.path.lexists(target):
        return
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:  # a dangling symbolic link: replacing the link is harmless
        return
    if not stat.S_ISREG(mode):
        raise refuse("it is not a regular file (a device, fifo or socket)")
    if not is_previous_export(target):
        raise refuse(
            "it is an existing file that is not a previous export (a JSON array of verdict "
            "objects); move it away or choose another path"
        )


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _stream(batches, out) -> int:
    """Write each batch's lines to `out` from a second thread, so that DuckDB sorts and
    serialises the next batch while the kernel copies the last one. Returns the rows."""
    pending: queue.Queue = queue.Queue(maxsize=WRITE_AHEAD)
    failure: list[BaseException] = []

    def drain() -> None:
        while (text := pending.get()) is not None:
            if not failure:
                try:
                    out.write(text)
                except BaseException as error:  # handed to the reading thread below
                    failure.append(error)

    writer = threading.Thread(target=drain, name="export-writer", daemon=True)
    writer.start()
    rows = 0
    try:
        for batch in batches:
            if failure:
                break
            if batch.num_rows:
                pending.put(utf8_values(batch.column(1))[1])
                rows += batch.num_rows
    finally:
        pending.put(None)
        writer.join()
    if failure:
        raise failure[0]
    return rows


def write_json_array(
    relation: duckdb.DuckDBPyRelation, fields: list[str], path: str | os.PathLike
) -> tuple[int, int]:
    """Write `relation`'s `fields` as a JSON array to `path`, one object per line, ordered by
    turn_id. The file is written under a unique temporary name in the target's folder and
    renamed into place, so a reader never sees half an export and two concurrent writers never
    share a temporary file. Returns (rows, bytes written).
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    # An existing export keeps its permissions; a new one gets the usual 0644 (mkstemp: 0600).
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = 0o644
    handle, partial_name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".partial", dir=target.parent
    )
    partial = Path(partial_name)
    row_json = "to_json(struct_pack({}))".format(
        ", ".join(f"{_quoted(field)} := {_quoted(field)}" for field in fields)
    )
    # Serialised before the sort, in parallel; the sort then moves finished lines.
    lines = relation.project(f"turn_id, {row_json} || ',\n' as line").order("turn_id")
    rows = 0
    try:
        with os.fdopen(handle, "wb") as out:
            os.fchmod(out.fileno(), mode)
            out.write(b"[\n")
            rows = _stream(lines.to_arrow_reader(BATCH_ROWS), out)
            if rows:
                # The last object's ",\n" becomes the closing "\n]".
                out.seek(out.tell() - 2)
            out.write(b"\n]\n")
            out.truncate()
            written = out.tell()
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return rows, written
