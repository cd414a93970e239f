"""Issue 2: the input contract — formats, quarantine, normalisation, unreadable files."""

from __future__ import annotations

import csv
import json
import unicodedata
from datetime import datetime

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import BUILD, BUILD_WITHOUT_TESTS, FIXTURES, fixture_inputs, run_dbt

from python_udfs.contract import INPUT_COLUMNS, INPUT_CONTRACT

STAGING = ("stg_chat_logs__turns", "stg_chat_logs__character_cards", "stg_chat_logs__topic_terms")
STAGING_SELECTOR = BUILD_WITHOUT_TESTS

LIST_COLUMNS = {"named_entities", "canon_entities", "forbidden_topics", "entity_roles"}
PARQUET_TYPES = {
    "created_at": pa.timestamp("us"),
    "user_asked_recall": pa.bool_(),
    "is_public": pa.bool_(),
    "term_order": pa.int64(),
    "named_entities": pa.list_(pa.string()),
    "canon_entities": pa.list_(pa.string()),
    "forbidden_topics": pa.list_(pa.string()),
    "entity_roles": pa.list_(pa.struct([("role", pa.string()), ("entity", pa.string())])),
}


def read_records(path):
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def write_csv(records, columns, path):
    """Lists as JSON text, null as an empty cell, an empty string quoted (docs/rules.md#inputs)."""
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(",".join(columns) + "\n")
        for record in records:
            cells = []
            for column in columns:
                value = record.get(column)
                if value is None:
                    cells.append("")
                elif isinstance(value, (list, bool, int)):
                    text = json.dumps(value, ensure_ascii=False)
                    cells.append('"' + text.replace('"', '""') + '"')
                else:
                    cells.append('"' + str(value).replace('"', '""') + '"')
            handle.write(",".join(cells) + "\n")


def write_parquet(records, columns, path):
    arrays = {}
    for column in columns:
        values = [record.get(column) for record in records]
        kind = PARQUET_TYPES.get(column, pa.string())
        if column == "created_at":
            values = [datetime.fromisoformat(v) if v else None for v in values]
        if column == "term_order":
            values = [int(v) for v in values]
        if column == "is_public" and values and isinstance(values[0], str):
            values = [v == "true" for v in values]
        arrays[column] = pa.array(values, type=kind)
    pq.write_table(pa.table(arrays), path)


COLUMNS = INPUT_COLUMNS


def staging_tables(result):
    tables = {}
    for model in STAGING:
        key = {"stg_chat_logs__turns": "turn_id", "stg_chat_logs__character_cards": "character_id"}
        order = key.get(model, "term_order")
        # _ingested_by names the build that read a turn (docs/rules.md#incremental-builds).
        columns = "* exclude (_ingested_by)" if model == "stg_chat_logs__turns" else "*"
        tables[model] = result.rows(f"select {columns} from staging.{model} order by {order}")
    return tables


@pytest.fixture(scope="module")
def staged_by_format(tmp_path_factory):
    source = fixture_inputs("seed_000")
    records = {table: read_records(path) for table, path in source.items()}
    results = {}
    for fmt in ("jsonl", "csv", "parquet"):
        folder = tmp_path_factory.mktemp(f"format_{fmt}")
        inputs = {}
        for table, rows in records.items():
            path = folder / f"{table}.{fmt}"
            if fmt == "jsonl":
                path.write_text(
                    "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8"
                )
            elif fmt == "csv":
                write_csv(rows, COLUMNS[table], path)
            else:
                write_parquet(rows, COLUMNS[table], path)
            inputs[table] = path
        results[fmt] = run_dbt(STAGING_SELECTOR, folder, inputs)
    return results


def test_csv_jsonl_and_parquet_stage_identically(staged_by_format):
    jsonl = staging_tables(staged_by_format["jsonl"])
    assert len(jsonl["stg_chat_logs__turns"]) == 8
    for fmt in ("csv", "parquet"):
        assert staging_tables(staged_by_format[fmt]) == jsonl, fmt
    for fmt, result in staged_by_format.items():
        assert result.rows("select * from marts.fct_contract_violations") == [], fmt


def test_empty_reply_and_null_list_survive_every_format(staged_by_format):
    for result in staged_by_format.values():
        (row,) = result.rows(
            "select named_entities from staging.stg_chat_logs__turns where turn_id = 'T-004631'"
        )
        assert row["named_entities"] is None
        (row,) = result.rows(
            "select named_entities from staging.stg_chat_logs__turns where turn_id = 'T-004468'"
        )
        assert row["named_entities"] == []


@pytest.fixture(scope="module")
def bad_rows(tmp_path_factory):
    return run_dbt(BUILD, tmp_path_factory.mktemp("bad_rows"), fixture_inputs("bad_rows"))


EXPECTED_QUARANTINE = {
    ("chat_turn", 2, "turn_id", "missing_required_value"),
    ("chat_turn", 3, "turn_id", "duplicate_turn_id"),
    ("chat_turn", 4, "character_id", "unknown_character_id"),
    ("chat_turn", 5, "named_entities", "unparsable_list"),
    ("chat_turn", 6, "created_at", "unparsable_timestamp"),
    ("chat_turn", 7, "user_asked_recall", "unparsable_boolean"),
    ("chat_turn", 8, "_line", "malformed_json_line"),
    ("chat_turn", 9, "reply_text", "missing_required_value"),
    ("character_card", 4, "character_id", "duplicate_character_id"),
    ("character_card", 5, "honorific_rule", "unknown_honorific_rule"),
    ("character_card", 6, "entity_roles", "malformed_entity_roles"),
    ("character_card", 7, "canon_entities", "unparsable_list"),
    ("character_card", 8, "is_public", "unparsable_boolean"),
    ("topic_lexicon", 3, "term_order", "duplicate_term_order"),
    ("topic_lexicon", 4, "topic", "missing_required_value"),
    ("topic_lexicon", 5, "term_order", "unparsable_integer"),
}


def test_every_bad_row_lands_in_quarantine_with_its_reason(bad_rows):
    found = {
        (row["table_name"], row["source_row"], row["column_name"], row["reason_code"])
        for row in bad_rows.rows("select * from marts.fct_contract_violations")
    }
    assert found == EXPECTED_QUARANTINE


def test_quarantine_names_file_and_raw_value(bad_rows):
    rows = bad_rows.rows(
        "select * from marts.fct_contract_violations where reason_code = 'unparsable_timestamp'"
    )
    assert rows[0]["source_file"].endswith("bad_rows/chat_turn.jsonl")
    assert rows[0]["raw_value"] == "어제 저녁"
    assert rows[0]["row_key"] == "B-0005"
    assert rows[0]["reason"]


def test_good_rows_still_get_verdicts(bad_rows):
    verdicts = {
        row["turn_id"] for row in bad_rows.rows("select turn_id from marts.fct_turn_verdicts")
    }
    assert verdicts == {"B-0001", "B-0009", "B-0010"}


def test_text_is_nfc_and_trimmed(bad_rows):
    (row,) = bad_rows.rows("select * from staging.stg_chat_logs__turns where turn_id = 'B-0001'")
    assert row["reply_text"] == "하늘이는 잘 있어."
    assert unicodedata.is_normalized("NFC", row["reply_text"])
    assert row["named_entities"] == ["하늘"]
    assert row["user_message"] == unicodedata.normalize("NFC", "동생은 잘 있어?")
    # An offset is converted to UTC.
    assert row["created_at"].isoformat() == "2026-10-05T12:00:00"


def test_empty_reply_is_kept_and_judged(bad_rows):
    (row,) = bad_rows.rows(
        "select reply_text from staging.stg_chat_logs__turns where turn_id = 'B-0009'"
    )
    assert row["reply_text"] == ""
    (verdict,) = bad_rows.rows(
        "select skipped_checks, hedge from marts.fct_turn_verdicts where turn_id = 'B-0009'"
    )
    assert "tone:tone_not_extracted" in verdict["skipped_checks"]
    assert "말투 대조는 건너뛰었습니다" in verdict["hedge"]


def test_counts_add_up(bad_rows):
    """The dbt test proves it on every build; this checks the figures behind it once more."""
    (row,) = bad_rows.rows(
        """
        select
            (select count(*) from raw.chat_turn) as input_rows,
            (select count(*) from staging.stg_chat_logs__turns) as clean_rows,
            (select count(distinct source_row) from marts.fct_contract_violations
             where table_name = 'chat_turn') as quarantined_rows
        """
    )
    assert row == {"input_rows": 11, "clean_rows": 3, "quarantined_rows": 8}


def test_a_missing_file_fails_naming_it(tmp_path):
    inputs = fixture_inputs("seed_000") | {"chat_turn": tmp_path / "no_such_turns.jsonl"}
    result = run_dbt(["run"], tmp_path / "run", inputs, check=False)
    assert result.returncode != 0
    assert "no_such_turns.jsonl" in result.output
    assert "input_chat_turn" in result.output


def test_an_unreadable_file_fails_naming_it(tmp_path):
    broken = tmp_path / "character_card.parquet"
    broken.write_bytes(b"this is not a parquet file at all")
    inputs = fixture_inputs("seed_000") | {"character_card": broken}
    result = run_dbt(["run"], tmp_path / "run", inputs, check=False)
    assert result.returncode != 0
    assert "character_card.parquet" in result.output


def test_a_missing_required_csv_column_fails_naming_it(tmp_path):
    lexicon = tmp_path / "topic_lexicon.csv"
    lexicon.write_text("term,term_order\n선거,1\n", encoding="utf-8")
    inputs = fixture_inputs("seed_000") | {"topic_lexicon": lexicon}
    result = run_dbt(["run"], tmp_path / "run", inputs, check=False)
    assert result.returncode != 0
    assert "topic_lexicon.csv" in result.output and "'topic'" in result.output


def test_fixture_files_exist():
    assert (FIXTURES / "bad_rows" / "chat_turn.jsonl").exists()


def test_a_glob_of_files_numbers_rows_per_file(tmp_path):
    """Two chat_turn files read through one glob: rows from both are staged, and a bad row is
    quarantined with its own file and its line number in that file."""
    source = fixture_inputs("seed_000")
    lines = source["chat_turn"].read_text(encoding="utf-8").splitlines()
    folder = tmp_path / "turns"
    folder.mkdir()
    (folder / "part-1.jsonl").write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    broken = json.loads(lines[4])
    broken["created_at"] = "어제 저녁"
    (folder / "part-2.jsonl").write_text(
        "\n".join([*lines[5:7], json.dumps(broken, ensure_ascii=False), lines[7]]) + "\n",
        encoding="utf-8",
    )
    result = run_dbt(BUILD, tmp_path / "run", source | {"chat_turn": folder / "part-*.jsonl"})
    (row,) = result.rows("select * from marts.fct_contract_violations")
    assert row["source_file"].endswith("part-2.jsonl")
    assert (row["source_row"], row["reason_code"]) == (3, "unparsable_timestamp")
    assert result.rows("select count(*) as n from staging.stg_chat_logs__turns") == [{"n": 7}]


def test_dbt_and_python_read_one_contract(tmp_path):
    """input_contract(), built from dbt's graph (the sources' meta), is the dict
    python_udfs/contract.py reads from the same YAML: tables, columns, keys and their order."""
    result = run_dbt(["run-operation", "print_input_contract", "--quiet"], tmp_path)
    (line,) = [line for line in result.output.splitlines() if line.startswith("{")]
    assert json.dumps(json.loads(line)) == json.dumps(INPUT_CONTRACT)
