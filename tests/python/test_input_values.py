"""Issue 16: value-level rules of the input contract (docs/rules.md#null-rules, #typing-rules).

- Empty optional text (and an empty list / roles value) is null in every format, so an
  all-quoted CSV judges exactly like the JSON Lines it was written from.
- created_at outside the accepted years (1900-9999), the infinities and `epoch` are
  quarantined.
- Ids are strings or integers only, a JSON string is its own value in every format, and
  booleans parse by one rule.
- Zero-width and bidi format characters are stripped from keys.

Three dbt builds serve every test (two at a time): one input set holding the demo data, the
seed-000 fixture (its keys prefixed, so that they do not collide with the demo's) and the
rows of this file, once as given (JSON Lines; the demo's CSV lexicon and labels) and once as
all-quoted CSV; and this file's rows alone as a `.json` array, with Parquet cards.
"""

from __future__ import annotations

import csv
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import PROJECT_ROOT, fixture_inputs, run_dbt

from python_udfs.contract import ALL_INPUT_COLUMNS

DEMO = PROJECT_ROOT / "data" / "demo"

# The columns of each input as its files list them (the optional inputs included).
COLUMNS = ALL_INPUT_COLUMNS


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


def write_jsonl(records: list[dict], path: Path) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def seed_000_records() -> dict[str, list[dict]]:
    """The seed-000 fixture with its keys prefixed `seed-`: its turn and card ids are the
    demo's own (T-004468, CHR-0001) with other contents."""
    tables = {table: read_records(path) for table, path in fixture_inputs("seed_000").items()}
    for record in tables["chat_turn"] + tables["character_card"]:
        for key in ("turn_id", "session_id", "character_id", "prompt_id"):
            if record.get(key) is not None:
                record[key] = "seed-" + record[key]
    return tables


ZWSP, ZWJ, LRM, RLO, LRI, PDI, BOM = (
    "\u200b",
    "\u200d",
    "\u200e",
    "\u202e",
    "\u2066",
    "\u2069",
    "\ufeff",
)

CARDS = [
    {
        "character_id": "CHR-0901",
        "name": "강무결",
        "persona": "무뚝뚝한 반말 교관",
        "honorific_rule": "반말",
        "first_person": "나",
        "canon_entities": ["검술원", "하늘", "도월"],
        "forbidden_topics": ["현실 정치"],
        "entity_roles": [{"role": "동생", "entity": "하늘"}, {"role": "스승", "entity": "도월"}],
        "is_public": "yes",
    },
    {
        # A byte-order mark in front of the key: still the card the turns name as CHR-0902.
        "character_id": BOM + "CHR-0902",
        "name": "윤하람",
        "persona": "다정한 존댓말 바리스타",
        "honorific_rule": "존댓말",
        "first_person": "저",
        "canon_entities": ["온새미로", "보리"],
        "forbidden_topics": [],
        "entity_roles": [{"role": "고양이", "entity": "보리"}],
        "is_public": True,
    },
]
TERMS = [
    {"term": "선거", "topic": "현실 정치", "term_order": 1},
    {"term": "대통령", "topic": "현실 정치", "term_order": "2"},
]


def chat_turn(turn_id, created_at, reply_text, **values) -> dict:
    return {
        "turn_id": turn_id,
        "session_id": "S-1",
        "character_id": "CHR-0901",
        "model_id": "model-a",
        "created_at": created_at,
        "prompt_id": "P-1",
        "user_message": "오늘 훈련은 어땠어?",
        "reply_text": reply_text,
        "first_person": "나",
        "named_entities": [],
        "honorific_level": "반말",
        "user_asked_recall": False,
    } | values


# Rows every format can write (text, lists, booleans as words).
TEXT_TURNS = [
    chat_turn(
        "V-01",
        "2026-09-15T20:10:00+09:00",
        "검부터 들어. 하늘이도 오늘 같이 왔어.",
        named_entities=["하늘"],
        user_asked_recall="yes",
    ),
    chat_turn("V-02", "infinity", "오늘은 여기까지 해."),
    chat_turn("V-03", "-infinity", "손목부터 다시 봐."),
    chat_turn("V-04", "epoch", "검을 똑바로 잡아."),
    chat_turn("V-05", "0044-03-15 BC", "발을 더 넓게 벌려."),
    chat_turn("V-06", "0044-03-15 (BC)", "숨을 고르고 다시 해."),
    chat_turn("V-07", "99999-01-01T00:00:00", "내일 새벽에 다시 와."),
    chat_turn("V-08", "1899-12-31T23:59:59", "오늘 수고했다."),
    chat_turn("V-09", "1900-01-01T00:00:00", "첫날치고 나쁘지 않아.", session_id="S-2"),
    chat_turn("V-10", "9999-12-31T23:59:59", "마지막으로 한 번 더.", session_id="S-2"),
    # A zero-width space makes a look-alike of V-01: the same turn_id, quarantined.
    chat_turn("V-" + ZWSP + "01", "2026-09-15T20:20:00+09:00", "다시 들어 봐."),
    # Format characters around and inside every key; the reply keeps its own.
    chat_turn(
        LRI + "V-12" + PDI,
        "2026-09-15T21:00:00+09:00",
        "잘 지내." + ZWSP + " 걱정 마.",
        session_id=BOM + "S-1",
        character_id="CHR-0901" + ZWJ,
        model_id="model-a" + LRM,
        prompt_id=RLO + "P-1",
        user_message="동생은 요즘 어때?",
        user_asked_recall=True,
    ),
    chat_turn("V-13", "2026-09-15T21:10:00+09:00", "알겠어.", model_id=""),
    chat_turn(
        "V-14",
        "2026-09-15T21:20:00+09:00",
        "",
        first_person="",
        honorific_level="  ",
        named_entities="",
        user_message="",
        prompt_id="",
    ),
    chat_turn(
        "V-15",
        "2026-09-16T09:00:00+09:00",
        "어서 오세요. 오늘은 보리가 먼저 반겨 줄 거예요.",
        session_id="S-3",
        character_id="CHR-0902",
        first_person="저",
        named_entities=["보리"],
        honorific_level="존댓말",
    ),
]
# Rows with an integer id and a JSON boolean: a CSV writes them as "20" and "true".
JSON_TYPED_TURNS = [
    chat_turn(20, "2026-09-16T10:00:00+09:00", "숫자 id도 받아 줄게.", session_id="S-4"),
    chat_turn(
        "V-27",
        "2026-09-16T10:07:00+09:00",
        "참이면 참이지.",
        session_id="S-4",
        user_asked_recall=True,
    ),
]
# Rows only JSON can write: ids that are neither strings nor integers.
JSON_ONLY_TURNS = [
    chat_turn({"id": "V-21"}, "2026-09-16T10:01:00+09:00", "이건 id가 아니야."),
    chat_turn(["V-22"], "2026-09-16T10:02:00+09:00", "목록도 id가 아니야."),
    chat_turn("V-23", "2026-09-16T10:03:00+09:00", "세션이 참이라니.", session_id=True),
    chat_turn("V-24", "2026-09-16T10:04:00+09:00", "모델이 소수라니.", model_id=1.5),
    chat_turn("V-25", "2026-09-16T10:05:00+09:00", "프롬프트가 객체라니.", prompt_id={"p": 1}),
    chat_turn(12345678901234567890123, "2026-09-16T10:06:00+09:00", "너무 긴 숫자야."),
]
JSON_TURNS = JSON_TYPED_TURNS + JSON_ONLY_TURNS
# Their turn_ids as staging would hold them, were they accepted.
REJECTED_TURN_IDS = {
    '{"id":"V-21"}',
    '["V-22"]',
    "V-23",
    "V-24",
    "V-25",
    "12345678901234567890123",
}

EXPECTED_TEXT_QUARANTINE = {
    ("V-02", "created_at", "unparsable_timestamp", "infinity"),
    ("V-03", "created_at", "unparsable_timestamp", "-infinity"),
    ("V-04", "created_at", "unparsable_timestamp", "epoch"),
    ("V-05", "created_at", "out_of_range_timestamp", "0044-03-15 BC"),
    ("V-06", "created_at", "out_of_range_timestamp", "0044-03-15 (BC)"),
    ("V-07", "created_at", "out_of_range_timestamp", "99999-01-01T00:00:00"),
    ("V-08", "created_at", "out_of_range_timestamp", "1899-12-31T23:59:59"),
    ("V-" + ZWSP + "01", "turn_id", "duplicate_turn_id", "V-" + ZWSP + "01"),
    ("V-13", "model_id", "missing_required_value", ""),
}
EXPECTED_JSON_QUARANTINE = {
    ('{"id":"V-21"}', "turn_id", "id_not_string_or_integer", '{"id":"V-21"}'),
    ('["V-22"]', "turn_id", "id_not_string_or_integer", '["V-22"]'),
    ("V-23", "session_id", "id_not_string_or_integer", "true"),
    ("V-24", "model_id", "id_not_string_or_integer", "1.5"),
    ("V-25", "prompt_id", "id_not_string_or_integer", '{"p":1}'),
    (
        "12345678901234567890123",
        "turn_id",
        "id_not_string_or_integer",
        "12345678901234567890123",
    ),
}

PARQUET_TYPES = {
    "canon_entities": pa.list_(pa.string()),
    "forbidden_topics": pa.list_(pa.string()),
    "entity_roles": pa.list_(pa.struct([("role", pa.string()), ("entity", pa.string())])),
    "is_public": pa.bool_(),
}


def parquet_cards(records: list[dict]) -> pa.Table:
    """The cards as Parquet with typed lists and booleans ("yes" is a JSON string: true)."""
    arrays = {}
    for column in COLUMNS["character_card"]:
        values = [record.get(column) for record in records]
        if column == "is_public":
            values = [value in (True, "yes") for value in values]
        arrays[column] = pa.array(values, type=PARQUET_TYPES.get(column, pa.string()))
    return pa.table(arrays)


def write_inputs(folder: Path) -> dict[str, dict[str, Path]]:
    """The three input sets: `given`, `quote_all` (the same data as all-quoted CSV, without
    the rows only JSON can write) and `json_array`."""
    seed = seed_000_records()
    demo = {
        table: read_records(DEMO / name)
        for table, name in (
            ("chat_turn", "chat_turn.jsonl"),
            ("character_card", "character_card.jsonl"),
            ("topic_lexicon", "topic_lexicon.csv"),
            ("golden_labels", "golden_labels.csv"),
            ("llm_summaries", "llm_summaries.jsonl"),
        )
    }
    both = {
        "chat_turn": demo["chat_turn"] + seed["chat_turn"] + TEXT_TURNS + JSON_TURNS,
        "character_card": demo["character_card"] + seed["character_card"] + CARDS,
        "topic_lexicon": demo["topic_lexicon"],
        "golden_labels": demo["golden_labels"],
        "llm_summaries": demo["llm_summaries"],
    }
    sets = {}
    given = folder / "given"
    given.mkdir()
    sets["given"] = {
        table: (
            write_jsonl(records, given / f"{table}.jsonl")
            if table in ("chat_turn", "character_card", "llm_summaries")
            else write_quote_all_csv(records, COLUMNS[table], given / f"{table}.csv")
        )
        for table, records in both.items()
    }
    quoted = folder / "quote_all"
    quoted.mkdir()
    sets["quote_all"] = {
        table: write_quote_all_csv(
            [r for r in records if r not in JSON_ONLY_TURNS],
            COLUMNS[table],
            quoted / f"{table}.csv",
        )
        for table, records in both.items()
    }
    array = folder / "json_array"
    array.mkdir()
    (array / "chat_turn.json").write_text(
        json.dumps(TEXT_TURNS + JSON_TURNS, ensure_ascii=False, indent=1), "utf-8"
    )
    pq.write_table(parquet_cards(CARDS), array / "character_card.parquet")
    sets["json_array"] = {
        "chat_turn": array / "chat_turn.json",
        "character_card": array / "character_card.parquet",
        "topic_lexicon": write_jsonl(TERMS, array / "topic_lexicon.jsonl"),
    }
    return sets


# Only the models the tests read: the build's own tests run in test_input_contract.py.
JUDGED = [
    "build",
    "--select",
    "+fct_turn_verdicts",
    "+fct_turn_checks",
    "+fct_contract_violations",
    "--exclude-resource-type",
    "test",
    "unit_test",
]


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """run_dbt on each input set, two at a time: a build spends a third of its time parsing
    the project on one core."""
    folder = tmp_path_factory.mktemp("input_values")
    sets = write_inputs(folder)
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            name: pool.submit(run_dbt, JUDGED, folder / f"run_{name}", inputs)
            for name, inputs in sets.items()
        }
        return {name: future.result() for name, future in futures.items()}


def quarantine(result) -> set[tuple]:
    return {
        (row["row_key"], row["column_name"], row["reason_code"], row["raw_value"])
        for row in result.rows("select * from marts.fct_contract_violations")
    }


def staged_turns(result) -> dict[str, dict]:
    # _ingested_by names the build that read the row (docs/rules.md#incremental-builds).
    rows = result.rows("select * exclude (_ingested_by) from staging.stg_chat_logs__turns")
    return {row["turn_id"]: row for row in rows}


# --- 1. Empty optional text is null --------------------------------------------------------


def test_quote_all_csv_judges_like_jsonl(builds):
    """Rule v2 (docs/rules.md#null-rules): `""` in an all-quoted CSV is a missing value, not
    an empty text. The demo (with its golden labels and LLM summaries), the seed-000 fixture
    and this file's rows get the same verdicts, summaries, hedges and checks from both files."""
    verdicts = "select * from marts.fct_turn_verdicts order by turn_id"
    given = builds["given"].rows(verdicts)
    quoted = builds["quote_all"].rows(verdicts)
    assert len(given) == 337 + 8 + 8
    assert [row["turn_id"] for row in quoted] == [row["turn_id"] for row in given]
    for expected, actual in zip(given, quoted, strict=True):
        # judged_by names the build that wrote the row (docs/rules.md#incremental-builds).
        expected.pop("judged_by"), actual.pop("judged_by")
        assert actual == expected, expected["turn_id"]
    assert sum(row["summary_source"] == "llm" for row in quoted) == 4
    checks = "select * exclude (judged_by) from marts.fct_turn_checks order by turn_id, check_order"
    assert builds["quote_all"].rows(checks) == builds["given"].rows(checks)


def test_quote_all_missing_first_person_is_skipped_not_compared(builds):
    """A first_person written as `""` is null in staging: the comparison is skipped and said
    so, rule_observed has no dangling separator and no summary quotes an empty 「」 (the
    demo's 7 turns without one, seed-000's T-004631 and V-14)."""
    rows = builds["quote_all"].rows(
        """
        select verdicts.rule_observed, verdicts.skipped_checks, verdicts.hedge,
            verdicts.summary
        from marts.fct_turn_verdicts as verdicts
        inner join staging.stg_chat_logs__turns as turns using (turn_id)
        where turns.first_person is null
        """
    )
    assert len(rows) == 7 + 1 + 1
    for row in rows:
        assert "first_person:first_person_null" in row["skipped_checks"]
        assert not (row["rule_observed"] or "").endswith(" · ")
        assert "「」" not in row["summary"]
        assert "1인칭 비교는 건너뛰었습니다" in row["hedge"]


def test_empty_text_is_null_and_empty_required_text_missing(builds):
    """V-14 leaves every optional value empty (`""`, blanks, a JSON ""): null in every
    format, while its empty reply_text stays ''. V-13's empty model_id is still
    missing_required_value."""
    for name, result in builds.items():
        row = staged_turns(result)["V-14"]
        assert row["reply_text"] == "", name
        for column in ("first_person", "honorific_level", "named_entities", "user_message"):
            assert row[column] is None, (name, column)
        assert row["prompt_id"] is None, name
        assert ("V-13", "model_id", "missing_required_value", "") in quarantine(result), name


# --- 2. Out-of-range timestamps -----------------------------------------------------------


def test_out_of_range_timestamps_are_quarantined(builds):
    """infinity, -infinity and epoch are no time at all; a date BC, year 99999 and 1899
    are outside the accepted 1900-9999. The edges themselves are kept."""
    expected = {row for row in EXPECTED_TEXT_QUARANTINE if row[1] == "created_at"}
    for name, result in builds.items():
        assert {row for row in quarantine(result) if row[1] == "created_at"} == expected, name
        turns = staged_turns(result)
        assert turns["V-09"]["created_at"].isoformat() == "1900-01-01T00:00:00", name
        assert turns["V-10"]["created_at"].isoformat() == "9999-12-31T23:59:59", name
        assert turns["V-01"]["created_at"].isoformat() == "2026-09-15T11:10:00", name


# --- 3. One typing rule for every format --------------------------------------------------


def test_every_format_quarantines_the_same_rows(builds):
    for name, result in builds.items():
        expected = EXPECTED_TEXT_QUARANTINE | (
            set() if name == "quote_all" else EXPECTED_JSON_QUARANTINE
        )
        assert quarantine(result) == expected, name


def test_ids_are_strings_or_integers(builds):
    """An integer id is its digits; an object, list, boolean, fraction or a number too large
    for 64 bits is quarantined as id_not_string_or_integer, in JSON Lines and .json alike."""
    for name in ("given", "json_array"):
        turns = staged_turns(builds[name])
        assert turns["20"]["session_id"] == "S-4", name
        assert not REJECTED_TURN_IDS & set(turns), name


def test_json_string_is_its_value_in_every_format(builds):
    """A .json array of mixed types once staged `"V-01"` (the JSON text) as the turn_id; JSON
    Lines, all-quoted CSV and a .json array stage the same values for this file's rows, and
    the same cards from JSON Lines, CSV and Parquet."""
    ours = {"V-01", "V-09", "V-10", "V-12", "V-14", "V-15", "20", "V-27"}
    staged = {
        name: {key: row for key, row in staged_turns(result).items() if key in ours}
        for name, result in builds.items()
    }
    assert set(staged["json_array"]) == ours
    assert staged["quote_all"] == staged["given"]
    assert staged["json_array"] == staged["given"]
    cards = (
        "select * from staging.stg_chat_logs__character_cards"
        " where character_id in ('CHR-0901', 'CHR-0902') order by character_id"
    )
    for name, result in builds.items():
        assert result.rows(cards) == builds["given"].rows(cards), name
    terms = builds["json_array"].rows(
        "select term_order from staging.stg_chat_logs__topic_terms order by term_order"
    )
    assert terms == [{"term_order": 1}, {"term_order": 2}]


def test_booleans_parse_by_one_rule(builds):
    """ "yes" (a JSON string, a CSV cell) and true (a JSON or Parquet boolean) are both true:
    .json quarantined "yes" while JSON Lines took it."""
    for name, result in builds.items():
        turns = staged_turns(result)
        assert turns["V-01"]["user_asked_recall"] is True, name
        assert turns["V-27"]["user_asked_recall"] is True, name
        assert turns["V-09"]["user_asked_recall"] is False, name
        cards = result.rows(
            "select is_public from staging.stg_chat_logs__character_cards"
            " where character_id in ('CHR-0901', 'CHR-0902')"
        )
        assert [card["is_public"] for card in cards] == [True, True], name


# --- 4. Look-alike keys -------------------------------------------------------------------


def test_format_characters_are_stripped_from_keys(builds):
    """Zero-width and bidi characters make look-alike keys: V-12's keys are the plain ones
    (so it is judged in session S-1, against V-01), V-15 finds the card whose id began with a
    byte-order mark, a zero-width space does not make a second V-01, and the reply keeps its
    zero-width space."""
    for name, result in builds.items():
        turns = staged_turns(result)
        row = turns["V-12"]
        keys = (row["session_id"], row["character_id"], row["model_id"], row["prompt_id"])
        assert keys == ("S-1", "CHR-0901", "model-a", "P-1"), name
        assert row["reply_text"] == "잘 지내." + ZWSP + " 걱정 마.", name
        assert turns["V-15"]["character_id"] == "CHR-0902", name
        assert turns["V-01"]["reply_text"] == "검부터 들어. 하늘이도 오늘 같이 왔어.", name
        (verdict,) = result.rows(
            "select verdict, recall_target, recall_source_turn from marts.fct_turn_verdicts"
            " where turn_id = 'V-12'"
        )
        assert verdict == {
            "verdict": "앞 회차를 기억 못 함",
            "recall_target": "하늘",
            "recall_source_turn": "V-01",
        }, name
