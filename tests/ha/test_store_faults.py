"""Store faults through Home Assistant (C33): what a person sees when the store's file is deleted,
replaced or damaged (SQLite), or its server stops (PostgreSQL).

- The SQLite file deleted or replaced while HA runs: the next write through every door (the
  memory.remember service, the conversation's "Remember …", the LLM remember tool) is refused
  with a clear, translated answer, never "Got it"; the repair issue `store_file_changed` appears
  at once, naming the file; nothing acknowledged after the change is missing after the reload,
  which opens the file that is there now and removes the issue.
- A damaged file at set-up (garbage in page 1; a damaged page in the middle of a store of many
  memories): the entry fails for good (SETUP_ERROR, translated: the file, "restore it from a
  backup"), the file is not held open, its bytes are unchanged; the repair issue `store_corrupt`.
- PostgreSQL stopped: remember refused as "unavailable for writing", conversation turns still
  answer (without memories) and wait for no connection, the `store_unreachable` issue after
  STORE_DOWN_ISSUE_AFTER; started again, everything works and the issue goes.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import time
import uuid
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers import llm
from homeassistant.helpers.translation import async_get_translations
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import async_fire_time_changed

from custom_components.memory import health
from custom_components.memory.answers import reply
from custom_components.memory.const import DOMAIN, LLM_API_ID
from custom_components.memory.engine.api import StoreUnavailable
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope
from custom_components.memory.engine.writer import embedding_text
from custom_components.memory.health import (
    ISSUE_STORE_CORRUPT,
    ISSUE_STORE_FILE_CHANGED,
    ISSUE_STORE_UNREACHABLE,
)
from custom_components.memory.llm_api import NOT_STORED
from tests.conftest import TEST_DB, Resident, async_call, setup_memory
from tests.ha.helpers_conversation import async_all_memories, async_say, async_wrap_recording_agent, speech
from tests.postgres import OwnServer, count_pool_requests

KEY = "The spare key is in the blue tin."
MANY = 400  # memories in the store whose middle page is damaged: a file of well over 100 pages
PAGE = 4096  # SQLite's default page size, the store's
BTREE_PAGE_TYPES = {0x02, 0x05, 0x0A, 0x0D}  # the first byte of an index/table b-tree page
RECOVERY_PATIENCE = 60.0  # s: a bound on waiting for the store's reconnect (every 5 s), for a busy CI


def _db(hass: HomeAssistant) -> Path:
    return Path(hass.config.path(TEST_DB))


async def _message(hass: HomeAssistant, err: HomeAssistantError) -> str:
    """The English text of a translated error."""
    texts = await async_get_translations(hass, "en", "exceptions", {DOMAIN})
    text = texts[f"component.{DOMAIN}.exceptions.{err.translation_key}.message"]
    return text.format(**(err.translation_placeholders or {}))


async def _issue_text(hass: HomeAssistant, issue: ir.IssueEntry) -> str:
    texts = await async_get_translations(hass, "en", "issues", {DOMAIN})
    return texts[f"component.{DOMAIN}.issues.{issue.translation_key}.description"].format(
        **(issue.translation_placeholders or {})
    )


def _issue(hass: HomeAssistant, key: str) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, key)


async def _contents(hass: HomeAssistant, entry: Any) -> set[str]:
    return {m.content for m in await async_all_memories(hass, entry)}


async def _llm_remember(hass: HomeAssistant, who: Resident, content: str) -> Any:
    from homeassistant.components import conversation  # noqa: PLC0415

    context = llm.LLMContext(
        platform="test_llm", context=who.context, language="en", assistant=conversation.DOMAIN, device_id=None
    )
    api = await llm.async_get_api(hass, LLM_API_ID, context)
    return await api.async_call_tool(llm.ToolInput(tool_name="remember", tool_args={"content": content}))


async def _every_door_refuses(hass: HomeAssistant, entry: Any, who: Resident, key: str) -> list[str]:
    """Try to remember through each door; the texts some door acknowledged (none may be)."""
    acknowledged: list[str] = []
    with pytest.raises(HomeAssistantError) as err:
        await async_call(hass, "remember", {"content": "The bins go out on Tuesday."})
        acknowledged.append("The bins go out on Tuesday.")
    assert err.value.translation_key == key
    assert "nothing was stored" in (await _message(hass, err.value)).lower()
    said = await async_say(hass, entry, "Remember that the ladder is in the garage", who=who)
    assert speech(said) == reply("en", "remember_failed")
    said = await async_say(hass, entry, "Merk dir, dass die Leiter in der Garage ist", language="de", who=who)
    assert speech(said) == reply("de", "remember_failed")  # in the turn's language
    tool = await _llm_remember(hass, who, "I like short answers.")
    assert tool.error  # an MCP client sees isError
    assert tool.data == {"success": False, "error": "store_unavailable", "message": NOT_STORED}
    return acknowledged


# ---------------------------------------------------------------- SQLite: the file changed


async def test_c33_a_deleted_store_file_refuses_writes_and_raises_the_repair_issue(
    household: HomeAssistant, julian: Resident
) -> None:
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": KEY})
    db = _db(household)
    for part in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        part.unlink(missing_ok=True)  # "cleaned up" by hand while HA runs

    acknowledged = await _every_door_refuses(household, entry, julian, "store_file_changed")
    issue = _issue(household, ISSUE_STORE_FILE_CHANGED)
    assert issue is not None and issue.translation_placeholders == {"store": TEST_DB}
    assert "reload household memory" in (await _issue_text(household, issue)).lower()

    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert _issue(household, ISSUE_STORE_FILE_CHANGED) is None  # a good store is open again
    assert set(acknowledged) <= await _contents(household, entry)
    await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
    assert "The bins go out on Tuesday." in await _contents(household, entry)
    assert db.exists()


async def test_c33_a_replaced_store_file_refuses_writes_and_the_reload_opens_it(
    household: HomeAssistant, julian: Resident
) -> None:
    """A backup copied over the file while HA runs (a restore by hand): refused like a deleted
    file; the reload opens the restored store, with what the backup holds."""
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": KEY})
    db = _db(household)
    backup = db.with_name("backup.db")
    with closing(sqlite3.connect(db)) as live, closing(sqlite3.connect(backup)) as copy:
        live.backup(copy)
    await async_call(household, "remember", {"content": "The ladder is in the shed."})  # after the backup
    os.replace(backup, db)

    acknowledged = await _every_door_refuses(household, entry, julian, "store_file_changed")
    assert _issue(household, ISSUE_STORE_FILE_CHANGED) is not None

    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert _issue(household, ISSUE_STORE_FILE_CHANGED) is None
    contents = await _contents(household, entry)
    assert KEY in contents and "The ladder is in the shed." not in contents  # the backup's
    assert set(acknowledged) <= contents


# ---------------------------------------------------------------- SQLite: a full disk


async def test_c33_a_full_store_refuses_writes_says_so_and_recovers_by_itself(
    household: HomeAssistant, julian: Resident
) -> None:
    """The store cannot grow (SQLite's "database or disk is full", reached with max_page_count):
    remember refused with a translated answer naming the cause, the repair issue
    `store_unwritable` at once, recall goes on; once there is room the next remember works
    without a reload and the issue goes."""
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": KEY})
    conn = entry.runtime_data.engine.store._db()
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(HomeAssistantError) as err:
        for n in range(100):
            await async_call(
                household, "remember", {"content": f"Filler {n}: " + "spare screws and parts " * 30}
            )
    assert err.value.translation_key == "store_unwritable"
    assert "nothing was stored" in (await _message(household, err.value)).lower()
    issue = _issue(household, health.ISSUE_STORE_UNWRITABLE)
    assert issue is not None and issue.translation_placeholders["store"] == TEST_DB
    assert "full" in issue.translation_placeholders["error"]
    said = await async_say(household, entry, "Where is the spare key?", who=julian)
    assert "blue tin" in speech(said)  # reads go on

    conn.execute("PRAGMA max_page_count = 1073741823")  # room again (space freed)
    await async_call(household, "remember", {"content": "The ladder is in the shed."})
    assert _issue(household, health.ISSUE_STORE_UNWRITABLE) is None
    assert "The ladder is in the shed." in await _contents(household, entry)


# ---------------------------------------------------------------- SQLite: a damaged file at set-up


def _garbage(size: int) -> bytes:
    return (b"\xde\xad\xbe\xef" * (size // 4 + 1))[:size]


def _damage_page_one(db: Path) -> None:
    with db.open("r+b") as f:
        f.write(_garbage(PAGE))


def _damage_a_middle_page(db: Path) -> None:
    """Garbage over the b-tree page nearest the middle of the file (not a free or overflow page,
    which a check of the tree would not read)."""
    data = db.read_bytes()
    pages = len(data) // PAGE
    middle = pages // 2
    page = next(
        p for p in [*range(middle, pages), *range(middle - 1, 1, -1)] if data[p * PAGE] in BTREE_PAGE_TYPES
    )
    with db.open("r+b") as f:
        f.seek(page * PAGE)
        f.write(_garbage(PAGE))


def _store_many(engine: Any) -> None:
    texts = [
        f"Note {i}: box {uuid.uuid4().hex[:8]} holds the spare parts for shelf {i}." for i in range(MANY)
    ]
    vectors = engine.embedder.embed([embedding_text(t) for t in texts])
    now = datetime.now(UTC)
    for text, vector in zip(texts, vectors, strict=True):
        memory = Memory(
            id=uuid.uuid4().hex, content=text, kind=Kind.FACT, language="en", provenance=Provenance.CONFIRMED,
            scope=Scope.SHARED, owner_id=None, area_id=None, created_at=now, updated_at=now,
        )  # fmt: skip
        engine.store.add(memory, vector)


def _held_open(path: Path) -> bool:
    """Whether this process holds `path` (or its WAL) open."""
    fds = Path("/proc/self/fd")
    names = {str(path), f"{path}-wal", f"{path}-shm"}
    return any(os.path.realpath(fds / fd) in names for fd in os.listdir(fds))


@pytest.mark.parametrize("damage", ["page_one", "middle_page"])
async def test_c33_a_damaged_store_file_fails_set_up_for_good_and_is_left_as_it_is(
    household: HomeAssistant, damage: str
) -> None:
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": KEY})
    if damage == "middle_page":
        await household.async_add_executor_job(_store_many, entry.runtime_data.engine)
    await household.config_entries.async_unload(entry.entry_id)  # as Home Assistant stopping
    db = _db(household)
    (_damage_page_one if damage == "page_one" else _damage_a_middle_page)(db)
    before = db.read_bytes()

    await household.config_entries.async_setup(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.SETUP_ERROR  # retrying cannot help: no SETUP_RETRY
    assert entry.error_reason_translation_key == "store_corrupt"
    assert entry.error_reason_translation_placeholders == {"path": TEST_DB}
    texts = await async_get_translations(household, "en", "exceptions", {DOMAIN})
    reason = texts[f"component.{DOMAIN}.exceptions.store_corrupt.message"].format(path=TEST_DB)
    assert TEST_DB in reason and "restore it from a backup" in reason.lower()
    issue = _issue(household, ISSUE_STORE_CORRUPT)
    assert issue is not None and issue.translation_placeholders == {"store": TEST_DB}
    assert not _held_open(db)
    assert db.read_bytes() == before  # never repaired, replaced or emptied

    shutil.copyfile(db, db.with_name("damaged.db"))  # what a person does: move it away, start again
    db.unlink()
    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    assert _issue(household, ISSUE_STORE_CORRUPT) is None


# ---------------------------------------------------------------- PostgreSQL stopped


async def test_c33_a_call_failing_as_the_entry_unloads_raises_no_issue_later(
    household: HomeAssistant,
) -> None:
    """A store call still running when the entry unloads fails against the closed store, and
    runtime.async_run hands that failure to the entry's health (as here): the unloaded entry's
    health neither marks the store down nor arms its probe and the store_unreachable issue, so
    no repair issue appears minutes after the integration was unloaded."""
    entry = await setup_memory(household)
    store_health = entry.runtime_data.health
    assert store_health is not None
    assert await household.config_entries.async_unload(entry.entry_id)
    await store_health.async_check(StoreUnavailable("memory engine is not open"))
    assert not store_health.down
    async_fire_time_changed(household, dt_util.utcnow() + health.STORE_DOWN_ISSUE_AFTER)
    await household.async_block_till_done()
    assert _issue(household, ISSUE_STORE_UNREACHABLE) is None


async def test_c33_a_stopped_postgresql_refuses_writes_at_once_and_recovers(
    household: HomeAssistant, own_server: OwnServer, julian: Resident, monkeypatch: pytest.MonkeyPatch
) -> None:
    entry = await setup_memory(household, storage="postgresql", db_url=own_server.url, household="home")
    agent = await async_wrap_recording_agent(household, entry)
    await async_call(household, "remember", {"content": KEY})
    await household.async_add_executor_job(own_server.stop)

    said = await async_say(household, entry, "Where is the spare key?")
    assert speech(said) == "ok" and "blue tin" not in agent.extra_prompts[-1]
    # recall answers [] without raising; the turn's transcript write (a task of its own, after
    # the answer) is the call that finds the server gone: wait for it
    await household.async_block_till_done()
    assert entry.runtime_data.health.down
    asked = count_pool_requests(monkeypatch)
    said = await async_say(household, entry, "Where is the spare key?")
    assert speech(said) == "ok" and len(agent.inputs) == 2  # the turn still gets its answer
    with pytest.raises(HomeAssistantError) as err:
        await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
    assert err.value.translation_key == "store_write_refused"
    assert "unavailable for writing" in await _message(household, err.value)
    voice = await async_say(household, entry, "Remember that the bins go out on Tuesday", who=julian)
    assert speech(voice) == reply("en", "remember_failed")
    assert asked == []  # no call waited for a connection to a server known to be down

    assert _issue(household, ISSUE_STORE_UNREACHABLE) is None
    async_fire_time_changed(household, dt_util.utcnow() + health.STORE_DOWN_ISSUE_AFTER)
    await household.async_block_till_done()
    assert _issue(household, ISSUE_STORE_UNREACHABLE) is not None

    await household.async_add_executor_job(own_server.start)
    # the store reconnects by itself (its own thread, real time): the first write that reaches it
    # marks the store up at once (no probe fired here); a deadline of real time, as
    # async_fire_time_changed would also fire an asyncio.timeout's handler
    deadline = time.monotonic() + RECOVERY_PATIENCE
    while True:
        try:
            await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
            break
        except HomeAssistantError:
            assert time.monotonic() < deadline, "the store did not recover by itself"
            await asyncio.sleep(0.2)
    assert not entry.runtime_data.health.down
    assert _issue(household, ISSUE_STORE_UNREACHABLE) is None
    found = await async_call(household, "recall", {"query": "Where is the spare key?"})
    assert [m["content"] for m in found["memories"]] == [KEY]  # questions use memories again at once
    assert "The bins go out on Tuesday." in await _contents(household, entry)


async def test_a_set_up_failing_after_the_store_opened_closes_it_and_stops_its_workers(
    household: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Set-up fails late (here the panel cannot register): the store it opened is closed and the
    workers it started are stopped, each once, by the entry's unload callbacks; the next set-up
    opens the same store with nothing lost."""
    import custom_components.memory as integration  # noqa: PLC0415
    from custom_components.memory.engine.engine import MemoryEngine  # noqa: PLC0415
    from custom_components.memory.extraction_job import ExtractionJob  # noqa: PLC0415
    from custom_components.memory.reembed import ReembedWorker  # noqa: PLC0415

    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": KEY, "scope": "shared"})
    closed: list[MemoryEngine] = []
    stopped: list[object] = []
    real_close, real_job_stop, real_reembed_stop = (
        MemoryEngine.close,
        ExtractionJob.async_stop,
        ReembedWorker.async_stop,
    )

    def close(self: MemoryEngine) -> None:
        closed.append(self)
        real_close(self)

    async def job_stop(self: ExtractionJob) -> None:
        stopped.append(self)
        await real_job_stop(self)

    async def reembed_stop(self: ReembedWorker) -> None:
        stopped.append(self)
        await real_reembed_stop(self)

    real_register_panel = integration.async_register_panel

    async def no_panel(hass: HomeAssistant) -> Any:
        raise RuntimeError("the panel cannot register")

    monkeypatch.setattr(MemoryEngine, "close", close)
    monkeypatch.setattr(ExtractionJob, "async_stop", job_stop)
    monkeypatch.setattr(ReembedWorker, "async_stop", reembed_stop)
    assert await household.config_entries.async_unload(entry.entry_id)
    assert len(closed) == 1 and len(stopped) == 2  # the unload: each once
    closed.clear()
    stopped.clear()

    monkeypatch.setattr(integration, "async_register_panel", no_panel)
    await household.config_entries.async_setup(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.SETUP_ERROR
    assert len(closed) == 1 and not closed[0].is_open  # the store it opened is closed again
    # the runtime data holds every worker from the start: each stopped once (one not started yet: a no-op)
    assert [type(worker) for worker in stopped] == [ReembedWorker, ExtractionJob]

    monkeypatch.setattr(integration, "async_register_panel", real_register_panel)
    assert await household.config_entries.async_reload(entry.entry_id)
    assert entry.state is ConfigEntryState.LOADED
    assert [m.content for m in await async_all_memories(household, entry)] == [KEY]
