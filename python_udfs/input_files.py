"""The input file readers' Python side: a trial read that cannot fail the build, the shape of
a CSV file (its header and physical lines), and the careful reader.

The SQL readers (macros/inputs/read_input*.sql) read a text file with DuckDB's read_csv, fast
and in parallel, numbering rows by their order in the file. That is exact only while the file
holds one row per physical line and DuckDB reads every line: a bare CR, mixed CRLF/LF line
ends, a raw control character, invalid UTF-8, a line over 2 MiB, a ragged or badly quoted CSV
row, or a CSV value holding a newline all break it, and DuckDB either stops with a parser
message or (for a CSV) renumbers silently. So each file is first read once on a private
connection (try_query); a file that does not read exactly goes to the careful reader here,
which splits the bytes on LF only, keeps every physical line's number and turns each bad line
into a row with a reason code (docs/rules.md#bad-input: bad input never disappears). Its rows
are written to a Parquet file that on-run-start copies into the database.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections import deque
from collections.abc import Iterator

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

# The longest line (bytes, line end excluded) either reader takes: DuckDB's read_csv default
# max_line_size, so the fast reader and the careful one draw the line in the same place.
LINE_LIMIT_BYTES = 2 * 1024 * 1024
# A CSV record (a quoted value may hold newlines) spans at most this many physical lines.
RECORD_LINE_LIMIT = 1000
# How much of a line too long to keep is quoted in the quarantine.
PREVIEW_CHARS = 200
BOM = b"\xef\xbb\xbf"
BATCH_ROWS = 50_000

# Reason codes (seeds/contract_reason_codes.csv).
INVALID_UTF8 = "invalid_utf8"
LINE_TOO_LONG = "line_too_long"
RAGGED_CSV_ROW = "ragged_csv_row"
UNBALANCED_CSV_QUOTE = "unbalanced_csv_quote"

SAVE_AS_UTF8 = "save it as UTF-8 (in Excel: 'CSV UTF-8')"
TO_UTF8 = "save it as UTF-8 (in Excel: 'CSV UTF-8'), or convert it: iconv -f cp949 -t utf-8"

_trial: list[duckdb.DuckDBPyConnection] = []
_trial_lock = threading.Lock()
# The careful reader's files: in the temporary folder, removed by on-run-start once copied.
SCRATCH_PREFIX = "card_keeper_careful_"


def try_query(sql: str) -> dict:
    """Run `sql` (one row of one or two integers) on a private in-memory DuckDB, so that a
    trial read cannot fail the build's own connection: {ok, first, second, error}. The error
    is DuckDB's first line only, never its sniffer report. One connection serves the process
    (DuckDB calls a UDF from any of its threads; a connection per thread cost 0.1 s each)."""
    with _trial_lock:
        if not _trial:
            _trial.append(duckdb.connect(config={"memory_limit": "1GB"}))
        try:
            row = [*_trial[0].execute(sql).fetchall()[0], None]
        except Exception as error:  # any failure means "not this reader": the caller decides
            text = str(error).strip()
            first = text.splitlines()[0] if text else repr(error)
            return {"ok": False, "first": None, "second": None, "error": first}
    return {"ok": True, "first": row[0], "second": row[1], "error": None}


def discard_files(paths: list[str]) -> int:
    """Remove the careful reader's Parquet files once on-run-start has copied them into the
    database; returns how many were removed (a file already gone is skipped)."""
    removed = 0
    for path in paths or []:
        if os.path.basename(path).startswith(SCRATCH_PREFIX):
            try:
                os.remove(path)
                removed += 1
            except FileNotFoundError:
                pass
    return removed


def physical_lines(path: str) -> Iterator[tuple[int, bytes | None, str | None]]:
    """(line number, bytes without the line end, None) for every physical line of the file,
    split on LF only; a CR before the LF is part of the line end (CRLF), any other CR stays in
    the line. A line over LINE_LIMIT_BYTES is not kept: (number, first bytes, 'line_too_long').
    A UTF-8 byte order mark before line 1 is dropped."""
    with open(path, "rb") as handle:
        number = 0
        while True:
            raw = handle.readline(LINE_LIMIT_BYTES + 2)
            if not raw:
                return
            number += 1
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM) :]
            ended = raw.endswith(b"\n")
            if not ended and len(raw) >= LINE_LIMIT_BYTES + 2:
                # Longer than the limit: skip to the end of this line, a chunk at a time.
                while True:
                    more = handle.readline(1 << 20)
                    if not more or more.endswith(b"\n"):
                        break
                yield number, raw[: PREVIEW_CHARS * 4], LINE_TOO_LONG
                continue
            body = raw[:-1] if ended else raw
            if body.endswith(b"\r"):
                body = body[:-1]
            if len(body) > LINE_LIMIT_BYTES:
                yield number, body[: PREVIEW_CHARS * 4], LINE_TOO_LONG
            else:
                yield number, body, None


def _preview(data: bytes) -> str:
    text = data.decode("utf-8", "replace")[:PREVIEW_CHARS]
    return f"{text}… (over {LINE_LIMIT_BYTES} bytes)"


class NotUtf8(Exception):
    """The whole file is in another encoding (every non-ASCII line fails as UTF-8)."""


class _Decoder:
    """Decodes lines as UTF-8 and tells a file in another encoding from a UTF-8 file with a few
    bad lines. The file is not UTF-8 when no line of it is valid UTF-8, or when no line with
    non-ASCII bytes is and every invalid line reads as CP949 (EUC-KR, what Excel on Korean
    Windows writes): then a clear error is better than quarantining every row."""

    def __init__(self) -> None:
        self.valid = 0
        self.valid_non_ascii = 0
        self.first_invalid: int | None = None
        self.all_invalid_cp949 = True

    def decode(self, number: int, data: bytes) -> str | None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            if self.first_invalid is None:
                self.first_invalid = number
            try:
                data.decode("cp949")
            except UnicodeDecodeError:
                self.all_invalid_cp949 = False
            return None
        if data.strip():
            self.valid += 1
        if not data.isascii():
            self.valid_non_ascii += 1
        return text

    def note_valid(self, datas: list[bytes]) -> None:
        """A batch of lines Arrow found valid, counted as decode() would count it."""
        self.valid += sum(1 for data in datas if data.strip())
        self.valid_non_ascii += 0 if b"".join(datas).isascii() else 1

    def check(self) -> None:
        if self.first_invalid is None:
            return
        line = f"line {self.first_invalid} is the first that is not valid UTF-8"
        if self.valid_non_ascii == 0 and self.all_invalid_cp949:
            raise NotUtf8(f"it is not UTF-8 text ({line}; it reads as CP949/EUC-KR): {TO_UTF8}")
        if self.valid == 0:
            raise NotUtf8(f"it is not UTF-8 text ({line}): {SAVE_AS_UTF8}")


def _invalid_text(data: bytes) -> str:
    return data.decode("utf-8", "backslashreplace")


_QUOTED = re.compile(r'"((?:[^"]|"")*+)"')
INCOMPLETE = "incomplete"
MALFORMED = "malformed"


def parse_csv_record(text: str) -> list[str | None] | str:
    """The fields of one CSV record (delimiter ',', quote and escape '"'), as DuckDB's read_csv
    with allow_quoted_nulls = false reads them: an unquoted empty field is None, a quoted one
    ''; a quote inside an unquoted field is an ordinary character. INCOMPLETE when a quoted
    field is still open at the end of the text (the record goes on on the next line),
    MALFORMED when a closing quote is followed by something other than ',' or the end."""
    if '"' not in text:
        return [field or None for field in text.split(",")]
    fields: list[str | None] = []
    position = 0
    while True:
        if text.startswith('"', position):
            match = _QUOTED.match(text, position)
            if match is None:
                return INCOMPLETE
            fields.append(match.group(1).replace('""', '"'))
            position = match.end()
            if position == len(text):
                return fields
            if text[position] != ",":
                return MALFORMED
            position += 1
        else:
            end = text.find(",", position)
            if end == -1:
                fields.append(text[position:] or None)
                return fields
            fields.append(text[position:end] or None)
            position = end + 1


def read_csv_header(path: str) -> dict:
    """The file's header (its first line, split like a record, names trimmed) and its number of
    physical lines, for the fast CSV reader: {header (a JSON list, none for an empty file),
    lines, problem}."""
    lines = 0
    header: list[str] | None = None
    problem = None
    with open(path, "rb") as handle:
        first = handle.readline(LINE_LIMIT_BYTES + 2)
        if first:
            body = first.removeprefix(BOM).rstrip(b"\n").removesuffix(b"\r")
            try:
                fields = parse_csv_record(body.decode("utf-8"))
            except UnicodeDecodeError:
                fields = None
                problem = f"its header (line 1) is not UTF-8 text: {SAVE_AS_UTF8}"
            if fields is not None and isinstance(fields, str):
                problem = "its header (line 1) has an unbalanced quote"
            elif fields is not None:
                header = [(field or "").strip() for field in fields]
                seen = set()
                for name in header:
                    if name and name in seen:
                        problem = f"its header (line 1) names the column '{name}' twice"
                    seen.add(name)
        lines = 0
        handle.seek(0)
        last = b""
        while True:
            chunk = handle.read(8 << 20)
            if not chunk:
                break
            lines += chunk.count(b"\n")
            last = chunk[-1:]
        if last and last != b"\n":
            lines += 1
    header_json = None if header is None else json.dumps(header, ensure_ascii=False)
    return {"header": header_json, "lines": lines, "problem": problem}


# A row of the careful reader: (line number, reason code, raw line, *text values).
Row = tuple


def _bad_line(number: int, data: bytes, problem: str | None, width: int) -> Row:
    raw = _preview(data) if problem == LINE_TOO_LONG else _invalid_text(data)
    return (number, problem or INVALID_UTF8, raw, *([None] * width))


def _line_rows(path: str, decoder: _Decoder) -> Iterator[list]:
    """The careful JSON Lines rows, a batch of columns at a time. A batch whose lines are all
    valid UTF-8 (the usual case: one bad line in a big file) is checked by Arrow in one call
    and stays an Arrow array; only a batch that fails is decoded line by line."""
    batch: list[tuple[int, bytes, str | None]] = []
    for item in physical_lines(path):
        batch.append(item)
        if len(batch) >= BATCH_ROWS:
            yield _line_batch(batch, decoder)
            batch = []
    if batch:
        yield _line_batch(batch, decoder)


def _line_batch(batch: list[tuple[int, bytes, str | None]], decoder: _Decoder) -> list:
    numbers = [number for number, _, _ in batch]
    if not any(problem for _, _, problem in batch):
        datas = [data for _, data, _ in batch]
        try:
            texts = pa.array(datas, pa.binary()).cast(pa.string())
        except pa.ArrowInvalid:
            texts = None
        if texts is not None:
            decoder.note_valid(datas)
            nulls = pa.nulls(len(batch), pa.string())
            return [numbers, nulls, nulls, texts]
    rows = []
    for number, data, problem in batch:
        text = decoder.decode(number, data) if problem is None else None
        rows.append(
            _bad_line(number, data, problem, 1) if text is None else (number, None, None, text)
        )
    return [list(column) for column in zip(*rows, strict=True)]


def _csv_rows(path: str, columns: list[str], decoder: _Decoder) -> Iterator[Row]:
    """Rows of a CSV file by physical line: the header is line 1, a record is numbered by the
    line it starts on. A bad record is quarantined by its first line only and reading starts
    again on the next line, so one stray quote costs one row, never the rest of the file."""
    lines = iter(physical_lines(path))
    pending: deque = deque()

    def next_line():
        if pending:
            return pending.popleft()
        return next(lines, None)

    header_line = next_line()
    if header_line is None:
        return
    number, data, problem = header_line
    header_text = decoder.decode(number, data) if problem is None else None
    header = parse_csv_record(header_text) if header_text is not None else MALFORMED
    if isinstance(header, str):
        raise NotUtf8(f"its header (line 1) cannot be read: {SAVE_AS_UTF8}")
    names = [(name or "").strip() for name in header]
    positions = [names.index(name) if name in names else None for name in columns]
    width = len(columns)

    while True:
        item = next_line()
        if item is None:
            return
        number, data, problem = item
        text = decoder.decode(number, data) if problem is None else None
        if text is None:
            yield _bad_line(number, data, problem, width)
            continue
        if text == "":
            continue  # a blank line is not a row (DuckDB skips it too)
        taken = [item]
        record_text = text
        fields = parse_csv_record(record_text)
        while fields == INCOMPLETE and len(taken) < RECORD_LINE_LIMIT:
            following = next_line()
            if following is None or following[2] is not None:
                if following is not None:
                    taken.append(following)
                break
            following_text = decoder.decode(following[0], following[1])
            taken.append(following)
            if following_text is None or len(record_text) > LINE_LIMIT_BYTES:
                break
            record_text += "\n" + following_text
            fields = parse_csv_record(record_text)
        if isinstance(fields, str):
            # Only the first line is quarantined: the lines after it are read again as rows.
            pending.extendleft(reversed(taken[1:]))
            yield (number, UNBALANCED_CSV_QUOTE, text, *([None] * width))
            continue
        if len(fields) != len(names):
            yield (number, RAGGED_CSV_ROW, record_text, *([None] * width))
            continue
        yield (number, None, None, *(None if i is None else fields[i] for i in positions))


def _batched(rows: Iterator[Row]) -> Iterator[list]:
    """Rows, a batch of columns at a time."""
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH_ROWS:
            yield [list(column) for column in zip(*batch, strict=True)]
            batch = []
    if batch:
        yield [list(column) for column in zip(*batch, strict=True)]


def _problem(problem: str) -> dict:
    return {"parquet": None, "rows": 0, "content_rows": 0, "problem": problem}


def read_carefully(path: str, file_format: str, columns: list[str]) -> dict:
    """Read a JSON Lines or CSV file line by line into a Parquet file of rows (_source_file,
    _source_row, _parse_error, _raw_line and, for JSON Lines, `line`; for CSV the contract's
    `columns` as text). Returns {parquet, rows, content_rows, problem}: problem is set, and no
    file written, when the whole file is unreadable (another encoding than UTF-8)."""
    with open(path, "rb") as handle:
        if handle.read(2) in (b"\xff\xfe", b"\xfe\xff"):
            return _problem(f"it is UTF-16 text: {SAVE_AS_UTF8}")
    decoder = _Decoder()
    text_columns = ["line"] if file_format == "jsonl" else list(columns)
    schema = pa.schema(
        [
            ("_source_file", pa.string()),
            ("_source_row", pa.int64()),
            ("_parse_error", pa.string()),
            ("_raw_line", pa.string()),
            *((name, pa.string()) for name in text_columns),
        ]
    )
    if file_format == "jsonl":
        batches = _line_rows(path, decoder)
    else:
        batches = _batched(_csv_rows(path, columns, decoder))
    handle, target = tempfile.mkstemp(prefix=SCRATCH_PREFIX, suffix=".parquet")
    os.close(handle)
    total = content = 0
    try:
        # Uncompressed: the file lives only until on-run-start has copied it.
        with pq.ParquetWriter(target, schema, compression="none") as writer:
            for batch in batches:
                size = len(batch[0])
                arrays = [pa.array([path] * size, pa.string())]
                arrays += [
                    pa.array(values, field.type) if isinstance(values, list) else values
                    for values, field in zip(batch, list(schema)[1:], strict=True)
                ]
                table = pa.Table.from_arrays(arrays, schema=schema)
                writer.write_table(table)
                total += size
                if file_format == "jsonl":
                    # A row counts when it is a bad line or a line that is not blank.
                    blank = pc.equal(pc.utf8_trim_whitespace(table["line"]), "")
                    content += (
                        size
                        - pc.sum(pc.fill_null(blank, True)).as_py()
                        + sum(1 for error in table["_parse_error"].to_pylist() if error)
                    )
                else:
                    content += size
            decoder.check()
    except NotUtf8 as error:
        os.remove(target)
        return _problem(str(error))
    return {"parquet": target, "rows": total, "content_rows": content, "problem": None}
