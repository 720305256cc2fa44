"""What Home Assistant's own agent matches exactly: device commands (not memories) and the
sentences it answers itself (which a memory answer must not take over).

The engine's `is_device_command` knows imperative verbs in five languages. Home Assistant's
default conversation agent knows the commands of every language it ships intents for, and
which entities this home exposes: a user turn it matches *strictly* (exact sentence templates
against exposed entities — not its looser stages, which guess at unknown names and so also
"recognise" plain statements such as "The bins go out on Tuesday") as an action intent is a
command, not something to remember.
Questions (the `HassGet…` intents: state, weather, time, date) are not actions.
"""

from __future__ import annotations

import logging

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import async_get_agent
from homeassistant.core import Context, HomeAssistant

from .utterances import answer_then

_LOGGER = logging.getLogger(__name__)

QUESTION_INTENT_PREFIX = "HassGet"  # HassGetState, HassGetWeather, HassGetCurrentTime, …
SENTENCE_TRIGGER = "sentence_trigger"  # an automation's "when I say …" (an action of its own)


async def async_strict_intent(
    hass: HomeAssistant,
    text: str,
    language: str,
    *,
    device_id: str | None = None,
    satellite_id: str | None = None,
) -> str | None:
    """The intent HA's default agent matches `text` (in `language`) to *exactly*: a sentence
    template of its own against exposed entities with every entity found (no guess at unknown
    names or unexposed entities) -> the intent's name; a sentence trigger of an automation ->
    SENTENCE_TRIGGER; None when it matches none. device_id/satellite_id: where it was said (HA
    resolves "the lights" to that area, and caches the match for the same turn).

    Never raises: without a default agent, intents for the language, or on any error -> None."""
    agent = async_get_agent(hass)
    recognize = getattr(agent, "async_recognize_intent", None)
    if recognize is None:
        return None
    said = conversation.ConversationInput(
        text=text,
        context=Context(),
        conversation_id=None,
        device_id=device_id,
        satellite_id=satellite_id,
        language=language,
        agent_id=conversation.HOME_ASSISTANT_AGENT,
    )
    try:
        if (trigger := getattr(agent, "async_recognize_sentence_trigger", None)) is not None and (
            await trigger(said)
        ) is not None:
            return SENTENCE_TRIGGER
        result = await recognize(said, strict_intents_only=True)
    except Exception:  # recognition only decides who answers; a failure must not end the turn
        _LOGGER.debug("Intent recognition failed", exc_info=True)
        return None
    if result is None or result.unmatched_entities:
        return None
    return str(result.intent.name)


async def async_is_device_command(hass: HomeAssistant, text: str, language: str) -> bool:
    """True when HA's default agent strictly matches `text` (in `language`) to an action intent
    (HassTurnOn, HassLightSet, HassSetPosition, HassMediaSearchAndPlay, timers, lists …):
    async_strict_intent, not a question (HassGet…); an opening answer word is no part of the
    command ("No, turn on the kitchen light.": utterances.answer_then). Never raises (the
    engine's verb filter still applies)."""
    if (opened := answer_then(text, language)) is not None:
        text = opened.rest
    name = await async_strict_intent(hass, text, language)
    return name is not None and not name.startswith(QUESTION_INTENT_PREFIX)
