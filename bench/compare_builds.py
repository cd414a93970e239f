"""Compare the turn-level marts of two card_keeper databases row for row.

    python bench/compare_builds.py BEFORE.duckdb AFTER.duckdb

For each of fct_turn_verdicts, fct_turn_evidence, fct_turn_checks and fct_contract_violations it
prints both row counts and the rows found in one database and not the other (a multiset
difference over every column the two tables share), then exits 1 if any table differs.
Use it to show that a change to the models left every verdict as it was.
"""

from __future__ import annotations

import argparse
import sys

import duckdb

TABLES = ["fct_turn_verdicts", "fct_turn_evidence", "fct_turn_checks", "fct_contract_violations"]
SHOWN = 5


def _columns(con: duckdb.DuckDBPyConnection, db: str, table: str) -> list[str]:
    rows = con.execute(
        "select column_name from information_schema.columns"
        " where table_catalog = ? and table_name = ? order by ordinal_position",
        [db, table],
    ).fetchall()
    return [r[0] for r in rows]


def compare(before: str, after: str) -> int:
    con = duckdb.connect()
    con.execute(f"attach '{before}' as before_db (read_only)")
    con.execute(f"attach '{after}' as after_db (read_only)")
    differing = 0
    for table in TABLES:
        cols_a = _columns(con, "before_db", table)
        cols_b = _columns(con, "after_db", table)
        shared = [c for c in cols_a if c in cols_b]
        only = sorted(set(cols_a) ^ set(cols_b))
        select = ", ".join(f'"{c}"' for c in shared)
        a = f"(select {select} from before_db.marts.{table})"
        b = f"(select {select} from after_db.marts.{table})"
        n_a = con.execute(f"select count(*) from {a}").fetchone()[0]
        n_b = con.execute(f"select count(*) from {b}").fetchone()[0]
        # Each difference computed once, then counted and sampled.
        con.execute(f"create or replace temp table only_before as {a} except all {b}")
        con.execute(f"create or replace temp table only_after as {b} except all {a}")
        n_gone = con.execute("select count(*) from only_before").fetchone()[0]
        n_new = con.execute("select count(*) from only_after").fetchone()[0]
        gone = con.execute(f"select * from only_before limit {SHOWN}").fetchall()
        new = con.execute(f"select * from only_after limit {SHOWN}").fetchall()
        status = "identical" if n_gone == n_new == 0 else "DIFFERENT"
        print(
            f"{table}: {n_a:,} rows before, {n_b:,} after, {len(shared)} columns compared;"
            f" {n_gone:,} rows only before, {n_new:,} only after: {status}"
        )
        if only:
            print(f"  columns in one database only (not compared): {', '.join(only)}")
        for label, rows in (("only before", gone), ("only after", new)):
            for row in rows:
                print(f"  {label}: {dict(zip(shared, row, strict=True))}")
        differing += n_gone + n_new
    return 1 if differing else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    args = ap.parse_args()
    sys.exit(compare(args.before, args.after))


if __name__ == "__main__":
    main()
