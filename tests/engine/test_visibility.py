"""Invariant 1 as a property: no private memory of one person reaches anyone else, and room
memories stay in their room — through recall, find_to_forget, get and list_memories."""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Memory, Scope, Speaker
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.store.sqlite import SqliteStore

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


def _allowed(memory: Memory, speaker: Speaker) -> bool:
    """The rule restated independently of the store (docs/design.md §5)."""
    if memory.scope in (Scope.SHARED, Scope.SYSTEM):
        return True
    if memory.scope is Scope.ROOM:
        return speaker.area_id is not None and memory.area_id == speaker.area_id
    return speaker.person_id is not None and memory.owner_id == speaker.person_id


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    memories=st.lists(memory_spec, min_size=1, max_size=10),
    speakers=st.lists(speaker_spec, min_size=1, max_size=4),
)
def test_no_memory_reaches_a_speaker_the_rule_excludes(
    encoder: BundledEmbedder,
    memories: list[tuple[str, Scope, str, str]],
    speakers: list[Speaker],
) -> None:
    with TemporaryDirectory() as tmp:
        engine = MemoryEngine(SqliteStore(Path(tmp) / "v.db"), encoder)
        engine.open()
        try:
            stored = []
            for text, scope, owner, area in memories:
                writer = Speaker(person_id=owner, area_id=area)
                stored.append(engine.remember(text, speaker=writer, scope=scope).memory)
            everything = {m.id: m for m in engine.list_memories(Speaker.administrator(), limit=1000)}
            assert set(everything) == {m.id for m in stored}
            for speaker in speakers:
                visible = {m.id for m in engine.list_memories(speaker, limit=1000)}
                assert visible == {i for i, m in everything.items() if _allowed(m, speaker)}
                for mid, memory in everything.items():
                    got = engine.get(mid, speaker)
                    assert (got is not None) == _allowed(memory, speaker)
                    assert Visibility.of(speaker).allows(memory) == _allowed(memory, speaker)
                for query in QUERIES:
                    for hit in engine.recall(query, speaker) + engine.find_to_forget(query, speaker, 10):
                        assert _allowed(hit.memory, speaker), (query, hit.memory, speaker)
        finally:
            engine.close()
