"""Issue 4: golden agreement, Wilson intervals, rule history, canon review, LLM summaries."""

from __future__ import annotations

import math

import pytest
from conftest import BUILD, BUILD_WITHOUT_TESTS, copy_project, fixture_inputs, run_dbt


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    p = successes / trials
    centre = p + z * z / (2 * trials)
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return (centre - margin) / denominator, (centre + margin) / denominator


def test_wilson_interval_matches_hand_computed_values(tmp_path):
    # 5 of 10 → 0.2366–0.7634 and 0 of 10 → 0–0.2775: the textbook Wilson 95% intervals.
    result = run_dbt(
        [
            "show",
            "--inline",
            "select {{ wilson_interval(5, 10, 'low') }} as low_5, "
            "{{ wilson_interval(5, 10, 'high') }} as high_5, "
            "{{ wilson_interval(0, 10, 'low') }} as low_0, "
            "{{ wilson_interval(0, 10, 'high') }} as high_0, "
            "{{ wilson_interval(0, 0, 'low') }} as low_empty",
            "--output",
            "json",
        ],
        tmp_path,
        fixture_inputs("seed_000"),
    )
    assert '"low_5": 0.2365' in result.output and '"high_5": 0.7634' in result.output
    assert '"low_0": 0.0' in result.output and '"high_0": 0.2775' in result.output
    assert '"low_empty": null' in result.output


def test_rate_intervals_are_wilson(seed_000_build):
    rows = seed_000_build.rows(
        "select turns, deviations, ci_low, ci_high from marts.fct_model_deviation_rates"
    )
    assert rows
    for row in rows:
        low, high = wilson(row["deviations"], row["turns"])
        assert row["ci_low"] == pytest.approx(low, abs=1e-12)
        assert row["ci_high"] == pytest.approx(high, abs=1e-12)


def test_no_labels_means_empty_self_scoring_not_zero(seed_000_build):
    (summary,) = seed_000_build.rows("select * from marts.fct_golden_agreement_summary")
    assert all(value is None for value in summary.values())
    assert seed_000_build.rows("select * from marts.fct_golden_agreement") == []


def test_every_broken_sample_rejected_every_valid_one_accepted(seed_000_build):
    rows = seed_000_build.rows("select * from intermediate.int_llm_summary_golden_set_validated")
    assert len(rows) >= 24
    assert all(row["actual_outcome"] == row["expected_outcome"] for row in rows), rows
    kinds = {}
    for row in rows:
        kinds[row["expected_outcome"]] = kinds.get(row["expected_outcome"], 0) + 1
    for kind in (
        "non_enum_verdict",
        "missing_required_field",
        "invented_field_name",
        "altered_value",
        "banmal_summary",
        "verdict_differs",
    ):
        assert kinds[kind] >= 3, kind
    assert kinds["accepted"] >= 3


def test_an_accepted_llm_summary_replaces_the_default(tmp_path):
    candidates = tmp_path / "llm.jsonl"
    candidates.write_text(
        '{"turn_id": "T-004468", "verdict": "설정대로 말함", '
        '"summary": "교관이 끝까지 반말로 짧게 지시했습니다.", '
        '"evidence": [{"source": "chat_turn", "field": "first_person", "value": "나"}]}\n'
        '{"turn_id": "T-004471", "verdict": "말투 어긋남", "summary": "존댓말로 답했다.", '
        '"evidence": [{"source": "chat_turn", "field": "first_person", "value": "저"}]}\n',
        encoding="utf-8",
    )
    result = run_dbt(
        BUILD,
        tmp_path / "run",
        fixture_inputs("seed_000"),
        extra_vars={"input_llm_summaries": str(candidates)},
    )
    rows = {
        row["turn_id"]: row
        for row in result.rows(
            "select turn_id, summary, summary_source, llm_rejection_reasons "
            "from marts.fct_turn_verdicts where turn_id in ('T-004468', 'T-004471')"
        )
    }
    assert rows["T-004468"]["summary_source"] == "llm"
    assert rows["T-004468"]["summary"] == "교관이 끝까지 반말로 짧게 지시했습니다."
    assert rows["T-004471"]["summary_source"] == "rule"
    assert rows["T-004471"]["llm_rejection_reasons"] == ["banmal_summary"]


def test_analyst_labels_are_scored_and_a_low_rate_only_warns(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "turn_id,expected_verdict,note\n"
        "T-004468,설정대로 말함,반말 유지\n"
        "T-004471,설정대로 말함,일부러 틀린 라벨\n",
        encoding="utf-8",
    )
    result = run_dbt(
        BUILD,
        tmp_path / "ok",
        fixture_inputs("seed_000"),
        extra_vars={"input_golden_labels": str(labels)},
    )
    (summary,) = result.rows("select * from marts.fct_golden_agreement_summary")
    assert (summary["labelled_turns"], summary["agreeing_turns"]) == (2, 1)
    assert summary["agreement_rate"] == 0.5
    # Below golden_agreement_min_rate: a warning, not an error.
    assert "WARN" in result.output and "assert_golden_agreement_above_threshold" in result.output


def test_golden_label_for_unknown_turn_names_the_turn_id(tmp_path):
    """A label whose turn is not in the build fails the build naming the turn, file and line:
    T-999999 is in no input, T-004700 was quarantined (no session_id)."""
    turns = tmp_path / "chat_turn.jsonl"
    turns.write_text(
        fixture_inputs("seed_000")["chat_turn"].read_text(encoding="utf-8")
        + '{"turn_id": "T-004700", "session_id": null, "character_id": "CHR-0001", '
        '"model_id": "claude-sonnet", "created_at": "2026-10-05T21:40:00", '
        '"reply_text": "검술원으로 와.", "first_person": "나", "named_entities": ["검술원"]}\n',
        encoding="utf-8",
    )
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "turn_id,expected_verdict,note\n"
        "T-004468,설정대로 말함,반말 유지\n"
        "T-999999,설정대로 말함,없는 회차\n"
        "T-004700,설정대로 말함,격리된 회차\n",
        encoding="utf-8",
    )
    failed = run_dbt(
        BUILD,
        tmp_path / "missing",
        {**fixture_inputs("seed_000"), "chat_turn": turns},
        extra_vars={"input_golden_labels": str(labels)},
        check=False,
    )
    assert failed.returncode != 0
    assert "FAIL 2 assert_golden_labels_name_built_turns" in failed.output
    # dbt's own failure message gives only the count; the test logs which labels they are.
    assert f"T-999999 ({labels} line 3, column turn_id" in failed.output
    assert f"T-004700 ({labels} line 4, column turn_id" in failed.output
    # The anonymous not_null failure it replaces is gone.
    assert "not_null_fct_golden_agreement_predicted_verdict" not in failed.output
    stored = failed.rows(
        "select turn_id, source_file, source_row, column_name, problem "
        "from test_failures.assert_golden_labels_name_built_turns order by source_row"
    )
    assert stored == [
        {
            "turn_id": "T-999999",
            "source_file": str(labels),
            "source_row": 3,
            "column_name": "turn_id",
            "problem": "no such turn in the chat_turn input",
        },
        {
            "turn_id": "T-004700",
            "source_file": str(labels),
            "source_row": 4,
            "column_name": "turn_id",
            "problem": "the turn was quarantined (see fct_contract_violations)",
        },
    ]
    # The verdicts of the good turns are still built and exported.
    assert len(failed.rows("select turn_id from marts.fct_turn_verdicts")) == 8
    assert failed.export.exists()


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory):
    return copy_project(tmp_path_factory.mktemp("project") / "card_keeper")


def test_history_survives_rebuilds_and_a_rule_change_adds_a_fingerprint(project_copy, tmp_path):
    database = tmp_path / "history.duckdb"
    inputs = fixture_inputs("seed_000")

    def build(*flags):
        return run_dbt(
            [*BUILD_WITHOUT_TESTS, *flags],
            tmp_path / "run",
            inputs,
            database=database,
            project_dir=project_copy,
        )

    first = build()
    before = first.rows("select * from marts.verdict_history order by turn_id")
    assert len(before) == 8 and len({row["rule_fingerprint"] for row in before}) == 1

    again = build("--full-refresh")
    assert again.rows("select * from marts.verdict_history order by turn_id") == before

    endings = project_copy / "seeds" / "honorific_endings.csv"
    endings.write_text(endings.read_text(encoding="utf-8") + "자라,true,테스트용\n", "utf-8")
    changed = build()
    after = changed.rows("select * from marts.verdict_history order by turn_id, recorded_at")
    fingerprints = {row["rule_fingerprint"] for row in after}
    assert len(after) == 16 and len(fingerprints) == 2
    assert [row for row in after if row in before] == before
    new = {row["turn_id"]: row["verdict"] for row in after if row not in before}
    # "걱정 말고 자라." now counts as 존댓말: the 반말 instructor's turn becomes a tone break.
    assert new["T-004450"] == "말투 어긋남"
    rates = changed.rows("select distinct rule_fingerprint from marts.fct_deviation_rates_by_rule")
    assert {row["rule_fingerprint"] for row in rates} == fingerprints


def test_canon_review_add_changes_the_verdict_on_rebuild(seed_000_build, project_copy, tmp_path):
    review = project_copy / "seeds" / "canon_review.csv"
    original = review.read_text(encoding="utf-8")
    inputs = fixture_inputs("seed_000")
    query = "select verdict from marts.fct_turn_verdicts where turn_id = 'T-004519'"
    try:
        # Before: the shipped canon_review, as the shared build of the same inputs used it.
        assert seed_000_build.rows(query) == [{"verdict": "세계관 밖 고유명사"}]
        review.write_text(
            original
            + "리안,CHR-0001,add,학장 리안을 설정에 들입니다\n"
            + "아카데미,CHR-0001,add,아카데미를 설정에 들입니다\n",
            encoding="utf-8",
        )
        after = run_dbt(BUILD_WITHOUT_TESTS, tmp_path / "after", inputs, project_dir=project_copy)
        assert after.rows(query) == [{"verdict": "설정대로 말함"}]
    finally:
        review.write_text(original, encoding="utf-8")
