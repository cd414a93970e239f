"""normalize_text's fast path (macros/text/nfc_stable_class.sql): a value that matches it is
returned as it is, so every such value must already be trimmed and in NFC."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import duckdb
import pytest

ROOT = Path(__file__).resolve().parents[2]
MACROS = (ROOT / "macros" / "text" / "nfc_stable_class.sql").read_text(encoding="utf-8")
# whitespace_class(): \s, \p{Z}, U+000B, U+001C–U+001F and U+0085 (Python's str.split() set).
WHITESPACE = {
    cp
    for cp in range(0x110000)
    if chr(cp).isspace() or unicodedata.category(chr(cp)) in ("Zs", "Zl", "Zp")
}


def _class_body(macro: str) -> str:
    match = re.search(r"macro " + macro + r"\(\) -%\}\s*(\S+)\s*\{%- endmacro", MACROS)
    assert match, f"{macro} not found"
    return match.group(1)


def _code_points(body: str) -> set[int]:
    points: set[int] = set()
    for low, high in re.findall(r"\\x\{([0-9A-F]+)\}(?:-\\x\{([0-9A-F]+)\})?", body):
        points.update(range(int(low, 16), int(high or low, 16) + 1))
    return points


STABLE = _code_points(_class_body("nfc_stable_class"))
EDGE = _code_points(_class_body("nfc_stable_edge_class"))
PATTERN = "[{edge}](?:[{stable}]*[{edge}])?".format(
    edge=_class_body("nfc_stable_edge_class"), stable=_class_body("nfc_stable_class")
)


def _composition_seconds() -> set[int]:
    seconds = set()
    for cp in range(0x110000):
        decomposition = unicodedata.decomposition(chr(cp))
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                seconds.add(int(parts[1], 16))
    return seconds


def test_classes_cover_korean_text():
    assert {ord("가"), ord("힣"), ord("ㅋ"), ord("…"), ord("？"), ord("😊")} <= STABLE
    assert EDGE <= STABLE


def test_every_stable_character_is_left_alone_by_nfc_in_any_company():
    seconds = _composition_seconds()
    for cp in STABLE:
        char = chr(cp)
        assert unicodedata.category(char) not in ("Cn", "Cs"), hex(cp)
        assert unicodedata.combining(char) == 0, hex(cp)
        assert unicodedata.normalize("NFC", char) == char, hex(cp)
        assert cp not in seconds, hex(cp)


def test_edge_characters_are_never_whitespace():
    assert not EDGE & WHITESPACE


def test_duckdb_nfc_agrees_on_every_stable_character():
    changed = (
        duckdb.connect()
        .execute(
            "select count(*) from unnest(?) as t(c) where nfc_normalize(c) <> c",
            [[chr(cp) for cp in sorted(STABLE)]],
        )
        .fetchone()[0]
    )
    assert changed == 0


TRICKY = [
    "하늘이는 잘 있어.",
    "\u1112\u1161\u1102\u1173\u11af",  # 하늘 as conjoining jamo
    "가\u11a8",  # a syllable followed by a trailing consonant jamo composes to 각
    "Cafe\u0301",
    "\u212b",  # ANGSTROM SIGN, NFC is U+00C5
    " 앞뒤 공백 ",
    "\u3000이름\u00a0",
    "\u2000x",
    "탭\t",
    "",
    "NASA",
    "우리 준호가 준비했어요 😊",
]


@pytest.mark.parametrize("text", TRICKY)
def test_fast_path_only_keeps_text_that_is_already_normal(text):
    kept = duckdb.connect().execute("select regexp_full_match(?, ?)", [text, PATTERN]).fetchone()[0]
    normal = unicodedata.normalize("NFC", text.strip("".join(map(chr, WHITESPACE))))
    if kept:
        assert text == normal
    elif text in ("하늘이는 잘 있어.", "NASA", "우리 준호가 준비했어요 😊"):
        pytest.fail(f"{text!r} is normal text and should take the fast path")


def test_fast_path_keeps_the_demo_replies_that_are_normal():
    lines = (ROOT / "data" / "demo" / "chat_turn.jsonl").read_text(encoding="utf-8").splitlines()
    replies = [json.loads(line).get("reply_text") for line in lines if line.strip()]
    replies = [reply for reply in replies if isinstance(reply, str) and reply]
    kept = (
        duckdb.connect()
        .execute(
            "select list(r) from unnest(?) as t(r) where regexp_full_match(r, ?)",
            [replies, PATTERN],
        )
        .fetchone()[0]
    )
    assert len(kept) > 0.9 * len(replies)
    whitespace = "".join(map(chr, WHITESPACE))
    assert all(unicodedata.normalize("NFC", r.strip(whitespace)) == r for r in kept)
