"""Tests for the benchmark inputs: bench/generate.py (synthetic data) and bench/baseline.py
(the per-row Python implementation of the rules that the dbt models are measured against).

The hand-checked cases below pin the rules (docs/rules.md) on real Korean sentences; the seed
000 rows (T-004468 ... T-004631, with T-004450 as the earlier turn) must come out exactly as
the seed prints them.
"""

from __future__ import annotations

import collections
import csv
import datetime as dt
import hashlib
import json
import os
import sys
import unicodedata

import duckdb
import pyarrow as pa
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))

import baseline  # noqa: E402
import generate  # noqa: E402

from python_udfs.contract import INPUT_COLUMNS  # noqa: E402

ENDINGS = os.path.join(ROOT, "seeds", "honorific_endings.csv")
FORMATS = ["jsonl", "csv", "parquet"]
TABLES = ["chat_turn", "character_card", "topic_lexicon"]

OK, TONE, OFF, FORB, RECALL = (
    "설정대로 말함",
    "말투 어긋남",
    "세계관 밖 고유명사",
    "금지 소재 접촉",
    "앞 회차를 기억 못 함",
)


# --------------------------------------------------------------------------- helpers
def _gen(out, fmt, turns=600, terms=200, characters=12, seed=11):
    generate.main(
        [
            "--turns",
            str(turns),
            "--terms",
            str(terms),
            "--characters",
            str(characters),
            "--seed",
            str(seed),
            "--format",
            fmt,
            "--out",
            str(out),
        ]
    )
    return {t: os.path.join(str(out), f"{t}.{fmt}") for t in TABLES}


def _digest(paths):
    return {t: hashlib.sha256(open(p, "rb").read()).hexdigest() for t, p in paths.items()}


# Contract column order and types per table, from the shared contract and the baseline's types.
TYPES = {
    table: {column: baseline.JSON_TYPES[column] for column in columns}
    for table, columns in INPUT_COLUMNS.items()
}
JSON_SHAPE = {
    "VARCHAR[]": '["VARCHAR"]',
    "STRUCT(role VARCHAR, entity VARCHAR)[]": '[{"role":"VARCHAR","entity":"VARCHAR"}]',
}


def _read_back(path, table):
    """Rows of a generated file, typed as the input contract says, read with DuckDB."""
    types = TYPES[table]
    con = duckdb.connect()
    p = path.replace("'", "''")
    if path.endswith(".parquet"):
        src = f"read_parquet('{p}')"
        sel = [f'"{c}"' for c in types]
    elif path.endswith(".jsonl"):
        cols = "{" + ", ".join(f"'{c}': '{t}'" for c, t in types.items()) + "}"
        src = f"read_json('{p}', format='newline_delimited', columns={cols})"
        sel = [f'"{c}"' for c in types]
    else:
        src = f"read_csv('{p}', header=true, all_varchar=true, allow_quoted_nulls=false)"
        sel = [
            f'from_json("{c}", \'{JSON_SHAPE[t]}\') AS "{c}"'
            if t in JSON_SHAPE
            else f'CAST("{c}" AS {t}) AS "{c}"'
            for c, t in types.items()
        ]
    names = [d[0] for d in con.execute(f"DESCRIBE SELECT * FROM {src}").fetchall()]
    rows = con.execute(f"SELECT {', '.join(sel)} FROM {src}").fetchall()
    con.close()
    return names, rows


# --------------------------------------------------------------------------- generator
@pytest.mark.parametrize("fmt", FORMATS)
def test_generator_is_deterministic(tmp_path, fmt):
    a = _digest(_gen(tmp_path / "a", fmt))
    b = _digest(_gen(tmp_path / "b", fmt))
    c = _digest(_gen(tmp_path / "c", fmt, seed=12))
    assert a == b
    assert a["chat_turn"] != c["chat_turn"]


def test_three_formats_hold_the_same_rows(tmp_path):
    paths = {fmt: _gen(tmp_path / fmt, fmt, turns=800) for fmt in FORMATS}
    for table in TABLES:
        got = {fmt: _read_back(paths[fmt][table], table) for fmt in FORMATS}
        for fmt in FORMATS:
            assert got[fmt][0] == list(TYPES[table]), (fmt, table)  # contract names and order
        assert got["jsonl"][1] == got["parquet"][1], table
        assert got["csv"][1] == got["parquet"][1], table
    # the baseline judges every format the same way
    res = {
        fmt: baseline.run(
            paths[fmt]["chat_turn"],
            paths[fmt]["character_card"],
            paths[fmt]["topic_lexicon"],
            ENDINGS,
        )
        for fmt in FORMATS
    }
    assert res["jsonl"] == res["parquet"] == res["csv"]


def test_generated_files_follow_the_contract(tmp_path):
    paths = {
        fmt: _gen(tmp_path / fmt, fmt, turns=3000, terms=300, characters=20, seed=5)
        for fmt in FORMATS
    }
    import pyarrow.parquet as pq

    schema = pq.read_schema(paths["parquet"]["chat_turn"])
    assert schema.field("named_entities").type == pa.list_(pa.string())
    assert pa.types.is_timestamp(schema.field("created_at").type)
    assert schema.field("user_asked_recall").type == pa.bool_()
    card_schema = pq.read_schema(paths["parquet"]["character_card"])
    assert card_schema.field("entity_roles").type == generate.pa.list_(generate.ROLE_TYPE)
    # JSON Lines: lists as arrays, entity_roles as objects, nulls as null
    lines = [json.loads(x) for x in open(paths["jsonl"]["chat_turn"], encoding="utf-8")]
    assert list(lines[0]) == list(TYPES["chat_turn"])
    assert any(x["named_entities"] is None for x in lines)
    assert any(x["named_entities"] == [] for x in lines)
    assert any(x["first_person"] is None for x in lines)
    assert any(x["reply_text"] == "" for x in lines)
    card = json.loads(open(paths["jsonl"]["character_card"], encoding="utf-8").readline())
    assert card["entity_roles"][0] == {"role": "동생", "entity": "하늘"}  # CHR-0001 as in seed 000
    # CSV: an empty reply is a quoted "", a null is an empty cell, lists are JSON text
    with open(paths["csv"]["chat_turn"], encoding="utf-8", newline="") as f:
        raw = f.read()
    assert ',"",' in raw
    rows = list(csv.DictReader(raw.splitlines()))
    assert any(r["named_entities"] == "" for r in rows)
    assert all(
        r["named_entities"] == "" or isinstance(json.loads(r["named_entities"]), list) for r in rows
    )
    # shape: sessions, time order, shared prompts, term order
    n = len(lines)
    assert n == 3000 and len({x["turn_id"] for x in lines}) == n
    by_session = collections.defaultdict(list)
    for x in lines:
        by_session[x["session_id"]].append(x)
    for s in by_session.values():
        assert len({x["character_id"] for x in s}) == 1 and len({x["model_id"] for x in s}) == 1
        assert [x["created_at"] for x in s] == sorted(x["created_at"] for x in s)
    full = [len(s) for s in by_session.values()]
    assert 10 <= collections.Counter(full).most_common(1)[0][0] <= 30
    prompts = collections.defaultdict(set)
    for x in lines:
        if x["prompt_id"] is not None:
            prompts[x["prompt_id"]].add(x["model_id"])
    assert sum(1 for m in prompts.values() if m == set(generate.MODELS)) > 0.5 * len(prompts)
    lex = [json.loads(x) for x in open(paths["jsonl"]["topic_lexicon"], encoding="utf-8")]
    assert [x["term_order"] for x in lex] == list(range(1, 301))
    terms = collections.Counter(x["term"] for x in lex)
    assert any(c > 1 for c in terms.values())  # some terms in two topics
    assert 8 <= len({x["topic"] for x in lex}) <= 14
    # verdict mix roughly like a real log
    res = baseline.run(
        paths["jsonl"]["chat_turn"],
        paths["jsonl"]["character_card"],
        paths["jsonl"]["topic_lexicon"],
        ENDINGS,
    )
    mix = collections.Counter(r["verdict"] for r in res)
    assert set(mix) == {OK, TONE, OFF, FORB, RECALL}
    assert 0.55 <= mix[OK] / n <= 0.75
    term_rate = sum(r["touched_term"] is not None for r in res) / n
    assert 0.05 <= term_rate <= 0.15
    assert any(r["tone"] is None for r in res)


# --------------------------------------------------------------------------- hand-checked inputs
def _ts(s):
    return dt.datetime.fromisoformat(s)


def _card(cid, name, persona, rule, fp, canon, forbidden, roles, public=False):
    return {
        "character_id": cid,
        "name": name,
        "persona": persona,
        "honorific_rule": rule,
        "first_person": fp,
        "canon_entities": canon,
        "forbidden_topics": forbidden,
        "entity_roles": [{"role": r, "entity": e} for r, e in roles],
        "is_public": public,
    }


CARDS = [
    _card(
        "CHR-0001",
        "강무진",
        "무뚝뚝한 반말 교관",
        "반말",
        "나",
        ["검술원", "하늘"],
        ["현실 정치"],
        [("동생", "하늘")],
        True,
    ),
    _card(
        "CHR-0002",
        "윤서아",
        "다정한 존댓말 바리스타",
        "존댓말",
        "저",
        ["별빛 카페"],
        ["현실 정치"],
        [("단골 가게", "별빛 카페")],
    ),
    # canon written in NFD and with stray spaces: staging normalises it
    _card(
        "CHR-0003",
        "한이설",
        "능글맞은 반말 도적",
        "반말",
        "나",
        [unicodedata.normalize("NFD", "하늘"), " 리안 ", "서림 마을"],
        ["금융 투자"],
        [("동생", "하늘"), ("사촌동생", "리안")],
    ),
    _card(
        "CHR-0004",
        "서도현",
        "차분한 존댓말 연구원",
        "존댓말",
        "저",
        ["연구소"],
        ["의료 조언"],
        [("동료", "서윤")],
    ),
]

LEXICON = [
    ("날씨", "일상"),
    ("선거", "현실 정치"),
    ("주식", "금융 투자"),
    ("코인", "도박"),
    ("코인", "금융 투자"),
    ("처방전", "의료 조언"),
]


def _turn(
    tid,
    sid,
    cid,
    model,
    at,
    reply,
    fp="나",
    named=(),
    user=None,
    recall=False,
    hl=None,
    prompt=None,
):
    return {
        "turn_id": tid,
        "session_id": sid,
        "character_id": cid,
        "model_id": model,
        "created_at": _ts(at),
        "prompt_id": prompt,
        "user_message": user,
        "reply_text": reply,
        "first_person": fp,
        "named_entities": None if named is None else list(named),
        "honorific_level": hl,
        "user_asked_recall": recall,
    }


TURNS = [
    # ---- seed 000, session S-00912 (T-004450 is the earlier turn that names 하늘)
    _turn(
        "T-004450",
        "S-00912",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-01 09:50:00",
        "하늘이는 아직 검술원에 남아 있어. 걱정 말고 자라.",
        named=["하늘", "검술원"],
        user="동생은 어디 있어?",
    ),
    _turn(
        "T-004468",
        "S-00912",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-01 10:00:00",
        "검을 잡아. 오늘은 손목부터 본다.",
        named=[],
        hl="반말",
    ),
    _turn(
        "T-004471",
        "S-00912",
        "CHR-0001",
        "gpt-4o-mini",
        "2025-05-01 10:02:00",
        "저는 그렇게 생각해요. 오늘은 조금 더 쉬시는 게 좋겠어요.",
        fp="저",
        named=[],
    ),
    _turn(
        "T-004519",
        "S-00912",
        "CHR-0001",
        "gpt-4o-mini",
        "2025-05-01 10:20:00",
        "아카데미 학장 리안이 부르셔. 서둘러.",
        named=["리안", "아카데미"],
    ),
    _turn(
        "T-004530",
        "S-00912",
        "CHR-0001",
        "whif-solar-ft",
        "2025-05-01 10:25:00",
        "요즘 바깥 선거 얘기로 시끄럽더군. 다들 편을 갈라 싸운다.",
        named=[],
    ),
    _turn(
        "T-004602",
        "S-00912",
        "CHR-0001",
        "whif-solar-ft",
        "2025-05-01 11:00:00",
        "동생? 글쎄, 그런 얘길 들은 적 있던가.",
        named=[],
        user="내 동생 이름 기억나?",
        recall=True,
    ),
    _turn(
        "T-004611",
        "S-00913",
        "CHR-0002",
        "gpt-4o-mini",
        "2025-05-01 11:05:00",
        "야, 그냥 오면 되잖아. 뭘 그렇게 따져.",
        named=[],
    ),
    _turn(
        "T-004631",
        "S-00915",
        "CHR-0004",
        "claude-sonnet",
        "2025-05-01 11:10:00",
        "오늘 실험은 여기까지 하죠. 정리는 제가 합니다.",
        fp="저",
        named=None,
    ),
    # ---- tone edge cases (docs/rules.md#tone)
    _turn(
        "E-tilde-1",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:00:00",
        "알겠어요~",
        fp="저",
    ),
    _turn(
        "E-tilde-2",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:01:00",
        "좋아요~ 또 와",
        fp="저",
    ),
    _turn(
        "E-emoji-1",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:02:00",
        "오늘도 수고했어요 😊",
        fp="저",
    ),
    _turn(
        "E-emoji-2",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:03:00",
        "고마워요😊👍",
        fp="저",
    ),
    _turn(
        "E-quote",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:04:00",
        '"알겠습니다." 그가 말했다.',
        fp="저",
    ),
    _turn(
        "E-quote-2",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:00:00",
        '그가 "조심해"라고 했어.',
    ),
    _turn(
        "E-ellipsis",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:01:00",
        "글쎄요… 잘 모르겠어",
    ),
    _turn(
        "E-fullwidth",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:02:00",
        "정말 괜찮아？그럼 다행이고！",
    ),
    _turn(
        "E-fullwidth-2",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:05:00",
        "괜찮아？식사는 하셨어요．",
        fp="저",
    ),
    _turn(
        "E-english",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:03:00",
        "Okay, see you tomorrow.",
    ),
    _turn("E-empty", "S-E2", "CHR-0001", "claude-sonnet", "2025-05-02 10:04:00", "", fp=None),
    _turn(
        "E-yo-start",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:05:00",
        "요즘 잘 지내. 요리는 내가 할게.",
    ),
    _turn(
        "E-ani-da",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:06:00",
        "그건 내 뜻이 아니다.",
    ),
    _turn(
        "E-seumnikka",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:06:00",
        "정말 그렇습니까? 무엇을 원합니까?",
        fp="저",
    ),
    _turn(
        "E-pilyo",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:07:00",
        "조금 더 연습이 필요.",
    ),
    _turn(
        "E-paren",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:07:00",
        "보류입니다(하드게이트).",
        fp="저",
    ),
    _turn(
        "E-jamo",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:08:00",
        "알았어ㅋㅋ",
        hl="존댓말",
    ),
    _turn(
        "E-fp-null",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:09:00",
        "검을 다시 잡아.",
        fp=None,
    ),
    _turn(
        "E-fp-only",
        "S-E2",
        "CHR-0001",
        "claude-sonnet",
        "2025-05-02 10:10:00",
        "검을 다시 잡아.",
        fp="저",
    ),
    # ---- names: distinct, in named_entities order, NFC + trim against the card
    _turn(
        "E-names",
        "S-E3",
        "CHR-0003",
        "gpt-4o-mini",
        "2025-05-03 10:00:00",
        "리안이랑 하늘이 아카데미에 갔어.",
        named=[
            "리안",
            "하늘",
            unicodedata.normalize("NFD", "아카데미"),
            " 리안",
            "아카데미",
            "검술원",
        ],
    ),
    # ---- lexicon: a forbidden term after a harmless earlier term; one term in two topics
    _turn(
        "E-lex-1",
        "S-E3",
        "CHR-0003",
        "gpt-4o-mini",
        "2025-05-03 10:01:00",
        "오늘 날씨가 좋으니 주식 얘기는 그만하자.",
    ),
    _turn(
        "E-lex-2", "S-E3", "CHR-0003", "gpt-4o-mini", "2025-05-03 10:02:00", "코인 얘기는 그만하자."
    ),
    _turn("E-lex-3", "S-E3", "CHR-0003", "gpt-4o-mini", "2025-05-03 10:03:00", "날씨 참 좋다."),
    _turn(
        "E-lex-4",
        "S-E1",
        "CHR-0002",
        "claude-sonnet",
        "2025-05-02 10:08:00",
        "코인은 잘 모르겠어요.",
        fp="저",
    ),
    # ---- recall: created_at ties broken by turn_id (file order shuffled on purpose)
    _turn(
        "R-0205",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:00",
        "리안이 왔어.",
        named=["리안"],
    ),
    _turn(
        "R-0204",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:00",
        "글쎄, 누구였더라.",
        user="내 동생 이름 기억나?",
        recall=True,
    ),
    _turn(
        "R-0201",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:01",
        "하늘이 불렀어.",
        named=["하늘"],
    ),
    _turn(
        "R-0203",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:00",
        "하늘이 웃었어.",
        named=["하늘"],
    ),
    _turn(
        "R-0202",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:00",
        "하늘이 잠들었어.",
        named=["하늘"],
    ),
    _turn(
        "R-0206",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:02",
        "글쎄, 모르겠는데.",
        user="사촌동생 기억해?",
        recall=True,
    ),  # 동생 comes first in card order -> 하늘
    _turn(
        "R-0207",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:03",
        "하늘이는 잘 있어.",
        user="내 동생 기억해?",
        recall=True,
    ),  # the reply names 하늘: remembered
    _turn(
        "R-0208",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:04",
        "글쎄, 모르겠는데.",
        user="그때 그 사람 기억해?",
        recall=True,
    ),  # no role in the message
    _turn(
        "R-0209",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:05",
        "글쎄, 모르겠는데.",
        user=None,
        recall=True,
    ),  # user_message null
    _turn(
        "R-0210",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:06",
        "글쎄, 모르겠는데.",
        user="내 동생 기억해?",
        recall=None,
    ),  # user_asked_recall null = false
    _turn(
        "R-0211",
        "S-R1",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 12:00:07",
        "글쎄, 모르겠는데.",
        user="사촌동생 리안 기억해?",
        recall=True,
    ),
    # entity only in a later turn of the session
    _turn(
        "R-0301",
        "S-R2",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 13:00:00",
        "글쎄, 모르겠는데.",
        user="내 동생 기억해?",
        recall=True,
    ),
    _turn(
        "R-0302",
        "S-R2",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 13:05:00",
        "하늘이 왔네.",
        named=["하늘"],
    ),
    # entity only in another session (earlier in time, same character)
    _turn(
        "R-0401",
        "S-R4",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 14:00:00",
        "하늘이 왔네.",
        named=["하늘"],
    ),
    _turn(
        "R-0402",
        "S-R3",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 15:00:00",
        "글쎄, 모르겠는데.",
        user="내 동생 기억해?",
        recall=True,
    ),
    # earlier turn with named_entities null does not count; a later non-null one does
    _turn(
        "R-0501",
        "S-R5",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 16:00:00",
        "하늘이 왔네.",
        named=None,
    ),
    _turn(
        "R-0502",
        "S-R5",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 16:01:00",
        "하늘이 또 왔네.",
        named=["하늘"],
    ),
    _turn(
        "R-0503",
        "S-R5",
        "CHR-0003",
        "claude-sonnet",
        "2025-05-04 16:02:00",
        "글쎄, 모르겠는데.",
        user="내 동생 기억해?",
        recall=True,
        named=None,
    ),
]

FIELDS = baseline.RESULT_FIELDS
SEED_ROWS = {  # verbatim from seed 000 (the fields the baseline computes)
    "T-004468": dict(
        verdict=OK,
        rule_expected="반말 · 나",
        rule_observed="반말 · 나",
        off_canon_entities=[],
        touched_term=None,
        touched_topic=None,
        recall_target=None,
        recall_source_turn=None,
    ),
    "T-004471": dict(
        verdict=TONE,
        rule_expected="반말 · 나",
        rule_observed="존댓말 · 저",
        off_canon_entities=[],
        touched_term=None,
        touched_topic=None,
        recall_target=None,
        recall_source_turn=None,
    ),
    "T-004519": dict(
        verdict=OFF,
        rule_expected="반말 · 나",
        rule_observed="반말 · 나",
        off_canon_entities=["리안", "아카데미"],
        touched_term=None,
        touched_topic=None,
        recall_target=None,
        recall_source_turn=None,
    ),
    "T-004530": dict(
        verdict=FORB,
        rule_expected="반말 · 나",
        rule_observed="반말 · 나",
        off_canon_entities=[],
        touched_term="선거",
        touched_topic="현실 정치",
        recall_target=None,
        recall_source_turn=None,
    ),
    "T-004602": dict(
        verdict=RECALL,
        rule_expected="반말 · 나",
        rule_observed="반말 · 나",
        off_canon_entities=[],
        touched_term=None,
        touched_topic=None,
        recall_target="하늘",
        recall_source_turn="T-004450",
    ),
    "T-004611": dict(
        verdict=TONE,
        rule_expected="존댓말 · 저",
        rule_observed="반말 · 나",
        off_canon_entities=[],
        touched_term=None,
        touched_topic=None,
        recall_target=None,
        recall_source_turn=None,
    ),
    "T-004631": dict(
        verdict=OK,
        rule_expected="존댓말 · 저",
        rule_observed="존댓말 · 저",
        off_canon_entities=None,
        touched_term=None,
        touched_topic=None,
        recall_target=None,
        recall_source_turn=None,
    ),
}


def _write_inputs(tmp_path, fmt, turns=TURNS, cards=CARDS, lexicon=LEXICON):
    chat = pa.Table.from_pylist(
        turns,
        schema=pa.schema(
            [
                ("turn_id", pa.string()),
                ("session_id", pa.string()),
                ("character_id", pa.string()),
                ("model_id", pa.string()),
                ("created_at", pa.timestamp("us")),
                ("prompt_id", pa.string()),
                ("user_message", pa.string()),
                ("reply_text", pa.string()),
                ("first_person", pa.string()),
                ("named_entities", pa.list_(pa.string())),
                ("honorific_level", pa.string()),
                ("user_asked_recall", pa.bool_()),
            ]
        ),
    )
    card = pa.Table.from_pylist(
        cards,
        schema=pa.schema(
            [
                ("character_id", pa.string()),
                ("name", pa.string()),
                ("persona", pa.string()),
                ("honorific_rule", pa.string()),
                ("first_person", pa.string()),
                ("canon_entities", pa.list_(pa.string())),
                ("forbidden_topics", pa.list_(pa.string())),
                ("entity_roles", pa.list_(generate.ROLE_TYPE)),
                ("is_public", pa.bool_()),
            ]
        ),
    )
    lex = pa.table(
        {
            "term": [t for t, _ in lexicon],
            "topic": [p for _, p in lexicon],
            "term_order": pa.array(range(1, len(lexicon) + 1), type=pa.int64()),
        }
    )
    d = tmp_path / fmt
    d.mkdir(exist_ok=True)
    paths = {}
    for name, t in (("chat_turn", chat), ("character_card", card), ("topic_lexicon", lex)):
        paths[name] = str(d / f"{name}.{fmt}")
        generate.write_table(t, paths[name], fmt)
    return paths


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hand")
    out = {}
    for fmt in FORMATS:
        p = _write_inputs(tmp, fmt)
        res = baseline.run(p["chat_turn"], p["character_card"], p["topic_lexicon"], ENDINGS)
        out[fmt] = {r["turn_id"]: r for r in res}
    return out


def test_every_turn_gets_one_row_in_every_format(results):
    assert list(results["jsonl"]) == [t["turn_id"] for t in TURNS]
    assert results["jsonl"] == results["csv"] == results["parquet"]
    for r in results["jsonl"].values():
        assert list(r) == FIELDS


def test_seed_000_rows(results):
    for tid, expected in SEED_ROWS.items():
        got = {k: v for k, v in results["jsonl"][tid].items() if k not in ("turn_id", "tone")}
        assert got == expected, tid
    assert results["jsonl"]["T-004450"]["verdict"] == OK


TONE_CASES = {
    # turn_id: (tone, rule_observed, verdict)
    "E-tilde-1": ("존댓말", "존댓말 · 저", OK),  # trailing ~ stripped
    "E-tilde-2": ("반말", "반말 · 저", TONE),  # ~ is no terminator: last eojeol 와
    "E-emoji-1": ("존댓말", "존댓말 · 저", OK),  # the emoji token has no Hangul
    "E-emoji-2": ("존댓말", "존댓말 · 저", OK),  # trailing emoji stripped
    "E-quote": ("존댓말", "존댓말 · 저", OK),  # "알겠습니다 -> 니다
    "E-quote-2": ("반말", "반말 · 나", OK),
    "E-ellipsis": ("존댓말", "존댓말 · 나", TONE),  # … splits: 글쎄요 is honorific
    "E-fullwidth": ("반말", "반말 · 나", OK),
    "E-fullwidth-2": ("존댓말", "존댓말 · 저", OK),  # ？ and ． split; 하셨어요 honorific
    "E-english": (None, "나", OK),  # no Hangul: tone skipped
    "E-empty": (None, None, OK),
    "E-yo-start": ("반말", "반말 · 나", OK),  # 요즘 / 요리는 do not end a sentence
    "E-ani-da": ("존댓말", "존댓말 · 나", TONE),  # known limit: 아니다 ends in 니다
    "E-seumnikka": ("반말", "반말 · 저", TONE),  # known limit: 습니까/합니까 end in 까
    "E-pilyo": ("존댓말", "존댓말 · 나", TONE),  # known limit: noun-final 필요.
    "E-paren": ("반말", "반말 · 저", TONE),  # known limit: trailing parenthetical
    "E-jamo": ("반말", "반말 · 나", OK),  # ㅋㅋ stripped; honorific_level ignored
    "E-fp-null": ("반말", "반말", OK),  # first person comparison skipped
    "E-fp-only": ("반말", "반말 · 저", TONE),  # first person differs
}


@pytest.mark.parametrize("tid", list(TONE_CASES))
def test_tone_edge_cases(results, tid):
    tone, observed, verdict = TONE_CASES[tid]
    r = results["jsonl"][tid]
    assert (r["tone"], r["rule_observed"], r["verdict"]) == (tone, observed, verdict)


def test_rule_expected(results):
    assert results["jsonl"]["E-tilde-1"]["rule_expected"] == "존댓말 · 저"
    assert results["jsonl"]["E-names"]["rule_expected"] == "반말 · 나"


def test_off_canon_distinct_in_order_after_normalisation(results):
    r = results["jsonl"]["E-names"]
    assert r["off_canon_entities"] == ["아카데미", "검술원"]
    assert r["verdict"] == OFF


def test_lexicon_forbidden_hit_beats_earlier_harmless_term(results):
    r = results["jsonl"]
    assert (
        r["E-lex-1"]["touched_term"],
        r["E-lex-1"]["touched_topic"],
        r["E-lex-1"]["verdict"],
    ) == ("주식", "금융 투자", FORB)
    assert (
        r["E-lex-2"]["touched_term"],
        r["E-lex-2"]["touched_topic"],
        r["E-lex-2"]["verdict"],
    ) == ("코인", "금융 투자", FORB)  # 코인 is listed under 도박 first
    assert (
        r["E-lex-3"]["touched_term"],
        r["E-lex-3"]["touched_topic"],
        r["E-lex-3"]["verdict"],
    ) == ("날씨", None, OK)  # harmless hit: term kept, topic null
    assert (
        r["E-lex-4"]["touched_term"],
        r["E-lex-4"]["touched_topic"],
        r["E-lex-4"]["verdict"],
    ) == ("코인", None, OK)  # card forbids neither topic of 코인


RECALL_CASES = {
    "R-0204": (
        "하늘",
        "R-0202",
        RECALL,
    ),  # ties at 12:00:00 -> (created_at, turn_id); R-0201 is later
    "R-0206": ("하늘", "R-0202", RECALL),  # 사촌동생 contains 동생, the first role in card order
    "R-0207": (None, None, OK),  # the reply names 하늘
    "R-0208": (None, None, OK),  # no role in the message
    "R-0209": (None, None, OK),  # user_message null
    "R-0210": (None, None, OK),  # user_asked_recall null = false
    "R-0211": ("하늘", "R-0202", RECALL),  # still the first role in card order (동생), not 리안
    "R-0301": (None, None, OK),  # entity only in a later turn
    "R-0402": (None, None, OK),  # entity only in another session
    "R-0503": ("하늘", "R-0502", RECALL),  # a null named_entities list is no source
    "T-004602": ("하늘", "T-004450", RECALL),
}


@pytest.mark.parametrize("tid", list(RECALL_CASES))
def test_recall(results, tid):
    target, source, verdict = RECALL_CASES[tid]
    r = results["jsonl"][tid]
    assert (r["recall_target"], r["recall_source_turn"], r["verdict"]) == (target, source, verdict)


def test_verdict_order(tmp_path):
    """Forbidden topic > off-canon > tone > recall, all on one turn."""
    turns = [
        _turn(
            "V-1",
            "S-V",
            "CHR-0001",
            "gpt-4o-mini",
            "2025-05-05 10:00:00",
            "하늘이 왔다.",
            named=["하늘"],
        ),
        _turn(
            "V-2",
            "S-V",
            "CHR-0001",
            "gpt-4o-mini",
            "2025-05-05 10:01:00",
            "선거 얘기는 그만하세요. 리안은 몰라요.",
            fp="저",
            named=["리안"],
            user="내 동생 기억해?",
            recall=True,
        ),
        _turn(
            "V-3",
            "S-V",
            "CHR-0001",
            "gpt-4o-mini",
            "2025-05-05 10:02:00",
            "리안은 몰라요.",
            fp="저",
            named=["리안"],
            user="내 동생 기억해?",
            recall=True,
        ),
        _turn(
            "V-4",
            "S-V",
            "CHR-0001",
            "gpt-4o-mini",
            "2025-05-05 10:03:00",
            "글쎄요, 모르겠어요.",
            fp="저",
            named=[],
            user="내 동생 기억해?",
            recall=True,
        ),
        _turn(
            "V-5",
            "S-V",
            "CHR-0001",
            "gpt-4o-mini",
            "2025-05-05 10:04:00",
            "글쎄, 모르겠어.",
            named=[],
            user="내 동생 기억해?",
            recall=True,
        ),
    ]
    p = _write_inputs(tmp_path, "jsonl", turns=turns)
    res = {
        r["turn_id"]: r
        for r in baseline.run(p["chat_turn"], p["character_card"], p["topic_lexicon"], ENDINGS)
    }
    assert [res[t]["verdict"] for t in ("V-1", "V-2", "V-3", "V-4", "V-5")] == [
        OK,
        FORB,
        OFF,
        TONE,
        RECALL,
    ]
    # every field is computed even when an earlier check decides the verdict
    assert res["V-2"]["off_canon_entities"] == ["리안"] and res["V-2"]["recall_target"] == "하늘"
    assert res["V-2"]["rule_observed"] == "존댓말 · 저"


def test_endings_come_from_the_seed_table(tmp_path):
    """Analysts edit honorific_endings: 아니다 -> false overrides 니다, 습니까 -> true."""
    custom = tmp_path / "endings.csv"
    with open(ENDINGS, encoding="utf-8") as f:
        text = f.read()
    custom.write_text(
        text.rstrip("\n") + "\n아니다,false,평서 부정 (반말)\n습니까,true,하십시오체 의문\n",
        encoding="utf-8",
    )
    endings = baseline.load_endings(str(custom))
    assert baseline.extract_tone("그건 내 뜻이 아니다.", endings) == "반말"
    assert baseline.extract_tone("그건 제 뜻이 아닙니다.", endings) == "존댓말"
    assert baseline.extract_tone("정말 그렇습니까?", endings) == "존댓말"
    assert baseline.extract_tone("무엇을 원합니까?", endings) == "반말"  # 합니까 was not added
    seed = baseline.load_endings(ENDINGS)
    assert sorted(e for e, _ in seed) == sorted(["요", "죠", "니다", "십시오"])
    assert all(h for _, h in seed)
    assert baseline.extract_tone("그건 내 뜻이 아니다.", seed) == "존댓말"


def test_baseline_cli_writes_parquet(tmp_path, capsys):
    _gen(tmp_path / "cli", "parquet", turns=300, terms=50, characters=5, seed=3)
    out = tmp_path / "res.parquet"
    baseline.main(
        [
            "--input-dir",
            str(tmp_path / "cli"),
            "--format",
            "parquet",
            "--endings",
            ENDINGS,
            "--out",
            str(out),
        ]
    )
    assert "turns/s" in capsys.readouterr().out
    import pyarrow.parquet as pq

    t = pq.read_table(out)
    assert t.num_rows == 300 and t.column_names == FIELDS
    assert t.schema.field("off_canon_entities").type == pa.list_(pa.string())
