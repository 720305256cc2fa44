"""What the admin panel asks of the engine (issue 16), on every store: listing with filters and a
total, one memory's lineage, editing, review with what approving replaces, rejecting, tombstones
listed and lifted, counts, export and import. Time is the engine's injected clock."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest

from custom_components.memory.engine.api import InvalidInput, MemoryDraft, MemoryEdit
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Source, Speaker, Status
from custom_components.memory.engine.store.base import MemoryFilter, Visibility
from custom_components.memory.engine.writer import embedding_text

from .conftest import ANNA, HALL, JULIAN, KITCHEN, Clock

ADMIN = Speaker.administrator()
JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
ANNA_HALL = Speaker(person_id=ANNA, area_id=HALL)
HOUR = timedelta(hours=1)


@pytest.fixture
def engine(make_engine: Callable[..., MemoryEngine], clock: Clock) -> MemoryEngine:
    return make_engine(clock=clock)


def tell(engine: MemoryEngine, clock: Clock, content: str, **draft: object) -> Memory:
    """Remember `content` an hour after the last thing told (newest first is then told order)."""
    clock.now += HOUR
    fields: dict[str, object] = {"speaker": ADMIN, "scope": Scope.SHARED} | draft
    return engine.remember(MemoryDraft(content, **fields)).memory  # type: ignore[arg-type]


def drink(engine: MemoryEngine, clock: Clock, value: str, **draft: object) -> Memory:
    """Julian's keyed morning drink (a new value supersedes the old)."""
    return tell(
        engine, clock, f"I drink {value} in the morning.", speaker=JULIAN_KITCHEN, scope=Scope.PRIVATE,
        kind=Kind.PREFERENCE, subject="me", predicate="drinks", value=value, **draft,
    )  # fmt: skip


@pytest.fixture
def household(engine: MemoryEngine, clock: Clock) -> dict[str, Memory]:
    """Five memories of several kinds, scopes, persons, rooms and provenances."""
    return {
        "bins": tell(engine, clock, "The bins go out on Thursday evening."),
        "cello": tell(engine, clock, "Julian practises the cello on Mondays.", speaker=JULIAN_KITCHEN,
                      kind=Kind.EPISODE, language="en"),
        "diary": tell(engine, clock, "Anna's diary is in her desk drawer.", speaker=ANNA_HALL,
                      scope=Scope.PRIVATE),
        "plant": tell(engine, clock, "Die Pflanze im Flur braucht wenig Wasser.", speaker=ANNA_HALL,
                      scope=Scope.ROOM, language="de", provenance=Provenance.OBSERVED),
        "tea": tell(engine, clock, "Tea bags are in the left cupboard.", speaker=JULIAN_KITCHEN,
                    scope=Scope.ROOM, kind=Kind.NOTE),
    }  # fmt: skip


def ids(found: tuple[list[Memory], int]) -> tuple[list[str], int]:
    return [m.id for m in found[0]], found[1]


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (MemoryFilter(), ["tea", "plant", "diary", "cello", "bins"]),
        (MemoryFilter(kind=Kind.EPISODE), ["cello"]),
        (MemoryFilter(scope=Scope.ROOM), ["tea", "plant"]),
        (MemoryFilter(person=ANNA), ["plant", "diary"]),  # what she owns or told
        (MemoryFilter(said_by=JULIAN), ["tea", "cello"]),
        (MemoryFilter(area=HALL), ["plant"]),
        (MemoryFilter(provenance=Provenance.OBSERVED), ["plant"]),
        (MemoryFilter(language="de"), ["plant"]),
        (MemoryFilter(scope=Scope.ROOM, said_by=JULIAN), ["tea"]),
        (MemoryFilter(status=Status.PENDING), []),
    ],
)
def test_find_filters_newest_first_with_the_total(
    engine: MemoryEngine, household: dict[str, Memory], where: MemoryFilter, expected: list[str]
) -> None:
    assert ids(engine.find(ADMIN, where)) == ([household[n].id for n in expected], len(expected))


def test_find_pages_and_counts_all(engine: MemoryEngine, household: dict[str, Memory]) -> None:
    assert ids(engine.find(ADMIN, MemoryFilter(), limit=2, offset=1)) == (
        [household["plant"].id, household["diary"].id],
        5,
    )
    assert ids(engine.find(ADMIN, MemoryFilter(), limit=2, offset=9)) == ([], 5)
    with pytest.raises(InvalidInput):
        engine.find(ADMIN, MemoryFilter(), offset=-1)


def test_find_keeps_to_the_visibility_rule(engine: MemoryEngine, household: dict[str, Memory]) -> None:
    """Julian in the kitchen: not Anna's diary, not the hall's plant."""
    seen, total = ids(engine.find(JULIAN_KITCHEN, MemoryFilter()))
    assert set(seen) == {household[n].id for n in ("bins", "cello", "tea")} and total == 3


def test_find_any_status_shows_the_superseded(engine: MemoryEngine, clock: Clock) -> None:
    coffee, tea = drink(engine, clock, "coffee"), drink(engine, clock, "tea")
    assert ids(engine.find(ADMIN, MemoryFilter())) == ([tea.id], 1)
    assert ids(engine.find(ADMIN, MemoryFilter(status=None))) == ([tea.id, coffee.id], 2)
    assert ids(engine.find(ADMIN, MemoryFilter(status=Status.SUPERSEDED))) == ([coffee.id], 1)


def test_lineage_older_and_newer_with_windows(engine: MemoryEngine, clock: Clock) -> None:
    coffee, tea, water = (drink(engine, clock, v) for v in ("coffee", "tea", "hot water"))
    chain = engine.lineage(tea.id, ADMIN)
    assert chain.memory.id == tea.id
    assert [(m.id, m.valid_from, m.valid_to) for m in chain.older] == [
        (coffee.id, coffee.created_at, tea.created_at)
    ]
    assert [(m.id, m.status, m.valid_to) for m in chain.newer] == [(water.id, Status.ACTIVE, None)]
    assert [m.id for m in engine.history(coffee.id, ADMIN)] == [water.id, tea.id, coffee.id]
    with pytest.raises(InvalidInput):
        engine.lineage(tea.id, ANNA_HALL)  # Julian's private chain


def test_an_edit_is_recalled_and_the_old_text_is_not(engine: MemoryEngine, clock: Clock) -> None:
    key = tell(engine, clock, "The spare key is under the doormat.")
    clock.now += HOUR
    edited = engine.edit(key.id, MemoryEdit(content="The spare key is in the blue tin in the hall."), ADMIN)
    assert (edited.content, edited.updated_at, edited.created_at) == (
        "The spare key is in the blue tin in the hall.",
        clock.now,
        key.created_at,
    )
    (hit, *_) = engine.recall("Where is the spare key, the blue tin?", ANNA_HALL)
    assert hit.memory.id == key.id and hit.memory.content == edited.content
    vector = engine.embedder.embed([embedding_text(edited.content)])[0]
    assert engine.store.similarities([key.id], vector)[key.id] == pytest.approx(1.0, abs=1e-3)  # re-embedded
    everyone = Visibility.of(ADMIN)
    assert [r.id for r in engine.store.lexical(["blue tin"], everyone, 5)] == [key.id]
    assert engine.store.lexical(["doormat"], everyone, 5) == []  # the old words left the full text


def test_an_edit_is_flagged_by_the_sensitive_filter(engine: MemoryEngine, clock: Clock) -> None:
    note = tell(engine, clock, "The garage has a keypad.")
    assert not note.sensitive
    edited = engine.edit(note.id, MemoryEdit(content="The garage code is 4711."), ADMIN)
    assert edited.sensitive and engine.get(note.id, ADMIN) == edited


def test_a_secret_cannot_be_edited_into_a_learned_memory(engine: MemoryEngine, clock: Clock) -> None:
    learned = tell(engine, clock, "The garage has a keypad.", provenance=Provenance.EXTRACTED,
                   source=Source.EXTRACTION, status=Status.PENDING)  # fmt: skip
    with pytest.raises(InvalidInput) as err:
        engine.edit(learned.id, MemoryEdit(content="The garage code is 4711."), ADMIN)
    assert (err.value.field, err.value.reason) == ("content", "sensitive")
    assert engine.get(learned.id, ADMIN) == learned  # nothing changed


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (MemoryEdit(scope=Scope.PRIVATE), "scope_needs_person"),
        (MemoryEdit(scope=Scope.ROOM), "scope_needs_area"),
        (MemoryEdit(content="   "), "empty"),
        (MemoryEdit(content="x" * 1001), "too_long"),
    ],
)
def test_an_invalid_edit_changes_nothing(
    engine: MemoryEngine, clock: Clock, change: MemoryEdit, reason: str
) -> None:
    bins = tell(engine, clock, "The bins go out on Thursday evening.")
    with pytest.raises(InvalidInput) as err:
        engine.edit(bins.id, change, ADMIN)
    assert err.value.reason == reason
    assert engine.get(bins.id, ADMIN) == bins


def test_an_edit_moves_a_memory_to_its_new_scope(engine: MemoryEngine, clock: Clock) -> None:
    bins = tell(engine, clock, "The bins go out on Thursday evening.")
    private = engine.edit(bins.id, MemoryEdit(scope=Scope.PRIVATE, owner_id=ANNA, kind=Kind.NOTE), ADMIN)
    assert (private.scope, private.owner_id, private.area_id, private.kind) == (
        Scope.PRIVATE, ANNA, None, Kind.NOTE,
    )  # fmt: skip
    assert [h.memory.id for h in engine.recall("When do the bins go out?", ANNA_HALL)][:1] == [bins.id]
    assert bins.id not in [h.memory.id for h in engine.recall("When do the bins go out?", JULIAN_KITCHEN)]
    room = engine.edit(bins.id, MemoryEdit(scope=Scope.ROOM, area_id=KITCHEN), ADMIN)
    assert (room.owner_id, room.area_id) == (None, KITCHEN)


def test_a_replaced_value_is_not_edited(engine: MemoryEngine, clock: Clock) -> None:
    coffee = drink(engine, clock, "coffee")
    drink(engine, clock, "tea")
    with pytest.raises(InvalidInput) as err:
        engine.edit(coffee.id, MemoryEdit(content="I drink cocoa."), ADMIN)
    assert err.value.reason == "not_current"


def test_pending_shows_what_approving_replaces(engine: MemoryEngine, clock: Clock) -> None:
    coffee = drink(engine, clock, "coffee")
    tea = drink(engine, clock, "tea", provenance=Provenance.EXTRACTED, status=Status.PENDING)
    note = tell(engine, clock, "The plumber comes on Friday.", status=Status.PENDING,
                provenance=Provenance.EXTRACTED)  # fmt: skip
    review = {m.id: [r.id for r in replaced] for m, replaced in engine.pending_review(ADMIN)}
    assert review == {tea.id: [coffee.id], note.id: []}
    approved, replaced = engine.approve_pending(tea.id, ADMIN)
    assert (approved.status, replaced) == (Status.ACTIVE, (coffee.id,))
    assert engine.get(coffee.id, ADMIN).status is Status.SUPERSEDED  # type: ignore[union-attr]


def test_reject_forgets_a_pending_memory_only(engine: MemoryEngine, clock: Clock) -> None:
    note = tell(engine, clock, "The plumber comes on Friday.", status=Status.PENDING,
                provenance=Provenance.EXTRACTED)  # fmt: skip
    bins = tell(engine, clock, "The bins go out on Thursday evening.")
    with pytest.raises(InvalidInput):
        engine.reject(bins.id, ADMIN)
    assert engine.reject(note.id, ADMIN).id == note.id
    assert engine.get(note.id, ADMIN) is None
    assert engine.tombstones()[0][0].id == note.id


def test_tombstones_listed_and_lifted(engine: MemoryEngine, clock: Clock) -> None:
    code = tell(engine, clock, "The garage code is 4711.")
    bins = tell(engine, clock, "The bins go out on Thursday evening.", speaker=ANNA_HALL, scope=Scope.PRIVATE)
    clock.now += HOUR
    engine.forget(code.id, ADMIN)
    clock.now += HOUR
    engine.forget(bins.id, ADMIN)
    listed, total = engine.tombstones()
    assert total == 2
    assert [(t.id, t.scope, t.owner_id, t.lifted_at) for t in listed] == [
        (bins.id, Scope.PRIVATE, ANNA, None),
        (code.id, Scope.SHARED, None, None),
    ]
    assert engine.is_tombstoned("The garage code is 4711.", scope=Scope.SHARED)
    lifted = engine.lift_tombstone(code.id)
    assert lifted.lifted_at == clock.now
    assert not engine.is_tombstoned("The garage code is 4711.", scope=Scope.SHARED)
    assert engine.tombstones(limit=1, offset=1)[0][0].lifted_at == clock.now
    assert engine.stats().tombstones == 1
    for gone in (code.id, uuid.uuid4().hex):  # lifted already, or never there
        with pytest.raises(InvalidInput) as err:
            engine.lift_tombstone(gone)
        assert err.value.reason == "unknown_tombstone"


def test_stats_count_by_scope_provenance_and_status(
    engine: MemoryEngine, household: dict[str, Memory], clock: Clock
) -> None:
    drink(engine, clock, "coffee")
    drink(engine, clock, "tea")
    engine.forget(household["bins"].id, ADMIN)
    stats = engine.stats()
    assert stats.by_scope == {"private": 2, "room": 2, "shared": 1}
    assert stats.by_provenance == {"confirmed": 4, "observed": 1}
    assert stats.by_status == {"active": 5, "superseded": 1}
    assert (stats.tombstones, stats.tombstones_by_scope) == (1, {"shared": 1})


def test_export_holds_current_with_history_pending_and_tombstone_counts(
    engine: MemoryEngine, clock: Clock
) -> None:
    coffee, tea = drink(engine, clock, "coffee"), drink(engine, clock, "tea")
    plumber = tell(engine, clock, "The plumber comes on Friday.", status=Status.PENDING,
                   provenance=Provenance.EXTRACTED)  # fmt: skip
    engine.forget(tell(engine, clock, "The garage code is 4711.").id, ADMIN)
    export = engine.export()
    assert [(c.memory.id, [m.id for m in c.older]) for c in export.current] == [(tea.id, [coffee.id])]
    assert [m.id for m in export.pending] == [plumber.id]
    assert export.tombstones_by_scope == {"shared": 1}


def draft_of(memory: Memory, **changes: object) -> MemoryDraft:
    """A memory as an import hands it back."""
    draft = MemoryDraft(
        memory.content, speaker=Speaker(person_id=memory.speaker_id), scope=memory.scope, kind=memory.kind,
        language=memory.language, provenance=memory.provenance, source=memory.source,
        owner_id=memory.owner_id, area_id=memory.area_id, subject=memory.subject,
        predicate=memory.predicate, value=memory.value, status=memory.status,
    )  # fmt: skip
    return replace(draft, **changes)  # type: ignore[arg-type]


def said(m: Memory) -> tuple[object, ...]:
    """What an import must keep of a memory."""
    return m.content, m.kind, m.scope, m.owner_id, m.area_id, m.provenance, m.language, m.speaker_id


def test_import_into_an_empty_store_then_again(
    make_engine: Callable[..., MemoryEngine], household: dict[str, Memory]
) -> None:
    drafts = [draft_of(m) for m in household.values()]
    target = make_engine("target.db")
    report = target.import_memories(drafts)
    assert (report.created, report.duplicates, report.rejected) == (5, 0, ())
    found, _ = target.find(ADMIN, MemoryFilter())
    assert sorted(map(said, found)) == sorted(map(said, household.values()))
    again = target.import_memories(drafts)
    assert (again.created, again.duplicates, again.rejected) == (0, 5, ())
    assert target.find(ADMIN, MemoryFilter())[1] == 5


def test_import_overwrites_nothing_and_brings_back_nothing_forgotten(
    engine: MemoryEngine, clock: Clock
) -> None:
    tea = drink(engine, clock, "tea")
    code = tell(engine, clock, "The garage code is 4711.")
    engine.forget(code.id, ADMIN)
    coffee = replace(tea, content="I drink coffee in the morning.", value="coffee")
    report = engine.import_memories([
        draft_of(coffee),  # another value of a fact the household holds now
        draft_of(code),  # forgotten
        draft_of(tea, content=""),  # remember refuses it
        draft_of(tea, scope=Scope.ROOM, area_id=None),  # a room without its area
    ])  # fmt: skip
    assert (report.created, report.duplicates) == (0, 0)
    assert report.rejected == ((0, "conflict"), (1, "forgotten"), (2, "empty"), (3, "scope_needs_area"))
    assert ids(engine.find(ADMIN, MemoryFilter(status=None))) == ([tea.id], 1)
    assert engine.is_tombstoned("The garage code is 4711.", scope=Scope.SHARED)


def test_an_older_export_brings_back_nothing_replaced(engine: MemoryEngine, clock: Clock) -> None:
    """An export made before a value was replaced, imported again: what it holds was said here and
    has been replaced since, so it is a duplicate, never current again (its wording superseded
    in its bucket, or the value its key's current holder has)."""
    shed = tell(engine, clock, "The lawnmower is in the shed.")
    old = tell(engine, clock, "I drink coffee in the morning.", speaker=JULIAN_KITCHEN, scope=Scope.PRIVATE,
               subject="me", predicate="drinks", value="coffee")  # fmt: skip
    export = [draft_of(shed), draft_of(old)]
    garage = tell(engine, clock, "The lawnmower is behind the garage now.", replaces=(shed.id,))
    tea = drink(engine, clock, "tea")
    assert engine.get(old.id, ADMIN).status is Status.SUPERSEDED  # type: ignore[union-attr]
    report = engine.import_memories(export)
    assert (report.created, report.duplicates, report.rejected) == (0, 2, ())
    assert ids(engine.find(ADMIN, MemoryFilter())) == ([tea.id, garage.id], 2)
    assert ids(engine.find(ADMIN, MemoryFilter(status=None)))[1] == 4
    archived = tell(engine, clock, "The bins go out on Thursday evening.")
    engine.store.set_status(archived.id, Status.ARCHIVED, None)
    assert engine.import_memories([draft_of(archived, content="the bins go out on thursday evening")]) \
        .duplicates == 1  # fmt: skip
    assert ids(engine.find(ADMIN, MemoryFilter()))[1] == 2


def test_an_import_never_replaces_a_keys_current_value(engine: MemoryEngine, clock: Clock) -> None:
    """A keyed memory whose key holds another value here is a conflict: held by the key's ACTIVE
    memories, or by the memory (told without the key) that replaced its last value."""
    shed = tell(engine, clock, "The lawnmower is in the shed.", subject="lawnmower", predicate="place",
                value="shed")  # fmt: skip
    garage = tell(engine, clock, "The lawnmower is behind the garage now.", replaces=(shed.id,))
    coffee = drink(engine, clock, "coffee")
    tea = drink(engine, clock, "tea")
    report = engine.import_memories([
        draft_of(shed, content="Our lawnmower lives in the shed."),  # the key's value, replaced here
        draft_of(coffee, content="Coffee is what I drink in the morning."),  # tea holds the key now
        draft_of(garage, subject="lawnmower", predicate="place", value="behind the garage"),
    ])  # fmt: skip
    assert report.rejected == ((0, "conflict"), (1, "conflict"))
    assert (report.created, report.duplicates) == (0, 1)  # the current holder said again
    assert ids(engine.find(ADMIN, MemoryFilter())) == ([tea.id, garage.id], 2)


def test_an_import_makes_no_system_memory(engine: MemoryEngine, clock: Clock) -> None:
    report = engine.import_memories(
        [MemoryDraft("Everyone may hear this.", speaker=ADMIN, scope=Scope.SYSTEM)]
    )
    assert (report.created, report.rejected) == (0, ((0, "scope_reserved"),))
    assert engine.find(ADMIN, MemoryFilter(status=None))[1] == 0


def test_approve_and_reject_say_when_a_memory_is_not_pending(engine: MemoryEngine, clock: Clock) -> None:
    bins = tell(engine, clock, "The bins go out on Thursday evening.")
    for act in (engine.approve, engine.reject):
        with pytest.raises(InvalidInput) as err:
            act(bins.id, ADMIN)
        assert (err.value.field, err.value.reason) == ("memory_id", "not_pending")
        with pytest.raises(InvalidInput) as err:
            act("no-such-id", ADMIN)
        assert err.value.reason == "unknown_memory"
    assert engine.get(bins.id, ADMIN) == bins


def test_an_edit_refuses_an_owner_or_area_the_scope_does_not_keep(engine: MemoryEngine, clock: Clock) -> None:
    bins = tell(engine, clock, "The bins go out on Thursday evening.")
    for change, field, reason in (
        (MemoryEdit(owner_id=JULIAN), "owner_id", "owner_needs_private"),
        (MemoryEdit(owner_id=JULIAN, scope=Scope.ROOM, area_id=KITCHEN), "owner_id", "owner_needs_private"),
        (MemoryEdit(area_id=KITCHEN), "area_id", "area_needs_room"),
        (MemoryEdit(area_id=KITCHEN, scope=Scope.PRIVATE, owner_id=JULIAN), "area_id", "area_needs_room"),
    ):
        with pytest.raises(InvalidInput) as err:
            engine.edit(bins.id, change, ADMIN)
        assert (err.value.field, err.value.reason) == (field, reason)
    assert engine.get(bins.id, ADMIN) == bins
    moved = engine.edit(bins.id, MemoryEdit(owner_id=JULIAN, scope=Scope.PRIVATE), ADMIN)
    assert (moved.scope, moved.owner_id) == (Scope.PRIVATE, JULIAN)
    assert engine.edit(bins.id, MemoryEdit(owner_id=ANNA), ADMIN).owner_id == ANNA  # private already


def test_an_import_embeds_each_draft_once_in_batches_and_reports_progress(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """150 drafts, two of them refused (empty, only invisible characters), in batches of
    IMPORT_BATCH: each valid text is embedded exactly once (not again by remember), batch by
    batch, and progress says how many drafts are handled after each batch."""
    from custom_components.memory.engine.parts import transfer  # noqa: PLC0415

    drafts = [
        MemoryDraft(f"Shelf {n} in the cellar holds box number {n}.", speaker=ADMIN, scope=Scope.SHARED)
        for n in range(148)
    ]
    drafts[10:10] = [MemoryDraft("", speaker=ADMIN, scope=Scope.SHARED)]
    drafts[100:100] = [MemoryDraft("\u200b\u200b", speaker=ADMIN, scope=Scope.SHARED)]
    embedded: list[list[str]] = []
    real = engine.embedder.embed

    def counting(texts: list[str]) -> object:
        embedded.append(list(texts))
        return real(texts)

    monkeypatch.setattr(engine.embedder, "embed", counting)
    seen: list[tuple[int, int]] = []
    report = engine.import_memories(drafts, progress=lambda done, total: seen.append((done, total)))
    assert (report.created, sorted(i for i, _ in report.rejected)) == (148, [10, 100])
    texts = [t for call in embedded for t in call]
    assert len(texts) == len(set(texts)) == 148
    assert [len(call) for call in embedded] == [
        transfer.IMPORT_BATCH - 1,
        transfer.IMPORT_BATCH - 1,
        150 - 2 * transfer.IMPORT_BATCH,
    ]
    assert seen == [(transfer.IMPORT_BATCH, 150), (2 * transfer.IMPORT_BATCH, 150), (150, 150)]
