"""engine/transfer.py: a move copies every table, verifies counts and checksums, refuses a
non-empty target, and a move that fails midway leaves the source intact and usable."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import pytest

from custom_components.memory.engine import transfer
from custom_components.memory.engine.api import MemoryDraft, StoreUnavailable
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.factory import build_store
from custom_components.memory.engine.facts import Relation
from custom_components.memory.engine.models import Role, Scope, Speaker, Status, TranscriptTurn
from custom_components.memory.engine.store.base import TRANSFER_TABLES
from custom_components.memory.engine.transfer import MoveMismatch, TargetNotEmpty, move, table_digest

from .conftest import ANNA, JULIAN, KITCHEN

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def populate(engine: MemoryEngine) -> dict[str, int]:
    """Something in every TRANSFER_TABLES table: memories of each scope with history (a
    superseded value), a forgotten one (tombstone), a pending one, transcripts, a voiceprint, a
    verdict on a pair. Returns the expected row count per table."""
    julian, anna = Speaker(person_id=JULIAN, area_id=KITCHEN), Speaker(person_id=ANNA)
    remember = engine.remember
    remember(MemoryDraft("The spare key is in the blue tin.", speaker=julian, scope=Scope.SHARED))
    remember(MemoryDraft("The oven timer sticks.", speaker=julian, scope=Scope.ROOM))
    remember(MemoryDraft("My PIN for the bike lock is 4711.", speaker=anna, scope=Scope.PRIVATE))
    remember(MemoryDraft("The Wi-Fi password is apple.", speaker=julian, scope=Scope.SHARED,
                               subject="home", predicate="wifi_password", value="apple"))  # fmt: skip
    remember(MemoryDraft("The Wi-Fi password is banana.", speaker=julian, scope=Scope.SHARED,
                         subject="home", predicate="wifi_password", value="banana"))  # fmt: skip
    gone = remember(MemoryDraft("The neighbour's cat is called Tom.", speaker=julian, scope=Scope.SHARED))
    engine.forget(gone.memory.id, julian)
    remember(MemoryDraft("Anna likes green tea.", speaker=julian, scope=Scope.SHARED, status=Status.PENDING))
    a = remember(MemoryDraft("Bins go out on Tuesday.", speaker=julian, scope=Scope.SHARED))
    b = remember(MemoryDraft("The recycling is collected on Thursday.", speaker=julian, scope=Scope.SHARED))
    engine.settle_pair(a.memory.id, b.memory.id, Relation.UNRELATED)
    engine.recall("where is the spare key", julian)  # an access count to carry over
    engine.record_turns([
        TranscriptTurn("c1", i, Role.USER if i % 2 == 0 else Role.ASSISTANT, f"turn {i}", "en",
                       T0 + timedelta(seconds=i), speaker_id=JULIAN)
        for i in range(4)
    ])  # fmt: skip
    engine.enroll_voice(ANNA, np.linspace(0.1, 1.0, 192, dtype=np.float32), 3, "ecapa-test")
    return {"memories": 8, "tombstones": 1, "transcript_turns": 4, "voiceprints": 1, "pair_verdicts": 1}


def digests(engine: MemoryEngine) -> dict[str, transfer.TableDigest]:
    return {t: table_digest(engine.store, t) for t in TRANSFER_TABLES}  # type: ignore[arg-type]


@pytest.fixture
def make_store_engine(
    tmp_path: Any, encoder: BundledEmbedder, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], MemoryEngine]]:
    """Open engines over build_store: "sqlite" (a file under tmp_path) or "postgres" (a fresh
    database on the session's real server)."""
    opened: list[MemoryEngine] = []

    def make(kind: str) -> MemoryEngine:
        if kind == "sqlite":
            store = build_store("sqlite", db_path=str(tmp_path / f"{len(opened)}.db"))
        else:  # one database per test (pg_url), one household
            store = build_store("postgresql", db_url=request.getfixturevalue("pg_url"), household="home")
        engine = MemoryEngine(store, encoder)
        engine.open()
        opened.append(engine)
        return engine

    yield make
    for engine in opened:
        engine.close()


def test_sqlite_to_sqlite_copies_everything(make_store_engine: Callable[[str], MemoryEngine]) -> None:
    source, target = make_store_engine("sqlite"), make_store_engine("sqlite")
    expected = populate(source)
    before = digests(source)
    report = move(source.store, target.store)  # type: ignore[arg-type]
    assert {t: d.rows for t, d in report.tables.items()} == expected
    assert report.tables == before == digests(target)
    # the target works as a store: recall, history, the tombstone, the voice, the verdict
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    hits = target.recall("where is the spare key", julian)
    assert hits and hits[0].memory.content == "The spare key is in the blue tin."
    assert not any("4711" in h.memory.content for h in target.recall("bike lock PIN", julian))
    assert any("4711" in h.memory.content for h in target.recall("bike lock PIN", Speaker(person_id=ANNA)))
    assert target.is_tombstoned("The neighbour's cat is called Tom.", scope=Scope.SHARED)
    assert [v.person_id for v in target.voiceprints()] == [ANNA]
    assert len(target.conversation("c1")) == 4
    assert target.stats().memories == source.stats().memories


def test_target_not_empty_is_refused(make_store_engine: Callable[[str], MemoryEngine]) -> None:
    source, target = make_store_engine("sqlite"), make_store_engine("sqlite")
    populate(source)
    target.remember(MemoryDraft("Already here.", speaker=Speaker(), scope=Scope.SHARED))
    kept = digests(target)
    with pytest.raises(TargetNotEmpty):
        move(source.store, target.store)  # type: ignore[arg-type]
    assert digests(target) == kept  # nothing overwritten or added


def test_interrupted_move_leaves_the_source_intact(
    make_store_engine: Callable[[str], MemoryEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = make_store_engine("sqlite"), make_store_engine("sqlite")
    populate(source)
    before = digests(source)
    real = type(target.store).import_records
    calls = []

    def failing(self: Any, table: str, rows: Any) -> None:
        if self is target.store and table == "transcript_turns":
            raise StoreUnavailable("connection lost mid-copy")
        calls.append(table)
        real(self, table, rows)

    monkeypatch.setattr(type(target.store), "import_records", failing)
    with pytest.raises(StoreUnavailable, match="mid-copy"):
        move(source.store, target.store, batch=3)  # type: ignore[arg-type]
    assert calls[:1] == ["memories"]  # it did copy before failing
    assert digests(source) == before
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)
    source.remember(MemoryDraft("The ladder is in the garage.", speaker=julian, scope=Scope.SHARED))
    assert source.recall("where is the ladder", julian)[0].memory.content == "The ladder is in the garage."


def test_a_difference_is_a_mismatch(
    make_store_engine: Callable[[str], MemoryEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A target that silently loses or alters a row fails verification, naming the table."""
    source, target = make_store_engine("sqlite"), make_store_engine("sqlite")
    populate(source)
    real = type(target.store).import_records

    def altering(self: Any, table: str, rows: Any) -> None:
        if self is target.store and table == "voiceprints":
            rows = [{**r, "clips": int(r["clips"]) + 1} for r in rows]  # type: ignore[call-overload]
        real(self, table, rows)

    monkeypatch.setattr(type(target.store), "import_records", altering)
    with pytest.raises(MoveMismatch, match="voiceprints") as caught:
        move(source.store, target.store)  # type: ignore[arg-type]
    assert caught.value.source.rows == caught.value.target.rows == 1
    assert caught.value.source.checksum != caught.value.target.checksum


def test_checksum_ignores_export_order_and_number_types() -> None:
    """The same records in another order, with 3 as an INTEGER or 3.0 as a REAL, hash the same;
    any changed value does not."""

    class Rows:
        def __init__(self, rows: list[dict[str, Any]]) -> None:
            self.rows = rows

        def export_records(self, table: str, batch: int = 1000) -> Iterator[list[dict[str, Any]]]:
            yield self.rows

    cols = TRANSFER_TABLES["voiceprints"]
    one = dict(zip(cols, ("person.a", b"\x00\x01", 3, "m", "t1", "t2"), strict=True))
    two = dict(zip(cols, ("person.b", b"\x02", 1, "m", "t1", "t2"), strict=True))
    first = table_digest(Rows([one, two]), "voiceprints")  # type: ignore[arg-type]
    assert table_digest(Rows([two, {**one, "clips": 3.0}]), "voiceprints") == first  # type: ignore[arg-type]
    assert table_digest(Rows([two, {**one, "vector": b"\x00\x02"}]), "voiceprints") != first  # type: ignore[arg-type]
    assert first.rows == 2


def test_sqlite_postgres_sqlite_round_trip(make_store_engine: Callable[[str], MemoryEngine]) -> None:
    """SQLite → PostgreSQL → SQLite: every table's rows and checksum equal at each step, and the
    PostgreSQL copy answers like the original."""
    source = make_store_engine("sqlite")
    expected = populate(source)
    there = make_store_engine("postgres")
    report = move(source.store, there.store)  # type: ignore[arg-type]
    assert {t: d.rows for t, d in report.tables.items()} == expected
    back = make_store_engine("sqlite")
    assert move(there.store, back.store).tables == report.tables == digests(back)  # type: ignore[arg-type]
    julian = Speaker(person_id=JULIAN, area_id=KITCHEN)  # (recall counts an access: after the moves)
    hits = there.recall("where is the spare key", julian)
    assert hits[0].memory.content == "The spare key is in the blue tin."
    assert there.is_tombstoned("The neighbour's cat is called Tom.", scope=Scope.SHARED)


def test_interrupted_move_to_postgres_leaves_the_source_intact(
    make_store_engine: Callable[[str], MemoryEngine], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, target = make_store_engine("sqlite"), make_store_engine("postgres")
    populate(source)
    before = digests(source)
    real = type(target.store).import_records

    def failing(self: Any, table: str, rows: Any) -> None:
        if table == "tombstones":
            raise StoreUnavailable("connection to the server was lost")
        real(self, table, rows)

    monkeypatch.setattr(type(target.store), "import_records", failing)
    with pytest.raises(StoreUnavailable):
        move(source.store, target.store)  # type: ignore[arg-type]
    assert digests(source) == before
    assert not target.store.is_empty()  # type: ignore[attr-defined]  # the partial copy: a retry is refused
    with pytest.raises(TargetNotEmpty):
        move(source.store, target.store)  # type: ignore[arg-type]


@pytest.mark.parametrize(("source_kind", "target_kind"), [("sqlite", "postgres"), ("postgres", "sqlite")])
def test_move_reports_progress_in_rows_to_the_end(
    make_store_engine: Callable[[str], MemoryEngine], source_kind: str, target_kind: str
) -> None:
    """progress(done, total) after every batch: done only grows, total is each row copied once and
    read back twice, and a verified move ends at done == total."""
    staged = make_store_engine("sqlite")
    expected = populate(staged)
    source = make_store_engine(source_kind)
    if source_kind != "sqlite":
        move(staged.store, source.store)  # type: ignore[arg-type]
    else:
        source = staged
    assert {t: source.store.count_records(t) for t in TRANSFER_TABLES} == expected  # type: ignore[attr-defined]
    seen: list[tuple[int, int]] = []
    target = make_store_engine(target_kind).store
    report = move(source.store, target, batch=2, progress=lambda d, t: seen.append((d, t)))  # type: ignore[arg-type]
    rows = sum(d.rows for d in report.tables.values())
    assert rows == sum(expected.values()) and rows > 2
    assert {t for _, t in seen} == {3 * rows}
    assert [d for d, _ in seen] == sorted(d for d, _ in seen) and seen[-1] == (3 * rows, 3 * rows)
    assert len(seen) >= 3 * (rows // 2)  # a call per batch of 2, in each of the three passes
