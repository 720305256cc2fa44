"""Truth over time (issue 13): a newer value nobody settled ranks ahead of the one it likely
replaces, which stays in the slate marked `outdated_by` (recall step 8, facts.outdates)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from custom_components.memory.engine import recall as recall_mod
from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.facts import CLEARLY_NEWER
from custom_components.memory.engine.models import Memory, Scope, Speaker, Status

from .conftest import JULIAN, KITCHEN

T0 = datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)

PUMP = {
    "en": ("The bike pump is in the garage.", "I put the bike pump in the cellar now."),
    "de": ("Die Luftpumpe ist in der Garage.", "Die Luftpumpe ist jetzt im Keller."),
}
OTHERS = {
    "en": ("The router is in the cupboard under the stairs.", "We put the bins out on Thursday evening."),
    "de": ("Der Router steht im Schrank unter der Treppe.", "Die Mülltonnen kommen am Donnerstagabend raus."),
}


class Clock:
    """The engine's clock, set by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clocked(make_engine: Callable[..., MemoryEngine]) -> tuple[MemoryEngine, Clock]:
    """An open engine on a clock the test sets, on every store."""
    clock = Clock()
    return make_engine(clock=clock), clock


def _tell(engine: MemoryEngine, text: str, language: str) -> Memory:
    result = engine.remember(MemoryDraft(text, speaker=JULIAN_KITCHEN, scope=Scope.SHARED, language=language))
    return result.memory


# lifted: the garage's wording is closer to the question, so it ranked first before step 8
@pytest.mark.parametrize(
    ("language", "question", "lifted"),
    [
        ("en", "Where is the bike pump?", False),
        ("en", "bike pump", True),
        ("de", "Wo ist die Luftpumpe?", True),
    ],
)
def test_newer_place_ranks_first_and_marks_the_older(
    clocked: tuple[MemoryEngine, Clock], language: str, question: str, lifted: bool
) -> None:
    engine, clock = clocked
    old_text, new_text = PUMP[language]
    for text in OTHERS[language]:
        _tell(engine, text, language)
    garage = _tell(engine, old_text, language)
    clock.now = T0 + timedelta(weeks=3)
    told = engine.remember(
        MemoryDraft(new_text, speaker=JULIAN_KITCHEN, scope=Scope.SHARED, language=language)
    )
    cellar = told.memory
    # the writer asks, it does not settle: both stay current
    assert [c.memory.id for c in told.conflicts] == [garage.id]
    assert engine.get(garage.id, JULIAN_KITCHEN).status is Status.ACTIVE  # type: ignore[union-attr]

    hits = engine.recall(question, JULIAN_KITCHEN)
    by_id = {h.memory.id: h for h in hits}
    assert hits[0].memory.id == cellar.id
    assert by_id[garage.id].outdated_by == cellar.id  # kept, marked
    assert by_id[cellar.id].outdated_by is None
    assert ("newer" in by_id[cellar.id].factors) is lifted
    assert by_id[garage.id].score == pytest.approx(sum(by_id[garage.id].factors.values()))
    assert by_id[cellar.id].score == pytest.approx(sum(by_id[cellar.id].factors.values()))
    assert recall_mod.answer_hit(by_id[garage.id], hits).memory.id == cellar.id


def test_unrelated_memories_are_neither_moved_nor_marked(clocked: tuple[MemoryEngine, Clock]) -> None:
    engine, clock = clocked
    _tell(engine, "The bike pump is in the garage.", "en")
    clock.now = T0 + timedelta(weeks=3)
    _tell(engine, "The lawn mower is in the garage now.", "en")
    _tell(engine, "Anna's bike has a flat tyre now.", "en")
    hits = engine.recall("Where is the bike pump?", JULIAN_KITCHEN)
    assert hits[0].memory.content == "The bike pump is in the garage."
    assert all(h.outdated_by is None and "newer" not in h.factors for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_told_within_a_minute_is_one_telling(clocked: tuple[MemoryEngine, Clock]) -> None:
    engine, clock = clocked
    _tell(engine, "The bike pump is in the garage.", "en")
    clock.now = T0 + CLEARLY_NEWER - timedelta(seconds=1)
    _tell(engine, "I put the bike pump in the cellar now.", "en")
    hits = engine.recall("Where is the bike pump?", JULIAN_KITCHEN)
    assert len(hits) >= 2
    assert all(h.outdated_by is None and "newer" not in h.factors for h in hits)


def test_another_persons_newer_value_marks_nothing(clocked: tuple[MemoryEngine, Clock]) -> None:
    """Anna's "I" is not Julian's: her later "I work Wednesdays now" says nothing about his."""
    engine, clock = clocked
    _tell(engine, "I work on Tuesdays.", "en")
    clock.now = T0 + timedelta(weeks=3)
    anna = Speaker(person_id="person.anna", area_id=KITCHEN)
    engine.remember(MemoryDraft("I work on Wednesdays now.", speaker=anna, scope=Scope.SHARED))
    hits = engine.recall("Which day do I work?", JULIAN_KITCHEN)
    assert len(hits) >= 2
    assert all(h.outdated_by is None for h in hits)
