"""The dashboard in a real browser (issue 5): Streamlit over a dbt-built database, driven by
Playwright with Debian's chromium (`make system-packages`; a browser is never downloaded).

One Streamlit server per module, over the demo build in a tmp folder (CARD_KEEPER_DB), with
uploads going to a tmp folder too (CARD_KEEPER_UPLOADS). Every figure asserted on screen is
read from the same database's marts, never typed in here.

Set DASHBOARD_SCREENSHOT=docs/dashboard.png to refresh the README's screenshot.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, DbtResult, fixture_inputs, run_dbt

from dashboard import db, texts
from dashboard import upload as upload_module
from dashboard.safe import md

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
    port = free_port()
    log = tmp_path_factory.mktemp("dashboard_server") / "streamlit.log"
    env = {
        **os.environ,
        "CARD_KEEPER_DB": str(demo.database),
        "CARD_KEEPER_UPLOADS": str(uploads),
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
    return max(uploads.iterdir(), key=lambda folder: folder.stat().st_mtime) / "card_keeper.duckdb"


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
    choose(page, "filter_model_", model)
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
    choose(page, "filter_session_", turn["session_id"])
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
        inner join staging.stg_chat_logs__character_cards as c using (character_id)
        where c.is_public
        group by v.session_id order by turns desc, v.session_id limit 1
        """
    )[0]
    turns = demo.rows(
        "select turn_id, verdict, reply_text from marts.fct_turn_verdicts "
        "inner join staging.stg_chat_logs__turns using (turn_id, session_id, created_at) "
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


def test_upload_shows_its_verdicts_and_a_broken_file_keeps_them(
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

    # A file dbt cannot read: the error names the input and the problem; nothing else moves.
    upload_files(
        page,
        {**seed, "chat_turn": DASHBOARD_FIXTURES / "broken" / "chat_turn.csv"},
        "input_chat_turn:",
    )
    error = page.locator('[data-testid="stAlert"]').filter(has_text="input_chat_turn:")
    assert "turn_id" in error.inner_text()
    assert selected_database(page) == label
    assert group_labels(page) == expected_labels(counts)

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
