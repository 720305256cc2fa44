"""Tokens and exact anchors of the lexical leg."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from custom_components.memory.engine.lexical import (
    Anchor,
    AnchorKind,
    conflicts,
    fts_phrases,
    identity_anchors,
    matched_anchors,
    normal_identifier,
    other_values,
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

    def doc_frequencies(self, terms: list[str], cap: int) -> dict[str, int]:
        return {term: min(cap, sum(term in d for d in self.docs)) for term in terms}


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
    assert Anchor("hx4471", AnchorKind.IDENTIFIER) in anchors  # normal form
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
    assert matched_anchors("Ticket hx/4471 and HX4471", anchors) == anchors  # one identifier
    assert matched_anchors("Ticket HX 44 71 and hx-447", anchors) == []
    assert matched_anchors("Ticket HX-4478 was the dishwasher.", anchors) == []
    assert conflicts("Ticket HX-4478 was the dishwasher.", anchors)
    assert not conflicts("The boiler ticket is HX-4471.", anchors)
    assert not conflicts("The dishwasher is fixed.", anchors)


@pytest.mark.parametrize("spelling", ["HX-4471", "hx4471", "HX:4471", "Hx/4471", "hx.4471"])
def test_c07_identifier_spellings_are_one_identifier(spelling: str) -> None:
    assert normal_identifier(tokens(spelling)[0]) == "hx4471"
    (anchor,) = query_anchors(f"status of {spelling}", FakeFrequencies(["Ticket HX-4471 is open."]))
    assert anchor == Anchor("hx4471", AnchorKind.IDENTIFIER)
    assert matched_anchors("The boiler ticket is HX-4471.", [anchor]) == [anchor]
    assert conflicts("Ticket HX-4478 was the dishwasher.", [anchor])
    # FTS5 splits "HX-4471" into two tokens but keeps "hx4471" whole: both are searched
    assert fts_phrases([anchor]) == ["hx 4471", "hx4471"]


def test_c07_values_keep_their_separators() -> None:
    assert normal_identifier("12.5") == "12.5" and normal_identifier("10:30") == "10:30"
    assert normal_identifier("de-20931") == "de20931" and normal_identifier("4471-hx") == "4471hx"


@pytest.mark.parametrize(
    "query", ["ticket 4471", "HX 4471", "Wie ist der Stand von 4471?", "Lo stato di 4471?"]
)
def test_c07_bare_number_matches_the_identifiers_digits(query: str) -> None:
    (anchor,) = [a for a in query_anchors(query, FakeFrequencies(["x"])) if a.kind is AnchorKind.NUMBER]
    assert anchor.token == "4471"
    assert matched_anchors("The boiler ticket is HX-4471.", [anchor]) == [anchor]
    assert conflicts("Ticket HX-4478 was the dishwasher.", [anchor])  # same digit shape, not ours
    assert not conflicts("The boiler ticket is HX-4471.", [anchor])
    assert not conflicts("Ticket HX-44 was the fridge.", [anchor])  # another shape: not a rival


@pytest.mark.parametrize(
    ("said", "translated"),
    [
        ("There were 158,349 households, 43.3% with children.", "Было 158 349 домохозяйств, 43,3% с детьми."),
        ("There were 158,349 households.", "Es gab 158.349 Haushalte."),
        ("Der Zähler steht bei 12'480.", "The meter reads 12,480."),
        ("Il y a 158\u202f349 foyers.", "There were 158,349 households."),
    ],
)
def test_a_number_grouped_as_its_language_does_is_no_other_value(said: str, translated: str) -> None:
    """Translations carry their numbers grouped and marked as their language writes them (comma,
    dot, space, thin space, apostrophe; decimal comma): the same value, so a translation is no
    text with another value (recall step 2c borrows across them)."""
    assert not other_values(said, translated)
    assert identity_anchors(said) & identity_anchors(translated)


def test_another_number_is_still_another_value() -> None:
    """The grouping is read, not ignored: 158,349 and 158.394 stay two values."""
    assert other_values("There were 158,349 households.", "Es gab 158.394 Haushalte.")


def test_the_c_stemmer_and_the_pure_python_one_give_the_same_stems() -> None:
    """snowballstemmer uses PyStemmer (C) when it is installed, else its own Python: a store's
    full-text terms written on one install must be found with the other (a backup restored on
    another machine), so both give the same stem for every word, in every stemmed language."""
    import importlib  # noqa: PLC0415

    import Stemmer  # noqa: PLC0415

    from custom_components.memory.engine.language import SNOWBALL  # noqa: PLC0415
    from tests import case_texts  # noqa: PLC0415

    said = [str(v) for v in vars(case_texts).values() if isinstance(v, (str, tuple, list, dict))]
    product = Path(case_texts.__file__).parent.parent / "custom_components" / "memory"
    said += [p.read_text(encoding="utf-8") for p in (product / "translations").glob("*.json")]
    said += [p.read_text(encoding="utf-8") for p in (product / "sentences").rglob("*.yaml")]
    words = sorted({w.casefold() for w in re.findall(r"[^\W\d_]+", " ".join(said))})
    assert len(words) > 3000
    for algorithm in sorted(set(SNOWBALL.values())):
        pure = getattr(
            importlib.import_module(f"snowballstemmer.{algorithm}_stemmer"),
            f"{algorithm.capitalize()}Stemmer",
        )()
        fast = Stemmer.Stemmer(algorithm)
        assert [w for w in words if pure.stemWord(w) != fast.stemWord(w)] == [], algorithm
