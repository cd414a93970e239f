"""card_keeper's screen (docs/dashboard.md): verdicts by group, the public conversation,
self-scoring, output-schema checks, deviation rates, verification notes and the analyst's upload.

Run with `make dashboard` (127.0.0.1:8501 over the demo build). CARD_KEEPER_DB picks the
database; every read goes through dashboard.db (short-lived read-only connections).
"""

from __future__ import annotations

import hashlib
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

if __package__ in (None, ""):  # `streamlit run dashboard/app.py` puts dashboard/ on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd
import streamlit as st

from dashboard import charts, db, texts, upload
from dashboard.safe import ident, md, one_line, plain_ident, text_table

SESSION_CAP = 500
CONVERSATION_LIMIT = 300
QUARANTINE_LIMIT = 200
GOLDEN_TURNS_LIMIT = 100
QUEUE_LIMIT = 100
LOG = logging.getLogger("card_keeper.dashboard")


@contextmanager
def shielded(message: str, where=st) -> Iterator[None]:
    """Run a piece of the screen; if it fails, show `message` (Korean) instead of a traceback.

    The full traceback goes to the server's log. Streamlit's rerun/stop signals are
    BaseExceptions and pass through; so do the database-busy/missing states main() handles.
    """
    try:
        yield
    except (db.DatabaseBusy, db.DatabaseMissing):
        raise
    except Exception as error:
        LOG.exception("dashboard: %s", message)
        where.error(
            message + " " + texts.FAILED_DETAIL.format(kind=md(type(error).__name__)),
            icon=":material/error:",
        )


# -- database choice ------------------------------------------------------------------------------
def databases() -> dict[str, Path]:
    """Demo first, then this browser session's successful uploads (label -> path) whose folder
    still exists (an upload may have been deleted, or pruned beyond the kept number)."""
    if "databases" not in st.session_state:
        st.session_state.databases = {texts.DEMO_LABEL: db.default_database()}
    options = st.session_state.databases
    for label, path in list(options.items()):
        if label != texts.DEMO_LABEL and not path.parent.exists():
            del options[label]
    return options


def choose_database() -> tuple[str, Path]:
    options = databases()
    pending = st.session_state.pop("pending_choice", None)
    if pending in options:
        st.session_state.db_choice = pending
    if st.session_state.get("db_choice") not in options:
        st.session_state.db_choice = texts.DEMO_LABEL
    st.sidebar.subheader(texts.DATABASE_HEADER)
    label = st.sidebar.radio(
        texts.DATABASE_HEADER, list(options), key="db_choice", label_visibility="collapsed"
    )
    st.sidebar.caption(md(shown_path(options[label])))
    notice = st.session_state.pop("sidebar_notice", None)
    if notice is not None:
        getattr(st.sidebar, notice[0])(notice[1])
    if label != texts.DEMO_LABEL:
        st.sidebar.button(
            texts.UPLOAD_DELETE,
            key="delete_upload",
            icon=":material/delete:",
            on_click=delete_upload,
            args=(label, options[label]),
        )
    return label, options[label]


def delete_upload(label: str, path: Path) -> None:
    """Remove an upload's folder (database, files, export) and show the demo again."""
    removed = upload.remove(path.parent)
    databases().pop(label, None)
    st.session_state.pending_choice = texts.DEMO_LABEL
    st.session_state.sidebar_notice = (
        ("info", texts.UPLOAD_DELETED.format(label=md(label)))
        if removed
        else ("warning", texts.UPLOAD_NOT_DELETED.format(label=md(label)))
    )


def shown_path(path: Path) -> str:
    """The database file relative to the project root when it lies inside, else the last parts."""
    try:
        return str(path.resolve().relative_to(db.PROJECT_ROOT))
    except ValueError:
        return str(Path("…", *path.parts[-2:]))


def warn_if_public() -> None:
    address = st.get_option("server.address")
    if address not in ("127.0.0.1", "localhost", "::1"):
        st.warning(texts.PUBLIC_BIND_WARNING.format(address=md(address or "0.0.0.0")))


# -- sidebar: output-schema checks ----------------------------------------------------------------
def schema_checks(batch: db.Batch) -> None:
    st.sidebar.subheader(texts.CHECKS_HEADER)
    latest, results = batch.latest_test_results()
    if latest is None:
        st.sidebar.info(texts.CHECKS_NONE)
        return
    st.sidebar.caption(
        texts.CHECKS_RAN_AT.format(
            when=md(latest["run_started_text"]),
            invocation=md(str(latest["invocation_id"])[:8]),
        )
    )
    by_prefix = {}
    for row in results.itertuples():
        prefix = str(row.test_name)[: len("assert_check_00")]
        if prefix in texts.CHECK_LABELS:
            by_prefix[prefix] = row
    lines = []
    for number, (prefix, label) in enumerate(texts.CHECK_LABELS.items(), start=1):
        row = by_prefix.get(prefix)
        if row is None:
            lines.append(f"{texts.MISSING_ICON} {number}. {label} — {texts.CHECKS_MISSING}")
            continue
        icon = texts.STATUS_ICONS.get(str(row.status), texts.UNKNOWN_ICON)
        failures = f" ({int(row.failures)}건)" if row.status != "pass" and row.failures else ""
        lines.append(f"{icon} {number}. {label} `{md(row.status)}`{failures}")
    container = st.sidebar.container(key="schema_checks")
    container.markdown("  \n".join(lines))
    others = results[~results["test_name"].str.startswith("assert_check_")]
    passed = int((others["status"] == "pass").sum())
    failed = int(others["status"].isin(["fail", "error"]).sum())
    container.caption(
        texts.CHECKS_OTHERS.format(
            total=len(others), passed=passed, failed=failed, other=len(others) - passed - failed
        )
    )


# -- header ---------------------------------------------------------------------------------------
def header(batch: db.Batch, label: str) -> None:
    st.title(texts.TITLE)
    if batch.has("seeds.verdict_words") and set(batch.verdict_words()) != set(texts.VERDICTS):
        st.error(texts.WORDS_DIFFER.format(words=md(", ".join(batch.verdict_words()))))
    info = batch.overview()
    quarantined = batch.quarantine_count()
    st.caption(
        md(label)
        + " · "
        + md(
            texts.OVERVIEW.format(
                turns=info.get("turns") or 0,
                sessions=info.get("sessions") or 0,
                version=info.get("version") or "-",
                fingerprint=info.get("fingerprint") or "-",
            )
        )
        + " · "
        + md(texts.QUARANTINED.format(count=quarantined))
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
    with st.container(height=1100, key="conversation", autoscroll=False):
        for turn in turns.itertuples():
            with shielded(texts.ROW_FAILED.format(turn_id=ident(turn.turn_id))):
                conversation_turn(turn)


def conversation_turn(turn) -> None:
    with st.chat_message("user"):
        st.text(turn.user_message if pd.notna(turn.user_message) else texts.CONVERSATION_NO_MESSAGE)
    with st.chat_message("assistant"):
        st.text(turn.reply_text if turn.reply_text else texts.CONVERSATION_EMPTY_REPLY)
        verdict_badge(turn.verdict)
        st.caption(f"{ident(turn.turn_id)} · {ident(turn.model_id)} · {md(turn.created_at_text)}")


def verdict_badge(verdict: str) -> None:
    if verdict in texts.VERDICT_COLORS:
        st.badge(verdict, color=texts.VERDICT_COLORS[verdict])
    else:
        st.text(verdict)


# -- the verdict list -----------------------------------------------------------------------------
def filters(batch: db.Batch, key: str) -> dict[str, str | None]:
    model_col, character_col, session_col = st.columns(3)
    model = model_col.selectbox(
        texts.FILTER_MODEL,
        [None, *batch.models()],
        format_func=lambda v: texts.ALL if v is None else plain_ident(v),
        key=f"filter_model_{key}",
    )
    cards = {c["character_id"]: c["name"] for c in batch.characters()}
    character = character_col.selectbox(
        texts.FILTER_CHARACTER,
        [None, *cards],
        format_func=lambda v: (
            texts.ALL if v is None else f"{plain_ident(v)} · {plain_ident(cards[v])}"
        ),
        key=f"filter_character_{key}",
    )
    chosen = {"model_id": model, "character_id": character}
    sessions = batch.sessions(chosen, SESSION_CAP)
    if len(sessions) > SESSION_CAP:
        session = (
            session_col.text_input(
                texts.FILTER_SESSION_TEXT,
                key=f"filter_session_text_{key}",
                help=texts.FILTER_SESSION_HELP.format(cap=SESSION_CAP),
            ).strip()
            or None
        )
    else:
        session = session_col.selectbox(
            texts.FILTER_SESSION,
            [None, *sessions],
            format_func=lambda v: texts.ALL if v is None else plain_ident(v),
            key=f"filter_session_{key}",
        )
    chosen["session_id"] = session
    return chosen


def verdict_list(batch: db.Batch, key: str) -> None:
    st.subheader(texts.LIST_HEADER)
    chosen = filters(batch, key)
    counts = batch.verdict_counts(chosen)
    group = st.segmented_control(
        texts.GROUPS,
        texts.VERDICTS,
        format_func=lambda v: texts.GROUP_OPTION.format(verdict=v, count=counts.get(v, 0)),
        default=texts.VERDICTS[0],
        required=True,
        key=f"group_{key}",
        wrap=True,
    )
    total = counts.get(group, 0)
    if total == 0:
        st.info(texts.GROUP_EMPTY)
        return
    pages = (total + texts.PAGE_SIZE - 1) // texts.PAGE_SIZE
    filter_key = hashlib.sha1(repr(sorted(chosen.items())).encode()).hexdigest()[:10]
    page_key = f"page_{key}_{texts.VERDICTS.index(group)}_{filter_key}"
    page = min(max(st.session_state.get(page_key, 1), 1), pages)
    rows = batch.verdict_page(group, chosen, page, texts.PAGE_SIZE)
    turn_ids = rows["turn_id"].tolist()
    evidence = batch.evidence_for(turn_ids)
    checks = batch.checks_for(turn_ids)
    with st.container(key="verdict_rows"):
        for row in rows.itertuples():
            with shielded(texts.ROW_FAILED.format(turn_id=ident(row.turn_id))):
                verdict_row(
                    row,
                    evidence[evidence["turn_id"] == row.turn_id],
                    checks[checks["turn_id"] == row.turn_id],
                )
    pager(page_key, page, pages, total)


def pager(page_key: str, page: int, pages: int, total: int) -> None:
    def move(step: int) -> None:
        st.session_state[page_key] = min(max(page + step, 1), pages)

    previous, where, following = st.columns([1, 2, 1], vertical_alignment="center")
    previous.button(
        texts.PREVIOUS,
        key=f"{page_key}_prev",
        on_click=move,
        args=(-1,),
        disabled=page <= 1,
        width="stretch",
    )
    where.markdown(
        f"<div style='text-align:center'>{texts.PAGE.format(page=page, pages=pages, count=total)}"
        "</div>",
        unsafe_allow_html=True,  # only our own digits and words, no user text
    )
    following.button(
        texts.NEXT,
        key=f"{page_key}_next",
        on_click=move,
        args=(1,),
        disabled=page >= pages,
        width="stretch",
    )


def verdict_row(row, evidence: pd.DataFrame, checks: pd.DataFrame) -> None:
    label = texts.ROW_LABEL.format(
        verdict=md(row.verdict), turn_id=ident(row.turn_id), summary=md(one_line(row.summary, 64))
    )
    skipped = list(row.skipped_checks) if row.skipped_checks is not None else []
    icon = ":material/skip_next:" if skipped else None
    with st.expander(label, icon=icon):
        st.caption(
            texts.ROW_META.format(
                model_id=ident(row.model_id),
                character_id=ident(row.character_id),
                session_id=ident(row.session_id),
                created_at=md(row.created_at_text),
            )
        )
        st.text(
            texts.RULE_LINE.format(
                expected=row.rule_expected or "-", observed=row.rule_observed or "-"
            )
        )
        message_col, reply_col = st.columns(2)
        message_col.caption(texts.USER_MESSAGE)
        message_col.text(
            row.user_message if pd.notna(row.user_message) else texts.CONVERSATION_NO_MESSAGE
        )
        reply_col.caption(texts.REPLY)
        reply_col.text(row.reply_text if row.reply_text else texts.CONVERSATION_EMPTY_REPLY)
        st.caption(texts.EVIDENCE)
        if evidence.empty:
            st.text(texts.NO_EVIDENCE)
        else:
            shown = evidence[["source", "field", "agg", "value"]].copy()
            shown["agg"] = shown["agg"].fillna("")
            shown["value"] = shown["value"].map(lambda v: "null" if v is None or pd.isna(v) else v)
            st.table(text_table(shown), hide_index=True)
        st.caption(texts.HEDGE)
        st.text(row.hedge if pd.notna(row.hedge) and row.hedge else texts.NO_HEDGE)
        if skipped:
            st.caption(texts.SKIPPED)
            st.text("\n".join(skipped_line(code) for code in skipped))
        if not checks.empty:
            st.caption(texts.CHECKS_TABLE)
            summary = pd.DataFrame(
                {
                    "check": checks["check_name"].map(
                        lambda c: f"{c} ({texts.CHECK_NAMES.get(c, c)})"
                    ),
                    "status": checks["status"].map(lambda s: texts.STATUS_NAMES.get(s, s)),
                    "reason": checks["reason_code"].fillna(""),
                    "note": checks["note_code"].fillna(""),
                    "deciding": checks["is_deciding"].map(lambda d: "✔" if d else ""),
                }
            )
            st.table(text_table(summary), hide_index=True)


def skipped_line(code: str) -> str:
    check, _, reason = str(code).partition(":")
    return (
        f"{code} — {texts.CHECK_NAMES.get(check, check)} 건너뜀: "
        f"{texts.REASON_NAMES.get(reason, reason)}"
    )


# -- sections below the list ----------------------------------------------------------------------
def self_scoring(batch: db.Batch) -> None:
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
    if batch.has("marts.fct_golden_agreement"):
        turns = batch.golden_disagreeing_turns(GOLDEN_TURNS_LIMIT)
        if not turns.empty:
            st.caption(texts.GOLDEN_TURNS.format(limit=GOLDEN_TURNS_LIMIT))
            st.dataframe(turns, hide_index=True)


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
    if outside:
        st.caption(texts.TREND_OUTSIDE.format(count=outside))


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
        st.table(text_table(rows), hide_index=True)


# -- upload ---------------------------------------------------------------------------------------
def upload_section(current_label: str, current_path: Path) -> None:
    st.subheader(texts.UPLOAD_HEADER)
    st.caption(texts.UPLOAD_INTRO)
    outcome = st.session_state.pop("upload_outcome", None)
    if outcome is not None:
        kind, message, log = outcome
        getattr(st, kind)(message)
        if log:
            with st.expander(texts.UPLOAD_LOG):
                st.code(log, language=None)
    with st.form("upload", clear_on_submit=False):
        widgets = {
            table: st.file_uploader(
                texts.UPLOAD_FIELDS[table],
                key=f"upload_{table}",
                max_upload_size=upload.max_upload_mb(),
            )
            for table in (*upload.REQUIRED, *upload.OPTIONAL)
        }
        submitted = st.form_submit_button(texts.UPLOAD_SUBMIT, type="primary")
    if (
        current_path.parent.parent == upload.uploads_dir()
        and (export := current_path.parent / "turn_verdicts.json").exists()
    ):
        st.download_button(
            texts.UPLOAD_EXPORT,
            export.read_bytes(),
            "turn_verdicts.json",
            mime="application/json",
            on_click="ignore",
        )
    if not submitted:
        return
    files = {
        table: upload.Incoming(table, widget.name, widget.getvalue()) if widget else None
        for table, widget in widgets.items()
    }
    problems = upload.validate(files)
    if problems:
        st.error("\n\n".join(md(p) for p in problems))
        st.info(texts.UPLOAD_KEPT.format(label=md(current_label)))
        return
    upload_id, folder = upload.save(files)
    with st.spinner(texts.UPLOAD_RUNNING):
        result = upload.build(folder, upload_id)
    if result.ok and not built_marts(result.database):
        result.ok = False
        result.key_line = texts.NOT_BUILT.format(table=db.VERDICTS_TABLE)
    if not result.ok:
        # Nothing of a failed build is kept: the message and dbt's output tail say it all.
        upload.remove(folder)
        st.session_state.upload_outcome = (
            "error",
            texts.UPLOAD_FAILED.format(key_line=md(result.key_line))
            + "  \n"
            + texts.UPLOAD_KEPT.format(label=md(current_label)),
            result.log_tail,
        )
        st.rerun()
    label = texts.UPLOAD_LABEL.format(id=upload_id)
    databases()[label] = result.database
    st.session_state.pending_choice = label
    with db.Reader(result.database).batch() as batch:
        turns = batch.overview().get("turns") or 0
        quarantined = batch.quarantine_count()
    message = texts.UPLOAD_OK.format(id=upload_id, turns=turns, quarantined=quarantined)
    pruned = upload.prune()
    if pruned:
        message += "  \n" + texts.UPLOAD_PRUNED.format(
            count=len(pruned), keep=upload.keep_uploads()
        )
    if result.failed_tests:
        message += "  \n" + texts.UPLOAD_TESTS_FAILED.format(failed=result.failed_tests)
    st.session_state.upload_outcome = ("success", message, "")
    st.rerun()


def built_marts(path: Path) -> bool:
    try:
        with db.Reader(path, attempts=3).batch() as batch:
            return batch.has(db.VERDICTS_TABLE) and batch.has("marts.fct_contract_violations")
    except Exception:  # any failure to open means there is nothing to show
        return False


# -- page -----------------------------------------------------------------------------------------
def main() -> None:
    st.set_page_config(
        page_title="card_keeper", page_icon=":material/theater_comedy:", layout="wide"
    )
    busy = st.empty()

    def on_busy(attempt: int) -> None:
        busy.info(f"{texts.BUSY} ({attempt})", icon=":material/hourglass_top:")

    label, path = choose_database()
    key = hashlib.sha1(str(path).encode()).hexdigest()[:8]
    reader = db.Reader(path, on_busy=on_busy)
    warn_if_public()
    with shielded(texts.SCREEN_FAILED):
        screen(label, path, key, reader, busy)


def screen(label: str, path: Path, key: str, reader: db.Reader, busy) -> None:
    try:
        with reader.batch() as batch:
            with shielded(texts.SECTION_FAILED, where=st.sidebar):
                schema_checks(batch)
            if not batch.has(db.VERDICTS_TABLE):
                st.title(texts.TITLE)
                st.error(texts.NOT_BUILT.format(table=db.VERDICTS_TABLE))
                upload_section(label, path)
                return
            header(batch, label)
        left, right = st.columns([4, 6], gap="large")
        with left, shielded(texts.SECTION_FAILED), reader.batch() as batch:
            conversation(batch, key)
        with right, shielded(texts.SECTION_FAILED), reader.batch() as batch:
            verdict_list(batch, key)
        tabs = st.tabs(texts.SECTIONS, key="section", on_change="rerun")
        renderers = (self_scoring, deviation_rates, notes, quarantine)
        for tab, render in zip(tabs, renderers, strict=False):
            if tab.open:
                with tab, shielded(texts.SECTION_FAILED), reader.batch() as batch:
                    render(batch)
        if tabs[-1].open:
            with tabs[-1]:
                upload_section(label, path)
        busy.empty()
    except db.DatabaseMissing:
        st.error(texts.NO_DATABASE.format(path=md(path)))
        with st.container():
            upload_section(label, path)
    except db.DatabaseBusy:
        busy.warning(texts.BUSY_GAVE_UP, icon=":material/hourglass_top:")
        st.button(texts.RETRY)


main()
