"""scripts/compare_engines.py on tiny hand-made tables: a DuckDB file and a folder laid out like
a Spark warehouse (parquet files under warehouse/<schema>.db/<table>/), no Spark needed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

pytestmark = pytest.mark.unit

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "compare_engines.py"
spec = importlib.util.spec_from_file_location("compare_engines", SCRIPT)
compare_engines = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_engines)

# The same rows as each engine stores them: DuckDB with its own types, "Spark" with the types
# Spark writes to parquet (bigint for int, a zoned timestamp, a struct of another field order,
# a decimal for a double, an upper-case column name).
DUCKDB_TABLE = """
    select * from (values
        (1::integer, 'ok', ['a', 'b'], {'source': 'turn', 'field': 'text'},
         timestamp '2026-01-02 03:04:05', 0.25::double),
        (2::integer, '존댓말', [], {'source': 'card', 'field': null},
         timestamp '2026-01-02 03:04:06', null),
        (2::integer, '존댓말', [], {'source': 'card', 'field': null},
         timestamp '2026-01-02 03:04:06', null)
    ) as t(id, word, terms, citation, created_at, rate)
"""
SPARK_TABLE = """
    select * from (values
        (1::bigint, 'ok', ['a', 'b'], {'field': 'text', 'source': 'turn'},
         timestamptz '2026-01-02 03:04:05+00', 0.250::decimal(10, 3)),
        (2::bigint, '존댓말', [], {'field': null, 'source': 'card'},
         timestamptz '2026-01-02 12:04:06+09', null),
        (2::bigint, '존댓말', [], {'field': null, 'source': 'card'},
         timestamptz '2026-01-02 03:04:06+00', null)
    ) as t("ID", word, terms, citation, created_at, rate)
"""


def make_builds(tmp_path: Path, spark_sql: str = SPARK_TABLE) -> tuple[str, str]:
    """A DuckDB file with marts.t and a Spark folder with marts.t as two parquet parts."""
    db, spark = tmp_path / "duck.duckdb", tmp_path / "spark"
    with duckdb.connect(str(db)) as con:
        con.execute("create schema marts")
        con.execute(f"create table marts.t as {DUCKDB_TABLE}")
        con.execute("create table marts.empty_one (turn_id varchar)")
    folder = spark / "warehouse" / "marts.db" / "t"
    folder.mkdir(parents=True)
    with duckdb.connect() as con:
        con.execute("set TimeZone = 'UTC'")
        con.execute(f"create table t as {spark_sql}")
        # Spark writes a table as several part files beside a _SUCCESS marker.
        con.execute(f"copy (select * from t limit 1) to '{folder}/part-00000.snappy.parquet'")
        con.execute(f"copy (select * from t offset 1) to '{folder}/part-00001.snappy.parquet'")
        (folder / "_SUCCESS").touch()
        empty = spark / "warehouse" / "marts.db" / "empty_one"
        empty.mkdir()
        con.execute(f"copy (select ''::varchar as turn_id where false) to '{empty}/part-0.parquet'")
    return str(db), str(spark)


def test_same_rows_in_other_types_are_identical(tmp_path, capsys):
    db, spark = make_builds(tmp_path)
    assert compare_engines.compare(db, spark, ["t", "empty_one"]) == 0
    out = capsys.readouterr().out
    assert "t: 3 rows in DuckDB, 3 in Spark, 6 columns compared;" in out
    assert "0 rows only in DuckDB, 0 only in Spark: identical" in out
    assert "empty_one: 0 rows in DuckDB, 0 in Spark, 1 columns compared;" in out


def test_a_changed_row_and_a_lost_duplicate_differ(tmp_path):
    # The first row's word changed, and one of the two identical rows is gone.
    changed = """
        select * from (values
            (1::bigint, 'OK', ['a', 'b'], {'field': 'text', 'source': 'turn'},
             timestamptz '2026-01-02 03:04:05+00', 0.25),
            (2::bigint, '존댓말', [], {'field': null, 'source': 'card'},
             timestamptz '2026-01-02 03:04:06+00', null)
        ) as t(id, word, terms, citation, created_at, rate)
    """
    db, spark = make_builds(tmp_path, changed)
    process = subprocess.run(
        [sys.executable, str(SCRIPT), db, spark, "--table", "t", "--only"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 1, process.stdout + process.stderr
    lines = process.stdout.splitlines()
    assert lines[0] == (
        "t: 3 rows in DuckDB, 2 in Spark, 6 columns compared;"
        " 2 rows only in DuckDB, 1 only in Spark: DIFFERENT"
    )
    assert any(line.startswith("  only in DuckDB: {'id': 1, 'word': 'ok'") for line in lines)
    assert any(line.startswith("  only in DuckDB: {'id': 2, 'word': '존댓말'") for line in lines)
    assert any(line.startswith("  only in Spark: {'id': 1, 'word': 'OK'") for line in lines)


def test_a_float_off_past_the_compared_digits_is_the_same(tmp_path):
    db, spark = make_builds(
        tmp_path, SPARK_TABLE.replace("0.250::decimal(10, 3)", "0.25000000000001")
    )
    assert compare_engines.compare(db, spark, ["t"]) == 0
    assert compare_engines.compare(db, spark, ["t"], float_digits=15) == 1


def test_a_missing_table_or_column_is_a_difference(tmp_path, capsys):
    db, spark = make_builds(tmp_path, SPARK_TABLE.replace(", rate)", ", rate_of_turns)"))
    assert compare_engines.compare(db, spark, ["t"]) == 1
    assert (
        "columns on one engine only (not compared): rate, rate_of_turns" in capsys.readouterr().out
    )
    assert compare_engines.compare(db, spark, ["fct_turn_verdicts"]) == 1
    assert "fct_turn_verdicts: missing in DuckDB marts.fct_turn_verdicts and Spark" in (
        capsys.readouterr().out
    )


def test_an_ignored_column_is_left_out(tmp_path, capsys):
    db, spark = make_builds(tmp_path, SPARK_TABLE.replace("'ok'", "'OK'"))
    assert compare_engines.compare(db, spark, ["t"]) == 1
    assert compare_engines.compare(db, spark, ["t"], ignored=["WORD"]) == 0
    assert "5 columns compared;" in capsys.readouterr().out.splitlines()[-2]
