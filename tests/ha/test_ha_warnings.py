"""Home Assistant finds nothing to warn the integration about — no "Detected that custom
integration 'memory' …" (helpers/frame.py: a use HA deprecates or refuses, with the breaking
version), no "The deprecated … was used from memory" (helpers/deprecation.py), no deprecation
logged in the integration's own loggers, no Python DeprecationWarning raised at its lines
(scripts/demo_lib/ha_log.py decides what counts) — in a whole life of the entry:

- in a test hass: set-up through the config flow, conversation turns (a memory sentence, a memory
  answer, a turn handed to HA's own agent, one to an LLM agent with the Memory API), service calls,
  the reconfigure flow, the options flow (learning, the voice section), a repair issue, and unload;
- in a real `hass` process (as scripts/demo runs it, with Python's deprecation warnings shown): the
  household provisioned, the integration added through its config flow over REST, Assist turns,
  the options saved (a reload), a reload, and hass stopped; then its log file is read.

HA reports each frame warning once per code line and process (frame._REPORTED_INTEGRATIONS): the
test starts with that record empty, so a line another test reached first is reported here too.
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

import aiohttp
import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import frame
from homeassistant.helpers import issue_registry as ir
from homeassistant.requirements import RequirementsNotFound

from custom_components.memory.answers import reply
from custom_components.memory.const import (
    CONF_ANSWER_SIMILARITY,
    CONF_ENCODER,
    CONF_LEARNING,
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_STT_ENGINE,
    CONF_TOP_K,
    CONF_VOICE,
    CONF_VOICE_RECOGNITION,
    DOMAIN,
    STT_OFF,
)
from tests.conftest import Resident, Room, async_call, reconfigure_to_sqlite, setup_memory
from tests.ha.helpers_conversation import async_say, async_wrap_recording_agent, speech

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "scripts"))  # demo_lib

from demo_lib.ha_log import (  # noqa: E402
    PYTHON_WARNINGS,
    Record,
    about_integration,
    console_warnings_about_integration,
    warnings_about_integration,
)
from demo_lib.household import provision, set_memory_options  # noqa: E402
from demo_lib.server import HassProcess, free_port, write_config  # noqa: E402

WARNED_CATEGORIES = (DeprecationWarning, PendingDeprecationWarning, FutureWarning)
OWN_FILES = re.compile(r"custom_components[/\\]memory[/\\]")


def _warnings_about_memory(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every warning HA logged about the integration (ha_log.about_integration)."""
    return [
        record.getMessage()
        for record in caplog.records
        if about_integration(Record(record.levelno, record.name, record.getMessage()))
    ]


@contextmanager
def _python_warnings_at_own_lines() -> Iterator[list[str]]:
    """Python's deprecation warnings raised at a line of the integration while inside (pytest's
    configuration ignores DeprecationWarning; here every one is recorded)."""
    found: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield found
    found.extend(
        f"{w.filename}:{w.lineno}: {w.category.__name__}: {w.message}"
        for w in caught
        if issubclass(w.category, WARNED_CATEGORIES) and OWN_FILES.search(w.filename)
    )


async def test_home_assistant_warns_about_nothing_the_integration_does(
    household: HomeAssistant,
    julian: Resident,
    kitchen: Room,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(frame, "_REPORTED_INTEGRATIONS", set())
    caplog.set_level(logging.WARNING)
    with _python_warnings_at_own_lines() as python_warned:
        await _a_life_of_the_entry(household, julian, kitchen)

    warned = _warnings_about_memory(caplog) + python_warned
    assert not warned, "\n".join(warned)


async def _a_life_of_the_entry(household: HomeAssistant, julian: Resident, kitchen: Room) -> None:
    entry = await setup_memory(household)
    said = await async_say(
        household, entry, "Remember that the ladder is behind the shed.", who=julian, room=kitchen
    )
    assert speech(said) == reply("en", "remembered_shared")
    answered = await async_say(household, entry, "Where is the ladder?", who=julian, room=kitchen)
    assert "behind the shed" in speech(answered)
    await async_say(household, entry, "What time is it?", who=julian, room=kitchen)  # HA's own agent
    await async_call(household, "remember", {"content": "The bins go out on Tuesday."})
    found = await async_call(household, "recall", {"query": "When do the bins go out?"})
    assert found["memories"][0]["content"] == "The bins go out on Tuesday."

    agent = await async_wrap_recording_agent(household, entry, with_memory_api=True)
    said = await async_say(household, entry, "Where is the ladder?", who=julian, room=kitchen)
    assert speech(said) == "ok" and "behind the shed" in agent.extra_prompts[-1]
    await reconfigure_to_sqlite(household, entry, "other.db")

    result = await household.config_entries.options.async_init(entry.entry_id)
    result = await household.config_entries.options.async_configure(
        result["flow_id"],
        {
            CONF_TOP_K: 5,
            CONF_MAX_CHARS: 1200,
            CONF_MIN_SIMILARITY: 0.25,
            CONF_ANSWER_SIMILARITY: 0.35,
            CONF_LEARNING: True,
            CONF_VOICE: {CONF_VOICE_RECOGNITION: True, CONF_STT_ENGINE: STT_OFF},
        },
    )
    assert result["type"] is FlowResultType.CREATE_ENTRY
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED and entry.options[CONF_LEARNING] is True

    assert await household.config_entries.async_unload(entry.entry_id)
    assert entry.state is ConfigEntryState.NOT_LOADED
    with patch(  # a repair issue: the optional encoder cannot install
        "custom_components.memory.async_process_requirements",
        side_effect=RequirementsNotFound(DOMAIN, ["fastembed"]),
    ):
        household.config_entries.async_update_entry(entry, data={**entry.data, CONF_ENCODER: "fastembed"})
        assert await household.config_entries.async_setup(entry.entry_id)
    assert ir.async_get(household).async_get_issue(DOMAIN, "fastembed_unavailable") is not None
    assert await household.config_entries.async_remove(entry.entry_id)
    await household.async_block_till_done()


def test_a_real_hass_logs_no_warning_about_the_integration(tmp_path: Path, socket_enabled: None) -> None:
    """A real `hass` (this venv's, as scripts/demo runs it) logs nothing against the integration
    (module docstring); its log is read after it stopped."""
    config_dir = tmp_path / "config"
    port = free_port()
    write_config(config_dir, ROOT, port, fresh=True)
    hass = HassProcess(Path(sys.prefix), config_dir, port, env=PYTHON_WARNINGS)
    hass.start()
    try:
        # a loop of its own, never made current (HA's test plugin reads the current loop)
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(_a_life_in_a_real_hass(hass))
        finally:
            loop.close()
    finally:
        hass.stop()
    text = hass.log_file.read_text(encoding="utf-8", errors="replace")
    assert "custom integration memory" in text  # HA's notice of loading it: this run's log
    console = hass.console_file.read_text(encoding="utf-8", errors="replace")
    warned = warnings_about_integration(text) + console_warnings_about_integration(console)
    assert not warned, "\n".join(warned)


async def _a_life_in_a_real_hass(hass: HassProcess) -> None:
    await hass.wait_ready()
    async with aiohttp.ClientSession() as session:
        household = await provision(session, hass.base_url, lambda text: None)
        try:
            assert not household.setup_problems, household.setup_problems
            assert household.memory_entry is not None
            julian = household.clients["julian"]
            kitchen = household.devices["kitchen"]
            said = await julian.run_pipeline(
                "Remember that the ladder is behind the shed.",
                pipeline_id=household.pipelines["en"],
                device_id=kitchen,
            )
            assert said["response"]["speech"]["plain"]["speech"] == reply("en", "remembered_shared")
            answered = await julian.run_pipeline(
                "Where is the ladder?", pipeline_id=household.pipelines["en"], device_id=kitchen
            )
            assert "behind the shed" in answered["response"]["speech"]["plain"]["speech"]
            await set_memory_options(  # saving reloads the entry
                household, {"learning": True, "voice": {"voice_recognition": True, "stt_engine": "off"}}
            )
            entry_id = household.memory_entry["entry_id"]
            reloaded = await household.owner.rest(
                "POST", f"/api/config/config_entries/entry/{entry_id}/reload"
            )
            assert reloaded == {"require_restart": False}
        finally:
            await household.close()
