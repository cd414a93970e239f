"""Incremental builds on Spark (docs/spark.md#incremental-builds-on-spark): the daily batches
of test_incremental.py (sessions across batches, an ending added, cards edited, a late turn,
a duplicate across batches) built one after the other into one Spark warehouse end with the
same turn-level marts, row for row, as one full build of the same files. The full build is
DuckDB's, which `make test-spark` holds equal to Spark's own full build on every input set.

Needs dbt-spark and Java (`make spark-setup`); `make test-spark` runs it.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import duckdb
import pytest
from conftest import PROJECT_ROOT, run_dbt
from test_incremental import DailyBatches

pytest.importorskip("dbt.adapters.spark", reason="dbt-spark is not installed: make spark-setup")
SCRIPT = PROJECT_ROOT / "scripts" / "compare_engines.py"
spec = importlib.util.spec_from_file_location("compare_engines", SCRIPT)
compare_engines = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_engines)

# The batches' builds make the seeds and the models up to the four compared marts; the data
# tests and the other marts run in `make test-spark`'s full builds.
NO_TESTS = [
    "build",
    "--exclude-resource-type",
    "unit_test",
    "--exclude-resource-type",
    "test",
    "--select",
    "+fct_turn_verdicts +fct_turn_evidence +fct_turn_checks +fct_contract_violations",
]
SPARK_BUILD = [*NO_TESTS, "--target", "spark"]
# The columns that name the build which wrote a row (the Spark partition column among them).
IGNORED = ["judged_by"]


def warehouse_rows(spark_dir: Path, schema: str, table: str, sql: str) -> list[tuple]:
    """`sql` over a Spark table's Parquet files, read by DuckDB as `stored` (partition
    columns from the folder names)."""
    files = str(spark_dir / "warehouse" / f"{schema}.db" / table / "**" / "*.parquet")
    with duckdb.connect() as con:
        con.execute(
            "create view stored as select * from read_parquet('"
            + files.replace("'", "''")
            + "', hive_partitioning = true, hive_types_autocast = false)"
        )
        return con.execute(sql).fetchall()


def invocation_id(workdir: Path) -> str:
    results = json.loads((workdir / "target" / "run_results.json").read_text(encoding="utf-8"))
    return results["metadata"]["invocation_id"]


@pytest.fixture(scope="module")
def spark_builds(tmp_path_factory):
    root = tmp_path_factory.mktemp("spark-incremental")
    # Four Spark builds, not five: the late turn, the duplicate and the plain new turns in one.
    daily = DailyBatches(root, merged_tail=True)
    inputs, project = daily.inputs, daily.project
    spark_dir = root / "spark"
    env = {"CARD_KEEPER_SPARK_DIR": str(spark_dir)}
    reasons, ingested = [], []
    for number in daily:
        workdir = root / f"batch-{number + 1}"
        run_dbt(SPARK_BUILD, workdir, inputs, project_dir=project, env=env)
        build = invocation_id(workdir)
        reasons.append(
            Counter(
                dict(
                    warehouse_rows(
                        spark_dir,
                        "intermediate",
                        "int_turn_judging_state",
                        "select judge_reason, count(*) from stored"
                        f" where judged_by = '{build}' group by judge_reason",
                    )
                )
            )
        )
        ingested.append(
            warehouse_rows(
                spark_dir,
                "audit",
                "ingested_files",
                f"select file_path from stored where ingested_by = '{build}'",
            )
        )
    # The same files, in the same folder, into an empty DuckDB database.
    full = run_dbt(NO_TESTS, root / "full", inputs, project_dir=project)
    return {
        "spark_dir": spark_dir,
        "full": full,
        "reasons": reasons,
        "ingested": ingested,
        "incoming": daily.incoming,
        "days": daily.days,
        "picked": daily.picked,
    }


def test_spark_daily_batches_end_with_the_full_build_row_for_row(spark_builds, capsys):
    differing = compare_engines.compare(
        str(spark_builds["full"].database), str(spark_builds["spark_dir"]), ignored=IGNORED
    )
    printed = capsys.readouterr().out
    for table in compare_engines.TABLES:
        assert f"{table}: " in printed
    assert differing == 0, printed


def test_spark_batches_judged_what_changed(spark_builds):
    first, second, third, fourth = spark_builds["reasons"]
    assert set(first) == {"full_build"}
    assert set(second) == {"rules_changed"}
    assert {"card_changed", "turn_removed"} <= set(third)
    assert set(fourth) == {"new_turn", "late_turn"}


def test_spark_ledger_reads_each_file_once(spark_builds):
    """Each build ingested exactly the day's file it was given (the ledger in audit)."""
    incoming, days = spark_builds["incoming"], spark_builds["days"]
    assert spark_builds["ingested"] == [[(str(incoming / day),)] for day in days]


def test_spark_late_turn_and_duplicate_across_batches(spark_builds):
    late, recalling = spark_builds["picked"]["late"], spark_builds["picked"]["recalling"]
    duplicate = spark_builds["picked"]["duplicate"]
    spark_dir = spark_builds["spark_dir"]
    assert warehouse_rows(
        spark_dir,
        "marts",
        "fct_turn_verdicts",
        f"select recall_source_turn from stored where turn_id = '{recalling['turn_id']}'",
    ) == [(late["turn_id"],)]
    assert warehouse_rows(
        spark_dir,
        "marts",
        "fct_contract_violations",
        "select regexp_replace(source_file, '^.*/', ''), reason_code from stored"
        f" where row_key = '{duplicate['turn_id']}'",
    ) == [("chat_turn_2026-11-04.jsonl", "duplicate_turn_id")]
    # One verdict per turn: no partition kept a turn's earlier verdict.
    assert warehouse_rows(
        spark_dir,
        "marts",
        "fct_turn_verdicts",
        "select count(*) - count(distinct turn_id) from stored",
    ) == [(0,)]
