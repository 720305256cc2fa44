"""Where the memories live, as configured: the SQLite file or a PostgreSQL database (+ household).

StoreSettings reads and writes the config entry's storage keys; `describe` names the store for logs
and errors without the password (`redact_url`: scheme, host and database only); the reconfigure
form shows the URL with its password masked (`mask_password`) and a submitted mask keeps the stored
password (`restore_password`), so the password is never shown back. `async_validate_postgres` is
the one check of a PostgreSQL target (config flow, reconfigure, move step, memory.move_store):
engine/store/postgres.check_server in the executor, one error key per reason. The rest is pure.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from homeassistant.core import HomeAssistant
from homeassistant.helpers import instance_id

from .const import (
    CONF_ANCHOR_KEY,
    CONF_DB_PATH,
    CONF_DB_URL,
    CONF_HOUSEHOLD,
    CONF_STORAGE,
    DEFAULT_DB_PATH,
    STORAGE_POSTGRESQL,
    STORAGE_SQLITE,
)

_LOGGER = logging.getLogger(__name__)

# Shown in place of a password in the reconfigure form; submitted unchanged it keeps the stored one.
PASSWORD_MASK = "********"
# A household key derived from the instance id (HA's uuid4 hex): 12 hex digits (48 bits) keep two
# installations apart; the prefix says where it came from when someone reads the database.
HOUSEHOLD_PREFIX = "ha-"
HOUSEHOLD_DIGITS = 12

# The per-installation secret (entry.data[CONF_ANCHOR_KEY], hex) for the identifier digests
# tombstones keep (engine/forgetting.py): outside the database, so it alone cannot brute-force them.
ANCHOR_KEY_BYTES = 32


def new_anchor_key() -> str:
    """A fresh anchor key, hex (config entry data is JSON)."""
    return secrets.token_bytes(ANCHOR_KEY_BYTES).hex()


def anchor_key(data: Mapping[str, Any]) -> bytes | None:
    """The entry's anchor key as bytes; None when absent or malformed."""
    try:
        return bytes.fromhex(data[CONF_ANCHOR_KEY]) or None
    except KeyError, TypeError, ValueError:
        return None


def redact_url(url: str) -> str:
    """`url` with only its scheme, host(s), port and database: no user, no password, no other
    query parameter but a unix-socket directory given as ?host=…). For logs, errors and
    diagnostics; "(invalid URL)" when it cannot be parsed."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "(invalid URL)"
    if not host and (sockets := parse_qs(parts.query).get("host")):  # a unix socket directory
        return f"{parts.scheme}://{port}{parts.path}?host={','.join(sockets)}"
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _raw_password(url: str) -> str | None:
    """The password as written in the URL (percent-encoded as given); None when there is none."""
    try:
        netloc = urlsplit(url).netloc
    except ValueError:
        return None
    userinfo, at, _ = netloc.rpartition("@")
    _, colon, password = userinfo.partition(":")
    return password if at and colon and password else None


def _with_password(url: str, password: str) -> str:
    """`url` with its password replaced by `password` (as written, not encoded again)."""
    parts = urlsplit(url)
    userinfo, _, hosts = parts.netloc.rpartition("@")
    name = userinfo.partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{name}:{password}@{hosts}"))


def mask_password(url: str) -> str:
    """`url` with a non-empty password replaced by PASSWORD_MASK (the reconfigure form)."""
    return _with_password(url, PASSWORD_MASK) if _raw_password(url) else url


def restore_password(url: str, previous: str | None) -> str:
    """A submitted URL whose password is PASSWORD_MASK gets `previous`'s password back."""
    if previous and _raw_password(url) == PASSWORD_MASK and (old := _raw_password(previous)):
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


# engine/store/postgres.py ServerProblem.reason -> the form's field for its error (others: base)
SERVER_PROBLEM_FIELDS = {"invalid_url": CONF_DB_URL, "invalid_auth": CONF_DB_URL}


def _check_server(db_url: str, household: str) -> tuple[str | None, str | None]:
    """check_server (blocking, in the executor): (None, the household's claimed anchor-key check
    or None) when usable, else (the reason, None)."""
    from .engine.store.postgres.check import ServerProblem, check_server  # noqa: PLC0415 - psycopg on demand

    try:
        return None, check_server(db_url, household)
    except ServerProblem as err:
        return err.reason, None


def _anchor_key_problem(key: str, claimed: str | None) -> str | None:
    """anchor_key_invalid for a key that is not ANCHOR_KEY_BYTES in hex, anchor_key_mismatch when
    the household was claimed with another key (forgetting.anchor_check), else None."""
    from .engine.forgetting import anchor_check  # noqa: PLC0415 - the engine loads on demand

    raw = anchor_key({CONF_ANCHOR_KEY: key})
    if raw is None or len(raw) != ANCHOR_KEY_BYTES:
        return "anchor_key_invalid"
    return "anchor_key_mismatch" if claimed is not None and claimed != anchor_check(raw) else None


async def async_validate_postgres(
    hass: HomeAssistant, user_input: dict[str, Any], previous_url: str | None, anchor_key: str
) -> tuple[StoreSettings, dict[str, str], str]:
    """The PostgreSQL settings of a submitted form, its errors ({} when the server is usable)
    and the anchor key the entry is to keep: the form's `anchor_key` field when filled (another
    installation's key, to share its household), else `anchor_key` (this entry's, or a new one;
    hex). A household already claimed with another key is refused (anchor_key_mismatch): its
    forgotten identifiers could not be recognised here (docs/postgresql.md).

    A masked password is replaced by `previous_url`'s (storage.restore_password). The URL is
    never logged whole: only redact_url's form."""
    url = restore_password(str(user_input.get(CONF_DB_URL) or "").strip(), previous_url)
    household = str(user_input.get(CONF_HOUSEHOLD) or "").strip()
    key = str(user_input.get(CONF_ANCHOR_KEY) or "").strip().lower() or anchor_key
    settings = StoreSettings(STORAGE_POSTGRESQL, db_url=url, household=household)
    if not household:
        return settings, {CONF_HOUSEHOLD: "household_empty"}, key
    if not url.startswith(("postgresql://", "postgres://")):
        return settings, {CONF_DB_URL: "invalid_url"}, key
    if _anchor_key_problem(key, None) is not None:
        return settings, {CONF_ANCHOR_KEY: "anchor_key_invalid"}, key
    try:
        reason, claimed = await hass.async_add_executor_job(_check_server, url, household)
    except Exception as err:
        _LOGGER.warning("Checking PostgreSQL at %s failed: %s", redact_url(url), type(err).__name__)
        reason, claimed = "cannot_connect", None
    if reason is None:
        problem = _anchor_key_problem(key, claimed)
        return settings, ({CONF_ANCHOR_KEY: problem} if problem else {}), key
    _LOGGER.debug("PostgreSQL at %s is not usable: %s", redact_url(url), reason)
    return settings, {SERVER_PROBLEM_FIELDS.get(reason, "base"): reason}, key
