"""Values decide sameness (issue 26), through the memory.remember service: "the temperature is -5
degrees" told after "… 5 degrees" is a new memory, the old one named as likely replaced, never
merged into it (the minus sign was ignored on the real product). Real engine and encoder."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from tests.conftest import async_call, both_stores

pytestmark = both_stores  # touches the store: run on SQLite and PostgreSQL


@pytest.mark.parametrize(
    ("language", "before", "after"),
    [
        ("en", "The temperature is 5 degrees.", "The temperature is -5 degrees."),
        ("de", "Die Temperatur beträgt 5 Grad.", "Die Temperatur beträgt -5 Grad."),
    ],
)
async def test_a_changed_sign_is_a_new_memory_never_merged(  # noqa: PLR0917 - parametrized
    household: HomeAssistant, memory_entry: Any, engine: Any, language: str, before: str, after: str
) -> None:
    first = await async_call(household, "remember", {"content": before, "language": language})
    second = await async_call(household, "remember", {"content": after, "language": language})
    assert (first["action"], second["action"]) == ("created", "created")
    assert second["memory"]["content"] == after and second["memory"]["id"] != first["memory"]["id"]
    assert [(c["id"], c["relation"]) for c in second["conflicts"]] == [(first["memory"]["id"], "replaces")]
    stored = await household.async_add_executor_job(engine.stats)
    assert stored.active == 2  # the old value is kept until someone says it is replaced
    again = await async_call(household, "remember", {"content": after.lower(), "language": language})
    assert (again["action"], again["memory"]["id"]) == ("merged", second["memory"]["id"])
