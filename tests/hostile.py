"""Hypothesis strategies of hostile input (issue 26), shared by tests/engine/test_inputs.py and
tests/ha/test_fuzz_doors.py: what a careless automation, a confused model or a hostile client may
hand a door — values of the wrong type, numbers past every store's integers, NaN, text past a
limit or that no store can hold.

Each `bad_*` strategy draws only values its kind of field must refuse; `anything` draws every
sort of value (valid or not) for doors whose own schemas decide.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

# One megabyte of each text shape the issue saw stored or searched.
MEGABYTE = 1_000_000
_UNITS = ("a", "a ", "HX-4471 ", "記憶", "😀", "\u200b")


def long_text(more_than: int, big: int = MEGABYTE) -> st.SearchStrategy[str]:
    """Text longer than `more_than` characters: just past it, or `big` characters (a megabyte;
    cheap to draw: a repeated unit)."""
    return st.builds(
        lambda unit, size: (unit * (size // len(unit) + 1))[:size],
        st.sampled_from(_UNITS),
        st.sampled_from([more_than + 1, more_than + 7, max(big, more_than + 8)]),
    )


# Text no store can hold: a lone surrogate (not UTF-8) or NUL (PostgreSQL's text refuses it).
unstorable_text = st.builds(
    lambda head, bad, tail: head + bad + tail,
    st.text(max_size=8),
    st.sampled_from(["\ud800", "\udfff", "\x00"]),
    st.text(max_size=8),
)
# Values that are no text (None is left out: optional fields take it).
not_text = st.one_of(
    st.binary(max_size=16),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.lists(st.text(max_size=4), max_size=3),
    st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=2),
)
# Numbers past every store's integers, and beyond.
huge_int = st.sampled_from([2**31, 2**63, 2**63 + 1, 2**64, 10**30, -(2**63) - 1])
non_finite = st.sampled_from([float("nan"), float("inf"), float("-inf")])


def bad_text(limit: int, *, optional: bool = False) -> st.SearchStrategy[Any]:
    """What a text field of at most `limit` characters must refuse (None too unless optional)."""
    bad = st.one_of(not_text, long_text(limit), unstorable_text)
    return bad if optional else st.one_of(bad, st.none())


def bad_choice(enum: type[StrEnum], *, optional: bool = False) -> st.SearchStrategy[Any]:
    """What a field of `enum`'s values must refuse: other text, other types (None too unless
    optional)."""
    values = {e.value for e in enum}
    bad = st.one_of(st.text(max_size=12).filter(lambda t: t not in values), not_text)
    return bad if optional else st.one_of(bad, st.none())


def words(max_size: int) -> st.SearchStrategy[str]:
    """Any text a store can hold (valid UTF-8, no NUL), up to max_size characters."""
    return st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=max_size)


# Numbers no store binds (sqlite3 takes int and float only): numpy's float32 and int64, a fraction.
foreign_numbers = st.sampled_from([np.float32(0.5), np.int64(5), Fraction(1, 3)])
bad_number = st.one_of(
    non_finite,
    foreign_numbers,
    st.text(max_size=6),
    st.binary(max_size=4),
    st.none(),
    st.booleans(),
    st.lists(st.floats(), max_size=2),
)


def bad_count(high: int, low: int = 0) -> st.SearchStrategy[Any]:
    """What a whole-number field of low..high must refuse."""
    return st.one_of(
        st.integers(max_value=low - 1),
        st.integers(min_value=high + 1),
        huge_int.filter(lambda n: not low <= n <= high),
        st.floats(),
        st.booleans(),
        st.text(max_size=6),
        st.none(),
        foreign_numbers,
    )


def bad_list(bad_item: st.SearchStrategy[Any], too_many: int) -> st.SearchStrategy[Any]:
    """What a list-of-ids field must refuse: a bare string, a list holding a bad item, too many."""
    return st.one_of(
        st.text(min_size=1, max_size=8),
        st.lists(bad_item, min_size=1, max_size=2),
        st.just(["x"] * (too_many + 1)),
        st.integers(),
    )


# Any value at all, for the doors' own schemas to sort out.
anything = st.one_of(
    st.none(),
    st.text(max_size=20),
    long_text(1000),
    unstorable_text,
    not_text,
    huge_int,
    non_finite,
)
