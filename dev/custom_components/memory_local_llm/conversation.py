"""Conversation agent: chat with the local model (temperature 0), for the demo.

The LLM APIs ticked in the entry's options (`llm_hass_api`, config_flow.LocalLLMOptionsFlow) are
passed to the chat log as HA's own LLM agents pass theirs, so their prompts (e.g. the Memory API's
speaker line and recalled memories) reach the model. The model calls no tools: they are offered
to the chat log, never to the model.
"""

from __future__ import annotations

from typing import Literal

from homeassistant.components import conversation
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from . import LocalLLMConfigEntry
from .config_flow import selected_llm_apis
from .const import DOMAIN
from .entity import LocalLLMEntity
from .model import chat_log_messages


async def async_setup_entry(
    hass: HomeAssistant, entry: LocalLLMConfigEntry, async_add_entities: AddConfigEntryEntitiesCallback
) -> None:
    """Add the entry's conversation agent."""
    async_add_entities([LocalLLMConversationEntity(entry)])


class LocalLLMConversationEntity(conversation.ConversationEntity, LocalLLMEntity):
    """Answers with the local model; the chat log carries the session's history, the ticked LLM
    APIs' prompts and any extra system prompt (e.g. memories the Memory assistant recalled)."""

    def __init__(self, entry: LocalLLMConfigEntry) -> None:
        LocalLLMEntity.__init__(self, entry, "conversation", "Assistant")
        self._entry = entry

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Any language: the model answers in the language it is spoken to."""
        return MATCH_ALL

    async def _async_handle_message(
        self, user_input: conversation.ConversationInput, chat_log: conversation.ChatLog
    ) -> conversation.ConversationResult:
        """One reply, added to the chat log."""
        try:
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(DOMAIN),
                selected_llm_apis(self.hass, self._entry.options) or None,
                None,
                user_input.extra_system_prompt,
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()
        text = await self.hass.async_add_executor_job(self._model.chat, chat_log_messages(chat_log))
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.entity_id, content=text)
        )
        return conversation.async_get_result_from_chat_log(user_input, chat_log)
