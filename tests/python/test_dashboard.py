"""The dashboard in a real browser: Streamlit over a dbt-built database, driven by Playwright
with Debian's chromium (`make system-packages`; a browser is never downloaded).

One Streamlit server per module, over the demo build in a tmp folder (CARD_KEEPER_DB), with
uploads and reviewer decisions in tmp folders too. Every figure asserted on screen is read from
the same database's marts, never typed in here. tests/python/test_dashboard_review.py covers
what changes the data (reviewer marks, rebuilds, run comparison, test history).

Set DASHBOARD_SCREENSHOT=docs to refresh the screenshots in docs/ (first view, matrix, a row
with highlights).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from browser_helpers import (
    VIEWPORT,
    choose,
    expected_labels,
    group_labels,
    launch,
    open_page,
    open_row,
    open_section,
    open_tab,
    pick_group,
    rows,
    search,
    selected_database,
    settle,
    streamlit_server,
    upload_files,
    verdict_counts,
    wait_for_groups,
    wait_for_outcome,
)
from conftest import BUILD, PROJECT_ROOT, DbtResult, fixture_inputs, run_dbt

from dashboard import charts, db, texts, verdict_list
from dashboard import upload as upload_module
from dashboard.safe import FSI, PDI, highlighted_html, ident, md, plain_ident
from python_udfs.contract import INPUT_CONTRACT
from python_udfs.export import schema_fields

sync_api = pytest.importorskip("playwright.sync_api")

DASHBOARD_FIXTURES = Path(__file__).resolve().parent / "dashboard_fixtures"
# Finished uploads the test server keeps (CARD_KEEPER_UPLOADS_KEEP).
KEEP_UPLOADS = 3
RTL_TURN_ID = "T-\u202eRTL-1"
SCREENSHOTS = os.environ.get("DASHBOARD_SCREENSHOT")


# -- the server and the browser -------------------------------------------------------------------
@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> DbtResult:
    return run_dbt(BUILD, tmp_path_factory.mktemp("dashboard_demo"))


@pytest.fixture(scope="module")
def uploads(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("dashboard_uploads")


@pytest.fixture(scope="module")
def server(demo: DbtResult, uploads: Path, tmp_path_factory) -> Iterator[str]:
    with streamlit_server(
        demo.database, uploads, tmp_path_factory.mktemp("dashboard_server"), keep=KEEP_UPLOADS
    ) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with sync_api.sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server: str) -> Iterator:
    yield from open_page(browser, server)


def shoot(page, name: str, height: int | None = None) -> None:
    """Refresh docs/<name> when DASHBOARD_SCREENSHOT is set."""
    if not SCREENSHOTS:
        return
    if height:
        page.set_viewport_size({"width": VIEWPORT["width"], "height": height})
        settle(page)
    page.wait_for_timeout(1500)
    page.screenshot(path=str(PROJECT_ROOT / SCREENSHOTS / name))
    page.set_viewport_size(VIEWPORT)


def default_label(database: Path) -> str:
    try:
        shown = database.resolve().relative_to(PROJECT_ROOT)
    except ValueError:
        shown = Path("…", *database.parts[-2:])
    return texts.DEFAULT_LABEL.format(path=shown)


def newest_upload(uploads: Path) -> Path:
    return upload_module.upload_folders(uploads)[-1] / "card_keeper.duckdb"


def finished_uploads(uploads: Path) -> list[str]:
    return [
        folder.name
        for folder in upload_module.upload_folders(uploads)
        if (folder / upload_module.BUILD_LOG).exists()
    ]


def strip_values(page) -> dict[str, str]:
    strip = page.locator(".st-key-summary_strip")
    labels = strip.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    values = strip.locator('[data-testid="stMetricValue"]').all_inner_texts()
    return {label.strip(): value.strip() for label, value in zip(labels, values, strict=True)}


# -- the first view -------------------------------------------------------------------------------
def test_first_view_shows_the_summary_and_the_largest_deviation_group(
    page, demo: DbtResult
) -> None:
    counts = verdict_counts(demo.database)
    deviating = {v: n for v, n in counts.items() if v != texts.KEPT}
    largest = max(deviating, key=lambda v: (deviating[v], -texts.VERDICTS.index(v)))
    assert verdict_list.largest_deviation_group(counts) == largest

    # The summary strip: every figure from the marts.
    figures = strip_values(page)
    assert figures[texts.STRIP_TURNS] == f"{sum(counts.values()):,}"
    rates = demo.rows(
        "select model_id, deviation_rate, ci_low, ci_high from marts.fct_model_deviation_rates"
        " where scope = 'all_turns' and grain = 'model' order by deviation_rate desc, model_id"
    )
    for rate in rates[:3]:
        label = texts.STRIP_RATE.format(model=plain_ident(rate["model_id"]))
        assert figures[label] == texts.STRIP_RATE_VALUE.format(rate=rate["deviation_rate"])
        interval = texts.STRIP_RATE_HELP.split(" · ")[0].format(
            low=rate["ci_low"], high=rate["ci_high"]
        )
        assert interval in page.locator(".st-key-summary_strip").inner_text()
    assert figures[texts.STRIP_WORST] == texts.STRIP_WORST_VALUE.format(count=counts[largest])
    assert largest in page.locator(".st-key-summary_strip").inner_text()
    latest = demo.rows(
        """
        select test_name, status from audit.dbt_test_results
        where invocation_id = (select invocation_id from audit.dbt_test_results
                               order by run_started_at desc limit 1)
        """
    )
    checks = [r for r in latest if r["test_name"].startswith("assert_check_")]
    assert len(checks) == 10
    failed = sum(r["status"] in ("fail", "error") for r in checks)
    assert figures[texts.STRIP_CHECKS] == texts.STRIP_CHECKS_VALUE.format(failed=failed, total=10)
    quarantined = demo.rows("select count(*) as n from marts.fct_contract_violations")[0]["n"]
    assert figures[texts.STRIP_QUARANTINE] == f"{quarantined:,}"

    # The database is named: the demo, built from the bundled files.
    label = page.locator(".st-key-database_label").inner_text()
    assert "데모" in label and "data/demo" in label
    assert selected_database(page) == default_label(demo.database)

    # The tabs are reachable without scrolling; the list opens on the largest deviation group.
    tabs = page.get_by_role("tab")
    assert [t.strip() for t in tabs.all_inner_texts()] == list(texts.SECTIONS)
    box = tabs.first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= VIEWPORT["height"]
    assert group_labels(page) == expected_labels(counts)
    assert page.get_by_role("radio", name=largest).is_checked()
    assert rows(page).count() == min(texts.PAGE_SIZE, counts[largest])
    # Every row's summary is whole, not cut.
    summaries = demo.rows(
        "select turn_id, summary from marts.fct_turn_verdicts"
        f" where verdict = '{largest}' order by created_at, turn_id limit 3"
    )
    for row in summaries:
        label = rows(page).filter(has_text=row["turn_id"]).first.locator("summary").inner_text()
        assert " ".join(row["summary"].split()) in " ".join(label.split())
    shoot(page, "dashboard.png")

    # The ten output-schema checks stay in the sidebar.
    sidebar_checks = page.locator(".st-key-schema_checks").inner_text()
    for name in texts.CHECK_LABELS.values():
        assert name in sidebar_checks

    # A model filter is counted by DuckDB: the labels follow the mart under the same filter.
    model = demo.rows("select min(model_id) as m from marts.fct_turn_verdicts")[0]["m"]
    choose(page, "filter_model_", plain_ident(model))
    wait_for_groups(
        page, expected_labels(verdict_counts(demo.database, "where model_id = ?", (model,)))
    )


def test_a_row_shows_korean_headers_codes_and_null(page, demo: DbtResult) -> None:
    turn = demo.rows(
        """
        select turn_id, session_id, verdict, hedge, skipped_checks
        from marts.fct_turn_verdicts
        where len(skipped_checks) > 0 and hedge is not null
        order by turn_id limit 1
        """
    )[0]
    evidence = demo.rows(
        "select source, field, coalesce(agg, 'null') as agg, coalesce(value, 'null') as value "
        f"from marts.fct_turn_evidence where turn_id = '{turn['turn_id']}' order by ordinal"
    )
    assert evidence, "the mart cites nothing for this turn"
    choose(page, "filter_session_", plain_ident(turn["session_id"]))
    pick_group(page, turn["verdict"])
    row = open_row(page, turn["turn_id"])
    table = row.locator('[data-testid="stTable"]').first
    headers = [h.strip() for h in table.locator("thead th").all_inner_texts() if h.strip()]
    assert headers == [f"{k} ({c})" for c, k in texts.EVIDENCE_HEADERS.items()]
    shown = [
        [cell.strip() for cell in line.locator("td").all_inner_texts()]
        for line in table.locator("tbody tr").all()
    ]
    assert shown == [
        [e["source"], e["field"], e["agg"], " ".join(str(e["value"]).split())] for e in evidence
    ]
    body = row.inner_text()
    assert turn["hedge"] in body
    assert "nan" not in body.split() and "None" not in body.split()
    for code in turn["skipped_checks"]:
        _, _, reason = code.partition(":")
        assert f"({code})" in body
        assert texts.REASON_NAMES[reason] in body
    checks = row.locator('[data-testid="stTable"]').nth(1)
    check_headers = [h.strip() for h in checks.locator("thead th").all_inner_texts() if h.strip()]
    assert check_headers == [f"{k} ({c})" for c, k in texts.CHECK_HEADERS.items()]
    reasons = demo.rows(
        f"select reason_code from marts.fct_turn_checks where turn_id = '{turn['turn_id']}'"
        " and reason_code is not null"
    )
    for reason in reasons:
        code = reason["reason_code"]
        assert f"{texts.REASON_NAMES[code]} ({code})" in checks.inner_text()


def test_highlights_and_the_canon_list_in_an_off_canon_row(page, demo: DbtResult) -> None:
    turn = demo.rows(
        """
        select v.turn_id, v.off_canon_entities, c.canon_entities
        from marts.fct_turn_verdicts as v
        inner join marts.dim_character_cards as c using (character_id)
        inner join marts.fct_turn_texts as t using (turn_id)
        where v.verdict = '세계관 밖 고유명사' and contains(t.reply_text, v.off_canon_entities[1])
        order by v.turn_id limit 1
        """
    )[0]
    pick_group(page, "세계관 밖 고유명사")
    search(page, turn["turn_id"], rows_expected=1)
    row = open_row(page, turn["turn_id"])
    marked = row.locator('.ck-reply mark[data-kind="off_canon"]').all_inner_texts()
    assert marked and set(marked) <= set(turn["off_canon_entities"])
    caption = row.inner_text()
    assert texts.CANON_LIST.split(" (")[0] in caption
    for name in turn["canon_entities"]:
        assert name in caption
    shoot(page, "dashboard_row.png", height=1700)


def test_search_and_the_skipped_check_filter_follow_the_mart(page, demo: DbtResult) -> None:
    needle = "검술원"
    expected = verdict_counts(
        demo.database,
        "inner join marts.fct_turn_texts using (turn_id)"
        " where contains(lower(reply_text), lower(?))",
        (needle,),
    )
    assert sum(expected.values()) > 0
    search(page, needle)
    wait_for_groups(page, expected_labels(expected))
    search(page, "")
    code = demo.rows(
        "select code, count(*) as n from (select unnest(skipped_checks) as code"
        " from marts.fct_turn_verdicts) group by code order by n desc, code limit 1"
    )[0]["code"]
    choose(page, "filter_skipped_", verdict_list.skipped_label(code))
    wait_for_groups(
        page,
        expected_labels(
            verdict_counts(demo.database, "where list_contains(skipped_checks, ?)", (code,))
        ),
    )


def test_downloads_equal_the_filtered_rows(page, demo: DbtResult) -> None:
    model = demo.rows("select max(model_id) as m from marts.fct_turn_verdicts")[0]["m"]
    choose(page, "filter_model_", plain_ident(model))
    pick_group(page, "말투 어긋남")
    expected = [
        r["turn_id"]
        for r in demo.rows(
            "select turn_id from marts.fct_turn_verdicts where model_id = '"
            + model
            + "' and verdict = '말투 어긋남' order by created_at, turn_id"
        )
    ]
    assert len(expected) > texts.PAGE_SIZE or expected
    with page.expect_download() as csv_download:
        page.get_by_role("button", name=texts.EXPORT_CSV.format(count=len(expected))).click()
    table = list(csv.DictReader(io.StringIO(Path(csv_download.value.path()).read_text("utf-8"))))
    assert [r["turn_id"] for r in table] == expected
    assert {r["model_id"] for r in table} == {model}
    with page.expect_download() as json_download:
        page.get_by_role("button", name=texts.EXPORT_JSON.format(count=len(expected))).click()
    records = json.loads(Path(json_download.value.path()).read_text("utf-8"))
    assert [r["turn_id"] for r in records] == sorted(expected)
    assert all(list(r) == schema_fields() for r in records)
    exported = {r["turn_id"]: r for r in json.loads(demo.export.read_text("utf-8"))}
    assert all(exported[r["turn_id"]] == r for r in records)


def test_matrix_cell_opens_every_models_reply(page, demo: DbtResult) -> None:
    first = demo.rows(
        "select prompt_id from marts.fct_prompt_model_matrix order by prompt_id limit 1"
    )[0]["prompt_id"]
    answers = demo.rows(
        "select m.model_id, m.turn_id, m.verdict, t.reply_text"
        " from marts.fct_prompt_model_matrix as m inner join marts.fct_turn_texts as t"
        f" using (turn_id) where m.prompt_id = '{first}' order by m.model_id"
    )
    assert len(answers) >= 2
    open_section(page, texts.SECTION_MATRIX)
    grid = page.locator('[class*="st-key-matrix_"] [data-testid="stDataFrame"]').first
    grid.wait_for()
    grid.click(position={"x": 300, "y": 55})  # the first prompt's first model
    settle(page)
    shown = page.locator(".st-key-matrix_answers")
    shown.wait_for()
    text = " ".join(shown.inner_text().split())
    assert first in text
    for answer in answers:
        card = page.locator(f".st-key-answer_{answer['model_id']}")
        assert answer["turn_id"] in card.inner_text()
        assert answer["verdict"] in card.inner_text()
        assert " ".join(answer["reply_text"].split()) in " ".join(card.inner_text().split())
        card.locator('[data-testid="stTable"]').wait_for()
    shoot(page, "dashboard_matrix.png", height=1700)


def test_conversation_lists_the_public_characters_turns(page, demo: DbtResult) -> None:
    session = demo.rows(
        """
        select v.session_id, count(*) as turns
        from marts.fct_turn_verdicts as v
        inner join marts.dim_character_cards as c using (character_id)
        where c.is_public
        group by v.session_id order by turns desc, v.session_id limit 1
        """
    )[0]
    turns = demo.rows(
        "select turn_id, verdict, reply_text from marts.fct_turn_verdicts "
        "inner join marts.fct_turn_texts using (turn_id) "
        f"where session_id = '{session['session_id']}' order by created_at, turn_id"
    )
    open_section(page, texts.SECTION_CONVERSATION)
    view = page.locator(".st-key-conversation")
    text = view.inner_text()
    positions = [text.find(turn["turn_id"]) for turn in turns]
    assert -1 not in positions, "a turn of the public session is missing"
    assert positions == sorted(positions), "turns are not in conversation order"
    assert view.locator('[data-testid="stChatMessage"]').count() == 2 * len(turns)
    for turn in turns[:5]:
        assert turn["verdict"] in text
        assert " ".join(turn["reply_text"].split()) in " ".join(text.split())


def test_self_scoring_figures_interval_and_confusion_equal_the_mart(page, demo: DbtResult) -> None:
    summary = demo.rows("select * from marts.fct_golden_agreement_summary")[0]
    assert summary["labelled_turns"], "the demo has golden labels"
    open_section(page, texts.SECTION_GOLDEN)
    figures = page.locator(".st-key-golden_figures")
    values = [v.strip() for v in figures.locator('[data-testid="stMetricValue"]').all_inner_texts()]
    assert values == [
        f"{summary['labelled_turns']:,}",
        f"{summary['agreeing_turns']:,}",
        f"{summary['agreement_rate']:.1%}",
    ]
    assert (
        texts.GOLDEN_INTERVAL.format(
            low=summary["agreement_ci_low"], high=summary["agreement_ci_high"]
        )
        in figures.inner_text()
    )
    confusion = demo.rows(
        "select expected_verdict, predicted_verdict, count(*) as turns"
        " from marts.fct_golden_agreement group by all"
    )
    grid = page.locator(".st-key-golden_confusion [data-testid='stTable']")
    grid.wait_for()
    counts = {(r["expected_verdict"], r["predicted_verdict"]): r["turns"] for r in confusion}
    shown_rows = grid.locator("tbody tr").all()
    assert len(shown_rows) == len(texts.VERDICTS)
    for expected, line in zip(texts.VERDICTS, shown_rows, strict=True):
        assert line.locator("th").first.inner_text().strip() == expected
        cells = [int(c.strip()) for c in line.locator("td").all_inner_texts()]
        assert cells == [counts.get((expected, predicted), 0) for predicted in texts.VERDICTS]
    assert sum(r["turns"] for r in confusion) == summary["labelled_turns"]
    disagreeing = demo.rows(
        "select turn_id from marts.fct_golden_agreement where not agrees order by turn_id limit 1"
    )
    if disagreeing:
        table = page.locator('[class*="st-key-golden_turns_"] [data-testid="stDataFrame"]')
        table.click(position={"x": 12, "y": 55})  # the selection column of the first row
        settle(page)
        page.locator(".st-key-golden_turn").get_by_text(disagreeing[0]["turn_id"]).first.wait_for()


# -- uploads --------------------------------------------------------------------------------------
def test_upload_streams_progress_persists_and_a_wrong_kind_file_keeps_it(
    browser, server: str, demo: DbtResult, uploads: Path, tmp_path: Path
) -> None:
    for page in open_page(browser, server):
        open_section(page, texts.SECTION_UPLOAD)
        # The form shows the input contract's columns and offers the template files.
        page.locator(".st-key-upload_columns summary").click()
        settle(page)
        page.locator(".st-key-upload_columns [data-testid='stTable']").first.wait_for()
        columns = page.locator(".st-key-upload_columns").inner_text()
        for table in upload_module.REQUIRED:
            for column in INPUT_CONTRACT[table]["columns"]:
                assert column["name"] in columns
            with page.expect_download() as template:
                page.get_by_role("button", name=texts.UPLOAD_TEMPLATE.format(table=table)).click()
            assert (
                Path(template.value.path()).read_bytes()
                == (PROJECT_ROOT / "data" / "templates" / f"{table}.csv").read_bytes()
            )
        seed = fixture_inputs("seed_000")
        for table, path in seed.items():
            widget = page.locator(f'[class*="st-key-upload_{table}"]')
            widget.locator("input[type=file]").set_input_files(str(path))
            widget.get_by_text(path.name).wait_for()
        page.get_by_role("button", name=texts.UPLOAD_SUBMIT).click()
        # dbt's progress is streamed: node N of M and the seconds, before the build ends.
        page.get_by_text("dbt build: 노드").first.wait_for(timeout=60_000)
        wait_for_outcome(page, "로 빌드했습니다")
        database = newest_upload(uploads)
        label = selected_database(page)
        assert seed["chat_turn"].name in label
        counts = verdict_counts(database)
        wait_for_groups(page, expected_labels(counts))
        assert seed["chat_turn"].name in page.locator(".st-key-database_label").inner_text()
        assert "데모" not in page.locator(".st-key-database_label").inner_text()

        # A file of the wrong kind is refused before any build.
        wrong = tmp_path / "chat_turn.txt"
        wrong.write_text("turn_id\nT-1\n", encoding="utf-8")
        before = len(list(uploads.iterdir()))
        upload_files(page, {**seed, "chat_turn": wrong}, "chat_turn.txt")
        assert len(list(uploads.iterdir())) == before
        assert selected_database(page) == label

    # After a reload (a new browser session) the upload is still listed, by name and time.
    for page in open_page(browser, server):
        sidebar = page.locator('[data-testid="stSidebar"] [role="radiogroup"]').inner_text()
        assert label in sidebar
        open_section(page, texts.SECTION_UPLOAD)
        assert label in page.locator(".st-key-uploads_list").inner_text()


def test_user_text_renders_as_text_with_escaped_highlights(page, uploads: Path) -> None:
    folder = DASHBOARD_FIXTURES / "script_reply"
    upload_files(
        page,
        {t: next(folder.glob(f"{t}.*")) for t in ("chat_turn", "character_card", "topic_lexicon")},
        "로 빌드했습니다",
    )
    database = newest_upload(uploads)
    turn = DbtResult(0, "", database, database).rows(
        "select verdict, touched_term, off_canon_entities from marts.fct_turn_verdicts"
        " where turn_id = 'X-0004'"
    )[0]
    # The new database opens on the verdict list, and stays there when the list is used.
    assert open_tab(page) == texts.SECTION_LIST
    pick_group(page, turn["verdict"])
    search(page, "X-0004", rows_expected=1)
    assert open_tab(page) == texts.SECTION_LIST
    row = open_row(page, "X-0004")
    reply = row.locator(".ck-reply")
    assert "<script>alert(4)</script>" in reply.inner_text()
    assert reply.locator("script").count() == 0
    assert reply.locator('mark[data-kind="term"]').all_inner_texts() == [turn["touched_term"]]
    assert reply.locator('mark[data-kind="off_canon"]').all_inner_texts() == list(
        turn["off_canon_entities"]
    )
    open_section(page, texts.SECTION_CONVERSATION)
    view = page.locator(".st-key-conversation")
    view.get_by_text("<script>alert(1)</script> 이건 그냥 글자야.").wait_for()
    view.get_by_text("<img src=x onerror=alert(3)> 이거 뭐야?").wait_for()
    view.get_by_text("**굵게** [링크](javascript:alert(2)) 보여?", exact=False).wait_for()
    assert (
        page.locator("script:not([src]), img[src='x'], a[href^='javascript']")
        .filter(has_text="alert")
        .count()
        == 0
    )
    page.wait_for_timeout(500)
    assert page.dialogs == []
    # The duplicated turn_id line is quarantined and counted, not dropped.
    quarantined = DbtResult(0, "", database, database).rows(
        "select count(*) as n from marts.fct_contract_violations"
    )[0]["n"]
    assert quarantined == 1
    assert strip_values(page)[texts.STRIP_QUARANTINE] == "1"
    open_section(page, texts.SECTION_QUARANTINE)
    quarantine = page.locator(".st-key-quarantine").inner_text()
    assert "duplicate_turn_id" in quarantine
    for korean in texts.QUARANTINE_HEADERS.values():
        assert korean in quarantine


def test_upload_whose_build_fails_leaves_no_folder(page, demo: DbtResult, uploads: Path) -> None:
    before = sorted(path.name for path in uploads.iterdir())
    chosen = selected_database(page)
    # A file dbt cannot read: the error names the input and the problem; nothing else moves.
    upload_files(
        page,
        {
            **fixture_inputs("seed_000"),
            "chat_turn": DASHBOARD_FIXTURES / "broken" / "chat_turn.csv",
        },
        "input_chat_turn:",
    )
    error = page.locator('[data-testid="stAlert"]').filter(has_text="input_chat_turn:")
    assert "turn_id" in error.inner_text()
    assert sorted(path.name for path in uploads.iterdir()) == before
    assert selected_database(page) == chosen


@pytest.fixture(scope="module")
def odd_database(demo: DbtResult, tmp_path_factory) -> Path:
    """A copy of the demo as someone else might have built it: timestamps in the year 99999,
    BC and at infinity, and a turn_id holding a right-to-left override."""
    path = tmp_path_factory.mktemp("dashboard_odd") / "odd.duckdb"
    shutil.copy(demo.database, path)
    with duckdb.connect(str(path)) as con:
        group = con.execute(
            "select turn_id from marts.fct_turn_verdicts where verdict = ? order by turn_id",
            [texts.VERDICTS[4]],
        ).fetchall()
        assert 4 <= len(group) <= texts.PAGE_SIZE
        odd = {
            group[0][0]: "infinity",
            group[1][0]: "99999-01-01 12:00:00",
            group[2][0]: "0044-03-15 (BC) 09:00:00",
        }
        for turn_id, when in odd.items():
            con.execute(
                "update marts.fct_turn_verdicts set created_at = ?::timestamp where turn_id = ?",
                [when, turn_id],
            )
        # fct_turn_texts is a view of the clean turns: the turn is renamed where it is stored.
        for table in (
            "marts.fct_turn_verdicts",
            "marts.fct_turn_evidence",
            "marts.fct_turn_checks",
            "staging.base_chat_logs__turns",
        ):
            con.execute(
                f"update {table} set turn_id = ? where turn_id = ?",
                [RTL_TURN_ID, group[3][0]],
            )
        assert con.execute(
            "select count(*) from marts.fct_turn_texts where turn_id = ?", [RTL_TURN_ID]
        ).fetchone() == (1,)
        con.execute(
            """
            update marts.fct_turn_verdicts set created_at = '-infinity'::timestamp
            where turn_id = (
                select min(turn_id) from marts.fct_turn_verdicts
                where session_id = (
                    select v.session_id from marts.fct_turn_verdicts as v
                    inner join marts.dim_character_cards as c using (character_id)
                    where c.is_public
                    group by v.session_id order by count(*) desc, v.session_id limit 1))
            """
        )
        weeks = con.execute(
            "select distinct week_start from marts.fct_model_deviation_trend order by 1 limit 3"
        ).fetchall()
        for (week,), odd_week in zip(
            weeks, ("infinity", "99999-01-04", "0044-03-15 (BC)"), strict=True
        ):
            con.execute(
                "update marts.fct_model_deviation_trend set week_start = ?::date"
                " where week_start = ?",
                [odd_week, week],
            )
        con.execute("update audit.dbt_test_results set run_started_at = 'infinity'::timestamp")
    return path


@pytest.fixture(scope="module")
def odd_server(odd_database: Path, tmp_path_factory) -> Iterator[str]:
    log_dir = tmp_path_factory.mktemp("dashboard_odd_server")
    with streamlit_server(odd_database, tmp_path_factory.mktemp("odd_uploads"), log_dir) as url:
        yield url


def text_direction(locator, needle: str) -> tuple[float, float]:
    """The left edges of the first and last character of `needle` inside the element."""
    found = locator.evaluate(
        """(element, needle) => {
            const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const at = node.data.indexOf(needle);
                if (at < 0) continue;
                const range = document.createRange();
                range.setStart(node, at); range.setEnd(node, at + 1);
                const first = range.getBoundingClientRect().left;
                range.setStart(node, at + needle.length - 1);
                range.setEnd(node, at + needle.length);
                return [first, range.getBoundingClientRect().left];
            }
            return null;
        }""",
        needle,
    )
    assert found is not None, f"{needle!r} is not one text run in the element"
    return found[0], found[1]


def test_odd_timestamps_and_rtl_ids_render_without_a_traceback(
    browser, odd_server: str, odd_database: Path
) -> None:
    for page in open_page(browser, odd_server):  # settle() asserts no traceback on screen
        assert selected_database(page) == default_label(odd_database)
        page.get_by_text("infinity").first.wait_for()  # the checks' run time, as DuckDB writes it
        with duckdb.connect(str(odd_database), read_only=True) as con:
            ((count,),) = con.execute(
                "select count(*) from marts.fct_turn_verdicts where verdict = ?",
                [texts.VERDICTS[4]],
            ).fetchall()
            ((summary,),) = con.execute(
                "select summary from marts.fct_turn_verdicts where turn_id = ?", [RTL_TURN_ID]
            ).fetchall()
        pick_group(page, texts.VERDICTS[4])
        sync_api.expect(page.get_by_role("radio", name=texts.VERDICTS[4])).to_be_checked()
        shown_rows = rows(page)
        sync_api.expect(shown_rows).to_have_count(count, timeout=30_000)
        for index in range(shown_rows.count()):
            shown_rows.nth(index).locator("summary").click()
            settle(page)
        body = page.locator(".st-key-verdict_rows").inner_text()
        for shown in ("infinity", "99999-01-01 12:00:00", "0044-03-15 (BC) 09:00:00"):
            assert shown in body
        assert "그리지 못했습니다" not in page.locator("body").inner_text()

        # The id is isolated: the summary after it still reads left to right.
        label = shown_rows.filter(has_text="RTL-1").locator("summary")
        assert FSI + RTL_TURN_ID + PDI in label.inner_text()
        first, last = text_direction(label, summary[:6])
        assert first < last, "the summary after the id is laid out right to left"
        verdict_left, _ = text_direction(label, texts.VERDICTS[4][:3])
        assert verdict_left < first

        # The public conversation holds a turn at -infinity; the trend leaves out odd weeks.
        open_section(page, texts.SECTION_CONVERSATION)
        page.locator(".st-key-conversation").get_by_text("-infinity").first.wait_for()
        open_section(page, texts.SECTION_RATES)
        with duckdb.connect(str(odd_database), read_only=True) as con:
            ((outside,),) = con.execute(
                "select count(*) from marts.fct_model_deviation_trend"
                " where not isfinite(week_start) or year(week_start) not between 1678 and 2261"
            ).fetchall()
        assert outside > 0
        page.get_by_text(texts.TREND_OUTSIDE.format(count=outside)).wait_for()
        page.locator('[data-testid="stVegaLiteChart"]').nth(2).wait_for()  # the weekly trend


def test_uploads_beyond_the_keep_limit_are_pruned_and_one_can_be_deleted(
    page, uploads: Path
) -> None:
    for day in range(1, 5):
        old = uploads / f"2000010{day}-000000-00000{day}"
        old.mkdir()
        (old / upload_module.BUILD_LOG).write_text("지난 빌드 기록\n", encoding="utf-8")
        (old / "card_keeper.duckdb").write_bytes(b"")
    building = uploads / "20000105-000000-0000ff"  # a build still running: no log yet
    building.mkdir()
    notes = uploads / "분석가_메모"  # not an upload folder: never touched
    notes.mkdir()
    before = finished_uploads(uploads)

    upload_files(page, fixture_inputs("seed_000"), "로 빌드했습니다")
    new = newest_upload(uploads).parent
    assert new.name not in before
    assert finished_uploads(uploads) == sorted([*before, new.name])[-KEEP_UPLOADS:]
    assert building.is_dir() and notes.is_dir()
    label = selected_database(page)
    assert label.startswith("올린 파일 ")

    page.locator(".st-key-delete_upload button").click()
    settle(page)
    assert not new.exists()
    assert selected_database(page).startswith(texts.DEFAULT_LABEL.split(" · ")[0])
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert label not in sidebar.locator('[role="radiogroup"]').inner_text()
    sidebar.get_by_text(texts.UPLOAD_DELETED.format(label=new.name)[:20]).wait_for()
    assert building.is_dir() and notes.is_dir()


# -- the pieces without a browser ----------------------------------------------------------------
def test_reader_waits_for_a_build_that_holds_the_file(demo: DbtResult, tmp_path: Path) -> None:
    copy = tmp_path / "held.duckdb"
    copy.write_bytes(demo.database.read_bytes())
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); print('held', flush=True);"
            " time.sleep(1.5); c.close()",
            str(copy),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    waits: list[int] = []
    reader = db.Reader(copy, on_busy=waits.append, attempts=20, wait_seconds=0.25)
    with reader.batch() as batch:
        assert batch.overview()["turns"] > 0
    holder.wait(timeout=10)
    assert waits, "the reader never saw the lock"

    held_again = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]);"
         " print('held', flush=True); time.sleep(3)", str(copy)],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert held_again.stdout.readline().strip() == "held"
    with pytest.raises(db.DatabaseBusy):
        db.Reader(copy, attempts=2, wait_seconds=0.1)._connect()
    held_again.kill()
    held_again.wait(timeout=10)


def test_upload_validation_and_error_line() -> None:
    incoming = upload_module.Incoming
    problems = upload_module.validate(
        {
            "chat_turn": incoming("chat_turn", "turns.xlsx", b"x"),
            "character_card": incoming("character_card", "cards.csv", b""),
            "topic_lexicon": None,
        }
    )
    assert any("turns.xlsx" in p for p in problems)
    assert any("cards.csv" in p for p in problems)
    assert any("topic_lexicon" in p for p in problems)
    output = (
        "\x1b[0m06:20:47  Encountered an error:\nCompilation Error in operation x\n"
        "  input_chat_turn: file 'a.csv' has no column 'turn_id' (it has: b)\n"
    )
    assert upload_module.key_line(output) == (
        "input_chat_turn: file 'a.csv' has no column 'turn_id' (it has: b)"
    )


def test_verdict_counts_are_asked_once_per_connection() -> None:
    con = duckdb.connect()
    con.execute(
        "create schema marts; create table marts.fct_turn_verdicts as select * from (values"
        " ('말투 어긋남', 'gpt-4o-mini'), ('설정대로 말함', 'claude-sonnet'),"
        " ('말투 어긋남', 'claude-sonnet')) as t(verdict, model_id)"
    )
    asked = []

    class Counting:
        def execute(self, sql, params):
            asked.append(sql)
            return con.execute(sql, params)

    batch = db.Batch(Counting())
    # The strip asks with no filters, the list with every filter unset: one query.
    unset = dict.fromkeys(("model_id", "character_id", "session_id", "skipped_check", "search"))
    assert batch.verdict_counts({}) == {"말투 어긋남": 2, "설정대로 말함": 1}
    assert batch.verdict_counts(unset) == {"말투 어긋남": 2, "설정대로 말함": 1}
    assert len(asked) == 1
    counts = batch.verdict_counts({**unset, "model_id": "claude-sonnet"})
    assert counts == {"말투 어긋남": 1, "설정대로 말함": 1}
    assert len(asked) == 2
    counts.clear()  # a caller's copy: the remembered counts stay
    assert batch.verdict_counts({"model_id": "claude-sonnet"}) == {
        "말투 어긋남": 1,
        "설정대로 말함": 1,
    }


def test_markdown_escaping() -> None:
    assert md("**x** [a](javascript:b) <script>") == (
        r"\*\*x\*\* \[a\]\(javascript\:b\) \<script\>"
    )


def test_prune_keeps_the_newest_finished_uploads_only(tmp_path: Path) -> None:
    names = [f"2026010{day}-120000-abcde{day}" for day in range(1, 7)]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / upload_module.BUILD_LOG).write_text("끝\n", encoding="utf-8")
    (tmp_path / "20260107-120000-abcdef").mkdir()  # still building
    (tmp_path / "내_파일").mkdir()
    removed = upload_module.prune(keep=2, root=tmp_path)
    assert [folder.name for folder in removed] == names[:4]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*names[4:], "20260107-120000-abcdef", "내_파일"]
    )
    assert not upload_module.remove(tmp_path / "내_파일", root=tmp_path)
    assert not upload_module.remove(tmp_path.parent / names[4], root=tmp_path)
    assert (tmp_path / "내_파일").is_dir()


def test_ids_are_bidi_isolated() -> None:
    assert ident("T_\u202e1") == FSI + "T\\_\u202e1" + PDI
    # An isolate control inside the id cannot close the isolate early.
    assert plain_ident("a\u2069\u202eb") == FSI + "a\ufffd\u202eb" + PDI


def test_highlights_escape_everything_but_their_marks() -> None:
    html = highlighted_html(
        "<script>alert(1)</script> 레온이 선거 얘기를 했어. 레온!",
        {"term": ["선거"], "off_canon": ["레온", "<b>"], "recall": [""]},
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.count('<mark class="ck-off_canon"') == 2
    assert html.count('<mark class="ck-term"') == 1
    assert html.replace("<br>", "").count("<") == 6  # three marks open and close, nothing else


def test_trend_lines_break_at_empty_weeks() -> None:
    import pandas as pd

    frame = pd.DataFrame(
        {
            "model_id": ["a", "a", "a", "b"],
            "week_start": pd.to_datetime(["2026-01-05", "2026-01-12", "2026-02-02", "2026-01-05"]),
        }
    )
    runs = charts.with_segments(frame)
    assert runs.loc[runs["model_id"] == "a", "run"].tolist() == ["a#1", "a#1", "a#2"]
    assert runs.loc[runs["model_id"] == "b", "run"].tolist() == ["b#1"]
