"""Issue 26 through Home Assistant: hostile input at every door — each memory.* service (through
hass.services.async_call), each memory/... WebSocket command (through HA's WebSocket client) and
each tool of the Memory LLM API (llm.async_get_api + async_call_tool).

For every generated input the outcome is a clear validation error naming a field — probatio.Invalid with
its path, a ServiceValidationError translated from strings.json with the field as placeholder, a
WebSocket error (invalid_format naming the key, or a translated invalid_input / not_found), an LLM
tool's {"success": false, "error": <reason>} — or the text stored verbatim (read back); never
another exception nor an ERROR in the log, and no half-written row (the rows are counted).

Hypothesis drives a synchronous body in an executor thread; each call is scheduled on HA's loop
(which stays free while the test awaits the executor job).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import probatio
import pytest
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers import llm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pytest_homeassistant_custom_component.typing import MockHAClientWebSocket, WebSocketGenerator

from custom_components.memory.const import DOMAIN, LLM_API_ID
from custom_components.memory.conversation import chat_session
from custom_components.memory.engine import inputs
from custom_components.memory.engine.api import MAX_CONTENT_CHARS, InvalidInput
from custom_components.memory.engine.models import Speaker
from custom_components.memory.engine.store.base import MemoryFilter
from custom_components.memory.engine.text import strip_invisible
from custom_components.memory.validation import BOUNDED_KEYS, REASON_KEYS, map_invalid
from tests.conftest import Resident, async_call, both_stores
from tests.hostile import anything, huge_int, long_text, non_finite, unstorable_text, words

FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
STRINGS = Path(__file__).resolve().parents[2] / "custom_components" / "memory" / "strings.json"
TRANSLATIONS = STRINGS.parent / "translations"
EXCEPTIONS = json.loads(STRINGS.read_text(encoding="utf-8"))["exceptions"]
# translated errors that are about no field of the call
FIELDLESS = {"not_loaded", "voice_recognition_off", "store_unreachable"}
ADMIN = Speaker.administrator()
WS_LOGGER = "homeassistant.components.websocket_api"
# HA's WebSocket takes messages of at most 4 MB (an emoji is 12 bytes of JSON): long texts of 3,000
# characters, past every limit, leave room for many
WS_BIG = 3_000

numbers = st.one_of(st.integers(-5, 500), st.floats(), huge_int, non_finite, st.text(max_size=6))
moments = st.one_of(
    st.sampled_from(["0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00", "2026-02-30", "yesterday"]),
    st.datetimes().map(lambda d: d.isoformat()),
    anything,
)
texts = st.one_of(words(40), long_text(MAX_CONTENT_CHARS), unstorable_text, anything)
id_lists = st.one_of(anything, st.lists(texts, max_size=3))

SPEAKER_FIELDS = {"person": texts, "area": texts}
# service -> (a valid call, hostile values per field)
SERVICES: dict[str, tuple[dict[str, Any], dict[str, st.SearchStrategy[Any]]]] = {
    "remember": ({"content": "The spare key is in the blue tin."}, {
        "content": texts, "kind": texts, "scope": texts, "language": texts, "observed": anything,
        "replaces": id_lists, **SPEAKER_FIELDS}),
    "recall": ({"query": "spare key"}, {
        "query": texts, "limit": numbers, "as_of": moments, **SPEAKER_FIELDS}),
    "find_to_forget": ({"query": "spare key"}, {"query": texts, "limit": numbers, **SPEAKER_FIELDS}),
    "forget": ({"memory_id": "0" * 32}, {"memory_id": texts, **SPEAKER_FIELDS}),
    "approve": ({"memory_id": "0" * 32}, {"memory_id": texts, **SPEAKER_FIELDS}),
    "reject": ({"memory_id": "0" * 32}, {"memory_id": texts, **SPEAKER_FIELDS}),
    "history": ({"memory_id": "0" * 32}, {"memory_id": texts, **SPEAKER_FIELDS}),
    "forget_person": ({"person": "person.nobody"}, {"person": texts}),
    "list_pending": ({}, {"limit": numbers, **SPEAKER_FIELDS}),
    "enroll_voice": ({"person": "person.nobody"}, {
        "person": texts, "clips": id_lists, "satellite": texts, "utterances": numbers}),
    "forget_voice": ({"person": "person.nobody"}, {"person": texts}),
    "voice_status": ({}, {"extra": anything}),
    "consolidate": ({"dry_run": True}, {"dry_run": anything}),
    # never a valid target: a move would really happen (its checks: tests/ha/test_storage_settings.py)
    "move_store": ({"storage": "floppy"}, {
        "storage": anything.filter(lambda v: v not in ("sqlite", "postgresql")), "household": anything}),
}  # fmt: skip


def _run[T](hass: HomeAssistant, coro: Coroutine[Any, Any, T]) -> T:
    """Run `coro` on HA's loop from the hypothesis thread."""
    return asyncio.run_coroutine_threadsafe(coro, hass.loop).result(120)


def _rows(engine: Any) -> int:
    return int(engine.stats().memories)


# what each stored field may hold (docs/services.md#limits)
STORED_LIMITS = {
    "content": MAX_CONTENT_CHARS, "value": inputs.MAX_VALUE_CHARS, "subject": inputs.MAX_KEY_CHARS,
    "predicate": inputs.MAX_KEY_CHARS, "language": inputs.MAX_LANGUAGE_CHARS,
    **dict.fromkeys(("source_ref", "owner_id", "area_id", "speaker_id"), inputs.MAX_ID_CHARS),
}  # fmt: skip


def _assert_clean(engine: Any, caplog: pytest.LogCaptureFixture) -> None:
    """After a call: no ERROR in the log, and the store within its limits."""
    assert not _errors(caplog), _errors(caplog)
    _assert_within_limits(engine)


def _assert_within_limits(engine: Any) -> None:
    """Every stored memory (any status) holds text within its field's limit, none with NUL."""
    memories, _ = engine.find(ADMIN, MemoryFilter(status=None), limit=10_000)
    for memory in memories:
        for name, limit in STORED_LIMITS.items():
            value = getattr(memory, name)
            assert value is None or (len(value) <= limit and "\x00" not in value), (name, len(value or ""))


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The ERROR records of the call, but HA's own line for a WebSocket schema error (its
    connection logs every probatio.Invalid it answers with invalid_format, without a traceback)."""
    return [
        f"{r.name}: {r.getMessage()[:300]}"
        for r in caplog.records
        if r.levelno >= logging.ERROR
        and not (r.name.startswith(WS_LOGGER) and r.exc_info is None and "(invalid_format)" in r.getMessage())
    ]


def _drawn(
    data: st.DataObject, base: dict[str, Any], fields: dict[str, st.SearchStrategy[Any]]
) -> dict[str, Any]:
    """The valid call with one or two of its fields hostile (or added)."""
    hostile = data.draw(st.sets(st.sampled_from(sorted(fields)), min_size=1, max_size=2), label="hostile")
    return {**base, **{name: data.draw(fields[name], label=name) for name in sorted(hostile)}}


def _assert_names_a_field(err: probatio.Invalid, keys: set[str]) -> None:
    """A probatio error points at the key it is about (HA tells the caller
    `… @ data['key']`)."""
    errors = err.errors if isinstance(err, probatio.MultipleInvalid) else [err]
    assert all(e.path and str(e.path[0]) in keys for e in errors), (err, keys)


def _assert_stored(engine: Any, memory_id: str, said: str, action: str = "created") -> None:
    """The memory is stored, with the text as said (only invisible edges trimmed) unless it was a
    restatement, which confirms what was said before."""
    stored = engine.get(memory_id, ADMIN)
    assert stored is not None
    if action != "confirmed":
        assert stored.content == strip_invisible(said), (stored.content[:80], said[:80])


def _assert_translated(err: ServiceValidationError, keys: set[str]) -> None:
    """A translated error of ours naming one of the call's fields (or the speaker's)."""
    assert err.translation_domain == DOMAIN, err
    assert err.translation_key in EXCEPTIONS, err.translation_key
    if err.translation_key not in FIELDLESS:
        field = (err.translation_placeholders or {}).get("field")
        assert field in keys | {"person", "area"}, (err.translation_key, field, keys)


@FUZZ
@given(data=st.data())
def _service_property(
    hass: HomeAssistant, engine: Any, caplog: pytest.LogCaptureFixture, data: st.DataObject
) -> None:
    service = data.draw(st.sampled_from(sorted(SERVICES)), label="service")
    base, fields = SERVICES[service]
    call = _drawn(data, base, fields)
    before = _rows(engine)
    caplog.clear()
    try:
        response = _run(hass, async_call(hass, service, call))
    except probatio.Invalid as err:
        _assert_names_a_field(err, set(fields) | set(base))
        assert _rows(engine) == before
    except ServiceValidationError as err:
        _assert_translated(err, set(fields) | set(base))
        assert _rows(engine) == before
    else:
        if service == "remember":
            _assert_stored(engine, response["memory"]["id"], cv.string(call["content"]), response["action"])
            assert _rows(engine) in (before, before + 1)
        elif service != "consolidate":
            assert _rows(engine) == before
    _assert_clean(engine, caplog)


@both_stores  # the doors over both stores (PostgreSQL's text refuses NUL, SQLite's takes it)
async def test_every_service_names_the_field_or_stores_verbatim(
    household: HomeAssistant, memory_entry: Any, engine: Any, caplog: pytest.LogCaptureFixture
) -> None:
    await async_call(household, "remember", {"content": "The spare key is in the blue tin."})
    await household.async_add_executor_job(_service_property, household, engine, caplog)


# ------------------------------------------------------------------ the WebSocket commands
# JSON carries no bytes, NaN or lone surrogates, and HA's parser takes integers of 64 bits at most:
# what a client can send at all.
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(allow_nan=False,
              allow_infinity=False), words(20), long_text(MAX_CONTENT_CHARS, WS_BIG), st.just("a\x00b")),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(words(8), inner, max_size=3)),
    max_leaves=6,
)  # fmt: skip
ws_texts = st.one_of(words(40), long_text(inputs.MAX_ID_CHARS, WS_BIG), json_values)
# An exported memory that imports unless one field is hostile: a fact told shared, with one or two
# of the other fields drawn from anything a client can send.
memory_items = st.builds(
    lambda told, hostile: {**told, **hostile},
    st.fixed_dictionaries({"content": st.sampled_from(["Leo likes green.", "The gate code is 4711."]),
                           "scope": st.just("shared"), "language": st.just("en")}),
    st.dictionaries(st.sampled_from(["content", "scope", "kind", "language", "provenance", "owner_id",
                                     "area_id", "subject", "predicate", "value", "source", "source_ref",
                                     "importance", "said_by"]), ws_texts, max_size=2),
)  # fmt: skip
exports = st.one_of(
    json_values,
    st.fixed_dictionaries({"format": st.just("household-memory/export"), "version": st.just(1),
                           "memories": st.lists(st.one_of(memory_items, json_values), min_size=1,
                                                max_size=3)}),
)  # fmt: skip
PAGE = {"limit": json_values, "offset": json_values}
# command -> (a valid message, hostile values per field)
COMMANDS: dict[str, tuple[dict[str, Any], dict[str, st.SearchStrategy[Any]]]] = {
    "overview": ({}, {"extra": json_values}),
    "list": ({}, {
        **{name: ws_texts for name in ("kind", "scope", "person", "area", "provenance", "status", "language",
                                       "said_by")}, **PAGE}),
    "search": ({"query": "spare key"}, {"query": ws_texts, "person": ws_texts, "area": ws_texts,
                                        "language": ws_texts, "limit": json_values}),
    "get": ({"memory_id": "x"}, {"memory_id": ws_texts}),
    "update": ({}, {name: ws_texts for name in ("content", "scope", "owner", "area", "kind")}),
    "pending": ({}, {"extra": json_values}),
    "approve": ({"memory_id": "x"}, {"memory_id": ws_texts}),
    "reject": ({"memory_id": "x"}, {"memory_id": ws_texts}),
    "forget": ({"memory_id": "x"}, {"memory_id": ws_texts}),
    "forget_person": ({"person": "person.nobody"}, {"person": ws_texts}),
    "tombstones": ({}, PAGE),
    "lift_tombstone": ({"tombstone_id": "x"}, {"tombstone_id": ws_texts}),
    "consolidate": ({"dry_run": True}, {"dry_run": json_values}),
    "export": ({}, {"extra": json_values}),
    "import": ({"data": {}}, {"data": exports}),
    "settings": ({}, {"extra": json_values}),
    "settings/update": ({}, {
        name: json_values for name in ("learning", "learning_opt_out_areas", "review", "cloud_personal",
                                       "transcript_retention_days")}),
}  # fmt: skip


async def _ws(client: MockHAClientWebSocket, command: str, message: dict[str, Any]) -> dict[str, Any]:
    await client.send_json_auto_id({"type": f"memory/{command}", **message})
    response: dict[str, Any] = await client.receive_json()
    return response


@FUZZ
@given(data=st.data())
def _command_property(
    hass: HomeAssistant,
    engine: Any,
    caplog: pytest.LogCaptureFixture,
    ws: tuple[Any, str, list[str]],
    data: st.DataObject,
) -> None:
    client, memory_id, commands = ws
    command = data.draw(st.sampled_from(commands), label="command")
    base, fields = COMMANDS[command]
    message = _drawn(data, {"memory_id": memory_id, **base} if command == "update" else base, fields)
    before = _rows(engine)
    caplog.clear()
    response = _run(hass, _ws(client, command, message))
    if not response["success"]:
        error = response["error"]
        assert error["code"] in {"invalid_format", "invalid_input", "not_found"}, error
        if error["code"] == "invalid_format":
            # HA's schema check names the key: "… @ data['<key>']", "… at '<key>[0]'", "extra keys … '<key>'"
            named = (re.search(rf"'{re.escape(key)}(\[\d+\])*'", error["message"]) for key in message)
            assert any(named), error
        else:
            assert error["translation_key"] in EXCEPTIONS and error["message"], error
            assert "field" in (error.get("translation_placeholders") or {}), error
        assert _rows(engine) == before
    elif command == "update" and "content" in message:
        _assert_stored(engine, memory_id, message["content"])
        assert response["result"]["memory"]["content"] == strip_invisible(message["content"])
    elif command == "import":
        created = response["result"]["created"]
        assert _rows(engine) == before + created
    elif command != "consolidate":
        assert _rows(engine) == before
    _assert_clean(engine, caplog)


@both_stores  # the doors over both stores (PostgreSQL's text refuses NUL, SQLite's takes it)
# every command; and the two that write text (an import, an edit), which a draw over all seldom builds
@pytest.mark.parametrize("commands", [sorted(COMMANDS), ["import", "update"]], ids=["every", "writing"])
async def test_every_websocket_command_names_the_field_or_stores_verbatim(
    household: HomeAssistant,
    memory_entry: Any,
    engine: Any,
    hass_ws_client: WebSocketGenerator,
    caplog: pytest.LogCaptureFixture,
    *,
    commands: list[str],
) -> None:
    client = await hass_ws_client(household)
    written = await async_call(household, "remember", {"content": "The bins go out on Thursday."})
    await household.async_add_executor_job(
        _command_property, household, engine, caplog, (client, written["memory"]["id"], commands)
    )


# ------------------------------------------------------------------ the Memory LLM API's tools
# tool -> hostile values per argument
TOOLS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "remember": {"content": texts, "scope": texts, "kind": texts, "replaces": id_lists},
    "replace": {"id": texts, "replaces": id_lists, "confirmations": id_lists},
    "recall": {"query": st.one_of(texts, long_text(1_200_000))},
    "find_to_forget": {"query": st.one_of(texts, long_text(1_200_000))},
    "forget": {"memory_id": texts, "confirmation": texts},
}
# the reasons a tool may answer: the engine's (inputs.py, the writer's) and the tools' own
TOOL_ERRORS = {*REASON_KEYS, *BOUNDED_KEYS, "unknown_speaker", "scope_needs_area", "not_confirmed"}


@FUZZ
@given(data=st.data())
def _tool_property(
    hass: HomeAssistant, engine: Any, instance: llm.APIInstance, caplog: pytest.LogCaptureFixture,
    data: st.DataObject,
) -> None:  # fmt: skip
    tool = data.draw(st.sampled_from(sorted(TOOLS)), label="tool")
    fields = TOOLS[tool]
    args = {name: data.draw(value, label=name) for name, value in fields.items()}
    args = {name: args[name] for name in data.draw(st.sets(st.sampled_from(sorted(args))), label="given")}
    before = _rows(engine)
    caplog.clear()
    try:
        result = _run(hass, instance.async_call_tool(llm.ToolInput(tool_name=tool, tool_args=args)))
    except probatio.Invalid as err:  # the tool's parameters: the chat log hands it back to the model
        _assert_names_a_field(err, set(fields))
        assert _rows(engine) == before
    else:
        assert isinstance(result, llm.ToolResult) and result.error is not result.data["success"], result
        result = result.data
        if not result["success"]:
            assert result["error"] in TOOL_ERRORS, result
            assert _rows(engine) == before
        elif tool == "remember":
            _assert_stored(engine, result["id"], args["content"], result["action"])
        elif tool != "replace":
            assert _rows(engine) == before
    _assert_clean(engine, caplog)


@both_stores  # the doors over both stores (PostgreSQL's text refuses NUL, SQLite's takes it)
async def test_every_llm_tool_names_the_problem_or_stores_verbatim(
    household: HomeAssistant,
    memory_entry: Any,
    engine: Any,
    julian: Resident,
    caplog: pytest.LogCaptureFixture,
) -> None:
    context = llm.LLMContext(
        platform="test_llm", context=julian.context, language="en", assistant="conversation", device_id=None
    )
    instance = await llm.async_get_api(household, LLM_API_ID, context)
    await household.async_add_executor_job(_tool_property, household, engine, instance, caplog)


async def test_a_turn_past_the_transcript_limit_is_not_recorded_and_the_turn_goes_on(
    household: HomeAssistant,
    memory_entry: Any,
    engine: Any,
    julian: Resident,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A paste of 40,000 characters typed to an LLM agent with the Memory API: the turn is longer
    than a transcript turn may be (inputs.MAX_TURN_CHARS), so it is not recorded — said in the log
    as a warning, no traceback — and the prompt is still built from what recall reads of it."""
    pasted = "Where is the spare key? " + "lorem ipsum " * 3_400
    assert len(pasted) > inputs.MAX_TURN_CHARS
    await async_call(household, "remember", {"content": "The spare key is in the blue tin."})
    user_input = conversation.ConversationInput(
        text=pasted, context=julian.context, conversation_id=None, device_id=None, satellite_id=None,
        language="en", agent_id="test_llm",
    )  # fmt: skip
    with (
        chat_session(household, None, user_input.context) as session,
        conversation.async_get_chat_log(household, session, user_input) as chat_log,
    ):
        await chat_log.async_provide_llm_data(user_input.as_llm_context("test_llm"), [LLM_API_ID], None, None)
        assert chat_log.llm_api is not None and chat_log.llm_api.api_prompt
        conversation_id = session.conversation_id
    await memory_entry.runtime_data.transcripts.async_flush()  # turns are written after the answer
    assert await household.async_add_executor_job(engine.conversation, conversation_id) == []
    assert not _errors(caplog), _errors(caplog)
    assert any("not recorded" in r.getMessage() and r.levelno == logging.WARNING for r in caplog.records)


# ------------------------------------------------------------------ every reason has its words
def test_every_reason_the_engine_gives_is_translated_in_every_language() -> None:
    """Each reason engine/inputs.py raises maps (validation.map_invalid) to an exceptions key that
    strings.json and every translations/*.json have, with the placeholders it is given, one of
    them the field."""
    reasons = ["wrong_type", "unknown_value", "invalid_text", "not_finite", "naive_time", "invalid_vector"]
    errors = [InvalidInput("speaker.person_id", r) for r in reasons]
    errors += [InvalidInput("subject", r, limit=200) for r in BOUNDED_KEYS]
    for path in [STRINGS, *sorted(TRANSLATIONS.glob("*.json"))]:
        texts = json.loads(path.read_text(encoding="utf-8"))["exceptions"]
        for err in errors:
            mapped = map_invalid(err)
            placeholders = mapped.translation_placeholders or {}
            assert placeholders["field"] == err.field
            message = texts[mapped.translation_key]["message"]
            assert set(re.findall(r"{(\w+)}", message)) == set(placeholders), (path.name, err.reason)
