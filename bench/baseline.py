"""The straightforward per-row Python implementation of the rules (the baseline to beat).

The rules are docs/rules.md#derived-values and #verdict-order.

This is what an analyst would write first: read the three files into Python lists/dicts
(DuckDB is used only to read them), normalise the text, then one Python ``for`` loop over the
turns. The lexicon check is the naive one on purpose: for every turn, test ``term in reply_text``
for every lexicon row. It assumes clean input (no quarantine logic).

    python bench/baseline.py --input-dir DIR --format jsonl [--endings seeds/honorific_endings.csv]
                             [--out results.parquet]
    python bench/baseline.py --chat-turn a.csv --character-card b.csv --topic-lexicon c.csv ...
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import re
import sys
import time
import unicodedata

import duckdb

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from python_udfs.contract import (
    CHARACTER_CARD_COLUMNS,
    CHAT_TURN_COLUMNS,
    TOPIC_LEXICON_COLUMNS,
)

VERDICT_FORBIDDEN = "금지 소재 접촉"
VERDICT_OFF_CANON = "세계관 밖 고유명사"
VERDICT_TONE = "말투 어긋남"
VERDICT_RECALL = "앞 회차를 기억 못 함"
VERDICT_OK = "설정대로 말함"
VERDICTS = [VERDICT_OK, VERDICT_TONE, VERDICT_OFF_CANON, VERDICT_FORBIDDEN, VERDICT_RECALL]

SENTENCE_SPLIT = re.compile(r"[.?!．？！…]")
SEP = " · "
RESULT_FIELDS = [
    "turn_id",
    "verdict",
    "tone",
    "rule_expected",
    "rule_observed",
    "off_canon_entities",
    "touched_term",
    "touched_topic",
    "recall_target",
    "recall_source_turn",
]
DEFAULT_ENDINGS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "seeds", "honorific_endings.csv"
)


# --------------------------------------------------------------------------- reading
JSON_TYPES = {  # the input contract's types, so DuckDB does not have to guess them from a sample
    "turn_id": "VARCHAR",
    "session_id": "VARCHAR",
    "character_id": "VARCHAR",
    "model_id": "VARCHAR",
    "created_at": "TIMESTAMP",
    "prompt_id": "VARCHAR",
    "user_message": "VARCHAR",
    "reply_text": "VARCHAR",
    "first_person": "VARCHAR",
    "named_entities": "VARCHAR[]",
    "honorific_level": "VARCHAR",
    "user_asked_recall": "BOOLEAN",
    "name": "VARCHAR",
    "persona": "VARCHAR",
    "honorific_rule": "VARCHAR",
    "canon_entities": "VARCHAR[]",
    "forbidden_topics": "VARCHAR[]",
    "entity_roles": "STRUCT(role VARCHAR, entity VARCHAR)[]",
    "is_public": "BOOLEAN",
    "term": "VARCHAR",
    "topic": "VARCHAR",
    "term_order": "BIGINT",
}


def _source(path: str, columns: list[str]) -> str:
    p = path.replace("'", "''")
    ext = path.lower().rsplit(".", 1)[-1]
    if ext == "parquet":
        return f"read_parquet('{p}')"
    if ext in ("jsonl", "json", "ndjson"):
        cols = "{" + ", ".join(f"'{c}': '{JSON_TYPES[c]}'" for c in columns) + "}"
        return f"read_json('{p}', format='newline_delimited', columns={cols})"
    if ext == "csv":
        # every cell as text; a quoted "" is an empty string, an empty cell is null
        return f"read_csv('{p}', header=true, all_varchar=true, allow_quoted_nulls=false)"
    raise ValueError(f"{path}: unknown file format '.{ext}' (expected .csv, .jsonl or .parquet)")


def _read(path: str, columns: list[str], casts: dict[str, str] | None = None) -> list[dict]:
    casts = casts or {}
    sel = ", ".join(
        f'CAST("{c}" AS {casts[c]}) AS "{c}"' if c in casts else f'"{c}"' for c in columns
    )
    con = duckdb.connect()
    try:
        cur = con.execute(f"SELECT {sel} FROM {_source(path, columns)}")
        return [dict(zip(columns, row, strict=True)) for row in cur.fetchall()]
    finally:
        con.close()


def _text(v):
    if v is None:
        return None
    return unicodedata.normalize("NFC", str(v)).strip()


def _list(v):
    """A list column: a real list (Parquet/JSON) or JSON text (CSV). None stays None."""
    if v is None:
        return None
    if isinstance(v, str):
        v = json.loads(v)
    return v


def _bool(v):
    if v is None or isinstance(v, bool):
        return v
    return str(v).strip().lower() in ("true", "t", "1", "yes")


def load_chat_turns(path: str) -> list[dict]:
    rows = _read(path, CHAT_TURN_COLUMNS, {"created_at": "TIMESTAMP"})
    out = []
    for r in rows:
        ne = _list(r["named_entities"])
        out.append(
            {
                "turn_id": _text(r["turn_id"]),
                "session_id": _text(r["session_id"]),
                "character_id": _text(r["character_id"]),
                "model_id": _text(r["model_id"]),
                "created_at": r["created_at"],
                "prompt_id": _text(r["prompt_id"]),
                "user_message": _text(r["user_message"]),
                "reply_text": _text(r["reply_text"]) if r["reply_text"] is not None else "",
                "first_person": _text(r["first_person"]),
                "named_entities": None if ne is None else [_text(x) for x in ne],
                "honorific_level": _text(r["honorific_level"]),
                "user_asked_recall": bool(_bool(r["user_asked_recall"])),
            }
        )
    return out


def load_cards(path: str) -> dict[str, dict]:
    cols = CHARACTER_CARD_COLUMNS
    cards = {}
    for r in _read(path, cols):
        roles = _list(r["entity_roles"]) or []
        cards[_text(r["character_id"])] = {
            "character_id": _text(r["character_id"]),
            "name": _text(r["name"]),
            "honorific_rule": _text(r["honorific_rule"]),
            "first_person": _text(r["first_person"]),
            "canon_entities": [_text(x) for x in (_list(r["canon_entities"]) or [])],
            "forbidden_topics": [_text(x) for x in (_list(r["forbidden_topics"]) or [])],
            "entity_roles": [
                {"role": _text(e["role"]), "entity": _text(e["entity"])} for e in roles
            ],
        }
    return cards


def load_lexicon(path: str) -> list[dict]:
    rows = _read(path, TOPIC_LEXICON_COLUMNS, {"term_order": "BIGINT"})
    lex = [
        {"term": _text(r["term"]), "topic": _text(r["topic"]), "term_order": int(r["term_order"])}
        for r in rows
    ]
    lex.sort(key=lambda r: r["term_order"])
    return lex


def load_endings(path: str) -> list[tuple[str, bool]]:
    """(ending, is_honorific), longest first."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = [
            (_text(r["ending"]), str(r["is_honorific"]).strip().lower() == "true")
            for r in csv.DictReader(f)
        ]
    rows = [r for r in rows if r[0]]
    rows.sort(key=lambda r: -len(r[0]))
    return rows


# --------------------------------------------------------------------------- checks
def _is_syllable(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3"


def _has_syllable(s: str) -> bool:
    return any(_is_syllable(ch) for ch in s)


def extract_tone(reply: str, endings: list[tuple[str, bool]]):
    """'존댓말' / '반말' / None (no sentence with a Hangul syllable)."""
    any_hangul = False
    honorific = False
    for piece in SENTENCE_SPLIT.split(reply):
        sentence = piece.strip()
        if not sentence:
            continue
        last = None
        for token in sentence.split():
            if _has_syllable(token):
                last = token
        if last is None:
            continue
        any_hangul = True
        while last and not _is_syllable(last[-1]):
            last = last[:-1]
        for ending, is_hon in endings:  # longest first: the first match is the longest
            if last.endswith(ending):
                if is_hon:
                    honorific = True
                break
    if not any_hangul:
        return None
    return "존댓말" if honorific else "반말"


def _join(*parts):
    kept = [p for p in parts if p is not None]
    return SEP.join(kept) if kept else None


def judge_turn(turn, card, lexicon, endings, earlier_turns):
    reply = turn["reply_text"]
    tone = extract_tone(reply, endings)
    rule_expected = _join(card["honorific_rule"], card["first_person"])
    rule_observed = _join(tone, turn["first_person"])
    tone_mismatch = (tone is not None and tone != card["honorific_rule"]) or (
        turn["first_person"] is not None
        and card["first_person"] is not None
        and turn["first_person"] != card["first_person"]
    )

    # off-canon names
    if turn["named_entities"] is None:
        off_canon = None
    else:
        off_canon = []
        canon = [*card["canon_entities"], card["name"]]  # rule v2: the card's name is canon
        for name in turn["named_entities"]:
            if name not in canon and name not in off_canon:
                off_canon.append(name)

    # lexicon: the naive loop over every term
    hits = []
    for row in lexicon:
        if row["term"] in reply:
            hits.append(row)
    touched_term = touched_topic = None
    forbidden_hits = [h for h in hits if h["topic"] in card["forbidden_topics"]]
    if forbidden_hits:
        best = min(forbidden_hits, key=lambda h: h["term_order"])
        touched_term, touched_topic = best["term"], best["topic"]
    elif hits:
        touched_term = min(hits, key=lambda h: h["term_order"])["term"]

    # recall
    recall_target = recall_source = None
    if turn["user_asked_recall"] and turn["user_message"] is not None:
        asked = None
        for er in card["entity_roles"]:
            if er["role"] and er["role"] in turn["user_message"]:
                asked = er["entity"]
                break
        if asked is not None and asked not in reply:
            for prev in earlier_turns:  # already in (created_at, turn_id) order
                if prev["named_entities"] is not None and asked in prev["named_entities"]:
                    recall_target, recall_source = asked, prev["turn_id"]
                    break

    if touched_topic is not None:
        verdict = VERDICT_FORBIDDEN
    elif off_canon:
        verdict = VERDICT_OFF_CANON
    elif tone_mismatch:
        verdict = VERDICT_TONE
    elif recall_target is not None:
        verdict = VERDICT_RECALL
    else:
        verdict = VERDICT_OK
    return {
        "turn_id": turn["turn_id"],
        "verdict": verdict,
        "tone": tone,
        "rule_expected": rule_expected,
        "rule_observed": rule_observed,
        "off_canon_entities": off_canon,
        "touched_term": touched_term,
        "touched_topic": touched_topic,
        "recall_target": recall_target,
        "recall_source_turn": recall_source,
    }


def judge(turns, cards, lexicon, endings) -> list[dict]:
    sessions = collections.defaultdict(list)
    for t in turns:
        sessions[t["session_id"]].append(t)
    for s in sessions.values():
        s.sort(key=lambda t: (t["created_at"], t["turn_id"]))
    position = {}
    for s in sessions.values():
        for i, t in enumerate(s):
            position[t["turn_id"]] = i
    results = []
    for t in turns:
        session = sessions[t["session_id"]]
        earlier = session[: position[t["turn_id"]]]
        results.append(judge_turn(t, cards[t["character_id"]], lexicon, endings, earlier))
    return results


def run(
    chat_turn_path, character_card_path, topic_lexicon_path, endings_csv=DEFAULT_ENDINGS
) -> list[dict]:
    turns = load_chat_turns(chat_turn_path)
    cards = load_cards(character_card_path)
    lexicon = load_lexicon(topic_lexicon_path)
    endings = load_endings(endings_csv)
    return judge(turns, cards, lexicon, endings)


def write_parquet(results: list[dict], path: str) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [
            (f, pa.list_(pa.string()) if f == "off_canon_entities" else pa.string())
            for f in RESULT_FIELDS
        ]
    )
    table = pa.Table.from_pylist(results, schema=schema)
    pq.write_table(table, path)


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--input-dir", help="directory with chat_turn/character_card/topic_lexicon.<format>"
    )
    ap.add_argument("--format", default="jsonl", choices=["jsonl", "csv", "parquet"])
    ap.add_argument("--chat-turn")
    ap.add_argument("--character-card")
    ap.add_argument("--topic-lexicon")
    ap.add_argument("--endings", default=DEFAULT_ENDINGS)
    ap.add_argument("--out", help="write per-turn results to this Parquet file")
    a = ap.parse_args(argv)
    paths = {}
    for name in ("chat_turn", "character_card", "topic_lexicon"):
        p = getattr(a, name)
        if p is None:
            if a.input_dir is None:
                ap.error(f"--{name.replace('_', '-')} or --input-dir is required")
            p = os.path.join(a.input_dir, f"{name}.{a.format}")
        paths[name] = p
    t0 = time.perf_counter()
    turns = load_chat_turns(paths["chat_turn"])
    cards = load_cards(paths["character_card"])
    lexicon = load_lexicon(paths["topic_lexicon"])
    endings = load_endings(a.endings)
    t1 = time.perf_counter()
    results = judge(turns, cards, lexicon, endings)
    t2 = time.perf_counter()
    n = len(results)
    print(f"turns: {n}  lexicon rows: {len(lexicon)}  cards: {len(cards)}")
    print(
        f"load: {t1 - t0:.2f}s  judge: {t2 - t1:.2f}s  -> {n / max(t2 - t1, 1e-9):,.0f} turns/s "
        f"(incl. load {n / max(t2 - t0, 1e-9):,.0f} turns/s)"
    )
    counts = collections.Counter(r["verdict"] for r in results)
    for v in VERDICTS:
        print(f"  {v}\t{counts[v]}\t{100.0 * counts[v] / max(n, 1):.1f}%")
    if a.out:
        write_parquet(results, a.out)
        print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
