"""A door that names no audience cannot call the engine (issue 41): every HA-side engine call goes
through engine_calls.async_run, which refuses an engine method that tells memories without the
request's Audience; the audience of each kind of caller is built in audience.py alone."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from custom_components.memory import audience as doors
from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.audience import Audience, Reader
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine_calls import TELLING, async_run

PACKAGE = Path(__file__).resolve().parents[2] / "custom_components" / "memory"


async def test_a_telling_call_without_an_audience_is_refused(
    household: HomeAssistant, memory_entry: Any
) -> None:
    data = memory_entry.runtime_data
    julian = Speaker(person_id="person.julian")
    draft = MemoryDraft("The gate code is 4711.", speaker=julian, scope=Scope.SHARED)
    await async_run(household, data.engine.remember, draft, doors.for_person(data, julian))
    with pytest.raises(TypeError, match="Audience"):
        await async_run(household, data.engine.recall, "gate code", Speaker())
    with pytest.raises(TypeError, match="Audience"):
        await async_run(household, data.engine.list_memories, julian)
    hits = await async_run(household, data.engine.recall, "gate code", doors.for_person(data, Speaker()))
    assert hits and all(h.withheld and h.memory.content == "" for h in hits)
    told = await async_run(household, data.engine.recall, "gate code", doors.for_person(data, julian))
    assert told[0].memory.content == "The gate code is 4711."


async def test_the_household_options_reach_every_audience(
    household: HomeAssistant, memory_entry: Any
) -> None:
    """for_person / async_for_model / async_for_task read the entry's options and nothing else."""
    data = memory_entry.runtime_data
    data.options = {**data.options, "sensitive_to_unknown": True, "cloud_personal": True}
    guest = doors.for_person(data, Speaker())
    assert (guest.reader, guest.sensitive_to_unknown, guest.personal_to_cloud) == (Reader.PERSON, True, True)
    local = await doors.async_for_model(household, data, Speaker(), "conversation")
    cloud = await doors.async_for_model(household, data, Speaker(), "mcp_server")  # an MCP client: cloud
    assert (local.reader, cloud.reader, cloud.cloud) == (Reader.LOCAL_MODEL, Reader.CLOUD_MODEL, True)
    task = await doors.async_for_task(household, data, "ai_task.not_registered")  # unknown: cloud
    assert (task.reader, task.cloud, task.speaker.admin) == (Reader.TASK, True, True)
    assert Audience.administrator() == doors.ADMIN


# Modules that carry the telling options as settings (the options form, exporting them with the
# household's memories), not to decide what anyone is told.
SETTINGS = {"audience.py", "const.py", "config_flow.py", "websocket_transfer.py"}


def _tests(tree: ast.AST) -> list[ast.expr]:
    """Every condition in `tree`: if/while/ternary tests, comprehension filters, boolean operands."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If | ast.While | ast.IfExp | ast.Assert):
            found.append(node.test)
        elif isinstance(node, ast.comprehension):
            found += node.ifs
        elif isinstance(node, ast.BoolOp):
            found += node.values
    return found


def test_doors_build_no_audience_and_decide_nothing_of_their_own() -> None:
    """Only audience.py builds an Audience or reads the telling options; no HA module decides on
    a memory's sensitive flag (the engine does, for the audience it is given)."""
    offenders = []
    for path in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            named = isinstance(node, ast.Name) and node.id in {
                "CONF_SENSITIVE_TO_UNKNOWN",
                "CONF_CLOUD_PERSONAL",
            }
            if named and path.name not in SETTINGS:
                offenders.append(f"{path.name}:{node.lineno} reads {node.id}")  # type: ignore[attr-defined]
            built = (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Audience"
            )
            if built and path.name != "audience.py":
                offenders.append(f"{path.name}:{node.lineno} builds an Audience")  # type: ignore[attr-defined]
        for test in _tests(tree):
            if any(isinstance(n, ast.Attribute) and n.attr == "sensitive" for n in ast.walk(test)):
                offenders.append(f"{path.name}:{test.lineno} decides on .sensitive")
    assert not offenders, offenders


def test_every_engine_method_that_returns_memories_is_guarded() -> None:
    """TELLING names every MemoryEngine method whose result holds a Memory."""
    engine_py = (PACKAGE / "engine" / "engine.py").read_text(encoding="utf-8")
    parts = {"Memories", "Forgetting"}
    exposed = {
        node.targets[0].id  # type: ignore[attr-defined]
        for node in ast.walk(ast.parse(engine_py))
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.value.args) > 1
        and isinstance(node.value.args[1], ast.Attribute)
        and getattr(node.value.args[1].value, "id", "") in parts
    }  # fmt: skip
    actions = {"supersede", "learn", "edit", "forget_person", "is_tombstoned", "tombstones", "lift_tombstone"}
    assert exposed - actions == set(TELLING)
