"""Home Assistant backups take a consistent copy of the memory store (custom_components/memory/
backup.py), with HA's real backup component, its local backup agent and its real restore.

The backups are HA's own: a tar holding backup.json and homeassistant.tar.gz (the config
directory under data/), read here with tarfile (unencrypted: no password). What the writes do while
a backup runs is tested by calling the platform's async_pre_backup / async_post_backup, as HA's
backup manager (and Supervisor's backup/start, backup/end) calls them; which thread waits in the
store's write gate is seen by wrapping the gate's condition (plumbing), never by sleeping.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import sqlite3
import tarfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from homeassistant import backup_restore
from homeassistant.components.backup import BackupManager
from homeassistant.components.backup import manager as backup_manager
from homeassistant.components.backup.const import DATA_MANAGER
from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.core import HomeAssistant, ServiceCall
from homeassistant.exceptions import HomeAssistantError
from homeassistant.setup import async_setup_component

from custom_components.memory import backup
from custom_components.memory.engine.api import MemoryDraft, StoreUnavailable, WritesPaused
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store import write_gate
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.store.write_gate import WriteGate
from custom_components.memory.storage import anchor_key
from custom_components.memory.voice import MODEL_IDENTITY
from tests.conftest import TEST_DB, Resident, Room, async_call

LOCAL_AGENT = "backup.local"
WAIT = 60.0  # s before a wait that should end counts as a hang (the test fails, never blocks)
SHORT = 0.3  # s: PAUSE_WAIT / PRE_BACKUP_WAIT made short for the tests of their refusals

SHARED = "The spare key for the cellar is in the blue tin in the hall."
PRIVATE = "My dentist appointment is on Friday at nine."
ROOM = "The kitchen window sticks; lift it before opening."
SECRET = "The garden safe code is Zwirbelquast 4711."
LATER = "The chimney sweep comes on the first Monday of March."  # written after the forget


@pytest.fixture
async def manager(household: HomeAssistant) -> BackupManager:
    """HA's backup manager with its local agent (backups under the config dir's backups/)."""
    assert await async_setup_component(household, "backup", {})
    await household.async_block_till_done()
    return household.data[DATA_MANAGER]


async def _fill(hass: HomeAssistant, engine: MemoryEngine, julian: Resident, kitchen: Room) -> np.ndarray:
    """Shared, private and room memories, a forgotten one (its tombstone), then a voiceprint and
    one more memory, which are in the WAL only until something checkpoints it (the forget did,
    before them). Returns the voiceprint's unit vector."""
    await async_call(hass, "remember", {"content": SHARED})
    await async_call(hass, "remember", {"content": PRIVATE, "scope": "private"}, context=julian.context)
    await async_call(hass, "remember", {"content": ROOM, "scope": "room", "area": kitchen.area_id})
    secret = await async_call(hass, "remember", {"content": SECRET})
    await async_call(hass, "forget", {"memory_id": secret["memory"]["id"]})
    vector = np.random.default_rng(7).standard_normal(256).astype(np.float32)
    await hass.async_add_executor_job(engine.enroll_voice, julian.person_id, vector, 3, MODEL_IDENTITY)
    await async_call(hass, "remember", {"content": LATER})
    return vector / np.linalg.norm(vector)


async def _backup(hass: HomeAssistant, manager: BackupManager) -> tuple[str, Path]:
    """A real backup of Home Assistant to the local agent: (backup id, its tar file)."""
    create = manager.async_create_backup(
        agent_ids=[LOCAL_AGENT],
        include_addons=None,
        include_all_addons=False,
        include_database=True,
        include_folders=None,
        include_homeassistant=True,
        name="memory test",
        password=None,
    )
    await asyncio.wait_for(create, WAIT)
    backups, errors = await manager.async_get_backups()
    assert not errors
    (backup_id,) = backups
    return backup_id, manager.local_backup_agents[LOCAL_AGENT].get_backup_path(backup_id)


def _contents(tar_path: Path) -> dict[str, bytes]:
    """Every file of the backup, decompressed: backup.json and the config dir's files (data/...)."""
    files: dict[str, bytes] = {}
    with tarfile.open(tar_path) as outer:
        for member in outer.getmembers():
            if member.isfile() and member.name != "homeassistant.tar.gz":
                files[member.name] = outer.extractfile(member).read()  # type: ignore[union-attr]
        inner = outer.extractfile("homeassistant.tar.gz")
        assert inner is not None
        with tarfile.open(fileobj=io.BytesIO(inner.read()), mode="r:gz") as config:
            for member in config.getmembers():
                if member.isfile():
                    files[member.name] = config.extractfile(member).read()  # type: ignore[union-attr]
    return files


def _open_copy(path: Path, entry: ConfigEntry) -> MemoryEngine:
    """A fresh engine on the file at `path` (blocking; close it)."""
    engine = MemoryEngine(SqliteStore(path), BundledEmbedder(), anchor_key=anchor_key(entry.data))
    engine.open()
    return engine


def _file_and_wal(path: Path) -> bytes:
    """The store file's bytes and its WAL's (blocking)."""
    wal = Path(f"{path}-wal")
    return path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


async def _digest(hass: HomeAssistant, path: Path) -> bytes:
    return hashlib.sha256(await hass.async_add_executor_job(_file_and_wal, path)).digest()


def _store_file(engine: MemoryEngine) -> Path:
    path: Path = engine.store.path  # type: ignore[attr-defined]
    return path


def _gate(engine: MemoryEngine) -> WriteGate:
    gate: WriteGate = engine.store._gate  # type: ignore[attr-defined]
    return gate


@contextmanager
def _waiting(
    gate: WriteGate, monkeypatch: pytest.MonkeyPatch, seen: threading.Event | None = None
) -> Iterator[threading.Event]:
    """An Event (`seen`, or a new one) set when a thread starts waiting in `gate` (a write held
    back by the pause)."""
    seen = seen or threading.Event()
    wait = gate._cond.wait

    def waits(timeout: float | None = None) -> bool:
        seen.set()
        return wait(timeout)

    with monkeypatch.context() as patch:
        patch.setattr(gate._cond, "wait", waits)
        yield seen


class _Aside(threading.Thread):
    """A blocking engine call in a thread of its own; .settled is set when it has ended (its
    .result or .error kept) or waits in the store's write gate (see _waiting)."""

    def __init__(self, call: Callable[[], object]) -> None:
        super().__init__(name="memory write aside")
        self.call, self.settled = call, threading.Event()
        self.result: object = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as err:  # kept for the test to assert on
            self.error = err
        finally:
            self.settled.set()


@contextmanager
def _write_amid_the_copy(
    monkeypatch: pytest.MonkeyPatch, gate: WriteGate, call: Callable[[], object]
) -> Iterator[_Aside]:
    """Run `call` (a blocking engine write) aside once HA's backup has put one of the store's two
    files (the file, its WAL) into the tar and not yet the other: HA's copy
    (securetar.atomic_contents_add) asks its filter about each file just before adding it. The
    copy goes on once the write has ended or waits in the write gate. Join the thread yielded."""
    real = backup_manager.atomic_contents_add
    names = {TEST_DB, f"{TEST_DB}-wal"}
    asked_about: set[str] = set()
    aside = _Aside(call)

    def copy(
        tar_file: Any, origin_path: Path, file_filter: Callable[[Any], bool], arcname: str = "."
    ) -> None:
        def excluded(path: Any) -> bool:
            if path.name in names and path.name not in asked_about:
                asked_about.add(path.name)
                if asked_about == names:  # the other one is in the tar already
                    aside.start()
                    assert aside.settled.wait(WAIT), "the write neither ended nor waited"
            return file_filter(path)

        real(tar_file, origin_path, excluded, arcname)

    with _waiting(gate, monkeypatch, aside.settled), monkeypatch.context() as patch:
        patch.setattr(backup_manager, "atomic_contents_add", copy)
        yield aside
    assert asked_about == names


async def _until(hass: HomeAssistant, event: threading.Event) -> None:
    assert await hass.async_add_executor_job(event.wait, WAIT), "nothing waited in the write gate"


def _contents_of(memories: list[Any]) -> set[str]:
    return {m.content for m in memories}


async def test_a_backup_holds_the_whole_store_in_its_file_and_never_forgotten_text(
    household: HomeAssistant, manager: BackupManager, memory_entry: ConfigEntry, *, engine: MemoryEngine,
    julian: Resident, anna: Resident, kitchen: Room, tmp_path_factory: pytest.TempPathFactory,
) -> None:  # fmt: skip
    """The store file in the backup alone (no WAL beside it) holds every memory with its scope,
    the tombstone and the voiceprint; the WAL HA copies beside it is empty; the forgotten text is
    in none of the backup's bytes."""
    unit = await _fill(household, engine, julian, kitchen)
    assert "memory" in manager.platforms  # HA found backup.py

    _, tar_path = await _backup(household, manager)
    files = await household.async_add_executor_job(_contents, tar_path)
    assert files[f"data/{TEST_DB}-wal"] == b""  # checkpointed and truncated before the copy
    assert f"data/{TEST_DB}-shm" not in files  # HA never copies *.db-shm
    everything = await household.async_add_executor_job(tar_path.read_bytes) + b"".join(files.values())
    assert b"Zwirbelquast" not in everything and b"zwirbelquast" not in everything

    alone = tmp_path_factory.mktemp("from_backup") / "memory.db"
    alone.write_bytes(files[f"data/{TEST_DB}"])
    copy = await household.async_add_executor_job(_open_copy, alone, memory_entry)
    try:
        everyone = await household.async_add_executor_job(copy.list_memories, Speaker.administrator())
        assert _contents_of(everyone) == {SHARED, PRIVATE, ROOM, LATER}
        as_julian = await household.async_add_executor_job(
            copy.list_memories, Speaker(person_id=julian.person_id)
        )
        as_anna = await household.async_add_executor_job(
            copy.list_memories, Speaker(person_id=anna.person_id)
        )
        assert PRIVATE in _contents_of(as_julian) and PRIVATE not in _contents_of(as_anna)
        room = next(m for m in everyone if m.content == ROOM)
        assert (room.scope, room.area_id) == (Scope.ROOM, kitchen.area_id)
        tombstones, total = await household.async_add_executor_job(copy.tombstones)
        assert total == 1 and tombstones[0].scope is Scope.SHARED
        (print_,) = await household.async_add_executor_job(copy.voiceprints)
        assert (print_.person_id, print_.clips, print_.embedding) == (julian.person_id, 3, MODEL_IDENTITY)
        np.testing.assert_allclose(print_.vector, unit, atol=1e-6)
    finally:
        await household.async_add_executor_job(copy.close)


async def test_a_restored_backup_brings_the_memories_back(
    household: HomeAssistant, manager: BackupManager, memory_entry: ConfigEntry, *, engine: MemoryEngine,
    julian: Resident, kitchen: Room, monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """HA's restore: the backup manager's real restore writes .HA_RESTORE and asks for a restart
    (the restart service is replaced here: the test process cannot restart); at start-up HA's
    runner calls homeassistant.backup_restore.restore_backup on the config dir, which clears it and
    extracts the backup. The test unloads the entry (as stopping HA closes the store), runs that
    function on the config dir, and sets the same entry up again: the hass itself is not restarted.

    A forget arrives while HA has copied one of the store's two files and not yet the other;
    unpaused, its checkpoint would move the WAL into the file between the two copies, and the
    backup would lose what the WAL held (the voiceprint, the last memory). It waits for the copy:
    everything written before the backup is back, what was written after it is not."""
    unit = await _fill(household, engine, julian, kitchen)
    everyone = await household.async_add_executor_job(engine.list_memories, Speaker.administrator())
    (shared,) = [m for m in everyone if m.content == SHARED]
    with _write_amid_the_copy(
        monkeypatch, _gate(engine), lambda: engine.forget(shared.id, Speaker.administrator())
    ) as forget:
        backup_id, _ = await _backup(household, manager)
    await household.async_add_executor_job(forget.join, WAIT)
    assert forget.error is None and not forget.is_alive()  # done after the copy: SHARED is in the backup
    after = "The plumber comes on Tuesday about the dripping tap."
    await async_call(household, "remember", {"content": after})

    restarts: list[ServiceCall] = []
    household.services.async_register("homeassistant", "restart", restarts.append)
    await manager.async_restore_backup(
        backup_id,
        agent_id=LOCAL_AGENT,
        password=None,
        restore_addons=None,
        restore_database=True,
        restore_folders=None,
        restore_homeassistant=True,
    )
    assert len(restarts) == 1
    assert await household.config_entries.async_unload(memory_entry.entry_id)
    assert await household.async_add_executor_job(backup_restore.restore_backup, household.config.config_dir)
    assert await household.config_entries.async_setup(memory_entry.entry_id)
    await household.async_block_till_done()
    assert memory_entry.state is ConfigEntryState.LOADED
    restored = memory_entry.runtime_data.engine

    def recalled(query: str, context: Any = None) -> Any:
        return async_call(household, "recall", {"query": query}, context=context)

    assert (await recalled("Where is the spare key for the cellar?"))["memories"][0]["content"] == SHARED
    mine = await recalled("When is my dentist appointment?", julian.context)
    assert mine["memories"][0]["content"] == PRIVATE
    kitchen_hits = await async_call(
        household, "recall", {"query": "How do I open the window?", "area": kitchen.area_id}
    )
    assert kitchen_hits["memories"][0]["content"] == ROOM
    assert (await recalled("When does the chimney sweep come?"))["memories"][0]["content"] == LATER
    assert all(m["content"] != after for m in (await recalled("When does the plumber come?"))["memories"])
    assert all(
        "Zwirbelquast" not in m["content"] for m in (await recalled("the garden safe code"))["memories"]
    )
    _, tombstones = await household.async_add_executor_job(restored.tombstones)
    assert tombstones == 1
    (print_,) = await household.async_add_executor_job(restored.voiceprints)
    np.testing.assert_allclose(print_.vector, unit, atol=1e-6)


async def test_a_write_during_the_backup_waits_and_is_stored_after_it(
    household: HomeAssistant, memory_entry: ConfigEntry, engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While paused, a remember waits (reads go on and do not see it); after the backup it is
    stored and acknowledged; the store file did not change while it waited."""
    await async_call(household, "remember", {"content": SHARED})
    await backup.async_pre_backup(household)
    path = _store_file(engine)
    before = await _digest(household, path)
    with _waiting(_gate(engine), monkeypatch) as waiting:
        write = household.async_create_task(async_call(household, "remember", {"content": LATER}))
        await _until(household, waiting)
    hits = (await async_call(household, "recall", {"query": "When does the chimney sweep come?"}))["memories"]
    assert all(m["content"] != LATER for m in hits)
    assert not write.done()
    assert await _digest(household, path) == before

    await backup.async_post_backup(household)
    written = await asyncio.wait_for(write, WAIT)
    assert written["action"] == "created"
    hits = (await async_call(household, "recall", {"query": "When does the chimney sweep come?"}))["memories"]
    assert hits[0]["content"] == LATER


async def test_a_write_held_back_longer_than_pause_wait_is_refused_not_stored(
    household: HomeAssistant, memory_entry: ConfigEntry, engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that waits longer than PAUSE_WAIT is refused (WritesPaused; through the service a
    translated error saying nothing was stored) and is not there after the backup."""
    monkeypatch.setattr(write_gate, "PAUSE_WAIT", SHORT)
    await backup.async_pre_backup(household)
    with pytest.raises(HomeAssistantError) as refused:
        await asyncio.wait_for(async_call(household, "remember", {"content": SHARED}), WAIT)
    assert refused.value.translation_key == "store_paused"
    draft = MemoryDraft(LATER, speaker=Speaker(), scope=Scope.SHARED)
    with pytest.raises(WritesPaused):
        await asyncio.wait_for(household.async_add_executor_job(engine.remember, draft), WAIT)
    await backup.async_post_backup(household)

    stored = await household.async_add_executor_job(engine.list_memories, Speaker.administrator())
    assert stored == []
    written = await async_call(household, "remember", {"content": SHARED})  # writes go on again
    assert written["action"] == "created"


async def test_a_write_that_does_not_end_in_time_stops_the_backup(
    household: HomeAssistant, manager: BackupManager, memory_entry: ConfigEntry, engine: MemoryEngine,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """A write still in progress after PRE_BACKUP_WAIT (the gate held by another thread: a write
    that does not end) makes HA's backup fail rather than copy a half-written store; no backup is
    kept, and writes are not left paused."""
    monkeypatch.setattr(backup, "PRE_BACKUP_WAIT", SHORT)
    held, release = threading.Event(), threading.Event()

    def long_write() -> None:
        with _gate(engine):
            held.set()
            assert release.wait(WAIT)

    writer = household.async_add_executor_job(long_write)
    await _until(household, held)
    try:
        with pytest.raises(HomeAssistantError, match="could not hold its writes"):
            await _backup(household, manager)
    finally:
        release.set()
        await asyncio.wait_for(writer, WAIT)
    backups, _ = await manager.async_get_backups()
    assert backups == {}
    assert not _gate(engine).paused
    written = await asyncio.wait_for(async_call(household, "remember", {"content": SHARED}), WAIT)
    assert written["action"] == "created"


async def test_a_forgotten_text_the_wal_may_still_hold_stops_the_backup(
    household: HomeAssistant, memory_entry: ConfigEntry, engine: MemoryEngine
) -> None:
    """Another process reading the file keeps the WAL, so a forget cannot truncate it: its text may
    still be there. The pre-backup refuses (no backup may keep it) and pauses nothing; once the
    reader has ended it pauses, and the store file then holds no trace of the text."""
    secret = await async_call(household, "remember", {"content": SECRET})
    path = _store_file(engine)
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM memories").fetchone()  # holds its snapshot
        await async_call(household, "forget", {"memory_id": secret["memory"]["id"]})
        with pytest.raises(HomeAssistantError) as refused:
            await backup.async_pre_backup(household)
        assert refused.value.translation_key == "backup_not_paused"
        assert not _gate(engine).paused
    finally:
        reader.close()
    await backup.async_pre_backup(household)
    try:
        assert b"Zwirbelquast" not in await household.async_add_executor_job(_file_and_wal, path)
    finally:
        await backup.async_post_backup(household)


async def test_an_unload_during_the_backup_waits_for_its_end(
    household: HomeAssistant, memory_entry: ConfigEntry, engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unloading the entry (a reload, HA stopping) while a backup copies the store waits for the
    backup (closing writes to the file); the post-backup resumes that entry's store, and the
    unload then ends."""
    await async_call(household, "remember", {"content": SHARED})
    await backup.async_pre_backup(household)
    path = _store_file(engine)
    before = await _digest(household, path)
    with _waiting(_gate(engine), monkeypatch) as waiting:
        unload = household.async_create_task(household.config_entries.async_unload(memory_entry.entry_id))
        await _until(household, waiting)
    assert not unload.done()
    assert await _digest(household, path) == before

    await backup.async_post_backup(household)
    assert await asyncio.wait_for(unload, WAIT)
    assert memory_entry.state is ConfigEntryState.NOT_LOADED
    copy = await household.async_add_executor_job(_open_copy, path, memory_entry)
    try:
        stored = await household.async_add_executor_job(copy.list_memories, Speaker.administrator())
        assert _contents_of(stored) == {SHARED}
    finally:
        await household.async_add_executor_job(copy.close)


async def test_a_backup_without_a_loaded_entry_copies_the_closed_store(
    household: HomeAssistant, manager: BackupManager, memory_entry: ConfigEntry
) -> None:
    """No entry loaded (unloaded, or never set up): nothing to pause; the backup succeeds and holds
    the closed store's file whole."""
    await async_call(household, "remember", {"content": SHARED})
    assert await household.config_entries.async_unload(memory_entry.entry_id)
    assert "memory" in manager.platforms

    _, tar_path = await _backup(household, manager)
    files = await household.async_add_executor_job(_contents, tar_path)
    assert SHARED.encode() in files[f"data/{TEST_DB}"]
    assert files.get(f"data/{TEST_DB}-wal", b"") == b""


async def test_the_post_backup_resumes_writes_while_the_store_is_marked_down(
    household: HomeAssistant, memory_entry: ConfigEntry, engine: MemoryEngine
) -> None:
    """The store's health marked down during the backup (a read failed meanwhile) must not leave
    writes paused: the post-backup resumes them whatever the health says."""
    await backup.async_pre_backup(household)
    assert _gate(engine).paused
    health = memory_entry.runtime_data.health
    assert health is not None
    health.failed(StoreUnavailable("a read failed during the backup"))
    await backup.async_post_backup(household)
    assert not _gate(engine).paused
    draft = MemoryDraft(SHARED, speaker=Speaker(), scope=Scope.SHARED)
    result = await asyncio.wait_for(household.async_add_executor_job(engine.remember, draft), WAIT)
    assert result.memory.content == SHARED


async def test_a_pause_that_ended_by_itself_fails_the_backup(
    household: HomeAssistant,
    manager: BackupManager,
    memory_entry: ConfigEntry,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pause longer than PAUSE_MAX ends by itself (writes go on during the copy): the
    post-backup says so and HA marks the backup failed instead of keeping it as whole."""
    monkeypatch.setattr(write_gate, "PAUSE_MAX", -1.0)  # every pause has outlived it
    await async_call(household, "remember", {"content": SHARED})
    with pytest.raises(HomeAssistantError, match="took writes again before the backup had ended"):
        await _backup(household, manager)


@pytest.mark.parametrize("storage", ["postgres"], indirect=True)
async def test_a_postgresql_store_is_not_paused_and_not_in_the_backup(
    household: HomeAssistant, manager: BackupManager, memory_entry: ConfigEntry, engine: MemoryEngine,
    storage: str,
) -> None:  # fmt: skip
    """PostgreSQL is backed up with its server: the pre-backup pauses nothing (a write between the
    two calls is stored at once), HA's backup succeeds and holds none of the memories."""
    await async_call(household, "remember", {"content": SHARED})
    await backup.async_pre_backup(household)
    try:
        written = await asyncio.wait_for(async_call(household, "remember", {"content": LATER}), WAIT)
        assert written["action"] == "created"
    finally:
        await backup.async_post_backup(household)

    _, tar_path = await _backup(household, manager)
    files = await household.async_add_executor_job(_contents, tar_path)
    everything = b"".join(files.values())
    assert b"spare key" not in everything and b"chimney sweep" not in everything
    assert not any(name.startswith(f"data/{TEST_DB}") for name in files)
