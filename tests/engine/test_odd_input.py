"""Case C27 in the engine: odd text up to MAX_CONTENT_CHARS is stored verbatim and searched without
error, and what its cost depends on stays bounded. No wall-clock asserts (a busy 2-core CI machine):
the timings are in bench/odd_input.py and docs/benchmarks.md; here a call has to return at all
(pytest-timeout) and the per-word work is counted."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from custom_components.memory.engine import language, terms
from custom_components.memory.engine.api import MAX_CONTENT_CHARS, MemoryDraft, WriteAction
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Role, Scope, Speaker, TranscriptTurn

GUEST = Speaker(person_id=None, area_id="hall")


def fill(unit: str, size: int = MAX_CONTENT_CHARS) -> str:
    """`unit` repeated to exactly `size` characters, without a trailing space."""
    return (unit * (size // len(unit) + 1))[:size].strip()


# The worst shapes of bench/odd_input.py, at the cap.
SHAPES = {
    "one word": fill("a"),
    "one-letter words": fill("a "),
    "identifiers": fill("HX-4471 "),
    "numbers": fill("4711 "),
    "emoji": fill("😀"),
    "cjk": fill("記憶"),
    "household words": fill("the kitchen light code "),
}


@pytest.mark.parametrize("text", list(SHAPES.values()), ids=list(SHAPES))
def test_c27_worst_shapes_at_the_cap_are_stored_verbatim_and_found(engine: MemoryEngine, text: str) -> None:
    stored = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language="en"))
    assert stored.action is WriteAction.CREATED
    assert stored.memory.content == text
    assert stored.memory.id in [h.memory.id for h in engine.recall(text, GUEST)]
    assert stored.memory.id in [h.memory.id for h in engine.find_to_forget(text, GUEST)]
    again = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language="en"))
    assert (again.action, again.memory.id) == (WriteAction.MERGED, stored.memory.id)
    said = TranscriptTurn(
        conversation_id="c27", turn=0, role=Role.USER, text=text, language="en", created_at=datetime.now(UTC)
    )
    assert engine.append_turn(said) is not None
    assert [t.text for t in engine.conversation("c27")] == [text]


def test_c27_line_breaks_and_spacing_are_stored_verbatim(engine: MemoryEngine) -> None:
    """Only invisible characters at the very ends go; the same words spaced otherwise are still the
    same memory (duplicates are compared normalised, C11), and the newer wording is kept."""
    said = "\u200b The shopping list:\neggs\nmilk  (2 litres)\n"
    stored = engine.remember(MemoryDraft(said, speaker=GUEST, scope=Scope.SHARED, language="en"))
    assert stored.memory.content == "The shopping list:\neggs\nmilk  (2 litres)"
    again = engine.remember(
        MemoryDraft(
            "the shopping list: eggs, milk (2 litres)", speaker=GUEST, scope=Scope.SHARED, language="en"
        )
    )
    assert (again.action, again.memory.id) == (WriteAction.MERGED, stored.memory.id)
    (hit,) = engine.recall("shopping list", GUEST)
    assert hit.memory.content == "the shopping list: eggs, milk (2 litres)"


def test_c27_leading_punctuation_is_stored_and_searched(engine: MemoryEngine) -> None:
    stored = engine.remember(
        MemoryDraft("'); DROP TABLE memories;--", speaker=GUEST, scope=Scope.SHARED, language="en")
    )
    assert stored.memory.content == "'); DROP TABLE memories;--"
    assert [h.memory.content for h in engine.recall("DROP TABLE memories", GUEST)] == [stored.memory.content]
    assert [h.memory.id for h in engine.find_to_forget("'); DROP TABLE", GUEST)] == [stored.memory.id]
    assert engine.stats().memories == 1


@pytest.mark.parametrize("text", list(SHAPES.values()), ids=list(SHAPES))
def test_c27_a_long_query_stems_each_distinct_word_once(text: str) -> None:
    """The full-text terms of a query at the cap: the Snowball stemmer runs once per distinct word and
    language (cached), however often a word repeats. The shapes say up to 500 words, at most 4
    distinct ones: 5 languages each when the query's language is unknown, 1 when it is known —
    in a compounding language plus a bounded number of last parts per word, however long it is."""
    language.stem.cache_clear()
    groups = terms.query_words(text, None)
    assert language.stem.cache_info().misses <= 4 * len(terms.ANY_LANGUAGE)
    assert len(groups) <= 4
    language.stem.cache_clear()
    terms.query_words(text, "de")
    parts = language.COMPOUND_HEAD_MAX - language.COMPOUND_PART_MIN + 1
    assert language.stem.cache_info().misses <= 4 * (1 + parts)
