"""A scripted AI Task entity for the learning tests: HA's real ai_task component, an entity that
records every task it receives and answers with scripted data.

The entity belongs to a mocked integration whose manifest says where it runs (`iot_class`), so
the memory integration decides local vs cloud exactly as it does for a real one.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from homeassistant.components import ai_task, conversation
from homeassistant.config_entries import ConfigEntry, ConfigFlow
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockModule,
    MockPlatform,
    mock_config_flow,
    mock_integration,
    mock_platform,
)

from custom_components.memory.ha_compat import ENTRY_SET_UP

LOCAL_DOMAIN = "test_local_llm"  # iot_class local_polling
CLOUD_DOMAIN = "openai_conversation"  # iot_class cloud_polling, like the real one


class _Flow(ConfigFlow):
    """The mocked integration's (unused) config flow: HA sets up entries of flow-backed domains."""

    VERSION = 1


class ScriptedAITask(ai_task.AITaskEntity):
    """Records each GenDataTask; answers with the next scripted value (an Exception is raised,
    anything else is returned as the task's data; when the script is empty: no memories)."""

    _attr_name = "Scripted task"
    _attr_unique_id = "scripted_task"
    _attr_supported_features = ai_task.AITaskEntityFeature.GENERATE_DATA

    def __init__(self) -> None:
        self.script: deque[Any] = deque()
        self.calls: list[ai_task.GenDataTask] = []

    async def _async_generate_data(
        self, task: ai_task.GenDataTask, chat_log: conversation.ChatLog
    ) -> ai_task.GenDataTaskResult:
        self.calls.append(task)
        answer = self.script.popleft() if self.script else {"memories": []}
        if isinstance(answer, Exception):
            raise answer
        return ai_task.GenDataTaskResult(conversation_id=chat_log.conversation_id, data=answer)


async def async_add_ai_task(
    hass: HomeAssistant, *, cloud: bool = False, entity: ScriptedAITask | None = None
) -> tuple[ScriptedAITask, str]:
    """Set up ai_task and a scripted entity (`entity`, default a ScriptedAITask) of a local (or
    cloud) integration; (entity, entity_id)."""
    domain = CLOUD_DOMAIN if cloud else LOCAL_DOMAIN
    entity = ScriptedAITask() if entity is None else entity

    async def _setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool | None:
        await hass.config_entries.async_forward_entry_setups(entry, [ai_task.DOMAIN])
        return ENTRY_SET_UP  # None where HA wants None (2026.11), True where it wants a bool

    async def _platform_setup_entry(
        hass: HomeAssistant, entry: ConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
    ) -> None:
        async_add_entities([entity])

    mock_integration(
        hass,
        MockModule(
            domain,
            async_setup_entry=_setup_entry,
            partial_manifest={"iot_class": "cloud_polling" if cloud else "local_polling"},
        ),
    )
    mock_platform(hass, f"{domain}.config_flow")
    mock_platform(hass, f"{domain}.{ai_task.DOMAIN}", MockPlatform(async_setup_entry=_platform_setup_entry))
    assert await async_setup_component(hass, ai_task.DOMAIN, {})
    entry = MockConfigEntry(domain=domain)
    entry.add_to_hass(hass)
    with mock_config_flow(domain, _Flow):
        assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    entity_id = er.async_get(hass).async_get_entity_id(ai_task.DOMAIN, domain, "scripted_task")
    assert entity_id is not None
    return entity, entity_id
