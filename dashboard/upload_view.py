"""The upload tab (내 파일 올리기) and the rebuild of the shown database: the form with the input
contract's columns and template files, the build with dbt's progress streamed, the list of
uploads kept on disk with a delete button each."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from dashboard import db, reviews, texts, upload
from dashboard.safe import md, text_table
from python_udfs.contract import INPUT_CONTRACT

TEMPLATES = db.PROJECT_ROOT / "data" / "templates"


def progress_reporter():
    """A progress bar fed by upload.run_streaming: node N of M, seconds, the node's name."""
    bar = st.progress(0.0, text=texts.PROGRESS_START)

    def report(progress: upload.Progress) -> None:
        share = progress.done / progress.total if progress.total else 0.0
        bar.progress(
            min(share, 1.0),
            text=md(
                texts.PROGRESS.format(
                    done=progress.done,
                    total=progress.total,
                    elapsed=progress.elapsed,
                    node=progress.node[:80],
                )
            ),
        )

    return bar, report


def contract_table(table: str) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "열": column["name"],
                "종류": column["kind"],
                "필수": "예" if column.get("required") else "아니오",
            }
            for column in INPUT_CONTRACT[table]["columns"]
        ]
    )


def input_help() -> None:
    with st.expander(texts.UPLOAD_COLUMNS, key="upload_columns"):
        for table, column in zip((*upload.REQUIRED, *upload.OPTIONAL), st.columns(4), strict=True):
            column.markdown(f"**{table}**")
            column.table(text_table(contract_table(table)), hide_index=True)
            template = TEMPLATES / f"{table}.csv"
            if template.exists():
                column.download_button(
                    texts.UPLOAD_TEMPLATE.format(table=table),
                    template.read_bytes(),
                    template.name,
                    mime="text/csv",
                    key=f"template_{table}",
                    on_click="ignore",
                    icon=":material/description:",
                )


def uploads_list(on_delete) -> None:
    st.markdown(f"##### {texts.UPLOADS_LIST}")
    found = upload.finished_uploads()
    if not found:
        st.caption(texts.UPLOADS_NONE)
        return
    with st.container(key="uploads_list"):
        for item in found:
            name_col, delete_col = st.columns([5, 1], vertical_alignment="center")
            name_col.text(upload_option(item))
            delete_col.button(
                texts.UPLOAD_DELETE,
                key=f"delete_{item.upload_id}",
                icon=":material/delete:",
                on_click=on_delete,
                args=(item.database,),
            )


def upload_option(item: upload.Upload) -> str:
    files = ", ".join(item.files.get(t, "-") for t in upload.REQUIRED if t in item.files)
    return texts.UPLOAD_OPTION.format(created=item.created_at, files=files or item.upload_id)


def show_outcome() -> None:
    """The last upload's outcome, above the tabs: a success opens the new database on the
    verdict list, a failure stays on the upload tab; either way the message is in view."""
    outcome = st.session_state.pop("upload_outcome", None)
    if outcome is not None:
        kind, message, log = outcome
        getattr(st, kind)(message)
        if log:
            with st.expander(texts.UPLOAD_LOG):
                st.code(log, language=None)


def upload_section(current_label: str, current_path: Path, on_built, on_delete) -> None:
    st.subheader(texts.UPLOAD_HEADER)
    st.caption(texts.UPLOAD_INTRO)
    input_help()
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
    uploads_list(on_delete)
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
    bar, report = progress_reporter()
    result = upload.build(folder, upload_id, on_progress=report)
    bar.empty()
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
    on_built(result.database)
    st.rerun()


def built_marts(path: Path) -> bool:
    try:
        with db.Reader(path, attempts=3).batch() as batch:
            return batch.has(db.VERDICTS_TABLE) and batch.has("marts.fct_contract_violations")
    except Exception:  # any failure to open means there is nothing to show
        return False


def decisions_sidebar(database: Path) -> None:
    """The reviewers' decision files of the shown database: where, download, rebuild."""
    folder = reviews.folder_for(database)
    st.sidebar.subheader(texts.DECISIONS_HEADER)
    st.sidebar.caption(texts.DECISIONS_FOLDER.format(folder=md(shown_folder(folder))))
    for name in (reviews.TURN_MARKS, reviews.CANON_DECISIONS):
        data = reviews.file_bytes(folder, name)
        rows = max(data.decode("utf-8").count("\n") - 1, 0)
        st.sidebar.download_button(
            texts.DECISIONS_DOWNLOAD.format(name=name, rows=rows),
            data,
            name,
            mime="text/csv",
            key=f"download_{name}",
            on_click="ignore",
            icon=":material/download:",
        )
    st.sidebar.text_input(texts.MARK_REVIEWER, key="reviewer_name")
    notice = st.session_state.pop("rebuild_outcome", None)
    if notice is not None:
        getattr(st.sidebar, notice[0])(notice[1])
    if st.sidebar.button(texts.REBUILD, key="rebuild", icon=":material/refresh:"):
        with st.sidebar:
            bar, report = progress_reporter()
        result = upload.rebuild(database, folder, on_progress=report)
        bar.empty()
        st.session_state.rebuild_outcome = (
            ("success", texts.REBUILD_DONE)
            if result.ok
            else ("error", texts.REBUILD_FAILED.format(key_line=md(result.key_line)))
        )
        st.rerun()


def shown_folder(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(db.PROJECT_ROOT))
    except ValueError:
        return str(path)
