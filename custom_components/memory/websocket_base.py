"""What the panel's `memory/...` WebSocket commands share (websocket_api.py, websocket_transfer.py,
websocket_voice.py import it; it imports none of them): `memory_command`, the command framework —
admin only, the schema validated, answered for the loaded entry, every failure sent as a translated
error with its code (CODES; docs/websocket_api.md) — and the checks of ids, persons and areas.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Any

import probatio as vol
from homeassistant.components import websocket_api
from homeassistant.components.websocket_api.connection import ActiveConnection
from homeassistant.components.websocket_api.const import ERR_HOME_ASSISTANT_ERROR, ERR_NOT_FOUND
from homeassistant.components.websocket_api.decorators import (
    async_response,
    require_admin,
    websocket_command,
)
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers.translation import async_get_translations

from .const import DOMAIN
from .engine.api import EngineError, InvalidInput
from .engine.inputs import MAX_ID_CHARS
from .runtime import MemoryConfigEntry, loaded_entry
from .speaker import is_person
from .validation import engine_failed, invalid, map_invalid, text

# strings.json exceptions keys answered with these codes (others: invalid_input / the engine's)
CODES = {
    "unknown_memory": ERR_NOT_FOUND,
    "unknown_tombstone": ERR_NOT_FOUND,
    "not_loaded": "not_loaded",
    "store_unreachable": "store_unavailable",
    "store_write_refused": "store_unavailable",
    "store_file_changed": "store_unavailable",
    "store_damaged": "store_unavailable",
    "store_unwritable": "store_unavailable",
    "store_paused": "store_unavailable",
}
ERR_INVALID_INPUT = "invalid_input"

type Handler = Callable[[HomeAssistant, MemoryConfigEntry, dict[str, Any]], Awaitable[dict[str, Any]]]
type Command = Callable[[HomeAssistant, ActiveConnection, dict[str, Any]], None]

# Strings must be strings and numbers whole numbers (validation.text, whole_number): no 5 taken
# for "5", no 1.5 truncated to 1.
ID = vol.All(text, vol.Length(min=1, max=MAX_ID_CHARS))


def memory_command(
    name: str, schema: dict[Any, Any], *, streams: bool = False
) -> Callable[[Handler], Command]:
    """The WebSocket command `memory/<name>` around `handler(hass, entry, msg) -> result`: admin
    only, `schema` validated, answered for the loaded entry, every failure sent as an error
    (websocket_api.py's docstring: errors); msg["context"] is the request's Context (the connection's user).
    streams: the command takes `progress: true`, with which it is answered like a subscription —
    each event the handler sends (msg["send"](event), from any thread) and, last,
    `{"result": result}` as events, then the (empty) result."""

    def decorate(handler: Handler) -> Command:
        extra: dict[Any, Any] = {vol.Optional("progress", default=False): bool} if streams else {}

        @websocket_command({vol.Required("type"): f"{DOMAIN}/{name}", **schema, **extra})
        @require_admin
        @async_response
        async def command(hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]) -> None:
            streaming = bool(msg.get("progress"))
            if streaming:  # the client unsubscribes once it has the result: nothing to cancel
                connection.subscriptions[msg["id"]] = lambda: None

            def send(event: dict[str, Any]) -> None:
                if streaming:
                    hass.loop.call_soon_threadsafe(
                        connection.send_message, websocket_api.event_message(msg["id"], event)
                    )

            try:
                entry = loaded_entry(hass)
                result = await handler(hass, entry, {**msg, "send": send, "context": connection.context(msg)})
            except InvalidInput as err:
                await async_send_error(hass, connection, msg["id"], map_invalid(err))
            except EngineError as err:
                await async_send_error(hass, connection, msg["id"], engine_failed(err))
            except HomeAssistantError as err:
                await async_send_error(hass, connection, msg["id"], err)
            else:
                if streaming:
                    connection.send_message(websocket_api.event_message(msg["id"], {"result": result}))
                connection.send_result(msg["id"], None if streaming else result)

        return command

    return decorate


async def async_send_error(
    hass: HomeAssistant, connection: ActiveConnection, msg_id: int, err: HomeAssistantError
) -> None:
    """Answer msg_id with the translated error `err` (CODES; websocket_api.py's docstring)."""
    key = err.translation_key
    placeholders = {k: str(v) for k, v in (err.translation_placeholders or {}).items()}
    code = CODES.get(key or "", ERR_INVALID_INPUT if isinstance(err, ServiceValidationError) else "")
    message = str(err)
    if key is not None:
        translations = await async_get_translations(hass, hass.config.language, "exceptions", [DOMAIN])
        message = translations.get(f"component.{DOMAIN}.exceptions.{key}.message", key)
        with suppress(KeyError, IndexError, ValueError):
            message = message.format(**placeholders)
    connection.send_error(
        msg_id,
        code or ERR_HOME_ASSISTANT_ERROR,
        message,
        translation_key=key,
        translation_domain=DOMAIN if key else None,
        translation_placeholders=placeholders if key else None,
    )


def check_person(hass: HomeAssistant, person: str | None, field: str) -> str | None:
    """`person` when it is an existing person entity (None stays None); else unknown_person."""
    if person is not None and not is_person(hass, person):
        raise invalid("unknown_person", field)
    return person


def check_area(hass: HomeAssistant, area: str | None, field: str) -> str | None:
    """`area` when it is an existing area id (None stays None); else unknown_area."""
    if area is not None and ar.async_get(hass).async_get_area(area) is None:
        raise invalid("unknown_area", field)
    return area
