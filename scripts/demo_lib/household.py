"""Provision a fresh hass like a household would: owner, Julian, Anna, a guest, two rooms,
a satellite in each, the memory integration (through its config flow) and Assist pipelines."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from .client import HAClient, HAError

PASSWORD = "demo-password"  # local demo only; the config dir is thrown away
LANGUAGES = ("de", "it", "en", "fr")  # one pipeline per language the cases speak
AREAS = {"kitchen": "Kitchen", "hall": "Hall"}
# memory_dev device identifier -> area key (dev/custom_components/memory_dev/const.py)
SATELLITE_AREAS = {"kitchen_satellite": "kitchen", "hall_satellite": "hall"}
# Answers for the memory config flow, by field name (custom_components/memory/const.py);
# any other field takes its default from the form.
MEMORY_FLOW_ANSWERS = {"storage": "sqlite", "encoder": "bundled"}
FALLBACK_AGENT = "conversation.home_assistant"  # HA's default agent, if the memory agent is missing
WAIT_SECONDS = 90  # for entries, devices and entities to appear after setup
LLM_DOMAIN = "memory_local_llm"  # dev/custom_components/memory_local_llm (never shipped)
# The option's minimum (custom_components/memory/const.py IDLE_MINUTES_RANGE): the idle check runs
# every minute, so a conversation ends 1-2 minutes after its last turn.
LEARN_IDLE_MINUTES = 1
VOICE_LANGUAGE = "en"  # the spoken pipeline's language and Whisper's (the voice part speaks English)
SATELLITE = "satellite"  # household.clients key of the voice satellite's own user (no person)
LLM_PIPELINE = "llm"  # household.pipelines key of the pipeline the local LLM answers (set_up_llm_agent)
LLM_API = "memory"  # the memory integration's LLM API id (custom_components/memory/const.py LLM_API_ID)


@dataclass
class Household:
    """Everything the cases need, by name."""

    base_url: str
    owner: HAClient
    # "julian", "anna", "guest"; SATELLITE once the voice part is set up
    clients: dict[str, HAClient] = field(default_factory=dict)
    devices: dict[str, str] = field(default_factory=dict)  # area key -> device_id
    pipelines: dict[str, str] = field(default_factory=dict)  # language (or LLM_PIPELINE) -> pipeline id
    voice_pipeline: str | None = None  # set_up_voice: heard by the memory STT entity
    agent_id: str = FALLBACK_AGENT
    memory_entry: dict[str, Any] | None = None
    llm_entry: dict[str, Any] | None = None  # set_up_learning: the local LLM's config entry
    setup_problems: list[str] = field(default_factory=list)

    async def close(self) -> None:
        for client in (self.owner, *self.clients.values()):
            await client.close()


def _client_id(base_url: str) -> str:
    return base_url + "/"


async def _token_from_code(session: aiohttp.ClientSession, base_url: str, code: str) -> str:
    async with session.post(
        base_url + "/auth/token",
        data={"grant_type": "authorization_code", "code": code, "client_id": _client_id(base_url)},
    ) as resp:
        body = await resp.json()
        if resp.status != 200:
            raise HAError(f"/auth/token -> {resp.status}: {body}")
        return body["access_token"]


async def login(session: aiohttp.ClientSession, base_url: str, username: str) -> str:
    """The normal login flow (what the frontend's login page does) -> access token."""
    cid = _client_id(base_url)
    async with session.post(
        base_url + "/auth/login_flow",
        json={"client_id": cid, "handler": ["homeassistant", None], "redirect_uri": cid},
    ) as resp:
        flow = await resp.json()
    async with session.post(
        f"{base_url}/auth/login_flow/{flow['flow_id']}",
        json={"client_id": cid, "username": username, "password": PASSWORD},
    ) as resp:
        result = await resp.json()
    if result.get("type") != "create_entry":
        raise HAError(f"login of {username} failed: {result}")
    return await _token_from_code(session, base_url, result["result"])


async def onboard(session: aiohttp.ClientSession, base_url: str) -> HAClient:
    """Create the owner (admin) and finish every onboarding step; returns the owner's client."""
    cid = _client_id(base_url)
    async with session.post(
        base_url + "/api/onboarding/users",
        json={"name": "Owner", "username": "owner", "password": PASSWORD, "client_id": cid, "language": "en"},
    ) as resp:
        body = await resp.json()
        if resp.status != 200:
            raise HAError(f"onboarding user -> {resp.status}: {body}")
    owner = HAClient(session, base_url, await _token_from_code(session, base_url, body["auth_code"]), "owner")
    await owner.rest("POST", "/api/onboarding/core_config")
    await owner.rest("POST", "/api/onboarding/analytics")
    await owner.rest("POST", "/api/onboarding/integration", {"client_id": cid, "redirect_uri": cid})
    await owner.connect()
    await _wait_running(owner)
    return owner


async def _wait_running(owner: HAClient) -> None:
    for _ in range(WAIT_SECONDS * 2):
        if (await owner.rest("GET", "/api/config")).get("state") == "RUNNING":
            return
        await asyncio.sleep(0.5)
    raise HAError("hass never reached state RUNNING")


async def add_user(session: aiohttp.ClientSession, household: Household, key: str, name: str) -> str:
    """A user with a password login; returns the user id and keeps a connected client."""
    owner = household.owner
    user = (await owner.ws("config/auth/create", name=name, group_ids=["system-users"], local_only=False))[
        "user"
    ]
    await owner.ws(
        "config/auth_provider/homeassistant/create", user_id=user["id"], username=key, password=PASSWORD
    )
    client = HAClient(session, household.base_url, await login(session, household.base_url, key), name)
    await client.connect()
    household.clients[key] = client
    return user["id"]


async def _wait_for(what: str, probe: Any) -> Any:
    for _ in range(WAIT_SECONDS * 2):
        if found := await probe():
            return found
        await asyncio.sleep(0.5)
    raise HAError(f"timed out waiting for {what}")


async def place_satellites(household: Household) -> None:
    """Create the two areas and put memory_dev's satellite devices into them."""
    owner = household.owner
    # Onboarding already created some default areas (a kitchen among them): reuse by name.
    existing = {a["name"].casefold(): a["area_id"] for a in await owner.ws("config/area_registry/list")}
    area_ids = {}
    for key, name in AREAS.items():
        area_ids[key] = (
            existing.get(name.casefold())
            or (await owner.ws("config/area_registry/create", name=name))["area_id"]
        )

    async def satellites() -> dict[str, str]:
        found = {}
        for device in await owner.ws("config/device_registry/list"):
            for domain, ident in device.get("identifiers", []):
                if domain == "memory_dev" and ident in SATELLITE_AREAS:
                    found[SATELLITE_AREAS[ident]] = device["id"]
        return found if len(found) == len(SATELLITE_AREAS) else {}

    household.devices = await _wait_for("memory_dev's satellite devices", satellites)
    for key, device_id in household.devices.items():
        await owner.ws("config/device_registry/update", device_id=device_id, area_id=area_ids[key])


def _answer_form(step: dict[str, Any], answers: dict[str, Any]) -> dict[str, Any]:
    """Fill a config-flow form: our answer if we have one, else the form's default. A section
    (an "expandable" item, e.g. the memory options' voice section) is filled the same way from
    answers[section] (a dict), so a section we do not answer keeps its current values."""
    return _answer_fields(step.get("data_schema") or [], answers, str(step.get("step_id")))


def _answer_fields(schema: list[dict[str, Any]], answers: dict[str, Any], step_id: str) -> dict[str, Any]:
    """The values of one form (or section); a field whose `visible` condition (Home Assistant
    2026.11) does not hold is left out, as the frontend leaves it out."""
    user_input: dict[str, Any] = {}
    for item in schema:
        name = item["name"]
        if item.get("type") == "expandable":
            user_input[name] = _answer_fields(item.get("schema") or [], answers.get(name) or {}, step_id)
        elif name in answers:
            user_input[name] = answers[name]
        elif "default" in item:
            user_input[name] = item["default"]
    hidden = _hidden_fields(
        {item["name"]: item["visible"] for item in schema if "visible" in item}, user_input
    )
    for item in schema:
        name = item["name"]
        if name in hidden:
            user_input.pop(name, None)
        elif name not in user_input and item.get("required"):
            raise HAError(f"config flow step {step_id!r} needs {name!r}, the demo has no answer")
    return user_input


def _hidden_fields(visible: dict[str, Any], values: dict[str, Any]) -> set[str]:
    """The fields whose `visible` condition fails (a bool, a condition or a list of them, all to
    hold: field + eq/not_eq/in/not_in/exists/not_exists, eq by default), until none changes: a
    hidden field reads as absent to the others (homeassistant.helpers.field_visibility)."""
    values = dict(values)

    def holds(condition: dict[str, Any]) -> bool:
        actual, value = values.get(condition["field"]), condition.get("value")
        return {
            "eq": lambda: actual == value,
            "not_eq": lambda: actual != value,
            "in": lambda: actual in value,
            "not_in": lambda: actual not in value,
            "exists": lambda: actual not in (None, ""),
            "not_exists": lambda: actual in (None, ""),
        }[condition.get("operator", "eq")]()

    hidden: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, condition in visible.items():
            shown = (
                condition
                if isinstance(condition, bool)
                else all(holds(c) for c in (condition if isinstance(condition, list) else [condition]))
            )
            if name not in hidden and not shown:
                hidden.add(name)
                values.pop(name, None)
                changed = True
    return hidden


async def run_config_flow(
    owner: HAClient, handler: str, answers: dict[str, Any], *, flows: str = "flow"
) -> dict[str, Any]:
    """Drive a config flow through the REST API, like the frontend's "Add integration" dialog
    (flows="options/flow" with handler=<entry id>: the entry's *Configure* dialog).

    Returns the flow's result (dict); raises HAError on abort, form errors or too many steps.
    """
    base = f"/api/config/config_entries/{flows}"
    step = await owner.rest("POST", base, {"handler": handler})
    for _ in range(10):
        kind = step.get("type")
        if kind == "create_entry":
            return step.get("result") or {}
        if kind == "abort":
            raise HAError(f"{handler} config flow aborted: {step.get('reason')}")
        if step.get("errors"):
            raise HAError(f"{handler} config flow step {step.get('step_id')!r} errors: {step['errors']}")
        if kind == "menu":
            options = list(step.get("menu_options") or [])
            chosen = next((o for o in options if o in answers.values()), options[0])
            user_input: dict[str, Any] = {"next_step_id": chosen}
        elif kind == "form":
            user_input = _answer_form(step, answers)
        else:
            raise HAError(f"{handler} config flow: unexpected step {step}")
        step = await owner.rest("POST", f"{base}/{step['flow_id']}", user_input)
    raise HAError(f"{handler} config flow did not finish in 10 steps")


async def set_up_memory(household: Household, answers: dict[str, Any] | None = None) -> None:
    """Add the memory integration through its config flow (`answers`, default
    MEMORY_FLOW_ANSWERS) and find its conversation agent."""
    owner = household.owner
    household.memory_entry = await run_config_flow(owner, "memory", answers or MEMORY_FLOW_ANSWERS)

    async def agent() -> str | None:
        for entry in await owner.ws("config/entity_registry/list"):
            if entry.get("platform") == "memory" and entry["entity_id"].startswith("conversation."):
                return entry["entity_id"]
        return None

    household.agent_id = await _wait_for("the Memory assistant conversation entity", agent)


async def set_up_learning(household: Household, model_path: str, threads: int) -> str:
    """The development LLM (memory_local_llm, linked into the demo's custom_components) through
    its config flow, then the memory options (its *Configure* dialog): learning on, the local AI
    Task entity for extraction, review off, LEARN_IDLE_MINUTES idle. Returns the AI Task entity id.
    """
    owner = household.owner
    household.llm_entry = await run_config_flow(
        owner, LLM_DOMAIN, {"model_path": model_path, "threads": threads}
    )

    async def ai_task() -> str | None:
        for entry in await owner.ws("config/entity_registry/list"):
            if entry.get("platform") == LLM_DOMAIN and entry["entity_id"].startswith("ai_task."):
                return entry["entity_id"]
        return None

    entity_id = await _wait_for("the local LLM's AI Task entity", ai_task)
    answers = {
        "learning": True,
        "extraction_entity": entity_id,
        "review_extracted": False,
        "idle_minutes": LEARN_IDLE_MINUTES,
    }
    await set_memory_options(household, answers)
    return entity_id


async def set_up_llm_agent(session: aiohttp.ClientSession, household: Household) -> str:
    """C38's set-up, as a household would click it: the local LLM's *Configure* dialog (its
    options flow over REST) ticks the Memory LLM API (LLM_API) for its conversation agent, and a
    text-only Assist pipeline in English is answered by that agent (household.pipelines
    [LLM_PIPELINE]). The kitchen satellite's own user (SATELLITE, linked to no person) is added
    unless the voice part did. Returns the conversation entity id; raises HAError when a step
    fails."""
    owner = household.owner
    if household.llm_entry is None:
        raise HAError("no local LLM config entry")

    async def agent() -> str | None:
        for entry in await owner.ws("config/entity_registry/list"):
            if entry.get("platform") == LLM_DOMAIN and entry["entity_id"].startswith("conversation."):
                return str(entry["entity_id"])
        return None

    entity_id: str = await _wait_for("the local LLM's conversation entity", agent)
    entry_id = household.llm_entry["entry_id"]
    await run_config_flow(owner, entry_id, {"llm_hass_api": [LLM_API]}, flows="options/flow")
    household.pipelines[LLM_PIPELINE] = await create_pipeline(
        household, "Memory demo, local LLM with the Memory API (en)", "en", agent=entity_id
    )
    if SATELLITE not in household.clients:
        await add_user(session, household, SATELLITE, "Kitchen satellite")
    return entity_id


async def set_memory_options(household: Household, answers: dict[str, Any]) -> None:
    """Save the memory options through its *Configure* dialog (the options flow over REST) with
    `answers` (every other field keeps its form default) and wait for the entry to reload."""
    owner = household.owner
    if household.memory_entry is None:
        raise HAError("no memory config entry")
    entry_id = household.memory_entry["entry_id"]
    await run_config_flow(owner, entry_id, answers, flows="options/flow")

    async def reloaded() -> bool:  # saving the options reloads the entry
        entries = await owner.ws("config_entries/get", domain="memory")
        return any(e["entry_id"] == entry_id and e["state"] == "loaded" for e in entries)

    await asyncio.sleep(2)  # the reload is scheduled after the flow answers; let it begin
    await _wait_for("the memory entry to reload with the new options", reloaded)


async def set_up_voice(session: aiohttp.ClientSession, household: Household, whisper_model: str) -> str:
    """The voice part's set-up, as a household would click it:

    - the memory options' voice section: recognise speakers by voice, the memory STT entity with
      faster-whisper in process, `whisper_model` (a model folder), English;
    - an Assist pipeline (household.voice_pipeline) that hears with the memory STT entity and
      answers with the memory agent;
    - the satellite's own user (household.clients[SATELLITE]), linked to no person: a satellite
      carries no user, so who speaks can only come from the voice (a signed-in person would
      stand in whenever the voice matches nobody, speaker.resolve_identity).

    Returns the STT entity id; raises HAError when a step fails.
    """
    owner = household.owner
    await set_memory_options(
        household,
        {
            "voice": {
                "voice_recognition": True,
                "stt_engine": "whisper",
                "whisper_model": whisper_model,
                "whisper_language": VOICE_LANGUAGE,
            }
        },
    )

    async def stt_entity() -> str | None:
        for entry in await owner.ws("config/entity_registry/list"):
            if entry.get("platform") == "memory" and entry["entity_id"].startswith("stt."):
                return str(entry["entity_id"])
        return None

    entity_id: str = await _wait_for("the memory speech-to-text entity", stt_entity)
    household.voice_pipeline = await create_pipeline(
        household, f"Memory demo, spoken ({VOICE_LANGUAGE})", VOICE_LANGUAGE, stt_engine=entity_id
    )
    await add_user(session, household, SATELLITE, "Kitchen satellite")
    return entity_id


async def create_pipeline(
    household: Household, name: str, lang: str, *, stt_engine: str | None = None, agent: str | None = None
) -> str:
    """An Assist pipeline in `lang` answered by `agent` (default household.agent_id), from
    `stt_engine` (None: text only); returns its id."""
    pipeline = await household.owner.ws(
        "assist_pipeline/pipeline/create",
        name=name,
        language=lang,
        conversation_engine=agent or household.agent_id,
        conversation_language=lang,
        stt_engine=stt_engine,
        stt_language=lang if stt_engine else None,
        tts_engine=None,
        tts_language=None,
        tts_voice=None,
        wake_word_entity=None,
        wake_word_id=None,
    )
    return str(pipeline["id"])


async def create_pipelines(household: Household) -> None:
    """One text-only Assist pipeline per language, answered by household.agent_id."""
    for lang in LANGUAGES:
        household.pipelines[lang] = await create_pipeline(household, f"Memory demo ({lang})", lang)


async def provision(
    session: aiohttp.ClientSession, base_url: str, say: Any, memory_answers: dict[str, Any] | None = None
) -> Household:
    """Run every set-up step, printing each via say(); `memory_answers`: the memory config flow's
    answers (default MEMORY_FLOW_ANSWERS). A missing or broken memory integration
    is recorded in setup_problems (the cases then run against HA's default agent and fail
    visibly) instead of stopping the demo."""
    say("onboarding the owner")
    household = Household(base_url=base_url, owner=await onboard(session, base_url))
    for key, name in (("julian", "Julian"), ("anna", "Anna")):
        user_id = await add_user(session, household, key, name)
        await household.owner.ws("person/create", name=name, user_id=user_id)
        say(f"user and person {name}")
    await add_user(session, household, "guest", "Guest")
    say("user Guest (linked to no person: an unknown speaker)")
    await place_satellites(household)
    say(
        "areas Kitchen and Hall, a memory_dev satellite in each (device ids): "
        + ", ".join(f"{k}={v}" for k, v in household.devices.items())
    )
    try:
        await set_up_memory(household, memory_answers)
        say(f"memory integration set up through its config flow; agent {household.agent_id}")
    except HAError as err:
        household.setup_problems.append(f"memory integration: {err}")
        say(f"PROBLEM: memory integration could not be set up ({err}); using {FALLBACK_AGENT}")
    await create_pipelines(household)
    say("Assist pipelines: " + ", ".join(f"{k}={v}" for k, v in household.pipelines.items()))
    return household
