"""Issue 16: the input file readers. Bad bytes, lines and rows in a file are quarantined one by
one with their physical line number and the rest is judged; a file that cannot be read at
all, or holds no rows, stops the build with the var, the file and a hint.

One `dbt build` without tests reads every hostile file at once: the turns are a glob over
eight JSON Lines files (one problem each), the cards a CSV with a ragged row, a stray quote, a
multi-line value and mixed line ends, the lexicon a Parquet file whose strings are BINARY, the
golden labels a header-only CSV. Two more runs stop on purpose (a CP949 file, an empty
chat_turn file).
"""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import BUILD_WITHOUT_TESTS, fixture_inputs, run_dbt

from python_udfs import input_files

CARD_HEADER = (
    "character_id,name,persona,honorific_rule,first_person,canon_entities,forbidden_topics,"
    "entity_roles,is_public"
)


def turn(turn_id: str, reply: str, minute: int, character: str = "CHR-0001") -> bytes:
    record = {
        "turn_id": turn_id,
        "session_id": f"S-{turn_id}",
        "character_id": character,
        "model_id": "claude-sonnet",
        "created_at": f"2026-10-05T12:{minute:02d}:00",
        "user_message": "오늘 뭐 했어?",
        "reply_text": reply,
        "first_person": "나",
        "named_entities": [],
        "user_asked_recall": False,
    }
    return json.dumps(record, ensure_ascii=False).encode("utf-8")


GOOD = "나는 검을 닦았어."


def write_hostile_turns(folder) -> None:
    """Eight JSON Lines files, one problem each."""
    long_reply = "가" * 800_000  # 2.4 MB of UTF-8: over the 2 MiB line limit
    invalid = turn("T-U2", "안녕, 나는 리안이야.", 11).replace("안녕".encode(), b"\xec\x95\xff")
    files = {
        # A raw control character (U+0001, the line reader's own delimiter) inside a string.
        "1_control.jsonl": b"\n".join(
            [
                turn("T-C1", GOOD, 1),
                turn("T-C2", "제어\x01문자", 2).replace(b"\\u0001", b"\x01"),
                turn("T-C3", GOOD, 3),
            ]
        )
        + b"\n",
        "2_utf8.jsonl": b"\n".join([turn("T-U1", GOOD, 10), invalid, turn("T-U3", GOOD, 12)])
        + b"\n",
        "3_long.jsonl": b"\n".join(
            [turn("T-L1", GOOD, 20), turn("T-L2", long_reply, 21), turn("T-L3", GOOD, 22)]
        )
        + b"\n",
        # A raw CR inside a string is not JSON; between two tokens it is whitespace.
        "4_cr.jsonl": b"\n".join(
            [
                turn("T-R1", "첫 줄\r둘째 줄", 30).replace(b"\\r", b"\r"),
                turn("T-R2", GOOD, 31).replace(b', "reply_text"', b',\r"reply_text"'),
                turn("T-R3", GOOD, 32),
            ]
        )
        + b"\n",
        "5_mixed.jsonl": turn("T-M1", GOOD, 40)
        + b"\r\n"
        + turn("T-M2", GOOD, 41)
        + b"\n"
        + turn("T-M3", GOOD, 42)
        + b"\r\n"
        + turn("T-M4", GOOD, 43, "CHR-0005")
        + b"\n"
        + '{"turn_id": "T-M5", 깨진 줄'.encode()
        + b"\r\n",
        "6_crlf.jsonl": turn("T-W1", GOOD, 50) + b"\r\n\r\n" + turn("T-W2", GOOD, 51) + b"\r\n",
        "7_empty.jsonl": b"",
        "8_plain.jsonl": turn("T-P1", "오늘은 교회에 갔어.", 0)
        + '\n{"turn_id": "T-P2", 잘못된 줄\n'.encode()
        + turn("T-P3", GOOD, 2)
        + b"\n",
    }
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return files


def write_hostile_cards(path) -> None:
    lines = [
        CARD_HEADER,
        "CHR-0003,하늘,반말,나",  # ragged: 4 fields for 9 columns, right after the header
        'CHR-0001,리안,무뚝뚝한 반말 교관,반말,나,"[""리안"",""아카데미""]","[""종교""]",,true',
        'CHR-0002,세아,"다정한 존댓말 안내자\n둘째 줄 설명",존댓말,저,"[""세아""]",[],,false',
        'CHR-0004,"도윤,반말,나,[],[],,true',  # one stray quote
        'CHR-0005,하나,"밝은 반말 친구",반말,나,"[""하나""]",[],,false',
        'CHR-0006,유리,조용한 반말 사서,반말,나,"[""유리""]",[],,false',
    ]
    # Mixed line ends: CRLF after the stray quote's line, LF elsewhere.
    text = "\n".join(lines[:5]) + "\r\n" + "\n".join(lines[5:]) + "\n"
    path.write_bytes(text.encode("utf-8"))


def write_binary_lexicon(path) -> None:
    """A Parquet lexicon whose strings are BINARY without the UTF-8 tag; one is not UTF-8."""
    terms = ["교회".encode(), b"\xea\xb2", "성당".encode()]
    topics = ["종교".encode()] * 3
    pq.write_table(
        pa.table(
            {
                "term": pa.array(terms, pa.binary()),
                "topic": pa.array(topics, pa.binary()),
                "term_order": pa.array([1, 2, 3], pa.int64()),
            }
        ),
        path,
    )


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    write_hostile_turns(folder / "turns")
    write_hostile_cards(folder / "character_card.csv")
    write_binary_lexicon(folder / "topic_lexicon.parquet")
    (folder / "golden_labels.csv").write_text("turn_id,expected_verdict,note\n", "utf-8")
    return run_dbt(
        BUILD_WITHOUT_TESTS,
        folder / "run",
        {
            "chat_turn": folder / "turns" / "*.jsonl",
            "character_card": folder / "character_card.csv",
            "topic_lexicon": folder / "topic_lexicon.parquet",
            "golden_labels": folder / "golden_labels.csv",
        },
    )


def quarantined(result, table):
    return {
        (row["source_file"].rsplit("/", 1)[-1], row["source_row"], row["reason_code"])
        for row in result.rows(
            f"select * from marts.fct_contract_violations where table_name = '{table}'"
        )
    }


def judged(result) -> set[str]:
    return {row["turn_id"] for row in result.rows("select turn_id from marts.fct_turn_verdicts")}


def test_json_lines_bad_lines_are_quarantined_by_line_number(hostile):
    assert quarantined(hostile, "chat_turn") == {
        ("1_control.jsonl", 2, "malformed_json_line"),
        ("2_utf8.jsonl", 2, "invalid_utf8"),
        ("3_long.jsonl", 2, "line_too_long"),
        ("4_cr.jsonl", 1, "malformed_json_line"),
        ("5_mixed.jsonl", 5, "malformed_json_line"),
        ("8_plain.jsonl", 2, "malformed_json_line"),
    }


def test_json_lines_good_lines_of_hostile_files_are_judged(hostile):
    assert judged(hostile) == {
        *("T-C1", "T-C3", "T-U1", "T-U3", "T-L1", "T-L3", "T-R2", "T-R3"),
        *("T-M1", "T-M2", "T-M3", "T-M4", "T-W1", "T-W2", "T-P1", "T-P3"),
    }


def test_json_lines_crlf_and_mixed_line_ends_are_plain_line_ends(hostile):
    rows = hostile.rows(
        "select regexp_extract(_source_file, '[^/]+$') as file, _source_row, turn_id"
        " from raw.chat_turn where _source_file similar to '.*(5_mixed|6_crlf).*'"
        " order by file, _source_row"
    )
    assert [(r["file"], r["_source_row"], r["turn_id"]) for r in rows] == [
        ("5_mixed.jsonl", 1, "T-M1"),
        ("5_mixed.jsonl", 2, "T-M2"),
        ("5_mixed.jsonl", 3, "T-M3"),
        ("5_mixed.jsonl", 4, "T-M4"),
        ("5_mixed.jsonl", 5, None),
        ("6_crlf.jsonl", 1, "T-W1"),
        ("6_crlf.jsonl", 3, "T-W2"),
    ]
    # The CR of a CRLF is a line end, not part of the line.
    (bad,) = hostile.rows(
        "select raw_value from marts.fct_contract_violations where source_file like '%5_mixed%'"
    )
    assert bad["raw_value"] == '{"turn_id": "T-M5", 깨진 줄'
    (reply,) = hostile.rows("select reply_text from raw.chat_turn where turn_id = 'T-M1'")
    assert reply["reply_text"] == GOOD


def test_json_lines_quarantine_quotes_the_bad_line(hostile):
    rows = {
        row["reason_code"]: row["raw_value"]
        for row in hostile.rows(
            "select * from marts.fct_contract_violations where table_name = 'chat_turn'"
            " and (source_file like '%2_utf8.jsonl' or source_file like '%3_long.jsonl')"
        )
    }
    assert '"reply_text": "\\xec\\x95\\xff, 나는 리안이야."' in rows["invalid_utf8"]
    assert rows["line_too_long"].startswith('{"turn_id": "T-L2"')
    assert len(rows["line_too_long"]) < 1000


def test_empty_file_in_a_glob_warns_naming_var_and_file(hostile):
    assert "input_chat_turn: " in hostile.output
    assert "7_empty.jsonl holds no rows" in hostile.output
    assert "input_golden_labels: " in hostile.output
    assert "golden_labels.csv holds no rows" in hostile.output


def test_csv_ragged_row_and_stray_quote_cost_one_row_each(hostile):
    assert quarantined(hostile, "character_card") == {
        ("character_card.csv", 2, "ragged_csv_row"),
        ("character_card.csv", 6, "unbalanced_csv_quote"),
    }
    cards = hostile.rows(
        "select character_id, name, _source_row from staging.base_chat_logs__character_cards"
        " where len(_violations) = 0 order by character_id"
    )
    # Read with the file's own header (line 1), never a data row taken for one; the rows
    # after the stray quote are read again as rows, and their CRLF is a line end.
    assert [(c["character_id"], c["name"], c["_source_row"]) for c in cards] == [
        ("CHR-0001", "리안", 3),
        ("CHR-0002", "세아", 4),
        ("CHR-0005", "하나", 7),
        ("CHR-0006", "유리", 8),
    ]
    assert "T-M4" in judged(hostile)  # its card, CHR-0005, follows the stray quote


def test_csv_source_row_is_the_physical_line_a_row_starts_on(hostile):
    (card,) = hostile.rows(
        "select persona, _source_row from raw.character_card where character_id = 'CHR-0006'"
    )
    # CHR-0002's persona spans lines 4-5: CHR-0006 is on physical line 8 (record 7).
    assert card["_source_row"] == 8


def test_parquet_binary_strings_are_decoded_as_utf8(hostile):
    terms = hostile.rows("select term, topic from staging.stg_chat_logs__topic_terms")
    assert {(t["term"], t["topic"]) for t in terms} == {("교회", "종교"), ("성당", "종교")}
    assert quarantined(hostile, "topic_lexicon") == {("topic_lexicon.parquet", 2, "invalid_utf8")}
    (verdict,) = hostile.rows(
        "select verdict, touched_term from marts.fct_turn_verdicts where turn_id = 'T-P1'"
    )
    assert (verdict["verdict"], verdict["touched_term"]) == ("금지 소재 접촉", "교회")


@pytest.fixture(scope="module")
def stopped_by_cp949(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cp949")
    cards = folder / "character_card.csv"
    text = CARD_HEADER + '\nCHR-0001,리안,무뚝뚝한 교관,반말,나,"[""리안""]","[]",,true\n'
    cards.write_bytes(text.encode("cp949"))
    inputs = fixture_inputs("seed_000") | {"character_card": cards}
    return run_dbt(
        ["run", "--select", "base_chat_logs__character_cards"], folder, inputs, check=False
    )


def test_csv_in_cp949_stops_naming_var_file_line_and_hint(stopped_by_cp949):
    output = stopped_by_cp949.output
    assert stopped_by_cp949.returncode != 0
    assert "input_character_card: " in output and "character_card.csv" in output
    assert "line 2 is the first that is not valid UTF-8" in output
    assert "CP949" in output and "save it as UTF-8" in output
    assert "Possible fixes" not in output and "sniff" not in output.lower()


def test_failed_input_says_to_run_dbt_build_again(stopped_by_cp949):
    assert "then run `dbt build` again" in stopped_by_cp949.output


def test_empty_required_input_stops_the_build(tmp_path):
    turns = tmp_path / "chat_turn.jsonl"
    turns.write_bytes(b"\n\n")
    inputs = fixture_inputs("seed_000") | {"chat_turn": turns}
    result = run_dbt(["run", "--select", "base_chat_logs__turns"], tmp_path, inputs, check=False)
    assert result.returncode != 0
    assert "input_chat_turn: " in result.output
    assert "chat_turn.jsonl: it holds no rows" in result.output


def test_careful_csv_record_parser_matches_duckdb_reading():
    parse = input_files.parse_csv_record
    assert parse('a,"",,"x ""y""",b"c') == ["a", "", None, 'x "y"', 'b"c']
    assert parse('a,"open') == input_files.INCOMPLETE
    assert parse('a,"x""') == input_files.INCOMPLETE
    assert parse('a,"x"y') == input_files.MALFORMED


def test_careful_reader_stops_on_utf16_and_names_latin1_lines(tmp_path):
    utf16 = tmp_path / "cards.csv"
    utf16.write_bytes((CARD_HEADER + "\n").encode("utf-16"))
    assert "UTF-16" in input_files.read_carefully(str(utf16), "csv", [])["problem"]
    latin1 = tmp_path / "turns.jsonl"
    latin1.write_bytes('{"reply_text": "café"}\n'.encode("latin-1"))
    problem = input_files.read_carefully(str(latin1), "jsonl", [])["problem"]
    assert "line 1 is the first that is not valid UTF-8" in problem
