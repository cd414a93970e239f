"""Shared helpers: run the real dbt project against fixture files in a throwaway database."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DBT = str(Path(sys.executable).parent / "dbt")
# Seeds, models (the export included) and the data tests on the test's inputs. Unit tests are
# left out: they read fixed fixtures, whatever the inputs, and `make test`'s own `dbt build`
# runs them (test_analyst_builds runs them on an analyst's build on purpose).
BUILD = ["build", "--exclude-resource-type", "unit_test"]
# Seeds and models (the export included) without the data and unit tests: for a test that reads
# what a build made and proves nothing about the tests themselves.
BUILD_WITHOUT_TESTS = [
    "build",
    "--exclude-resource-type",
    "test",
    "--exclude-resource-type",
    "unit_test",
]


# Every test has one kind, by its module; `pytest -m unit` runs in seconds, and plain `pytest`
# leaves out the tests of the benchmark's own tools (`make test` runs every kind).
# Python and DuckDB only, no dbt:
UNIT_MODULES = {
    "test_contract",
    "test_demo_data",
    "test_normalize_text",
    "test_udfs",
    "test_spark_compare_engines",
}
BENCH_MODULES = {"test_bench_baseline", "test_bench_run"}  # bench/: its inputs, baseline, run
BROWSER_MODULES = {"test_dashboard", "test_dashboard_review"}  # the screen in Debian's chromium
# Need dbt-spark or a Spark build's output: `make test-spark` runs them after its builds.
SPARK_MODULES = {"test_spark_export", "test_spark_skips", "test_spark_incremental"}
# every other module is e2e: it runs dbt on fixture files


def pytest_collection_modifyitems(config, items):
    for item in items:
        module = item.module.__name__
        if module in UNIT_MODULES:
            item.add_marker(pytest.mark.unit)
        elif module in BENCH_MODULES:
            item.add_marker(pytest.mark.bench)
        elif module in BROWSER_MODULES:
            item.add_marker(pytest.mark.browser)
        elif module in SPARK_MODULES:
            item.add_marker(pytest.mark.spark)
        else:
            item.add_marker(pytest.mark.e2e)


@dataclass
class DbtResult:
    returncode: int
    output: str
    database: Path
    export: Path

    def connect(self) -> duckdb.DuckDBPyConnection:
        return duckdb.connect(str(self.database), read_only=True)

    def rows(self, sql: str) -> list[dict]:
        with self.connect() as con:
            cursor = con.execute(sql)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def run_dbt(
    command: list[str],
    workdir: Path,
    inputs: dict[str, Path | str] | None = None,
    extra_vars: dict | None = None,
    database: Path | None = None,
    check: bool = True,
    project_dir: Path = PROJECT_ROOT,
    env: dict[str, str] | None = None,
) -> DbtResult:
    """Run `dbt <command>` on the project with its own database, target dir and export path."""
    workdir.mkdir(parents=True, exist_ok=True)
    database = database or workdir / "card_keeper.duckdb"
    export = workdir / "turn_verdicts.json"
    dbt_vars = {"export_path": str(export)}
    for name, path in (inputs or {}).items():
        dbt_vars[f"input_{name}"] = str(path)
    if "CARD_KEEPER_REVIEWS" not in {**os.environ, **(env or {})}:
        # The reviewers' decisions (docs/rules.md#reviewer-decisions) of this test only: a
        # `reviews/` folder at the project root is someone's screen, not a fixture.
        dbt_vars["reviews_dir"] = str(workdir / "reviews")
    dbt_vars.update(extra_vars or {})
    env = {
        **os.environ,
        "CARD_KEEPER_DB": str(database),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "0",
        **(env or {}),
    }
    process = subprocess.run(
        [
            DBT,
            *command,
            "--project-dir",
            str(project_dir),
            "--profiles-dir",
            str(project_dir),
            "--target-path",
            str(workdir / "target"),
            "--log-path",
            str(workdir / "logs"),
            "--vars",
            json.dumps(dbt_vars, ensure_ascii=False),
        ],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = process.stdout + process.stderr
    if check and process.returncode != 0:
        pytest.fail(f"dbt {' '.join(command)} failed:\n{output[-6000:]}")
    return DbtResult(process.returncode, output, database, export)


def fixture_inputs(name: str) -> dict[str, Path]:
    """The three input files of a fixture folder, whatever their extensions."""
    folder = FIXTURES / name
    found = {}
    for table in ("chat_turn", "character_card", "topic_lexicon"):
        matches = sorted(folder.glob(f"{table}.*"))
        assert len(matches) == 1, f"{folder} must hold exactly one {table}.* file"
        found[table] = matches[0]
    return found


def copy_database(result: DbtResult, target: Path) -> Path:
    shutil.copy(result.database, target)
    return target


@pytest.fixture(scope="session")
def seed_000_build(tmp_path_factory) -> DbtResult:
    """The seed_000 fixture built once (seeds, models, data tests, export) for every
    test that only reads what it built; a test that writes works on a copy (copy_database)."""
    return run_dbt(BUILD, tmp_path_factory.mktemp("seed_000_build"), fixture_inputs("seed_000"))


def copy_build(result: DbtResult, folder: Path) -> DbtResult:
    """`result` with its database copied into `folder` under the same file name, so that SQL
    dbt compiled for it (its catalog is the file's stem) runs on the copy unchanged."""
    return DbtResult(
        result.returncode,
        result.output,
        copy_database(result, folder / result.database.name),
        result.export,
    )


@pytest.fixture
def seed_000_copy(seed_000_build, tmp_path) -> DbtResult:
    """A private copy of the seed_000 build's database, for a test that writes to it."""
    return copy_build(seed_000_build, tmp_path)


def copy_project(target: Path) -> Path:
    """A copy of the dbt project (no venv, build output or databases) to edit seeds in."""
    ignore = shutil.ignore_patterns(
        ".venv",
        ".git",
        "target",
        "logs",
        "*.duckdb",
        "*.duckdb.wal",
        "uploads",
        "reviews",
        "bench",
        "__pycache__",
        "exports",
        "docs",
    )
    shutil.copytree(PROJECT_ROOT, target, ignore=ignore)
    return target
