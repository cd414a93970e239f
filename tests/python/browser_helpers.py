"""What the dashboard's browser tests share: a Streamlit server on 127.0.0.1 over a database,
Debian's chromium driven by Playwright (`make system-packages`; a browser is never downloaded),
and small steps on the screen (settle, choose, open a tab, upload files)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import DbtResult

from dashboard import serve, texts

expect = pytest.importorskip("playwright.sync_api").expect

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
BUILD_TIMEOUT_MS = 600_000  # a small build takes ~40 s idle; far longer on a loaded machine
VIEWPORT = {"width": 1400, "height": 1100}


@contextmanager
def streamlit_server(
    database: Path, uploads: Path, log_dir: Path, reviews: Path | None = None, keep: int = 3
) -> Iterator[str]:
    """Streamlit over `database`, uploads and reviewer decisions in the given folders."""
    env = {
        "CARD_KEEPER_DB": str(database),
        "CARD_KEEPER_UPLOADS": str(uploads),
        "CARD_KEEPER_REVIEWS": str(reviews or log_dir / "reviews"),
        "CARD_KEEPER_UPLOADS_KEEP": str(keep),
    }
    try:
        with serve.streamlit(env, log_dir / "streamlit.log") as url:
            yield url
    except serve.ServerDidNotStart as error:
        pytest.fail(str(error))


def launch(playwright):
    if not CHROMIUM.exists():
        pytest.fail("Debian chromium is missing: run `make system-packages` (apt chromium)")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def open_page(browser, server: str) -> Iterator:
    """A fresh browser session on the first view; every JS dialog is recorded and dismissed."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True)
    opened = context.new_page()
    opened.dialogs = []
    opened.on("dialog", lambda dialog: (opened.dialogs.append(dialog.message), dialog.dismiss()))
    opened.goto(server)
    settle(opened, timeout=180_000)  # a server's first run imports everything: slow under load
    opened.get_by_role("radiogroup", name=texts.GROUPS).wait_for(timeout=60_000)
    settle(opened)
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


def wait_for_groups(page, expected: list[str], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while group_labels(page) != expected and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert group_labels(page) == expected


def choose(page, key_prefix: str, option: str) -> None:
    """Pick an option of the selectbox whose widget key starts with key_prefix (opened again
    if a redraw closed its list before the option showed)."""
    widget = page.locator(f'[class*="st-key-{key_prefix}"]').first
    listed = page.get_by_role("option", name=option, exact=True)
    for _ in range(3):
        widget.click()
        try:
            listed.wait_for(timeout=10_000)
            break
        except Exception:  # Playwright's timeout: the list was closed by a redraw
            settle(page)
    listed.click()
    settle(page)


def pick_group(page, verdict: str) -> None:
    """Open one verdict group (clicked again if a redraw swallowed the click)."""
    group = page.get_by_role("radio", name=verdict)
    group.click(timeout=120_000)  # a loaded machine can hold the list's redraw for a while
    settle(page)
    if not group.is_checked():
        group.click()
        settle(page)


def search(page, text: str, rows_expected: int | None = None) -> None:
    """Search the verdict list; with rows_expected, wait until that many rows are shown."""
    box = page.locator('[class*="st-key-search_"] input').first
    box.fill(text)
    box.press("Enter")
    settle(page)
    if rows_expected is not None:
        try:
            expect(rows(page)).to_have_count(rows_expected, timeout=120_000)
        except AssertionError as error:
            raise AssertionError(f"{error}\nthe screen's alerts: {alerts(page)}") from None


def alerts(page) -> list[str]:
    """The texts of the alerts on the screen (a failed section shows one, not a traceback)."""
    return page.locator('[data-testid="stAlert"]').all_inner_texts()


def open_section(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    settle(page)


def open_tab(page) -> str:
    return page.get_by_role("tab", selected=True).inner_text().strip()


def rows(page):
    return page.locator('.st-key-verdict_rows [data-testid="stExpander"]')


def open_row(page, turn_id: str):
    """Expand the row of one turn on the shown page and return it."""
    row = rows(page).filter(has_text=turn_id).first
    table = row.locator('[data-testid="stTable"]').first
    for _ in range(3):  # a click that lands while the list is redrawn is lost: click again
        row.locator("summary").click()
        settle(page)
        try:
            table.wait_for(timeout=10_000)
            return row
        except Exception:  # Playwright's timeout: the next click retries
            continue
    table.wait_for()
    return row


def selected_database(page) -> str:
    return page.locator('[data-testid="stSidebar"] [role="radiogroup"] input:checked').evaluate(
        "input => input.closest('label').innerText"
    )


def upload_files(page, files: dict[str, Path], outcome: str) -> None:
    """Fill the upload form, press build, and wait for the alert that contains `outcome`."""
    open_section(page, texts.SECTION_UPLOAD)
    for table, path in files.items():
        widget = page.locator(f'[class*="st-key-upload_{table}"]')
        widget.locator("input[type=file]").set_input_files(str(path))
        widget.get_by_text(path.name).wait_for()
    page.get_by_role("button", name=texts.UPLOAD_SUBMIT).click()
    wait_for_outcome(page, outcome)


def wait_for_outcome(page, outcome: str) -> None:
    """Wait for the alert holding `outcome`, failing at once (with its text) on another one."""
    failed = texts.UPLOAD_FAILED.split(" —")[0]
    alert = page.locator('[data-testid="stAlert"]').filter(
        has_text=re.compile(f"{re.escape(outcome)}|{re.escape(failed)}")
    )
    alert.first.wait_for(timeout=BUILD_TIMEOUT_MS)
    assert outcome in alert.first.inner_text(), alert.first.inner_text()
    settle(page)
