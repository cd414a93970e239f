"""The seven example rows of seed 000, rebuilt from inputs and judged by the real project."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

# The derived fields of seed 000's seven example rows, as the seed writes them.
SEED_000 = {
    "T-004468": ("설정대로 말함", "반말 · 나", "반말 · 나", [], None, None, None, None),
    "T-004471": ("말투 어긋남", "반말 · 나", "존댓말 · 저", [], None, None, None, None),
    "T-004519": (
        "세계관 밖 고유명사",
        "반말 · 나",
        "반말 · 나",
        ["리안", "아카데미"],
        None,
        None,
        None,
        None,
    ),
    "T-004530": ("금지 소재 접촉", "반말 · 나", "반말 · 나", [], "선거", "현실 정치", None, None),
    "T-004602": (
        "앞 회차를 기억 못 함",
        "반말 · 나",
        "반말 · 나",
        [],
        None,
        None,
        "하늘",
        "T-004450",
    ),
    "T-004611": ("말투 어긋남", "존댓말 · 저", "반말 · 나", [], None, None, None, None),
    "T-004631": ("설정대로 말함", "존댓말 · 저", "존댓말 · 저", None, None, None, None, None),
}
FIELDS = (
    "verdict",
    "rule_expected",
    "rule_observed",
    "off_canon_entities",
    "touched_term",
    "touched_topic",
    "recall_target",
    "recall_source_turn",
)


@pytest.mark.parametrize("turn_id", sorted(SEED_000))
def test_derived_fields_match_seed_000(seed_000_build, turn_id):
    (row,) = seed_000_build.rows(
        f"select {', '.join(FIELDS)} from marts.fct_turn_verdicts where turn_id = '{turn_id}'"
    )
    assert tuple(row[field] for field in FIELDS) == SEED_000[turn_id]


def test_t004631_hedges_the_skipped_names(seed_000_build):
    (row,) = seed_000_build.rows(
        "select hedge, skipped_checks from marts.fct_turn_verdicts where turn_id = 'T-004631'"
    )
    assert "세계관 대조는 건너뛰었습니다" in row["hedge"]
    assert row["skipped_checks"] == ["off_canon:named_entities_null"]


def test_export_carries_the_seed_rows_with_typed_evidence(seed_000_build):
    exported = {row["turn_id"]: row for row in json.loads(Path(seed_000_build.export).read_text())}
    assert set(SEED_000) <= set(exported)
    recall = exported["T-004602"]["evidence"]
    assert {
        "source": "chat_turn",
        "field": "user_asked_recall",
        "agg": None,
        "value": True,
    } in recall
    assert {"source": "chat_turn", "field": "turn_id", "agg": None, "value": "T-004450"} in recall
    off_canon = exported["T-004519"]["evidence"]
    assert {"source": "character_card", "field": "canon_entities", "agg": "count", "value": 2} in (
        off_canon
    )
    assert exported["T-004530"]["evidence"][1:] == [
        {"source": "topic_lexicon", "field": "term", "agg": None, "value": "선거"},
        {"source": "topic_lexicon", "field": "topic", "agg": None, "value": "현실 정치"},
        {
            "source": "character_card",
            "field": "forbidden_topics",
            "agg": None,
            "value": "현실 정치",
        },
    ]


def test_summaries_name_the_figures(seed_000_build):
    summaries = {
        row["turn_id"]: row["summary"]
        for row in seed_000_build.rows("select turn_id, summary from marts.fct_turn_verdicts")
    }
    assert "「리안」" in summaries["T-004519"] and "2개" in summaries["T-004519"]
    assert "「선거」" in summaries["T-004530"] and "현실 정치" in summaries["T-004530"]
    assert "T-004450" in summaries["T-004602"] and "「하늘」" in summaries["T-004602"]
    assert "「생각해요」" in summaries["T-004471"]
    # One sentence per verdict type is not enough: two rows of one verdict differ by figures.
    assert summaries["T-004471"] != summaries["T-004611"]
