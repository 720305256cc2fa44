"""C39 at the engine: every read door, every kind of audience, every kind of memory, on both
stores — nothing is told that the household's rules forbid, and everything they allow is told.

The rules are spelled here as a table of their own (docs/privacy.md "What each caller is told"),
not by calling engine/audience.py: the test fails when the engine's decision and the documented
rule part ways.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.audience import Audience, Reader
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Memory, Scope, Speaker, Status
from custom_components.memory.engine.store.base import MemoryFilter

from .conftest import ANNA, HALL, JULIAN, KITCHEN

THINGS = ("garden gate", "garage", "shed", "cellar", "attic", "boat house", "side door", "back gate")
BUCKETS: tuple[tuple[Scope, str | None, str | None], ...] = (
    (Scope.PRIVATE, JULIAN, None),
    (Scope.PRIVATE, ANNA, None),
    (Scope.ROOM, None, KITCHEN),
    (Scope.ROOM, None, HALL),
    (Scope.SHARED, None, None),
)


@dataclass(frozen=True)
class Stored:
    memory: Memory
    text: str


def _household(engine: MemoryEngine) -> list[Stored]:
    """One memory per (bucket, sensitive, told by a member or not), each about its own thing, and
    a pending one per bucket."""
    stored = []
    combos = list(product(BUCKETS, (True, False), (JULIAN, None)))
    for n, ((scope, owner, area), sensitive, teller) in enumerate(combos):
        thing = f"{THINGS[n % len(THINGS)]} number {n}"
        text = (
            f"The code for the {thing} is {4711 + n * 37}." if sensitive else f"The {thing} is painted blue."
        )
        speaker = Speaker(person_id=teller or owner, area_id=area)
        if teller is None and owner is None:
            speaker = Speaker(area_id=area)
        draft = MemoryDraft(text, speaker=speaker, scope=scope, owner_id=owner, area_id=area)
        memory = engine.remember(draft, Audience.administrator()).memory
        assert memory.sensitive is sensitive, text
        stored.append(Stored(memory, text))
    for n, (scope, owner, area) in enumerate(BUCKETS):
        text = f"The pin of the safe number {n} is {2580 + n}."
        draft = MemoryDraft(
            text, speaker=Speaker(person_id=owner, area_id=area), scope=scope, owner_id=owner, area_id=area,
            status=Status.PENDING,
        )  # fmt: skip
        stored.append(Stored(engine.remember(draft, Audience.administrator()).memory, text))
    return stored


def sees(speaker: Speaker, memory: Memory) -> bool:
    """The visibility rule (docs/design.md §5)."""
    if speaker.admin or memory.scope in (Scope.SHARED, Scope.SYSTEM):
        return True
    if memory.scope is Scope.ROOM:
        return memory.area_id == speaker.area_id
    return memory.owner_id is not None and memory.owner_id == speaker.person_id


def may_tell(audience: Audience, memory: Memory) -> bool:
    """The telling rule, as docs/privacy.md states it."""
    if audience.reader is Reader.ADMIN:
        return True
    model = audience.reader in (Reader.CLOUD_MODEL, Reader.TASK)
    if memory.sensitive and (model or (not audience.speaker.known and not audience.sensitive_to_unknown)):
        return False
    if audience.reader is Reader.AUTOMATION and memory.scope is Scope.PRIVATE:
        return False  # nobody to recognise: no one's private memory
    personal = memory.scope is Scope.PRIVATE or memory.speaker_id is not None
    return not (
        audience.reader is Reader.TASK and audience.cloud and personal and not audience.personal_to_cloud
    )


def audiences() -> st.SearchStrategy[Audience]:
    speakers = st.builds(
        Speaker,
        person_id=st.sampled_from([JULIAN, ANNA, None]),
        area_id=st.sampled_from([KITCHEN, HALL, None]),
    ) | st.just(Speaker.administrator())
    return st.builds(
        Audience,
        speakers,
        st.sampled_from(list(Reader)),
        cloud=st.booleans(),
        sensitive_to_unknown=st.booleans(),
        personal_to_cloud=st.booleans(),
    )


def check(audience: Audience, by_id: dict[str, Stored], got: Memory) -> None:
    """`got` is a memory the audience sees, told exactly when the rule allows, never half-told."""
    original = by_id[got.id]
    assert sees(audience.speaker, original.memory), (audience, original.text)
    if may_tell(audience, original.memory):
        assert got.withheld is None and got.content == original.text, (audience, original.text)
    else:
        assert got.withheld is not None, (audience, original.text)
        assert (got.content, got.subject, got.predicate, got.value) == ("", None, None, None)


Door = Callable[[MemoryEngine, Audience, list[Stored]], None]


@pytest.fixture
def household(engine: MemoryEngine) -> list[Stored]:
    return _household(engine)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(audience=audiences(), pick=st.integers(min_value=0, max_value=10_000))
def test_every_door_tells_what_the_rules_allow(
    engine: MemoryEngine, household: list[Stored], audience: Audience, pick: int
) -> None:
    by_id = {s.memory.id: s for s in household}
    current = [s for s in household if s.memory.status is Status.ACTIVE]
    pending = [s for s in household if s.memory.status is Status.PENDING]
    target = current[pick % len(current)]
    speaker = audience.speaker
    visible_now = {s.memory.id for s in current if sees(speaker, s.memory)}
    visible_pending = {s.memory.id for s in pending if sees(speaker, s.memory)}

    # the lists: exactly what the audience sees, each decided
    listed = engine.list_memories(audience, limit=500)
    assert {m.id for m in listed} == visible_now
    found, total = engine.find(audience, MemoryFilter(), limit=500)
    assert {m.id for m in found} == visible_now and total == len(visible_now)
    waiting = engine.list_pending(audience, limit=500)
    assert {m.id for m in waiting} == visible_pending
    reviews = engine.pending_review(audience, limit=500)
    for got in [*listed, *found, *waiting, *(m for m, _ in reviews)]:
        check(audience, by_id, got)

    # one memory by its id: the same decision, or nothing when it is not seen
    got_one = engine.get(target.memory.id, audience)
    if target.memory.id in visible_now:
        assert got_one is not None
        check(audience, by_id, got_one)
        for got in engine.history(target.memory.id, audience):
            check(audience, by_id, got)
        chain = engine.lineage(target.memory.id, audience)
        for got in (chain.memory, *chain.older, *chain.newer):
            check(audience, by_id, got)
    else:
        assert got_one is None

    # the searches: the memory asked about is found when seen, and every hit is decided
    for hits in (engine.recall(target.text, audience), engine.find_to_forget(target.text, audience, limit=5)):
        for hit in hits:
            check(audience, by_id, hit.memory)
        if target.memory.id in visible_now:
            assert target.memory.id in {h.memory.id for h in hits}, (audience, target.text)


def test_conflicts_and_forgetting_are_told_to_their_audience(engine: MemoryEngine) -> None:
    """remember's conflicts and forget's returned memory: the code is not read back to a guest,
    nor to a cloud model answering a member; the member and its local model hear it."""
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    guest = Speaker(area_id=KITCHEN)
    cases = (
        ("garden gate", Audience(guest), False),
        ("garage", Audience(julian, Reader.CLOUD_MODEL, cloud=True), False),
        ("shed", Audience(julian, Reader.LOCAL_MODEL), True),
        ("cellar", Audience(guest, sensitive_to_unknown=True), True),
    )
    for thing, audience, told in cases:
        old = engine.remember(
            MemoryDraft(f"The code for the {thing} is 4711.", speaker=julian, scope=Scope.SHARED)
        )
        new = engine.remember(
            MemoryDraft(f"The code for the {thing} is now 9931.", speaker=guest, scope=Scope.SHARED), audience
        )
        conflicts = {c.memory.id: c.memory for c in new.conflicts}
        assert old.memory.id in conflicts, audience
        shown = conflicts[old.memory.id]
        assert ("4711" in shown.content) is told and (shown.withheld is None) is told, audience
        gone = engine.forget(old.memory.id, audience)
        assert gone.id == old.memory.id and ("4711" in gone.content) is told, audience


def test_a_restatement_reads_back_only_what_the_teller_may_be_told(engine: MemoryEngine) -> None:
    """A guest guessing a few words of a sensitive memory ("wifi password") restates it: the
    memory now holding it comes back withheld, not read out; the member hears it."""
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    stored = engine.remember(
        MemoryDraft("The wifi password is sunflower.", speaker=julian, scope=Scope.SHARED)
    )
    guest = Speaker(area_id=KITCHEN)
    guessed = engine.remember(MemoryDraft("The wifi password", speaker=guest, scope=Scope.SHARED))
    assert guessed.memory.id == stored.memory.id, "a restatement confirms the memory"
    assert (guessed.memory.content, guessed.memory.withheld) == ("", "sensitive_unknown_speaker")
    again = engine.remember(MemoryDraft("The wifi password", speaker=julian, scope=Scope.SHARED))
    assert again.memory.content == "The wifi password is sunflower."


def test_a_bare_speaker_is_the_strictest_person_and_the_admin_speaker_the_administrator(
    engine: MemoryEngine,
) -> None:
    code = engine.remember(
        MemoryDraft("The alarm code is 2580.", speaker=Speaker(person_id=JULIAN), scope=Scope.SHARED)
    ).memory
    assert engine.get(code.id, Speaker()).withheld == "sensitive_unknown_speaker"  # type: ignore[union-attr]
    assert engine.get(code.id, Speaker.administrator()).content == "The alarm code is 2580."  # type: ignore[union-attr]
