"""The Python UDFs: as plain functions, and inside DuckDB over inline values (docs/rules.md)."""

from __future__ import annotations

import duckdb
import pytest

from python_udfs import endings, lexicon, tone
from python_udfs.plugin import Plugin

SEED_ENDINGS = {"요": True, "죠": True, "니다": True, "십시오": True}


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("검을 잡아. 오늘은 손목부터 본다.", "반말"),
        ("저는 그렇게 생각해요. 오늘은 조금 더 쉬시는 게 좋겠어요.", "존댓말"),
        ("알겠어요~", "존댓말"),
        ("다음에 또 봐요😊", "존댓말"),
        ('그는 "가자"라고 했다. "그래요"', "존댓말"),
        ("글쎄요…그건 모르겠어", "존댓말"),
        ("정말이야？ 믿을 수 없어！", "반말"),
        ("요즘 바깥 선거 얘기로 시끄럽더군. 다들 편을 갈라 싸운다.", "반말"),
        ("오늘 실험은 여기까지 하죠. 정리는 제가 합니다.", "존댓말"),
        ("어디로 가십니까?", "반말"),  # the four-ending rule's known miss
        ("그건 필요.", "존댓말"),  # a noun-final 요 counts (docs/rules.md#honesty-boundary)
        ("OK ^^ see you.", None),
        ("", None),
        ("ㅋㅋㅋ", None),
    ],
)
def test_extract_tone(reply, expected):
    assert tone.extract_tone(reply, SEED_ENDINGS) == expected


def test_longest_ending_wins_so_an_exception_overrides():
    endings = SEED_ENDINGS | {"아니다": False, "습니까": True}
    assert tone.extract_tone("그건 내 잘못이 아니다.", SEED_ENDINGS) == "존댓말"
    assert tone.extract_tone("그건 내 잘못이 아니다.", endings) == "반말"
    assert tone.extract_tone("내일 출발하겠습니까?", endings) == "존댓말"


def test_last_hangul_eojeol_strips_trailing_non_syllables():
    assert tone.last_hangul_eojeol("좋아요~^^ lol") == "좋아요"
    assert tone.last_hangul_eojeol("「그래요」") == "「그래요"
    assert tone.last_hangul_eojeol("no hangul") is None


def test_split_sentences_uses_every_terminator():
    assert tone.split_sentences("하나. 둘? 셋! 넷．다섯？여섯！일곱…여덟") == [
        "하나",
        "둘",
        "셋",
        "넷",
        "다섯",
        "여섯",
        "일곱",
        "여덟",
    ]


def test_lexicon_matcher_finds_every_row_of_a_term_once():
    matcher = lexicon.LexiconMatcher(["선거", "정치", "선거", "대통령 선거"], [3, 1, 7, 2])
    assert matcher.match("대통령 선거 얘기, 또 선거.") == [2, 3, 7]
    assert matcher.match("아무 일 없음") == []
    assert matcher.match(None) == []


def test_lexicon_prepare_reuses_one_automaton_per_lexicon():
    first = lexicon.prepare(["선거"], [1])
    assert lexicon.prepare(["선거"], [1]) == first
    assert lexicon.prepare(["선거"], [2]) != first
    with pytest.raises(LookupError):
        lexicon.matcher("unknown")


@pytest.fixture
def connection():
    con = duckdb.connect()
    Plugin("card_keeper", {}).configure_connection(con)
    yield con
    con.close()


def test_tone_udf_inside_duckdb(connection):
    """Returns rows only on failure, like a dbt test."""
    failures = connection.execute(
        """
        select reply, expected, ck_tone(reply, '.?!．？！…', ['요','죠','니다','십시오'],
                                        [true, true, true, true]) as got
        from (values
            ('검을 잡아. 오늘은 손목부터 본다.', '반말'),
            ('저는 그렇게 생각해요.', '존댓말'),
            ('알겠어요~', '존댓말'),
            ('OK.', null),
            (null, null)
        ) as cases (reply, expected)
        where got is distinct from expected
        """
    ).fetchall()
    assert failures == []


def test_lexicon_udfs_inside_duckdb(connection):
    failures = connection.execute(
        """
        with lexicon as (
            select ck_lexicon_prepare(['선거', '정치', '선거'], [1, 2, 3]) as handle
        )
        select reply, expected, ck_lexicon_match(reply, lexicon.handle) as got
        from (values
            ('요즘 바깥 선거 얘기로 시끄럽더군.', [1, 3]),
            ('정치 선거', [1, 2, 3]),
            ('아무 일 없음', []),
            (null, [])
        ) as cases (reply, expected)
        cross join lexicon
        where got is distinct from expected
        """
    ).fetchall()
    assert failures == []


def test_last_sentence_udf_inside_duckdb(connection):
    failures = connection.execute(
        """
        select summary, expected,
               ck_last_sentence_is_honorific(summary, '.?!', ['요','죠','니다','십시오'],
                                             [true, true, true, true]) as got
        from (values
            ('두 문장이 모두 존댓말로 끝납니다.', true),
            ('카드 밖 이름이 나왔다.', false),
            ('앞은 반말이다. 끝은 존댓말입니다.', true),
            ('', false)
        ) as cases (summary, expected)
        where got is distinct from expected
        """
    ).fetchall()
    assert failures == []


def test_analyser_reads_the_known_limits_as_a_person_would():
    """Kiwi, loaded without its optional dictionaries, reads the final endings of the tone
    rule's known limits (docs/rules.md#honesty-boundary) as a person would."""
    found = endings.final_endings(
        ["내일 다시 올게요.", "어디로 가십니까?", "그건 내 잘못이 아니다.", "필요.", "고양이요."]
    )
    assert [ending and (ending["ef_surface"], ending["is_honorific"]) for ending in found] == [
        ("올게요", True),
        ("십니까", True),  # the formal question the four-ending rule misses
        ("다", False),  # 아니다, which the rule counts as honorific
        None,  # a bare noun: no final ending
        ("요", True),
    ]


def test_lexicon_matcher_equals_substring_search_per_reply():
    """The automaton finds exactly what `term in reply` finds for each reply of a batch, with
    nulls and empty replies finding nothing and no match across two replies."""
    import random

    import pyarrow as pa

    rng = random.Random(20261130)
    syllables = list("가나다라마바사아자차카타파하선거정치대통령의는을를 ")
    terms = ["".join(rng.choice(syllables) for _ in range(rng.randint(1, 4))) for _ in range(300)]
    orders = list(range(1, len(terms) + 1))
    matcher = lexicon.LexiconMatcher(terms, orders)
    for _ in range(20):
        replies = [
            None if rng.random() < 0.05 else "".join(rng.choices(syllables, k=rng.randint(0, 40)))
            for _ in range(400)
        ]
        expected = [
            sorted(
                {
                    order
                    for term, order in zip(terms, orders, strict=True)
                    if reply and term in reply
                }
            )
            for reply in replies
        ]
        assert matcher.match_all(replies) == expected
        # As DuckDB hands them to the UDF: a slice of a larger array, or several chunks.
        assert matcher.match_arrow(pa.array(replies)[100:300]).to_pylist() == expected[100:300]
        chunked = pa.chunked_array([pa.array(replies[:250]), pa.array(replies[250:])])
        assert matcher.match_arrow(chunked).to_pylist() == expected
        assert matcher.match_arrow(pa.array(replies, pa.large_string())).to_pylist() == expected
