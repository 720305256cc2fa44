"""The admin panel's WebSocket API (memory/...), through HA's test WebSocket client with the real
integration and engine: each command's happy path, a schema error, a non-admin user rejected."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.typing import MockHAClientWebSocket, WebSocketGenerator

from custom_components.memory.const import CONF_LEARNING, CONF_LEARNING_OPT_OUT_AREAS
from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.models import (
    Kind,
    Provenance,
    Role,
    Scope,
    Source,
    Speaker,
    Status,
    TranscriptTurn,
)
from tests.case_texts import SECRET_EDITS
from tests.conftest import Resident, Room, async_call, setup_memory
from tests.engine.conftest import add_verbatim

type Call = Callable[..., Awaitable[Any]]

# every command with a valid payload and one its schema refuses
COMMANDS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "overview": ({}, {"extra": 1}),
    "list": ({}, {"limit": 0}),
    "search": ({"query": "spare key"}, {}),
    "get": ({"memory_id": "x"}, {}),
    "update": ({"memory_id": "x"}, {"memory_id": "x", "scope": "system"}),
    "pending": ({}, {"limit": 5}),
    "approve": ({"memory_id": "x"}, {}),
    "reject": ({"memory_id": "x"}, {"memory": "x"}),
    "forget": ({"memory_id": "x"}, {}),
    "forget_person": ({"person": "person.x"}, {}),
    "tombstones": ({}, {"limit": 201}),
    "lift_tombstone": ({"tombstone_id": "x"}, {}),
    "consolidate": ({"dry_run": True}, {}),
    "export": ({}, {"memories": []}),
    "import": ({"data": {}}, {}),
    "settings": ({}, {"learning": True}),
    "settings/update": ({}, {"learning": "maybe"}),
    "voice/status": ({}, {"person": "person.x"}),
    "voice/assess": ({"clips": []}, {"clips": "a.wav"}),
    "voice/enroll": ({"person": "person.x", "clips": []}, {"clips": []}),
    "voice/forget": ({"person": "person.x"}, {}),
}
TRANSLATIONS = Path(__file__).resolve().parents[2] / "custom_components" / "memory" / "translations"
SPARE_KEY = "The spare key for the cellar is in the blue tin in the hall."


async def _send(client: MockHAClientWebSocket, command: str, data: dict[str, Any]) -> dict[str, Any]:
    await client.send_json_auto_id({"type": f"memory/{command}", **data})
    response: dict[str, Any] = await client.receive_json()
    return response


@pytest.fixture
async def client(household: HomeAssistant, memory_entry: Any, hass_ws_client: WebSocketGenerator) -> Any:
    return await hass_ws_client(household)


@pytest.fixture
def ws(client: MockHAClientWebSocket) -> Call:
    """ws(command, **data) -> the result; fails the test on an error."""

    async def call(command: str, **data: Any) -> Any:
        response = await _send(client, command, data)
        assert response["success"], response
        return response["result"]

    return call


@pytest.fixture
def ws_error(client: MockHAClientWebSocket) -> Call:
    """ws_error(command, **data) -> the error ({code, message, translation_*})."""

    async def call(command: str, **data: Any) -> Any:
        response = await _send(client, command, data)
        assert not response["success"], response
        return response["error"]

    return call


async def run(hass: HomeAssistant, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await hass.async_add_executor_job(lambda: func(*args, **kwargs))


async def remember(hass: HomeAssistant, content: str, **data: Any) -> dict[str, Any]:
    memory: dict[str, Any] = (await async_call(hass, "remember", {"content": content, **data}))["memory"]
    return memory


async def recalled(hass: HomeAssistant, query: str, **data: Any) -> list[str]:
    return [m["content"] for m in (await async_call(hass, "recall", {"query": query, **data}))["memories"]]


@pytest.mark.parametrize("command", list(COMMANDS))
async def test_a_schema_error_is_invalid_format(ws_error: Call, command: str) -> None:
    error = await ws_error(command, **COMMANDS[command][1])
    assert error["code"] == "invalid_format"


@pytest.mark.parametrize("command", list(COMMANDS))
async def test_a_non_admin_is_refused(
    household: HomeAssistant,
    memory_entry: Any,
    hass_ws_client: WebSocketGenerator,
    hass_read_only_access_token: str,
    command: str,
) -> None:
    client = await hass_ws_client(household, hass_read_only_access_token)
    response = await _send(client, command, COMMANDS[command][0])
    assert not response["success"]
    assert response["error"]["code"] == "unauthorized"


async def test_without_a_loaded_entry(household: HomeAssistant, memory_entry: Any, ws_error: Call) -> None:
    await household.config_entries.async_unload(memory_entry.entry_id)
    error = await ws_error("overview")
    assert error["code"] == "not_loaded"
    assert error["translation_key"] == "not_loaded"


async def test_overview_counts_store_and_encoder(
    household: HomeAssistant, memory_entry: Any, engine: Any, ws: Call, julian: Resident
) -> None:
    await remember(household, SPARE_KEY)
    await remember(household, "I keep my passport in the desk.", person=julian.person_id, scope="private")
    await remember(household, "The boiler was serviced.", observed=True)
    bins = await remember(household, "The bins go out on Thursday evening.")
    await ws("forget", memory_id=bins["id"])
    await run(household, engine.remember, MemoryDraft(
        "The plumber comes on Friday.", speaker=Speaker(), scope=Scope.SHARED,
        provenance=Provenance.EXTRACTED, status=Status.PENDING,
    ))  # fmt: skip
    overview = await ws("overview")
    assert overview["counts"] == {
        "by_scope": {"shared": 2, "private": 1},
        "by_provenance": {"confirmed": 2, "observed": 1},
        "by_status": {"active": 3, "pending": 1},
        "pending": 1,
        "tombstones": 1,
    }
    assert overview["last_consolidation"] is None
    assert overview["store"] == {"kind": "sqlite", "where": "household_memory_test.db"}
    identity = engine.embedder.identity
    assert overview["encoder"] == {
        "provider": identity.provider,
        "model": identity.model,
        "dimension": identity.dimension,
    }


async def test_list_filters_pages_and_says_who_said_it(
    household: HomeAssistant, ws: Call, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    key = await remember(household, SPARE_KEY)
    tea = await remember(household, "Tea bags are in the left cupboard.", person=julian.person_id,
                         scope="room", area=kitchen.area_id)  # fmt: skip
    diary = await remember(
        household, "My diary is in my desk drawer.", person=anna.person_id, scope="private"
    )
    everything = await ws("list")
    assert [m["id"] for m in everything["memories"]] == [diary["id"], tea["id"], key["id"]]
    assert (everything["total"], everything["offset"], everything["limit"]) == (3, 0, 50)
    view = everything["memories"][1]
    assert view["said_by"] | {"at": None} == {
        "person_id": julian.person_id, "person_name": "Julian", "area_id": kitchen.area_id,
        "area_name": "Kitchen", "at": None,
    }  # fmt: skip
    assert view["said_by"]["at"] == view["created_at"]
    assert {k: view[k] for k in ("content", "kind", "scope", "area_id", "status", "provenance")} == {
        "content": "Tea bags are in the left cupboard.", "kind": "fact", "scope": "room",
        "area_id": kitchen.area_id, "status": "active", "provenance": "confirmed",
    }  # fmt: skip
    assert [m["id"] for m in (await ws("list", person=anna.person_id))["memories"]] == [diary["id"]]
    assert [m["id"] for m in (await ws("list", scope="room", said_by=julian.person_id))["memories"]] == [
        tea["id"]
    ]
    page = await ws("list", limit=1, offset=1)
    assert ([m["id"] for m in page["memories"]], page["total"]) == ([tea["id"]], 3)
    assert (await ws("list", status="pending"))["total"] == 0
    assert (await ws("list", status="any", area=kitchen.area_id))["total"] == 1


async def test_a_learned_memory_is_said_in_its_conversations_room(
    household: HomeAssistant, engine: Any, ws: Call, julian: Resident, kitchen: Room
) -> None:
    await run(household, engine.append_turn, TranscriptTurn(
        "conv-1", 0, Role.USER, "My sister visits on Sundays.", "en", datetime.now(UTC),
        speaker_id=julian.person_id, area_id=kitchen.area_id,
    ))  # fmt: skip
    learned = await run(household, engine.remember, MemoryDraft(
        "Julian's sister visits on Sundays.", speaker=Speaker(person_id=julian.person_id),
        scope=Scope.SHARED, provenance=Provenance.EXTRACTED, source=Source.EXTRACTION,
        source_ref="conv-1",
    ))  # fmt: skip
    (view,) = (await ws("list"))["memories"]
    assert (view["id"], view["area_id"], view["source_ref"]) == (learned.memory.id, None, "conv-1")
    assert (view["said_by"]["person_name"], view["said_by"]["area_name"]) == ("Julian", "Kitchen")


async def test_search_is_the_recall_a_speaker_gets(
    household: HomeAssistant, ws: Call, ws_error: Call, *, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    passport = await remember(household, "My passport is in the top desk drawer.", person=julian.person_id,
                              scope="private")  # fmt: skip
    asked = "Where is my passport?"
    as_julian = await ws("search", query=asked, person=julian.person_id, area=kitchen.area_id)
    (hit, *_) = as_julian["hits"]
    assert hit["memory"]["id"] == passport["id"]
    assert hit["score"] == pytest.approx(sum(hit["factors"].values()), abs=1e-3)
    assert hit["factors"]["similarity"] > 0 and 0 < hit["similarity"] <= 1
    assert hit["outdated_by"] is None
    for other in ({"person": anna.person_id}, {}, {"person": None, "area": kitchen.area_id}):
        assert passport["id"] not in [
            h["memory"]["id"] for h in (await ws("search", query=asked, **other))["hits"]
        ]
    # what an unknown speaker would hear: a sensitive memory is withheld from them, as in a turn
    code = await remember(household, "The alarm code is 4711.")
    alarm = "What is the alarm code?"
    unknown = await ws("search", query=alarm, area=kitchen.area_id)
    assert code["id"] not in [h["memory"]["id"] for h in unknown["hits"]]
    assert code["id"] in [h["memory"]["id"] for h in unknown["withheld"]]
    known = await ws("search", query=alarm, person=julian.person_id, area=kitchen.area_id)
    assert known["hits"][0]["memory"]["id"] == code["id"] and known["withheld"] == []
    error = await ws_error("search", query=asked, person="person.nobody")
    assert (error["code"], error["translation_key"]) == ("invalid_input", "unknown_person")
    assert error["translation_placeholders"] == {"field": "person"}
    assert error["message"] == '"person" is not a known person.'
    assert (await ws_error("search", query=asked, area="attic"))["translation_key"] == "unknown_area"


async def test_get_shows_the_chain_around_a_memory(
    household: HomeAssistant, engine: Any, ws: Call, ws_error: Call, julian: Resident
) -> None:
    said = []
    for value in ("coffee", "tea", "hot water"):
        said.append((await run(household, engine.remember, MemoryDraft(
            f"I drink {value} in the morning.", speaker=Speaker(person_id=julian.person_id),
            scope=Scope.PRIVATE, kind=Kind.PREFERENCE, subject="me", predicate="drinks", value=value,
        ))).memory)  # fmt: skip
    coffee, tea, water = said
    got = await ws("get", memory_id=tea.id)
    assert (got["memory"]["id"], got["memory"]["status"], got["memory"]["superseded_by"]) == (
        tea.id, "superseded", water.id,
    )  # fmt: skip
    assert [(m["id"], m["valid_to"]) for m in got["older"]] == [(coffee.id, tea.created_at.isoformat())]
    assert [(m["id"], m["valid_to"]) for m in got["newer"]] == [(water.id, None)]
    assert got["memory"]["valid_from"] == tea.created_at.isoformat()
    assert (await ws_error("get", memory_id="no-such-id"))["code"] == "not_found"


async def test_update_is_recalled_and_the_old_text_is_not(household: HomeAssistant, ws: Call) -> None:
    key = await remember(household, "The spare key is under the doormat.")
    updated = await ws(
        "update", memory_id=key["id"], content="The spare key is in the blue tin.", kind="note"
    )
    assert (updated["memory"]["content"], updated["memory"]["kind"]) == (
        "The spare key is in the blue tin.",
        "note",
    )
    assert await recalled(household, "Where is the spare key?") == ["The spare key is in the blue tin."]
    assert (await ws("list", kind="note"))["total"] == 1


async def test_update_cannot_smuggle_a_secret_into_a_learned_memory(
    household: HomeAssistant, engine: Any, ws: Call, ws_error: Call
) -> None:
    learned = (await run(household, engine.remember, MemoryDraft(
        "The garage has a keypad.", speaker=Speaker(), scope=Scope.SHARED,
        provenance=Provenance.EXTRACTED, source=Source.EXTRACTION, status=Status.PENDING,
    ))).memory  # fmt: skip
    error = await ws_error("update", memory_id=learned.id, content="The garage code is 4711.")
    assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
        "invalid_input", "sensitive_content", {"field": "content"},
    )  # fmt: skip
    assert await run(household, engine.get, learned.id, Speaker.administrator()) == learned
    confirmed = await remember(household, "The shed has a keypad.")
    updated = await ws("update", memory_id=confirmed["id"], content="The shed code is 1234.")
    assert updated["memory"]["sensitive"] is True  # flagged, as memory.remember flags it


def _exception_message(language: str, key: str, **placeholders: str) -> str:
    """strings.json "exceptions" message `key` as translations/<language>.json has it, filled in."""
    texts = json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8"))
    return str(texts["exceptions"][key]["message"]).format(**placeholders)


@pytest.mark.parametrize("case", SECRET_EDITS, ids=[s for _, _, s in SECRET_EDITS])
async def test_an_edit_follows_the_rule_remember_applies(
    household: HomeAssistant, engine: Any, ws: Call, ws_error: Call, case: tuple[str, str, str]
) -> None:
    """The sensitive filter on the panel's edit is remember's own (writer.checked_content): a secret
    typed into a stated memory is flagged as memory.remember flags it; into a learned one it is
    refused — with the translated error naming `content`, nothing changed — as remembering (an
    import of) a learned memory with that text is refused."""
    lang, before, secret = case
    household.config.language = lang
    said = await async_call(household, "remember", {"content": secret, "language": lang})
    assert (said["action"], said["sensitive"]) == ("created", True)
    assert (await ws("get", memory_id=said["memory"]["id"]))["memory"]["sensitive"] is True
    stated = await remember(household, before, language=lang)
    assert (await ws("get", memory_id=stated["id"]))["memory"]["sensitive"] is False
    edited = (await ws("update", memory_id=stated["id"], content=secret))["memory"]
    assert (edited["content"], edited["sensitive"]) == (secret, True)  # flagged, as remember flags it

    learned = (await run(household, engine.remember, MemoryDraft(
        before, speaker=Speaker(), scope=Scope.SHARED, language=lang,
        provenance=Provenance.EXTRACTED, source=Source.EXTRACTION, status=Status.PENDING,
    ))).memory  # fmt: skip
    error = await ws_error("update", memory_id=learned.id, content=secret)
    assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
        "invalid_input", "sensitive_content", {"field": "content"},
    )  # fmt: skip
    assert error["message"] == _exception_message(lang, "sensitive_content", field="content")
    assert await run(household, engine.get, learned.id, Speaker.administrator()) == learned
    learned_secret = {"content": secret, "scope": "shared", "language": lang, "provenance": "extracted"}
    document = {
        "format": "household-memory/export",
        "version": 1,
        "memories": [],
        "pending": [learned_secret],
    }
    report = await ws("import", data=document)
    assert report == {
        "created": 0,
        "duplicates": 0,
        "rejected": [{"index": 0, "reason": "sensitive_content", "field": "content"}],
    }


async def test_update_checks_scope_owner_and_area(
    household: HomeAssistant, ws: Call, ws_error: Call, anna: Resident, hall: Room
) -> None:
    bins = await remember(household, "The bins go out on Thursday evening.")
    for data, key, field in (
        ({"scope": "private"}, "scope_needs_person", "owner"),
        ({"scope": "room"}, "scope_needs_area", "area"),
        ({"scope": "private", "owner": "person.nobody"}, "unknown_person", "owner"),
        ({"scope": "room", "area": "attic"}, "unknown_area", "area"),
        ({"content": " "}, "empty_content", "content"),
    ):
        error = await ws_error("update", memory_id=bins["id"], **data)
        assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
            "invalid_input", key, {"field": field},
        )  # fmt: skip
    moved = await ws("update", memory_id=bins["id"], scope="private", owner=anna.person_id)
    assert (moved["memory"]["scope"], moved["memory"]["owner_id"]) == ("private", anna.person_id)
    assert await recalled(household, "When do the bins go out?") == []  # an unknown speaker
    roomed = await ws("update", memory_id=bins["id"], scope="room", area=hall.area_id)
    assert (roomed["memory"]["owner_id"], roomed["memory"]["area_id"]) == (None, hall.area_id)
    assert (await ws_error("update", memory_id="no-such-id", kind="note"))["code"] == "not_found"


async def test_pending_approve_and_reject(
    household: HomeAssistant, engine: Any, ws: Call, ws_error: Call, julian: Resident
) -> None:
    def drink(value: str, **draft: Any) -> MemoryDraft:
        return MemoryDraft(
            f"I drink {value} in the morning.", speaker=Speaker(person_id=julian.person_id),
            scope=Scope.PRIVATE, kind=Kind.PREFERENCE, subject="me", predicate="drinks", value=value, **draft,
        )  # fmt: skip

    coffee = (await run(household, engine.remember, drink("coffee"))).memory
    tea = (await run(household, engine.remember, drink(
        "tea", provenance=Provenance.EXTRACTED, status=Status.PENDING
    ))).memory  # fmt: skip
    plumber = (await run(household, engine.remember, MemoryDraft(
        "The plumber comes on Friday.", speaker=Speaker(), scope=Scope.SHARED,
        provenance=Provenance.EXTRACTED, status=Status.PENDING,
    ))).memory  # fmt: skip
    pending = {
        p["memory"]["id"]: [r["value"] for r in p["replaces"]] for p in (await ws("pending"))["pending"]
    }
    assert pending == {tea.id: ["coffee"], plumber.id: []}

    approved = await ws("approve", memory_id=tea.id)
    assert (approved["memory"]["status"], approved["replaced"]) == ("active", [coffee.id])
    assert (await ws("get", memory_id=coffee.id))["memory"]["status"] == "superseded"
    error = await ws_error("approve", memory_id=tea.id)  # not pending any more: said so, not "no such memory"
    assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
        "invalid_input", "not_pending", {"field": "memory_id"},
    )  # fmt: skip
    assert error["message"] == _exception_message("en", "not_pending", field="memory_id")
    assert (await ws_error("approve", memory_id="no-such-id"))["code"] == "not_found"

    assert await ws("reject", memory_id=plumber.id) == {"forgotten": plumber.id}
    assert (await ws("pending"))["pending"] == []
    assert [t["id"] for t in (await ws("tombstones"))["tombstones"]] == [plumber.id]
    error = await ws_error("reject", memory_id=tea.id)  # active, not pending
    assert (error["code"], error["translation_key"]) == ("invalid_input", "not_pending")


async def test_forget_leaves_only_a_tombstone(household: HomeAssistant, ws: Call, ws_error: Call) -> None:
    key = await remember(household, SPARE_KEY)
    assert await recalled(household, "Where is the spare key for the cellar?") == [SPARE_KEY]
    assert await ws("forget", memory_id=key["id"]) == {"forgotten": key["id"]}
    assert await recalled(household, "Where is the spare key for the cellar?") == []
    tombstones = await ws("tombstones")
    assert tombstones["total"] == 1
    (tomb,) = tombstones["tombstones"]
    assert tomb | {"created_at": None} == {
        "id": key["id"], "scope": "shared", "owner_id": None, "area_id": None, "created_at": None,
        "lifted_at": None,
    }  # fmt: skip
    assert "content" not in tomb
    assert (await ws_error("forget", memory_id=key["id"]))["code"] == "not_found"


async def test_forget_person(
    household: HomeAssistant, ws: Call, ws_error: Call, julian: Resident, anna: Resident
) -> None:
    await remember(household, "My passport is in the desk.", person=julian.person_id, scope="private")
    await remember(household, "My bike is blue.", person=julian.person_id, scope="private")
    await remember(household, "My diary is in the drawer.", person=anna.person_id, scope="private")
    assert await ws("forget_person", person=julian.person_id) == {"forgotten": 2}
    assert [m["owner_id"] for m in (await ws("list"))["memories"]] == [anna.person_id]
    error = await ws_error("forget_person", person="person.nobody")
    assert (error["code"], error["translation_key"]) == ("invalid_input", "unknown_person")


async def test_lift_tombstone_unblocks_learning(
    household: HomeAssistant, engine: Any, ws: Call, ws_error: Call
) -> None:
    code = await remember(household, "The gate code is 4711.")
    await ws("forget", memory_id=code["id"])
    assert await run(household, engine.is_tombstoned, "The gate code is 4711.", scope=Scope.SHARED)
    assert await ws("lift_tombstone", tombstone_id=code["id"]) == {"lifted": code["id"]}
    assert not await run(household, engine.is_tombstoned, "The gate code is 4711.", scope=Scope.SHARED)
    (tomb,) = (await ws("tombstones"))["tombstones"]
    assert tomb["lifted_at"] is not None
    error = await ws_error("lift_tombstone", tombstone_id=code["id"])  # lifted already
    assert (error["code"], error["translation_key"]) == ("not_found", "unknown_tombstone")


async def test_consolidate_dry_run_then_for_real(household: HomeAssistant, engine: Any, ws: Call) -> None:
    for _ in range(2):  # one fact twice, as two doors at once could leave it
        await run(household, add_verbatim, engine, "The bins go out on Thursday evening.")
    plan = await ws("consolidate", dry_run=True)
    assert (plan["dry_run"], plan["merged"], len(plan["changes"])) == (True, 1, 1)
    assert (await ws("list"))["total"] == 2  # nothing done
    assert (await ws("overview"))["last_consolidation"] is None
    done = await ws("consolidate", dry_run=False)
    assert (done["merged"], done["judged"]) == (1, 0)
    assert (await ws("list"))["total"] == 1
    assert (await ws("overview"))["last_consolidation"] is not None


async def test_export_then_import_into_a_fresh_entry(
    household: HomeAssistant,
    memory_entry: Any,
    *,
    engine: Any,
    hass_ws_client: WebSocketGenerator,
    ws: Call,
    julian: Resident,
    kitchen: Room,
) -> None:
    await remember(household, SPARE_KEY)
    await remember(household, "My passport is in the desk.", person=julian.person_id, scope="private")
    await remember(household, "Tea bags are in the left cupboard.", scope="room", area=kitchen.area_id,
                   observed=True)  # fmt: skip
    code = await remember(household, "The gate code is 4711.")
    await ws("forget", memory_id=code["id"])
    for value in ("coffee", "tea"):
        await run(household, engine.remember, MemoryDraft(
            f"I drink {value} in the morning.", speaker=Speaker(person_id=julian.person_id),
            scope=Scope.PRIVATE, kind=Kind.PREFERENCE, subject="me", predicate="drinks", value=value,
        ))  # fmt: skip
    await run(household, engine.remember, MemoryDraft(
        "The plumber comes on Friday.", speaker=Speaker(), scope=Scope.SHARED,
        provenance=Provenance.EXTRACTED, status=Status.PENDING,
    ))  # fmt: skip
    export = await ws("export")
    assert (export["format"], export["version"]) == ("household-memory/export", 1)
    assert export["tombstones"] == {"count": 1, "by_scope": {"shared": 1}}
    dumped = json.dumps(export)
    assert code["id"] not in dumped and "gate code" not in dumped  # the forgotten memory is nowhere
    assert not re.search(
        r"\b4711\b", dumped
    )  # nor its number (a timestamp's microseconds may hold the digits)
    assert "embedding" not in dumped
    drinks = next(m for m in export["memories"] if m["predicate"] == "drinks")
    assert (drinks["value"], [h["value"] for h in drinks["history"]]) == ("tea", ["coffee"])
    assert [m["content"] for m in export["pending"]] == ["The plumber comes on Friday."]

    await household.config_entries.async_remove(memory_entry.entry_id)
    await setup_memory(household, db_path="fresh.db")
    fresh = await hass_ws_client(household)
    await fresh.send_json_auto_id({"type": "memory/import", "data": export})
    report = (await fresh.receive_json())["result"]
    assert report == {"created": 5, "duplicates": 0, "rejected": []}

    def kept(view: dict[str, Any]) -> tuple[Any, ...]:
        said = view["said_by"]["person_id"]
        return view["content"], view["scope"], view["owner_id"], view["area_id"], view["provenance"], said

    await fresh.send_json_auto_id({"type": "memory/list", "status": "any"})
    recreated = (await fresh.receive_json())["result"]["memories"]
    assert sorted(map(kept, recreated)) == sorted(map(kept, [*export["memories"], *export["pending"]]))
    await fresh.send_json_auto_id({"type": "memory/import", "data": export})
    assert (await fresh.receive_json())["result"] == {"created": 0, "duplicates": 5, "rejected": []}


async def test_import_reports_what_it_rejects(household: HomeAssistant, ws: Call, ws_error: Call) -> None:
    tea = await remember(household, "Tea bags are in the left cupboard.")
    data = {
        "format": "household-memory/export",
        "version": 1,
        "memories": [
            {"content": "The bins go out on Thursday evening.", "scope": "shared", "language": "en"},
            {"content": "My diary is in the drawer.", "scope": "private", "owner_id": "person.nobody"},
            {"content": "The plant needs water.", "scope": "room", "area_id": "attic"},
            {"content": "", "scope": "shared"},
            {"scope": "shared"},
            {"content": "Tea bags are in the left cupboard.", "scope": "shared", "provenance": "told"},
            {**tea, "said_by": None},
        ],
    }
    report = await ws("import", data=data)
    assert report == {
        "created": 1,
        "duplicates": 1,
        "rejected": [
            {"index": 1, "reason": "unknown_person", "field": "owner_id"},
            {"index": 2, "reason": "unknown_area", "field": "area_id"},
            {"index": 3, "reason": "empty_content", "field": "content"},
            {"index": 4, "reason": "invalid_input", "field": "content"},
            {"index": 5, "reason": "invalid_input", "field": "provenance"},
        ],
    }
    error = await ws_error("import", data={"format": "something else", "memories": []})
    assert (error["code"], error["translation_key"]) == ("invalid_input", "invalid_export")


async def test_settings_are_the_entry_options(
    household: HomeAssistant, memory_entry: Any, ws: Call, ws_error: Call, kitchen: Room
) -> None:
    assert await ws("settings") == {
        "learning": False,
        "learning_opt_out_areas": [],
        "review_extracted": False,
        "cloud_personal": False,
        "transcript_retention_days": 365,
    }
    changed = await ws("settings/update", learning=True, learning_opt_out_areas=[kitchen.area_id],
                       transcript_retention_days=30)  # fmt: skip
    assert changed == {
        "learning": True,
        "learning_opt_out_areas": [kitchen.area_id],
        "review_extracted": False,
        "cloud_personal": False,
        "transcript_retention_days": 30,
    }
    assert memory_entry.options[CONF_LEARNING] is True
    assert memory_entry.options[CONF_LEARNING_OPT_OUT_AREAS] == [kitchen.area_id]
    for days in (0, 3651):  # out of the options flow's range: named, translated, nothing saved
        error = await ws_error("settings/update", learning=False, transcript_retention_days=days)
        assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
            "invalid_input", "out_of_range",
            {"field": "transcript_retention_days", "min": "1", "max": "3650"},
        )  # fmt: skip
        assert "transcript_retention_days" in error["message"] and "3650" in error["message"]
    assert await ws("settings") == changed
    assert memory_entry.runtime_data.options[CONF_LEARNING] is True  # the running entry follows
    assert await ws("settings") == changed
    error = await ws_error("settings/update", learning_opt_out_areas=["attic"])
    assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
        "invalid_input", "unknown_area", {"field": "learning_opt_out_areas"},
    )  # fmt: skip
    assert memory_entry.options[CONF_LEARNING_OPT_OUT_AREAS] == [kitchen.area_id]


STRINGS = Path(__file__).resolve().parents[2] / "custom_components" / "memory" / "strings.json"


@pytest.mark.parametrize(
    ("command", "data", "field"),
    [
        ("list", {"limit": 1.5}, "limit"),
        ("list", {"limit": True}, "limit"),
        ("list", {"offset": 0.5}, "offset"),
        ("list", {"offset": 2**63}, "offset"),
        ("list", {"offset": 10**30}, "offset"),
        ("list", {"offset": 10**9 + 1}, "offset"),
        ("tombstones", {"offset": 2**63}, "offset"),
        ("tombstones", {"limit": "1.5"}, "limit"),
        ("search", {"query": "spare key", "limit": 1.5}, "limit"),
        ("search", {"query": 5}, "query"),
        ("update", {"memory_id": "x", "content": 5}, "content"),
        ("update", {"memory_id": 5}, "memory_id"),
    ],
)
async def test_numbers_are_whole_and_texts_are_texts(
    ws_error: Call, command: str, data: dict[str, Any], field: str
) -> None:
    """No 1.5 truncated to 1, no 5 taken for "5", no offset a store cannot hold (it was a
    traceback: Python int too large to convert to SQLite INTEGER): a schema error naming it."""
    error = await ws_error(command, **data)
    assert error["code"] == "invalid_format"
    assert f"'{field}'" in error["message"]


async def test_a_whole_page_is_taken_as_given(ws: Call) -> None:
    assert (await ws("list", limit=2.0, offset="1"))["limit"] == 2
    assert (await ws("list", offset=10**9))["offset"] == 10**9
    assert (await ws("tombstones", offset=10**9))["tombstones"] == []


async def test_retention_is_a_whole_number_in_range(memory_entry: Any, ws: Call, ws_error: Call) -> None:
    for days in (1.7, "1.5", True, "a year", None, [30], 0, 3651):
        error = await ws_error("settings/update", transcript_retention_days=days)
        assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
            "invalid_input", "out_of_range",
            {"field": "transcript_retention_days", "min": "1", "max": "3650"},
        )  # fmt: skip
        assert error["message"] == _exception_message(
            "en", "out_of_range", field="transcript_retention_days", min="1", max="3650"
        )
    assert (await ws("settings"))["transcript_retention_days"] == 365  # nothing saved
    for days, saved in ((30.0, 30), ("7", 7), (3650, 3650)):
        changed = await ws("settings/update", transcript_retention_days=days)
        assert changed["transcript_retention_days"] == saved
    assert memory_entry.options["transcript_retention_days"] == 3650


@pytest.mark.parametrize("data", [[1, 2, 3], "a file", None, 5, {"memories": "all of them"}])
async def test_anything_but_an_export_is_invalid_export(ws_error: Call, data: Any) -> None:
    error = await ws_error("import", data=data)
    assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
        "invalid_input", "invalid_export", {"field": "data"},
    )  # fmt: skip
    assert error["message"] == _exception_message("en", "invalid_export", field="data")


async def test_an_import_too_large_says_the_limit(ws: Call, ws_error: Call) -> None:
    item = {"content": "The bins go out on Thursday evening.", "scope": "shared"}
    data = {
        "format": "household-memory/export",
        "version": 1,
        "memories": [item] * 9_000,
        "pending": [item] * 1_001,
    }
    error = await ws_error("import", data=data)
    assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
        "invalid_input", "import_too_large", {"field": "data", "max": "10000"},
    )  # fmt: skip
    assert "10000" in error["message"]
    assert (await ws("list"))["total"] == 0


async def test_an_import_makes_no_system_memory(ws: Call) -> None:
    data = {
        "format": "household-memory/export",
        "version": 1,
        "memories": [{"content": "Everyone may hear this.", "scope": "system"}],
    }
    assert await ws("import", data=data) == {
        "created": 0,
        "duplicates": 0,
        "rejected": [{"index": 0, "reason": "scope_reserved", "field": "scope"}],
    }
    assert (await ws("list", status="any"))["total"] == 0


async def test_an_older_export_brings_back_nothing_replaced(
    household: HomeAssistant, engine: Any, ws: Call, julian: Resident
) -> None:
    """The tester's case: remember, export, replace it, import the old export: the replaced fact
    stays replaced (a duplicate), and a fact whose key holds another value here is a conflict."""
    shed = await remember(household, "The lawnmower is in the shed.")
    await remember(household, SPARE_KEY)
    await run(household, engine.remember, MemoryDraft(
        "I drink coffee in the morning.", speaker=Speaker(person_id=julian.person_id),
        scope=Scope.PRIVATE, kind=Kind.PREFERENCE, subject="me", predicate="drinks", value="coffee",
    ))  # fmt: skip
    export = await ws("export")
    garage = await remember(household, "The lawnmower is behind the garage now.", replaces=[shed["id"]])
    await run(household, engine.remember, MemoryDraft(
        "I drink tea in the morning.", speaker=Speaker(person_id=julian.person_id),
        scope=Scope.PRIVATE, kind=Kind.PREFERENCE, subject="me", predicate="drinks", value="tea",
    ))  # fmt: skip
    coffee = next(m for m in export["memories"] if m["predicate"] == "drinks")
    export["memories"].append({**coffee, "content": "Coffee is what I drink in the morning."})
    report = await ws("import", data=export)
    assert report == {
        "created": 0,
        "duplicates": 3,
        "rejected": [{"index": 3, "reason": "conflict", "field": "value"}],
    }
    active = [m["content"] for m in (await ws("list"))["memories"]]
    assert sorted(active) == sorted(["I drink tea in the morning.", garage["content"], SPARE_KEY])
    assert (await ws("get", memory_id=shed["id"]))["memory"]["status"] == "superseded"
    assert (await recalled(household, "Where is the lawnmower?"))[:1] == [garage["content"]]


async def test_update_refuses_an_owner_or_area_the_scope_does_not_keep(
    household: HomeAssistant, ws: Call, ws_error: Call, anna: Resident, hall: Room
) -> None:
    bins = await remember(household, "The bins go out on Thursday evening.")
    for data, key, field in (
        ({"owner": anna.person_id}, "owner_needs_private", "owner"),
        ({"owner": anna.person_id, "scope": "room", "area": hall.area_id}, "owner_needs_private", "owner"),
        ({"area": hall.area_id}, "area_needs_room", "area"),
    ):
        error = await ws_error("update", memory_id=bins["id"], **data)
        assert (error["code"], error["translation_key"], error["translation_placeholders"]) == (
            "invalid_input", key, {"field": field},
        )  # fmt: skip
        assert error["message"] == _exception_message("en", key, field=field)
    assert (await ws("get", memory_id=bins["id"]))["memory"]["scope"] == "shared"
    moved = await ws("update", memory_id=bins["id"], scope="private", owner=anna.person_id)
    assert (moved["memory"]["scope"], moved["memory"]["owner_id"]) == ("private", anna.person_id)


def test_every_error_key_is_translated_with_its_placeholders() -> None:
    """Each reason an import reports and each key these commands send is a strings.json exceptions
    key, with the same placeholders in every language (en.json is strings.json)."""
    from custom_components.memory.validation import REASON_KEYS  # noqa: PLC0415

    strings = json.loads(STRINGS.read_text(encoding="utf-8"))["exceptions"]
    assert json.loads((TRANSLATIONS / "en.json").read_text(encoding="utf-8"))["exceptions"] == strings
    keys = {*REASON_KEYS.values(), "invalid_input", "invalid_export", "import_too_large", "out_of_range",
            "scope_reserved", "not_pending", "owner_needs_private", "area_needs_room"}  # fmt: skip
    assert keys <= set(strings)
    for language in ("de", "fr", "it", "es"):
        texts = json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8"))["exceptions"]
        for key in keys:
            placeholders = set(re.findall(r"{(\w+)}", strings[key]["message"]))
            assert set(re.findall(r"{(\w+)}", texts[key]["message"])) == placeholders, (language, key)
            assert "field" in placeholders or key in {"not_loaded", "store_unreachable"}, key


async def test_import_with_progress_streams_its_progress_then_the_result(
    household: HomeAssistant, memory_entry: Any, hass_ws_client: Any
) -> None:
    """memory/import with progress: true is answered like a subscription: {done, total} events,
    a batch at a time, ending at total, then the report as an event, then an empty result; the
    client's unsubscribe afterwards is accepted."""
    from custom_components.memory.engine.parts.transfer import IMPORT_BATCH  # noqa: PLC0415

    total = IMPORT_BATCH + 3
    data = {
        "format": "household-memory/export",
        "version": 1,
        "memories": [
            {"content": f"Crate {n} in the attic holds the winter things of shelf {n}.", "scope": "shared"}
            for n in range(total)
        ],
    }
    client = await hass_ws_client(household)
    await client.send_json_auto_id({"type": "memory/import", "data": data, "progress": True})
    events = []
    while True:
        message = await client.receive_json()
        if message["type"] == "result":
            break
        events.append(message["event"])
    assert message["success"] and message["result"] is None
    assert events == [
        {"done": IMPORT_BATCH, "total": total},
        {"done": total, "total": total},
        {"result": {"created": total, "duplicates": 0, "rejected": []}},
    ]
    await client.send_json_auto_id({"type": "unsubscribe_events", "subscription": message["id"]})
    assert (await client.receive_json())["success"]
