"""A shipped self-test never fails an analyst's valid build.

The fixture analyst_overlap is a valid dataset that overlaps everything the project ships:
the turn_ids of seed 000 and of the broken-sample golden set (most with other replies, three
with the same ones, so the golden set's samples apply to them), cards with the same
character_ids but another canon, name and entity roles, and a lexicon holding 투표, the term
golden sample B-VALUE-2 'altered' its evidence to. No golden labels are given.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from conftest import FIXTURES, PROJECT_ROOT, DbtResult, fixture_inputs, run_dbt

ANALYST = "analyst_overlap"
GOLDEN_SET = PROJECT_ROOT / "seeds" / "llm_summary_golden_set.csv"
VAR_CALL = re.compile(r"""\bvar\(\s*["'](\w+)["']""")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def golden_samples() -> dict[str, dict]:
    with GOLDEN_SET.open(encoding="utf-8", newline="") as handle:
        return {row["sample_id"]: row for row in csv.DictReader(handle)}


def run_results(result: DbtResult) -> list[dict]:
    """The results of the invocation, from the target directory run_dbt gave it."""
    path = result.database.parent / "target" / "run_results.json"
    return json.loads(path.read_text(encoding="utf-8"))["results"]


def summary_counts(output: str) -> dict[str, int]:
    """dbt's closing line, e.g. 'Done. PASS=173 WARN=0 ERROR=0 SKIP=0 NO-OP=1 TOTAL=174'."""
    (line,) = [line for line in output.splitlines() if "Done. PASS=" in line]
    return {key: int(value) for key, value in re.findall(r"([A-Z-]+)=(\d+)", line)}


@pytest.fixture(scope="module")
def analyst_build(tmp_path_factory):
    return run_dbt(["build"], tmp_path_factory.mktemp("analyst"), fixture_inputs(ANALYST))


def test_fixture_overlaps_the_shipped_samples():
    """Guards the fixture itself: without the overlap the build below would prove nothing."""
    inputs = fixture_inputs(ANALYST)
    seed_000 = fixture_inputs("seed_000")
    turns = {row["turn_id"]: row for row in read_jsonl(inputs["chat_turn"])}
    seed_turns = {row["turn_id"]: row for row in read_jsonl(seed_000["chat_turn"])}
    samples = golden_samples()
    assert {row["turn_id"] for row in samples.values()} <= set(turns)
    assert set(seed_turns) <= set(turns)
    # Other replies on most shipped turn_ids, the very same on the ones the golden set's
    # altered_value samples are written against.
    different = {t for t in seed_turns if turns[t]["reply_text"] != seed_turns[t]["reply_text"]}
    assert len(different) >= 5
    for sample_id in ("B-VALUE-1", "B-VALUE-2", "B-VALUE-3"):
        sample = samples[sample_id]
        assert turns[sample["turn_id"]]["reply_text"] == sample["reply_text"], sample_id
    # The lexicon holds the term B-VALUE-2 altered its evidence to.
    altered = [
        item["value"]
        for item in json.loads(samples["B-VALUE-2"]["evidence"])
        if item["source"] == "topic_lexicon"
    ]
    with inputs["topic_lexicon"].open(encoding="utf-8", newline="") as handle:
        terms = {row["term"] for row in csv.DictReader(handle)}
    assert altered == ["투표"] and "투표" in terms
    # Same character_ids, another canon.
    cards = {row["character_id"]: row for row in read_jsonl(inputs["character_card"])}
    seed_cards = {row["character_id"]: row for row in read_jsonl(seed_000["character_card"])}
    assert set(cards) == set(seed_cards)
    assert all(cards[c]["canon_entities"] != seed_cards[c]["canon_entities"] for c in cards)
    assert not list((FIXTURES / ANALYST).glob("golden_labels.*"))


def test_analyst_build_overlapping_the_shipped_samples_passes_every_shipped_test(analyst_build):
    counts = summary_counts(analyst_build.output)
    assert counts["ERROR"] == 0 and counts["WARN"] == 0 and counts["SKIP"] == 0, counts
    checks = [
        result
        for result in run_results(analyst_build)
        if result["unique_id"].startswith(("test.", "unit_test."))
    ]
    assert len(checks) > 100
    statuses = {result["unique_id"]: result["status"] for result in checks}
    assert set(statuses.values()) == {"pass"}, statuses
    # No labels were given: self-scoring is empty, not zero, and nothing warns about it.
    assert analyst_build.rows("select * from marts.fct_golden_agreement") == []
    assert len(analyst_build.rows("select turn_id from marts.fct_turn_verdicts")) == 10


def test_valid_lexicon_holding_an_altered_term_does_not_fail_the_build(analyst_build):
    """On this valid data the altered_value samples quote real values (투표 is a lexicon term,
    T-004449 and the altered reply are turns of the session): the validator rightly accepts
    them, which the shipped golden-set test used to report as a failure of the build."""
    outcomes = {
        row["sample_id"]: row["actual_outcome"]
        for row in analyst_build.rows(
            "select sample_id, actual_outcome "
            "from intermediate.int_llm_summary_golden_set_validated"
        )
    }
    assert {outcomes[s] for s in ("B-VALUE-1", "B-VALUE-2", "B-VALUE-3")} == {"accepted"}
    assert "assert_llm_summary_golden_set_outcomes" not in analyst_build.output
    assert summary_counts(analyst_build.output)["ERROR"] == 0


def model_vars(manifest: dict, node: dict) -> set[str]:
    """The vars a model reads, in its own SQL or in any macro it calls (transitively)."""
    found = set(VAR_CALL.findall(node["raw_code"]))
    pending = list(node["depends_on"]["macros"])
    seen: set[str] = set()
    while pending:
        macro_id = pending.pop()
        if macro_id in seen or macro_id not in manifest["macros"]:
            continue
        seen.add(macro_id)
        macro = manifest["macros"][macro_id]
        if macro["package_name"] == manifest["metadata"]["project_name"]:
            found |= set(VAR_CALL.findall(macro["macro_sql"]))
        pending.extend(macro["depends_on"]["macros"])
    return found


def test_every_unit_test_pins_the_vars_its_model_reads(analyst_build):
    manifest_path = analyst_build.database.parent / "target" / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    unit_tests = manifest["unit_tests"].values()
    assert len(unit_tests) >= 3
    unpinned = {}
    for unit_test in unit_tests:
        (model_id,) = unit_test["depends_on"]["nodes"]
        read = model_vars(manifest, manifest["nodes"][model_id])
        pinned = set((unit_test.get("overrides") or {}).get("vars") or {})
        if read - pinned:
            unpinned[unit_test["name"]] = sorted(read - pinned)
    assert unpinned == {}
    # The scan finds what it must: the tone model reads the terminators.
    tone = manifest["nodes"]["model.card_keeper.int_turns_toned"]
    assert "sentence_terminators" in model_vars(manifest, tone)


def test_dropping_a_sentence_terminator_keeps_every_unit_test_passing(tmp_path):
    """An analyst's rule change ('.' no longer ends a sentence) changes the build's tone, and
    no shipped unit test fails for it (they pin the vars they assume)."""
    result = run_dbt(
        ["build"],
        tmp_path,
        fixture_inputs(ANALYST),
        extra_vars={"sentence_terminators": "?!．？！…"},
    )
    counts = summary_counts(result.output)
    assert counts["ERROR"] == 0 and counts["WARN"] == 0 and counts["SKIP"] == 0, counts
    unit_results = [r for r in run_results(result) if r["unique_id"].startswith("unit_test.")]
    assert len(unit_results) >= 3 and {r["status"] for r in unit_results} == {"pass"}
    # The build did use the analyst's terminators: two sentences now read as one.
    (row,) = result.rows(
        "select sentence_count from intermediate.int_turns_toned where turn_id = 'T-004468'"
    )
    assert row["sentence_count"] == 1
    assert len(result.rows("select turn_id from marts.fct_turn_verdicts")) == 10
