"""Compare the turn-level marts of a DuckDB build and a Spark build row for row.

    python scripts/compare_engines.py DUCKDB_FILE SPARK_DIR [--table NAME ...] [--ignore COLUMN ...]

SPARK_DIR is the build's CARD_KEEPER_SPARK_DIR: each Spark table is read, with DuckDB, from the
parquet files under SPARK_DIR/warehouse/<schema>.db/<table>/, the place of a managed table of
the local Spark session. For each of fct_turn_verdicts, fct_turn_evidence, fct_turn_checks and
fct_contract_violations (and every --table) it prints both row counts and the rows found on one
engine and not the other (a multiset difference over every column the two tables share), then
exits 1 if any table differs, is missing or has a column on one engine only.

Values are compared after a normalisation that keeps what the marts mean and drops how each
engine stores it: integers of any width and decimals compare as numbers, floats after rounding
to --float-digits places (the two engines may add in a different order), timestamps with or
without a time zone as UTC wall time, lists as lists and structs or maps by field name, and
column names case-insensitively (Spark's metastore lowers them). --ignore leaves a column out
of every table's comparison: one that records when or by which build a row was written
(verdict_history.recorded_at and recorded_by) or where it wrote (export_turn_verdicts.export_path)
differs between any two builds.
"""

from __future__ import annotations

import argparse
import datetime as dt
import decimal
import sys
from collections import Counter
from pathlib import Path

import duckdb

TABLES = ["fct_turn_verdicts", "fct_turn_evidence", "fct_turn_checks", "fct_contract_violations"]
SHOWN = 5


def normalise(value, float_digits: int):
    """One value in a form both engines' storage maps to (see the module's docstring)."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, decimal.Decimal):
        return (
            int(value) if value == value.to_integral_value() else round(float(value), float_digits)
        )
    if isinstance(value, float):
        return float(value) if value != value else round(value, float_digits)  # NaN stays NaN
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
        return value
    if isinstance(value, (list, tuple)):
        return tuple(normalise(v, float_digits) for v in value)
    if isinstance(value, dict):
        # DuckDB gives a struct as a dict of its fields, a map as a dict of its keys.
        return tuple(
            sorted(
                ((str(k), normalise(v, float_digits)) for k, v in value.items()),
                key=lambda kv: kv[0],
            )
        )
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    return value  # dates, times, intervals, UUIDs: the same Python type from either engine


def _rows(con: duckdb.DuckDBPyConnection, relation: str) -> tuple[list[str], list[tuple]]:
    cursor = con.execute(f"select * from {relation}")
    return [d[0].lower() for d in cursor.description], cursor.fetchall()


def _spark_relation(spark_dir: Path, schema: str, table: str) -> str | None:
    """The read_parquet() of a Spark table's files, or None when it has none (absent, a view)."""
    folder = spark_dir / "warehouse" / f"{schema}.db" / table
    if not any(folder.rglob("*.parquet")):
        return None
    glob = str(folder / "**" / "*.parquet").replace("'", "''")
    return f"read_parquet('{glob}', hive_partitioning = false)"


def _shown(row: tuple, columns: list[str]) -> dict:
    return dict(zip(columns, row, strict=True))


def compare_table(
    con: duckdb.DuckDBPyConnection,
    spark_dir: Path,
    table: str,
    duckdb_schema: str,
    spark_schema: str,
    float_digits: int,
    ignored: frozenset[str] = frozenset(),
) -> int:
    """Print one table's comparison; the number of rows that differ (missing table: 1)."""
    spark = _spark_relation(spark_dir, spark_schema, table)
    exists = con.execute(
        "select count(*) from information_schema.tables"
        " where table_catalog = 'duck' and table_schema = ? and table_name = ?",
        [duckdb_schema, table],
    ).fetchone()[0]
    if spark is None or not exists:
        where = [] if exists else [f"DuckDB {duckdb_schema}.{table}"]
        where += [] if spark is not None else [f"Spark {spark_schema}.{table} (no parquet files)"]
        print(f"{table}: missing in {' and '.join(where)}: DIFFERENT")
        return 1
    cols_d, rows_d = _rows(con, f'duck."{duckdb_schema}"."{table}"')
    cols_s, rows_s = _rows(con, spark)
    shared = [c for c in cols_d if c in cols_s and c not in ignored]
    only = sorted((set(cols_d) ^ set(cols_s)) - ignored)

    def keyed(columns: list[str], rows: list[tuple]) -> Counter:
        index = [columns.index(c) for c in shared]
        return Counter(tuple(normalise(row[i], float_digits) for i in index) for row in rows)

    in_duckdb, in_spark = keyed(cols_d, rows_d), keyed(cols_s, rows_s)
    only_duckdb, only_spark = in_duckdb - in_spark, in_spark - in_duckdb
    n_d, n_s = sum(only_duckdb.values()), sum(only_spark.values())
    status = "identical" if n_d == n_s == 0 else "DIFFERENT"
    print(
        f"{table}: {len(rows_d):,} rows in DuckDB, {len(rows_s):,} in Spark,"
        f" {len(shared)} columns compared; {n_d:,} rows only in DuckDB,"
        f" {n_s:,} only in Spark: {status}"
    )
    if only:
        print(f"  columns on one engine only (not compared): {', '.join(only)}")
    if ignored & set(cols_d + cols_s):
        print(f"  columns ignored: {', '.join(sorted(ignored & set(cols_d + cols_s)))}")
    for label, rows in (("only in DuckDB", only_duckdb), ("only in Spark", only_spark)):
        # Sorted by their text, so the first differing rows of both sides line up by key.
        for row in sorted(rows, key=repr)[:SHOWN]:
            print(f"  {label}: {_shown(row, shared)}")
    return n_d + n_s + (1 if only else 0)  # a column on one engine only is a difference too


def compare(
    duckdb_file: str,
    spark_dir: str,
    tables: list[str] | None = None,
    duckdb_schema: str = "marts",
    spark_schema: str = "marts",
    float_digits: int = 9,
    ignored: list[str] | None = None,
) -> int:
    """Compare every table; 1 if any differs or is missing, else 0."""
    con = duckdb.connect()
    con.execute("set TimeZone = 'UTC'")  # timestamps with a zone come back as UTC
    con.execute(f"attach '{duckdb_file.replace(chr(39), chr(39) * 2)}' as duck (read_only)")
    differing = 0
    for table in tables or TABLES:
        differing += compare_table(
            con,
            Path(spark_dir),
            table,
            duckdb_schema,
            spark_schema,
            float_digits,
            frozenset(c.lower() for c in ignored or []),
        )
    return 1 if differing else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("duckdb_file", help="the DuckDB build's database file")
    ap.add_argument("spark_dir", help="the Spark build's CARD_KEEPER_SPARK_DIR")
    ap.add_argument(
        "--table",
        action="append",
        default=[],
        help="one more table to compare (repeatable), after the four turn-level marts",
    )
    ap.add_argument("--only", action="store_true", help="compare the --table tables alone")
    ap.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="COLUMN",
        help="a column left out of every table's comparison (repeatable)",
    )
    ap.add_argument("--duckdb-schema", default="marts")
    ap.add_argument("--spark-schema", default="marts")
    ap.add_argument("--float-digits", type=int, default=9, help="decimal places floats keep")
    args = ap.parse_args()
    tables = args.table if args.only else TABLES + [t for t in args.table if t not in TABLES]
    sys.exit(
        compare(
            args.duckdb_file,
            args.spark_dir,
            tables,
            args.duckdb_schema,
            args.spark_schema,
            args.float_digits,
            args.ignore,
        )
    )


if __name__ == "__main__":
    main()
