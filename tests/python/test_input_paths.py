"""Input paths as analysts type them: `~` and $NAME expand, the inputs can be set once in the
environment, `./data/demo/…` is the demo, and a partial run never mixes two input sets."""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from conftest import FIXTURES, PROJECT_ROOT, fixture_inputs, run_dbt

SEED_000 = FIXTURES / "seed_000"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def write_analyst_logs(home: Path) -> int:
    """Seed 000's fixture as an analyst might keep it under ~/logs: the turns in two Parquet
    files, the cards, lexicon and labels as CSV (lists as JSON text). Returns the turns."""
    logs = home / "logs"
    (logs / "turns").mkdir(parents=True)
    turns = read_jsonl(SEED_000 / "chat_turn.jsonl")
    half = len(turns) // 2
    for number, part in enumerate((turns[:half], turns[half:])):
        pq.write_table(pa.Table.from_pylist(part), logs / "turns" / f"day-{number}.parquet")
    cards = read_jsonl(SEED_000 / "character_card.jsonl")
    with (logs / "cards.csv").open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(cards[0]))
        writer.writeheader()
        for card in cards:
            writer.writerow(
                {
                    key: json.dumps(value, ensure_ascii=False)
                    if isinstance(value, list | bool)
                    else value
                    for key, value in card.items()
                }
            )
    (logs / "lexicon.csv").write_bytes((SEED_000 / "topic_lexicon.csv").read_bytes())
    (logs / "labels.csv").write_text(
        "turn_id,expected_verdict,note\n"
        f"{turns[0]['turn_id']},설정대로 말함,동생 이야기에 반말로 답함\n",
        encoding="utf-8",
    )
    return len(turns)


def readme_blocks(section: str) -> list[str]:
    text = (PROJECT_ROOT / "README.md").read_text("utf-8")
    body = text.split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)```", body, flags=re.S)


def run_shell(script: str, home: Path, database: Path) -> subprocess.CompletedProcess:
    venv_bin = str(Path(sys.executable).parent)
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("CARD_KEEPER_")},
        "HOME": str(home),
        "CARD_KEEPER_DB": str(database),
        "DBT_TARGET_PATH": str(home / "target"),
        "DBT_LOG_PATH": str(home / "dbt_logs"),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "0",
    }
    # The README's commands run from the project root, as a newcomer would, with its venv.
    script = script.replace(".venv/bin/dbt", f"{venv_bin}/dbt")
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def count(database: Path, sql: str) -> int:
    import duckdb

    with duckdb.connect(str(database), read_only=True) as con:
        return con.execute(sql).fetchone()[0]


def test_readme_own_logs_section_works_as_written(tmp_path):
    home = tmp_path / "home"
    turns = write_analyst_logs(home)
    database = tmp_path / "own.duckdb"
    with_vars, with_environment = readme_blocks("Your own logs")
    assert "~/logs/" in with_vars and "export CARD_KEEPER_CHAT_TURN" in with_environment

    first = run_shell(with_vars, home, database)
    assert first.returncode == 0, first.stdout[-4000:] + first.stderr[-2000:]
    assert count(database, "select count(*) from marts.fct_turn_verdicts") == turns
    assert count(database, "select count(*) from marts.fct_golden_agreement") == 1

    # Set once in the environment: the full build, then a partial one without --vars.
    second = run_shell(
        with_environment + "\n.venv/bin/dbt build --select fct_turn_verdicts+\n", home, database
    )
    assert second.returncode == 0, second.stdout[-4000:] + second.stderr[-2000:]
    # The same files: ingested by the first build, none read again, every verdict kept.
    assert (
        count(
            database,
            "select count(*) from marts.fct_ingested_files where file_status <> 'ingested'",
        )
        == 0
    )
    assert count(database, "select count(*) from marts.fct_turn_verdicts") == turns
    assert count(database, "select count(*) from marts.fct_golden_agreement") == 1


def test_partial_build_refuses_to_mix_input_sets(seed_000_copy, tmp_path):
    inputs = fixture_inputs("seed_000")
    full = seed_000_copy
    turns = full.rows("select count(*) as n from raw.chat_turn")[0]["n"]

    partial = run_dbt(
        ["build", "--select", "fct_turn_verdicts"],
        tmp_path / "partial",
        database=full.database,
        check=False,
    )
    assert partial.returncode != 0
    assert "would mix two input sets" in partial.output
    assert f"the database was built from {inputs['chat_turn']}" in partial.output
    # Stopped before the raw views were re-pointed at the demo.
    assert full.rows("select count(*) as n from raw.chat_turn")[0]["n"] == turns

    # The same inputs (or a full build of other ones) are fine.
    again = run_dbt(
        ["test", "--select", "fct_turn_verdicts"],
        tmp_path / "again",
        inputs,
        database=full.database,
    )
    assert "PASS=" in again.output


def test_dot_slash_demo_path_keeps_demo_labels(tmp_path):
    result = run_dbt(
        ["build", "--select", "+base_chat_logs__golden_labels", "--exclude-resource-type", "test"],
        tmp_path,
        {"chat_turn": "./data/demo/chat_turn.jsonl"},
    )
    assert result.rows("select count(*) as n from staging.base_chat_logs__golden_labels")[0]["n"]


def test_input_paths_expand_home_and_environment_variables(tmp_path):
    result = run_dbt(
        [
            "show",
            "--output",
            "json",
            "--inline",
            'select \'{{ resolve_input_path("~/logs/./a/../turns.csv", "/project") }}\' as home, '
            '\'{{ resolve_input_path("${CK_TEST_DIR}/x//y.jsonl", "/project") }}\' as braced, '
            '\'{{ resolve_input_path("$CK_TEST_DIR/z.csv", "/project") }}\' as bare, '
            '\'{{ resolve_input_path("data/demo/*.jsonl", "/project") }}\' as relative',
        ],
        tmp_path,
        env={"HOME": "/home/분석가", "CK_TEST_DIR": "/srv/로그"},
    )
    # dbt show prints its JSON with non-ASCII escaped: read it as JSON, not as text.
    shown = json.loads(result.output[result.output.index("{\n") :])["show"][0]
    assert shown == {
        "home": "/home/분석가/logs/turns.csv",
        "braced": "/srv/로그/x/y.jsonl",
        "bare": "/srv/로그/z.csv",
        "relative": "/project/data/demo/*.jsonl",
    }
