"""The screen's actions in a real browser: reviewer marks and canon decisions written outside
the database and read by the next build, the rebuild from the screen with dbt's progress, run
comparison between two rule fingerprints and between two databases (the demo and an upload),
and the test history with a failed check's turn_ids.

One Streamlit server over a demo build of its own (it is rebuilt here), its reviewer decisions
in a tmp folder (CARD_KEEPER_REVIEWS). Every expectation is read from the database's marts.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from browser_helpers import (
    choose,
    launch,
    open_page,
    open_row,
    open_section,
    pick_group,
    rows,
    search,
    settle,
    streamlit_server,
    upload_files,
)
from conftest import BUILD, PROJECT_ROOT, DbtResult, run_dbt

from dashboard import compare, reviews, texts
from dashboard.upload import upload_folders

sync_api = pytest.importorskip("playwright.sync_api")

DEMO = PROJECT_ROOT / "data" / "demo"
OFF_CANON = texts.VERDICTS[2]
CHECK_09 = "assert_check_09_evidence_values_verbatim"
REBUILD_TIMEOUT_MS = 300_000
FLIPPED_CARD = "CHR-0002"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("dashboard_review")


@pytest.fixture(scope="module")
def decisions(folder: Path) -> Path:
    return folder / "reviews"


@pytest.fixture(scope="module")
def built(folder: Path, decisions: Path) -> DbtResult:
    return run_dbt(BUILD, folder / "build", extra_vars={"reviews_dir": str(decisions)})


@pytest.fixture(scope="module")
def server(built: DbtResult, folder: Path, decisions: Path) -> Iterator[str]:
    with streamlit_server(built.database, folder / "uploads", folder, reviews=decisions) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with sync_api.sync_playwright() as playwright:
        launched = launch(playwright)
        yield launched
        launched.close()


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_reviewer_decisions_survive_a_rebuild_and_change_the_next_build(
    browser, server: str, built: DbtResult, decisions: Path, folder: Path
) -> None:
    # An off-canon turn whose only off-canon name appears in the reply, and a tone turn.
    named = built.rows(
        f"""
        select v.turn_id, v.character_id, v.off_canon_entities[1] as name
        from marts.fct_turn_verdicts as v
        inner join marts.fct_turn_texts as t using (turn_id)
        where v.verdict = '{OFF_CANON}' and len(v.off_canon_entities) = 1
          and contains(t.reply_text, v.off_canon_entities[1])
        order by v.turn_id limit 1
        """
    )[0]
    disputed = built.rows(
        "select turn_id, verdict, rule_fingerprint from marts.fct_turn_verdicts"
        " where verdict = '말투 어긋남' order by turn_id limit 1"
    )[0]
    for page in open_page(browser, server):
        page.locator('[data-testid="stSidebar"] input[aria-label="검토자"]').fill("김검토")
        page.locator('[data-testid="stSidebar"] input[aria-label="검토자"]').press("Enter")
        settle(page)
        # Decide the name on the screen: add it to the card's canon.
        pick_group(page, OFF_CANON)
        search(page, named["turn_id"], rows_expected=1)
        row = open_row(page, named["turn_id"])
        row.get_by_role("button", name=texts.CANON_ADD).first.click()
        settle(page)
        # Mark the tone turn: the rule is wrong, it should have been 설정대로 말함.
        pick_group(page, disputed["verdict"])
        search(page, disputed["turn_id"], rows_expected=1)
        row = open_row(page, disputed["turn_id"])
        row.get_by_text(texts.MARK_NAMES["rule_wrong"], exact=True).click()
        choose(page, "mark_expected_", texts.KEPT)  # the one open row has the only form
        row.locator('[class*="st-key-mark_note_"] input').fill("존댓말이 맞는 장면입니다")
        row.get_by_role("button", name=texts.MARK_SAVE).click()
        settle(page)

        # Both decisions are rows of the files outside the database, as the screen wrote them.
        (canon,) = read_csv(decisions / reviews.CANON_DECISIONS)
        assert (canon["name"], canon["character_id"], canon["decision"], canon["reviewer"]) == (
            named["name"],
            named["character_id"],
            "add",
            "김검토",
        )
        (mark,) = read_csv(decisions / reviews.TURN_MARKS)
        assert mark["turn_id"] == disputed["turn_id"]
        assert (mark["mark"], mark["expected_verdict"], mark["verdict_at_mark"]) == (
            "rule_wrong",
            texts.KEPT,
            disputed["verdict"],
        )
        assert mark["rule_fingerprint"] == disputed["rule_fingerprint"]
        assert mark["note"] == "존댓말이 맞는 장면입니다"
        # The files can be downloaded from the sidebar, byte for byte.
        with page.expect_download() as download:
            page.get_by_role("button", name=re.compile(f"^{reviews.TURN_MARKS}")).click()
        assert (
            Path(download.value.path()).read_bytes()
            == (decisions / reviews.TURN_MARKS).read_bytes()
        )

        # Rebuild from the screen: dbt's progress is streamed, then the build reads them.
        page.get_by_role("button", name=texts.REBUILD).click()
        page.get_by_text("dbt build: 노드").first.wait_for(timeout=60_000)
        page.get_by_text(texts.REBUILD_DONE).wait_for(timeout=REBUILD_TIMEOUT_MS)
        settle(page)
    after = built.rows(
        f"select verdict from marts.fct_turn_verdicts where turn_id = '{named['turn_id']}'"
    )[0]
    assert after["verdict"] != OFF_CANON
    canon_list = built.rows(
        "select canon_entities from marts.dim_character_cards"
        f" where character_id = '{named['character_id']}'"
    )[0]["canon_entities"]
    assert named["name"] in canon_list
    label = built.rows(
        "select expected_verdict, label_source from marts.fct_golden_agreement"
        f" where turn_id = '{disputed['turn_id']}'"
    )
    assert label == [{"expected_verdict": texts.KEPT, "label_source": "reviewer"}]
    queue = built.rows("select turn_id from marts.fct_review_rule_disputes")
    assert {"turn_id": disputed["turn_id"]} in queue

    # The screen shows the mark on the row after a reload.
    for page in open_page(browser, server):
        pick_group(page, disputed["verdict"])
        search(page, disputed["turn_id"])
        if rows(page).count():
            row = open_row(page, disputed["turn_id"])
            assert texts.MARK_NAMES["rule_wrong"] in row.inner_text()

    # A rebuild from nothing (--full-refresh) loses none of it: the decisions live outside.
    run_dbt(
        ["build", "--full-refresh"],
        folder / "build",
        extra_vars={"reviews_dir": str(decisions)},
        database=built.database,
    )
    assert built.rows(
        "select label_source from marts.fct_golden_agreement"
        f" where turn_id = '{disputed['turn_id']}'"
    ) == [{"label_source": "reviewer"}]
    assert (
        named["name"]
        in built.rows(
            "select canon_entities from marts.dim_character_cards"
            f" where character_id = '{named['character_id']}'"
        )[0]["canon_entities"]
    )


def new_forbidden_term(result: DbtResult) -> tuple[str, str]:
    """A word of a reply judged 설정대로 말함, as a term of a topic its card forbids."""
    cards = {
        card["character_id"]: card
        for card in map(json.loads, (DEMO / "character_card.jsonl").read_text().splitlines())
    }
    terms = {row["term"] for row in csv.DictReader((DEMO / "topic_lexicon.csv").open())}
    kept = result.rows(
        "select v.turn_id, v.character_id, t.reply_text from marts.fct_turn_verdicts as v"
        " inner join marts.fct_turn_texts as t using (turn_id)"
        f" where v.verdict = '{texts.KEPT}' order by v.turn_id"
    )
    for turn in kept:
        topics = cards[turn["character_id"]].get("forbidden_topics") or []
        for word in re.findall(r"[가-힣]{3,}", turn["reply_text"]) if topics else []:
            if word not in terms:
                return word, topics[0]
    pytest.fail("no reply of the demo to take a term from")


def test_run_comparison_lists_the_turns_the_mart_says_changed(
    browser, server: str, built: DbtResult, folder: Path, decisions: Path
) -> None:
    term, topic = new_forbidden_term(built)
    lexicon = folder / "topic_lexicon.csv"
    shutil.copy(DEMO / "topic_lexicon.csv", lexicon)
    with lexicon.open("a", encoding="utf-8") as handle:
        handle.write(f"{term},{topic},999\n")
    run_dbt(
        BUILD,
        folder / "build",
        inputs={"topic_lexicon": lexicon},
        extra_vars={"reviews_dir": str(decisions)},
        database=built.database,
    )
    pair = built.rows(
        "select previous_fingerprint as before, rule_fingerprint as after"
        " from marts.fct_rule_fingerprints where is_current"
    )[0]
    changed = built.rows(
        "select turn_id, verdict_before, verdict_after from marts.fct_verdict_changes"
        f" where from_fingerprint = '{pair['before']}' and to_fingerprint = '{pair['after']}'"
        " order by turn_id"
    )
    assert changed, f"adding {term} ({topic}) changed no verdict"
    for page in open_page(browser, server):
        open_section(page, texts.SECTION_COMPARE)
        shown = page.locator(".st-key-compare_changes")
        shown.locator('[data-testid="stTable"]').wait_for()
        text = shown.inner_text()
        assert texts.COMPARE_COUNT.format(count=len(changed)) in text
        table = shown.locator('[data-testid="stTable"] tbody tr')
        listed = [line.locator("td").first.inner_text().strip() for line in table.all()]
        assert listed == [row["turn_id"] for row in changed]
        for row in changed:
            assert row["verdict_before"] in text and row["verdict_after"] in text
        assert term in page.locator(".st-key-compare_inputs").inner_text() or term in text


def test_comparing_two_databases_lists_the_turns_whose_verdict_differs(
    browser, server: str, built: DbtResult, folder: Path
) -> None:
    # The demo's inputs uploaded with one card's register flipped: its turns judge differently.
    lines = []
    for line in (DEMO / "character_card.jsonl").read_text("utf-8").splitlines():
        card = json.loads(line)
        if card["character_id"] == FLIPPED_CARD:
            card["honorific_rule"] = "반말" if card["honorific_rule"] == "존댓말" else "존댓말"
        lines.append(json.dumps(card, ensure_ascii=False))
    assert FLIPPED_CARD in "".join(lines), f"the demo has no card {FLIPPED_CARD}"
    cards = folder / "flipped" / "character_card.jsonl"
    cards.parent.mkdir()
    cards.write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = {
        "chat_turn": DEMO / "chat_turn.jsonl",
        "character_card": cards,
        "topic_lexicon": DEMO / "topic_lexicon.csv",
    }
    for page in open_page(browser, server):
        upload_files(page, files, "로 빌드했습니다")
        (uploaded,) = upload_folders(folder / "uploads")
        with duckdb.connect() as con:
            con.execute(f"attach '{built.database}' as before_db (read_only)")
            con.execute(f"attach '{uploaded / 'card_keeper.duckdb'}' as after_db (read_only)")
            changed = con.execute(
                "select a.turn_id, a.character_id, b.verdict, a.verdict"
                " from before_db.marts.fct_turn_verdicts as b"
                " inner join after_db.marts.fct_turn_verdicts as a using (turn_id)"
                " where a.verdict <> b.verdict order by a.turn_id"
            ).fetchall()
        # Earlier tests here may have changed the demo build's rules too: the flipped card's
        # turns are among the changes, whatever else differs.
        assert FLIPPED_CARD in {row[1] for row in changed}
        assert len(changed) <= compare.SHOWN_LIMIT
        open_section(page, texts.SECTION_COMPARE)
        page.get_by_text(texts.COMPARE_UPLOADS, exact=True).click()
        settle(page)
        # The upload is shown; the other database offered is the default one, the demo build.
        caption = page.get_by_text(f"{texts.COMPARE_FROM}: ").first.inner_text()
        assert texts.DEFAULT_LABEL.split(" · ")[0] in caption.split(texts.COMPARE_TO)[0]
        shown = page.locator(".st-key-compare_changes")
        shown.locator('[data-testid="stTable"]').wait_for()
        text = shown.inner_text()
        assert texts.COMPARE_COUNT.format(count=len(changed)) in text
        table = shown.locator('[data-testid="stTable"] tbody tr').all()
        assert [line.locator("td").first.inner_text().strip() for line in table] == [
            row[0] for row in changed
        ]
        for line, (_, character, before, after) in zip(table, changed, strict=True):
            cells = line.inner_text()
            assert before in cells and after in cells
            if character == FLIPPED_CARD:  # the rule input that changed: the card, both ways
                assert f"-card {FLIPPED_CARD}" in cells and f"+card {FLIPPED_CARD}" in cells


def test_test_history_names_the_turns_a_failed_check_found(
    browser, server: str, built: DbtResult, folder: Path, decisions: Path
) -> None:
    with built.connect() as con:
        turn_id, ordinal = con.execute(
            "select turn_id, ordinal from marts.fct_turn_evidence"
            " where source = 'chat_turn' and field = 'reply_text' order by turn_id limit 1"
        ).fetchone()
    with duckdb.connect(str(built.database)) as con:
        con.execute(
            "update marts.fct_turn_evidence set value = value || ' (고쳐 씀)'"
            " where turn_id = ? and ordinal = ?",
            [turn_id, ordinal],
        )
    # The same inputs as the database's last build (the comparison test's lexicon, if it ran).
    lexicon = folder / "topic_lexicon.csv"
    broken = run_dbt(
        ["test", "-s", CHECK_09],
        folder / "build",
        inputs={"topic_lexicon": lexicon} if lexicon.exists() else None,
        extra_vars={"reviews_dir": str(decisions)},
        database=built.database,
        check=False,
    )
    assert broken.returncode != 0
    assert built.rows(
        f"select turn_id from audit.dbt_test_failures where test_name = '{CHECK_09}'"
    ) == [{"turn_id": turn_id}], broken.output[-2000:]
    for page in open_page(browser, server):
        open_section(page, texts.SECTION_TESTS)
        page.locator(".st-key-test_history").wait_for()
        page.locator(".st-key-test_failures").get_by_text(turn_id).wait_for()
        history = page.locator(".st-key-test_history tbody tr").filter(has_text=CHECK_09)
        assert texts.STATUS_SHORT["fail"] in history.inner_text()
        # The summary strip counts the failed check of the latest invocation (it ran alone).
        assert "1 / 1" in page.locator(".st-key-summary_strip").inner_text()
