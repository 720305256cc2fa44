"""Invariant 1 as a property: no private memory of one person reaches anyone else, and room
memories stay in their room — through recall (also "as of" a moment), find_to_forget, get and
list_memories; a recall whose question names areas (RecallOptions.named_areas, case C29) sees
those areas' room memories too, never a private one and never another area's."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.memory.engine.api import MemoryDraft, RecallOptions
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Memory, Scope, Speaker, Tombstone
from custom_components.memory.engine.store.base import MemoryStore, Visibility
from custom_components.memory.engine.store.sql import visibility_sql

PERSONS = ["person.julian", "person.anna", "person.mia"]
AREAS = ["kitchen", "hall", "attic"]
TEXTS = [
    "The spare key is in the blue tin.",
    "My PIN for the bank is 4821.",
    "The window sticks, lift it first.",
    "I like short answers.",
    "Die Heizung macht nachts Geräusche.",
    "Il codice del cancello è 4711.",
    "Ma sœur arrive vendredi.",
    "La llave está debajo de la maceta.",
    "Ticket HX-4471 waits for a part.",
    "Mia's birthday is on 3 May.",
    "The plants need water on Sundays.",
    "I hide chocolate in the attic.",
]
QUERIES = ["Where is the key?", "What is my PIN?", "HX-4471", "birthday", "What do I like?", "codice", "4711"]

memory_spec = st.tuples(
    st.sampled_from(TEXTS),
    st.sampled_from(list(Scope)),
    st.sampled_from(PERSONS),
    st.sampled_from(AREAS),
)
speaker_spec = st.builds(
    Speaker,
    person_id=st.one_of(st.none(), st.sampled_from(PERSONS)),
    area_id=st.one_of(st.none(), st.sampled_from(AREAS)),
)


LATER = datetime(2100, 1, 1, tzinfo=UTC)  # recall "as of" a moment every stored memory is current at
named_areas_spec = st.lists(st.sampled_from([*AREAS, "cellar"]), max_size=2)  # cellar: no memories


def _allowed(memory: Memory, speaker: Speaker, named_areas: list[str] | tuple[str, ...] = ()) -> bool:
    """The rule restated independently of the store (docs/design.md §5): a question naming an
    area sees its room memories too (recall only), a private memory follows no name."""
    if memory.scope in (Scope.SHARED, Scope.SYSTEM):
        return True
    if memory.scope is Scope.ROOM:
        return memory.area_id is not None and memory.area_id in (speaker.area_id, *named_areas)
    return speaker.person_id is not None and memory.owner_id == speaker.person_id


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    memories=st.lists(memory_spec, min_size=1, max_size=10),
    speakers=st.lists(speaker_spec, min_size=1, max_size=4),
    named=named_areas_spec,
)
def test_no_memory_reaches_a_speaker_the_rule_excludes(
    encoder: BundledEmbedder,
    new_store: Callable[[Path], MemoryStore],
    memories: list[tuple[str, Scope, str, str]],
    speakers: list[Speaker],
    named: list[str],
) -> None:
    with TemporaryDirectory() as tmp:
        engine = MemoryEngine(new_store(Path(tmp) / f"v-{Path(tmp).name}.db"), encoder)  # one per example
        engine.open()
        try:
            stored = []
            for text, scope, owner, area in memories:
                writer = Speaker(person_id=owner, area_id=area)
                stored.append(engine.remember(MemoryDraft(text, speaker=writer, scope=scope)).memory)
            everything = {m.id: m for m in engine.list_memories(Speaker.administrator(), limit=1000)}
            assert set(everything) == {m.id for m in stored}
            for speaker in speakers:
                visible = {m.id for m in engine.list_memories(speaker, limit=1000)}
                assert visible == {i for i, m in everything.items() if _allowed(m, speaker)}
                for mid, memory in everything.items():
                    got = engine.get(mid, speaker)
                    assert (got is not None) == _allowed(memory, speaker)
                    assert Visibility.of(speaker).allows(memory) == _allowed(memory, speaker)
                    widened = Visibility.of(speaker, named_areas=named)
                    assert widened.allows(memory) == _allowed(memory, speaker, named)
                for query in QUERIES:
                    for hit in engine.recall(query, speaker) + engine.find_to_forget(query, speaker, 10):
                        assert _allowed(hit.memory, speaker), (query, hit.memory, speaker)
                    options = RecallOptions(limit=10, named_areas=tuple(named))
                    for hit in engine.recall(query, speaker, options):
                        assert _allowed(hit.memory, speaker, named), (query, hit.memory, speaker, named)
                    looking_back = RecallOptions(limit=10, as_of=LATER)  # "as of" sees no more
                    for hit in engine.recall(query, speaker, looking_back):
                        assert _allowed(hit.memory, speaker), (query, hit.memory, speaker, LATER)
        finally:
            engine.close()


# Case C29 in the engine: the kitchen's room note, Julian's private note about the kitchen, the
# hall's room note; asked from nowhere, at the hall, by Anna.
WINDOW = "The kitchen window sticks, lift it before opening."
MINE = "I keep my kitchen window key in my coat pocket."
HALL_NOTE = "The hall window sticks too, push it hard."
QUESTION = "What do you know about the kitchen window?"


def _window_store(engine: MemoryEngine) -> None:
    engine.remember(MemoryDraft(WINDOW, speaker=Speaker(area_id="kitchen"), scope=Scope.ROOM))
    engine.remember(
        MemoryDraft(MINE, speaker=Speaker(person_id="person.julian", area_id="kitchen"), scope=Scope.PRIVATE)
    )
    engine.remember(MemoryDraft(HALL_NOTE, speaker=Speaker(area_id="hall"), scope=Scope.ROOM))


def _recalled(engine: MemoryEngine, speaker: Speaker, *named: str) -> set[str]:
    options = RecallOptions(limit=10, named_areas=named)
    return {h.memory.content for h in engine.recall(QUESTION, speaker, options)}


@pytest.mark.usefixtures("index_mode")  # the SQL filter and both vector index masks
@pytest.mark.parametrize(
    "speaker",
    [Speaker(), Speaker(area_id="hall"), Speaker(person_id="person.anna"), Speaker("person.anna", "hall")],
    ids=["nowhere", "hall", "anna", "anna-hall"],
)
def test_c29_a_named_area_shows_its_room_memories_to_recall(engine: MemoryEngine, speaker: Speaker) -> None:
    """Naming the kitchen recalls its room note from anywhere; never Julian's private note about
    the kitchen; the hall's own note only where it is visible anyway (at the hall)."""
    _window_store(engine)
    assert WINDOW not in _recalled(engine, speaker)  # not named: C06 holds
    named = _recalled(engine, speaker, "kitchen")
    assert WINDOW in named
    assert MINE not in named
    if speaker.area_id != "hall":
        assert HALL_NOTE not in named  # naming the kitchen shows nothing of another room
    assert WINDOW in _recalled(engine, speaker, "cellar", "kitchen")  # another named area too
    assert WINDOW not in _recalled(engine, speaker, "cellar")  # another area's name shows nothing of it
    assert _recalled(engine, Speaker(person_id="person.julian"), "kitchen") >= {WINDOW, MINE}  # his own


def test_c29_only_recall_widens(engine: MemoryEngine) -> None:
    """find_to_forget, get and list keep the plain rule: the kitchen's note cannot be forgotten,
    listed or read from the hall, whatever the question names."""
    _window_store(engine)
    at_hall = Speaker(area_id="hall")
    window = next(m for m in engine.list_memories(Speaker.administrator()) if m.content == WINDOW)
    assert engine.get(window.id, at_hall) is None
    assert WINDOW not in {m.content for m in engine.list_memories(at_hall)}
    assert WINDOW not in {h.memory.content for h in engine.find_to_forget(QUESTION, at_hall, 10)}


def test_visibility_of_named_areas() -> None:
    """The speaker's own area and empty names add nothing; the admin view is unchanged; without a
    named area the SQL is the statement it always was (one area: "= ?")."""
    at_kitchen = Speaker(person_id="person.julian", area_id="kitchen")
    assert Visibility.of(at_kitchen, named_areas=["kitchen", ""]) == Visibility.of(at_kitchen)
    widened = Visibility.of(at_kitchen, named_areas=["hall", "cellar", "hall"])
    assert widened.named_areas == ("hall", "cellar")
    assert widened.areas == ("kitchen", "hall", "cellar")
    assert Visibility.of(Speaker.administrator(), named_areas=["hall"]).everything
    sql, params = visibility_sql(Visibility.of(at_kitchen))
    assert "area_id = ?" in sql and params == ["kitchen", "person.julian"]
    sql, params = visibility_sql(widened)
    assert "area_id IN (?, ?, ?)" in sql and params == ["kitchen", "hall", "cellar", "person.julian"]
    sql, params = visibility_sql(Visibility.of(Speaker(), named_areas=["hall"]))
    assert "area_id = ?" in sql and params == ["hall"]
    hall_room = Tombstone(
        id="t1", scope=Scope.ROOM, owner_id=None, area_id="hall", created_at=datetime.now(UTC)
    )
    anna_private = replace(hall_room, id="t2", scope=Scope.PRIVATE, owner_id="person.anna", area_id=None)
    assert not Visibility.of(at_kitchen).allows(hall_room)
    assert widened.allows(hall_room)
    assert not widened.allows(anna_private)
