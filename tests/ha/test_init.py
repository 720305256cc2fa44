"""The config entry's life: migration by version, the runtime data built whole, the loaded entry."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.memory as integration
from custom_components.memory import async_migrate_entry
from custom_components.memory.config_flow import MemoryConfigFlow
from custom_components.memory.const import CONF_ANCHOR_KEY, CONF_DB_PATH, CONF_ENCODER, CONF_STORAGE, DOMAIN
from custom_components.memory.extraction_job import ExtractionJob
from custom_components.memory.health import StoreHealth
from custom_components.memory.reembed import ReembedWorker
from custom_components.memory.runtime import loaded_entry, loaded_entry_or_none
from custom_components.memory.storage import ANCHOR_KEY_BYTES
from custom_components.memory.transcripts import TranscriptRecorder
from tests.conftest import TEST_DB, async_call, setup_memory

STORE = {CONF_STORAGE: "sqlite", CONF_DB_PATH: TEST_DB, CONF_ENCODER: "bundled"}
KEY = "ab" * ANCHOR_KEY_BYTES


async def _async_set_up(
    hass: HomeAssistant, version: int, minor: int, data: dict[str, Any]
) -> MockConfigEntry:
    entry = MockConfigEntry(domain=DOMAIN, version=version, minor_version=minor, data=data)
    entry.add_to_hass(hass)
    await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    return entry


async def test_a_new_entry_is_made_at_the_current_version(household: HomeAssistant) -> None:
    entry = await setup_memory(household)
    assert (entry.version, entry.minor_version) == (MemoryConfigFlow.VERSION, MemoryConfigFlow.MINOR_VERSION)
    assert len(bytes.fromhex(entry.data[CONF_ANCHOR_KEY])) == ANCHOR_KEY_BYTES


async def test_an_entry_from_before_anchor_keys_is_migrated_to_one(household: HomeAssistant) -> None:
    """A 1.1 entry made before tombstones kept identifier digests gets its anchor key from the
    migration (not from set-up), is 1.2 from then on, and keeps that key over a reload."""
    entry = await _async_set_up(household, 1, 1, dict(STORE))
    assert entry.state is ConfigEntryState.LOADED
    assert (entry.version, entry.minor_version) == (1, 2)
    key = entry.data[CONF_ANCHOR_KEY]
    assert len(bytes.fromhex(key)) == ANCHOR_KEY_BYTES
    assert {k: v for k, v in entry.data.items() if k != CONF_ANCHOR_KEY} == STORE
    assert entry.runtime_data.engine.anchor_key_matches  # the store is claimed with that key

    assert await household.config_entries.async_reload(entry.entry_id)
    assert entry.state is ConfigEntryState.LOADED
    assert entry.data[CONF_ANCHOR_KEY] == key


async def test_a_1_1_entry_with_an_anchor_key_keeps_it(household: HomeAssistant) -> None:
    entry = await _async_set_up(household, 1, 1, {**STORE, CONF_ANCHOR_KEY: KEY})
    assert entry.state is ConfigEntryState.LOADED
    assert (entry.version, entry.minor_version) == (1, 2)
    assert entry.data == {**STORE, CONF_ANCHOR_KEY: KEY}


async def test_a_later_minor_version_is_compatible_and_left_as_it_is(household: HomeAssistant) -> None:
    entry = await _async_set_up(household, 1, 3, {**STORE, CONF_ANCHOR_KEY: KEY})
    assert entry.state is ConfigEntryState.LOADED
    assert (entry.version, entry.minor_version) == (1, 3)
    assert entry.data == {**STORE, CONF_ANCHOR_KEY: KEY}


@pytest.mark.parametrize("minor", [1, 2])
async def test_a_downgrade_from_a_future_version_is_refused(household: HomeAssistant, minor: int) -> None:
    """An entry a later major version wrote (the user went back to an older release) is not set up
    and not rewritten: HA shows a migration error, and so does our own migration."""
    entry = await _async_set_up(household, 2, minor, dict(STORE))
    assert entry.state is ConfigEntryState.MIGRATION_ERROR
    assert (entry.version, entry.minor_version) == (2, minor)
    assert entry.data == STORE  # no anchor key added
    assert not await async_migrate_entry(household, entry)
    assert entry.data == STORE


async def test_the_runtime_data_holds_every_worker_from_the_start(memory_entry: Any) -> None:
    data = memory_entry.runtime_data
    assert isinstance(data.health, StoreHealth)
    assert isinstance(data.transcripts, TranscriptRecorder)
    assert isinstance(data.extraction, ExtractionJob)
    assert isinstance(data.reembed, ReembedWorker)
    assert data.health.engine is data.engine is data.reembed.engine


async def test_the_loaded_entry_while_loaded_and_after_unload(household: HomeAssistant) -> None:
    entry = await setup_memory(household)
    assert loaded_entry(household) is entry
    assert loaded_entry_or_none(household) is entry

    assert await household.config_entries.async_unload(entry.entry_id)
    assert loaded_entry_or_none(household) is None
    with pytest.raises(ServiceValidationError) as err:
        loaded_entry(household)
    assert err.value.translation_key == "not_loaded"
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "recall", {"query": "Where is the spare key?"})
    assert err.value.translation_key == "not_loaded"


def _imports_of(module: Path) -> dict[str, set[str]]:
    """The integration's modules `module` imports at run time (typing-only imports left out),
    each with the names it takes from it."""
    found: dict[str, set[str]] = {}

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.level == 1:
                if child.module is None:  # from . import whisper
                    for alias in child.names:
                        found.setdefault(alias.name, set())
                else:
                    found.setdefault(child.module.split(".")[0], set()).update(a.name for a in child.names)
            walk(child)

    walk(ast.parse(module.read_text(encoding="utf-8")))
    return found


def test_the_integration_modules_import_each_other_without_a_cycle() -> None:
    """No late import to dodge a cycle is needed: the HA side's modules form no import cycle, and
    the WebSocket modules share websocket_base.py instead of reaching into each other."""
    package = Path(integration.__file__).parent
    graph = {path.stem: _imports_of(path) for path in package.glob("*.py")}
    graph["__init__"].pop("__init__", None)
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done or module not in graph:
            return
        for imported in graph[module]:
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
    siblings = {"websocket_api", "websocket_transfer", "websocket_voice", "websocket_base"}
    for module in siblings - {"websocket_api"}:
        assert not siblings & {*graph[module]} - {"websocket_base"}, module
    for module in siblings:
        taken = {name for target in siblings & graph[module].keys() for name in graph[module][target]}
        assert not {name for name in taken if name.startswith("_")}, module
