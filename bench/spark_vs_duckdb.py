"""The same generated input built on DuckDB and on local Spark, timed, then compared row for row.

    python bench/spark_vs_duckdb.py [--turns 100000] [--terms 5000] [--mix typical]

Generates the input with bench/generate.py (kept under bench/out/inputs/ for the next run), runs
the production build (`dbt build --exclude-resource-type unit_test`: seeds, models, data tests,
export) once per engine into bench/out/spark_vs_duckdb/<engine>/, timing each whole process,
then runs scripts/compare_engines.py on the two. Prints one table of wall times and the
comparison's outcome; exits 1 if a build fails or any verdict row differs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DBT = ROOT / ".venv" / "bin" / "dbt"
PY = ROOT / ".venv" / "bin" / "python"
OUT = ROOT / "bench" / "out"


def inputs(turns: int, terms: int, mix: str) -> Path:
    folder = OUT / "inputs" / f"{mix}_t{turns}_m{terms}_spark_vs_duckdb"
    if not (folder / "complete").exists():
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run(
            [PY, ROOT / "bench" / "generate.py", "--turns", str(turns), "--terms", str(terms),
             "--mix", mix, "--out", folder],
            check=True,
        )  # fmt: skip
        (folder / "complete").touch()
    return folder


def build(target: str, folder: Path, work: Path) -> dict:
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    dbt_vars = {
        "input_chat_turn": str(folder / "chat_turn.jsonl"),
        "input_character_card": str(folder / "character_card.jsonl"),
        "input_topic_lexicon": str(folder / "topic_lexicon.jsonl"),
        "export_path": str(work / "turn_verdicts.json"),
    }
    env = dict(
        os.environ,
        CARD_KEEPER_DB=str(work / "card_keeper.duckdb"),
        CARD_KEEPER_SPARK_DIR=str(work / "spark"),
        DBT_SEND_ANONYMOUS_USAGE_STATS="false",
    )
    command = [
        DBT, "build", "--target", target, "--exclude-resource-type", "unit_test",
        "--project-dir", ROOT, "--profiles-dir", ROOT, "--target-path", work / "target",
        "--log-path", work / "logs", "--vars", json.dumps(dbt_vars, ensure_ascii=False),
    ]  # fmt: skip
    print(f"dbt build --target {target} ...", flush=True)
    started = time.monotonic()
    with open(work / "dbt.log", "w") as log:
        rc = subprocess.run(command, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    wall = time.monotonic() - started
    results = json.loads((work / "target" / "run_results.json").read_text())
    return {"rc": rc, "wall_s": wall, "dbt_s": results["elapsed_time"], "work": work}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--terms", type=int, default=5_000)
    ap.add_argument("--mix", choices=["typical", "deviant"], default="typical")
    a = ap.parse_args()
    folder = inputs(a.turns, a.terms, a.mix)
    # Folder names without spaces: Spark's warehouse and Derby paths take none.
    runs = {
        engine: build(target, folder, OUT / "spark_vs_duckdb" / target)
        for engine, target in (("DuckDB", "dev"), ("Spark (local[2])", "spark"))
    }
    failed = [engine for engine, run in runs.items() if run["rc"] != 0]
    compared = subprocess.run(
        [PY, ROOT / "scripts" / "compare_engines.py",
         runs["DuckDB"]["work"] / "card_keeper.duckdb", runs["Spark (local[2])"]["work"] / "spark"],
        capture_output=True, text=True,
    )  # fmt: skip
    print(compared.stdout, end="")
    print(f"\n{a.turns:,} turns x {a.terms:,} terms ({a.mix}), bench/spark_vs_duckdb.py:\n")
    print("| engine | build wall s | dbt elapsed s | turns/s |")
    print("|---|---:|---:|---:|")
    for engine, run in runs.items():
        rate = a.turns / run["wall_s"]
        print(f"| {engine} | {run['wall_s']:.1f} | {run['dbt_s']:.1f} | {rate:,.0f} |")
    same = "identical" if compared.returncode == 0 else "DIFFERENT"
    print(f"\nverdict marts on the two engines: {same}")
    if failed:
        print(f"build failed: {', '.join(failed)} (logs under {OUT / 'spark_vs_duckdb'})")
    return 1 if failed or compared.returncode != 0 else 0


if __name__ == "__main__":
    sys.exit(main())
