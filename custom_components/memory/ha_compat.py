"""Where the supported Home Assistant releases differ (2026.10.4, the oldest, and 2026.11): one
place that looks at what the running release offers (never at its version number) and gives the
rest of the integration one way to do each thing, in 2026.11's conventions where it can.

- Config entry set-up and unload: 2026.11 wants `async_setup_entry`/`async_unload_entry` to return
  None (a failure raises) and unloads platforms with `async_unload_platforms_or_raise`; 2026.10.4
  logs "did not return boolean" and fails the set-up on None, and asserts a bool on unload. Set-up
  returns ENTRY_SET_UP; unload returns `await async_unload_platforms(...)`.
- Repair issues: 2026.11 links an issue to its config entry (`config_entry_id`: hidden while the
  entry is disabled, deleted with it); 2026.10.4 has no such argument. `issue_link(entry_id)` is
  the keyword to pass.
- Form fields: 2026.11's `data_entry_flow.Required`/`Optional` take `visible=` (a condition on
  another field of the same form: the field is not shown, not required and not submitted unless it
  holds); 2026.10.4's markers do not. `shown_when(marker, key, field, value, ...)` makes the field,
  conditional where the release can.
- LLM API instances: 2026.11 keeps a chat log's API instance and system prompt between turns
  (prompt caching) and marks the running turn (`ChatLog.turn_active`); 2026.10.4 builds both anew
  every turn, for a copy of the chat log per turn. KEEPS_API_BETWEEN_TURNS says which
  (llm_api.TurnRenewal renews only where HA keeps them).
- Speech-to-text speakers: 2026.11 lets a speech-to-text entity name who speaks
  (`stt.PartialSpeechResult(text, speaker_id)`, yielded by `async_process_audio_stream_with_progress`
  before the final `SpeechResult`; an entity may implement only that method); 2026.10.4 has
  neither. `async_transcribe` reads another entity's result and speakers, `partial_result` makes
  our own entity's partial result; STT_NAMES_SPEAKERS says whether the release has them.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import AsyncIterable
from contextlib import aclosing
from typing import Any, Final

import probatio as vol
from homeassistant import data_entry_flow
from homeassistant.components import stt
from homeassistant.components.conversation.chat_log import ChatLog
from homeassistant.config_entries import ConfigEntries, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

# 2026.11: entry methods return None and unloading raises (config_entries
# async_unload_platforms_or_raise came with _async_process_entry_method_result).
ENTRY_METHODS_RETURN_NONE: Final = hasattr(ConfigEntries, "async_unload_platforms_or_raise")
# What async_setup_entry returns once set up: None where HA wants None, True where it wants a bool.
ENTRY_SET_UP: Final[bool | None] = None if ENTRY_METHODS_RETURN_NONE else True
# 2026.11: a repair issue names the config entry it belongs to.
ISSUES_NAME_ENTRY: Final = "config_entry_id" in inspect.signature(ir.async_create_issue).parameters
# 2026.11: a chat log keeps its API instance between turns (prompt caching, with turn_active).
KEEPS_API_BETWEEN_TURNS: Final = "turn_active" in {f.name for f in dataclasses.fields(ChatLog)}
# 2026.11: HA's own schema markers with `visible=` (2026.10.4's data_entry_flow has no Optional;
# its `Required` is typing.Required, hence the class check).
_HA_OPTIONAL = getattr(data_entry_flow, "Optional", None)
FIELDS_CAN_HIDE: Final = isinstance(_HA_OPTIONAL, type) and issubclass(_HA_OPTIONAL, vol.Optional)
# 2026.11: speech-to-text entities may name the speaker of their transcript.
STT_NAMES_SPEAKERS: Final = hasattr(stt, "PartialSpeechResult")


async def async_unload_platforms(
    hass: HomeAssistant, entry: ConfigEntry, platforms: list[Platform]
) -> bool | None:
    """Unload the entry's platforms, as async_unload_entry returns it: None (a failure raises
    ConfigEntryError, HA marks the entry failed to unload) where HA wants None, else the bool."""
    if ENTRY_METHODS_RETURN_NONE:
        await hass.config_entries.async_unload_platforms_or_raise(entry, platforms)  # type: ignore[attr-defined]
        return None
    return await hass.config_entries.async_unload_platforms(entry, platforms)


def issue_link(entry_id: str | None) -> dict[str, Any]:
    """The async_create_issue keyword linking an issue to config entry `entry_id` ({} where the
    release cannot, or without an entry)."""
    return {"config_entry_id": entry_id} if ISSUES_NAME_ENTRY and entry_id is not None else {}


def shown_when(
    marker: type[vol.Required] | type[vol.Optional], key: str, field: str, value: Any, **kwargs: Any
) -> vol.Marker:
    """Schema key `key` (`marker` vol.Required or vol.Optional, with `kwargs` such as default or
    description) shown only while form field `field` (same form or section) equals `value`. Where
    the release cannot hide fields it is always shown, as before 2026.11: the flow must then accept
    it whatever `field` says, and where it can, the flow's input lacks it when hidden."""
    if not FIELDS_CAN_HIDE:
        return marker(key, **kwargs)
    ha_marker: Any = getattr(data_entry_flow, "Required" if issubclass(marker, vol.Required) else "Optional")
    return ha_marker(key, visible={"field": field, "value": value}, **kwargs)  # type: ignore[no-any-return]


async def async_transcribe(
    entity: stt.SpeechToTextEntity, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
) -> tuple[stt.SpeechResult, frozenset[str]]:
    """`entity`'s final result for `stream`, and the speaker ids its partial results named (none
    where the release has no speakers). Raises what the entity raises; RuntimeError when it ends
    without a final result."""
    if not STT_NAMES_SPEAKERS:
        return await entity.async_process_audio_stream(metadata, stream), frozenset()
    speakers: set[str] = set()
    progress = entity.async_process_audio_stream_with_progress(metadata, stream)  # type: ignore[attr-defined]
    async with aclosing(progress) as results:
        async for result in results:
            if isinstance(result, stt.SpeechResult):
                return result, frozenset(speakers)
            if result.speaker_id:
                speakers.add(result.speaker_id)
    raise RuntimeError(f"{entity.entity_id} gave no final speech result")


def partial_result(text: str, speaker_id: str) -> Any:
    """A partial speech-to-text result naming the speaker (only where STT_NAMES_SPEAKERS)."""
    return stt.PartialSpeechResult(text, speaker_id=speaker_id)  # type: ignore[attr-defined]
