"""A smoke run of bench/run.py (`--quick`: 20,000 turns, 1,000 terms), so that a change to the
models cannot break the benchmark unnoticed: every step runs, the build's verdicts equal the
per-row baseline's row for row, and the lexicon model agrees with the naive join."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_quick_benchmark_runs_every_step_and_agrees(tmp_path):
    command = [sys.executable, os.path.join(ROOT, "bench", "run.py"), "--quick"]
    run = subprocess.run(
        [*command, "--results-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    results = json.loads((tmp_path / "results.json").read_text("utf-8"))
    (build,) = results["builds"]
    assert build["rc"] == 0 and build["nodes"], build
    verdicts = results["verdicts"]["typical"]
    assert verdicts["dbt_rows"] == verdicts["baseline_rows"] == 20_000
    assert verdicts["turns_differing"] == 0, verdicts["sample"]
    lexicon = results["lexicon"]
    assert lexicon["turns"] == 20_000 and lexicon["terms"] == 1_000
    assert lexicon["turns_with_hit"] > 0 and lexicon["disagreements"] == 0, lexicon
    assert "lexicon step: naive contains() join" in (tmp_path / "RESULTS.md").read_text("utf-8")
