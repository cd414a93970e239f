"""Read-only access to a card_keeper database: short-lived connections and pushed-down queries.

Every query batch opens its own `read_only` connection and closes it right after, so a dbt
build can take the file between two reruns of the screen. When a build holds the file, DuckDB
refuses the connection with an IOException about a lock: `Reader` then tells the caller (the
screen shows a note) and retries a few times before giving up with `DatabaseBusy`.

Every filter, count and page is computed by DuckDB with bound parameters; only the rows of one
page (and their evidence) ever reach Python. Nothing here imports Streamlit.

Timestamps reach the screen as text made by DuckDB (`shown_timestamp`): a database built by
someone else may hold years past 9999, BC dates or infinity, which pandas and Python's
datetime cannot hold. The weekly trend keeps only weeks pandas can hold (1678-2261) and counts
the rest (`deviation_trend_outside`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import duckdb
import pandas as pd

from dashboard.safe import plain_ident

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VERDICTS_TABLE = "marts.fct_turn_verdicts"
# The user's message and the reply, for the conversation view: the verdict mart does not copy
# the texts, marts.fct_turn_texts holds them once. The screen reads marts and seeds only (and the
# build's own test log, audit.dbt_test_results): the exposure in models/marts/_exposures.yml lists
# them, and tests/python/test_exposure.py checks this file against it.
TEXTS_TABLE = "marts.fct_turn_texts"
CARDS_TABLE = "marts.dim_character_cards"
TEXTS_JOIN = f" left join {TEXTS_TABLE} using (turn_id)"
FILTER_COLUMNS = ("model_id", "character_id", "session_id")
# Weeks a chart can place: inside pandas' datetime64[ns] range, finite.
CHARTED_WEEK = "isfinite(week_start) and week_start between date '1678-01-01' and date '2261-12-31'"


def shown_timestamp(column: str, pattern: str = "%Y-%m-%d %H:%M:%S") -> str:
    """SQL for a timestamp column as screen text: `pattern` for years 1-9999, DuckDB's own
    text otherwise ('infinity', '99999-01-01 00:00:00', '0044-03-15 (BC) 00:00:00')."""
    return (
        f"case when isfinite({column}) and year({column}) between 1 and 9999"
        f" then strftime({column}, '{pattern}') else cast({column} as varchar) end"
    )


class DatabaseBusy(RuntimeError):
    """A build kept the database file locked through every retry."""


class DatabaseMissing(RuntimeError):
    """The database file does not exist (nothing was built yet)."""


def default_database() -> Path:
    """card_keeper.duckdb at the project root, or CARD_KEEPER_DB (relative = to the root)."""
    path = Path(os.environ.get("CARD_KEEPER_DB", "card_keeper.duckdb"))
    return path if path.is_absolute() else PROJECT_ROOT / path


def _is_lock_error(error: Exception) -> bool:
    text = str(error).lower()
    return "lock" in text or "conflicting" in text


class Reader:
    """Opens one read-only connection per batch of queries, retrying while a build holds it."""

    def __init__(
        self,
        path: Path | str,
        on_busy: Callable[[int], None] | None = None,
        attempts: int = 10,
        wait_seconds: float = 0.5,
    ) -> None:
        self.path = Path(path)
        self.on_busy = on_busy
        self.attempts = attempts
        self.wait_seconds = wait_seconds

    def _connect(self) -> duckdb.DuckDBPyConnection:
        if not self.path.exists():
            raise DatabaseMissing(str(self.path))
        for attempt in range(1, self.attempts + 1):
            try:
                return duckdb.connect(str(self.path), read_only=True)
            except duckdb.IOException as error:
                if not _is_lock_error(error):
                    raise
                if self.on_busy is not None:
                    self.on_busy(attempt)
                if attempt == self.attempts:
                    raise DatabaseBusy(str(error)) from error
                time.sleep(self.wait_seconds)
        raise DatabaseBusy(str(self.path))  # pragma: no cover - the loop always returns/raises

    @contextmanager
    def batch(self) -> Iterator[Batch]:
        connection = self._connect()
        try:
            yield Batch(connection)
        finally:
            connection.close()


class Batch:
    """The queries of one short-lived connection."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.con = connection
        self._tables: set[str] | None = None

    # -- plumbing -------------------------------------------------------------------------
    def df(self, sql: str, params: Sequence[Any] = ()) -> pd.DataFrame:
        return self.con.execute(sql, list(params)).df()

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.con.execute(sql, list(params))
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def has(self, qualified_name: str) -> bool:
        if self._tables is None:
            self._tables = {
                f"{schema}.{name}"
                for schema, name in self.con.execute(
                    "select table_schema, table_name from information_schema.tables"
                ).fetchall()
            }
        return qualified_name in self._tables

    # -- header ---------------------------------------------------------------------------
    def overview(self) -> dict[str, Any]:
        row = self.one(
            f"""
            select count(*) as turns, count(distinct session_id) as sessions,
                   any_value(rule_version) as version, any_value(rule_fingerprint) as fingerprint
            from {VERDICTS_TABLE}
            """
        )
        return row or {}

    def verdict_words(self) -> list[str]:
        """The seed of the five words (docs/rules.md#verdict-order), to check the screen's order."""
        return [r["verdict"] for r in self.rows("select verdict from seeds.verdict_words")]

    def quarantine_count(self) -> int:
        return self.one("select count(*) as n from marts.fct_contract_violations")["n"]

    def quarantine_rows(self, limit: int) -> pd.DataFrame:
        return self.df(
            """
            select table_name, source_file, source_row, row_key, column_name, raw_value,
                   reason_code, reason
            from marts.fct_contract_violations
            order by table_name, source_row, column_name
            limit ?
            """,
            [limit],
        )

    # -- filters and the verdict list -----------------------------------------------------
    @staticmethod
    def where(filters: dict[str, str | None], extra: str | None = None) -> tuple[str, list]:
        """A where clause over the whitelisted filter columns, every value a bound parameter."""
        parts, params = [], []
        for column in FILTER_COLUMNS:
            value = filters.get(column)
            if value:
                parts.append(f"{column} = ?")
                params.append(value)
        if extra:
            parts.append(extra)
        return (" where " + " and ".join(parts)) if parts else "", params

    def models(self) -> list[str]:
        return [
            r["model_id"]
            for r in self.rows(f"select distinct model_id from {VERDICTS_TABLE} order by model_id")
        ]

    def characters(self) -> list[dict[str, Any]]:
        return self.rows(
            f"""
            select character_id, name
            from {CARDS_TABLE}
            order by character_id
            """
        )

    def sessions(self, filters: dict[str, str | None], cap: int) -> list[str]:
        """Sessions under the model/character filters, at most cap + 1 (the caller checks)."""
        where, params = self.where({k: v for k, v in filters.items() if k != "session_id"})
        return [
            r["session_id"]
            for r in self.rows(
                f"select distinct session_id from {VERDICTS_TABLE}{where}"
                " order by session_id limit ?",
                [*params, cap + 1],
            )
        ]

    def verdict_counts(self, filters: dict[str, str | None]) -> dict[str, int]:
        where, params = self.where(filters)
        return {
            r["verdict"]: r["turns"]
            for r in self.rows(
                f"select verdict, count(*) as turns from {VERDICTS_TABLE}{where} group by verdict",
                params,
            )
        }

    def verdict_page(
        self, verdict: str, filters: dict[str, str | None], page: int, page_size: int
    ) -> pd.DataFrame:
        """One page of one group, ordered by (created_at, turn_id) like a session."""
        where, params = self.where(filters, extra="verdict = ?")
        return self.df(
            f"""
            select turn_id, verdict, summary, hedge, skipped_checks, model_id, character_id,
                   session_id, {shown_timestamp("created_at")} as created_at_text,
                   rule_expected, rule_observed, user_message, reply_text
            from {VERDICTS_TABLE}{TEXTS_JOIN}{where}
            order by created_at, turn_id
            limit ? offset ?
            """,
            [*params, verdict, page_size, max(page - 1, 0) * page_size],
        )

    def evidence_for(self, turn_ids: Sequence[str]) -> pd.DataFrame:
        """The evidence rows of the given turns only (one page), in citation order."""
        return self.df(
            """
            select turn_id, ordinal, source, field, agg, value
            from marts.fct_turn_evidence
            where turn_id in (select unnest(?::varchar[]))
            order by turn_id, ordinal
            """,
            [list(turn_ids)],
        )

    def checks_for(self, turn_ids: Sequence[str]) -> pd.DataFrame:
        return self.df(
            """
            select turn_id, check_name, check_order, status, reason_code, note_code, is_deciding
            from marts.fct_turn_checks
            where turn_id in (select unnest(?::varchar[]))
            order by turn_id, check_order
            """,
            [list(turn_ids)],
        )

    # -- conversation view ------------------------------------------------------------------
    def public_sessions(self, limit: int) -> list[dict[str, Any]]:
        """Sessions of public characters, longest first (ties: session_id)."""
        return self.rows(
            f"""
            with public_cards as (
                select character_id from {CARDS_TABLE}
                where is_public
            )
            select v.character_id, v.session_id, count(*) as turns
            from {VERDICTS_TABLE} as v
            inner join public_cards using (character_id)
            group by v.character_id, v.session_id
            order by turns desc, v.session_id
            limit ?
            """,
            [limit],
        )

    def card(self, character_id: str) -> dict[str, Any] | None:
        return self.one(
            f"""
            select character_id, name, persona, honorific_rule, first_person
            from {CARDS_TABLE}
            where character_id = ?
            """,
            [character_id],
        )

    def conversation(self, session_id: str, limit: int) -> pd.DataFrame:
        return self.df(
            f"""
            select turn_id, model_id, {shown_timestamp("created_at", "%Y-%m-%d %H:%M")}
                       as created_at_text,
                   user_message, reply_text, verdict, summary, hedge
            from {VERDICTS_TABLE}{TEXTS_JOIN}
            where session_id = ?
            order by created_at, turn_id
            limit ?
            """,
            [session_id, limit],
        )

    # -- output-schema checks ---------------------------------------------------------------
    def latest_test_results(self) -> tuple[dict[str, Any] | None, pd.DataFrame]:
        """The latest dbt invocation's test outcomes (audit.dbt_test_results)."""
        if not self.has("audit.dbt_test_results"):
            return None, pd.DataFrame()
        latest = self.one(
            f"""
            select invocation_id, {shown_timestamp("run_started_at")} as run_started_text
            from audit.dbt_test_results
            order by run_started_at desc, invocation_id desc
            limit 1
            """
        )
        if latest is None:
            return None, pd.DataFrame()
        results = self.df(
            """
            select test_name, status, failures, message
            from audit.dbt_test_results
            where invocation_id = ?
            order by test_name
            """,
            [latest["invocation_id"]],
        )
        return latest, results

    # -- self-scoring -----------------------------------------------------------------------
    def golden_summary(self) -> dict[str, Any] | None:
        """The one-row summary (labelled_turns, agreeing_turns, agreement_rate, …)."""
        return self.one("select * from marts.fct_golden_agreement_summary")

    def golden_disagreement_groups(self) -> pd.DataFrame:
        """Disagreement groups (a few rows per label set); lists shown as text."""
        frame = self.df("select * from marts.fct_golden_disagreements")
        if "turn_ids" in frame:
            frame["turn_ids"] = frame["turn_ids"].map(
                lambda ids: ", ".join(plain_ident(i) for i in ids) if ids is not None else ""
            )
        return frame

    def golden_disagreeing_turns(self, limit: int) -> pd.DataFrame:
        return self.df(
            """
            select *
            from marts.fct_golden_agreement
            where not agrees
            order by turn_id
            limit ?
            """,
            [limit],
        )

    # -- deviation rates ----------------------------------------------------------------------
    def deviation_rates(self) -> pd.DataFrame:
        return self.df(
            """
            select scope, grain, model_id, character_id, turns, deviations, deviation_rate,
                   ci_low, ci_high
            from marts.fct_model_deviation_rates
            order by scope, grain, model_id, character_id
            """
        )

    def deviation_trend(self) -> pd.DataFrame:
        """The weekly rates a chart can place (CHARTED_WEEK)."""
        return self.df(
            f"""
            select model_id, week_start, turns, deviations, deviation_rate, ci_low, ci_high
            from marts.fct_model_deviation_trend
            where {CHARTED_WEEK}
            order by week_start, model_id
            """
        )

    def deviation_trend_outside(self) -> int:
        """Weekly rows left out of the chart: a week_start null, infinite or outside 1678-2261."""
        return self.one(
            f"""
            select count(*) as n from marts.fct_model_deviation_trend
            where not coalesce({CHARTED_WEEK}, false)
            """
        )["n"]

    # -- manual review queues (docs/rules.md#evaluation) ---------------------------------------
    REVIEW_QUEUES: ClassVar[dict[str, str]] = {
        "marts.fct_review_forbidden_sample": "sample_rank",
        "marts.fct_review_off_canon_names": "name_rank",
        "marts.fct_review_mixed_register": "sample_rank",
        "marts.fct_review_ending_candidates": "candidate_rank",
    }

    def review_queue(self, table: str, limit: int) -> pd.DataFrame:
        """A review queue mart (a whitelisted name), in its rank order."""
        rank = self.REVIEW_QUEUES[table]
        return self.df(f"select * from {table} order by {rank} limit ?", [limit])
