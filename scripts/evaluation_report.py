"""Print the evaluation runner's figures from a built database (docs/rules.md#evaluation).

    .venv/bin/python scripts/evaluation_report.py [path/to/card_keeper.duckdb]

Every figure is read from the marts; nothing here computes or types a number of its own.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from pathlib import Path

import duckdb

DEFAULT_DB = Path(__file__).resolve().parent.parent / "card_keeper.duckdb"


def width(text: str) -> int:
    """Columns a text takes in a terminal: Hangul and other wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, columns: int) -> str:
    return text + " " * (columns - width(text))


def table(con: duckdb.DuckDBPyConnection, sql: str) -> str:
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    rows = [
        ["" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v)) for v in r]
        for r in cursor.fetchall()
    ]
    widths = [max(width(x) for x in col) for col in zip(names, *rows, strict=False)]
    lines = ["  ".join(pad(v, w) for v, w in zip(r, widths, strict=True)) for r in [names, *rows]]
    return "\n".join(line.rstrip() for line in lines)


def main() -> int:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CARD_KEEPER_DB", DEFAULT_DB))
    with duckdb.connect(str(path), read_only=True) as con:
        summary = con.execute("select * from marts.fct_golden_agreement_summary").fetchone()
        labelled, agreeing, _, rate, low, high = summary
        print("== Golden agreement (marts.fct_golden_agreement_summary)")
        if labelled is None:
            print("no golden labels in this build: self-scoring is empty")
        else:
            print(
                f"{agreeing} of {labelled} labelled turns agree: {rate:.1%} "
                f"(Wilson 95% {low:.1%}–{high:.1%})"
            )
            print("\n== Disagreements by (expected, predicted)")
            print(
                table(
                    con,
                    """
                select expected_verdict, predicted_verdict, turns, turn_ids
                from marts.fct_golden_disagreements where group_kind = 'verdict_pair'
                order by turns desc, expected_verdict""",
                )
            )
            print("\n== Disagreements by check")
            print(
                table(
                    con,
                    """
                select disagreement_check, turns, turn_ids
                from marts.fct_golden_disagreements where group_kind = 'check'
                order by turns desc, disagreement_check""",
                )
            )
        print("\n== Deviation rate per model (marts.fct_model_deviation_rates, Wilson 95%)")
        print(
            table(
                con,
                """
            select scope, model_id, turns, deviations, deviation_rate, ci_low, ci_high,
                   register_turns, off_canon_turns, forbidden_topic_turns, forgot_recall_turns
            from marts.fct_model_deviation_rates where grain = 'model'
            order by scope, model_id""",
            )
        )
        print("\n== Paired comparison on shared prompts (marts.fct_model_pairwise_deviations)")
        print(table(con, "select * from marts.fct_model_pairwise_deviations order by 1, 2"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
