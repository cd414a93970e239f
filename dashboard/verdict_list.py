"""The verdict list (tab 판정 목록): search and filters, the five groups with the largest
deviation group first shown, one page of rows, each row's reply with highlights, evidence,
checks and the reviewer's mark, and the export of the filtered rows."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import streamlit as st

from dashboard import db, reviews, texts
from dashboard.safe import ident, md, plain_ident
from dashboard.widgets import korean_table, reply_block, shielded, shown_value
from python_udfs.export import schema_fields

SESSION_CAP = 500
OFF_CANON = texts.VERDICTS[2]


def filters(batch: db.Batch, key: str) -> dict[str, str | None]:
    """The search box and the four filters; values are bound parameters in db.Batch.where."""
    search = st.text_input(
        texts.SEARCH, key=f"search_{key}", help=texts.SEARCH_HELP, icon=":material/search:"
    ).strip()
    model_col, character_col, session_col, skipped_col = st.columns(4)
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
    chosen: dict[str, str | None] = {"model_id": model, "character_id": character}
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
    skipped = skipped_col.selectbox(
        texts.FILTER_SKIPPED,
        [None, *batch.skipped_codes()],
        format_func=lambda v: texts.ALL if v is None else skipped_label(v),
        key=f"filter_skipped_{key}",
    )
    chosen.update(session_id=session, skipped_check=skipped, search=search or None)
    return chosen


def largest_deviation_group(counts: dict[str, int]) -> str:
    """The deviation group with the most turns (ties: the schema's order); 설정대로 말함 only when
    no turn deviates."""
    deviating = [(counts.get(v, 0), -i, v) for i, v in enumerate(texts.VERDICTS) if v != texts.KEPT]
    best = max(deviating)
    return best[2] if best[0] > 0 else texts.KEPT


def verdict_list(batch: db.Batch, key: str, database: Path) -> None:
    chosen = filters(batch, key)
    counts = batch.verdict_counts(chosen)
    group = st.segmented_control(
        texts.GROUPS,
        texts.VERDICTS,
        format_func=lambda v: texts.GROUP_OPTION.format(verdict=v, count=counts.get(v, 0)),
        default=largest_deviation_group(counts),
        required=True,
        key=f"group_{key}",
        wrap=True,
    )
    total = counts.get(group, 0)
    export_buttons(batch, group, chosen, total, key)
    if total == 0:
        st.info(texts.GROUP_EMPTY)
        return
    pages = (total + texts.PAGE_SIZE - 1) // texts.PAGE_SIZE
    filter_key = hashlib.sha1(repr(sorted(chosen.items())).encode()).hexdigest()[:10]
    page_key = f"page_{key}_{texts.VERDICTS.index(group)}_{filter_key}"
    page = min(max(st.session_state.get(page_key, 1), 1), pages)
    rows = batch.verdict_page(group, chosen, page, texts.PAGE_SIZE)
    folder = reviews.folder_for(database)
    marks = reviews.latest_marks(folder)
    st.caption(texts.ROW_DETAILS_HINT)
    with st.container(key="verdict_rows"):
        for row in rows.to_dict("records"):
            with shielded(texts.ROW_FAILED.format(turn_id=ident(row["turn_id"]))):
                verdict_row(batch, row, folder, marks.get(row["turn_id"]), f"{key}_{filter_key}")
    pager(page_key, page, pages, total)


def export_buttons(
    batch: db.Batch, group: str, chosen: dict[str, str | None], total: int, key: str
) -> None:
    """CSV and the schema's JSON of every row under the filters in the chosen group; the file is
    made when the button is pressed (a callable), from its own short connection."""
    reader = db.Reader(batch_path(batch))
    frozen = dict(chosen)

    def as_csv() -> bytes:
        with reader.batch() as fresh:
            return fresh.filtered_csv(group, frozen)

    def as_json() -> bytes:
        with reader.batch() as fresh:
            return fresh.filtered_json(group, frozen, schema_fields())

    left, right, _ = st.columns([1, 1, 2])
    left.download_button(
        texts.EXPORT_CSV.format(count=total),
        as_csv,
        "turn_verdicts_filtered.csv",
        mime="text/csv",
        key=f"export_csv_{key}",
        on_click="ignore",
        icon=":material/download:",
        disabled=total == 0,
    )
    right.download_button(
        texts.EXPORT_JSON.format(count=total),
        as_json,
        "turn_verdicts_filtered.json",
        mime="application/json",
        key=f"export_json_{key}",
        on_click="ignore",
        icon=":material/download:",
        disabled=total == 0,
    )


def batch_path(batch: db.Batch) -> Path:
    ((path,),) = batch.con.execute(
        "select path from duckdb_databases() where database_name = current_database()"
    ).fetchall()
    return Path(path)


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


def highlights(row: dict) -> dict[str, list[str]]:
    """What to mark inside the reply: the matched lexicon term, the off-canon names and the
    name recall looks for (text only: a null cell, NaN to pandas, marks nothing)."""

    def texts_of(value: object) -> list[str]:
        if isinstance(value, str):
            return [value] if value else []
        if value is not None and hasattr(value, "__iter__"):
            return [item for item in value if isinstance(item, str) and item]
        return []

    return {
        "term": texts_of(row.get("touched_term")),
        "off_canon": texts_of(row.get("off_canon_entities")),
        "recall": texts_of(row.get("recall_target")),
    }


def row_label(row: dict) -> str:
    return texts.ROW_LABEL.format(
        verdict=md(row["verdict"]), turn_id=ident(row["turn_id"]), summary=md(row["summary"])
    )


def verdict_row(
    batch: db.Batch, row: dict, folder: Path, mark: dict | None, key: str, expanded=False
) -> None:
    skipped = list(row["skipped_checks"]) if row["skipped_checks"] is not None else []
    icon = ":material/skip_next:" if skipped else None
    if mark:
        icon = ":material/rate_review:"
    expander = st.expander(
        row_label(row),
        icon=icon,
        expanded=expanded,
        key=f"row_{key}_{row['turn_id']}",
        on_change="rerun",
    )
    with expander:
        if expander.open or expanded:
            row_details(batch, row, folder, mark, skipped, key)


def row_details(
    batch: db.Batch, row: dict, folder: Path, mark: dict | None, skipped: list, key: str
) -> None:
    st.caption(
        texts.ROW_META.format(
            model_id=ident(row["model_id"]),
            character_id=ident(row["character_id"]),
            session_id=ident(row["session_id"]),
            created_at=md(row["created_at_text"]),
        )
    )
    st.text(
        texts.RULE_LINE.format(
            expected=row["rule_expected"] or "-", observed=row["rule_observed"] or "-"
        )
    )
    message_col, reply_col = st.columns(2)
    message_col.caption(texts.USER_MESSAGE)
    message = row["user_message"]
    message_col.text(message if message is not None and pd.notna(message) else texts.NULL)
    reply_col.caption(texts.REPLY)
    with reply_col:
        reply_block(row["reply_text"], highlights(row))
    reply_col.caption(texts.HIGHLIGHT_LEGEND)
    if row["verdict"] == OFF_CANON or highlights(row)["off_canon"]:
        canon_part(batch, row, folder, key)
    evidence = batch.evidence_for([row["turn_id"]])
    st.caption(texts.EVIDENCE)
    if evidence.empty:
        st.text(texts.NO_EVIDENCE)
    else:
        korean_table(evidence, texts.EVIDENCE_HEADERS)
    st.caption(texts.HEDGE)
    hedge = row["hedge"]
    st.text(hedge if hedge is not None and pd.notna(hedge) and hedge else texts.NO_HEDGE)
    if skipped:
        st.caption(texts.SKIPPED)
        st.text("\n".join(skipped_label(code) for code in skipped))
    checks = batch.checks_for([row["turn_id"]])
    if not checks.empty:
        st.caption(texts.CHECKS_TABLE)
        shown = pd.DataFrame(
            {
                "check": checks["check_name"].map(
                    lambda c: texts.CHECK_NAME_COLUMN.format(
                        name=texts.CHECK_NAMES.get(c, c), code=c
                    )
                ),
                "status": checks["status"].map(
                    lambda s: texts.CHECK_NAME_COLUMN.format(
                        name=texts.STATUS_NAMES.get(s, s), code=s
                    )
                ),
                "reason": checks["reason_code"].map(reason_label),
                "note": checks["note_code"].map(reason_label),
                "deciding": checks["is_deciding"].map(lambda d: "✔" if d else ""),
            }
        )
        korean_table(shown, texts.CHECK_HEADERS)
    mark_part(row, folder, mark, key)


def reason_label(code: object) -> object:
    """A reason code in Korean with the code beside it; null stays null."""
    if code is None or (isinstance(code, float) and pd.isna(code)):
        return None
    return texts.CHECK_NAME_COLUMN.format(name=texts.REASON_NAMES.get(code, code), code=code)


def skipped_label(code: str) -> str:
    check, _, reason = str(code).partition(":")
    return (
        f"{texts.CHECK_NAMES.get(check, check)} 건너뜀: "
        f"{texts.REASON_NAMES.get(reason, reason)} ({code})"
    )


def canon_part(batch: db.Batch, row: dict, folder: Path, key: str) -> None:
    """The card's canon list, and an add / block choice for each off-canon name."""
    card = batch.card(row["character_id"]) or {}
    canon = card.get("canon_entities")
    names = [str(n) for n in canon] if canon is not None else []
    st.caption(texts.CANON_LIST.format(count=len(names), names=md(", ".join(names) or "-")))
    off_canon = highlights(row)["off_canon"]
    if not off_canon:
        return
    decided = reviews.latest_decisions(folder)
    with st.container(key=f"canon_{key}_{row['turn_id']}"):
        st.caption(texts.CANON_DECIDE)
        for index, name in enumerate(off_canon):
            name_col, add_col, block_col = st.columns([3, 1, 1], vertical_alignment="center")
            current = decided.get((row["character_id"], name))
            name_col.markdown(
                ident(name)
                + (
                    " — "
                    + md(
                        texts.CANON_DECIDED.format(
                            name=name, decision=current["decision"], when=current["decided_at"]
                        )
                    )
                    if current
                    else ""
                )
            )
            for column, decision, label in (
                (add_col, "add", texts.CANON_ADD),
                (block_col, "block", texts.CANON_BLOCK),
            ):
                column.button(
                    label,
                    key=f"canon_{decision}_{key}_{row['turn_id']}_{index}",
                    on_click=decide,
                    args=(folder, row["character_id"], name, decision),
                    type="primary" if current and current["decision"] == decision else "secondary",
                )


def decide(folder: Path, character_id: str, name: str, decision: str) -> None:
    reviews.decide_name(folder, character_id, name, decision, reviewer=reviewer_name())
    st.toast(texts.CANON_SAVED.format(name=name, decision=decision))


def reviewer_name() -> str:
    return st.session_state.get("reviewer_name", "")


def mark_part(row: dict, folder: Path, mark: dict | None, key: str) -> None:
    """The reviewer's mark on this turn: the current one, and a form to add a new one."""
    st.caption(texts.MARK_HEADER)
    if mark:
        expected = f" (→ {mark['expected_verdict']})" if mark.get("expected_verdict") else ""
        st.text(
            texts.MARK_CURRENT.format(
                mark=texts.MARK_NAMES.get(mark["mark"], mark["mark"]),
                expected=expected,
                note=mark.get("note") or "-",
                when=mark.get("marked_at") or "-",
            )
        )
    else:
        st.text(texts.MARK_NONE)
    with st.form(f"mark_{key}_{row['turn_id']}", clear_on_submit=True, border=False):
        choice_col, expected_col = st.columns(2)
        choice = choice_col.radio(
            texts.MARK_CHOICE,
            list(texts.MARK_NAMES),
            format_func=texts.MARK_NAMES.get,
            horizontal=True,
            key=f"mark_choice_{key}_{row['turn_id']}",
        )
        expected = expected_col.selectbox(
            texts.MARK_EXPECTED,
            [None, *texts.VERDICTS],
            format_func=lambda v: "-" if v is None else v,
            key=f"mark_expected_{key}_{row['turn_id']}",
        )
        note = st.text_input(texts.MARK_NOTE, key=f"mark_note_{key}_{row['turn_id']}")
        if st.form_submit_button(texts.MARK_SAVE, icon=":material/save:"):
            saved = reviews.mark_turn(
                folder,
                row["turn_id"],
                choice,
                row["verdict"],
                shown_value(row.get("rule_fingerprint")),
                note=note,
                reviewer=reviewer_name(),
                expected_verdict=expected or "",
            )
            st.session_state["mark_saved"] = texts.MARK_SAVED.format(
                mark=texts.MARK_NAMES[saved.mark]
            )
            st.rerun()
