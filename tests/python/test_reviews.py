"""Reviewer decisions (docs/rules.md#reviewer-decisions): the screen appends turn marks and
canon decisions to CSV files in the folder var reviews_dir names, and the next build reads
them: a canon `add` joins the card's canon (and leaves the off-canon queue), a mark with an
expected verdict is a golden label that wins over the labels file, a rule_wrong mark is a
dispute, and a bad row is quarantined with its file, line and column. The decisions live
outside the database, so a `--full-refresh` rebuild gives the same results.

The demo data is built; the turns and names below are the demo's own (data/demo/).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from conftest import BUILD, run_dbt

MARK_COLUMNS = [
    "turn_id",
    "mark",
    "expected_verdict",
    "note",
    "reviewer",
    "marked_at",
    "verdict_at_mark",
    "rule_fingerprint",
]
DECISION_COLUMNS = ["name", "character_id", "decision", "note", "reviewer", "decided_at"]
# T-004694 (CHR-0001, the 검술원 card) names 맥도날드, outside its canon: 세계관 밖 고유명사.
ADDED = {"turn_id": "T-004694", "character_id": "CHR-0001", "name": "맥도날드"}
DISPUTE_NOTE = "대통령 이야기를 해도 교관이 존댓말을 쓰는 장면이라 설정대로입니다"
ADD_NOTE = "실존 브랜드지만 이 검술원 세계관에는 들여 두기로 했습니다"


def write_csv(path: Path, columns: list[str], rows: list[list[str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)
    return path


def write_reviews(folder: Path) -> dict[str, Path]:
    """Both files as the screen appends them; line 1 is the header."""
    marks = write_csv(
        folder / "turn_marks.csv",
        MARK_COLUMNS,
        [
            # Line 2: the latest mark of T-004046 (by marked_at, though line 3 comes later).
            [
                "T-004046",
                "rule_wrong",
                "설정대로 말함",
                DISPUTE_NOTE,
                "김검토",
                "2026-12-02T10:00:00Z",
                "말투 어긋남",
                "0000000000000000",
            ],
            # Line 3: an earlier mark of the same turn, superseded.
            [
                "T-004046",
                "rule_right",
                "말투 어긋남",
                "처음에는 맞다고 봤습니다",
                "김검토",
                "2026-12-02T09:00:00Z",
                "말투 어긋남",
                "0000000000000000",
            ],
            # Line 4: the rule is right: a label with the verdict shown.
            [
                "T-004019",
                "rule_right",
                "말투 어긋남",
                "",
                "박검토",
                "2026-12-02T10:05:00Z",
                "말투 어긋남",
                "",
            ],
            # Line 5: a bad row (unknown mark); the other rows still count.
            [
                "T-004001",
                "rule_maybe",
                "",
                "",
                "박검토",
                "2026-12-02T10:06:00Z",
                "설정대로 말함",
                "",
            ],
            # Line 6: a turn this build does not hold: no label, no dispute.
            [
                "T-404404",
                "rule_wrong",
                "",
                "없는 회차입니다",
                "박검토",
                "2026-12-02T10:07:00Z",
                "",
                "",
            ],
        ],
    )
    decisions = write_csv(
        folder / "canon_decisions.csv",
        DECISION_COLUMNS,
        [
            # Line 2: the screen's add.
            [
                ADDED["name"],
                ADDED["character_id"],
                "add",
                ADD_NOTE,
                "김검토",
                "2026-12-02T09:30:00Z",
            ],
            # Line 3: a bad row (unknown decision).
            ["부산", "CHR-0004", "keep", "", "김검토", "2026-12-02T09:31:00Z"],
        ],
    )
    return {"turn_marks": marks, "canon_decisions": decisions}


def snapshot(result) -> dict[str, list[dict]]:
    """What the decisions feed, as rows to assert on and to compare between builds."""
    return {
        "canon": result.rows(
            "select character_id, canon_entities, added_entity_count"
            " from intermediate.int_character_canon order by character_id"
        ),
        "off_canon_names": result.rows(
            "select character_id, name, decision, decided_by"
            " from marts.fct_review_off_canon_names order by character_id, name"
        ),
        "verdict": result.rows(
            f"select verdict from marts.fct_turn_verdicts where turn_id = '{ADDED['turn_id']}'"
        ),
        "labels": result.rows(
            "select turn_id, expected_verdict, predicted_verdict, label_source, note"
            " from marts.fct_golden_agreement order by turn_id"
        ),
        "disputes": result.rows(
            "select turn_id, current_verdict, verdict_at_mark, expected_verdict, note, reviewer,"
            " marked_at, rule_fingerprint_at_mark, rule_fingerprint_changed"
            " from marts.fct_review_rule_disputes order by turn_id"
        ),
        "violations": result.rows(
            "select table_name, source_file, source_row, row_key, column_name, raw_value,"
            " reason_code from marts.fct_contract_violations"
            " where table_name in ('turn_marks', 'canon_decisions')"
            " order by table_name, source_row"
        ),
    }


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory):
    root = tmp_path_factory.mktemp("reviews")
    files = write_reviews(root / "reviews")
    reviews = {"reviews_dir": str(root / "reviews")}
    database = root / "reviewed.duckdb"
    first = run_dbt(BUILD, root / "first", extra_vars=reviews, database=database)
    # The database made anew: the decisions are read from the files again.
    again = run_dbt(
        [*BUILD, "--full-refresh"], root / "again", extra_vars=reviews, database=database
    )
    return {"first": snapshot(first), "again": snapshot(again), "files": files}


def test_a_canon_add_joins_the_canon_and_leaves_the_off_canon_queue(reviewed):
    shot = reviewed["first"]
    (card,) = [row for row in shot["canon"] if row["character_id"] == ADDED["character_id"]]
    assert ADDED["name"] in card["canon_entities"]
    assert card["added_entity_count"] == 1
    queued = {(row["character_id"], row["name"]) for row in shot["off_canon_names"]}
    assert (ADDED["character_id"], ADDED["name"]) not in queued
    # The seed's blocks stay, marked as the seed's.
    assert {"character_id": "CHR-0002", "name": "스타벅스", "decision": "block",
            "decided_by": "seed"} in shot["off_canon_names"]  # fmt: skip
    assert shot["verdict"] and shot["verdict"][0]["verdict"] != "세계관 밖 고유명사"


def test_marks_with_an_expected_verdict_are_golden_labels_that_win(reviewed):
    labels = {row["turn_id"]: row for row in reviewed["first"]["labels"]}
    # T-004046 is labelled 말투 어긋남 in the demo's labels file; the reviewer's mark wins.
    assert labels["T-004046"]["expected_verdict"] == "설정대로 말함"
    assert labels["T-004046"]["label_source"] == "reviewer"
    assert labels["T-004046"]["note"] == DISPUTE_NOTE
    assert labels["T-004019"]["label_source"] == "reviewer"
    assert labels["T-004019"]["expected_verdict"] == "말투 어긋남"
    assert "T-404404" not in labels
    marked = ("T-004046", "T-004019")
    others = {row["label_source"] for key, row in labels.items() if key not in marked}
    assert others == {"golden_labels"}


def test_a_rule_wrong_mark_is_a_dispute(reviewed):
    (dispute,) = reviewed["first"]["disputes"]
    assert dispute["turn_id"] == "T-004046"
    assert dispute["current_verdict"] == "말투 어긋남"
    assert dispute["verdict_at_mark"] == "말투 어긋남"
    assert dispute["expected_verdict"] == "설정대로 말함"
    assert dispute["note"] == DISPUTE_NOTE
    assert dispute["reviewer"] == "김검토"
    assert str(dispute["marked_at"]) == "2026-12-02 10:00:00"
    assert dispute["rule_fingerprint_at_mark"] == "0000000000000000"
    assert dispute["rule_fingerprint_changed"] is True


def test_bad_rows_are_quarantined_naming_file_row_and_column(reviewed):
    files = reviewed["files"]
    assert reviewed["first"]["violations"] == [
        {
            "table_name": "canon_decisions",
            "source_file": str(files["canon_decisions"]),
            "source_row": 3,
            "row_key": "CHR-0004",
            "column_name": "decision",
            "raw_value": "keep",
            "reason_code": "unknown_decision",
        },
        {
            "table_name": "turn_marks",
            "source_file": str(files["turn_marks"]),
            "source_row": 5,
            "row_key": "T-004001",
            "column_name": "mark",
            "raw_value": "rule_maybe",
            "reason_code": "unknown_mark",
        },
        {
            "table_name": "turn_marks",
            "source_file": str(files["turn_marks"]),
            "source_row": 6,
            "row_key": "T-404404",
            "column_name": "turn_id",
            "raw_value": "T-404404",
            "reason_code": "unknown_turn_id",
        },
    ]


def test_a_full_refresh_rebuild_keeps_the_decisions(reviewed):
    assert reviewed["again"] == reviewed["first"]
