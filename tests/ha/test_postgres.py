"""PostgreSQL from Home Assistant, on a real server: the config flow (each check_server reason as a
translated error, the entry, reconfigure with the password masked), the password never in logs,
errors or diagnostics, moving the memories both ways (reconfigure step and memory.move_store, and
a move that fails midway), and connection loss (recall empty and the answer goes on, writes
refused, the repair issue after STORE_DOWN_ISSUE_AFTER and cleared on recovery)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import EVENT_DATA_ENTRY_FLOW_PROGRESS_UPDATE, FlowResultType
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.components.diagnostics import get_diagnostics_for_config_entry

from custom_components.memory import health
from custom_components.memory.answers import reply
from custom_components.memory.const import (
    CONF_ANCHOR_KEY,
    CONF_DB_PATH,
    CONF_DB_URL,
    CONF_ENCODER,
    CONF_HOUSEHOLD,
    CONF_STORAGE,
    DOMAIN,
)
from custom_components.memory.engine.api import StoreUnavailable
from custom_components.memory.engine.store.base import TRANSFER_TABLES
from custom_components.memory.health import ISSUE_STORE_UNREACHABLE
from custom_components.memory.storage import PASSWORD_MASK, redact_url
from tests import postgres
from tests.conftest import TEST_DB, async_call, setup_memory
from tests.ha.helpers_conversation import async_say, async_wrap_recording_agent, speech
from tests.postgres import OwnServer

SECRET = "s3cr3t-Pa55"  # a password that must never show up anywhere


def with_password(url: str, password: str = SECRET, user: str = "postgres") -> str:
    """`url` (postgresql://postgres:@/db?host=…) with user:password."""
    scheme, rest = url.split("://", 1)
    return f"{scheme}://{user}:{password}@{rest.split('@', 1)[1]}"


async def _flow_to_postgres(hass: HomeAssistant) -> dict[str, Any]:
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "postgresql", CONF_DB_PATH: TEST_DB, CONF_ENCODER: "bundled"}
    )
    assert result["type"] is FlowResultType.FORM and result["step_id"] == "postgresql"
    return result


def _no_secret(caplog: pytest.LogCaptureFixture, *texts: str) -> None:
    assert SECRET not in caplog.text
    for text in texts:
        assert SECRET not in text


@pytest.fixture
def plain_role_database(postgres_server: str) -> Iterator[str]:
    """The URL of an empty database WITHOUT the vector extension, as a role that may not create it."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(postgres_server, autocommit=True) as conn:
        conn.execute("DO $$ BEGIN CREATE ROLE plain LOGIN; EXCEPTION WHEN duplicate_object THEN END $$")
        name = "bare_" + postgres.fresh_database(postgres_server).rsplit("/", 1)[1].split("?")[0][2:]
        conn.execute(f"CREATE DATABASE {name} TEMPLATE template0 OWNER plain")
    yield with_password(postgres.database_url(postgres_server, name), user="plain")


async def test_each_server_problem_is_a_translated_form_error(
    household: HomeAssistant, pg_url: str, plain_role_database: str, caplog: pytest.LogCaptureFixture
) -> None:
    result = await _flow_to_postgres(household)
    socket = pg_url.split("host=", 1)[1]
    cases = [
        ("mysql://user:" + SECRET + "@db/memory", {CONF_DB_URL: "invalid_url"}),
        (f"postgresql://postgres:{SECRET}@/nowhere?host={socket}/missing", {"base": "cannot_connect"}),
        (with_password(pg_url, user="nobody_here"), {CONF_DB_URL: "invalid_auth"}),
        (plain_role_database, {"base": "extension_missing"}),
    ]
    for url, errors in cases:
        result = await household.config_entries.flow.async_configure(
            result["flow_id"], {CONF_DB_URL: url, CONF_HOUSEHOLD: "home"}
        )
        assert result["type"] is FlowResultType.FORM, url
        assert result["errors"] == errors, redact_url(url)
    from custom_components.memory.engine.store.postgres import check as pg_store  # noqa: PLC0415

    def too_old(url: str, household: str | None = None) -> None:  # no server this old at hand
        raise pg_store.ServerProblem("server_too_old")

    with patch.object(pg_store, "check_server", too_old):
        result = await household.config_entries.flow.async_configure(
            result["flow_id"], {CONF_DB_URL: with_password(pg_url), CONF_HOUSEHOLD: "home"}
        )
    assert result["errors"] == {"base": "server_too_old"}
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: with_password(pg_url), CONF_HOUSEHOLD: " "}
    )
    assert result["errors"] == {CONF_HOUSEHOLD: "household_empty"}
    assert not household.config_entries.async_entries(DOMAIN)
    texts = await household.async_add_executor_job(_translations)
    for name, translated in texts.items():
        for reason in (
            "invalid_url",
            "cannot_connect",
            "invalid_auth",
            "extension_missing",
            "server_too_old",
        ):
            assert translated["config"]["error"][reason], (name, reason)
            assert translated["exceptions"][f"server_{reason}"]["message"], (name, reason)
    _no_secret(caplog)


def _translations() -> dict[str, Any]:
    """strings.json and every translation, by file name."""
    folder = Path("custom_components/memory")
    files = [folder / "strings.json", *sorted((folder / "translations").glob("*.json"))]
    return {f.name: json.loads(f.read_text()) for f in files}


async def test_postgres_entry_diagnostics_and_reconfigure(
    household: HomeAssistant, pg_url: str, hass_client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    url = with_password(pg_url)
    result = await _flow_to_postgres(household)
    schema = {str(key): key for key in result["data_schema"].schema}
    household_key = schema[CONF_HOUSEHOLD].default()
    assert household_key.startswith("ha-") and len(household_key) == 15  # unique to this installation
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: url, CONF_HOUSEHOLD: "home"}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await household.async_block_till_done()
    entry = result["result"]
    assert entry.state is ConfigEntryState.LOADED
    assert {k: entry.data[k] for k in (CONF_STORAGE, CONF_DB_URL, CONF_HOUSEHOLD)} == {
        CONF_STORAGE: "postgresql", CONF_DB_URL: url, CONF_HOUSEHOLD: "home"
    }  # fmt: skip
    assert CONF_DB_PATH not in entry.data
    await async_call(household, "remember", {"content": "The spare key is in the blue tin."})
    recalled = await async_call(household, "recall", {"query": "Where is the spare key?"})
    assert recalled["memories"][0]["content"] == "The spare key is in the blue tin."

    assert await async_setup_component(household, "diagnostics", {})
    diagnostics = await get_diagnostics_for_config_entry(household, hass_client, entry)
    dumped = json.dumps(diagnostics)
    assert SECRET not in dumped and "postgres:" not in diagnostics["entry"]["data"][CONF_DB_URL]
    assert diagnostics["entry"]["data"][CONF_DB_URL] == redact_url(url)
    assert redact_url(url).startswith("postgresql:///" if "@/" in url else "postgresql://")

    # reconfigure: the URL is shown with its password masked; submitting the mask keeps it
    result = await household.config_entries.flow.async_init(
        DOMAIN, context={"source": "reconfigure", "entry_id": entry.entry_id}
    )
    assert result["type"] is FlowResultType.MENU
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "reconfigure_store"}
    )
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "postgresql", CONF_DB_PATH: TEST_DB, CONF_ENCODER: "bundled"}
    )
    assert result["step_id"] == "reconfigure_postgresql"
    shown = {str(k): k for k in result["data_schema"].schema}[CONF_DB_URL].description["suggested_value"]
    assert SECRET not in shown and PASSWORD_MASK in shown
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: shown, CONF_HOUSEHOLD: "home"}
    )
    assert result["type"] is FlowResultType.ABORT and result["reason"] == "reconfigure_successful"
    await household.async_block_till_done()
    assert entry.data[CONF_DB_URL] == url  # the real password kept
    assert entry.state is ConfigEntryState.LOADED
    recalled = await async_call(household, "recall", {"query": "Where is the spare key?"})
    assert recalled["memories"][0]["content"] == "The spare key is in the blue tin."
    _no_secret(caplog)


def _claim(url: str, household: str, key: str) -> None:
    """What another installation's first start does: claim `household` for its anchor key."""
    from custom_components.memory.engine.embedding.bundled import BUNDLED_IDENTITY  # noqa: PLC0415
    from custom_components.memory.engine.forgetting import anchor_check  # noqa: PLC0415
    from custom_components.memory.engine.store.postgres import PostgresStore  # noqa: PLC0415

    store = PostgresStore(url, household=household)
    store.open(BUNDLED_IDENTITY)
    try:
        store.claim_anchor_check(anchor_check(bytes.fromhex(key)))
    finally:
        store.close()


async def test_sharing_a_household_takes_its_forgetting_key(
    household: HomeAssistant, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A household another installation set up (claimed for its anchor key) is joined only with
    that installation's forgetting key: without it, or with a malformed one, the form says so
    and saves nothing; with it the entry keeps that key and no repair issue appears; an entry
    whose key does not match the store raises the repair issue until reconfigured with it."""
    theirs = "ab" * 32
    await household.async_add_executor_job(_claim, pg_url, "shared", theirs)
    url = with_password(pg_url)
    result = await _flow_to_postgres(household)
    for given, errors in (
        ({}, {CONF_ANCHOR_KEY: "anchor_key_mismatch"}),
        ({CONF_ANCHOR_KEY: "not-hex"}, {CONF_ANCHOR_KEY: "anchor_key_invalid"}),
        ({CONF_ANCHOR_KEY: "cd" * 32}, {CONF_ANCHOR_KEY: "anchor_key_mismatch"}),
    ):
        result = await household.config_entries.flow.async_configure(
            result["flow_id"], {CONF_DB_URL: url, CONF_HOUSEHOLD: "shared", **given}
        )
        assert result["type"] is FlowResultType.FORM and result["errors"] == errors, given
    assert not household.config_entries.async_entries(DOMAIN)
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: url, CONF_HOUSEHOLD: "shared", CONF_ANCHOR_KEY: theirs.upper()}
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await household.async_block_till_done()
    entry = result["result"]
    assert entry.data[CONF_ANCHOR_KEY] == theirs and entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.engine.anchor_key_matches
    issues = ir.async_get(household)
    assert issues.async_get_issue(DOMAIN, "anchor_key_mismatch") is None

    # an entry holding another key (e.g. made anew): the repair issue, until reconfigured with theirs
    household.config_entries.async_update_entry(entry, data={**entry.data, CONF_ANCHOR_KEY: "ef" * 32})
    await household.config_entries.async_reload(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED  # memory keeps working meanwhile
    assert issues.async_get_issue(DOMAIN, "anchor_key_mismatch") is not None
    result = await household.config_entries.flow.async_init(
        DOMAIN, context={"source": "reconfigure", "entry_id": entry.entry_id}
    )
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "reconfigure_store"}
    )
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "postgresql", CONF_DB_PATH: TEST_DB, CONF_ENCODER: "bundled"}
    )
    shown = {str(k): k for k in result["data_schema"].schema}[CONF_ANCHOR_KEY].description["suggested_value"]
    assert shown == "ef" * 32  # the entry's own key, to copy to another installation
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: url, CONF_HOUSEHOLD: "shared"}
    )
    assert result["errors"] == {CONF_ANCHOR_KEY: "anchor_key_mismatch"}
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: url, CONF_HOUSEHOLD: "shared", CONF_ANCHOR_KEY: theirs}
    )
    assert result["type"] is FlowResultType.ABORT and result["reason"] == "reconfigure_successful"
    await household.async_block_till_done()
    assert entry.data[CONF_ANCHOR_KEY] == theirs
    assert issues.async_get_issue(DOMAIN, "anchor_key_mismatch") is None
    texts = await household.async_add_executor_job(_translations)
    for name, translated in texts.items():
        for reason in ("anchor_key_invalid", "anchor_key_mismatch"):
            assert translated["config"]["error"][reason], (name, reason)
        assert translated["issues"]["anchor_key_mismatch"]["description"], name
        assert translated["exceptions"]["anchor_key_mismatch"]["message"], name
    assert theirs not in caplog.text and "ef" * 32 not in caplog.text


async def test_moving_into_a_household_of_another_forgetting_key_is_refused(
    household: HomeAssistant, pg_url: str
) -> None:
    """The moved tombstones were made with this entry's key: a household claimed with another
    one is refused before anything is copied (naming the household)."""
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": "The spare key is in the blue tin."})
    await household.async_add_executor_job(_claim, pg_url, "theirs", "ab" * 32)
    with pytest.raises(ServiceValidationError) as err:
        await async_call(
            household,
            "move_store",
            {CONF_STORAGE: "postgresql", CONF_DB_URL: pg_url, CONF_HOUSEHOLD: "theirs"},
        )
    assert err.value.translation_key == "anchor_key_mismatch"
    assert err.value.translation_placeholders == {"field": CONF_HOUSEHOLD}
    assert entry.state is ConfigEntryState.LOADED and entry.data[CONF_STORAGE] == "sqlite"


async def _fill(hass: HomeAssistant, julian: Any) -> None:
    """Memories with history, a forgotten one (tombstone), a private one, a transcript."""
    await async_call(hass, "remember", {"content": "The spare key is in the blue tin."})
    await async_call(hass, "remember", {"content": "My bike lock code is 4711.", "scope": "private",
                                        "person": julian.person_id})  # fmt: skip
    gone = await async_call(hass, "remember", {"content": "The neighbour's cat is called Tom."})
    await async_call(hass, "forget", {"memory_id": gone["memory"]["id"]})


async def _contents(hass: HomeAssistant, query: str, **who: Any) -> list[str]:
    return [m["content"] for m in (await async_call(hass, "recall", {"query": query, **who}))["memories"]]


async def test_move_sqlite_to_postgres_and_back(
    household: HomeAssistant, pg_url: str, julian: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """Through the reconfigure step to PostgreSQL (a progress step: how far it is, in rows, up to
    done), through the service back to a new SQLite file: equal checksums both ways, and the
    memories, their visibility and the tombstone work after. Moving into the now filled database
    again is refused on the move form."""
    entry = await setup_memory(household)
    await _fill(household, julian)
    progress: list[float] = []
    household.bus.async_listen(
        EVENT_DATA_ENTRY_FLOW_PROGRESS_UPDATE, lambda event: progress.append(event.data["progress"])
    )
    result = await _move_flow(household, entry, pg_url)
    assert result["type"] is FlowResultType.ABORT and result["reason"] == "move_successful", result
    assert progress and progress == sorted(progress) and progress[-1] == 1.0
    assert "memories: 2, tombstones: 1" in result["description_placeholders"]["rows"]
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED and entry.data[CONF_STORAGE] == "postgresql"
    assert await _contents(household, "Where is the spare key?") == ["The spare key is in the blue tin."]
    assert "My bike lock code is 4711." not in await _contents(household, "bike lock code")  # private
    assert "My bike lock code is 4711." in await _contents(
        household, "bike lock code", person=julian.person_id
    )

    back = await async_call(household, "move_store", {CONF_STORAGE: "sqlite", CONF_DB_PATH: "back.db"})
    assert back["storage"] == "sqlite" and set(back["tables"]) == set(TRANSFER_TABLES)
    assert entry.data[CONF_STORAGE] == "sqlite" and entry.data[CONF_DB_PATH] == "back.db"
    assert CONF_DB_URL not in entry.data
    assert await _contents(household, "Where is the spare key?") == ["The spare key is in the blue tin."]
    # the forgotten cat is still blocked from being learned back: its tombstone came along
    stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
    assert stats.tombstones == 1 and stats.active == 2
    _no_secret(caplog, json.dumps(back))

    again = await _move_flow(household, entry, pg_url)  # PostgreSQL still holds the copy
    assert again["type"] is FlowResultType.FORM and again["step_id"] == "move", again
    assert again["errors"] == {"base": "target_not_empty"}
    assert entry.state is ConfigEntryState.LOADED and entry.data[CONF_DB_PATH] == "back.db"


async def _move_flow(hass: HomeAssistant, entry: Any, pg_url: str) -> Any:
    """The reconfigure flow's move to PostgreSQL at pg_url: the form, the progress while it runs,
    then its outcome (an abort when done, the move form again when not)."""
    result = await _start_move_flow(hass, entry, pg_url)
    await hass.async_block_till_done()
    return await hass.config_entries.flow.async_configure(result["flow_id"])


async def _start_move_flow(hass: HomeAssistant, entry: Any, pg_url: str) -> Any:
    """The reconfigure flow up to its move's progress step (the move running)."""
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": "reconfigure", "entry_id": entry.entry_id}
    )
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {"next_step_id": "move"})
    assert result["step_id"] == "move" and "db" in result["description_placeholders"]["source"]
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_DB_URL: with_password(pg_url), CONF_HOUSEHOLD: "home"}
    )
    assert result["type"] is FlowResultType.SHOW_PROGRESS and result["progress_action"] == "moving", result
    return result


async def test_closing_the_move_dialog_does_not_stop_the_move(
    household: HomeAssistant, pg_url: str, julian: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing the dialog cancels the flow's progress task; the move itself goes on to its end
    and switches the entry (a move stopped half-way would leave a partial copy behind)."""
    from custom_components.memory import move as move_module  # noqa: PLC0415

    entry = await setup_memory(household)
    await _fill(household, julian)
    gate = threading.Event()
    real = move_module.move

    def held(*args: Any, **kwargs: Any) -> Any:
        assert gate.wait(60), "the test never let the move go on"
        return real(*args, **kwargs)

    monkeypatch.setattr(move_module, "move", held)
    started = await _start_move_flow(household, entry, pg_url)
    household.config_entries.flow.async_abort(started["flow_id"])  # the dialog closed
    gate.set()
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED and entry.data[CONF_STORAGE] == "postgresql"
    assert await _contents(household, "Where is the spare key?") == ["The spare key is in the blue tin."]


async def test_move_service_to_postgres_and_checksums_match_both_ways(
    household: HomeAssistant, pg_url: str, julian: Any
) -> None:
    entry = await setup_memory(household)
    await _fill(household, julian)
    there = await async_call(
        household, "move_store", {CONF_STORAGE: "postgresql", CONF_DB_URL: pg_url, CONF_HOUSEHOLD: "home"}
    )
    assert entry.data[CONF_STORAGE] == "postgresql"
    back = await async_call(household, "move_store", {CONF_STORAGE: "sqlite", CONF_DB_PATH: "again.db"})
    assert back["tables"] == there["tables"]  # sqlite -> postgres -> sqlite: equal rows and checksums
    assert there["tables"]["memories"]["rows"] == 2 and there["tables"]["tombstones"]["rows"] == 1


async def test_move_into_a_store_holding_memories_is_refused(household: HomeAssistant, pg_url: str) -> None:
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": "The spare key is in the blue tin."})
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "move_store", {CONF_STORAGE: "sqlite", CONF_DB_PATH: TEST_DB})
    assert err.value.translation_key == "target_not_empty"
    assert err.value.translation_placeholders == {"field": CONF_DB_PATH}
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "move_store", {CONF_STORAGE: "postgresql"})
    assert err.value.translation_key == "missing_field"
    assert err.value.translation_placeholders == {"field": CONF_DB_URL}
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "move_store", {CONF_STORAGE: "postgresql", CONF_DB_URL: "http://x"})
    assert err.value.translation_key == "server_invalid_url"
    assert entry.state is ConfigEntryState.LOADED and entry.data[CONF_STORAGE] == "sqlite"


async def test_interrupted_move_keeps_the_old_store_in_use(
    household: HomeAssistant, pg_url: str, julian: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The target fails mid-copy: the entry is back on its SQLite file, which is unchanged and
    takes writes; no entry data changed."""
    from custom_components.memory.engine.store import postgres as pg_store  # noqa: PLC0415

    entry = await setup_memory(household)
    await _fill(household, julian)
    data = dict(entry.data)
    real = pg_store.PostgresStore.import_records

    def failing(self: Any, table: str, rows: Any) -> None:
        if table == "tombstones":
            raise StoreUnavailable("connection to the server was lost")
        real(self, table, rows)

    with (
        patch.object(pg_store.PostgresStore, "import_records", failing),
        pytest.raises(HomeAssistantError) as err,
    ):
        await async_call(
            household, "move_store", {CONF_STORAGE: "postgresql", CONF_DB_URL: with_password(pg_url)}
        )
    assert err.value.translation_key == "move_failed"
    assert entry.data == data and entry.state is ConfigEntryState.LOADED
    assert await _contents(household, "Where is the spare key?") == ["The spare key is in the blue tin."]
    await async_call(household, "remember", {"content": "The ladder is in the garage."})
    assert await _contents(household, "Where is the ladder?") == ["The ladder is in the garage."]
    _no_secret(caplog, str(err.value))


async def _async_until(hass: HomeAssistant, done: Any, within: float) -> float:
    """Wait (real time, polling) until done() holds, at most `within` seconds; the seconds taken.
    Real time, not async_fire_time_changed: that patches the clock for every thread while HA's
    callbacks run, and the store's pool (its own thread) would schedule its reconnect by it."""
    start = time.monotonic()
    async with asyncio.timeout(within):
        while not done():  # noqa: ASYNC110 - polls the issue registry and the health flag
            await asyncio.sleep(0.1)
    await hass.async_block_till_done()
    return time.monotonic() - start


async def test_connection_loss_and_recovery(
    household: HomeAssistant,
    own_server: OwnServer,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # the documented delays (2 min, 30 s) scaled down so the test waits seconds, in real time
    monkeypatch.setattr(health, "STORE_DOWN_ISSUE_AFTER", timedelta(seconds=2))
    monkeypatch.setattr(health, "PROBE_INTERVAL", timedelta(seconds=1))
    entry = await setup_memory(household, storage="postgresql", db_url=own_server.url, household="home")
    agent = await async_wrap_recording_agent(household, entry)
    await async_call(household, "remember", {"content": "The spare key is in the blue tin."})
    issues = ir.async_get(household)

    def issue() -> Any:
        return issues.async_get_issue(DOMAIN, ISSUE_STORE_UNREACHABLE)

    first_reembed = entry.runtime_data.reembed.task
    await household.async_add_executor_job(own_server.stop)
    # a conversation turn still gets its answer (the wrapped agent's), without memories
    said = await async_say(household, entry, "Where is the spare key?")
    assert speech(said) == "ok" and len(agent.inputs) == 1
    # recall answers [] without raising; the turn's transcript write (a task of its own, after
    # the answer) is the call that finds the store gone: wait for it
    await household.async_block_till_done()
    assert entry.runtime_data.health.down
    assert (await async_call(household, "recall", {"query": "Where is the spare key?"}))["memories"] == []
    # writes are refused, never acknowledged
    with pytest.raises(HomeAssistantError) as err:
        await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
    assert err.value.translation_key == "store_write_refused"
    voice = await async_say(household, entry, "Remember that the bins go out on Tuesday")
    assert speech(voice) == reply("en", "remember_failed")
    # the repair issue appears once the store has been down STORE_DOWN_ISSUE_AFTER, not before
    since = entry.runtime_data.health.down_since
    await _async_until(household, lambda: issue() is not None, 30)
    assert dt_util.utcnow() - since >= health.STORE_DOWN_ISSUE_AFTER

    await household.async_add_executor_job(own_server.start)
    # the probe (every PROBE_INTERVAL) sees the pool reconnected by itself; the issue goes
    await _async_until(household, lambda: issue() is None, 60)
    assert not entry.runtime_data.health.down
    # the background re-embed runs again (it stops when the store goes down mid-run); turns that
    # could not be recorded meanwhile left a log line of the store's health, no traceback
    assert entry.runtime_data.reembed.task is not first_reembed
    assert not [r for r in caplog.records if r.exc_info and r.name.startswith("custom_components.memory")]
    # recall and writes work again; the refused write never landed
    assert await _contents(household, "Where is the spare key?") == ["The spare key is in the blue tin."]
    assert "The bins go out on Tuesday." not in await _contents(household, "When do the bins go out?")
    await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
    assert "The bins go out on Tuesday." in await _contents(household, "When do the bins go out?")
