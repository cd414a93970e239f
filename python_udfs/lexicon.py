"""Lexicon matching with one Aho-Corasick automaton per lexicon (docs/rules.md#lexicon).

A reply is scanned once, whatever the lexicon's size: the cost grows with the text, not with
the number of terms, which is what keeps a 50,000-term lexicon as cheap as a 1,000-term one.
The automaton (ahocorasick_rs, in Rust) scans a whole batch of replies at once, as the UTF-8
bytes Arrow already holds: no Python object per reply, and Python's lock is released while it
runs. UTF-8 is self-synchronising, so a term's bytes can only match where the term's
characters do.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import ahocorasick_rs
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from python_udfs.arrow_text import utf8_values

MATCHES_TYPE = pa.list_(pa.int64())


class LexiconMatcher:
    """Finds which lexicon rows (by term_order) have their term inside a text as a substring."""

    def __init__(self, terms: Sequence[str], term_orders: Sequence[int]):
        orders_by_term: dict[str, list[int]] = {}
        for term, order in zip(terms, term_orders, strict=True):
            if term:
                orders_by_term.setdefault(term, []).append(int(order))
        # Pattern i of the automaton is the i-th distinct term; these are its term_orders.
        self._orders = [tuple(sorted(orders)) for orders in orders_by_term.values()]
        self._automaton = (
            ahocorasick_rs.BytesAhoCorasick([term.encode() for term in orders_by_term])
            if orders_by_term
            else None
        )

    def match(self, text: str | None) -> list[int]:
        """Every term_order whose term occurs in text, ascending, each once."""
        return self.match_all([text])[0]

    def match_all(self, texts: Sequence[str | None]) -> list[list[int]]:
        """match() for each text of a batch."""
        return self.match_arrow(pa.array(texts, pa.string())).to_pylist()

    def match_arrow(self, texts: pa.Array | pa.ChunkedArray) -> pa.Array:
        """match() for each value of an Arrow string array, as a list<int64> array; a null
        text has no terms. The batch's bytes are scanned in one pass, with every overlapping
        match reported; a match that runs from one reply into the next is dropped."""
        if isinstance(texts, pa.ChunkedArray):
            texts = texts.chunk(0) if texts.num_chunks == 1 else texts.combine_chunks()
        if texts.null_count:
            texts = pc.fill_null(texts, "")  # a null slot's bytes are unspecified
        rows = len(texts)
        found: dict[int, set[int]] = {}
        if self._automaton is not None and rows:
            offsets, data = utf8_values(texts)
            hits = self._automaton.find_matches_as_indexes(data, overlapping=True)
            if hits:
                pattern, begin, end = np.array(hits, dtype=np.int64).T
                row = np.searchsorted(offsets, begin, side="right") - 1
                inside = end <= offsets[row + 1]
                for index, row_number in zip(
                    pattern[inside].tolist(), row[inside].tolist(), strict=True
                ):
                    found.setdefault(row_number, set()).update(self._orders[index])
        counts = np.zeros(rows, dtype=np.int32)
        values: list[int] = []
        for row_number in sorted(found):
            counts[row_number] = len(found[row_number])
            values.extend(sorted(found[row_number]))
        list_offsets = np.zeros(rows + 1, dtype=np.int32)
        np.cumsum(counts, out=list_offsets[1:])
        return pa.ListArray.from_arrays(pa.array(list_offsets), pa.array(values, pa.int64()))


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
