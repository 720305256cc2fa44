"""Tokens and exact anchors of the lexical leg."""

from __future__ import annotations

import pytest

from custom_components.memory.engine.lexical import (
    Anchor,
    AnchorKind,
    conflicts,
    matched_anchors,
    query_anchors,
    shape,
    tokens,
)


class FakeFrequencies:
    """Document frequencies of a tiny corpus, counted on whole words."""

    def __init__(self, docs: list[str]) -> None:
        self.docs = [set(tokens(d)) | {p for t in tokens(d) for p in t.split("-")} for d in docs]

    def doc_count(self) -> int:
        return len(self.docs)

    def doc_frequency(self, term: str, cap: int) -> int:
        return min(cap, sum(term in d for d in self.docs))


def test_identifiers_stay_whole() -> None:
    assert tokens("Ticket HX-4471, waiting; room 12.5 at 10:30 (A12).") == [
        "ticket",
        "hx-4471",
        "waiting",
        "room",
        "12.5",
        "at",
        "10:30",
        "a12",
    ]
    assert shape("hx-4471") == shape("hx-4478") == "aa-9999" != shape("hx-44")


def test_anchor_kinds() -> None:
    corpus = FakeFrequencies(
        ["The ticket HX-4471 is open."] + [f"Ticket {n} for the plan." for n in range(200)]
    )
    anchors = query_anchors("What's the status of ticket HX-4471 and the Zwirbel plan 42?", corpus)
    assert Anchor("hx-4471", AnchorKind.IDENTIFIER) in anchors
    assert Anchor("42", AnchorKind.NUMBER) in anchors
    assert all(a.token not in ("ticket", "plan", "status", "what", "the") for a in anchors)  # common / stop
    assert Anchor("zwirbel", AnchorKind.RARE_WORD) not in anchors  # df 0: nothing to anchor to


@pytest.mark.parametrize(
    "lang_query", ["Wo ist die Lindenstraße?", "Dov'è la Lindenstraße?", "¿Dónde está Lindenstraße?"]
)
def test_rare_word_anchor_multilingual(lang_query: str) -> None:
    corpus = FakeFrequencies(
        ["Our home address is Lindenstraße 12."] + [f"Memory {n} about the house." for n in range(150)]
    )
    assert Anchor("lindenstraße", AnchorKind.RARE_WORD) in query_anchors(lang_query, corpus)


def test_matching_is_exact_on_our_tokens() -> None:
    anchors = [Anchor("hx-4471", AnchorKind.IDENTIFIER)]
    assert matched_anchors("The boiler ticket is HX-4471, waiting.", anchors) == anchors
    assert matched_anchors("Ticket HX 4471 and hx/4471", anchors) == []
    assert matched_anchors("Ticket HX-4478 was the dishwasher.", anchors) == []
    assert conflicts("Ticket HX-4478 was the dishwasher.", anchors)
    assert not conflicts("The boiler ticket is HX-4471.", anchors)
    assert not conflicts("The dishwasher is fixed.", anchors)
