"""card_keeper's screen for creators (docs/dashboard.md): which database is shown, a summary
strip, then tabs — the verdict list (deviations first, search, filters, reviewer marks,
export), the prompt × model matrix, the public conversation, run comparison, test history,
self-scoring, deviation rates, verification notes, quarantine and the analyst's upload.

Run with `make dashboard` (127.0.0.1:8501 over the demo build). CARD_KEEPER_DB picks the
database; every read goes through dashboard.db (short-lived read-only connections).
"""

from __future__ import annotations

import hashlib
import sys
from functools import partial
from pathlib import Path

if __package__ in (None, ""):  # `streamlit run dashboard/app.py` puts dashboard/ on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import streamlit as st

from dashboard import db, sections, texts, upload, upload_view, verdict_list
from dashboard.safe import md, plain_ident
from dashboard.widgets import shielded, verdict_badge

MODELS_IN_STRIP = 3
# The bundled demo's turns: a database built from this file alone is the demo.
DEMO_CHAT_TURN = "data/demo/chat_turn.jsonl"


# -- database choice ------------------------------------------------------------------------------
def databases() -> dict[str, Path]:
    """The default database first, then every finished upload on disk, newest first (label ->
    path): uploads persist across reloads and browser sessions until deleted or pruned."""
    default = db.default_database()
    options = {texts.DEFAULT_LABEL.format(path=shown_path(default)): default}
    for item in upload.finished_uploads():
        options[upload_view.upload_option(item)] = item.database
    return options


def choose_database() -> tuple[str, Path, dict[str, Path]]:
    options = databases()
    by_path = {path: label for label, path in options.items()}
    pending = st.session_state.pop("pending_choice", None)
    if pending is not None and pending in by_path:
        st.session_state.db_choice = by_path[pending]
    if st.session_state.get("db_choice") not in options:
        st.session_state.db_choice = next(iter(options))
    st.sidebar.subheader(texts.DATABASE_HEADER)
    label = st.sidebar.radio(
        texts.DATABASE_HEADER, list(options), key="db_choice", label_visibility="collapsed"
    )
    notice = st.session_state.pop("sidebar_notice", None)
    if notice is not None:
        getattr(st.sidebar, notice[0])(notice[1])
    if options[label] != db.default_database():
        st.sidebar.button(
            texts.UPLOAD_DELETE,
            key="delete_upload",
            icon=":material/delete:",
            on_click=delete_upload,
            args=(options[label],),
        )
    return label, options[label], options


def delete_upload(database: Path) -> None:
    """Remove an upload's folder (database, files, export, decisions) and show the default."""
    removed = upload.remove(database.parent)
    st.session_state.pending_choice = db.default_database()
    name = database.parent.name
    st.session_state.sidebar_notice = (
        ("info", texts.UPLOAD_DELETED.format(label=md(name)))
        if removed
        else ("warning", texts.UPLOAD_NOT_DELETED.format(label=md(name)))
    )


def select_database(database: Path) -> None:
    """Show a database just built (its tabs open on the verdict list, see tabs_of)."""
    st.session_state.pending_choice = database


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
def schema_checks(batch: db.Batch, place) -> None:
    """The ten output-schema checks of the latest invocation, in `place` (the sidebar)."""
    place.subheader(texts.CHECKS_HEADER)
    latest, results = batch.latest_test_results()
    if latest is None:
        place.info(texts.CHECKS_NONE)
        return
    place.caption(
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
    container = place.container(key="schema_checks")
    container.markdown("  \n".join(lines))
    others = results[~results["test_name"].str.startswith("assert_check_")]
    passed = int((others["status"] == "pass").sum())
    failed = int(others["status"].isin(["fail", "error"]).sum())
    container.caption(
        texts.CHECKS_OTHERS.format(
            total=len(others), passed=passed, failed=failed, other=len(others) - passed - failed
        )
    )


# -- header and the summary strip ----------------------------------------------------------------
def shown_database(batch: db.Batch, path: Path) -> str:
    """Which database this is, in words: the demo only when every chat_turn file it was built
    from is the bundled demo file; an upload by its files' names and time; else its path."""
    for item in upload.finished_uploads():
        if item.database == path:
            return texts.SHOWN_UPLOAD.format(
                files=md(", ".join(item.files.values()) or item.upload_id),
                created=md(item.created_at),
                path=md(shown_path(path)),
            )
    inputs = batch.input_files()
    if inputs and all(Path(f).as_posix().endswith(DEMO_CHAT_TURN) for f in inputs):
        return texts.SHOWN_DEMO.format(path=md(shown_path(path)))
    names = ", ".join(Path(f).name for f in inputs[:3]) + (" …" if len(inputs) > 3 else "")
    return texts.SHOWN_PATH.format(path=md(shown_path(path)), inputs=md(names or "-"))


def header(batch: db.Batch, path: Path) -> None:
    st.title(texts.TITLE)
    if batch.has("seeds.verdict_words") and set(batch.verdict_words()) != set(texts.VERDICTS):
        st.error(texts.WORDS_DIFFER.format(words=md(", ".join(batch.verdict_words()))))
    info = batch.overview()
    with st.container(key="database_label"):
        st.caption(
            shown_database(batch, path)
            + " · "
            + md(
                texts.OVERVIEW.format(
                    turns=info.get("turns") or 0,
                    sessions=info.get("sessions") or 0,
                    version=info.get("version") or "-",
                    fingerprint=info.get("fingerprint") or "-",
                )
            )
        )


def summary_strip(batch: db.Batch) -> None:
    """Turns, each model's deviation rate with its interval, the largest deviation group, the
    failing checks and the quarantined rows: every figure read from the marts."""
    info = batch.overview()
    counts = batch.verdict_counts({})
    rates = batch.model_rates()
    latest, results = batch.latest_test_results()
    shown_models = rates.head(MODELS_IN_STRIP)
    with st.container(key="summary_strip", border=True):
        columns = st.columns([1, *[1.2] * len(shown_models), 1.4, 1.2, 1])
        columns[0].metric(
            texts.STRIP_TURNS,
            f"{info.get('turns') or 0:,}",
            help=texts.STRIP_TURNS_HELP.format(sessions=info.get("sessions") or 0),
        )
        for column, rate in zip(columns[1:], shown_models.to_dict("records"), strict=False):
            column.metric(
                texts.STRIP_RATE.format(model=plain_ident(rate["model_id"])),
                texts.STRIP_RATE_VALUE.format(rate=rate["deviation_rate"]),
            )
            column.caption(
                texts.STRIP_RATE_HELP.format(
                    low=rate["ci_low"],
                    high=rate["ci_high"],
                    deviations=rate["deviations"],
                    turns=rate["turns"],
                )
            )
        rest = columns[1 + len(shown_models) :]
        worst = verdict_list.largest_deviation_group(counts)
        if worst == texts.KEPT:
            rest[0].metric(texts.STRIP_WORST, texts.STRIP_WORST_NONE)
        else:
            rest[0].metric(texts.STRIP_WORST, texts.STRIP_WORST_VALUE.format(count=counts[worst]))
            with rest[0]:
                verdict_badge(worst)
        if latest is None:
            rest[1].metric(texts.STRIP_CHECKS, texts.STRIP_CHECKS_NONE)
        else:
            failing = results["status"].isin(["fail", "error"])
            passing = results["status"] == "pass"
            checks = results["test_name"].str.startswith("assert_check_")
            others, others_passed = int((~checks).sum()), int((passing & ~checks).sum())
            others_failed = int((failing & ~checks).sum())
            rest[1].metric(
                texts.STRIP_CHECKS,
                texts.STRIP_CHECKS_VALUE.format(
                    failed=int((failing & checks).sum()), total=int(checks.sum())
                ),
            )
            rest[1].caption(
                texts.CHECKS_OTHERS.format(
                    total=others,
                    passed=others_passed,
                    failed=others_failed,
                    other=others - others_passed - others_failed,
                )
            )
        rest[2].metric(texts.STRIP_QUARANTINE, f"{batch.quarantine_count():,}")
        if len(rates) > MODELS_IN_STRIP:
            st.caption(texts.STRIP_RATE_MORE.format(count=len(rates) - MODELS_IN_STRIP))


# -- page -----------------------------------------------------------------------------------------
def main() -> None:
    st.set_page_config(
        page_title="card_keeper", page_icon=":material/theater_comedy:", layout="wide"
    )
    busy = st.empty()

    def on_busy(attempt: int) -> None:
        busy.info(f"{texts.BUSY} ({attempt})", icon=":material/hourglass_top:")

    label, path, options = choose_database()
    key = hashlib.sha1(str(path).encode()).hexdigest()[:8]
    reader = db.Reader(path, on_busy=on_busy)
    warn_if_public()
    saved = st.session_state.pop("mark_saved", None)
    if saved:
        st.toast(saved, icon=":material/save:")
    with shielded(texts.SCREEN_FAILED):
        screen(label, path, key, reader, busy, options)


def screen(label: str, path: Path, key: str, reader: db.Reader, busy, options) -> None:
    upload_tab = partial(upload_view.upload_section, label, path, select_database, delete_upload)
    upload_view.show_outcome()
    checks_place = st.sidebar.container()
    # The decisions (and their rebuild, which writes this database) hold no connection.
    with shielded(texts.SECTION_FAILED, where=st.sidebar):
        upload_view.decisions_sidebar(path)
    try:
        # One short read-only connection for the header, the strip and the open tab.
        open_tab, places = None, {}
        with reader.batch() as batch:
            with shielded(texts.SECTION_FAILED, where=checks_place):
                schema_checks(batch, checks_place)
            built = batch.has(db.VERDICTS_TABLE)
            if not built:
                st.title(texts.TITLE)
                st.error(texts.NOT_BUILT.format(table=db.VERDICTS_TABLE))
            else:
                header(batch, path)
                with shielded(texts.SECTION_FAILED):
                    summary_strip(batch)
                open_tab, places = tabs_of(batch, key, path, label, options)
        if not built or open_tab == texts.SECTION_UPLOAD:
            with places.get(open_tab) or st.container():
                upload_tab()
        busy.empty()
    except db.DatabaseMissing:
        st.error(texts.NO_DATABASE.format(path=md(path)))
        with st.container():
            upload_tab()
    except db.DatabaseBusy:
        busy.warning(texts.BUSY_GAVE_UP, icon=":material/hourglass_top:")
        st.button(texts.RETRY)


def tabs_of(batch: db.Batch, key: str, path: Path, label: str, options) -> tuple[str | None, dict]:
    """Draw the tabs and the open one (the upload tab is left to the caller: its build must not
    run inside this connection). Returns the open tab's name and the tabs by name.
    Each database has its own tabs (keyed by it), so a database newly shown opens on the verdict
    list: a tab chosen in code through session_state can be taken back by the browser's own
    memory of the open tab on the next click, which a fresh key does not have."""
    tabs = st.tabs(
        texts.SECTIONS, key=f"section_{key}", on_change="rerun", default=texts.SECTION_LIST
    )
    renderers = {
        texts.SECTION_LIST: lambda: verdict_list.verdict_list(batch, key, path),
        texts.SECTION_MATRIX: lambda: sections.matrix(batch, key),
        texts.SECTION_CONVERSATION: lambda: sections.conversation(batch, key),
        texts.SECTION_COMPARE: lambda: sections.compare_runs(batch, key, options, label),
        texts.SECTION_TESTS: lambda: sections.test_history(batch, key),
        texts.SECTION_GOLDEN: lambda: sections.self_scoring(batch, key, path),
        texts.SECTION_RATES: lambda: sections.deviation_rates(batch),
        texts.SECTION_NOTES: lambda: sections.notes(batch),
        texts.SECTION_QUARANTINE: lambda: sections.quarantine(batch),
    }
    places = dict(zip(texts.SECTIONS, tabs, strict=True))
    for name, tab in places.items():
        if not tab.open:
            continue
        if name in renderers:
            with tab, shielded(texts.SECTION_FAILED):
                renderers[name]()
        return name, places
    return None, places


main()
