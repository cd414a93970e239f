"""The dashboard in a real browser (issue 5): Streamlit over a dbt-built database, driven by
Playwright with Debian's chromium (`make system-packages`; a browser is never downloaded).

One Streamlit server per module, over the demo build in a tmp folder (CARD_KEEPER_DB), with
uploads going to a tmp folder too (CARD_KEEPER_UPLOADS). Every figure asserted on screen is
read from the same database's marts, never typed in here.

Set DASHBOARD_SCREENSHOT=docs/dashboard.png to refresh the README's screenshot.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import pytest
from conftest import PROJECT_ROOT, DbtResult, fixture_inputs, run_dbt

from dashboard import db, texts
from dashboard import upload as upload_module
from dashboard.safe import FSI, PDI, ident, md, plain_ident

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DASHBOARD_FIXTURES = Path(__file__).resolve().parent / "dashboard_fixtures"
APP = PROJECT_ROOT / "dashboard" / "app.py"
BUILD_TIMEOUT_MS = 120_000
# Finished uploads the test server keeps (CARD_KEEPER_UPLOADS_KEEP).
KEEP_UPLOADS = 3
RTL_TURN_ID = "T-\u202eRTL-1"


# -- the server and the browser -------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> DbtResult:
    return run_dbt(["build"], tmp_path_factory.mktemp("dashboard_demo"))


@pytest.fixture(scope="module")
def uploads(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("dashboard_uploads")


@pytest.fixture(scope="module")
def server(demo: DbtResult, uploads: Path, tmp_path_factory) -> Iterator[str]:
    with streamlit_server(
        demo.database, uploads, tmp_path_factory.mktemp("dashboard_server")
    ) as url:
        yield url


@contextmanager
def streamlit_server(database: Path, uploads: Path, log_dir: Path) -> Iterator[str]:
    port = free_port()
    log = log_dir / "streamlit.log"
    env = {
        **os.environ,
        "CARD_KEEPER_DB": str(database),
        "CARD_KEEPER_UPLOADS": str(uploads),
        "CARD_KEEPER_UPLOADS_KEEP": str(KEEP_UPLOADS),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "0",
    }
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "streamlit", "run", str(APP),
                "--server.address", "127.0.0.1",
                "--server.port", str(port),
                "--server.headless", "true",
                "--browser.gatherUsageStats", "false",
            ],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"streamlit did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator:
    if not CHROMIUM.exists():
        pytest.fail("Debian chromium is missing: run `make system-packages` (apt chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server: str) -> Iterator:
    """A fresh browser session on the main screen; every JS dialog is recorded and dismissed."""
    yield from open_page(browser, server)


def open_page(browser, server: str) -> Iterator:
    context = browser.new_context(viewport={"width": 1400, "height": 1100})
    opened = context.new_page()
    opened.dialogs = []
    opened.on("dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss()))
    opened.goto(server)
    settle(opened)
    opened.get_by_role("radiogroup", name=texts.GROUPS).wait_for(timeout=60_000)
    yield opened
    context.close()


def settle(page, timeout: int = 60_000) -> None:
    """Wait until the script run is over (Streamlit shows its status widget while running)."""
    page.wait_for_timeout(800)
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=timeout
    )
    page.wait_for_timeout(200)
    assert page.locator('[data-testid="stException"]').count() == 0, page.locator(
        '[data-testid="stException"]'
    ).first.inner_text()


# -- helpers on the database and the screen -----------------------------------------------------
def verdict_counts(database: Path, where: str = "", params: tuple = ()) -> dict[str, int]:
    with DbtResult(0, "", database, database).connect() as con:
        found = con.execute(
            f"select verdict, count(*) from marts.fct_turn_verdicts {where} group by verdict",
            list(params),
        ).fetchall()
    return dict(found)


def group_labels(page) -> list[str]:
    return [
        text.strip()
        for text in page.get_by_role("radiogroup", name=texts.GROUPS)
        .get_by_role("radio")
        .all_inner_texts()
    ]


def expected_labels(counts: dict) -> list[str]:
    return [texts.GROUP_OPTION.format(verdict=v, count=counts.get(v, 0)) for v in texts.VERDICTS]


def choose(page, key_prefix: str, option: str) -> None:
    """Pick an option of the selectbox whose widget key starts with key_prefix."""
    page.locator(f'[class*="st-key-{key_prefix}"]').first.click()
    page.get_by_role("option", name=option, exact=True).click()
    settle(page)


def open_section(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    settle(page)


def upload_files(page, files: dict[str, Path], outcome: str) -> None:
    """Fill the upload form, press build, and wait for the alert that contains `outcome`."""
    open_section(page, texts.SECTIONS[-1])
    for table, path in files.items():
        widget = page.locator(f'[class*="st-key-upload_{table}"]')
        widget.locator("input[type=file]").set_input_files(str(path))
        widget.get_by_text(path.name).wait_for()
    page.get_by_role("button", name=texts.UPLOAD_SUBMIT).click()
    page.locator('[data-testid="stAlert"]').filter(has_text=outcome).first.wait_for(
        timeout=BUILD_TIMEOUT_MS
    )
    settle(page)


def wait_for_groups(page, expected: list[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while group_labels(page) != expected and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert group_labels(page) == expected


def selected_database(page) -> str:
    return page.locator('[data-testid="stSidebar"] [role="radiogroup"] input:checked').evaluate(
        "input => input.closest('label').innerText"
    )


def newest_upload(uploads: Path) -> Path:
    return upload_module.upload_folders(uploads)[-1] / "card_keeper.duckdb"


def finished_uploads(uploads: Path) -> list[str]:
    return [
        folder.name
        for folder in upload_module.upload_folders(uploads)
        if (folder / upload_module.BUILD_LOG).exists()
    ]


# -- the tests -------------------------------------------------------------------------------------
def test_groups_show_the_marts_counts_in_fixed_order(page, demo: DbtResult) -> None:
    counts = verdict_counts(demo.database)
    assert sum(counts.values()) > 0
    assert group_labels(page) == expected_labels(counts)
    first = texts.VERDICTS[0]
    rows = page.locator('.st-key-verdict_rows [data-testid="stExpander"]')
    assert rows.count() == min(texts.PAGE_SIZE, counts[first])
    pages = -(-counts[first] // texts.PAGE_SIZE)
    page.get_by_text(texts.PAGE.format(page=1, pages=pages, count=counts[first])).wait_for()

    # The ten output-schema checks are in the sidebar with the latest invocation's status.
    latest = demo.rows(
        """
        select test_name, status from audit.dbt_test_results
        where invocation_id = (select invocation_id from audit.dbt_test_results
                               order by run_started_at desc limit 1)
          and test_name like 'assert_check_%'
        """
    )
    assert len(latest) == 10
    checks = page.locator(".st-key-schema_checks").inner_text()
    for label in texts.CHECK_LABELS.values():
        assert label in checks
    assert checks.count("pass") == sum(row["status"] == "pass" for row in latest)

    # A model filter is counted by DuckDB: the labels follow the mart under the same filter.
    model = demo.rows("select min(model_id) as m from marts.fct_turn_verdicts")[0]["m"]
    choose(page, "filter_model_", plain_ident(model))
    filtered = verdict_counts(demo.database, "where model_id = ?", (model,))
    wait_for_groups(page, expected_labels(filtered))

    screenshot = os.environ.get("DASHBOARD_SCREENSHOT")
    if screenshot:  # the README's picture: a deviation group with its first row open
        choose(page, "filter_model_", texts.ALL)
        page.get_by_role("radio", name=texts.VERDICTS[1]).click()
        settle(page)
        page.locator('.st-key-verdict_rows [data-testid="stExpander"] summary').first.click()
        page.set_viewport_size({"width": 1400, "height": 1500})
        page.mouse.click(1390, 1490)
        settle(page)
        page.screenshot(path=str(PROJECT_ROOT / screenshot))


def test_expanding_a_row_shows_its_evidence_hedge_and_skipped_checks(page, demo: DbtResult) -> None:
    turn = demo.rows(
        """
        select turn_id, session_id, verdict, hedge, skipped_checks
        from marts.fct_turn_verdicts
        where len(skipped_checks) > 0 and hedge is not null
        order by turn_id limit 1
        """
    )[0]
    evidence = demo.rows(
        "select source, field, coalesce(agg, '') as agg, coalesce(value, 'null') as value "
        f"from marts.fct_turn_evidence where turn_id = '{turn['turn_id']}' order by ordinal"
    )
    assert evidence, "the mart cites nothing for this turn"
    choose(page, "filter_session_", plain_ident(turn["session_id"]))
    page.get_by_role("radio", name=turn["verdict"]).click()
    settle(page)
    row = page.locator('[data-testid="stExpander"]').filter(has_text=turn["turn_id"]).first
    row.locator("summary").click()
    table = row.locator('[data-testid="stTable"]').first
    table.wait_for()
    shown = [
        [cell.strip() for cell in line.locator("td").all_inner_texts()]
        for line in table.locator("tbody tr").all()
    ]
    assert shown == [
        [e["source"], e["field"], e["agg"], " ".join(str(e["value"]).split())] for e in evidence
    ]
    body = row.inner_text()
    assert turn["hedge"] in body
    for code in turn["skipped_checks"]:
        assert code in body


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
    view = page.locator(".st-key-conversation")
    text = view.inner_text()
    positions = [text.find(turn["turn_id"]) for turn in turns]
    assert -1 not in positions, "a turn of the public session is missing"
    assert positions == sorted(positions), "turns are not in conversation order"
    assert view.locator('[data-testid="stChatMessage"]').count() == 2 * len(turns)
    for turn in turns[:5]:
        assert turn["verdict"] in text
        assert " ".join(turn["reply_text"].split()) in " ".join(text.split())


def test_self_scoring_figures_equal_the_mart(page, demo: DbtResult) -> None:
    present = demo.rows(
        "select count(*) as n from information_schema.tables "
        "where table_schema = 'marts' and table_name = 'fct_golden_agreement_summary'"
    )[0]["n"]
    if not present:
        pytest.skip("marts.fct_golden_agreement_summary is not built yet by the project")
    summary = demo.rows("select * from marts.fct_golden_agreement_summary")[0]
    open_section(page, texts.SECTIONS[0])
    if summary["labelled_turns"] is None:
        page.get_by_text(texts.GOLDEN_EMPTY).wait_for()
        return
    figures = page.locator(".st-key-golden_figures")
    values = [v.strip() for v in figures.locator('[data-testid="stMetricValue"]').all_inner_texts()]
    assert values == [
        f"{summary['labelled_turns']:,}",
        f"{summary['agreeing_turns']:,}",
        f"{summary['agreement_rate']:.1%}",
    ]


def test_upload_shows_its_verdicts_and_a_wrong_kind_file_keeps_them(
    page, demo: DbtResult, uploads: Path, tmp_path: Path
) -> None:
    seed = fixture_inputs("seed_000")
    upload_files(page, seed, "로 빌드했습니다")
    database = newest_upload(uploads)
    assert database.exists()
    label = selected_database(page)
    assert label.startswith("올린 파일 ")
    counts = verdict_counts(database)
    assert counts != verdict_counts(demo.database)
    wait_for_groups(page, expected_labels(counts))
    conversation = page.locator(".st-key-conversation").inner_text()
    for turn_id in ("T-004468", "T-004471", "T-004519", "T-004530", "T-004602"):
        assert turn_id in conversation
    # No golden labels came with the upload: self-scoring is empty, not zero.
    open_section(page, texts.SECTIONS[0])
    page.get_by_text(texts.GOLDEN_EMPTY).wait_for()
    assert page.locator('[data-testid="stMetricValue"]').count() == 0

    # A file of the wrong kind is refused before any build.
    wrong = tmp_path / "chat_turn.txt"
    wrong.write_text("turn_id\nT-1\n", encoding="utf-8")
    before = len(list(uploads.iterdir()))
    upload_files(page, {**seed, "chat_turn": wrong}, "chat_turn.txt")
    assert len(list(uploads.iterdir())) == before
    assert selected_database(page) == label
    assert group_labels(page) == expected_labels(counts)


def test_user_text_renders_as_text(page, uploads: Path) -> None:
    folder = DASHBOARD_FIXTURES / "script_reply"
    upload_files(
        page,
        {t: next(folder.glob(f"{t}.*")) for t in ("chat_turn", "character_card", "topic_lexicon")},
        "로 빌드했습니다",
    )
    view = page.locator(".st-key-conversation")
    view.get_by_text("<script>alert(1)</script> 이건 그냥 글자야.").wait_for()
    view.get_by_text("<img src=x onerror=alert(3)> 이거 뭐야?").wait_for()
    view.get_by_text("**굵게** [링크](javascript:alert(2)) 보여?", exact=False).wait_for()
    assert view.locator("script, img[src='x'], a[href^='javascript']").count() == 0
    page.wait_for_timeout(500)
    assert page.dialogs == []
    # The duplicated turn_id line is quarantined and counted, not dropped.
    database = newest_upload(uploads)
    quarantined = DbtResult(0, "", database, database).rows(
        "select count(*) as n from marts.fct_contract_violations"
    )[0]["n"]
    assert quarantined == 1
    page.get_by_text(texts.QUARANTINED.format(count=quarantined), exact=False).first.wait_for()
    open_section(page, texts.SECTIONS[3])
    page.locator(".st-key-quarantine").get_by_text("duplicate_turn_id").wait_for()


def test_upload_whose_build_fails_leaves_no_folder(page, demo: DbtResult, uploads: Path) -> None:
    before = sorted(path.name for path in uploads.iterdir())
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
    assert selected_database(page) == texts.DEMO_LABEL
    assert group_labels(page) == expected_labels(verdict_counts(demo.database))


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
        assert selected_database(page) == texts.DEMO_LABEL
        page.get_by_text("infinity").first.wait_for()  # the checks' run time, as DuckDB writes it
        with duckdb.connect(str(odd_database), read_only=True) as con:
            ((count,),) = con.execute(
                "select count(*) from marts.fct_turn_verdicts where verdict = ?",
                [texts.VERDICTS[4]],
            ).fetchall()
            ((summary,),) = con.execute(
                "select summary from marts.fct_turn_verdicts where turn_id = ?", [RTL_TURN_ID]
            ).fetchall()
        group = page.get_by_role("radio", name=texts.VERDICTS[4])
        group.click()
        settle(page)
        if not group.is_checked():  # under load the click can land while the radio is redrawn
            group.click()
            settle(page)
        sync_api.expect(group).to_be_checked()
        rows = page.locator('.st-key-verdict_rows [data-testid="stExpander"]')
        sync_api.expect(rows).to_have_count(count, timeout=30_000)
        for index in range(rows.count()):
            rows.nth(index).locator("summary").click()
        settle(page)
        body = page.locator(".st-key-verdict_rows").inner_text()
        for shown in ("infinity", "99999-01-01 12:00:00", "0044-03-15 (BC) 09:00:00"):
            assert shown in body
        assert "그리지 못했습니다" not in page.locator("body").inner_text()

        # The id is isolated: the summary after it still reads left to right.
        label = rows.filter(has_text="RTL-1").locator("summary")
        assert FSI + RTL_TURN_ID + PDI in label.inner_text()
        first, last = text_direction(label, summary[:6])
        assert first < last, "the summary after the id is laid out right to left"
        verdict_left, _ = text_direction(label, texts.VERDICTS[4][:3])
        assert verdict_left < first

        # The public conversation holds a turn at -infinity; the trend leaves out odd weeks.
        page.locator(".st-key-conversation").get_by_text("-infinity").first.wait_for()
        open_section(page, texts.SECTIONS[1])
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

    page.get_by_role("button", name=texts.UPLOAD_DELETE).click()
    settle(page)
    assert not new.exists()
    assert selected_database(page) == texts.DEMO_LABEL
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert label not in sidebar.locator('[role="radiogroup"]').inner_text()
    sidebar.get_by_text(texts.UPLOAD_DELETED.format(label=label)[:12]).wait_for()
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
