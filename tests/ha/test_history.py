"""Truth over time through the household's doors (issue 13): Julian changes his drink in two
conversations (learning, a scripted AI Task proposing the fact's key); memory.history shows both
values with the time each held, and memory.recall `as_of` a moment before the change finds the old
one. Time is frozen and moved by the test (freezer), never the wall clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.util import dt as dt_util

from tests.conftest import Resident, Room, async_call

from .test_learning_supersede import _talk, preference

COFFEE, TEA = "I drink coffee in the morning.", "I drink tea in the morning now."
QUESTION = "What do I drink in the morning?"
HISTORY_KEYS = {
    "id", "content", "kind", "scope", "provenance", "language", "person", "said_by", "area",
    "created_at", "status", "superseded_by", "valid_from", "valid_to", "withheld",
}  # fmt: skip


async def _coffee_then_tea(
    hass: HomeAssistant, freezer: FrozenDateTimeFactory, julian: Resident, kitchen: Room
) -> tuple[str, str]:
    """Julian's coffee, then a day later his tea; returns their ids."""
    talk = await _talk(hass, freezer, julian, kitchen)
    coffee = await talk.tell(COFFEE, preference(COFFEE, "drinks", "coffee"))
    freezer.tick(timedelta(days=1))
    tea = await talk.tell(TEA, preference(TEA, "drinks", "tea"))
    assert tea["superseded"] == 1
    return coffee["memory_ids"][0], tea["memory_ids"][0]


async def test_history_and_recall_as_of(
    household: HomeAssistant, julian: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    coffee_id, tea_id = await _coffee_then_tea(household, freezer, julian, kitchen)

    async def recalled(**as_of: str) -> list[str]:
        found = await async_call(household, "recall", {"query": QUESTION, **as_of}, context=julian.context)
        return [m["content"] for m in found["memories"]]

    for asked in (tea_id, coffee_id):  # any value of the fact gives its whole history
        found = await async_call(household, "history", {"memory_id": asked}, context=julian.context)
        tea, coffee = found["history"]  # newest first
        assert {*tea} == {*coffee} == HISTORY_KEYS
        assert (tea["id"], tea["content"], tea["status"], tea["superseded_by"], tea["valid_to"]) == (
            tea_id, TEA, "active", None, None,
        )  # fmt: skip
        assert (coffee["id"], coffee["status"], coffee["superseded_by"]) == (coffee_id, "superseded", tea_id)
        assert coffee["valid_to"] == tea["valid_from"] == tea["created_at"]
        assert coffee["valid_from"] == coffee["created_at"]
        assert (coffee["said_by"], coffee["person"]) == (julian.person_id, julian.person_id)

    changed = datetime.fromisoformat(tea["valid_from"])
    before = datetime.fromisoformat(coffee["valid_from"]) + timedelta(hours=1)
    assert before < changed
    assert await recalled() == [TEA]
    assert await recalled(as_of=before.isoformat()) == [COFFEE]
    assert await recalled(as_of=(changed + timedelta(seconds=1)).isoformat()) == [TEA]
    # a date and time without a zone is in HA's time zone (the test's is not UTC)
    assert dt_util.get_default_time_zone().utcoffset(before.replace(tzinfo=None)) != timedelta(0)
    local = dt_util.as_local(before).replace(tzinfo=None).isoformat(sep=" ", timespec="seconds")
    assert await recalled(as_of=local) == [COFFEE]


async def test_history_of_anothers_memory_is_unknown(
    household: HomeAssistant, julian: Resident, anna: Resident, kitchen: Room, freezer: FrozenDateTimeFactory
) -> None:
    coffee_id, tea_id = await _coffee_then_tea(household, freezer, julian, kitchen)
    for memory_id, context in (
        (tea_id, anna.context),
        (coffee_id, anna.context),
        ("no-such-id", julian.context),
    ):
        with pytest.raises(ServiceValidationError) as err:
            await async_call(household, "history", {"memory_id": memory_id}, context=context)
        assert err.value.translation_key == "unknown_memory"
        assert err.value.translation_placeholders == {"field": "memory_id"}
    before = {"query": QUESTION, "as_of": (dt_util.utcnow() - timedelta(hours=12)).isoformat()}
    julians = await async_call(household, "recall", before, context=julian.context)
    assert [m["content"] for m in julians["memories"]] == [COFFEE]
    annas = await async_call(household, "recall", before, context=anna.context)
    assert annas["memories"] == []  # looking back sees no more than looking now


async def test_a_remembered_fact_is_its_own_history(household: HomeAssistant, memory_entry: Any) -> None:
    written = await async_call(household, "remember", {"content": "The bins go out on Thursday evening."})
    (only,) = (await async_call(household, "history", {"memory_id": written["memory"]["id"]}))["history"]
    assert only == {
        **written["memory"],
        "status": "active",
        "superseded_by": None,
        "valid_from": written["memory"]["created_at"],
        "valid_to": None,
    }


@pytest.mark.parametrize("as_of", ["next Tuesday", "2026-13-01 09:00", "23.11.2026 09:00"])
async def test_as_of_must_be_a_date_and_time(household: HomeAssistant, memory_entry: Any, as_of: str) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "recall", {"query": QUESTION, "as_of": as_of})
    assert err.value.translation_key == "invalid_datetime"
    assert err.value.translation_placeholders == {"field": "as_of"}


async def test_find_to_forget_does_not_look_back(household: HomeAssistant, memory_entry: Any) -> None:
    """as_of belongs to recall: forgetting acts on what is current."""
    with pytest.raises(Exception, match="as_of"):
        await async_call(household, "find_to_forget", {"query": QUESTION, "as_of": "2026-11-23 09:00"})
