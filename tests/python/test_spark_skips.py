"""What a Spark build leaves out is exactly what its on-run-start log says it leaves out.

macros/schema/spark_skips.sql lists the nodes disabled on Spark with their reasons, and the
hook log_spark_skips prints that list; the nodes are disabled by their own configs. This lists
the project's models and tests for each target (dbt ls: no database needed) and holds the
difference to that list, the skipped models' own tests included. Needs dbt-spark (make
spark-setup); skipped without it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT

pytest.importorskip("dbt.adapters.spark", reason="dbt-spark is not installed (make spark-setup)")

DBT = str(Path(sys.executable).parent / "dbt")
SKIPS = (PROJECT_ROOT / "macros" / "schema" / "spark_skips.sql").read_text()


def listed(target: str, tmp_path: Path) -> set[str]:
    process = subprocess.run(
        [
            DBT,
            "ls",
            "--target",
            target,
            "--resource-type",
            "model",
            "--resource-type",
            "test",
            "--output",
            "name",
            "--quiet",
            "--project-dir",
            str(PROJECT_ROOT),
            "--profiles-dir",
            str(PROJECT_ROOT),
            "--target-path",
            str(tmp_path / target),
            "--log-path",
            str(tmp_path / "logs"),
        ],
        env={
            **os.environ,
            "CARD_KEEPER_DB": str(tmp_path / "never_opened.duckdb"),
            "CARD_KEEPER_SPARK_DIR": str(tmp_path / "spark"),
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "0",
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 0, process.stdout + process.stderr
    return set(process.stdout.split())


def test_the_nodes_left_out_on_spark_are_the_logged_ones(tmp_path):
    body = re.search(r"macro spark_skipped_nodes\(\).*?return\(\{(.*?)\}\)", SKIPS, re.S)
    logged = set(re.findall(r"'([a-z0-9_]+)':", body.group(1)))
    left_out = listed("dev", tmp_path) - listed("spark", tmp_path)
    # A skipped model's generic tests go with it (their names hold the model's).
    own_tests = {name for name in left_out if any(f"_{node}_" in name for node in logged)}
    assert left_out - own_tests == logged
