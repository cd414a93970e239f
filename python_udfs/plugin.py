"""dbt-duckdb plugin: anchors paths to the project root, registers card_keeper's UDFs, and
sets the session variable ck_input_contract (python_udfs/contract.py as JSON) that
input_contract() reads in a unit test, where dbt's graph is empty.

Wired in profiles.yml as `plugins: [{module: python_udfs.plugin}]`; `make build` installs the
python_udfs package into the venv (editable, pyproject.toml), so dbt imports it from any
directory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pyarrow as pa
from dbt.adapters.duckdb.plugins import BasePlugin
from dbt_common.exceptions import DbtRuntimeError

from python_udfs import contract, endings, input_files, lexicon, tone

PROJECT_ROOT = Path(__file__).resolve().parent.parent


DATABASE_SUFFIXES = (".duckdb", ".db")
# Bytes 8-11 of every DuckDB database file.
DUCKDB_MAGIC = b"DUCK"


def anchor(path: str) -> str:
    """A relative path means relative to the project root, not to the current directory;
    a leading `~` is the home directory."""
    if path == ":memory:" or "://" in path:
        return path
    path = os.path.expanduser(path)
    if os.path.isabs(path):
        return path
    return str(PROJECT_ROOT / path)


def database_path_problem(path: str) -> str | None:
    """Why DuckDB cannot keep a database at `path` (None when it can): its folder is missing,
    it is a directory, its name does not end in .duckdb / .db, or the file is not a DuckDB
    database. Checked before connecting, so the connection retries never wait on it."""
    if path == ":memory:" or "://" in path or path.startswith("md:"):
        return None
    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        return "it is a directory; name a database file such as card_keeper.duckdb"
    if not os.path.isdir(folder):
        return f"its folder {folder} does not exist; create it first"
    if not path.lower().endswith(DATABASE_SUFFIXES):
        return "it is not a .duckdb or .db file; name the database file card_keeper.duckdb"
    if os.path.isfile(path) and os.path.getsize(path) > 0:
        with open(path, "rb") as handle:
            head = handle.read(12)
        if head[8:12] != DUCKDB_MAGIC:
            return "the file exists but is not a DuckDB database"
    return None


def _rule_inputs(terminators: pa.Array, endings: pa.Array, flags: pa.Array):
    """The rule inputs are constant across rows: read them from the first row once."""
    lookup = tone.endings_from_lists(endings[0].as_py() or [], flags[0].as_py() or [])
    return terminators[0].as_py() or "", lookup


def tone_udf(
    texts: pa.Array, terminators: pa.Array, endings: pa.Array, flags: pa.Array
) -> pa.Array:
    """Vectorised ck_tone(reply_text, terminators, endings, is_honorific flags)."""
    if len(texts) == 0:
        return pa.array([], type=pa.string())
    marks, lookup = _rule_inputs(terminators, endings, flags)
    return pa.array(
        [tone.extract_tone(text, lookup, marks) for text in texts.to_pylist()], type=pa.string()
    )


def last_sentence_honorific_udf(
    texts: pa.Array, terminators: pa.Array, endings: pa.Array, flags: pa.Array
) -> pa.Array:
    """Vectorised ck_last_sentence_is_honorific(text, terminators, endings, flags)."""
    if len(texts) == 0:
        return pa.array([], type=pa.bool_())
    marks, lookup = _rule_inputs(terminators, endings, flags)
    return pa.array(
        [tone.last_sentence_is_honorific(text, lookup, marks) for text in texts.to_pylist()],
        type=pa.bool_(),
    )


def lexicon_prepare_udf(terms: list[str], term_orders: list[int]) -> str:
    return lexicon.prepare(terms or [], term_orders or [])


def lexicon_match_udf(texts: pa.Array, handles: pa.Array) -> pa.Array:
    """Vectorised ck_lexicon_match: one automaton pass over the batch's replies."""
    if len(texts) == 0:
        return pa.array([], type=lexicon.MATCHES_TYPE)
    return lexicon.matcher(handles[0].as_py()).match_arrow(texts)


FINAL_ENDING_TYPE = pa.struct(
    [("ef_form", pa.string()), ("ef_surface", pa.string()), ("is_honorific", pa.bool_())]
)


def final_ending_udf(sentences: pa.Array) -> pa.Array:
    """Vectorised ck_final_ending(sentence): Kiwi's last EF of each sentence."""
    return pa.array(endings.final_endings(sentences.to_pylist()), type=FINAL_ENDING_TYPE)


TRY_QUERY_TYPE = "STRUCT(ok BOOLEAN, first BIGINT, second BIGINT, error VARCHAR)"
CSV_HEADER_TYPE = "STRUCT(header VARCHAR, lines BIGINT, problem VARCHAR)"
CAREFUL_READ_TYPE = "STRUCT(parquet VARCHAR, rows BIGINT, content_rows BIGINT, problem VARCHAR)"


def try_query_udf(sql: str) -> dict:
    """ck_try_query(sql): a trial read on a private connection (see python_udfs.input_files)."""
    return input_files.try_query(sql)


def csv_header_udf(path: str) -> dict:
    """ck_csv_header(path): a CSV file's own header and its number of physical lines."""
    return input_files.read_csv_header(path)


def read_carefully_udf(path: str, file_format: str, columns: list[str]) -> dict:
    """ck_read_carefully(path, format, columns): the careful line reader's Parquet file."""
    return input_files.read_carefully(path, file_format, columns or [])


def discard_files_udf(paths: list[str]) -> int:
    """ck_discard_careful_files(paths): remove the careful reader's copied Parquet files."""
    return input_files.discard_files(paths)


class Plugin(BasePlugin):
    def initialize(self, plugin_config: dict[str, Any]) -> None:
        self.project_root = str(PROJECT_ROOT)
        self.input_contract = json.dumps(contract.INPUT_CONTRACT, ensure_ascii=False)

    def update_connection_config(self, creds: Any, config: dict[str, Any]) -> None:
        creds.path = anchor(creds.path)
        problem = database_path_problem(creds.path)
        if problem:
            given = os.environ.get("CARD_KEEPER_DB")
            name = f"CARD_KEEPER_DB={given}" if given else f"database path {creds.path}"
            if given and given != creds.path:
                name += f" ({creds.path})"
            raise DbtRuntimeError(f"{name}: {problem}")

    def configure_cursor(self, cursor: Any) -> None:
        # Settings and variables belong to one connection; dbt works through cursors.
        self._configure_session(cursor)
        return cursor

    def _configure_session(self, conn: Any) -> None:
        # Relative input paths in vars resolve against the project root.
        conn.execute("set file_search_path = ?", [self.project_root])
        conn.execute("set variable ck_project_root = ?", [self.project_root])
        # The input contract for input_contract() in a unit test, where dbt's graph is empty.
        conn.execute("set variable ck_input_contract = ?", [self.input_contract])

    def configure_connection(self, conn: Any) -> None:
        self._configure_session(conn)
        conn.create_function(
            "ck_tone",
            tone_udf,
            ["VARCHAR", "VARCHAR", "VARCHAR[]", "BOOLEAN[]"],
            "VARCHAR",
            type="arrow",
            null_handling="special",
        )
        conn.create_function(
            "ck_last_sentence_is_honorific",
            last_sentence_honorific_udf,
            ["VARCHAR", "VARCHAR", "VARCHAR[]", "BOOLEAN[]"],
            "BOOLEAN",
            type="arrow",
            null_handling="special",
        )
        conn.create_function(
            "ck_final_ending",
            final_ending_udf,
            ["VARCHAR"],
            "STRUCT(ef_form VARCHAR, ef_surface VARCHAR, is_honorific BOOLEAN)",
            type="arrow",
            null_handling="special",
        )
        conn.create_function(
            "ck_try_query", try_query_udf, ["VARCHAR"], TRY_QUERY_TYPE, side_effects=True
        )
        conn.create_function(
            "ck_csv_header", csv_header_udf, ["VARCHAR"], CSV_HEADER_TYPE, side_effects=True
        )
        conn.create_function(
            "ck_discard_careful_files",
            discard_files_udf,
            ["VARCHAR[]"],
            "BIGINT",
            side_effects=True,
        )
        conn.create_function(
            "ck_read_carefully",
            read_carefully_udf,
            ["VARCHAR", "VARCHAR", "VARCHAR[]"],
            CAREFUL_READ_TYPE,
            side_effects=True,
        )
        conn.create_function(
            "ck_lexicon_prepare",
            lexicon_prepare_udf,
            ["VARCHAR[]", "BIGINT[]"],
            "VARCHAR",
            side_effects=True,
        )
        conn.create_function(
            "ck_lexicon_match",
            lexicon_match_udf,
            ["VARCHAR", "VARCHAR"],
            "BIGINT[]",
            type="arrow",
            null_handling="special",
        )
