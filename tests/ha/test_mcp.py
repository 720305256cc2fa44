"""Household memory over MCP (case C37): HA's real `mcp_server` component, reached over HTTP by the
`mcp` SDK's client with a person's long-lived access token.

What a client sees is decided by the token's user: their person's private memories and the
household's, never another person's; a user with no person is an unknown speaker. Sensitive
memories never reach an MCP client (its model is unknown: cloud.CLIENT_DOMAINS). A destructive
tool needs the confirmation the finding tool gave that same person, as a "yes" by voice must
come from the one who was asked.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import httpx
import pytest
from aiohttp.test_utils import TestClient
from homeassistant.components.mcp_server import const as mcp_const
from homeassistant.components.mcp_server.const import CONF_ALL_LLM_APIS, CONF_REQUIRE_ADMIN
from homeassistant.components.mcp_server.server import META_DEVICE_ID
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.memory.const import CONF_DEVICE_PERSONS, LLM_API_ID
from custom_components.memory.llm_api import TOOL_CLASSES, VERBS
from tests.conftest import Resident, Room, async_access_token, async_call, both_stores

from .helpers_conversation import async_all_memories

pytestmark = both_stores  # who sees what is the store's visibility rule: run on SQLite and PostgreSQL

# How HA refuses a user the endpoint is not for: 401 (Unauthorized) up to 2026.10, 403 from 2026.11.
REFUSED = (HTTPStatus.UNAUTHORIZED, HTTPStatus.FORBIDDEN)
MCP_TIMEOUT = 60  # seconds for one client session: HA's own per-request limit (mcp_server.http.TIMEOUT)

PLUMBER = "The plumber's number is 0151 2345."
GATE = "The garden gate code is 4711."
JULIAN_DENTIST = "My dentist is Dr. Weber."
ANNA_DENTIST = "My dentist is Dr. Brandt."
WINDOW = "The window sticks, lift it before opening."


# HA 2026.11's MCP server option: serve only the tools annotated read-only (at /api/mcp).
CONF_READ_ONLY: str | None = getattr(mcp_const, "CONF_READ_ONLY", None)


async def _serve(
    hass: HomeAssistant, *, apis: list[str] | None, require_admin: bool, read_only: bool = False
) -> None:
    """HA's MCP server with one config entry: `apis` served at /api/mcp (None: all LLM APIs, the
    entry HA's config flow creates); `read_only` (2026.11+): only read-only tools there."""
    assert await async_setup_component(hass, "mcp_server", {})
    data: dict[str, Any] = {
        CONF_ALL_LLM_APIS: apis is None,
        CONF_LLM_HASS_API: apis or [],
        CONF_REQUIRE_ADMIN: require_admin,
    }
    if read_only:
        assert CONF_READ_ONLY is not None
        data[CONF_READ_ONLY] = True
    entry = MockConfigEntry(
        domain="mcp_server",
        data=data,
        version=1,
        minor_version=4 if read_only else 3,  # 1.4 (2026.11) has read_only; 1.3 is migrated to False
    )
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()


@asynccontextmanager
async def _mcp(server: TestClient, token: str, path: str) -> AsyncIterator[ClientSession]:
    """An initialised MCP client session at `path` of HA's HTTP server, authorised by `token`."""
    async with (
        asyncio.timeout(MCP_TIMEOUT),
        httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=MCP_TIMEOUT) as http,
        streamable_http_client(str(server.make_url(path)), http_client=http) as streams,
        ClientSession(streams[0], streams[1]) as session,  # mcp 1.x yields a third item, 2.x not
    ):
        await session.initialize()
        yield session


def _field(model: Any, name: str) -> Any:
    """A field of an mcp SDK model by its protocol name ("isError"): mcp 1.x (HA 2026.10.4) names
    the attributes so, 2.x (HA 2026.11) in snake case ("is_error")."""
    if hasattr(model, name):
        return getattr(model, name)
    return getattr(model, re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower())


async def _tool(session: ClientSession, name: str, **args: Any) -> tuple[bool, Any]:
    """(isError, the JSON the tool answered) of one tools/call."""
    result = await session.call_tool(name, args)
    (content,) = result.content
    assert isinstance(content, types.TextContent)
    try:
        return _field(result, "isError"), json.loads(content.text)
    except json.JSONDecodeError:
        return _field(result, "isError"), content.text  # an error HA's server reports as text


async def _answer(session: ClientSession, name: str, **args: Any) -> Any:
    """The JSON of a tools/call that succeeded."""
    failed, data = await _tool(session, name, **args)
    assert not failed and data["success"] is True, data
    return data


async def _household_memories(hass: HomeAssistant, julian: Resident, anna: Resident) -> None:
    await async_call(hass, "remember", {"content": PLUMBER})
    await async_call(hass, "remember", {"content": GATE})
    for who, content in ((julian, JULIAN_DENTIST), (anna, ANNA_DENTIST)):
        await async_call(hass, "remember", {"content": content, "scope": "private", "person": who.person_id})


@dataclass(frozen=True)
class Endpoint:
    """Where an MCP client connects (`path`), what the MCP server entry serves at /api/mcp
    (`apis`: None for every LLM API; `require_admin`), and the memory tools' name prefix there."""

    path: str
    apis: list[str] | None
    require_admin: bool
    prefix: str


@dataclass
class Served:
    """HA's MCP server serving the memory at `endpoint`, to Julian and Anna (no admin)."""

    hass: HomeAssistant
    entry: Any
    julian: Resident
    anna: Resident
    server: TestClient
    endpoint: Endpoint

    def tool(self, verb: str) -> str:
        """The memory tool's name at this endpoint."""
        return f"{self.endpoint.prefix}{verb}"

    @asynccontextmanager
    async def session(self, who: Resident) -> AsyncIterator[ClientSession]:
        """An MCP client session with a long-lived token of `who`'s user."""
        async with _mcp(
            self.server, await async_access_token(self.hass, who.user_id, "MCP client"), self.endpoint.path
        ) as session:
            yield session


# Anna (no admin) reaches the memory tools at the Assist endpoint, which HA serves to every user
# (the tool platform, names memory__…), or at /api/mcp once the entry serves the Memory API to
# non-admins (its own names).
ENDPOINTS = [
    pytest.param(Endpoint("/api/mcp/assist", None, True, "memory__"), id="assist-endpoint"),
    pytest.param(Endpoint("/api/mcp", [LLM_API_ID], False, ""), id="memory-api"),
]


@pytest.fixture(params=ENDPOINTS)
async def served(
    request: pytest.FixtureRequest,
    hass: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    anna: Resident,
    *,
    hass_client: ClientSessionGenerator,
) -> Served:
    endpoint: Endpoint = request.param
    await _serve(hass, apis=endpoint.apis, require_admin=endpoint.require_admin)
    return Served(hass, memory_entry, julian, anna, await hass_client(), endpoint)


async def test_c37_anna_over_mcp_sees_what_anna_may_see(served: Served) -> None:
    """Anna's token lists the memory tools (titled, with the tools' annotations as the hints a
    client asks a person by) and recalls hers and the household's memories; Julian's private
    memory never appears; the sensitive gate code is only counted."""
    hass, anna = served.hass, served.anna
    await _household_memories(hass, served.julian, anna)
    async with served.session(anna) as session:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        for cls in TOOL_CLASSES:
            listed, flags = tools[served.tool(cls.verb)], cls.annotations
            assert listed.title == cls.title and listed.annotations is not None
            hints = listed.annotations
            named = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
            assert tuple(_field(hints, name) for name in named) == (
                flags.read_only,
                flags.destructive,
                flags.idempotent,
                flags.open_world,
            )
        assert "confirmation" in _field(tools[served.tool("forget")], "inputSchema")["required"]

        found = await _answer(session, served.tool("recall"), query="Who is the dentist?")
        told = [m["content"] for m in found["memories"]]
        assert ANNA_DENTIST in told and JULIAN_DENTIST not in told
        assert {m["said_by"] for m in found["memories"] if m["content"] == ANNA_DENTIST} == {"you"}
        found = await _answer(session, served.tool("recall"), query="What is the plumber's number?")
        assert PLUMBER in [m["content"] for m in found["memories"]]
        found = await _answer(session, served.tool("recall"), query="What is the garden gate code?")
        assert "4711" not in json.dumps(found) and found["withheld"] == 1
        candidates = await _answer(session, served.tool("find_to_forget"), query="dentist")
        assert [c["content"] for c in candidates["candidates"]] == [ANNA_DENTIST]

        stored = await _answer(session, served.tool("remember"), content="My yoga class is on Thursday.")
        assert stored["scope"] == "private"
    mine = {m.content: m.owner_id for m in await async_all_memories(hass, served.entry)}
    assert mine["My yoga class is on Thursday."] == anna.person_id


async def test_c37_forget_over_mcp_needs_the_confirmation_anna_was_given(served: Served) -> None:
    """As by voice ("Forget …" names it and asks; only the one asked can say yes): forget without
    a confirmation, with one given to Julian or a made-up one forgets nothing; with the one
    find_to_forget gave Anna it forgets."""
    await async_call(served.hass, "remember", {"content": PLUMBER})
    forget, find = served.tool("forget"), served.tool("find_to_forget")
    async with served.session(served.julian) as session:
        found = await _answer(session, find, query="plumber")
        (for_julian,) = found["candidates"]
    async with served.session(served.anna) as session:
        failed, _ = await _tool(session, forget, memory_id=for_julian["id"])
        assert failed  # the schema requires the confirmation
        for given in (for_julian["confirmation"], "yes"):
            failed, refused = await _tool(session, forget, memory_id=for_julian["id"], confirmation=given)
            assert failed and refused == {"success": False, "error": "not_confirmed"}
        assert [m.content for m in await async_all_memories(served.hass, served.entry)] == [PLUMBER]

        found = await _answer(session, find, query="plumber")
        (for_anna,) = found["candidates"]
        assert for_anna["id"] == for_julian["id"] and for_anna["confirmation"] != for_julian["confirmation"]
        done = await _answer(session, forget, memory_id=for_anna["id"], confirmation=for_anna["confirmation"])
        assert done == {"success": True, "forgotten": PLUMBER}
    assert await async_all_memories(served.hass, served.entry) == []


async def test_c37_a_user_with_no_person_is_an_unknown_speaker(
    hass: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    *,
    hass_client: ClientSessionGenerator,
    hass_access_token: str,
) -> None:
    """The administrator's token (a user with no person) over the entry HA creates (every LLM API,
    administrators only): the household's memories, nobody's private ones, one set of memory
    tools though Assist and the Memory API are both served. Naming Julian's personal device (the
    kitchen satellite, mapped to him) in the request gives that device's room, not Julian."""
    await _household_memories(hass, julian, anna)
    await async_call(hass, "remember", {"content": WINDOW, "scope": "room", "area": kitchen.area_id})
    mapping = [{"device_id": kitchen.device_id, "person": julian.person_id}]
    hass.config_entries.async_update_entry(
        memory_entry, options={**memory_entry.options, CONF_DEVICE_PERSONS: mapping}
    )
    await hass.config_entries.async_reload(memory_entry.entry_id)
    await _serve(hass, apis=None, require_admin=True)
    server = await hass_client()
    async with _mcp(server, hass_access_token, "/api/mcp") as session:
        names = [tool.name for tool in (await session.list_tools()).tools]
        recall = [name for name in names if name.endswith("memory__recall")]
        assert len(recall) == 1, names
        found = await _answer(session, recall[0], query="Who is the dentist?")
        told = json.dumps(found)
        assert "Weber" not in told and "Brandt" not in told
        found = await _answer(session, recall[0], query="What is the plumber's number?")
        assert PLUMBER in [m["content"] for m in found["memories"]]

        at_kitchen = {META_DEVICE_ID: kitchen.device_id}
        result = await session.call_tool(recall[0], {"query": "Who is the dentist?"}, meta=at_kitchen)
        assert not _field(result, "isError") and "Weber" not in str(result.content)
        result = await session.call_tool(recall[0], {"query": "Which window sticks?"}, meta=at_kitchen)
        assert not _field(result, "isError") and WINDOW in str(result.content)


async def test_the_memory_api_endpoint_is_for_administrators(
    hass: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    anna: Resident,
    hass_client: ClientSessionGenerator,
) -> None:
    """HA serves /api/mcp/<api id> of any API but Assist to administrators only, and the entry HA
    creates to administrators only: a household member's way in is the Assist endpoint."""
    user = await hass.auth.async_get_user(anna.user_id)
    assert user is not None and not user.is_admin  # Julian, created first, owns this Home Assistant
    await _serve(hass, apis=None, require_admin=True)
    client = await hass_client(await async_access_token(hass, anna.user_id, "MCP client"))
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json"}
    for path in (f"/api/mcp/{LLM_API_ID}", "/api/mcp"):
        response = await client.post(path, json=request, headers=headers)
        assert response.status in REFUSED, path
    response = await client.post("/api/mcp/assist", json=request, headers=headers)
    assert response.status == 200
    listed = {tool["name"] for tool in (await response.json())["result"]["tools"]}
    assert "memory__recall" in listed


@pytest.mark.skipif(
    CONF_READ_ONLY is None,
    reason="HA's MCP server has the read_only option from Home Assistant 2026.11.0 on; this run has an "
    "older one (scripts/test --newest-ha runs this test)",
)
@pytest.mark.parametrize(
    ("apis", "prefix"),
    [([llm.LLM_API_ASSIST], "memory__"), ([LLM_API_ID], "")],
    ids=["assist", "memory-api"],
)
async def test_a_read_only_mcp_client_recalls_and_finds_but_changes_nothing(
    hass: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    anna: Resident,
    *,
    hass_client: ClientSessionGenerator,
    apis: list[str],
    prefix: str,
) -> None:
    """HA's MCP server with `read_only` serves only the tools annotated read-only: Anna gets recall
    and find_to_forget (both answer), never remember, replace or forget — calling them, even with
    the confirmation find_to_forget gave her, changes nothing.

    Spoken as MCP's JSON-RPC over HA's test client (HA's endpoint answers one request with one JSON
    response, no session): the wire format is the same with the mcp SDK of either release."""
    await async_call(hass, "remember", {"content": PLUMBER})
    await _serve(hass, apis=apis, require_admin=False, read_only=True)
    client = await hass_client(await async_access_token(hass, anna.user_id, "MCP client"))

    async def rpc(method: str, **params: Any) -> dict[str, Any]:
        request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
        response = await client.post("/api/mcp", json=request, headers={"Accept": "application/json"})
        assert response.status == 200, await response.text()
        body: dict[str, Any] = await response.json()
        return body

    async def call(verb: str, **args: Any) -> tuple[bool, str]:
        """(failed, the text answered) of one tools/call: a JSON-RPC error or an isError result."""
        body = await rpc("tools/call", name=f"{prefix}{verb}", arguments=args)
        if "error" in body:
            return True, json.dumps(body["error"])
        result = body["result"]
        return bool(result.get("isError")), " ".join(c.get("text", "") for c in result["content"])

    names = {f"{prefix}{verb}": verb for verb in VERBS}
    listed = {names[t["name"]]: t for t in (await rpc("tools/list"))["result"]["tools"] if t["name"] in names}
    assert set(listed) == {"recall", "find_to_forget"}
    assert set(listed) == {cls.verb for cls in TOOL_CLASSES if cls.annotations.read_only}
    assert all(tool["annotations"]["readOnlyHint"] is True for tool in listed.values())

    failed, text = await call("recall", query="What is the plumber's number?")
    assert not failed and PLUMBER in [m["content"] for m in json.loads(text)["memories"]]
    failed, text = await call("find_to_forget", query="plumber")
    assert not failed
    (found,) = json.loads(text)["candidates"]

    failed, _ = await call("forget", memory_id=found["id"], confirmation=found["confirmation"])
    assert failed
    failed, _ = await call("remember", content="My yoga class is on Thursday.")
    assert failed
    failed, _ = await call("replace", id=found["id"], replaces=[found["id"]], confirmations=["x"])
    assert failed
    assert [m.content for m in await async_all_memories(hass, memory_entry)] == [PLUMBER]
