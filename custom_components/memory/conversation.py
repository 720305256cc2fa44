"""The memory agent: memory sentences first, otherwise recall and hand over to the wrapped agent.

Per turn:
1. a memory sentence ("remember …", "forget …", yes/no for a pending forget, …) is
   dispatched through HA's intent machinery (intents.py) and answered here;
2. otherwise the memories visible to the speaker in their room are recalled and passed
   to the wrapped agent (options: agent_id, default HA's own agent) as an extra system
   prompt;
3. when the wrapped agent did not understand (no intent matched) and the best memory is
   close enough (answer_similarity), the memory itself is the answer (the no-LLM path).

The agent implements `async_process` rather than `_async_handle_message`: the wrapped
agent opens (or, inside an Assist pipeline, reuses) the chat log of the same
conversation id, so this agent must not hold one open while delegating.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

from homeassistant.components import conversation
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent
from homeassistant.helpers.chat_session import async_get_chat_session
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .answers import base_language, quote_all, reply
from .cloud import agent_domain, async_is_cloud_domain, without_sensitive
from .const import (
    AGENT_NAME,
    CONF_AGENT,
    CONF_ANSWER_SIMILARITY,
    DEFAULT_ANSWER_SIMILARITY,
    DOMAIN,
)
from .engine.models import Hit, Role, Speaker
from .extraction_job import async_note_turn
from .intents import (
    INTENT_FORGET_CONFIRM,
    SLOT_CONVERSATION_ID,
    SentenceMatch,
    async_get_sentences,
    match_sentence,
)
from .llm_api import format_memory_block
from .runtime import MemoryConfigEntry, MemoryRuntimeData, async_recall
from .speaker import async_resolve_speaker, other_tellers, tellers
from .transcripts import async_record_turn

_LOGGER = logging.getLogger(__name__)

# Wrapped-agent errors that mean "I could not make sense of that", where a memory may answer
# instead. UNKNOWN covers a sentence HA's fuzzy matcher mapped to an intent nobody handles
# (e.g. "Where is the spare key …" → HassGetWeather without a weather integration).
NOT_UNDERSTOOD = frozenset(
    {
        intent.IntentResponseErrorCode.NO_INTENT_MATCH,
        intent.IntentResponseErrorCode.NO_VALID_TARGETS,
        intent.IntentResponseErrorCode.UNKNOWN,
    }
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: MemoryConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the memory agent of this entry."""
    async_add_entities([MemoryConversationEntity(entry)])


class MemoryConversationEntity(conversation.ConversationEntity, conversation.AbstractConversationAgent):
    """The "Memory assistant" conversation agent."""

    _attr_has_entity_name = True
    _attr_translation_key = "memory_assistant"

    def __init__(self, entry: MemoryConfigEntry) -> None:
        self._entry = entry
        self._attr_unique_id = entry.entry_id
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name=entry.title or AGENT_NAME,
            entry_type=DeviceEntryType.SERVICE,
        )

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Any language: unknown ones fall back to English replies and the wrapped agent."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Also register as the entry's agent (agent id = entry id), like core's LLM agents."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self._entry, self)

    async def async_will_remove_from_hass(self) -> None:
        conversation.async_unset_agent(self.hass, self._entry)
        await super().async_will_remove_from_hass()

    @property
    def _data(self) -> MemoryRuntimeData:
        return self._entry.runtime_data

    async def async_process(
        self, user_input: conversation.ConversationInput
    ) -> conversation.ConversationResult:
        """One turn: a memory sentence, or recall + the wrapped agent (+ the no-LLM answer).

        The user's words are recorded verbatim before anything interprets them, the reply after.
        """
        with async_get_chat_session(self.hass, user_input.conversation_id) as session:
            pass  # fixes the conversation id now (a new one when none was given) for the transcript
        user_input = replace(user_input, conversation_id=session.conversation_id)
        speaker = await async_resolve_speaker(
            self.hass,
            context=user_input.context,
            device_id=user_input.device_id,
            satellite_id=user_input.satellite_id,
            options=self._data.options,
        )
        await self._async_record(user_input, Role.USER, user_input.text, speaker)
        if (match := await self._async_match(user_input)) is not None:
            result = await self._async_handle_sentence(user_input, match)
        else:
            result = await self._async_delegate(user_input, speaker)
        reply_text = result.response.speech.get("plain", {}).get("speech", "")
        await self._async_record(user_input, Role.ASSISTANT, reply_text, speaker)
        async_note_turn(  # learning: the conversation ends later (idle or chat session end)
            self.hass,
            self._entry,
            session.conversation_id,
            speaker=speaker,
            language=user_input.language,
            session=session,
        )
        return result

    async def _async_record(
        self, user_input: conversation.ConversationInput, role: Role, text: str, speaker: Speaker
    ) -> None:
        assert user_input.conversation_id is not None
        await async_record_turn(
            self.hass,
            self._entry,
            user_input.conversation_id,
            role,
            text,
            speaker=speaker,
            language=user_input.language,
        )

    async def _async_match(self, user_input: conversation.ConversationInput) -> SentenceMatch | None:
        """The memory sentence of this turn; yes/no only counts while a forget is pending."""
        data = self._data
        conversation_id = user_input.conversation_id
        pending = conversation_id is not None and conversation_id in data.pending_forget
        intents = await async_get_sentences(self.hass, user_input.language)
        match = match_sentence(intents, user_input.text) if intents is not None else None
        if match is not None and match.intent_type == INTENT_FORGET_CONFIRM:
            return match if pending else None
        if pending:  # the user moved on: the question is dropped, nothing is forgotten
            _drop_pending(data, conversation_id)
        return match

    async def _async_handle_sentence(
        self, user_input: conversation.ConversationInput, match: SentenceMatch
    ) -> conversation.ConversationResult:
        """Dispatch a memory sentence through HA's intents and log the turn in the chat log."""
        hass = self.hass
        data = self._data
        with (
            async_get_chat_session(hass, user_input.conversation_id) as session,
            conversation.async_get_chat_log(hass, session, user_input) as chat_log,
        ):
            conversation_id = session.conversation_id
            slots = {name: {"value": value} for name, value in match.slots.items()}
            slots[SLOT_CONVERSATION_ID] = {"value": conversation_id}
            try:
                response = await intent.async_handle(
                    hass,
                    DOMAIN,
                    match.intent_type,
                    slots,
                    text_input=user_input.text,
                    context=user_input.context,
                    language=user_input.language,
                    assistant=conversation.DOMAIN,
                    device_id=user_input.device_id,
                    satellite_id=user_input.satellite_id,
                    conversation_agent_id=self.entity_id,
                )
            except intent.IntentError:
                _LOGGER.exception("Memory intent %s failed", match.intent_type)
                response = intent.IntentResponse(language=user_input.language)
                response.async_set_error(
                    intent.IntentResponseErrorCode.FAILED_TO_HANDLE,
                    reply(user_input.language, "store_unavailable"),
                )
            speech = response.speech.get("plain", {}).get("speech", "")
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(agent_id=self.entity_id or DOMAIN, content=speech)
            )
            waiting = conversation_id in data.pending_forget
            if waiting:  # a question is open: drop it when the chat session expires
                session.async_on_cleanup(lambda: _drop_pending(data, conversation_id))
        return conversation.ConversationResult(
            response=response, conversation_id=conversation_id, continue_conversation=waiting
        )

    async def _async_delegate(
        self, user_input: conversation.ConversationInput, speaker: Speaker
    ) -> conversation.ConversationResult:
        """Recall for the speaker, hand over with the memory block, answer from memory if not understood."""
        hass = self.hass
        data = self._data
        hits = await async_recall(
            hass, data, user_input.text, speaker, language=base_language(user_input.language)
        )
        agent_id = self._wrapped_agent_id()
        # a sensitive memory never reaches a cloud model; the local no-LLM answer may use it
        prompt_hits = (
            without_sensitive(hits)
            if await async_is_cloud_domain(hass, agent_domain(hass, agent_id))
            else hits
        )
        block = format_memory_block(prompt_hits, data.recall_options(), tellers(hass, speaker))
        extra_prompt = "\n\n".join(p for p in (block, user_input.extra_system_prompt) if p) or None
        result = await conversation.async_converse(
            hass,
            user_input.text,
            user_input.conversation_id,
            user_input.context,
            user_input.language,
            agent_id=agent_id,
            device_id=user_input.device_id,
            satellite_id=user_input.satellite_id,
            extra_system_prompt=extra_prompt,
        )
        if (answer := self._memory_answer(result, hits, user_input.language, speaker)) is not None:
            return conversation.ConversationResult(
                response=answer, conversation_id=result.conversation_id, continue_conversation=False
            )
        return result

    def _wrapped_agent_id(self) -> str:
        """The configured agent, or HA's default agent when unset, missing or this agent itself."""
        agent_id = self._data.options.get(CONF_AGENT) or conversation.HOME_ASSISTANT_AGENT
        if agent_id in (self.entity_id, self._entry.entry_id):
            return conversation.HOME_ASSISTANT_AGENT
        if conversation.async_get_agent(self.hass, agent_id) is None:
            _LOGGER.warning("Wrapped conversation agent %s not found, using Home Assistant's", agent_id)
            return conversation.HOME_ASSISTANT_AGENT
        return agent_id

    def _memory_answer(
        self, result: conversation.ConversationResult, hits: list[Hit], language: str, speaker: Speaker
    ) -> intent.IntentResponse | None:
        """The best memory as the answer, when the wrapped agent did not understand; one another
        person told is answered with their name ("Julian told me: …": its "I" is Julian)."""
        response = result.response
        if (
            response.response_type != intent.IntentResponseType.ERROR
            or response.error_code not in NOT_UNDERSTOOD
        ):
            return None
        threshold = float(self._data.options.get(CONF_ANSWER_SIMILARITY, DEFAULT_ANSWER_SIMILARITY))
        # by meaning, not by rank: shared words lift a memory in the question's language above
        # the answer told in another one ("our dog?" -> "Der Hund heißt Bruno.")
        best = max(hits, key=lambda h: h.similarity, default=None)
        if best is None or best.similarity < threshold:
            return None
        answer = intent.IntentResponse(language=language)
        items = quote_all([best.memory.content])
        (name,) = other_tellers(self.hass, speaker, [best.memory])
        if name:
            answer.async_set_speech(reply(language, "from_memory_by", name=name, items=items))
        else:
            answer.async_set_speech(reply(language, "from_memory", items=items))
        return answer


def _drop_pending(data: MemoryRuntimeData, conversation_id: str) -> None:
    data.pending_forget.pop(conversation_id, None)
