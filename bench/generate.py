"""Deterministic synthetic inputs for card_keeper benchmarks (docs/rules.md#input-contract).

    python bench/generate.py --turns N --terms M --characters K --seed S \
        --format {jsonl,csv,parquet} --mix {typical,deviant} --out DIR

writes DIR/chat_turn.<ext>, DIR/character_card.<ext>, DIR/topic_lexicon.<ext>.
Same arguments => byte-identical files. Columns are built vectorised (numpy index draws over
pools of Korean fragments from bench/fragments.py, joined with pyarrow.compute) and written by
pyarrow (Parquet) or DuckDB COPY from the Arrow table (JSON Lines, CSV).

Shape of the data (what a real log of the product looks like):
- sessions of 10-30 turns, each on one character and one model; sessions come in triplets that
  replay the same prompts (same prompt_id and user_message) on the three model_ids
  claude-sonnet / gpt-4o-mini / whif-solar-ft (70 %) or are independent (prompt_id null);
- replies of 1-5 sentences in the register the card asks for, or (per model, 10-18 %) the
  opposite one, with names from the card's canon or (per model, 12-23 %) from anywhere, a lexicon
  term in ~9 % of replies (forbidden topics over-represented), recall questions in ~5 % of turns;
- edge cases of the rules (docs/rules.md#tone): ~ emoji quotes … full-width ？！．,
  합니까/습니까, 필요., 아니다., a trailing parenthetical, English-only and empty replies,
  null first_person / named_entities / honorific_level / user_message / user_asked_recall.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import fragments as F

# The input contract's column orders, shared with the baseline and the tests.
from python_udfs.contract import CHARACTER_CARD_COLUMNS as CARD_COLUMNS
from python_udfs.contract import CHAT_TURN_COLUMNS

MODELS = ["claude-sonnet", "gpt-4o-mini", "whif-solar-ft"]
# The mixes (--mix): per model, P(reply keeps the card's register) and P(a name is drawn from
# outside the canon); P(first / second name sentence); P(second / third plain sentence).
# `typical` is a real log (10-18 % register breaks); `deviant` is a model gone wrong: about 60 %
# register breaks, three to five sentences (~50 characters), about one name a turn, many of them
# off-canon. Either mix makes the same draws in the same order.
MIXES = {
    "typical": {
        "keep": np.array([0.90, 0.86, 0.82]),
        "off": np.array([0.12, 0.17, 0.23]),
        "names": (0.45, 0.12),
        "plain": (0.6, 0.25),
    },
    "deviant": {
        "keep": np.array([0.45, 0.40, 0.35]),
        "off": np.array([0.45, 0.55, 0.65]),
        "names": (0.85, 0.15),
        "plain": (1.0, 0.75),
    },
}
REG_WORD = ["반말", "존댓말"]
ROLE_TYPE = pa.struct([("role", pa.string()), ("entity", pa.string())])
BASE_TIME = np.datetime64("2025-03-01T00:00:00", "s")


# --------------------------------------------------------------------------- helpers
def _has_batchim(word: str) -> bool:
    ch = word[-1]
    return "\uac00" <= ch <= "\ud7a3" and (ord(ch) - 0xAC00) % 28 != 0


def _split_comp(comp: str):
    """'어?' -> ('어', True); '다' -> ('다', False)."""
    return (comp[:-1], True) if comp.endswith("?") else (comp, False)


def _weighted(rng, n, weights):
    cum = np.cumsum(np.asarray(weights, dtype=np.float64))
    return np.searchsorted(cum, rng.random(n) * cum[-1], side="right")


def _take(pool: pa.Array, idx: np.ndarray) -> pa.Array:
    return pool.take(pa.array(idx, type=pa.int64()))


def _ids(prefix: str, nums: np.ndarray, width: int) -> pa.Array:
    s = pc.utf8_lpad(pc.cast(pa.array(nums, type=pa.int64()), pa.string()), width, "0")
    return pc.binary_join_element_wise(pa.scalar(prefix), s, pa.scalar(""))


def _null_where(arr: pa.Array, mask: np.ndarray) -> pa.Array:
    """Null out arr where mask is True."""
    return pc.if_else(pa.array(~mask), arr, pa.nulls(len(arr), arr.type))


class SentencePool:
    """Flattened sentence variants of both registers: index = where(reg==0, b, nb + j)."""

    def __init__(self, variants_b, variants_j):
        self.nb, self.nj = len(variants_b), len(variants_j)
        self.text = pa.array([t for t, _ in variants_b] + [t for t, _ in variants_j])
        self.q = np.array([q for _, q in variants_b] + [q for _, q in variants_j])

    def draw(self, rng, reg: np.ndarray) -> np.ndarray:
        n = len(reg)
        return np.where(
            reg == 0, rng.integers(0, self.nb, n), self.nb + rng.integers(0, self.nj, n)
        )


PUNCT = pa.array([p for p, _ in F.S_PUNCT] + [p for p, _ in F.Q_PUNCT])
N_SPUNCT = len(F.S_PUNCT)


def _punct(rng, is_q: np.ndarray) -> pa.Array:
    n = len(is_q)
    s = _weighted(rng, n, [w for _, w in F.S_PUNCT])
    q = N_SPUNCT + _weighted(rng, n, [w for _, w in F.Q_PUNCT])
    return _take(PUNCT, np.where(is_q, q, s))


def _sentence(rng, pool: SentencePool, reg: np.ndarray, present: np.ndarray) -> pa.Array:
    idx = pool.draw(rng, reg)
    s = pc.binary_join_element_wise(_take(pool.text, idx), _punct(rng, pool.q[idx]), pa.scalar(""))
    return _null_where(s, ~present)


# --------------------------------------------------------------------------- pools
def _plain_pool():
    vb, vj = [], []
    for stem_b, comps_b, stem_j, comps_j in F.STEMS:
        stem_j = stem_b if stem_j is None else stem_j
        for c in comps_b:
            t, q = _split_comp(c)
            vb.append((stem_b + t, q))
        for c in comps_j:
            t, q = _split_comp(c)
            vj.append((stem_j + t, q))
    return SentencePool(vb, vj)


NAMES = F.PERSON_NAMES + F.PLACE_NAMES
IS_PLACE = np.array([False] * len(F.PERSON_NAMES) + [True] * len(F.PLACE_NAMES))
NAME_VARIANTS = 12  # 6 predicates x 2 completions, per register


def _name_pools():
    """text[n*12+k] for 반말 (first block) and 존댓말 (second block); q flags alongside."""
    tb, qb, tj, qj = [], [], [], []
    for name, place in zip(NAMES, IS_PLACE, strict=True):
        preds = F.PLACE_PREDS if place else F.PERSON_PREDS
        head = name if place else name + ("이 " if _has_batchim(name) else "가 ")
        for stem, cb, cj in preds:
            for c in cb:
                t, q = _split_comp(c)
                tb.append(head + stem + t)
                qb.append(q)
            for c in cj:
                t, q = _split_comp(c)
                tj.append(head + stem + t)
                qj.append(q)
    return pa.array(tb + tj), np.array(qb + qj)


def _term_frames():
    before, after, q = [], [], []
    for reg in (0, 1):
        for b, a, cb, cj in F.TERM_FRAMES:
            for c in cb if reg == 0 else cj:
                t, isq = _split_comp(c)
                before.append(b)
                after.append(a + t)
                q.append(isq)
    nb = sum(len(cb) for _, _, cb, _ in F.TERM_FRAMES)
    return pa.array(before), pa.array(after), np.array(q), nb, len(before) - nb


def _reply_text_blocks() -> str:
    """All fixed text a reply can contain (used to keep lexicon terms out of template text)."""
    pool = _plain_pool()
    names, _ = _name_pools()
    fb, fa, _, _, _ = _term_frames()
    parts = pool.text.to_pylist() + names.to_pylist() + fb.to_pylist() + fa.to_pylist()
    parts += F.FORGET_B + F.FORGET_J + F.ENGLISH_REPLIES + [p for p, _ in F.S_PUNCT + F.Q_PUNCT]
    parts += F.ROLES_PERSON + F.ROLES_PLACE
    return "\n".join(parts)


# --------------------------------------------------------------------------- cards
def build_cards(rng, k: int):
    n_person, n_place = len(F.PERSON_NAMES), len(F.PLACE_NAMES)
    topics = list(F.TOPICS)
    rows = {c: [] for c in CARD_COLUMNS}
    canon_mat = np.zeros((k, 10), dtype=np.int64)
    canon_n = np.zeros(k, dtype=np.int64)
    role_mat = np.zeros((k, 4), dtype=np.int64)  # index into ROLE_STRS
    role_ent = np.zeros((k, 4), dtype=np.int64)  # index into NAMES
    role_n = np.zeros(k, dtype=np.int64)
    forb_mat = np.zeros((k, 3), dtype=np.int64)
    forb_n = np.zeros(k, dtype=np.int64)
    reg = np.zeros(k, dtype=np.int64)
    fp = []
    role_strs = F.ROLES_PERSON + F.ROLES_PLACE
    used_names = set()
    for i in range(k):
        r = int(rng.random() < 0.5)
        adj = F.PERSONA_ADJ[rng.integers(len(F.PERSONA_ADJ))]
        job = F.PERSONA_JOB[rng.integers(len(F.PERSONA_JOB))]
        persons = list(rng.choice(n_person, size=int(rng.integers(2, 7)), replace=False))
        places = list(n_person + rng.choice(n_place, size=int(rng.integers(2, 5)), replace=False))
        forb = sorted(rng.choice(len(topics), size=int(rng.integers(1, 4)), replace=False).tolist())
        if (
            i == 0
        ):  # the seed's CHR-0001: 무뚝뚝한 반말 교관, canon 검술원/하늘, 동생 -> 하늘, no 현실 정치
            r, adj, job = 0, "무뚝뚝한", "교관"
            sky, school = NAMES.index("하늘"), NAMES.index("검술원")
            persons = [sky] + [p for p in persons if p != sky]
            places = [school] + [p for p in places if p != school]
            forb = sorted(set(forb[:2]) | {topics.index("현실 정치")})
        elif i == 1:  # the seed's CHR-0002: 다정한 존댓말 바리스타
            r, adj, job = 1, "다정한", "바리스타"
        canon = persons + places
        canon = canon[:10]
        u = rng.random()
        if r == 0:
            first = "나" if u < 0.92 else ("이 몸" if u < 0.96 else "본좌")
        else:
            first = "저" if u < 0.92 else "소인"
        if i == 0:
            first = "나"
        # entity_roles: mostly person roles pointing at canon persons
        nr = int(rng.integers(2, 5))
        prole = list(rng.choice(len(F.ROLES_PERSON), size=len(F.ROLES_PERSON), replace=False))
        plrole = list(rng.choice(len(F.ROLES_PLACE), size=len(F.ROLES_PLACE), replace=False))
        roles = []
        for _ in range(nr):
            if (rng.random() < 0.75 or not plrole) and prole:
                roles.append((prole.pop(0), persons[int(rng.integers(len(persons)))]))
            else:
                roles.append(
                    (len(F.ROLES_PERSON) + plrole.pop(0), places[int(rng.integers(len(places)))])
                )
        if i == 0:
            roles[0] = (F.ROLES_PERSON.index("동생"), NAMES.index("하늘"))
            roles = [roles[0]] + [x for x in roles[1:] if x[0] != roles[0][0]]
        while True:
            name = F.SURNAMES[rng.integers(len(F.SURNAMES))] + F.GIVEN[rng.integers(len(F.GIVEN))]
            if name not in used_names or len(used_names) >= len(F.SURNAMES) * len(F.GIVEN):
                break
        used_names.add(name)
        rows["character_id"].append(f"CHR-{i + 1:04d}")
        rows["name"].append(name)
        rows["persona"].append(f"{adj} {REG_WORD[r]} {job}")
        rows["honorific_rule"].append(REG_WORD[r])
        rows["first_person"].append(first)
        rows["canon_entities"].append([NAMES[c] for c in canon])
        rows["forbidden_topics"].append([topics[t] for t in forb])
        rows["entity_roles"].append([{"role": role_strs[a], "entity": NAMES[b]} for a, b in roles])
        rows["is_public"].append(bool(i == 0 or rng.random() < 0.3))
        canon_mat[i, : len(canon)] = canon
        canon_n[i] = len(canon)
        role_mat[i, : len(roles)] = [a for a, _ in roles]
        role_ent[i, : len(roles)] = [b for _, b in roles]
        role_n[i] = len(roles)
        forb_mat[i, : len(forb)] = forb
        forb_n[i] = len(forb)
        reg[i] = r
        fp.append(first)
    table = pa.table(
        {
            "character_id": pa.array(rows["character_id"]),
            "name": pa.array(rows["name"]),
            "persona": pa.array(rows["persona"]),
            "honorific_rule": pa.array(rows["honorific_rule"]),
            "first_person": pa.array(rows["first_person"]),
            "canon_entities": pa.array(rows["canon_entities"], type=pa.list_(pa.string())),
            "forbidden_topics": pa.array(rows["forbidden_topics"], type=pa.list_(pa.string())),
            "entity_roles": pa.array(rows["entity_roles"], type=pa.list_(ROLE_TYPE)),
            "is_public": pa.array(rows["is_public"], type=pa.bool_()),
        }
    )
    meta = dict(
        canon_mat=canon_mat,
        canon_n=canon_n,
        role_mat=role_mat,
        role_ent=role_ent,
        role_n=role_n,
        forb_mat=forb_mat,
        forb_n=forb_n,
        reg=reg,
        fp=fp,
        role_strs=role_strs,
    )
    return table, meta


# --------------------------------------------------------------------------- lexicon
def build_lexicon(rng, m: int):
    topics = list(F.TOPICS)
    blocked = _reply_text_blocks()
    seen_terms = {}
    rows = []  # (term, topic_id, weight)

    def add(term, t, w):
        if term in blocked:
            return
        if (term, t) in seen_terms:
            return
        seen_terms[(term, t)] = True
        rows.append((term, t, w))

    # 1. base words, round-robin across topics (a lexicon lists its core words first)
    base = [(w, topics.index(t)) for t in topics for w in F.TOPICS[t]]
    order = rng.permutation(len(base))
    for i in order:
        add(base[i][0], base[i][1], 20.0)
    n_base = len(rows)
    # 2. compounds and 3. coinages, shuffled together
    extra = []
    for w, t in base:
        stem = w.replace(" ", "")
        for s in F.TERM_SUFFIXES:
            extra.append((stem + s, t, 2.0))
        for p in F.TERM_PREFIXES:
            extra.append((p + stem, t, 2.0))
    need = max(0, m - n_base - len(extra)) + m // 10 + 16
    syl = F.COIN_SYLLABLES
    a = rng.integers(0, len(syl), (need, 2))
    b = rng.integers(0, len(base), need)
    for (x, y), bi in zip(a, b, strict=True):
        extra.append((syl[x] + syl[y] + base[bi][0].replace(" ", ""), base[bi][1], 1.0))
    for i in rng.permutation(len(extra)):
        if len(rows) >= m:
            break
        add(*extra[i])
    while len(rows) < m:  # large M: three-syllable coinages until the lexicon is full
        x = rng.integers(0, len(syl), 3)
        bi = int(rng.integers(len(base)))
        add(syl[x[0]] + syl[x[1]] + syl[x[2]] + base[bi][0].replace(" ", ""), base[bi][1], 1.0)
    # some existing compound terms listed a second time under another topic
    rows = rows[:m]
    n_dup = 0 if m < 40 else max(1, m // 100)
    for _ in range(n_dup):
        src = (
            int(rng.integers(n_base, len(rows)))
            if len(rows) > n_base
            else int(rng.integers(len(rows)))
        )
        term, t, w = rows[src]
        t2 = int((t + 1 + rng.integers(len(topics) - 1)) % len(topics))
        if (term, t2) in seen_terms:
            continue
        seen_terms[(term, t2)] = True
        pos = int(rng.integers(src + 1, len(rows) + 1))
        rows.insert(pos, (term, t2, w))
    rows = rows[:m]
    table = pa.table(
        {
            "term": pa.array([r[0] for r in rows]),
            "topic": pa.array([topics[r[1]] for r in rows]),
            "term_order": pa.array(np.arange(1, len(rows) + 1), type=pa.int64()),
        }
    )
    meta = dict(
        term=table.column("term").combine_chunks(),
        topic_id=np.array([r[1] for r in rows], dtype=np.int64),
        weight=np.array([r[2] for r in rows], dtype=np.float64),
        n_topics=len(topics),
    )
    return table, meta


def _draw_terms(rng, lex, n, forced_topic: np.ndarray) -> np.ndarray:
    """Row indices of lexicon terms; forced_topic >= 0 draws from that topic if it has rows."""
    cum = np.cumsum(lex["weight"])
    out = np.searchsorted(cum, rng.random(n) * cum[-1], side="right")
    r = rng.random(n)
    for t in range(lex["n_topics"]):
        sel = np.nonzero(forced_topic == t)[0]
        rows_t = np.nonzero(lex["topic_id"] == t)[0]
        if len(sel) == 0 or len(rows_t) == 0:
            continue
        ct = np.cumsum(lex["weight"][rows_t])
        out[sel] = rows_t[np.searchsorted(ct, r[sel] * ct[-1], side="right")]
    return np.minimum(out, len(cum) - 1)


# --------------------------------------------------------------------------- turns
def build_turns(rng, n: int, cards, lex, mix: dict):
    k = len(cards["reg"])
    # ---- sessions: triplets replaying one prompt script on the three models
    n_tri = max(1, int(np.ceil(n / (3 * 20) * 1.15)) + 2)
    while True:
        tri_len = rng.integers(10, 31, n_tri)
        if 3 * tri_len.sum() >= n:
            break
        n_tri *= 2
    pop = 1.0 / (np.arange(k) + 3.0) ** 0.8
    tri_char = _weighted(rng, n_tri, pop)
    tri_shared = rng.random(n_tri) < 0.7
    tri_start = rng.integers(0, 120 * 86400, n_tri)
    # session s = 3*t + model
    n_sess = 3 * n_tri
    s_tri = np.repeat(np.arange(n_tri), 3)
    s_model = np.tile(np.arange(3), n_tri)
    s_len = tri_len[s_tri].copy()
    cut = (rng.random(n_sess) < 0.04) & tri_shared[s_tri]  # a model that stopped early
    s_len[cut] = np.maximum(3, s_len[cut] - rng.integers(1, 8, cut.sum()))
    s_char = np.where(tri_shared[s_tri], tri_char[s_tri], _weighted(rng, n_sess, pop))
    s_start = tri_start[s_tri] + rng.integers(0, 1800, n_sess)
    # turns in generation order (session-major), cut to exactly n
    s_off = np.concatenate([[0], np.cumsum(s_len)])
    total = int(s_off[-1])
    t_sess = np.repeat(np.arange(n_sess), s_len)[:n]
    t_pos = (np.arange(total) - np.repeat(s_off[:-1], s_len))[:n]
    char = s_char[t_sess]
    model = s_model[t_sess]
    # created_at: session start + cumulative gaps (1 % zero gaps => ties inside a session)
    gap = rng.integers(20, 900, n)
    gap[rng.random(n) < 0.01] = 0
    gap[t_pos == 0] = 0
    csum = np.cumsum(gap)
    first_idx = np.nonzero(t_pos == 0)[0]
    base = np.repeat(csum[first_idx], np.diff(np.append(first_idx, n)))
    secs = s_start[t_sess] + (csum - base)
    # ---- prompt-level values (shared across a triplet when shared)
    tri_off = np.concatenate([[0], np.cumsum(tri_len)])
    shared = tri_shared[s_tri[t_sess]]
    key = np.where(shared, tri_off[s_tri[t_sess]] + t_pos, tri_off[-1] + np.arange(n))
    n_keys = int(tri_off[-1]) + n
    k_recall_u = rng.random(n_keys)
    k_line = rng.integers(0, len(F.USER_LINES), n_keys)
    k_tmpl = rng.integers(0, len(F.RECALL_TEMPLATES), n_keys)
    k_norole = rng.integers(0, len(F.RECALL_NO_ROLE), n_keys)
    k_role_u = rng.random(n_keys)
    k_has_role = rng.random(n_keys) < 0.85
    k_msg_null = rng.random(n_keys) < 0.01
    recall_u = k_recall_u[key]
    asked = recall_u < 0.05
    recall_null = (recall_u >= 0.05) & (recall_u < 0.13)
    role_slot = np.minimum(
        (k_role_u[key] * cards["role_n"][char]).astype(np.int64), cards["role_n"][char] - 1
    )
    role_id = cards["role_mat"][char, role_slot]
    role_entity = cards["role_ent"][char, role_slot]
    has_role = asked & k_has_role[key]
    role_strs = pa.array(cards["role_strs"])
    tmpl_pre = pa.array([a for a, _ in F.RECALL_TEMPLATES])
    tmpl_post = pa.array([b for _, b in F.RECALL_TEMPLATES])
    recall_msg = pc.binary_join_element_wise(
        _take(tmpl_pre, k_tmpl[key]),
        _take(role_strs, role_id),
        _take(tmpl_post, k_tmpl[key]),
        pa.scalar(""),
    )
    user_message = pc.if_else(
        pa.array(has_role),
        recall_msg,
        pc.if_else(
            pa.array(asked),
            _take(pa.array(F.RECALL_NO_ROLE), k_norole[key]),
            _take(pa.array(F.USER_LINES), k_line[key]),
        ),
    )
    user_message = _null_where(user_message, k_msg_null[key])
    has_role &= ~k_msg_null[key]
    user_asked_recall = _null_where(pa.array(asked), recall_null)

    # ---- register and first person
    card_reg = cards["reg"][char]
    keep = rng.random(n) < mix["keep"][model]
    reg = np.where(keep, card_reg, 1 - card_reg)
    fp_pool = ["나", "저", "이 몸", "본좌", "소인"]
    card_fp = np.array([fp_pool.index(x) for x in cards["fp"]])[char]
    fp_idx = np.where(keep, card_fp, reg)  # 0 = 나, 1 = 저
    slip = rng.random(n) < 0.03
    fp_idx = np.where(slip, 1 - reg, fp_idx)
    fp_null = rng.random(n) < 0.05

    def slot_reg():
        return np.where(rng.random(n) < 0.04, 1 - reg, reg)

    # ---- names
    canon_n = cards["canon_n"][char]
    role_n = cards["role_n"][char]

    def draw_name(p_off):
        canon = cards["canon_mat"][
            char, np.minimum((rng.random(n) * canon_n).astype(np.int64), canon_n - 1)
        ]
        # characters talk about the people in their entity_roles more than about the rest
        rslot = np.minimum((rng.random(n) * role_n).astype(np.int64), role_n - 1)
        canon = np.where(rng.random(n) < 0.3, cards["role_ent"][char, rslot], canon)
        anyn = rng.integers(0, len(NAMES), n)
        return np.where(rng.random(n) < p_off, anyn, canon)

    p_off = mix["off"][model]
    name1 = draw_name(p_off)
    name2 = draw_name(p_off)
    has1 = rng.random(n) < mix["names"][0]
    has2 = rng.random(n) < mix["names"][1]
    # recall replies: remember (mention the asked entity) or forget (echo the role, no name)
    remember = has_role & (rng.random(n) < 0.4)
    forget = has_role & ~remember
    name1 = np.where(remember, role_entity, name1)
    has1 |= remember
    has2 &= ~forget
    has1 &= ~forget | (rng.random(n) < 0.3)
    name1_first = rng.random(n) < 0.4

    name_text, name_q = _name_pools()
    nb_names = len(NAMES) * NAME_VARIANTS

    def name_sentence(names, present):
        r = slot_reg()
        idx = (
            names * NAME_VARIANTS
            + rng.integers(0, NAME_VARIANTS, n)
            + np.where(r == 1, nb_names, 0)
        )
        s = pc.binary_join_element_wise(
            _take(name_text, idx), _punct(rng, name_q[idx]), pa.scalar("")
        )
        return _null_where(s, ~present)

    ns1 = name_sentence(name1, has1)
    ns2 = name_sentence(name2, has2)

    # ---- plain sentences
    plain = _plain_pool()
    p1 = _sentence(rng, plain, slot_reg(), np.ones(n, dtype=bool))
    p2 = _sentence(rng, plain, slot_reg(), rng.random(n) < mix["plain"][0])
    p3 = _sentence(rng, plain, slot_reg(), rng.random(n) < mix["plain"][1])
    quote = rng.random(n) < 0.03
    p2 = pc.if_else(
        pa.array(quote),
        pc.binary_join_element_wise(pa.scalar('"'), p2, pa.scalar('"'), pa.scalar("")),
        p2,
    )

    # ---- lexicon terms
    has_term = rng.random(n) < 0.09
    forced = rng.random(n) < 0.3
    fslot = np.minimum(
        (rng.random(n) * cards["forb_n"][char]).astype(np.int64), cards["forb_n"][char] - 1
    )
    forced_topic = np.where(forced, cards["forb_mat"][char, fslot], -1)
    fb, fa, fq, fnb, fnj = _term_frames()

    def term_sentence(present, forced_topic):
        rows = _draw_terms(rng, lex, n, forced_topic)
        r = slot_reg()
        fi = np.where(r == 0, rng.integers(0, fnb, n), fnb + rng.integers(0, fnj, n))
        s = pc.binary_join_element_wise(
            _take(fb, fi),
            _take(lex["term"], rows),
            _take(fa, fi),
            _punct(rng, fq[fi]),
            pa.scalar(""),
        )
        return _null_where(s, ~present)

    ts1 = term_sentence(has_term, forced_topic)
    ts2 = term_sentence(rng.random(n) < 0.015, np.full(n, -1))

    # ---- forgetful recall sentence: "동생? 글쎄, ..."
    fg_pool = pa.array(F.FORGET_B + F.FORGET_J)
    fr = slot_reg()
    fgi = np.where(
        fr == 0,
        rng.integers(0, len(F.FORGET_B), n),
        len(F.FORGET_B) + rng.integers(0, len(F.FORGET_J), n),
    )
    fg = pc.binary_join_element_wise(
        _take(role_strs, role_id),
        pa.scalar("? "),
        _take(fg_pool, fgi),
        _punct(rng, np.zeros(n, dtype=bool)),
        pa.scalar(""),
    )
    fg = _null_where(fg, ~forget)

    ns1_a = _null_where(ns1, ~name1_first)
    ns1_c = _null_where(ns1, name1_first)
    reply = pc.binary_join_element_wise(
        fg, ns1_a, p1, ns1_c, ts2, p2, ts1, ns2, p3, pa.scalar(" "), null_handling="skip"
    )
    # English-only and empty replies
    special = rng.random(n)
    english = special < 0.01
    empty = (special >= 0.01) & (special < 0.014)
    reply = pc.if_else(
        pa.array(english),
        _take(pa.array(F.ENGLISH_REPLIES), rng.integers(0, len(F.ENGLISH_REPLIES), n)),
        reply,
    )
    reply = pc.if_else(pa.array(empty), pa.scalar(""), reply)
    has1 &= ~(english | empty)
    has2 &= ~(english | empty)
    fp_null |= (english | empty) & (rng.random(n) < 0.8)

    # ---- named_entities: the names inserted, in order of appearance; null ~3 %
    cnt = has1.astype(np.int64) + has2.astype(np.int64)
    offsets = np.concatenate([[0], np.cumsum(cnt)]).astype(np.int32)
    pair = np.stack([name1, name2], axis=1)
    values = pair[np.stack([has1, has2], axis=1)]
    ne_null = rng.random(n) < 0.03
    named_entities = pa.ListArray.from_arrays(
        pa.array(offsets), _take(pa.array(NAMES), values), mask=pa.array(ne_null)
    )

    # ---- honorific_level: the server's reference value, sometimes wrong, sometimes null
    hl = np.where(rng.random(n) < 0.07, 1 - reg, reg)
    honorific_level = _null_where(_take(pa.array(REG_WORD), hl), rng.random(n) < 0.05)
    first_person = _null_where(_take(pa.array(fp_pool), fp_idx), fp_null)

    # ---- order by time, assign ids
    order = np.lexsort((t_pos, t_sess, secs))
    width = max(6, len(str(n)))
    created = (BASE_TIME + secs.astype("timedelta64[s]")).astype("datetime64[us]")
    prompt_id = _null_where(_ids("P-", key, max(7, len(str(n_keys)))), ~shared)
    cols = {
        "turn_id": None,
        "session_id": _ids("S-", t_sess + 1, max(5, len(str(n_sess)))),
        "character_id": _ids("CHR-", char + 1, 4),
        "model_id": _take(pa.array(MODELS), model),
        "created_at": pa.array(created, type=pa.timestamp("us")),
        "prompt_id": prompt_id,
        "user_message": user_message,
        "reply_text": reply,
        "first_person": first_person,
        "named_entities": named_entities,
        "honorific_level": honorific_level,
        "user_asked_recall": user_asked_recall,
    }
    oi = pa.array(order, type=pa.int64())
    out = {c: (v.take(oi) if v is not None else None) for c, v in cols.items()}
    out["turn_id"] = _ids("T-", np.arange(1, n + 1), width)
    return pa.table({c: out[c] for c in CHAT_TURN_COLUMNS})


# --------------------------------------------------------------------------- writers
def write_table(table: pa.Table, path: str, fmt: str) -> None:
    if fmt == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, path, compression="zstd")
        return
    import duckdb

    con = duckdb.connect()
    con.register("src", table)
    if fmt == "jsonl":
        con.execute(f"COPY (SELECT * FROM src) TO '{path}' (FORMAT json)")
    elif fmt == "csv":
        sel = []
        for f in table.schema:
            if pa.types.is_list(f.type):
                sel.append(f'to_json("{f.name}")::VARCHAR AS "{f.name}"')
            else:
                sel.append(f'"{f.name}"')
        con.execute(
            f"COPY (SELECT {', '.join(sel)} FROM src) TO '{path}' (FORMAT csv, HEADER true)"
        )
    else:
        raise ValueError(fmt)
    con.close()


def generate(turns: int, terms: int, characters: int, seed: int, mix: str = "typical"):
    rng = np.random.default_rng(seed)
    cards_t, cards = build_cards(rng, characters)
    lex_t, lex = build_lexicon(rng, terms)
    turns_t = build_turns(rng, turns, cards, lex, MIXES[mix])
    return turns_t, cards_t, lex_t


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--turns", type=int, required=True)
    ap.add_argument("--terms", type=int, default=500)
    ap.add_argument("--characters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--format", choices=["jsonl", "csv", "parquet"], default="jsonl")
    ap.add_argument("--mix", choices=sorted(MIXES), default="typical")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    if a.turns < 1 or a.terms < 1 or a.characters < 2:
        ap.error("--turns and --terms must be >= 1, --characters >= 2")
    t0 = time.perf_counter()
    turns_t, cards_t, lex_t = generate(a.turns, a.terms, a.characters, a.seed, a.mix)
    t1 = time.perf_counter()
    os.makedirs(a.out, exist_ok=True)
    for name, t in (("chat_turn", turns_t), ("character_card", cards_t), ("topic_lexicon", lex_t)):
        write_table(t, os.path.join(a.out, f"{name}.{a.format}"), a.format)
    t2 = time.perf_counter()
    print(
        f"generated {turns_t.num_rows} turns, {cards_t.num_rows} cards, "
        f"{lex_t.num_rows} lexicon rows "
        f"in {t1 - t0:.2f}s; wrote {a.format} in {t2 - t1:.2f}s -> {a.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
