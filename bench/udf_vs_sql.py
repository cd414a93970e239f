"""Issue 3's small benchmark: tone and lexicon matching as plain SQL against Python UDFs.

    .venv/bin/python bench/udf_vs_sql.py [--turns 200000] [--terms 5000]

It generates inputs with bench/generate.py, builds the staging models with dbt, then times,
on the same DuckDB connection with the project's plugin registered:
  tone:    the SQL of int_turns_toned (as dbt compiled it)  vs  ck_tone() per reply
  lexicon: the SQL of int_turns_matched_to_lexicon (Aho-Corasick UDF)  vs  a join of every
           turn with every term on contains() (on a sample; its cost is linear in turns)
The faster of each pair is what the project uses; docs/performance.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from python_udfs.plugin import Plugin  # noqa: E402

OUT = ROOT / "bench" / "out" / "udf_vs_sql"


def compiled(model: str, folder: str = "intermediate") -> str:
    path = OUT / "target" / "compiled" / "card_keeper" / "models" / folder / f"{model}.sql"
    return path.read_text(encoding="utf-8")


def timed(con: duckdb.DuckDBPyConnection, sql: str) -> float:
    started = time.perf_counter()
    con.execute(sql)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200_000)
    parser.add_argument("--terms", type=int, default=5_000)
    parser.add_argument("--naive-sample", type=int, default=20_000)
    args = parser.parse_args()

    data = OUT / f"data_{args.turns}_{args.terms}"
    if not (data / "chat_turn.jsonl").exists():
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "bench" / "generate.py"),
                "--turns",
                str(args.turns),
                "--terms",
                str(args.terms),
                "--seed",
                "7",
                "--format",
                "jsonl",
                "--out",
                str(data),
            ],
            check=True,
        )
    database = OUT / "bench.duckdb"
    database.unlink(missing_ok=True)
    dbt_vars = {
        "input_chat_turn": str(data / "chat_turn.jsonl"),
        "input_character_card": str(data / "character_card.jsonl"),
        "input_topic_lexicon": str(data / "topic_lexicon.jsonl"),
        "export_path": str(OUT / "turn_verdicts.json"),
    }
    subprocess.run(
        [
            str(Path(sys.executable).parent / "dbt"),
            "build",
            "--resource-type",
            "seed",
            "--resource-type",
            "model",
            "--select",
            "+int_turns_toned",
            "+int_turns_matched_to_lexicon",
            "--project-dir",
            str(ROOT),
            "--profiles-dir",
            str(ROOT),
            "--target-path",
            str(OUT / "target"),
            "--log-path",
            str(OUT / "logs"),
            "--vars",
            json.dumps(dbt_vars),
            "--quiet",
        ],
        check=True,
        env={**os.environ, "CARD_KEEPER_DB": str(database)},
    )

    con = duckdb.connect(str(database))
    plugin = Plugin("card_keeper", {})
    plugin.configure_connection(con)
    terminators = ".?!．？！…"
    endings = "(select list(ending order by ending) from seeds.honorific_endings)"
    flags = "(select list(is_honorific order by ending) from seeds.honorific_endings)"
    results = {
        "tone_sql": timed(
            con, f"create or replace temp table tone_sql as {compiled('int_turns_toned')}"
        ),
        "tone_udf": timed(
            con,
            "create or replace temp table tone_udf as select turn_id, "
            f"ck_tone(reply_text, '{terminators}', {endings}, {flags}) as tone "
            "from staging.stg_chat_logs__turns",
        ),
        "lexicon_aho_corasick_udf": timed(
            con,
            "create or replace temp table lexicon_udf as "
            + compiled("int_turns_matched_to_lexicon"),
        ),
    }
    sample = min(args.naive_sample, args.turns)
    naive = timed(
        con,
        f"""
        create or replace temp table lexicon_naive as
        with turns as (
            select * from staging.stg_chat_logs__turns using sample {sample} rows (reservoir, 7)
        )
        select turns.turn_id, min(topic_terms.term_order) as first_order
        from turns
        inner join staging.stg_chat_logs__topic_terms as topic_terms
            on contains(turns.reply_text, topic_terms.term)
        group by turns.turn_id
        """,
    )
    results["lexicon_contains_join_extrapolated"] = naive * args.turns / sample
    disagreements = con.execute(
        "select count(*) from tone_sql full join tone_udf using (turn_id) "
        "where tone_sql.tone is distinct from tone_udf.tone"
    ).fetchone()[0]
    con.close()

    print(f"{args.turns:,} turns, {args.terms:,} lexicon terms, {os.cpu_count()} cores")
    for name, seconds in results.items():
        print(f"  {name:<38} {seconds:8.2f} s  {args.turns / seconds:12,.0f} turns/s")
    print(f"  tone: SQL is {results['tone_udf'] / results['tone_sql']:.1f}x faster than the UDF")
    ratio = results["lexicon_contains_join_extrapolated"] / results["lexicon_aho_corasick_udf"]
    print(f"  lexicon: the Aho-Corasick UDF is {ratio:.0f}x faster than the contains() join")
    print(f"  tone SQL and UDF disagree on {disagreements} turns")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
