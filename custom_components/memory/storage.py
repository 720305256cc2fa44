"""Where the memories live, as configured: the SQLite file or a PostgreSQL database (+ household).

StoreSettings reads and writes the config entry's storage keys; `describe` names the store for logs
and errors without the password (`redact_url`: scheme, host and database only); the reconfigure
form shows the URL with its password masked (`mask_password`) and a submitted mask keeps the stored
password (`restore_password`), so the password is never shown back. Pure functions, no I/O, except
`async_default_household` (HA's instance id).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit, urlunsplit

from homeassistant.core import HomeAssistant
from homeassistant.helpers import instance_id

from .const import (
    CONF_DB_PATH,
    CONF_DB_URL,
    CONF_HOUSEHOLD,
    CONF_STORAGE,
    DEFAULT_DB_PATH,
    STORAGE_POSTGRESQL,
    STORAGE_SQLITE,
)

# Shown in place of a password in the reconfigure form; submitted unchanged it keeps the stored one.
PASSWORD_MASK = "********"
# A household key derived from the instance id (HA's uuid4 hex): 12 hex digits (48 bits) keep two
# installations apart; the prefix says where it came from when someone reads the database.
HOUSEHOLD_PREFIX = "ha-"
HOUSEHOLD_DIGITS = 12


def redact_url(url: str) -> str:
    """`url` with only its scheme, host(s), port and database: no user, no password, no other
    query parameter (a unix-socket host given as ?host=… is kept as the host). For logs, errors
    and diagnostics; "(invalid URL)" when it cannot be parsed."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(invalid URL)"
    if not host:
        host = ",".join(parse_qs(parts.query).get("host", []))
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _with_password(url: str, password: str) -> str:
    parts = urlsplit(url)
    user, _, rest = parts.netloc.rpartition("@")
    name = user.split(":", 1)[0]
    netloc = f"{name}:{quote(password, safe='')}@{rest}"
    return urlunsplit(parts._replace(netloc=netloc))


def url_password(url: str) -> str | None:
    """The URL's password (decoded); None when it has none or does not parse."""
    try:
        password = urlsplit(url).password
    except ValueError:
        return None
    return unquote(password) if password else None


def mask_password(url: str) -> str:
    """`url` with a non-empty password replaced by PASSWORD_MASK (the reconfigure form)."""
    return _with_password(url, PASSWORD_MASK) if url_password(url) else url


def restore_password(url: str, previous: str | None) -> str:
    """A submitted URL whose password is PASSWORD_MASK gets `previous`'s password back."""
    if previous and url_password(url) == PASSWORD_MASK and (old := url_password(previous)):
        return _with_password(url, old)
    return url


async def async_default_household(hass: HomeAssistant) -> str:
    """A household key unique to this installation (from HA's instance id): two installations
    share memories only when both are given the same key."""
    return HOUSEHOLD_PREFIX + (await instance_id.async_get(hass))[:HOUSEHOLD_DIGITS]


@dataclass(frozen=True, slots=True)
class StoreSettings:
    """One store: `storage` "sqlite" (db_path, relative to the config dir) or "postgresql"
    (db_url, household)."""

    storage: str
    db_path: str | None = None
    db_url: str | None = None
    household: str | None = None

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> StoreSettings:
        """The settings in config entry data (entries from before PostgreSQL are SQLite)."""
        if data.get(CONF_STORAGE) == STORAGE_POSTGRESQL:
            return cls(STORAGE_POSTGRESQL, db_url=data.get(CONF_DB_URL), household=data.get(CONF_HOUSEHOLD))
        return cls(STORAGE_SQLITE, db_path=data.get(CONF_DB_PATH, DEFAULT_DB_PATH))

    def entry_data(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """`data` (entry data) pointing at this store: the other backend's keys dropped."""
        kept = {k: v for k, v in data.items() if k not in (CONF_DB_PATH, CONF_DB_URL, CONF_HOUSEHOLD)}
        if self.storage == STORAGE_POSTGRESQL:
            return {
                **kept,
                CONF_STORAGE: self.storage,
                CONF_DB_URL: self.db_url,
                CONF_HOUSEHOLD: self.household,
            }
        return {**kept, CONF_STORAGE: self.storage, CONF_DB_PATH: self.db_path}

    def store_kwargs(self, hass: HomeAssistant) -> dict[str, Any]:
        """engine.factory.build_store/build_engine keywords (the file resolved in the config dir)."""
        if self.storage == STORAGE_POSTGRESQL:
            return {"storage": self.storage, "db_url": self.db_url, "household": self.household}
        return {"storage": self.storage, "db_path": hass.config.path(self.db_path or DEFAULT_DB_PATH)}

    def describe(self) -> str:
        """The store for logs and messages, password-free: the file, or the redacted URL and
        household."""
        if self.storage == STORAGE_POSTGRESQL:
            return f"{redact_url(self.db_url or '')} (household {self.household})"
        return str(self.db_path)
