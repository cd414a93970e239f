#!/usr/bin/env python3
"""Writes the card_keeper demo data from its hand-written sources (PyYAML, deterministic).

The content is data: characters/CHR-*.yaml hold each character's card and sessions, every
reply with the verdict its author intended (what a careful human creator would say after
READING it, in the verdict order of docs/rules.md) and, for the labelled turns, a one-line
Korean note; demo.yaml holds what the characters share (models, verdict words, lexicon,
situation tags, the README template) and explains the keys. Labels are NOT computed from the
derived-value rules of docs/rules.md: the four-ending tone rule deliberately disagrees with
several of them. llm_summaries.jsonl is hand-written; this script does not touch it.

Run:  python data/demo/make_demo.py [--out DIR]      (DIR defaults to this script's folder)
Running it twice gives byte-identical output.
"""

import argparse
import csv
import datetime as dt
import io
import itertools
import json
import re
import unicodedata
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
KEPT = "설정대로 말함"  # the verdict of a reply that keeps its card


def parse_ts(s):
    return dt.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S")


def step_seconds(i, session_id):
    """The gap before turn i of a session: 1-5 minutes, pseudo-random but fixed."""
    sn = int(session_id[2:])
    return 60 + ((i * 7919 + sn * 104729 + 13) % 241)


def load(src=HERE):
    shared = yaml.safe_load((src / "demo.yaml").read_text(encoding="utf-8"))
    files = sorted((src / "characters").glob("CHR-*.yaml"))
    return shared, [yaml.safe_load(f.read_text(encoding="utf-8")) for f in files]


def session_turns(session_id, character_id, start, rows):
    """chat_turn rows of one session. A row is one reply with its model, prompt_id, user
    message and recall flag merged in."""
    ts = start
    for i, r in enumerate(rows):
        if i:
            ts += dt.timedelta(seconds=r.get("seconds_after_previous", step_seconds(i, session_id)))
        turn = {
            "turn_id": r["turn_id"],
            "session_id": session_id,
            "character_id": character_id,
            "model_id": r["model"],
            "created_at": ts.strftime("%Y-%m-%dT%H:%M:%S"),
            "prompt_id": r["prompt_id"],
            "user_message": r["user_message"],
            "reply_text": r["reply"],
            "first_person": r["first_person"],
            "named_entities": r["named_entities"],
            "honorific_level": r["honorific_level"],
            "user_asked_recall": r["user_asked_recall"],
        }
        yield turn, r


def build(shared, characters):
    """Every chat turn ordered by (created_at, turn_id), and each turn's source row."""
    out = []
    for char in characters:
        cid = char["card"]["character_id"]
        for sc in char.get("scenarios", []):
            for k, model in enumerate(shared["models"]):
                rows = [
                    {
                        **p["replies"][model],
                        "model": model,
                        "prompt_id": f"P-{sc['prompt_set']}-{n:02d}",
                        "user_message": p["user_message"],
                        "user_asked_recall": p["user_asked_recall"],
                    }
                    for n, p in enumerate(sc["prompts"], 1)
                ]
                start = parse_ts(sc["start"]) + dt.timedelta(seconds=7 * k)
                out += session_turns(sc["sessions"][model], cid, start, rows)
        for cv in char.get("conversations", []):
            rows = [  # a turn's own model or `prompt_id: null` overrides the defaults
                {"model": cv.get("model"), "prompt_id": f"P-{cv['prompt_set']}-{n:02d}", **t}
                for n, t in enumerate(cv["turns"], 1)
            ]
            out += session_turns(cv["session"], cid, parse_ts(cv["start"]), rows)
    out.sort(key=lambda pair: (pair[0]["created_at"], pair[0]["turn_id"]))
    return [t for t, _ in out], {t["turn_id"]: r for t, r in out}


def check(shared, cards, turns, meta, lex):
    """The demo's own promises; an edit of the data that breaks one stops the script."""
    topics, models, verdicts = {t for _, t, _ in lex}, set(shared["models"]), shared["verdicts"]
    for c in cards:
        assert 4 <= len(c["canon_entities"]) <= 10 and 2 <= len(c["entity_roles"]) <= 4, c
        assert 1 <= len(c["forbidden_topics"]) <= 3 and set(c["forbidden_topics"]) <= topics, c
        assert all(r["entity"] in c["canon_entities"] for r in c["entity_roles"]), c
        assert c["honorific_rule"] in ("반말", "존댓말"), c
    assert [c["character_id"] for c in cards if c["is_public"]] == ["CHR-0001"]
    assert len({(a, b) for a, b, _ in lex}) == len(lex), "a (term, topic) pair twice"
    assert len(meta) == len(turns) >= 330, "turn_ids must be unique"
    card_ids = {c["character_id"] for c in cards}
    for t in turns:
        tid, r = t["turn_id"], meta[t["turn_id"]]
        assert re.fullmatch(r"T-\d{6}", tid) and re.fullmatch(r"S-\d{5}", t["session_id"]), tid
        assert t["model_id"] in models and t["character_id"] in card_ids, tid
        assert t["created_at"][:7] in ("2026-09", "2026-10", "2026-11"), tid
        assert r["verdict"] in verdicts and t["honorific_level"] in ("반말", "존댓말", None), tid
        for k in ("user_message", "reply_text", "first_person"):
            s = t[k]
            assert s is None or unicodedata.normalize("NFC", s) == s == s.strip(), (tid, k)
        assert all(name in t["reply_text"] for name in t["named_entities"] or []), tid
        hits = {term for term, _, _ in lex if term in t["reply_text"]}
        assert hits == set(r.get("terms", [])), (tid, "lexicon hits", hits)
        assert "\n" not in r.get("note", ""), tid
    sessions = {}
    for t in turns:
        sessions.setdefault(t["session_id"], []).append(t)
    gaps = []
    for sid, ts in sessions.items():
        assert len({t["character_id"] for t in ts}) == 1, sid
        for a, b in itertools.pairwise(ts):
            gaps.append((parse_ts(b["created_at"]) - parse_ts(a["created_at"])).total_seconds())
            assert gaps[-1] == 0 or 60 <= gaps[-1] <= 300, (sid, gaps[-1])
    assert 0 in gaps, "the demo needs two turns of one session with the same created_at"
    assert len(sessions) >= 24 and 15 <= len(sessions["S-00912"]) <= 25
    intent = {v: sum(meta[t]["verdict"] == v for t in meta) for v in verdicts}
    assert 0.55 <= intent[KEPT] / len(turns) <= 0.65, intent
    assert all(n >= 15 for n in intent.values()), intent
    assert sum("note" in r for r in meta.values()) >= 130, "too few golden labels"
    assert 1 <= sum(t["prompt_id"] is None for t in turns) <= 10, "prompt_id null: 1 to 10 turns"
    tags = [(tag, tid) for tid, r in meta.items() for tag in r.get("tags", [])]
    for tag in {tag for tag, _ in tags} - set(shared["situations"]):
        raise AssertionError(f"tag {tag} is not in demo.yaml's situations")
    for tag in shared["situations"]:
        need = 1 if tag in shared["optional_situations"] else 2
        assert sum(x == tag for x, _ in tags) >= need, tag
    for tag, tid in tags:
        assert tag not in shared["rule_limit_tags"] or meta[tid]["verdict"] == KEPT, tid
        text = meta[tid]["reply"]
        assert tag != "english_only" or not any("가" <= ch <= "힣" for ch in text), tid
        assert tag != "empty" or text == "", tid
    return sessions, intent


def row(*cells):
    """A Markdown table row."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def readme(shared, cards, turns, meta, lex, labels, sessions, intent):
    """demo.yaml's README template with its counts and tables filled in."""
    by_tag = {}
    for t in turns:
        for tag in meta[t["turn_id"]].get("tags", []):
            by_tag.setdefault(tag, []).append(t["turn_id"])
    pids = {}
    for t in turns:
        if t["prompt_id"]:
            pids.setdefault(t["prompt_id"], set()).add(t["model_id"])
    card_rows = [
        row(
            *(c[k] for k in ("character_id", "name", "persona")),
            f"{c['honorific_rule']} · {c['first_person']}",
            ", ".join(c["canon_entities"]),
            ", ".join(c["forbidden_topics"]),
            "yes" if c["is_public"] else "no",
        )
        for c in cards
    ]
    session_rows = [
        row(
            sid,
            ts[0]["character_id"],
            ", ".join(sorted({t["model_id"] for t in ts})),
            ts[0]["created_at"],
            len(ts),
            ", ".join(sorted({t["prompt_id"].rsplit("-", 1)[0] for t in ts if t["prompt_id"]}))
            or "-",
        )
        for sid, ts in sorted(sessions.items(), key=lambda s: (s[1][0]["created_at"], s[0]))
    ]
    labelled = {v: sum(lv == v for _, lv, _ in labels) for v in shared["verdicts"]}
    limit = set(shared["rule_limit_tags"])
    reply = {t["turn_id"]: t["reply_text"] for t in turns}
    weeks = sorted({parse_ts(t["created_at"]).isocalendar()[1] for t in turns})
    return shared["readme"].format(
        characters=len(cards),
        lexicon_rows=len(lex),
        lexicon_terms=len({term for term, _, _ in lex}),
        lexicon_topics=len({topic for _, topic, _ in lex}),
        turns=len(turns),
        sessions=len(sessions),
        labels=len(labels),
        card_rows="\n".join(card_rows),
        shared_prompts=sum(ms == set(shared["models"]) for ms in pids.values()),
        s912_turns=len(sessions["S-00912"]),
        weeks=", ".join(str(w) for w in weeks),
        session_rows="\n".join(session_rows),
        verdict_rows="\n".join(row(v, intent[v], labelled[v]) for v in intent),
        rule_limit=", ".join(sorted(t for t in meta if limit & set(meta[t].get("tags", [])))),
        english_only=", ".join(by_tag.get("english_only", [])),
        # the first_person-null reply that says 저도, and the named_entities-null out-of-canon one
        fp_null_je=", ".join(
            t
            for t in by_tag.get("fp_null", [])
            if meta[t]["verdict"] == "말투 어긋남" and "저도" in reply[t]
        ),
        ne_null_nasa=", ".join(
            t for t in by_tag.get("ne_null", []) if meta[t]["verdict"] == "세계관 밖 고유명사"
        ),
        jeongdang=", ".join(by_tag.get("substring_false_positive", [])),
        situation_rows="\n".join(
            row(desc, ", ".join(sorted(by_tag.get(tag, []))))
            for tag, desc in shared["situations"].items()
        ),
    )


def csv_text(header, rows):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def outputs(src=HERE):
    """{file name: text} of every file the script writes."""
    shared, characters = load(src)
    cards = [c["card"] for c in characters]
    turns, meta = build(shared, characters)
    terms = [(term, lx["topic"]) for lx in shared["lexicon"] for term in lx["terms"]]
    lex = [(term, topic, n) for n, (term, topic) in enumerate(terms, 1)]
    sessions, intent = check(shared, cards, turns, meta, lex)
    labels = sorted((tid, r["verdict"], r["note"]) for tid, r in meta.items() if "note" in r)

    def jsonl(rows):
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)

    return {
        "character_card.jsonl": jsonl(cards),
        "topic_lexicon.csv": csv_text(["term", "topic", "term_order"], lex),
        "chat_turn.jsonl": jsonl(turns),
        "golden_labels.csv": csv_text(["turn_id", "expected_verdict", "note"], labels),
        "README.md": readme(shared, cards, turns, meta, lex, labels, sessions, intent),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: data/demo)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in outputs().items():
        (args.out / name).write_text(text, encoding="utf-8", newline="\n")
        print(f"{name}: {len(text.splitlines())} lines")


if __name__ == "__main__":
    main()
