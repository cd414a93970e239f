"""Lexicon matching with one Aho-Corasick automaton per lexicon (SPEC §2 touched_term).

A reply is scanned once, whatever the lexicon's size: the cost grows with the text, not with
the number of terms, which is what keeps a 50,000-term lexicon as cheap as a 1,000-term one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import ahocorasick


class LexiconMatcher:
    """Finds which lexicon rows (by term_order) have their term inside a text as a substring."""

    def __init__(self, terms: Sequence[str], term_orders: Sequence[int]):
        orders_by_term: dict[str, list[int]] = {}
        for term, order in zip(terms, term_orders, strict=True):
            if term:
                orders_by_term.setdefault(term, []).append(int(order))
        self._automaton = ahocorasick.Automaton()
        for term, orders in orders_by_term.items():
            self._automaton.add_word(term, tuple(sorted(orders)))
        self._automaton.make_automaton()
        self._empty = not orders_by_term

    def match(self, text: str | None) -> list[int]:
        """Every term_order whose term occurs in text, ascending, each once."""
        return list(self.match_all([text])[0])

    def match_all(self, texts: Sequence[str | None]) -> list[tuple[int, ...]]:
        """match() for each text of a batch, in one tight loop: most replies hit nothing, so
        the per-reply cost is the automaton's scan and little else."""
        if self._empty:
            return [()] * len(texts)
        search = self._automaton.iter
        found: list[tuple[int, ...]] = []
        append = found.append
        for text in texts:
            hits = [orders for _, orders in search(text)] if text else []
            if not hits:
                append(())
            elif len(hits) == 1:
                append(hits[0])
            else:
                append(tuple(sorted(set().union(*hits))))
        return found


_MATCHERS: dict[str, LexiconMatcher] = {}


def lexicon_handle(terms: Sequence[str], term_orders: Sequence[int]) -> str:
    """A content hash naming one lexicon, so the same lexicon is compiled once per process."""
    digest = hashlib.sha256()
    for term, order in zip(terms, term_orders, strict=True):
        digest.update(f"{order}\x1f{term}\x1e".encode())
    return digest.hexdigest()[:16]


def prepare(terms: Sequence[str], term_orders: Sequence[int]) -> str:
    """Compile (or reuse) the automaton for a lexicon and return its handle."""
    handle = lexicon_handle(terms, term_orders)
    if handle not in _MATCHERS:
        _MATCHERS[handle] = LexiconMatcher(terms, term_orders)
    return handle


def matcher(handle: str) -> LexiconMatcher:
    try:
        return _MATCHERS[handle]
    except KeyError:
        raise LookupError(
            f"lexicon {handle!r} was not prepared in this process: call ck_lexicon_prepare first"
        ) from None
