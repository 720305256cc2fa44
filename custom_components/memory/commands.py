"""Device commands recognised by Home Assistant's own sentence matching (case C20).

The engine's `is_device_command` knows imperative verbs in five languages. Home Assistant's
default conversation agent knows the commands of every language it ships intents for, and
which entities this home exposes: a user turn it matches *strictly* (exact sentence templates
against exposed entities — no fuzzy matching, which also "recognises" plain statements such as
"The bins go out on Tuesday") as an action intent is a command, not something to remember.
Questions (the `HassGet…` intents: state, weather, time, date) are not actions.
"""

from __future__ import annotations

import logging

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import async_get_agent
from homeassistant.core import Context, HomeAssistant

_LOGGER = logging.getLogger(__name__)

QUESTION_INTENT_PREFIX = "HassGet"  # HassGetState, HassGetWeather, HassGetCurrentTime, …


async def async_is_device_command(hass: HomeAssistant, text: str, language: str) -> bool:
    """True when HA's default agent strictly matches `text` (in `language`) to an action intent
    (HassTurnOn, HassLightSet, HassSetPosition, HassMediaSearchAndPlay, timers, lists …).

    Never raises: without a default agent, intents for the language, or on any error → False
    (the engine's verb filter still applies)."""
    agent = async_get_agent(hass)
    recognize = getattr(agent, "async_recognize_intent", None)
    if recognize is None:
        return False
    said = conversation.ConversationInput(
        text=text,
        context=Context(),
        conversation_id=None,
        device_id=None,
        satellite_id=None,
        language=language,
        agent_id=conversation.HOME_ASSISTANT_AGENT,
    )
    try:
        result = await recognize(said, strict_intents_only=True)
    except Exception:  # recognition is a filter; a failure must not stop learning
        _LOGGER.debug("Intent recognition failed for a transcript turn", exc_info=True)
        return False
    if result is None or result.unmatched_entities:
        return False
    return not result.intent.name.startswith(QUESTION_INTENT_PREFIX)
