"""Truth over time (issue 13): a memory's history of values and recall "as of" a moment.

A changed fact supersedes the older value (writer._settle_key); the older one stays as history
with its validity window, is never recalled as current (invariant 4), but is what recall finds
when asked as of a moment it was current. Time is the engine's injected clock, never the wall's.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

from custom_components.memory.engine.api import InvalidInput, MemoryDraft, RecallOptions
from custom_components.memory.engine.audience import Audience
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker, Status
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.writer import embedding_text

from .conftest import ANNA, HALL, JULIAN, KITCHEN, MONDAY, Clock

JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
ANNA_HALL = Speaker(person_id=ANNA, area_id=HALL)
GUEST = Speaker(area_id=HALL)
ADMIN = Speaker.administrator()
DAY = timedelta(days=1)

# Julian's drink, changed twice: (text, value), one a day from MONDAY
DRINKS = [("I drink coffee in the morning.", "coffee"), ("I drink tea in the morning now.", "tea"),
          ("I drink hot water in the morning now.", "hot water")]  # fmt: skip


@pytest.fixture
def engine(make_engine: Callable[..., MemoryEngine], clock: Clock) -> MemoryEngine:
    """An open engine on the clock, on every store."""
    return make_engine(clock=clock)


def say(
    engine: MemoryEngine,
    content: str,
    predicate: str,
    value: str,
    *,
    speaker: Speaker = JULIAN_KITCHEN,
    scope: Scope = Scope.PRIVATE,
    subject: str = "me",
) -> Memory:
    """A keyed fact told through the engine's front door (a changed value supersedes the old)."""
    return engine.remember(MemoryDraft(
        content, speaker=speaker, scope=scope, kind=Kind.PREFERENCE, subject=subject,
        predicate=predicate, value=value,
    )).memory  # fmt: skip


def drinks(engine: MemoryEngine, clock: Clock) -> list[Memory]:
    """Julian's three drinks, told on Monday, Tuesday and Wednesday at nine."""
    told = []
    for day, (text, value) in enumerate(DRINKS):
        clock.now = MONDAY + day * DAY
        told.append(say(engine, text, "drinks", value))
    clock.now = MONDAY + 7 * DAY
    return told


def test_history_is_the_whole_chain_newest_first_with_windows(engine: MemoryEngine, clock: Clock) -> None:
    coffee, tea, water = drinks(engine, clock)
    for asked in (coffee.id, tea.id, water.id):  # from any link of the chain
        history = engine.history(asked, JULIAN_KITCHEN)
        assert [m.content for m in history] == [water.content, tea.content, coffee.content]
        assert [(m.status, m.superseded_by) for m in history] == [
            (Status.ACTIVE, None),
            (Status.SUPERSEDED, water.id),
            (Status.SUPERSEDED, tea.id),
        ]
        assert [(m.valid_from, m.valid_to) for m in history] == [
            (MONDAY + 2 * DAY, None),
            (MONDAY + DAY, MONDAY + 2 * DAY),
            (MONDAY, MONDAY + DAY),
        ]
        assert {m.speaker_id for m in history} == {JULIAN}


def test_a_memory_never_changed_is_its_own_history(engine: MemoryEngine) -> None:
    bins = engine.remember(
        MemoryDraft("The bins go out on Thursday evening.", speaker=GUEST, scope=Scope.SHARED)
    ).memory
    (only,) = engine.history(bins.id, ANNA_HALL)
    assert (only.id, only.status, only.valid_from, only.valid_to) == (bins.id, Status.ACTIVE, MONDAY, None)


@pytest.mark.parametrize("who", [ANNA_HALL, GUEST, Speaker(person_id=ANNA, area_id=KITCHEN)])
def test_anothers_private_history_is_unknown(engine: MemoryEngine, clock: Clock, who: Speaker) -> None:
    """Julian's private chain: not even its existence shows to Anna or a guest (invariant 1)."""
    for memory in drinks(engine, clock):
        with pytest.raises(InvalidInput) as err:
            engine.history(memory.id, who)
        assert (err.value.field, err.value.reason) == ("memory_id", "unknown_memory")
    assert len(engine.history(memory.id, ADMIN)) == 3


def test_unknown_memory(engine: MemoryEngine) -> None:
    with pytest.raises(InvalidInput) as err:
        engine.history(uuid.uuid4().hex, ADMIN)
    assert (err.value.field, err.value.reason) == ("memory_id", "unknown_memory")


def test_a_forgotten_chain_has_no_history(engine: MemoryEngine, clock: Clock) -> None:
    coffee, _, water = drinks(engine, clock)
    engine.forget(water.id, JULIAN_KITCHEN)  # the older values go with it
    with pytest.raises(InvalidInput):
        engine.history(coffee.id, JULIAN_KITCHEN)


# ---------------------------------------------------------------- recall "as of"

WIFI_OLD = "The wifi password is on a note on the fridge."
WIFI_NEW = "The wifi password now hangs by the router in the hall."
WIFI_QUESTION = "Is the wifi password on a note on the fridge?"  # worded like the old value


def wifi(engine: MemoryEngine, clock: Clock) -> tuple[Memory, Memory]:
    """A shared fact changed on Tuesday at nine: the old value is the closer match to the question."""
    old = say(engine, WIFI_OLD, "wifi_password_location", "fridge", speaker=GUEST, scope=Scope.SHARED,
              subject="wifi password")  # fmt: skip
    clock.now = MONDAY + DAY
    new = say(engine, WIFI_NEW, "wifi_password_location", "router in the hall", speaker=GUEST,
              scope=Scope.SHARED, subject="wifi password")  # fmt: skip
    clock.now = MONDAY + 7 * DAY
    return old, new


def recalled(engine: MemoryEngine, query: str, speaker: Speaker, as_of: datetime | None = None) -> list[str]:
    """What `speaker` sees "as of" a moment (the wifi password is sensitive: a household that
    lets unknown speakers hear it, so the guest's view is about time, not telling)."""
    audience = Audience(speaker, sensitive_to_unknown=True)
    return [h.memory.content for h in engine.recall(query, audience, RecallOptions(as_of=as_of))]


@pytest.mark.usefixtures("index_mode")
def test_invariant4_superseded_closest_match_is_never_current(engine: MemoryEngine, clock: Clock) -> None:
    old, new = wifi(engine, clock)
    assert engine.get(old.id, ADMIN).status is Status.SUPERSEDED  # type: ignore[union-attr]
    sims = engine.store.similarities([old.id, new.id], engine.embedder.embed([WIFI_QUESTION])[0])
    assert sims[old.id] > sims[new.id]  # the old value is the closest match ...
    for who in (GUEST, ANNA_HALL, ADMIN):
        assert WIFI_OLD not in recalled(engine, WIFI_QUESTION, who)  # ... and still not current
        assert recalled(engine, WIFI_QUESTION, who, as_of=clock.now) == recalled(engine, WIFI_QUESTION, who)


@pytest.mark.usefixtures("index_mode")
def test_recall_as_of_finds_what_was_current_then(engine: MemoryEngine, clock: Clock) -> None:
    wifi(engine, clock)
    monday_noon = MONDAY + timedelta(hours=3)
    assert recalled(engine, WIFI_QUESTION, ANNA_HALL, as_of=monday_noon) == [WIFI_OLD]
    assert recalled(engine, "Where is the wifi password?", GUEST, as_of=monday_noon) == [WIFI_OLD]
    # the window is [valid_from, valid_to): at the change the new value holds
    assert recalled(engine, WIFI_QUESTION, GUEST, as_of=MONDAY + DAY) == [WIFI_NEW]
    assert recalled(engine, WIFI_QUESTION, GUEST, as_of=MONDAY - timedelta(seconds=1)) == []
    assert recalled(engine, WIFI_QUESTION, GUEST, as_of=MONDAY + DAY + timedelta(hours=1)) == [WIFI_NEW]


def test_recall_as_of_keeps_private_private(engine: MemoryEngine, clock: Clock) -> None:
    drinks(engine, clock)
    tuesday = MONDAY + DAY + timedelta(hours=1)
    question = "What do I drink in the morning?"
    assert DRINKS[1][0] in recalled(engine, question, JULIAN_KITCHEN, as_of=tuesday)
    assert DRINKS[0][0] not in recalled(engine, question, JULIAN_KITCHEN, as_of=tuesday)
    assert recalled(engine, question, ANNA_HALL, as_of=tuesday) == []
    assert recalled(engine, question, GUEST, as_of=tuesday) == []


def test_recall_as_of_counts_no_access(engine: MemoryEngine, clock: Clock) -> None:
    old, _ = wifi(engine, clock)
    assert recalled(engine, WIFI_QUESTION, GUEST, as_of=MONDAY + timedelta(hours=1)) == [WIFI_OLD]
    engine.close()  # flushes batched access counts
    engine.open()
    assert engine.get(old.id, ADMIN).access_count == 0  # type: ignore[union-attr]


def test_a_naive_as_of_recalls_nothing(engine: MemoryEngine, clock: Clock) -> None:
    wifi(engine, clock)
    assert recalled(engine, WIFI_QUESTION, GUEST, as_of=datetime(2026, 11, 23, 12, 0)) == []


def _row(content: str, status: Status, created: datetime, valid_to: datetime | None = None) -> Memory:
    return Memory(
        id=uuid.uuid4().hex, content=content, kind=Kind.FACT, language="en",
        provenance=Provenance.CONFIRMED, scope=Scope.SHARED, owner_id=None, area_id=None,
        created_at=created, updated_at=created, status=status, valid_to=valid_to, source_ref="chat-1",
    )  # fmt: skip


@pytest.mark.usefixtures("index_mode")
def test_current_as_of_in_every_leg(engine: MemoryEngine) -> None:
    """Which rows each store leg (vectors, words, terms, reads, conversation neighbours) takes as
    current at a moment:
    active and superseded ones in their window; archived paraphrases and pending ones never."""
    tuesday = MONDAY + DAY
    rows = {
        "active": _row("The boiler service is booked for March.", Status.ACTIVE, MONDAY),
        "superseded": _row("The boiler service is booked for April.", Status.SUPERSEDED, MONDAY, tuesday),
        "archived": _row("Boiler service booked for March.", Status.ARCHIVED, MONDAY, MONDAY + DAY),
        "pending": _row("The boiler service is booked for May.", Status.PENDING, MONDAY),
        "later": _row("The boiler service is booked for June.", Status.ACTIVE, MONDAY + 2 * DAY),
    }
    store = engine.store
    for row in rows.values():
        store.add(row, engine.embedder.embed([embedding_text(row.content)])[0])
    names = {row.id: name for name, row in rows.items()}
    query = engine.embedder.embed(["When is the boiler service booked?"])[0]

    def current(at: datetime | None) -> dict[str, set[str]]:
        vis = Visibility.of(GUEST, as_of=at)
        return {
            "semantic": {names[i] for i, _ in store.semantic(query, vis, 10)[0]},
            "lexical": {names[r.id] for r in store.lexical(["boiler"], vis, 10)},
            "terms": {names[i] for i in store.term_matches(["boiler"], vis, 10)},
            "get_many": {names[i] for i in store.get_many(list(names), vis)},
            "neighbours": {
                names[i]
                for seed, near in store.neighbours([rows["active"].id], vis, 10).items()
                for i in (seed, *(m for m, _ in near))
            },
        }

    def everywhere(*expected: str) -> dict[str, set[str]]:
        return {leg: set(expected) for leg in ("semantic", "lexical", "terms", "get_many", "neighbours")}

    assert current(None) == everywhere("active", "later")
    assert current(MONDAY - DAY) == everywhere()
    assert current(MONDAY) == everywhere("active", "superseded")
    assert current(MONDAY + DAY) == everywhere("active")
    assert current(MONDAY + 3 * DAY) == everywhere("active", "later")
