"""Run comparison (tab 실행 비교): the turns whose verdict changed between two rule fingerprints
recorded in one database (verdict_history, rule_input_history), or between two databases (two
uploads, or an upload and the demo), with both verdicts and the rule input that changed."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import streamlit as st

from dashboard import db, texts
from dashboard.safe import md, plain_ident
from dashboard.widgets import korean_table

SHOWN_LIMIT = 500
HISTORY = "marts.verdict_history"
FINGERPRINTS = "marts.fct_rule_fingerprints"
INPUTS = "marts.rule_input_history"
CHANGES = "marts.fct_verdict_changes"


def fingerprints_view(batch: db.Batch, key: str) -> None:
    for table in (HISTORY, FINGERPRINTS, INPUTS, CHANGES):
        if not batch.has(table):
            st.info(texts.COMPARE_NOT_BUILT.format(table=table))
            return
    fingerprints = batch.rows(
        f"""
        select rule_fingerprint, rule_version, turns, previous_fingerprint,
               {db.shown_timestamp("first_recorded_at")} as first_text
        from {FINGERPRINTS}
        order by fingerprint_order
        """
    )
    if len(fingerprints) < 2:
        st.info(texts.COMPARE_ONE)
        return
    by_id = {f["rule_fingerprint"]: f for f in fingerprints}
    ids = list(by_id)

    def option(fingerprint: str) -> str:
        found = by_id[fingerprint]
        return texts.COMPARE_FINGERPRINT_OPTION.format(
            fingerprint=plain_ident(fingerprint[:12]),
            version=plain_ident(found["rule_version"]),
            first=found["first_text"],
            turns=found["turns"] or 0,
        )

    left, right = st.columns(2)
    before = left.selectbox(
        texts.COMPARE_FROM, ids, index=len(ids) - 2, format_func=option, key=f"cmp_from_{key}"
    )
    after = right.selectbox(
        texts.COMPARE_TO, ids, index=len(ids) - 1, format_func=option, key=f"cmp_to_{key}"
    )
    if before == after:
        st.warning(texts.COMPARE_SAME)
        return
    of_fingerprint = (
        f"select input_kind, input_key, input_value from {INPUTS} where rule_fingerprint = ?"
    )
    inputs = batch.df(input_difference(of_fingerprint, of_fingerprint), [before, after])
    if by_id[after]["previous_fingerprint"] == before:
        # Consecutive fingerprints: the mart has the turns and, per turn, what changed.
        changes = batch.df(
            f"""
            select turn_id, model_id, character_id, verdict_before, verdict_after,
                   coalesce(changed_inputs, '-') as changed_inputs
            from {CHANGES}
            where from_fingerprint = ? and to_fingerprint = ?
            order by turn_id
            """,
            [before, after],
        )
    else:
        changes = arbitrary_pair_changes(batch, before, after)
    show_changes(changes, inputs, key)


def arbitrary_pair_changes(batch: db.Batch, before: str, after: str) -> pd.DataFrame:
    """The turns whose latest verdict differs between any two fingerprints (verdict_history),
    as fct_verdict_changes computes it for consecutive ones."""
    return batch.df(
        f"""
        with latest as (
            select turn_id, model_id, character_id, rule_fingerprint, verdict,
                   row_number() over (
                       partition by turn_id, rule_fingerprint order by recorded_at desc
                   ) as rank
            from {HISTORY}
            where rule_fingerprint in (?, ?)
        ),
        before_verdicts as (select * from latest where rank = 1 and rule_fingerprint = ?),
        after_verdicts as (select * from latest where rank = 1 and rule_fingerprint = ?)
        select after_verdicts.turn_id, after_verdicts.model_id, after_verdicts.character_id,
               before_verdicts.verdict as verdict_before, after_verdicts.verdict as verdict_after
        from before_verdicts
        inner join after_verdicts using (turn_id)
        where before_verdicts.verdict <> after_verdicts.verdict
        order by turn_id
        """,
        [before, after, before, after],
    )


def changed_inputs_text(inputs: pd.DataFrame, character_id: str | None) -> str:
    """The rule inputs that differ, as one line: rule-wide ones, and the turn's own card."""
    parts = []
    for row in inputs.itertuples():
        if row.input_kind == "card" and str(row.input_key).split(":")[0] != character_id:
            continue
        parts.append(f"{row.change}{row.input_kind} {row.input_key}")
    return " · ".join(dict.fromkeys(parts)) or "-"


def show_changes(changes: pd.DataFrame, inputs: pd.DataFrame, key: str) -> None:
    with st.container(key="compare_inputs"):
        st.caption(texts.COMPARE_INPUTS)
        if inputs.empty:
            st.text(texts.COMPARE_NO_INPUTS)
        else:
            st.dataframe(inputs, hide_index=True, height=min(38 + 35 * len(inputs), 300))
    with st.container(key="compare_changes"):
        st.markdown(f"**{md(texts.COMPARE_COUNT.format(count=len(changes)))}**")
        if changes.empty:
            st.info(texts.COMPARE_NONE)
            return
        shown = changes.head(SHOWN_LIMIT).copy()
        if "changed_inputs" not in shown:
            shown["changed_inputs"] = shown["character_id"].map(
                lambda c: changed_inputs_text(inputs, c)
            )
        korean_table(shown, texts.COMPARE_HEADERS)


def attached(paths: dict[str, Path]) -> duckdb.DuckDBPyConnection:
    """One in-memory connection with each database attached read-only under its alias."""
    connection = duckdb.connect()
    for alias, path in paths.items():
        quoted = str(path).replace("'", "''")
        connection.execute(f"attach '{quoted}' as {alias} (read_only)")
    return connection


def databases_view(key: str, databases: dict[str, Path], current: str) -> None:
    others = [label for label in databases if label != current]
    if not others:
        st.info(texts.COMPARE_NO_OTHER)
        return
    other = st.selectbox(texts.COMPARE_OTHER, others, key=f"cmp_db_{key}")
    paths = {"before_db": databases[other], "after_db": databases[current]}
    st.caption(md(f"{texts.COMPARE_FROM}: {other} → {texts.COMPARE_TO}: {current}"))
    connection = attached(paths)
    try:
        changes = connection.execute(
            """
            select after_v.turn_id, after_v.model_id, after_v.character_id,
                   before_v.verdict as verdict_before, after_v.verdict as verdict_after
            from before_db.marts.fct_turn_verdicts as before_v
            inner join after_db.marts.fct_turn_verdicts as after_v using (turn_id)
            where before_v.verdict <> after_v.verdict
            order by turn_id
            """
        ).df()
        inputs = database_input_changes(connection)
    finally:
        connection.close()
    show_changes(changes, inputs, key)


def database_input_changes(connection: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """What each database was judged with that the other was not: the rule inputs of its
    current fingerprint (rule_input_history), and every card's rules (dim_character_cards)."""
    present = {
        row[0]
        for row in connection.execute(
            "select database_name from duckdb_tables()"
            " where schema_name = 'marts' and table_name = 'rule_input_history'"
        ).fetchall()
    }
    rule_inputs = (
        """
        select input_kind, input_key, input_value
        from {db}.marts.rule_input_history
        where input_kind <> 'card' and rule_fingerprint = (
            select any_value(rule_fingerprint) from {db}.marts.fct_turn_verdicts
        )
        union all
        """
        if present == {"before_db", "after_db"}
        else ""
    )
    cards = """
        select 'card' as input_kind, character_id as input_key,
               concat_ws(' · ', honorific_rule, first_person,
                         array_to_string(list_sort(canon_entities), ', ')) as input_value
        from {db}.marts.dim_character_cards
    """
    return connection.execute(
        input_difference(
            rule_inputs.format(db="before_db") + cards.format(db="before_db"),
            rule_inputs.format(db="after_db") + cards.format(db="after_db"),
        )
    ).df()


def input_difference(before_inputs: str, after_inputs: str) -> str:
    """The rule inputs (input_kind, input_key, input_value) only one side has: `-` for the
    before side's, `+` for the after side's."""
    return f"""
        with before_inputs as ({before_inputs}),
        after_inputs as ({after_inputs}),
        removed as (select * from before_inputs except select * from after_inputs),
        added as (select * from after_inputs except select * from before_inputs)
        select '-' as change, * from removed
        union all
        select '+' as change, * from added
        order by input_kind, input_key, change
        """
