"""data/demo/make_demo.py: the committed demo files are exactly what the generator writes from
characters/*.yaml and demo.yaml, and the demo keeps seed 000's example turns."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "data" / "demo"
SEED_000 = Path(__file__).resolve().parent / "fixtures" / "seed_000"
OUTPUTS = {
    "character_card.jsonl",
    "topic_lexicon.csv",
    "chat_turn.jsonl",
    "golden_labels.csv",
    "README.md",
}
# The verdicts of seed 000's example turns (docs/rules.md); the demo labels them the same.
SEED_VERDICTS = {
    "T-004468": "설정대로 말함",
    "T-004471": "말투 어긋남",
    "T-004519": "세계관 밖 고유명사",
    "T-004530": "금지 소재 접촉",
    "T-004602": "앞 회차를 기억 못 함",
    "T-004611": "말투 어긋남",
    "T-004631": "설정대로 말함",
}


@pytest.fixture(scope="module")
def make_demo():
    spec = importlib.util.spec_from_file_location("make_demo", DEMO / "make_demo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_generator_reproduces_the_committed_files(make_demo, tmp_path: Path) -> None:
    make_demo.main(["--out", str(tmp_path)])
    written = {p.name for p in tmp_path.iterdir()}
    assert written == OUTPUTS
    for name in sorted(written):
        assert (tmp_path / name).read_bytes() == (DEMO / name).read_bytes(), (
            f"data/demo/{name} differs from what make_demo.py writes: run "
            "`python data/demo/make_demo.py` and commit the result"
        )


def test_demo_holds_seed_000_example_turns() -> None:
    demo = {t["turn_id"]: t for t in jsonl(DEMO / "chat_turn.jsonl")}
    keys = ("session_id", "character_id", "model_id", "reply_text")
    for seed in jsonl(SEED_000 / "chat_turn.jsonl"):
        turn = demo[seed["turn_id"]]
        assert [turn[k] for k in keys] == [seed[k] for k in keys], seed["turn_id"]
    with open(DEMO / "golden_labels.csv", encoding="utf-8", newline="") as f:
        labels = {row["turn_id"]: row["expected_verdict"] for row in csv.DictReader(f)}
    assert {t: labels[t] for t in SEED_VERDICTS} == SEED_VERDICTS
    # the extraction values the seed examples rely on
    assert demo["T-004519"]["named_entities"] == ["리안", "아카데미"]
    assert demo["T-004631"]["named_entities"] is None
    assert demo["T-004631"]["first_person"] == "저" == demo["T-004471"]["first_person"]
    recall = demo["T-004602"]
    assert recall["user_asked_recall"] is True and recall["user_message"] == "내 동생 이름 기억나?"
    # 하늘 (the card's 동생) is named earlier in the session, first in T-004450
    earlier = sorted(
        t["turn_id"]
        for t in demo.values()
        if t["session_id"] == "S-00912"
        and (t["created_at"], t["turn_id"]) < (recall["created_at"], recall["turn_id"])
        and "하늘" in (t["named_entities"] or [])
    )
    assert earlier[0] == "T-004450" and len(earlier) >= 2
