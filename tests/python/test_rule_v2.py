"""Rule v2 and the history it is recorded in: the card's own name is canon, an off-canon
verdict cites the canon it was compared with, verdict_history keys on what decided a verdict,
and vars reach SQL only as literals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BUILD, BUILD_WITHOUT_TESTS, run_dbt

CARD = {
    "character_id": "CHR-SEOYUL",
    "name": "한서율",
    "persona": "밝은 반말 점원",
    "honorific_rule": "반말",
    "first_person": "나",
    "canon_entities": ["별빛 카페", "하람"],
    "forbidden_topics": [],
    "entity_roles": [{"role": "동생", "entity": "하람"}],
    "is_public": False,
}


def turn(turn_id: str, reply: str, names: list[str] | None, minute: int) -> dict:
    return {
        "turn_id": turn_id,
        "session_id": "S-1",
        "character_id": "CHR-SEOYUL",
        "model_id": "model-a",
        "created_at": f"2026-11-02T10:{minute:02d}:00",
        "prompt_id": None,
        "user_message": "너는 누구야?",
        "reply_text": reply,
        "first_person": "나",
        "named_entities": names,
        "honorific_level": None,
        "user_asked_recall": False,
    }


TURNS = [
    turn("T-self", "나는 별빛 카페를 지키는 한서율이야.", ["한서율", "별빛 카페"], 0),
    turn("T-outside", "어제 리안이 카페에 들렀어. 하람도 같이 왔어.", ["리안", "하람"], 1),
]


def write_inputs(folder: Path, turns: list[dict], card: dict = CARD) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = {
        "chat_turn": folder / "chat_turn.jsonl",
        "character_card": folder / "character_card.jsonl",
        "topic_lexicon": folder / "topic_lexicon.csv",
    }
    paths["chat_turn"].write_text(
        "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in turns), encoding="utf-8"
    )
    paths["character_card"].write_text(json.dumps(card, ensure_ascii=False) + "\n", "utf-8")
    paths["topic_lexicon"].write_text("term,topic,term_order\n선거,현실 정치,1\n", "utf-8")
    return paths


@pytest.fixture(scope="module")
def v2_build(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rule_v2")
    return run_dbt(BUILD, folder, write_inputs(folder / "inputs", TURNS))


def test_card_own_name_is_canon(v2_build):
    verdicts = {
        row["turn_id"]: row
        for row in v2_build.rows(
            "select turn_id, verdict, off_canon_entities, rule_version from marts.fct_turn_verdicts"
        )
    }
    assert verdicts["T-self"]["verdict"] == "설정대로 말함"
    assert verdicts["T-self"]["off_canon_entities"] == []
    assert verdicts["T-outside"]["verdict"] == "세계관 밖 고유명사"
    assert verdicts["T-outside"]["off_canon_entities"] == ["리안"]
    assert {row["rule_version"] for row in verdicts.values()} == {"v2"}


def test_off_canon_evidence_cites_the_canon_count_and_the_card_name(v2_build):
    # The canon compared with is cited by its count and the card's name, one row each; the
    # canon list itself stays in dim_character_cards.
    cited = v2_build.rows(
        "select source, field, agg, value, cited_character_id from marts.fct_turn_evidence "
        "where turn_id = 'T-outside' and source = 'character_card' order by ordinal"
    )
    assert [(row["field"], row["agg"], row["value"]) for row in cited] == [
        ("canon_entities", "count", "2"),
        ("name", None, "한서율"),
    ]
    assert {row["cited_character_id"] for row in cited} == {"CHR-SEOYUL"}
    (exported,) = [
        row
        for row in json.loads(v2_build.export.read_text("utf-8"))
        if row["turn_id"] == "T-outside"
    ]
    assert {"source": "character_card", "field": "name", "value": "한서율"} in [
        {key: item[key] for key in ("source", "field", "value")} for item in exported["evidence"]
    ]
    (summary,) = v2_build.rows(
        "select summary from marts.fct_turn_verdicts where turn_id = 'T-outside'"
    )
    assert "「한서율」" in summary["summary"] and "「리안」" in summary["summary"]


def history(result, turn_id: str) -> list[tuple]:
    return [
        (row["rule_version"], row["verdict"])
        for row in result.rows(
            "select rule_version, verdict from marts.verdict_history "
            f"where turn_id = '{turn_id}' order by recorded_at"
        )
    ]


def test_history_records_again_when_judged_inputs_change(tmp_path):
    database = tmp_path / "history.duckdb"
    first = run_dbt(
        BUILD_WITHOUT_TESTS,
        tmp_path / "b1",
        write_inputs(tmp_path / "in1", TURNS),
        database=database,
    )
    assert history(first, "T-outside") == [("v2", "세계관 밖 고유명사")]

    # The same turn_id, its text and names edited: recorded again, counted once by its latest.
    # Other files into the same database: a full rebuild (an incremental build would keep the
    # first file's turns and quarantine the edited row as a duplicate turn_id); the history,
    # never rebuilt, keeps the first verdict.
    edited = [TURNS[0], turn("T-outside", "어제 하람이 카페에 들렀어.", ["하람"], 1)]
    second = run_dbt(
        [*BUILD_WITHOUT_TESTS, "--full-refresh"],
        tmp_path / "b2",
        write_inputs(tmp_path / "in2", edited),
        database=database,
    )
    assert history(second, "T-outside") == [("v2", "세계관 밖 고유명사"), ("v2", "설정대로 말함")]
    assert history(second, "T-self") == [("v2", "설정대로 말함")]
    (rates,) = second.rows(
        "select turns, deviations from marts.fct_deviation_rates_by_rule "
        "where rule_version = 'v2' and model_id = 'model-a'"
    )
    assert (rates["turns"], rates["deviations"]) == (2, 0)

    # A card change (리안 joins the canon) re-records only what it decided: both turns'
    # card hash changed, so both are recorded again; the text is back to naming 리안.
    card = {**CARD, "canon_entities": [*CARD["canon_entities"], "리안"]}
    third = run_dbt(
        BUILD_WITHOUT_TESTS,
        tmp_path / "b3",
        write_inputs(tmp_path / "in3", TURNS, card),
        database=database,
    )
    assert history(third, "T-outside")[-1] == ("v2", "설정대로 말함")
    assert len(history(third, "T-outside")) == 3

    # A new rule_version records every turn again, and keeps the old rows.
    fourth = run_dbt(
        BUILD_WITHOUT_TESTS,
        tmp_path / "b4",
        write_inputs(tmp_path / "in4", TURNS, card),
        extra_vars={"rule_version": "v2-test"},
        database=database,
    )
    assert [version for version, _ in history(fourth, "T-self")] == ["v2", "v2", "v2-test"]
    versions = {
        row["rule_version"]
        for row in fourth.rows(
            "select distinct rule_version from marts.fct_deviation_rates_by_rule"
        )
    }
    assert versions == {"v2", "v2-test"}


def test_vars_reach_sql_only_as_literals(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-CONTENTS", encoding="utf-8")
    injected = f"v1' || (select content from read_text('{secret}')) || '"
    result = run_dbt(
        BUILD_WITHOUT_TESTS,
        tmp_path / "build",
        write_inputs(tmp_path / "inputs", TURNS),
        extra_vars={
            "rule_version": injected,
            "review_sample_seed": "서율's seed",
            "compared_models": ["model-a", "it's-b"],
        },
    )
    versions = result.rows("select distinct rule_version from marts.fct_turn_verdicts")
    assert versions == [{"rule_version": injected}]
    assert "SECRET-CONTENTS" not in result.export.read_text("utf-8")
    assert result.rows("select count(*) as n from marts.verdict_history")[0]["n"] == len(TURNS)

    refused = run_dbt(
        ["compile", "--select", "assert_golden_agreement_above_threshold"],
        tmp_path / "refused",
        write_inputs(tmp_path / "inputs", TURNS),
        extra_vars={"golden_agreement_min_rate": "0.5 or 1 = 1"},
        check=False,
    )
    assert refused.returncode != 0
    assert 'var golden_agreement_min_rate must be a non-negative number, got "0.5 or 1 = 1"' in (
        refused.output
    )
