"""The memory.* services, through hass.services with the real engine and the bundled encoder."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import pytest
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError

from custom_components.memory.const import CONF_SENSITIVE_TO_UNKNOWN
from custom_components.memory.engine.api import MAX_CONTENT_CHARS
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker
from tests.conftest import async_call, both_stores, person_storage

pytestmark = both_stores  # every test here touches the store: run on SQLite and PostgreSQL

# (language, fact, a question in the same language) — the spare key of C01/C02.
SPARE_KEY = {
    "en": (
        "The spare key for the cellar is in the blue tin in the hall.",
        "Where is the spare key for the cellar?",
    ),
    "de": (
        "Der Ersatzschlüssel für den Keller liegt in der blauen Dose im Flur.",
        "Wo ist der Ersatzschlüssel für den Keller?",
    ),
    "it": (
        "La chiave di riserva della cantina è nella scatola blu nell'ingresso.",
        "Dove si trova la chiave di riserva della cantina?",
    ),
    "fr": (
        "La clé de secours de la cave est dans la boîte bleue de l'entrée.",
        "Où est la clé de secours de la cave ?",
    ),
    "es": (
        "La llave de repuesto del sótano está en la lata azul del pasillo.",
        "¿Dónde está la llave de repuesto del sótano?",
    ),
}


async def _count(hass: HomeAssistant, engine: Any) -> int:
    return (await hass.async_add_executor_job(engine.stats)).memories


def _ids(response: dict[str, Any]) -> list[str]:
    return [m["id"] for m in response["memories"]]


@pytest.mark.parametrize("language", list(SPARE_KEY))
async def test_remember_then_recall(household: HomeAssistant, memory_entry, language: str) -> None:
    fact, question = SPARE_KEY[language]
    written = await async_call(household, "remember", {"content": fact, "language": language})
    assert written["action"] == "created"
    memory = written["memory"]
    assert memory | {"id": None, "created_at": None} == {
        "id": None,
        "content": fact,
        "kind": "fact",
        "scope": "shared",
        "provenance": "confirmed",
        "language": language,
        "person": None,
        "said_by": None,
        "area": None,
        "created_at": None,
        "withheld": None,  # told (a reason when withheld from the caller)
    }

    recalled = await async_call(household, "recall", {"query": question})
    assert recalled["memories"][0]["id"] == memory["id"]
    hit = recalled["memories"][0]
    assert hit["content"] == fact
    assert set(hit) >= {"id", "content", "kind", "scope", "provenance", "score", "factors", "created_at"}
    assert hit["score"] == pytest.approx(sum(hit["factors"].values()), abs=1e-3)


async def test_c11_same_fact_twice(household: HomeAssistant, memory_entry, engine) -> None:
    fact = "The bins go out on Thursday evening."
    first = await async_call(household, "remember", {"content": fact, "observed": True})
    second = await async_call(household, "remember", {"content": fact})
    assert second["action"] == "merged"
    assert second["memory"]["id"] == first["memory"]["id"]
    assert second["memory"]["provenance"] == "confirmed"  # confirmed now, nothing deleted
    assert await _count(household, engine) == 1
    recalled = await async_call(household, "recall", {"query": "When do the bins go out?"})
    assert _ids(recalled) == [first["memory"]["id"]]


async def test_observed_flag_and_kind(household: HomeAssistant, memory_entry) -> None:
    written = await async_call(
        household,
        "remember",
        {"content": "The washing machine finished at 14:05.", "observed": True, "kind": "episode"},
    )
    assert written["memory"]["provenance"] == "observed"
    assert written["memory"]["kind"] == "episode"


async def test_caller_user_is_the_speaker(household: HomeAssistant, memory_entry, julian, anna) -> None:
    """context.user_id → person: a private memory is Julian's, and only Julian sees it (C05)."""
    written = await async_call(
        household,
        "remember",
        {"content": "I like short answers.", "scope": "private"},
        context=julian.context,
    )
    assert written["memory"]["person"] == julian.person_id
    assert written["memory"]["said_by"] == julian.person_id
    query = {"query": "How do I like my answers?"}
    assert written["memory"]["id"] in _ids(
        await async_call(household, "recall", query, context=julian.context)
    )
    assert written["memory"]["id"] not in _ids(
        await async_call(household, "recall", query, context=anna.context)
    )
    assert written["memory"]["id"] not in _ids(await async_call(household, "recall", query))


async def test_c16_forget_person(
    household: HomeAssistant, memory_entry, *, engine, julian, anna, kitchen
) -> None:
    julian_private = [
        "My bank appointment is on Friday.",
        "I want to learn the piano.",
    ]
    for text in julian_private:
        await async_call(
            household, "remember", {"content": text, "scope": "private", "person": julian.person_id}
        )
    kept = [
        ("Anna prefers tea without sugar.", {"scope": "private", "person": anna.person_id}),
        ("The kitchen window sticks; lift it before opening.", {"scope": "room", "area": kitchen.area_id}),
        ("The wifi password is on the fridge.", {"scope": "shared"}),
    ]
    for text, extra in kept:
        await async_call(household, "remember", {"content": text, **extra})

    response = await async_call(household, "forget_person", {"person": julian.person_id})
    assert response == {"person": julian.person_id, "forgotten": 2}

    remaining = await household.async_add_executor_job(
        lambda: engine.list_memories(Speaker.administrator(), limit=100)
    )
    assert sorted(m.content for m in remaining) == sorted(text for text, _ in kept)
    stats = await household.async_add_executor_job(engine.stats)
    assert stats.tombstones >= 2


async def test_deleting_a_person_forgets_their_private_memories(
    household: HomeAssistant, memory_entry, engine, julian, anna
) -> None:
    """DESIGN §6: deleting a person (person registry) deletes their private memories."""
    await async_call(
        household,
        "remember",
        {"content": "My locker code is 1234.", "scope": "private", "person": julian.person_id},
    )
    await async_call(
        household, "remember", {"content": "I collect stamps.", "scope": "private", "person": anna.person_id}
    )

    people = person_storage(household)
    item = next(p for p in people.async_items() if p["user_id"] == julian.user_id)
    await people.async_delete_item(item["id"])
    await household.async_block_till_done()

    remaining = await household.async_add_executor_job(
        lambda: engine.list_memories(Speaker.administrator(), limit=100)
    )
    assert [m.content for m in remaining] == ["I collect stamps."]


async def test_c17_scope_filters_both_ways(household: HomeAssistant, memory_entry, kitchen, hall) -> None:
    kitchen_mem = await async_call(
        household,
        "remember",
        {
            "content": "The kitchen window sticks; lift it before opening.",
            "scope": "room",
            "area": kitchen.area_id,
        },
    )
    hall_mem = await async_call(
        household,
        "remember",
        {"content": "The hall window is painted shut; never open it.", "scope": "room", "area": hall.area_id},
    )
    shared_mem = await async_call(
        household, "remember", {"content": "All windows get cleaned in April.", "scope": "shared"}
    )

    in_kitchen = _ids(
        await async_call(household, "recall", {"query": "How do I open the window?", "area": kitchen.area_id})
    )
    assert kitchen_mem["memory"]["id"] in in_kitchen
    assert hall_mem["memory"]["id"] not in in_kitchen
    assert shared_mem["memory"]["id"] in in_kitchen

    shared_only = _ids(
        await async_call(
            household, "recall", {"query": "When are the windows cleaned?", "area": kitchen.area_id}
        )
    )
    assert shared_mem["memory"]["id"] in shared_only  # not empty when a shared match exists
    assert hall_mem["memory"]["id"] not in shared_only


C22_COUNT = 5000
_SUBJECTS = [
    "key",
    "charger",
    "umbrella",
    "passport",
    "drill",
    "ladder",
    "torch",
    "scarf",
    "ticket",
    "battery",
]
_PLACES = ["drawer", "shelf", "basket", "box", "cupboard", "bag", "tin", "crate", "case", "jar"]
_COLOURS = ["red", "blue", "green", "yellow", "black", "white", "grey", "orange", "purple", "brown"]


def _c22_texts() -> list[str]:
    return [
        f"Item {i}: the {_COLOURS[i % 10]} {_SUBJECTS[(i // 10) % 10]} is in {_PLACES[(i // 100) % 10]} "
        f"number {i} on level {i // 1000}."
        for i in range(C22_COUNT)
    ]


async def test_c22_bounded_recall(household: HomeAssistant, memory_entry, engine) -> None:
    """5,000 memories: recall through the service respects the configured count and character caps.

    Arranged in bulk (batch-embedded, added to the engine's store in the executor): 5,000
    service calls would test the write path 5,000 times, not the cap.
    """

    def fill() -> None:
        texts = _c22_texts()
        now = datetime.now(UTC)
        for start in range(0, len(texts), 500):
            batch = texts[start : start + 500]
            for text, vector in zip(batch, engine.embedder.embed(batch), strict=True):
                memory = Memory(
                    id=uuid4().hex,
                    content=text,
                    kind=Kind.NOTE,
                    language="en",
                    provenance=Provenance.CONFIRMED,
                    scope=Scope.SHARED,
                    owner_id=None,
                    area_id=None,
                    created_at=now,
                    updated_at=now,
                )
                engine.store.add(memory, vector)

    await household.async_add_executor_job(fill)
    assert await _count(household, engine) == C22_COUNT

    options = memory_entry.runtime_data.recall_options()
    for query, limit in (
        ("Where is the blue key?", None),
        ("Where is the red charger?", 3),
        ("Item 4711", 50),
    ):
        data: dict[str, Any] = {"query": query}
        if limit:
            data["limit"] = limit
        memories = (await async_call(household, "recall", data))["memories"]
        assert 0 < len(memories) <= (limit or options.limit)
        assert sum(len(m["content"]) for m in memories) <= options.max_chars


async def test_find_to_forget_then_forget(household: HomeAssistant, memory_entry, engine) -> None:
    written = await async_call(household, "remember", {"content": "The garden gate code is 4711."})
    candidates = (await async_call(household, "find_to_forget", {"query": "the gate code"}))["candidates"]
    assert candidates[0]["id"] == written["memory"]["id"]

    forgotten = await async_call(household, "forget", {"memory_id": written["memory"]["id"]})
    assert forgotten["forgotten"]["id"] == written["memory"]["id"]
    assert await _count(household, engine) == 0
    assert _ids(await async_call(household, "recall", {"query": "What is the gate code?"})) == []


async def test_recall_withholds_sensitive_memories_from_an_unknown_speaker(
    household: HomeAssistant, memory_entry, julian
) -> None:
    """memory.recall tells what the assistant would: a sensitive memory (a code) matched for an
    unknown speaker is only counted as withheld; the person it is recalled for hears it, and so
    does anyone once the option lets unknown speakers hear sensitive memories."""
    code = (await async_call(household, "remember", {"content": "The garden gate code is 4711."}))["memory"]
    asked = {"query": "What is the gate code?"}
    unknown = await async_call(household, "recall", asked)
    assert (unknown["memories"], unknown["withheld"]) == ([], 1)
    for_julian = await async_call(household, "recall", {**asked, "person": julian.person_id})
    assert (_ids(for_julian), for_julian["withheld"]) == ([code["id"]], 0)

    household.config_entries.async_update_entry(
        memory_entry, options={**memory_entry.options, CONF_SENSITIVE_TO_UNKNOWN: True}
    )
    await household.config_entries.async_reload(memory_entry.entry_id)
    allowed = await async_call(household, "recall", asked)
    assert (_ids(allowed), allowed["withheld"]) == ([code["id"]], 0)


# --- bad input: a translated ServiceValidationError naming the field; nothing is written ----------


async def _assert_invalid(
    hass: HomeAssistant,
    engine: Any,
    service: str,
    data: dict[str, Any],
    expected: tuple[str, str],
    *,
    context: Context | None = None,
) -> None:
    """`expected`: (translation key, field) of the ServiceValidationError."""
    key, field = expected
    before = await _count(hass, engine)
    with pytest.raises(ServiceValidationError) as err:
        await async_call(hass, service, data, context=context)
    assert err.value.translation_domain == "memory"
    assert err.value.translation_key == key
    assert err.value.translation_placeholders == {"field": field}
    assert await _count(hass, engine) == before


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"content": "   "}, ("empty_content", "content")),
        ({"content": "\u200b"}, ("empty_content", "content")),
        ({"content": "\u200b\u200b\u2060"}, ("empty_content", "content")),
        ({"content": "\ufeff"}, ("empty_content", "content")),
        ({"content": "\u3000\u200b"}, ("empty_content", "content")),
        ({"content": "key \ud800 here"}, ("invalid_text", "content")),
        ({"content": "x" * (MAX_CONTENT_CHARS + 1)}, ("content_too_long", "content")),
        ({"content": "A fact.", "person": "person.nobody"}, ("unknown_person", "person")),
        ({"content": "A fact.", "person": "light.kitchen"}, ("unknown_person", "person")),
        ({"content": "A fact.", "area": "attic"}, ("unknown_area", "area")),
        ({"content": "A fact.", "scope": "private"}, ("scope_needs_person", "person")),
        ({"content": "A fact.", "scope": "room"}, ("scope_needs_area", "area")),
        ({"content": "A fact.", "language": "english please"}, ("invalid_language", "language")),
        ({"content": "A fact.", "language": "e"}, ("invalid_language", "language")),
    ],
)
async def test_remember_bad_input(household: HomeAssistant, memory_entry, engine, *, data, expected) -> None:
    await _assert_invalid(household, engine, "remember", data, expected)


async def test_content_at_the_limit_is_accepted(household: HomeAssistant, memory_entry) -> None:
    written = await async_call(household, "remember", {"content": "y" * MAX_CONTENT_CHARS})
    assert len(written["memory"]["content"]) == MAX_CONTENT_CHARS


async def test_recall_bad_input(household: HomeAssistant, memory_entry, engine) -> None:
    await _assert_invalid(household, engine, "recall", {"query": " "}, ("empty_content", "query"))
    await _assert_invalid(
        household, engine, "recall", {"query": "keys", "area": "attic"}, ("unknown_area", "area")
    )
    await _assert_invalid(
        household,
        engine,
        "find_to_forget",
        {"query": "keys", "person": "person.nobody"},
        ("unknown_person", "person"),
    )


async def test_forget_unknown_or_invisible_memory(
    household: HomeAssistant, memory_entry, engine, julian, anna
) -> None:
    private = await async_call(
        household,
        "remember",
        {"content": "My diary is under the bed.", "scope": "private"},
        context=julian.context,
    )
    await _assert_invalid(
        household, engine, "forget", {"memory_id": "no-such-id"}, ("unknown_memory", "memory_id")
    )
    # Anna cannot see (so cannot forget) Julian's private memory; neither can an unknown caller.
    await _assert_invalid(
        household,
        engine,
        "forget",
        {"memory_id": private["memory"]["id"]},
        ("unknown_memory", "memory_id"),
        context=anna.context,
    )
    await _assert_invalid(
        household, engine, "forget", {"memory_id": private["memory"]["id"]}, ("unknown_memory", "memory_id")
    )


async def test_non_admin_cannot_speak_as_someone_else(
    household: HomeAssistant, memory_entry, engine, julian, anna
) -> None:

    await _assert_invalid(
        household,
        engine,
        "recall",
        {"query": "secrets", "person": julian.person_id},
        ("person_not_allowed", "person"),
        context=anna.context,
    )
    await _assert_invalid(
        household,
        engine,
        "forget_person",
        {"person": julian.person_id},
        ("person_not_allowed", "person"),
        context=anna.context,
    )


async def test_forget_person_unknown(household: HomeAssistant, memory_entry, engine) -> None:
    await _assert_invalid(
        household, engine, "forget_person", {"person": "person.nobody"}, ("unknown_person", "person")
    )


async def test_invisible_edges_are_stripped(household: HomeAssistant, memory_entry) -> None:
    written = await async_call(household, "remember", {"content": "\ufeff\u200bThe key is in the tin.\u3000"})
    assert written["memory"]["content"] == "The key is in the tin."


async def test_broken_unicode_in_queries(household: HomeAssistant, memory_entry, engine) -> None:
    """find_to_forget names the field; recall finds nothing (recall never fails)."""
    await async_call(household, "remember", {"content": "The key is in the drawer."})
    await _assert_invalid(
        household, engine, "find_to_forget", {"query": "key \ud800"}, ("invalid_text", "query")
    )
    await _assert_invalid(household, engine, "forget", {"memory_id": "\ud800"}, ("invalid_text", "memory_id"))
    assert await async_call(household, "recall", {"query": "key \ud800"}) == {"memories": []}
