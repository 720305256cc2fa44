"""The SQLite store under faults (DESIGN §7.9, C33): a file deleted or replaced while open, a
corrupt file, another process holding the file's lock, a forget whose checkpoint cannot finish,
an index change that fails after its commit. A write that cannot be made durable is refused,
never acknowledged; reads go on; nothing is left half-open; the index never disagrees with the
rows."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from custom_components.memory.engine.api import (
    MemoryDraft,
    StoreCorrupt,
    StoreFileChanged,
    StoreUnavailable,
    StoreUnwritable,
)
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker, Status
from custom_components.memory.engine.store.base import MemoryFilter, Visibility
from custom_components.memory.engine.store.sqlite import SqliteStore, connection, index

ADMIN = Speaker.administrator()
PAGE = 4096  # SQLite's default page size (the store never changes it)


def _remember(engine: MemoryEngine, text: str) -> str:
    return engine.remember(MemoryDraft(text, speaker=Speaker(), scope=Scope.SHARED)).memory.id


def _active_ids(engine: MemoryEngine) -> set[str]:
    return {m.id for m in engine.find(ADMIN, MemoryFilter(status=Status.ACTIVE), limit=10_000)[0]}


def _index_ids(engine: MemoryEngine) -> set[str]:
    vector = engine.embedder.embed(["anything"])[0]
    return {i for i, _ in engine.store.semantic(vector, Visibility.of(ADMIN), k=10_000)[0]}


def test_c33_deleted_file_refuses_writes(
    sqlite_engine: MemoryEngine, make_sqlite_engine: Callable[..., MemoryEngine]
) -> None:
    """The file deleted under a running store: the next remember is refused (StoreFileChanged),
    nothing more is acknowledged; what was acknowledged before is what a restore brings back."""
    kept = _remember(sqlite_engine, "The spare key is in the blue tin.")
    path = Path(sqlite_engine.store.path)  # type: ignore[attr-defined]
    backup = path.with_name("backup.db")
    sqlite_engine.store.pause_writes(5)
    shutil.copy(path, backup)
    sqlite_engine.store.resume_writes()
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    with pytest.raises(StoreFileChanged) as refused:
        _remember(sqlite_engine, "The bike pump is in the garage.")
    assert refused.value.writing and str(path) in str(refused.value)
    with pytest.raises(StoreFileChanged):
        sqlite_engine.forget(kept, ADMIN)
    assert sqlite_engine.recall("Where is the spare key?", Speaker()) != []  # reads go on
    assert not path.exists()  # a read never creates a new, empty file in its place
    sqlite_engine.close()
    shutil.copy(backup, path)
    reopened = make_sqlite_engine()
    assert {m.content for m in reopened.list_memories(ADMIN)} == {"The spare key is in the blue tin."}


def test_c33_replaced_file_refuses_writes(sqlite_engine: MemoryEngine, tmp_path: Path) -> None:
    """Another database moved over the file (a restore by hand, a sync tool): writes refused."""
    _remember(sqlite_engine, "The boiler ticket is HX-4471.")
    other = SqliteStore(tmp_path / "other.db")
    other.open(sqlite_engine.embedder.identity)
    other.close()
    os.replace(tmp_path / "other.db", sqlite_engine.store.path)  # type: ignore[attr-defined]
    with pytest.raises(StoreFileChanged):
        _remember(sqlite_engine, "The dishwasher ticket is HX-4478.")
    assert [m.content for m in sqlite_engine.list_memories(ADMIN)] == ["The boiler ticket is HX-4471."]


def _store_with(tmp_path: Path, encoder: BundledEmbedder, texts: list[str]) -> Path:
    engine = MemoryEngine(SqliteStore(tmp_path / "memory.db"), encoder)
    engine.open()
    for text in texts:
        _remember(engine, text)
    engine.close()
    return tmp_path / "memory.db"


def _damage(path: Path, page: int) -> bytes:
    """Overwrite one page (1-based) with garbage; returns the file's bytes afterwards."""
    with path.open("r+b") as f:
        f.seek((page - 1) * PAGE)
        f.write(bytes(range(256)) * (PAGE // 256))
    return path.read_bytes()


@pytest.mark.parametrize("where", ["first page", "middle page"])
def test_c33_corrupt_file_at_open(tmp_path: Path, encoder: BundledEmbedder, where: str) -> None:
    """A damaged file: open raises StoreCorrupt naming the file and what to do; nothing is left
    open and the file is neither repaired nor replaced (its bytes are unchanged)."""
    path = _store_with(tmp_path, encoder, [f"Jar {n} holds buttons of lot {n}." for n in range(300)])
    pages = path.stat().st_size // PAGE
    damaged = _damage(path, 1 if where == "first page" else pages // 2)
    engine = MemoryEngine(SqliteStore(path), encoder)
    with pytest.raises(StoreCorrupt) as failed:
        engine.open()
    assert str(path) in str(failed.value) and "backup" in str(failed.value)
    with pytest.raises(StoreUnavailable):  # not half-open
        engine.list_memories(ADMIN)
    engine.close()
    assert path.read_bytes() == damaged


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    """Wait until `condition` holds (a hang fails after a minute)."""
    done = threading.Event()
    for _ in range(6000):
        if condition():
            return
        done.wait(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_reads_go_on_while_another_process_holds_the_lock(sqlite_engine: MemoryEngine) -> None:
    """Another process holds the file's write lock and our write waits for it: reads answer at once
    (they never wait for a writer); the write is stored once the lock is released."""
    _remember(sqlite_engine, "The ladder hangs in the garage.")
    store = sqlite_engine.store
    outsider = sqlite3.connect(store.path, isolation_level=None)  # type: ignore[attr-defined]
    outsider.execute("BEGIN IMMEDIATE")
    stored: list[str] = []
    write = threading.Thread(
        target=lambda: stored.append(_remember(sqlite_engine, "The tent is in the loft."))
    )
    found: list[int] = []
    listed: list[int] = []

    def recall() -> None:
        found.append(len(sqlite_engine.recall("Where is the ladder?", Speaker())))

    reads = [
        threading.Thread(target=recall),
        threading.Thread(target=lambda: listed.append(len(sqlite_engine.list_memories(ADMIN)))),
    ]
    try:
        write.start()
        _wait_for(lambda: store._gate._owner is not None, "the write to wait for the lock")  # type: ignore[attr-defined]
        for thread in reads:
            thread.start()
        for thread in reads:
            thread.join(timeout=60)
            assert not thread.is_alive(), "a read waited for a writer"
        assert write.is_alive() and not stored  # still waiting for the other process
        assert found == [1] and listed == [1]
    finally:
        outsider.execute("ROLLBACK")
        outsider.close()
    write.join(timeout=60)
    assert not write.is_alive() and len(stored) == 1
    assert sqlite_engine.get(stored[0], ADMIN) is not None


def test_forget_done_although_its_checkpoint_cannot_finish(
    sqlite_engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A reader of older pages keeps the WAL from being truncated after a forget: the forget is
    reported done (it committed), the failure logged, and the checkpoint done after the next write."""
    monkeypatch.setattr(connection, "CHECKPOINT_BUSY_TIMEOUT", 0.05)
    path = sqlite_engine.store.path  # type: ignore[attr-defined]
    memory_id = _remember(sqlite_engine, "The alarm code is 2580.")
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM memories").fetchone()  # holds a snapshot before the forget
    try:
        forgotten = sqlite_engine.forget(memory_id, ADMIN)
    finally:
        reader.execute("COMMIT")
        reader.close()
    assert forgotten.id == memory_id
    assert sqlite_engine.get(memory_id, ADMIN) is None
    assert "could not be checkpointed" in caplog.text
    _remember(sqlite_engine, "The tent is in the loft.")  # the next write checkpoints
    assert Path(str(path) + "-wal").stat().st_size == 0
    assert b"2580" not in Path(path).read_bytes()


def test_index_rebuilt_when_an_index_change_fails(
    sqlite_engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An index change that raises after its commit: the index is rebuilt from the committed rows
    (the write is stored and found), never left out of step."""
    first = _remember(sqlite_engine, "The kettle is in the attic.")
    real = index.index_memory
    calls = {"n": 0}

    def failing_once(*args: object, **kwargs: object) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("simulated failure inside the index")
        real(*args, **kwargs)  # type: ignore[arg-type]

    from custom_components.memory.engine.store.sqlite import records  # noqa: PLC0415

    monkeypatch.setattr(records, "index_memory", failing_once)
    second = _remember(sqlite_engine, "The drill is in the shed.")
    assert _index_ids(sqlite_engine) == _active_ids(sqlite_engine) == {first, second}


def test_failed_commit_leaves_the_index_as_it_was(sqlite_engine: MemoryEngine) -> None:
    """A write that fails inside its transaction changes neither the rows nor the index."""
    kept = _remember(sqlite_engine, "The picnic rug is in the car.")
    sqlite_engine.store._db().execute("CREATE TRIGGER refuse BEFORE INSERT ON memories "  # type: ignore[attr-defined]
                                      "BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END")  # fmt: skip
    with pytest.raises(StoreUnavailable) as refused:
        _remember(sqlite_engine, "The paint roller is in the cellar.")
    assert refused.value.writing
    assert _index_ids(sqlite_engine) == _active_ids(sqlite_engine) == {kept}


def test_full_store_refuses_writes_and_recovers_by_itself(sqlite_engine: MemoryEngine) -> None:
    """The database cannot grow (SQLite's own "database or disk is full", reached with
    max_page_count): a remember is refused with StoreUnwritable and nothing is stored; reads go
    on; once the store may grow again the next remember works (no reopen) and the fault is gone."""
    kept = _remember(sqlite_engine, "The spare key is in the blue tin.")
    conn = sqlite_engine.store._db()  # type: ignore[attr-defined]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreUnwritable) as refused:
        for n in range(200):  # the first write that needs a new page fails
            _remember(sqlite_engine, f"Filler note {n}: " + "spare parts and screws " * 30)
    assert refused.value.writing and sqlite_engine.write_fault is not None
    stored = {m.content for m in sqlite_engine.list_memories(ADMIN, limit=1000)}
    assert "The spare key is in the blue tin." in stored
    assert sqlite_engine.get(kept, ADMIN) is not None  # reads go on
    assert _index_ids(sqlite_engine) == _active_ids(sqlite_engine)
    conn.execute("PRAGMA max_page_count = 1073741823")
    again = _remember(sqlite_engine, "The tent is in the loft.")
    assert sqlite_engine.get(again, ADMIN) is not None and sqlite_engine.write_fault is None


def test_another_programs_database_is_refused_and_left_alone(
    tmp_path: Path, encoder: BundledEmbedder
) -> None:
    """The store pointed at another program's SQLite file (the recorder's, say): refused at open,
    the file unchanged — no memory tables added, its journal mode kept."""
    path = tmp_path / "home-assistant_v2.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE states (state_id INTEGER PRIMARY KEY, state TEXT)")
        conn.execute("INSERT INTO states (state) VALUES ('on')")
        conn.commit()
    before = path.read_bytes()
    engine = MemoryEngine(SqliteStore(path), encoder)
    with pytest.raises(StoreUnavailable) as refused:
        engine.open()
    assert "not a memory store" in str(refused.value)
    engine.close()
    assert path.read_bytes() == before


def test_import_waits_for_the_disk_once_and_other_writers_at_each_commit(
    sqlite_engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import (store.bulk_writes) commits its drafts with synchronous=NORMAL and fsyncs the WAL
    once before it returns; a remember from another thread meanwhile commits with FULL; after the
    import the write connection is FULL again."""
    store = sqlite_engine.store
    conn = store._db()  # type: ignore[attr-defined]
    events: list[tuple[str, str]] = []  # (thread name, statement or "sync")
    conn.set_trace_callback(lambda sql: events.append((threading.current_thread().name, sql)))
    real_sync = connection._sync
    monkeypatch.setattr(
        connection, "_sync", lambda path: (events.append(("sync", str(path))), real_sync(path))
    )
    other_started, other_done = threading.Event(), threading.Event()
    places = [("drill", "shed"), ("kettle", "attic"), ("lamp", "hall")] * 4
    said = [f"Imported note {n}: the {thing} is in the {place}." for n, (thing, place) in enumerate(places)]
    drafts = [MemoryDraft(text, speaker=ADMIN, scope=Scope.SHARED) for text in said]

    def other() -> None:
        other_started.wait(60)
        _remember(sqlite_engine, "The pump is in the garden shed.")
        other_done.set()

    def progress(done: int, total: int) -> None:  # between import batches: the other writer runs
        other_started.set()
        assert other_done.wait(60), "the other writer hung"

    monkeypatch.setattr("custom_components.memory.engine.parts.transfer.IMPORT_BATCH", 4)
    worker = threading.Thread(target=other, name="other")
    worker.start()
    report = sqlite_engine.import_memories(drafts, progress=progress)
    worker.join(60)
    conn.set_trace_callback(None)
    assert report.created == len(drafts)

    setting, seen = "FULL", []  # each thread's commits with the setting they ran under
    for who, sql in events:
        if sql.startswith("PRAGMA synchronous="):
            setting = sql.split("=", 1)[1]
        elif sql == "COMMIT":
            seen.append((who, setting))
    assert {s for who, s in seen if who == "other"} == {"FULL"}
    assert {s for who, s in seen if who != "other"} == {"NORMAL"}
    assert len([s for s in seen if s[0] != "other"]) >= len(drafts)
    syncs = [i for i, (who, _) in enumerate(events) if who == "sync"]
    last_commit = max(i for i, (who, sql) in enumerate(events) if sql == "COMMIT" and who != "other")
    assert len(syncs) == 1 and syncs[0] > last_commit and events[syncs[0]][1].endswith("-wal")
    _remember(sqlite_engine, "The ladder is in the garage.")
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again


def test_import_not_acknowledged_when_the_disk_cannot_be_synced(
    sqlite_engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The WAL's fsync at the end of an import fails: the import raises StoreUnavailable (its
    report is never returned), and the next writes go on durably."""

    def refuse(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(connection.os, "fsync", refuse)
    with pytest.raises(StoreUnavailable):
        sqlite_engine.import_memories(
            [MemoryDraft("The hose is in the shed.", speaker=ADMIN, scope=Scope.SHARED)]
        )
    monkeypatch.undo()
    assert _remember(sqlite_engine, "The rake is in the shed.")
    assert sqlite_engine.store._db().execute("PRAGMA synchronous").fetchone()[0] == 2  # type: ignore[attr-defined]
