"""Validation and error translation shared by every door that takes an administrator's or an
automation's input: the memory.* services (services.py) and the panel's WebSocket commands
(websocket_api.py).

Bad input is a ServiceValidationError with a translation key from strings.json "exceptions" and
the offending field as the `field` placeholder; an engine InvalidInput maps to one by its reason
(REASON_KEYS; with the bound it crossed, BOUNDED_KEYS and its `max`/`min`); a failed engine call to
a translated HomeAssistantError (engine_failed). The limits are the engine's (engine/inputs.py).
"""

from __future__ import annotations

import re
from typing import Any

import probatio as vol
from homeassistant.exceptions import HomeAssistantError, ServiceValidationError

from .const import DOMAIN
from .engine.api import (
    EngineError,
    InvalidInput,
    StoreCorrupt,
    StoreFileChanged,
    StoreUnavailable,
    StoreUnwritable,
    WritesPaused,
)

# A short BCP-47 tag: language (2-3 letters), optional script/region/variant subtags ("de", "pt-BR").
LANGUAGE_TAG = re.compile(r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$")

# engine InvalidInput.reason -> strings.json exceptions key
REASON_KEYS = {
    "empty": "empty_content",
    "too_long": "content_too_long",
    "invalid_text": "invalid_text",
    "scope_needs_person": "scope_needs_person",
    "scope_needs_area": "scope_needs_area",
    "unknown_memory": "unknown_memory",
    "wider_scope": "replaces_wider_scope",
    "unknown_speaker": "unknown_person",
    "sensitive": "sensitive_content",
    "not_current": "memory_not_current",
    "unknown_tombstone": "unknown_tombstone",
    "not_pending": "not_pending",
    "owner_needs_private": "owner_needs_private",
    "area_needs_room": "area_needs_room",
    "conflict": "conflict",
    "forgotten": "forgotten",
    "scope_reserved": "scope_reserved",
    "wrong_type": "wrong_type",
    "unknown_value": "unknown_value",
    "not_finite": "not_finite",
    "naive_time": "naive_time",
}
# engine InvalidInput.reason with InvalidInput.limit -> (exceptions key, the limit's placeholder)
BOUNDED_KEYS = {
    "too_long": ("text_too_long", "max"),
    "too_many": ("too_many_items", "max"),
    "too_large": ("number_too_large", "max"),
    "too_small": ("number_too_small", "min"),
    "negative": ("number_too_small", "min"),
}


def whole_number(value: Any) -> int:
    """A voluptuous validator: an int, or a float or a string that is exactly a whole number
    ("30", 30.0), as an int; anything else (1.7, "1.5", True, None) is vol.Invalid. Unlike
    vol.Coerce(int), which truncates 1.7 to 1 and takes True for 1."""
    if isinstance(value, bool):
        raise vol.Invalid("expected a whole number")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            try:
                value = float(value)
            except ValueError:
                raise vol.Invalid("expected a whole number") from None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise vol.Invalid("expected a whole number")


def whole_in_range(value: Any, field: str, low: int, high: int, key: str = "out_of_range") -> int:
    """`value` as a whole number (whole_number: 30, 30.0, "30"; never 1.7 truncated, nor True)
    within low..high, else the translated error `key` naming the field and the range."""
    try:
        number: int | None = whole_number(value)
    except vol.Invalid:
        number = None
    if number is None or not low <= number <= high:
        raise ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key=key,
            translation_placeholders={"field": field, "min": str(low), "max": str(high)},
        )
    return number


def text(value: Any) -> str:
    """A voluptuous validator: a string as it is; anything else (5, True, None) is vol.Invalid,
    where cv.string would make 5 into "5"."""
    if not isinstance(value, str):
        raise vol.Invalid("expected a string")
    return value


def invalid(key: str, field: str) -> ServiceValidationError:
    """The translated error `key` (strings.json "exceptions") naming `field`."""
    return ServiceValidationError(
        translation_domain=DOMAIN, translation_key=key, translation_placeholders={"field": field}
    )


def map_invalid(err: InvalidInput, field: str | None = None) -> ServiceValidationError:
    """The engine's InvalidInput as a translated error (REASON_KEYS; BOUNDED_KEYS with the limit
    when the engine gives one; "invalid_input" for an unlisted reason), naming `field` (default:
    the engine's field name)."""
    name = field or err.field
    if err.limit is not None and err.reason in BOUNDED_KEYS:
        key, bound = BOUNDED_KEYS[err.reason]
        return ServiceValidationError(
            translation_domain=DOMAIN,
            translation_key=key,
            translation_placeholders={"field": name, bound: _number_text(err.limit)},
        )
    return invalid(REASON_KEYS.get(err.reason, "invalid_input"), name)


def _number_text(number: float) -> str:
    """A limit as people write it: 1000, not 1000.0 or 1e+03."""
    return str(int(number)) if float(number).is_integer() else str(number)


# A store that failed -> strings.json exceptions key; each says nothing was stored or changed.
STORE_FAULT_KEYS: dict[type[StoreUnavailable], str] = {
    StoreFileChanged: "store_file_changed",  # deleted or replaced under the running store: reload
    StoreCorrupt: "store_damaged",  # not a readable database: restore a backup
    StoreUnwritable: "store_unwritable",  # a full disk, a read-only file: writes work once it is fixed
    WritesPaused: "store_paused",  # a backup held it longer than a write waits: try again
}
STORE_WRITE_REFUSED = "store_write_refused"  # any other StoreUnavailable(writing=True)
STORE_UNREACHABLE = "store_unreachable"  # any other StoreUnavailable


def engine_failed(err: EngineError) -> HomeAssistantError:
    """The translated error of a failed engine call; a store that failed says how, and that
    nothing was done (a write that raised was not committed): STORE_FAULT_KEYS, a refused write,
    an unreachable store."""
    if isinstance(err, StoreUnavailable):
        key = next((k for kind, k in STORE_FAULT_KEYS.items() if isinstance(err, kind)), None)
        key = key or (STORE_WRITE_REFUSED if err.writing else STORE_UNREACHABLE)
        return HomeAssistantError(translation_domain=DOMAIN, translation_key=key)
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key="engine_error",
        translation_placeholders={"error": str(err)},
    )
