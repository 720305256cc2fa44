"""The consolidation judge asks Home Assistant 2026.11's `ai_task.async_evaluate` (one choice among
the four relations) where it may, and generates an answer otherwise (docs/consolidation.md
"How the judge asks").

The AI Task entity here is a plumbing fake (tests/ha/ai_task_helpers.py): its answers are scripted,
so these tests are about which way the judge asks, what it sends and how it reads the answer —
never about what a model makes of two memories (that is dev/tests/test_learning_real.py, with the
real local model). The tests marked `newest` need async_evaluate and run on Home Assistant
2026.11 (`scripts/test --newest-ha`); on 2026.10.4 they are skipped, and the fallback tests show
that nothing changed there.
"""

from __future__ import annotations

from collections import deque
from datetime import timedelta
from typing import Any

import pytest
from freezegun.api import FrozenDateTimeFactory
from homeassistant.components import ai_task
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from pytest_homeassistant_custom_component.common import async_capture_events, async_fire_time_changed

from custom_components.memory.const import CONF_EXTRACTION_ENTITY, EVENT_MEMORY_CONSOLIDATED
from custom_components.memory.engine.facts import Relation
from custom_components.memory.engine.models import Status
from custom_components.memory.judge import TASK_NAME
from tests.conftest import async_call, setup_memory

from .ai_task_helpers import ScriptedAITask, async_add_ai_task
from .test_consolidation import PUMP, _household_memories, _status

HAS_EVALUATE = hasattr(ai_task, "async_evaluate")
# AITaskEntityFeature.EVALUATE is 8 in 2026.11; before, the same bit means nothing to HA.
EVALUATE = getattr(ai_task.AITaskEntityFeature, "EVALUATE", 8)
newest = pytest.mark.skipif(
    not HAS_EVALUATE,
    reason="ai_task.async_evaluate and the allow_automatic_evaluation preference came with Home "
    "Assistant 2026.11.0; this run has an older one (scripts/test --newest-ha runs these)",
)


class EvaluatingAITask(ScriptedAITask):
    """A scripted entity that also evaluates: records each EvaluationTask and answers its
    `relation` question with the next of `answers` (an Exception is raised)."""

    _attr_supported_features = ai_task.AITaskEntityFeature.GENERATE_DATA | EVALUATE

    def __init__(self) -> None:
        super().__init__()
        self.answers: deque[Any] = deque()
        self.evaluations: list[Any] = []

    async def _async_evaluate(self, task: Any) -> Any:
        self.evaluations.append(task)
        answer = self.answers.popleft()
        if isinstance(answer, Exception):
            raise answer
        return ai_task.EvaluationTaskResult(answers={"relation": answer})


def choice(relation: str, probability: float) -> Any:
    """A ChoiceAnswer: `relation` chosen with `probability`, the rest shared by the others."""
    others = [r.value for r in Relation if r.value != relation]
    rest = (1 - probability) / len(others)
    return ai_task.ChoiceAnswer(
        choice=relation, probabilities={relation: probability} | dict.fromkeys(others, rest)
    )


async def _judged_by(hass: HomeAssistant, entity: ScriptedAITask) -> tuple[Any, ScriptedAITask]:
    """Memory set up with `entity` as its AI Task (the option learning and the judge share)."""
    entry = await setup_memory(hass)
    task, entity_id = await async_add_ai_task(hass, entity=entity)
    hass.config_entries.async_update_entry(
        entry, options={**entry.options, CONF_EXTRACTION_ENTITY: entity_id}
    )
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    return entry, task


async def _allow_automatic_evaluation(hass: HomeAssistant, ws_client: Any, allow: bool) -> None:
    """The household's AI Task setting, set as the UI sets it (admin WebSocket command)."""
    client = await ws_client(hass)
    await client.send_json_auto_id({"type": "ai_task/preferences/set", "allow_automatic_evaluation": allow})
    answer = await client.receive_json()
    assert answer["success"], answer
    assert answer["result"]["allow_automatic_evaluation"] is allow


async def _a_day_passes(hass: HomeAssistant, freezer: FrozenDateTimeFactory) -> None:
    """The daily consolidation runs (frozen clock: `freezer` is requested before set-up)."""
    freezer.tick(timedelta(days=1, seconds=1))
    async_fire_time_changed(hass)
    await hass.async_block_till_done(wait_background_tasks=True)


async def _consolidate_as(hass: HomeAssistant, ws_client: Any, door: str) -> None:
    """A run on demand: an administrator's memory.consolidate, the panel's "Run now", or an
    automation's memory.consolidate (its context has no user)."""
    if door == "panel":
        client = await ws_client(hass)
        await client.send_json_auto_id({"type": "memory/consolidate", "dry_run": False})
        answer = await client.receive_json()
        assert answer["success"], answer
    elif door == "admin":
        admin = await hass.auth.async_create_user("Admin", group_ids=["system-admin"])
        await async_call(hass, "consolidate", {}, context=Context(user_id=admin.id))
    else:
        await async_call(hass, "consolidate", {}, context=Context())


@newest
async def test_the_daily_run_evaluates_when_the_household_allows_it(
    freezer: FrozenDateTimeFactory, household: HomeAssistant, hass_ws_client: Any
) -> None:
    """Automatic evaluation allowed: the daily run asks async_evaluate one choice question — the
    four relations as criteria, the two memories oldest first as the state — and applies the
    choice; no answer is generated."""
    entry, task = await _judged_by(household, EvaluatingAITask())
    assert isinstance(task, EvaluatingAITask)
    await _allow_automatic_evaluation(household, hass_ws_client, True)
    events = async_capture_events(household, EVENT_MEMORY_CONSOLIDATED)
    _, _, garage, cellar = await _household_memories(household, entry)
    task.answers.append(choice("replaces", 0.9))
    await _a_day_passes(household, freezer)
    assert task.calls == []
    (evaluation,) = task.evaluations
    assert evaluation.name == TASK_NAME
    (question,) = evaluation.questions.values()
    assert question["type"] == "choice"
    assert list(question["criteria"]) == [r.value for r in Relation]
    assert evaluation.state.index(PUMP[0]) < evaluation.state.index(PUMP[1])  # older first
    assert await _status(household, entry, garage.id) is Status.SUPERSEDED
    assert await _status(household, entry, cellar.id) is Status.ACTIVE
    assert events[-1].data == {"merged": 1, "superseded": 1, "pruned": 0, "conflicts": 0, "judged": 1}


@pytest.mark.parametrize("door", ["daily", "automation"])
async def test_automatic_runs_generate_while_automatic_evaluation_is_off(
    freezer: FrozenDateTimeFactory, household: HomeAssistant, hass_ws_client: Any, door: str
) -> None:
    """The household's AI Task setting is off (its default; 2026.10.4 has neither the setting nor
    async_evaluate): the daily run and an automation's memory.consolidate generate an answer, as
    before 2026.11, though the entity could evaluate."""
    entry, task = await _judged_by(household, EvaluatingAITask())
    assert isinstance(task, EvaluatingAITask)
    if HAS_EVALUATE:
        client = await hass_ws_client(household)
        await client.send_json_auto_id({"type": "ai_task/preferences/get"})
        assert (await client.receive_json())["result"]["allow_automatic_evaluation"] is False
    _, _, garage, _ = await _household_memories(household, entry)
    task.script.append({"relation": "replaces"})
    if door == "daily":
        await _a_day_passes(household, freezer)
    else:
        await _consolidate_as(household, hass_ws_client, door)
    assert task.evaluations == []
    (call,) = task.calls
    assert PUMP[0] in call.instructions and PUMP[1] in call.instructions
    assert await _status(household, entry, garage.id) is Status.SUPERSEDED


@newest
@pytest.mark.parametrize("door", ["admin", "panel"])
async def test_an_administrator_asking_evaluates_with_automatic_evaluation_off(
    household: HomeAssistant, hass_ws_client: Any, door: str
) -> None:
    """A run an administrator asks for (memory.consolidate with their user, the panel's "Run
    now") is no automatic use: it evaluates although the household's setting is off."""
    entry, task = await _judged_by(household, EvaluatingAITask())
    assert isinstance(task, EvaluatingAITask)
    _, _, garage, cellar = await _household_memories(household, entry)
    task.answers.append(choice("replaces", 0.8))
    await _consolidate_as(household, hass_ws_client, door)
    assert task.calls == []
    assert len(task.evaluations) == 1
    assert await _status(household, entry, garage.id) is Status.SUPERSEDED
    assert await _status(household, entry, cellar.id) is Status.ACTIVE


async def test_an_entity_that_cannot_evaluate_generates(
    household: HomeAssistant, hass_ws_client: Any
) -> None:
    """An AI Task entity without EVALUATE gets the generated-answer task even when evaluating is
    allowed both ways (an administrator asks; on 2026.11 the household allows it too)."""
    entry, task = await _judged_by(household, ScriptedAITask())
    if HAS_EVALUATE:
        await _allow_automatic_evaluation(household, hass_ws_client, True)
    _, _, garage, _ = await _household_memories(household, entry)
    task.script.append({"relation": "replaces"})
    await _consolidate_as(household, hass_ws_client, "admin")
    assert len(task.calls) == 1
    assert await _status(household, entry, garage.id) is Status.SUPERSEDED


@pytest.mark.skipif(HAS_EVALUATE, reason="about Home Assistant before 2026.11, which has no async_evaluate")
async def test_before_2026_11_the_judge_generates(household: HomeAssistant, hass_ws_client: Any) -> None:
    """Without async_evaluate nothing changes: an entity with the bit 2026.11 calls EVALUATE, asked
    by an administrator, still gets the generated-answer task."""
    entry, task = await _judged_by(household, EvaluatingAITask())
    assert isinstance(task, EvaluatingAITask)
    _, _, garage, _ = await _household_memories(household, entry)
    task.script.append({"relation": "replaces"})
    await _consolidate_as(household, hass_ws_client, "panel")
    assert task.evaluations == []
    assert len(task.calls) == 1
    assert await _status(household, entry, garage.id) is Status.SUPERSEDED


def _unclear_answers() -> list[Any]:
    """Evaluations the judge does not act on (built only where 2026.11's answer types exist)."""
    if not HAS_EVALUATE:  # one placeholder, skipped by `newest` with its reason
        return [pytest.param(None, id="needs-2026.11")]
    return [
        pytest.param(choice("replaces", 0.5), id="half-sure"),  # not more than half
        pytest.param(choice("replaces", 0.4), id="less-than-half-sure"),
        pytest.param(choice("probably", 0.9), id="no-relation"),
        pytest.param(ai_task.NoulAnswer(noul=0.9), id="a-yes-no-answer"),
        pytest.param(HomeAssistantError("the model is away"), id="a-failure"),
    ]


@newest
@pytest.mark.parametrize("answer", _unclear_answers())
async def test_an_unsure_or_unreadable_evaluation_leaves_the_pair_for_a_person(
    household: HomeAssistant, hass_ws_client: Any, answer: Any
) -> None:
    """A choice given no more than half the probability, a choice that is no relation, another
    kind of answer or a failure retires nothing: the pair is left for a person and asked about
    again on the next run."""
    entry, task = await _judged_by(household, EvaluatingAITask())
    assert isinstance(task, EvaluatingAITask)
    _, _, garage, cellar = await _household_memories(household, entry)
    task.answers.extend([answer, choice("adds_detail", 0.7)])
    admin = await household.auth.async_create_user("Admin", group_ids=["system-admin"])
    first = await async_call(household, "consolidate", {}, context=Context(user_id=admin.id))
    assert (first["judged"], [(c["older"]["id"], c["newer"]["id"]) for c in first["conflicts"]]) == (
        0,
        [(garage.id, cellar.id)],
    )
    assert await _status(household, entry, garage.id) is Status.ACTIVE
    await _consolidate_as(household, hass_ws_client, "panel")  # asked again: now a clear answer
    assert len(task.evaluations) == 2
    assert {await _status(household, entry, m.id) for m in (garage, cellar)} == {Status.ACTIVE}
