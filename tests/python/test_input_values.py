"""Issue 16: value-level rules of the input contract (SPEC §1, docs/rules.md#inputs).

- empty optional text (and an empty list / roles value) is null in every format, so an
  all-quoted CSV judges exactly like the JSON Lines it was written from;
- created_at outside the accepted years (1900-9999), infinities and `epoch` are quarantined;
- ids are strings or integers only, a JSON string is its string value in every format, and
  booleans parse by one rule;
- zero-width and bidi format characters are stripped from keys.
"""

from __future__ import annotations

import csv
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import PROJECT_ROOT, fixture_inputs, run_dbt

DEMO = PROJECT_ROOT / "data" / "demo"

# The columns of each input as its files list them (the optional inputs included).
COLUMNS = {
    "chat_turn": [
        "turn_id",
        "session_id",
        "character_id",
        "model_id",
        "created_at",
        "prompt_id",
        "user_message",
        "reply_text",
        "first_person",
        "named_entities",
        "honorific_level",
        "user_asked_recall",
    ],
    "character_card": [
        "character_id",
        "name",
        "persona",
        "honorific_rule",
        "first_person",
        "canon_entities",
        "forbidden_topics",
        "entity_roles",
        "is_public",
    ],
    "topic_lexicon": ["term", "topic", "term_order"],
    "golden_labels": ["turn_id", "expected_verdict", "note"],
    "llm_summaries": ["turn_id", "verdict", "summary", "evidence"],
}


def read_records(path: Path) -> list[dict]:
    if path.suffix == ".jsonl":
        lines = path.read_text(encoding="utf-8").splitlines()
        return [json.loads(line) for line in lines if line.strip()]
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def quote_all_cell(value) -> str:
    """A value as a writer that quotes every field writes it: lists, objects and booleans
    as JSON text, a missing value as `""`."""
    if value is None:
        return ""
    if isinstance(value, (list, dict, bool)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def write_quote_all_csv(records: list[dict], columns: list[str], path: Path) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL)
        writer.writerow(columns)
        for record in records:
            writer.writerow([quote_all_cell(record.get(column)) for column in columns])
    return path


def as_quote_all(inputs: dict[str, Path], folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return {
        table: write_quote_all_csv(read_records(path), COLUMNS[table], folder / f"{table}.csv")
        for table, path in inputs.items()
    }


def copied(inputs: dict[str, Path], folder: Path) -> dict[str, Path]:
    """The files as they are, copied: a build of the demo's own chat_turn path would add the
    demo's golden labels and LLM summaries by default, and the CSV build would not."""
    folder.mkdir(parents=True, exist_ok=True)
    return {table: Path(shutil.copy(path, folder / path.name)) for table, path in inputs.items()}


DATASETS = {
    "seed_000": fixture_inputs("seed_000"),
    "demo": {
        "chat_turn": DEMO / "chat_turn.jsonl",
        "character_card": DEMO / "character_card.jsonl",
        "topic_lexicon": DEMO / "topic_lexicon.csv",
        "golden_labels": DEMO / "golden_labels.csv",
        "llm_summaries": DEMO / "llm_summaries.jsonl",
    },
}

# Only the models the comparison reads: the build's tests run in test_input_contract.py.
VERDICTS_ONLY = [
    "build",
    "--select",
    "+fct_turn_verdicts",
    "+fct_turn_checks",
    "--exclude-resource-type",
    "test",
    "unit_test",
]


def run_builds(builds: dict[str, tuple]) -> dict:
    """run_dbt for each (command, workdir, inputs), two at a time: a build spends a third of
    its time parsing the project on one core."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {name: pool.submit(run_dbt, *arguments) for name, arguments in builds.items()}
        return {name: future.result() for name, future in futures.items()}


@pytest.fixture(scope="module")
def quote_all_builds(tmp_path_factory):
    """Per dataset, the build of its files as given and of the same data as all-quoted CSV."""
    planned = {}
    for name, inputs in DATASETS.items():
        folder = tmp_path_factory.mktemp(f"quote_all_{name}")
        planned[(name, "as_given")] = (
            VERDICTS_ONLY,
            folder / "given",
            copied(inputs, folder / "in"),
        )
        planned[(name, "quote_all")] = (
            VERDICTS_ONLY,
            folder / "quoted",
            as_quote_all(inputs, folder / "csv"),
        )
    results = run_builds(planned)
    return {
        name: {form: results[(name, form)] for form in ("as_given", "quote_all")}
        for name in DATASETS
    }


def verdict_rows(result) -> list[dict]:
    return result.rows("select * from marts.fct_turn_verdicts order by turn_id")


@pytest.mark.parametrize("dataset", sorted(DATASETS))
def test_quote_all_csv_judges_like_jsonl(quote_all_builds, dataset):
    """SPEC §1 rule v2: `""` in an all-quoted CSV is a missing value, not an empty text."""
    builds = quote_all_builds[dataset]
    given = verdict_rows(builds["as_given"])
    quoted = verdict_rows(builds["quote_all"])
    assert len(given) == {"seed_000": 8, "demo": 337}[dataset]
    assert [row["turn_id"] for row in quoted] == [row["turn_id"] for row in given]
    for expected, actual in zip(given, quoted, strict=True):
        assert actual == expected, expected["turn_id"]
    checks = "select * from marts.fct_turn_checks order by turn_id, check_order"
    assert builds["quote_all"].rows(checks) == builds["as_given"].rows(checks)


def test_quote_all_missing_first_person_is_skipped_not_compared(quote_all_builds):
    """A first_person written as `""` is null in staging: the comparison is skipped and said
    so, rule_observed has no dangling separator and no summary quotes an empty 「」."""
    for dataset, expected in (("seed_000", 1), ("demo", 7)):
        rows = quote_all_builds[dataset]["quote_all"].rows(
            """
            select verdicts.rule_observed, verdicts.skipped_checks, verdicts.hedge,
                verdicts.summary
            from marts.fct_turn_verdicts as verdicts
            inner join staging.stg_chat_logs__turns as turns using (turn_id)
            where turns.first_person is null
            """
        )
        assert len(rows) == expected, dataset
        for row in rows:
            assert "first_person:first_person_null" in row["skipped_checks"]
            assert not (row["rule_observed"] or "").endswith(" · ")
            assert "「」" not in row["summary"]
            assert "1인칭 비교는 건너뛰었습니다" in row["hedge"]
