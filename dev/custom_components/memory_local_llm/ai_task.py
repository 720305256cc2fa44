"""AI Task entity: `ai_task.generate_data` answered by the local model.

With a `structure` (a probatio Schema of selectors, e.g. the memory integration's extraction
structure) the schema is converted to JSON schema the way HA's own LLM integrations do
(probatio.to_openapi with llm.selector_serializer) and the answer is constrained to it by
llama.cpp's JSON-schema grammar, so `data` is the parsed object. Without one, `data` is text.
"""

from __future__ import annotations

import json
from typing import Any

import probatio
from homeassistant.components import ai_task, conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LocalLLMConfigEntry
from .entity import LocalLLMEntity
from .model import chat_log_messages


async def async_setup_entry(
    hass: HomeAssistant, entry: LocalLLMConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the entry's AI Task entity."""
    async_add_entities([LocalLLMTaskEntity(entry)])


def json_schema(structure: probatio.Schema, llm_api: llm.APIInstance | None = None) -> dict[str, Any]:
    """The JSON schema of an AI Task structure (selectors serialised as HA's LLM integrations do)."""
    serializer = llm_api.custom_serializer if llm_api else llm.selector_serializer
    result: dict[str, Any] = probatio.to_openapi(structure, custom_serializer=serializer)
    return result


class LocalLLMTaskEntity(ai_task.AITaskEntity, LocalLLMEntity):
    """Generates data with the local model (temperature 0, JSON-constrained with a structure)."""

    _attr_supported_features = ai_task.AITaskEntityFeature.GENERATE_DATA

    def __init__(self, entry: LocalLLMConfigEntry) -> None:
        LocalLLMEntity.__init__(self, entry, "ai_task", "AI Task")

    async def _async_generate_data(
        self, task: ai_task.GenDataTask, chat_log: conversation.ChatLog
    ) -> ai_task.GenDataTaskResult:
        """Answer the task; HomeAssistantError when the model's JSON cannot be read."""
        schema = json_schema(task.structure, chat_log.llm_api) if task.structure else None
        messages = chat_log_messages(chat_log, schema)
        text = await self.hass.async_add_executor_job(self._model.chat, messages, schema)
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.entity_id, content=text)
        )
        if schema is None:
            return ai_task.GenDataTaskResult(conversation_id=chat_log.conversation_id, data=text)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:  # e.g. cut off at MAX_ANSWER_TOKENS
            raise HomeAssistantError(f"The local model's answer is not JSON: {err}") from err
        return ai_task.GenDataTaskResult(conversation_id=chat_log.conversation_id, data=data)
