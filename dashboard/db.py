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
from dashboard.texts import KEPT

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
# What a row of the verdict list shows, from the verdict mart (the texts come from TEXTS_TABLE).
PAGE_COLUMNS = (
    "turn_id, verdict, summary, hedge, skipped_checks, model_id, character_id, session_id,"
    " created_at, rule_expected, rule_observed, off_canon_entities, touched_term, recall_target,"
    " deciding_check, rule_fingerprint, prompt_id"
)
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
        self._overview: dict[str, Any] | None = None
        self._counts: dict[tuple, dict[str, int]] = {}

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
        """Turns, sessions, the rule version and fingerprint (once per batch: the header and
        the summary strip both show them)."""
        if self._overview is not None:
            return self._overview
        row = self.one(
            f"""
            select count(*) as turns, count(distinct session_id) as sessions,
                   any_value(rule_version) as version, any_value(rule_fingerprint) as fingerprint
            from {VERDICTS_TABLE}
            """
        )
        self._overview = row or {}
        return self._overview

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
        """A where clause over the whitelisted filters, every value a bound parameter.

        `search` matches a turn_id exactly or a reply's text as a substring (case-insensitive);
        `skipped_check` is one code of skipped_checks (`check:reason`). A search needs the texts
        joined (TEXTS_JOIN): callers with a search add it.
        """
        parts, params = [], []
        for column in FILTER_COLUMNS:
            value = filters.get(column)
            if value:
                parts.append(f"{column} = ?")
                params.append(value)
        if filters.get("skipped_check"):
            parts.append("list_contains(skipped_checks, ?)")
            params.append(filters["skipped_check"])
        if filters.get("search"):
            parts.append("(turn_id = ? or contains(lower(reply_text), lower(?)))")
            params.extend([filters["search"], filters["search"]])
        if extra:
            parts.append(extra)
        return (" where " + " and ".join(parts)) if parts else "", params

    @staticmethod
    def source(filters: dict[str, str | None]) -> str:
        """The verdict mart, with the texts joined when a search reads them."""
        return VERDICTS_TABLE + (TEXTS_JOIN if filters.get("search") else "")

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
        chosen = {k: v for k, v in filters.items() if k in ("model_id", "character_id")}
        where, params = self.where(chosen)
        return [
            r["session_id"]
            for r in self.rows(
                f"select distinct session_id from {VERDICTS_TABLE}{where}"
                " order by session_id limit ?",
                [*params, cap + 1],
            )
        ]

    def verdict_counts(self, filters: dict[str, str | None]) -> dict[str, int]:
        """Turns per verdict under the filters; asked once per connection (the strip's
        unfiltered counts are the list's when no filter is set)."""
        where, params = self.where(filters)
        sql = f"select verdict, count(*) as turns from {self.source(filters)}{where}"
        sql += " group by verdict"
        asked = (sql, tuple(params))
        if asked not in self._counts:
            self._counts[asked] = {r["verdict"]: r["turns"] for r in self.rows(sql, params)}
        return dict(self._counts[asked])

    def verdict_page(
        self, verdict: str, filters: dict[str, str | None], page: int, page_size: int
    ) -> pd.DataFrame:
        """One page of one group, ordered by (created_at, turn_id) like a session: the page is
        picked from the verdict mart first and only its turns' texts are joined (a search reads
        the texts to pick the page, so it joins them first)."""
        where, params = self.where(filters, extra="verdict = ?")
        return self.df(
            f"""
            with page as (
                select {PAGE_COLUMNS}
                from {self.source(filters)}{where}
                order by created_at, turn_id
                limit ? offset ?
            )
            select page.*, {shown_timestamp("created_at")} as created_at_text,
                   texts.user_message, texts.reply_text
            from page
            left join {TEXTS_TABLE} as texts using (turn_id)
            order by created_at, turn_id
            """,
            [*params, verdict, page_size, max(page - 1, 0) * page_size],
        )

    def turn(self, turn_id: str) -> dict[str, Any] | None:
        """One turn's row as verdict_page gives it."""
        found = self.df(
            f"""
            select {PAGE_COLUMNS}, {shown_timestamp("created_at")} as created_at_text,
                   user_message, reply_text
            from {VERDICTS_TABLE}{TEXTS_JOIN}
            where turn_id = ?
            """,
            [turn_id],
        )
        return None if found.empty else found.iloc[0].to_dict()

    def skipped_codes(self) -> list[str]:
        """Every skipped-check code (`check:reason`) some verdict carries."""
        return [
            r["code"]
            for r in self.rows(
                f"select distinct unnest(skipped_checks) as code from {VERDICTS_TABLE}"
                " order by code"
            )
        ]

    def filtered_csv(self, verdict: str | None, filters: dict[str, str | None]) -> bytes:
        """Every row of the list under the filters (all pages) as CSV, texts included."""
        where, params = self.where(filters, extra="verdict = ?" if verdict else None)
        frame = self.df(
            f"""
            select turn_id, verdict, summary, hedge, array_to_string(skipped_checks, ';')
                       as skipped_checks,
                   model_id, character_id, session_id, prompt_id,
                   {shown_timestamp("created_at")} as created_at, deciding_check,
                   rule_expected, rule_observed, user_message, reply_text
            from {VERDICTS_TABLE}{TEXTS_JOIN}{where}
            order by created_at, turn_id
            """,
            [*params, *([verdict] if verdict else [])],
        )
        return frame.to_csv(index=False).encode("utf-8")

    def filtered_json(
        self, verdict: str | None, filters: dict[str, str | None], fields: Sequence[str]
    ) -> bytes:
        """The same rows as the output schema's JSON array (the build's export, filtered)."""
        where, params = self.where(filters, extra="verdict = ?" if verdict else None)
        row_json = "to_json(struct_pack({}))".format(
            ", ".join(f'"{field}" := "{field}"' for field in fields)
        )
        lines = self.con.execute(
            f"""
            select {row_json} as line
            from {self.source(filters)}{where}
            order by turn_id
            """,
            [*params, *([verdict] if verdict else [])],
        ).fetchall()
        return ("[\n" + ",\n".join(line for (line,) in lines) + "\n]\n").encode("utf-8")

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
            select character_id, name, persona, honorific_rule, first_person, canon_entities
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
        "marts.fct_review_rule_disputes": "marked_at desc, turn_id",
    }

    def review_queue(self, table: str, limit: int) -> pd.DataFrame:
        """A review queue mart (a whitelisted name), in its rank order."""
        rank = self.REVIEW_QUEUES[table]
        return self.df(f"select * from {table} order by {rank} limit ?", [limit])

    # -- the first view's summary strip -----------------------------------------------------
    def model_rates(self) -> pd.DataFrame:
        """Each model's deviation rate over all its turns, with the Wilson 95% interval."""
        if not self.has("marts.fct_model_deviation_rates"):
            return pd.DataFrame()
        return self.df(
            """
            select model_id, turns, deviations, deviation_rate, ci_low, ci_high
            from marts.fct_model_deviation_rates
            where scope = 'all_turns' and grain = 'model'
            order by deviation_rate desc, model_id
            """
        )

    def input_files(self) -> list[str]:
        """The chat_turn files the database was built from (fct_ingested_files; a missing file
        was read once but is gone now, and is left out)."""
        if not self.has("marts.fct_ingested_files"):
            return []
        return [
            r["file_path"]
            for r in self.rows(
                "select file_path from marts.fct_ingested_files"
                " where file_status in ('new', 'ingested', 'changed') order by file_path"
            )
        ]

    # -- prompt x model matrix ----------------------------------------------------------------
    def matrix_models(self) -> list[str]:
        return [
            r["model_id"]
            for r in self.rows(
                "select distinct model_id from marts.fct_prompt_model_matrix order by model_id"
            )
        ]

    def matrix_prompt_count(self) -> int:
        return self.one("select count(distinct prompt_id) as n from marts.fct_prompt_model_matrix")[
            "n"
        ]

    def matrix_page(self, page: int, page_size: int, deviating_only: bool) -> pd.DataFrame:
        """One page of shared prompts (prompt_id order), one row per prompt and model."""
        having = "having bool_or(verdict <> ?)" if deviating_only else ""
        params = [KEPT] if deviating_only else []
        return self.df(
            f"""
            with prompts as (
                select prompt_id
                from marts.fct_prompt_model_matrix
                group by prompt_id
                {having}
                order by prompt_id
                limit ? offset ?
            )
            select m.prompt_id, m.model_id, m.turn_id, m.verdict, m.answers
            from marts.fct_prompt_model_matrix as m
            inner join prompts using (prompt_id)
            order by m.prompt_id, m.model_id
            """,
            [*params, page_size, max(page - 1, 0) * page_size],
        )

    def matrix_deviating_count(self) -> int:
        return self.one(
            """
            select count(*) as n from (
                select prompt_id from marts.fct_prompt_model_matrix
                group by prompt_id having bool_or(verdict <> ?)
            )
            """,
            [KEPT],
        )["n"]

    def prompt_answers(self, prompt_id: str) -> pd.DataFrame:
        """Every model's first answer to a shared prompt, with its texts, side by side."""
        return self.df(
            f"""
            select m.model_id, v.turn_id, v.verdict, v.summary, v.hedge, v.off_canon_entities,
                   v.touched_term, v.recall_target, v.character_id, t.user_message, t.reply_text
            from marts.fct_prompt_model_matrix as m
            inner join {VERDICTS_TABLE} as v using (turn_id)
            left join {TEXTS_TABLE} as t using (turn_id)
            where m.prompt_id = ?
            order by m.model_id
            """,
            [prompt_id],
        )

    # -- self-scoring confusion matrix --------------------------------------------------------
    def golden_confusion(self) -> pd.DataFrame:
        """Labelled turns per (expected, predicted) verdict."""
        return self.df(
            """
            select expected_verdict, predicted_verdict, count(*) as turns
            from marts.fct_golden_agreement
            group by expected_verdict, predicted_verdict
            """
        )

    # -- test history --------------------------------------------------------------------------
    def test_history(self, invocations: int) -> pd.DataFrame:
        """The outcome of every test in the latest `invocations` dbt invocations."""
        if not self.has("audit.dbt_test_results"):
            return pd.DataFrame()
        return self.df(
            f"""
            with latest as (
                select invocation_id, max(run_started_at) as run_started_at
                from audit.dbt_test_results
                group by invocation_id
                order by run_started_at desc, invocation_id desc
                limit ?
            )
            select r.invocation_id, {shown_timestamp("latest.run_started_at")} as run_text,
                   latest.run_started_at, r.test_name, r.status, r.failures
            from audit.dbt_test_results as r
            inner join latest using (invocation_id)
            order by latest.run_started_at, r.test_name
            """,
            [invocations],
        )

    def test_failures(self, invocation_id: str, test_name: str, limit: int) -> list[str]:
        """The turn_ids a failed check named in that invocation (audit.dbt_test_failures)."""
        if not self.has("audit.dbt_test_failures"):
            return []
        return [
            r["turn_id"]
            for r in self.rows(
                """
                select turn_id from audit.dbt_test_failures
                where invocation_id = ? and test_name = ?
                order by turn_id
                limit ?
                """,
                [invocation_id, test_name, limit],
            )
        ]
