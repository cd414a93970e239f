"""The tabs after the verdict list: the prompt × model matrix, the public conversation, run
comparison, test history, self-scoring, deviation rates, verification notes and quarantine."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from dashboard import charts, compare, db, reviews, texts
from dashboard.safe import ident, md, plain_ident, text_table
from dashboard.verdict_list import highlights, verdict_row
from dashboard.widgets import korean_table, reply_block, shielded, verdict_badge

CONVERSATION_LIMIT = 300
QUARANTINE_LIMIT = 200
GOLDEN_TURNS_LIMIT = 100
QUEUE_LIMIT = 100
MATRIX_PAGE = 50
TEST_INVOCATIONS = 10
FAILED_TURNS_LIMIT = 200


# -- prompt x model matrix ------------------------------------------------------------------------
def matrix(batch: db.Batch, key: str) -> None:
    st.subheader(texts.MATRIX_HEADER)
    if not batch.has("marts.fct_prompt_model_matrix"):
        st.info(texts.NOT_BUILT.format(table="marts.fct_prompt_model_matrix"))
        return
    total = batch.matrix_prompt_count()
    if total == 0:
        st.info(texts.MATRIX_EMPTY)
        return
    st.caption(texts.MATRIX_INTRO.format(count=total))
    deviating_only = st.toggle(texts.MATRIX_DEVIATING, key=f"matrix_deviating_{key}")
    shown_total = batch.matrix_deviating_count() if deviating_only else total
    pages = max((shown_total + MATRIX_PAGE - 1) // MATRIX_PAGE, 1)
    page = st.number_input(
        texts.MATRIX_PAGE_LABEL.format(pages=pages, count=shown_total),
        min_value=1,
        max_value=pages,
        value=1,
        key=f"matrix_page_{key}_{deviating_only}",
    )
    cells = batch.matrix_page(int(page), MATRIX_PAGE, deviating_only)
    grid = cells.pivot(index="prompt_id", columns="model_id", values="verdict").reset_index()
    models = [c for c in grid.columns if c != "prompt_id"]
    styled = grid.rename(columns={"prompt_id": texts.MATRIX_PROMPT}).style.map(
        lambda v: f"background-color: {texts.VERDICT_CELL_COLORS.get(v, 'white')}",
        subset=models,
    )
    picked = st.dataframe(
        styled,
        hide_index=True,
        key=f"matrix_{key}",
        on_select="rerun",
        selection_mode="single-cell",
        height=min(38 + 35 * len(grid), 720),
    )
    chosen = picked.selection.get("cells") if picked is not None else None
    if not chosen:
        st.caption(texts.MATRIX_PICK)
        return
    row_index, _column = chosen[0]
    prompt_id = grid.iloc[int(row_index)]["prompt_id"]
    prompt_answers(batch, prompt_id)


def prompt_answers(batch: db.Batch, prompt_id: str) -> None:
    """Every model's answer to one shared prompt, side by side, each with its evidence."""
    answers = batch.prompt_answers(prompt_id)
    with st.container(key="matrix_answers"):
        st.markdown(f"##### {texts.MATRIX_ANSWERS.format(prompt_id=ident(prompt_id))}")
        if not answers.empty and pd.notna(answers.iloc[0]["user_message"]):
            st.caption(texts.USER_MESSAGE)
            st.text(answers.iloc[0]["user_message"])
        evidence = batch.evidence_for(answers["turn_id"].tolist())
        for column, answer in zip(
            st.columns(len(answers)), answers.to_dict("records"), strict=True
        ):
            with column, st.container(border=True, key=f"answer_{answer['model_id']}"):
                st.markdown(f"**{ident(answer['model_id'])}** · {ident(answer['turn_id'])}")
                verdict_badge(answer["verdict"])
                reply_block(answer["reply_text"], highlights(answer))
                st.caption(md(answer["summary"]))
                st.caption(texts.EVIDENCE)
                korean_table(
                    evidence[evidence["turn_id"] == answer["turn_id"]], texts.EVIDENCE_HEADERS
                )


# -- conversation view ----------------------------------------------------------------------------
def conversation(batch: db.Batch, key: str) -> None:
    st.subheader(texts.CONVERSATION_HEADER)
    sessions = batch.public_sessions(200)
    if not sessions:
        st.info(texts.CONVERSATION_NO_PUBLIC)
        return
    chosen = st.selectbox(
        texts.CONVERSATION_SESSION,
        sessions,
        format_func=lambda s: (
            f"{plain_ident(s['character_id'])} · "
            + texts.CONVERSATION_SESSION_OPTION.format(
                session_id=plain_ident(s["session_id"]), turns=s["turns"]
            )
        ),
        key=f"conversation_session_{key}",
    )
    card = batch.card(chosen["character_id"]) or {}
    st.caption(
        texts.CONVERSATION_CAPTION.format(
            name=ident(card.get("name") or ""),
            character_id=ident(chosen["character_id"]),
            persona=md(card.get("persona") or "-"),
            rule=md(f"{card.get('honorific_rule') or '-'} · {card.get('first_person') or '-'}"),
        )
    )
    turns = batch.conversation(chosen["session_id"], CONVERSATION_LIMIT)
    if chosen["turns"] > len(turns):
        st.caption(texts.CONVERSATION_TRUNCATED.format(shown=len(turns), total=chosen["turns"]))
    with st.container(key="conversation"):
        for turn in turns.itertuples():
            with shielded(texts.ROW_FAILED.format(turn_id=ident(turn.turn_id))):
                with st.chat_message("user"):
                    st.text(
                        turn.user_message
                        if pd.notna(turn.user_message)
                        else texts.CONVERSATION_NO_MESSAGE
                    )
                with st.chat_message("assistant"):
                    st.text(turn.reply_text if turn.reply_text else texts.CONVERSATION_EMPTY_REPLY)
                    verdict_badge(turn.verdict)
                    st.caption(
                        f"{ident(turn.turn_id)} · {ident(turn.model_id)} · "
                        f"{md(turn.created_at_text)}"
                    )


# -- compare runs ---------------------------------------------------------------------------------
def compare_runs(batch: db.Batch, key: str, databases: dict[str, Path], current: str) -> None:
    st.subheader(texts.COMPARE_HEADER)
    kind = st.radio(
        texts.COMPARE_KIND,
        ("fingerprints", "databases"),
        format_func=lambda k: (
            texts.COMPARE_FINGERPRINTS if k == "fingerprints" else texts.COMPARE_UPLOADS
        ),
        horizontal=True,
        key=f"compare_kind_{key}",
    )
    if kind == "fingerprints":
        compare.fingerprints_view(batch, key)
    else:
        compare.databases_view(key, databases, current)


# -- test history ---------------------------------------------------------------------------------
def test_history(batch: db.Batch, key: str) -> None:
    st.subheader(texts.TESTS_HEADER)
    history = batch.test_history(TEST_INVOCATIONS)
    if history.empty:
        st.info(texts.TESTS_NONE)
        return
    runs = history.drop_duplicates("invocation_id")[["invocation_id", "run_text"]]
    columns = {
        row.invocation_id: f"{row.run_text} · {str(row.invocation_id)[:8]}"
        for row in runs.itertuples()
    }
    st.caption(texts.TESTS_INVOCATIONS.format(count=len(columns)))
    history = history.assign(
        run=history["invocation_id"].map(columns),
        check=history["test_name"].map(check_title),
        shown=history["status"].map(lambda s: texts.STATUS_SHORT.get(s, s)),
    )
    failed_tests = set(history.loc[history["status"].isin(["fail", "error", "warn"]), "test_name"])
    every_test = st.toggle(texts.TESTS_EVERY, value=False, key=f"tests_every_{key}")
    checks = history["test_name"].str.startswith("assert_check_")
    shown = history if every_test else history[checks | history["test_name"].isin(failed_tests)]
    shown = shown.assign(is_check=~shown["test_name"].str.startswith("assert_check_")).sort_values(
        ["is_check", "test_name"], kind="stable"
    )
    grid = shown.pivot_table(
        index="check", columns="run", values="shown", aggfunc="first", sort=False
    )
    grid = grid[[c for c in columns.values() if c in grid.columns]]
    grid.index.name = texts.TESTS_TEST
    with st.container(key="test_history"):
        st.table(text_table(grid.reset_index()), hide_index=True)
    failures = history[history["status"].isin(["fail", "error", "warn"])]
    if failures.empty:
        st.success(texts.TESTS_ALL_PASS)
        return
    # The latest invocation's failures first, the output-schema checks before other tests.
    failures = failures.assign(
        is_other=~failures["test_name"].str.startswith("assert_check_")
    ).sort_values(["run_started_at", "is_other", "test_name"], ascending=[False, True, True])
    options = list(failures[["invocation_id", "test_name", "run", "failures"]].itertuples(False))
    picked = st.selectbox(
        texts.TESTS_PICK,
        options,
        format_func=lambda o: f"{check_title(o.test_name)} · {o.run}",
        key=f"tests_pick_{key}",
    )
    turn_ids = batch.test_failures(picked.invocation_id, picked.test_name, FAILED_TURNS_LIMIT)
    with st.container(key="test_failures"):
        if turn_ids:
            st.caption(
                texts.TESTS_FAILED_TURNS.format(
                    test=md(picked.test_name), when=md(picked.run), count=len(turn_ids)
                )
            )
            st.text("\n".join(plain_ident(t) for t in turn_ids))
        else:
            failures_count = 0 if pd.isna(picked.failures) else int(picked.failures)
            st.info(texts.TESTS_NO_TURNS.format(failures=failures_count))


def check_title(test_name: str) -> str:
    prefix = str(test_name)[: len("assert_check_00")]
    label = texts.CHECK_LABELS.get(prefix)
    return f"{prefix[-2:]}. {label} ({test_name})" if label else str(test_name)


# -- self-scoring ---------------------------------------------------------------------------------
def self_scoring(batch: db.Batch, key: str, database: Path) -> None:
    st.subheader(texts.GOLDEN_HEADER)
    if not batch.has("marts.fct_golden_agreement_summary"):
        st.info(texts.NOT_BUILT.format(table="marts.fct_golden_agreement_summary"))
        return
    summary = batch.golden_summary() or {}
    if summary.get("labelled_turns") is None:
        st.info(texts.GOLDEN_EMPTY)
        return
    with st.container(key="golden_figures"):
        labelled, agreeing, rate = st.columns(3)
        labelled.metric(texts.GOLDEN_LABELLED, f"{summary['labelled_turns']:,}")
        agreeing.metric(texts.GOLDEN_AGREEING, f"{summary['agreeing_turns']:,}")
        rate.metric(texts.GOLDEN_RATE, f"{summary['agreement_rate']:.1%}")
        if summary.get("agreement_ci_low") is not None:
            rate.caption(
                texts.GOLDEN_INTERVAL.format(
                    low=summary["agreement_ci_low"], high=summary["agreement_ci_high"]
                )
            )
    if batch.has("marts.fct_golden_agreement"):
        confusion = batch.golden_confusion()
        grid = (
            confusion.pivot_table(
                index="expected_verdict",
                columns="predicted_verdict",
                values="turns",
                aggfunc="sum",
                fill_value=0,
            )
            .reindex(index=list(texts.VERDICTS), columns=list(texts.VERDICTS), fill_value=0)
            .astype(int)
        )
        grid.index.name = "정답 \\ 규칙"
        st.caption(texts.GOLDEN_CONFUSION)
        with st.container(key="golden_confusion"):
            st.table(
                grid.style.apply(
                    lambda column: [
                        "background-color: #e6f4ea"
                        if index == column.name
                        else ("background-color: #fde7e9" if value else "")
                        for index, value in column.items()
                    ]
                ),
            )
        turns = batch.golden_disagreeing_turns(GOLDEN_TURNS_LIMIT)
        if not turns.empty:
            st.caption(texts.GOLDEN_TURNS.format(limit=GOLDEN_TURNS_LIMIT))
            st.caption(texts.GOLDEN_OPEN_TURN)
            picked = st.dataframe(
                turns,
                hide_index=True,
                key=f"golden_turns_{key}",
                on_select="rerun",
                selection_mode="single-row",
            )
            rows = picked.selection.get("rows") if picked is not None else None
            if rows:
                turn_id = turns.iloc[rows[0]]["turn_id"]
                row = batch.turn(turn_id)
                if row is not None:
                    folder = reviews.folder_for(database)
                    with st.container(key="golden_turn"):
                        verdict_row(
                            batch,
                            row,
                            folder,
                            reviews.latest_marks(folder).get(turn_id),
                            f"golden_{key}",
                            expanded=True,
                        )
    if batch.has("marts.fct_golden_disagreements"):
        groups = batch.golden_disagreement_groups()
        pairs = groups[groups["group_kind"] == "verdict_pair"]
        by_check = groups[groups["group_kind"] != "verdict_pair"]
        pair_col, check_col = st.columns(2)
        pair_col.caption(texts.GOLDEN_BY_PAIR)
        if pairs.empty:
            pair_col.text(texts.GOLDEN_NONE_DISAGREE)
        else:
            pair_col.table(
                text_table(pairs[["expected_verdict", "predicted_verdict", "turns", "turn_ids"]]),
                hide_index=True,
            )
        check_column = next(
            (c for c in ("deciding_check", "disagreement_check") if c in groups), None
        )
        check_col.caption(texts.GOLDEN_BY_CHECK)
        if by_check.empty or check_column is None:
            check_col.text(texts.GOLDEN_NONE_DISAGREE)
        else:
            check_col.table(
                text_table(by_check[[check_column, "turns", "turn_ids"]]), hide_index=True
            )


# -- deviation rates ------------------------------------------------------------------------------
def deviation_rates(batch: db.Batch) -> None:
    st.subheader(texts.RATES_HEADER)
    if not batch.has("marts.fct_model_deviation_rates"):
        st.info(texts.NOT_BUILT.format(table="marts.fct_model_deviation_rates"))
    else:
        rates = batch.deviation_rates()
        per_model = rates[rates["grain"] == "model"]
        columns = st.columns(2)
        for column, scope, title in (
            (columns[0], "all_turns", texts.RATES_ALL),
            (columns[1], "shared_prompts", texts.RATES_SHARED),
        ):
            frame = per_model[per_model["scope"] == scope]
            if frame.empty:
                column.caption(title)
                column.info(texts.RATES_EMPTY)
            else:
                column.altair_chart(charts.rates_chart(frame, title), width="stretch")
        with st.expander(texts.RATES_TABLE):
            st.dataframe(rates, hide_index=True)
    if not batch.has("marts.fct_model_deviation_trend"):
        st.info(texts.NOT_BUILT.format(table="marts.fct_model_deviation_trend"))
        return
    trend = batch.deviation_trend()
    outside = batch.deviation_trend_outside()
    if trend.empty:
        st.info(texts.RATES_EMPTY)
    else:
        with shielded(texts.TREND_FAILED):
            st.altair_chart(charts.trend_chart(trend), width="stretch")
            st.caption(texts.TREND_GAP_NOTE)
    if outside:
        st.caption(texts.TREND_OUTSIDE.format(count=outside))


# -- verification notes ---------------------------------------------------------------------------
def notes(batch: db.Batch) -> None:
    auto, manual, honesty = st.columns(3)
    with auto:
        st.markdown(f"#### {texts.NOTES_AUTO_HEADER}")
        st.markdown(texts.NOTES_AUTO)
    with manual:
        st.markdown(f"#### {texts.NOTES_MANUAL_HEADER}")
        st.markdown(texts.NOTES_MANUAL)
    with honesty:
        st.markdown(f"#### {texts.NOTES_HONESTY_HEADER}")
        st.markdown(texts.NOTES_HONESTY)
    st.markdown(f"#### {texts.NOTES_QUEUES_HEADER}")
    for queue, title in texts.NOTES_QUEUES.items():
        with st.expander(f"{title} — {queue.split('.')[-1]}"):
            if batch.has(queue):
                st.dataframe(batch.review_queue(queue, QUEUE_LIMIT), hide_index=True)
            else:
                st.info(texts.NOT_BUILT.format(table=queue))


# -- quarantine -----------------------------------------------------------------------------------
def quarantine(batch: db.Batch) -> None:
    st.subheader(texts.QUARANTINE_HEADER)
    total = batch.quarantine_count()
    with st.container(key="quarantine"):
        st.metric(texts.QUARANTINED.format(count=total), f"{total:,}", label_visibility="collapsed")
        if total == 0:
            st.info(texts.QUARANTINE_NONE)
            return
        rows = batch.quarantine_rows(QUARANTINE_LIMIT)
        if total > len(rows):
            st.caption(texts.QUARANTINE_SHOWN.format(shown=len(rows), total=total))
        rows = rows.assign(
            reason=rows["reason"].astype(str) + " (" + rows["reason_code"].astype(str) + ")"
        )
        korean_table(rows, texts.QUARANTINE_HEADERS)
