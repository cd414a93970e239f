"""Rule history for the screen (docs/rules.md#rule-history): the demo built, a lexicon term added
and built again incrementally, then fct_verdict_changes lists exactly the turns whose verdict
differs between the two builds' fct_turn_verdicts, naming the added term; and a broken
output-schema check keeps exactly its failing turn_id in audit.dbt_test_failures, while a
passing invocation keeps none."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest
from conftest import BUILD, PROJECT_ROOT, DbtResult, copy_project, run_dbt

DEMO = PROJECT_ROOT / "data" / "demo"
CHECK_09 = "assert_check_09_evidence_values_verbatim"
CHECK_01 = "assert_check_01_verdict_is_one_of_five"


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> dict:
    """The demo built once on a copy of the project, its lexicon a copy the test may extend."""
    root = tmp_path_factory.mktemp("rule_history")
    project = copy_project(root / "project")
    lexicon = root / "topic_lexicon.csv"
    shutil.copy(DEMO / "topic_lexicon.csv", lexicon)
    inputs = {
        "chat_turn": DEMO / "chat_turn.jsonl",
        "character_card": DEMO / "character_card.jsonl",
        "topic_lexicon": lexicon,
    }
    database = root / "first" / "card_keeper.duckdb"
    first = run_dbt(BUILD, root / "first", inputs, database=database, project_dir=project)
    return {"root": root, "project": project, "inputs": inputs, "lexicon": lexicon, "first": first}


def copied(result: DbtResult, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / result.database.name
    shutil.copy(result.database, target)
    return target


def verdicts(result: DbtResult) -> dict[str, str]:
    rows = result.rows("select turn_id, verdict from marts.fct_turn_verdicts")
    return {row["turn_id"]: row["verdict"] for row in rows}


def new_forbidden_term(result: DbtResult) -> tuple[str, str]:
    """A word of a reply judged 설정대로 말함, as a term of a topic its card forbids."""
    cards = {
        card["character_id"]: card
        for card in map(json.loads, (DEMO / "character_card.jsonl").read_text().splitlines())
    }
    turns = {
        turn["turn_id"]: turn
        for turn in map(json.loads, (DEMO / "chat_turn.jsonl").read_text().splitlines())
    }
    terms = {row["term"] for row in csv.DictReader((DEMO / "topic_lexicon.csv").open())}
    for turn_id, verdict in sorted(verdicts(result).items()):
        turn = turns[turn_id]
        topics = cards[turn["character_id"]].get("forbidden_topics") or []
        if verdict != "설정대로 말함" or not topics:
            continue
        for word in re.findall(r"[가-힣]{3,}", turn["reply_text"]):
            if word not in terms:
                return word, topics[0]
    pytest.fail("no reply of the demo to take a term from")


def test_verdict_changes_list_exactly_the_changed_turns(demo, tmp_path):
    first = demo["first"]
    before = verdicts(first)
    term, topic = new_forbidden_term(first)
    database = copied(first, tmp_path / "second")
    lexicon = tmp_path / "topic_lexicon.csv"
    shutil.copy(demo["lexicon"], lexicon)
    with lexicon.open("a", encoding="utf-8") as f:
        f.write(f"{term},{topic},999\n")
    second = run_dbt(
        BUILD,
        tmp_path / "second",
        {**demo["inputs"], "topic_lexicon": lexicon},
        database=database,
        project_dir=demo["project"],
    )
    after = verdicts(second)
    expected = {
        turn_id: (before[turn_id], verdict)
        for turn_id, verdict in after.items()
        if turn_id in before and before[turn_id] != verdict
    }
    assert expected, f"adding {term} ({topic}) changed no verdict"

    fingerprints = second.rows(
        "select rule_fingerprint, previous_fingerprint, is_current, inputs_recorded, turns"
        " from marts.fct_rule_fingerprints order by fingerprint_order"
    )
    assert len(fingerprints) == 2
    old, new = fingerprints
    assert new["previous_fingerprint"] == old["rule_fingerprint"] and new["is_current"]
    assert old["inputs_recorded"] and new["inputs_recorded"]
    assert new["turns"] == len(after)

    changes = second.rows("select * from marts.fct_verdict_changes")
    assert {row["turn_id"]: (row["verdict_before"], row["verdict_after"]) for row in changes} == (
        expected
    )
    for row in changes:
        assert (row["from_fingerprint"], row["to_fingerprint"]) == (
            old["rule_fingerprint"],
            new["rule_fingerprint"],
        )
        assert (
            row["changed_inputs"]
            == f"+lexicon_term {term} ({topic}) (topic {topic}, term_order 999)"
        )
        assert not row["card_changed"]

    added = second.rows(
        "select rule_fingerprint, input_kind, input_key from marts.rule_input_history"
        " where input_kind = 'lexicon_term' and input_value like '%term_order 999'"
    )
    assert added == [
        {
            "rule_fingerprint": new["rule_fingerprint"],
            "input_kind": "lexicon_term",
            "input_key": f"{term} ({topic})",
        }
    ]


def failures_of(result: DbtResult) -> list[dict]:
    """audit.dbt_test_failures rows of the database's latest invocation."""
    return result.rows(
        "select test_name, turn_id from audit.dbt_test_failures where invocation_id ="
        " (select invocation_id from audit.dbt_test_results order by run_started_at desc limit 1)"
        " order by test_name, turn_id"
    )


def test_a_broken_check_keeps_its_failing_turn_id(demo, tmp_path):
    first = demo["first"]
    # The demo build passed every check: no failure rows at all.
    assert first.rows("select count(*) as n from audit.dbt_test_failures") == [{"n": 0}]
    database = copied(first, tmp_path / "broken")
    with first.connect() as con:
        turn_id, ordinal = con.execute(
            "select turn_id, ordinal from marts.fct_turn_evidence"
            " where source = 'chat_turn' and field = 'reply_text' order by turn_id limit 1"
        ).fetchone()
    with duckdb.connect(str(database)) as con:
        con.execute(
            "update marts.fct_turn_evidence set value = value || ' (고쳐 씀)'"
            " where turn_id = ? and ordinal = ?",
            [turn_id, ordinal],
        )
    broken = run_dbt(
        ["test", "-s", CHECK_09],
        tmp_path / "broken",
        demo["inputs"],
        database=database,
        project_dir=demo["project"],
        check=False,
    )
    assert broken.returncode != 0, broken.output[-3000:]
    assert failures_of(broken) == [{"test_name": CHECK_09, "turn_id": turn_id}]
    outcome = broken.rows(
        "select status, failures from audit.dbt_test_results"
        f" where test_name = '{CHECK_09}' order by run_started_at desc limit 1"
    )
    assert outcome == [{"status": "fail", "failures": 1}]

    # A passing invocation on the same database adds no failure rows.
    passing = run_dbt(
        ["test", "-s", CHECK_01],
        tmp_path / "passing",
        demo["inputs"],
        database=database,
        project_dir=demo["project"],
    )
    assert failures_of(passing) == []
    assert passing.rows("select count(*) as n from audit.dbt_test_failures") == [{"n": 1}]
