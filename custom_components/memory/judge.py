"""Consolidation, HA side: run the engine's pass, ask the AI Task to judge the possible conflicts
it reports, fire `memory_consolidated` (docs/consolidation.md). The same judge settles at write
time what the rules cannot tell: learned candidates' conflicts (extraction_job) and, at the voice
door, a telling in another language (async_judge_translations).

The engine decides nothing it cannot tell from the texts: a likely replacement between memories
without a fact key (facts.Relation.REPLACES) is reported, never retired. When an AI Task entity is
configured (the option extraction uses), each reported pair — at most MAX_JUDGED_PER_RUN per run —
is put to it with the four relations to choose from; only one of the four is applied
(MemoryEngine.settle_pair, which keeps the verdict so the pair is not asked again); any other
answer, or a failure, leaves the pair reported for a person. Never sent: a sensitive memory, and
to a cloud model a personal one (private, or told by a recognised person) without the "personal
memories to cloud" option (docs/privacy.md).

How the AI Task is asked: with Home Assistant 2026.11's `ai_task.async_evaluate` (one choice
question, cheaper than a generated answer) when that exists, the entity supports
`AITaskEntityFeature.EVALUATE` and the evaluation is allowed: asked for by a person (an
administrator's memory.consolidate or the panel's "Run now": a context with a user), or automatic
(the daily run, an automation, learning, the voice door) while the household allows automatic
evaluation (AI Task's `allow_automatic_evaluation` preference, read with
`ai_task.async_is_automatic_evaluation_enabled`; async_evaluate does not check it, its caller
must). Otherwise with `ai_task.async_generate_data` as before (docs/consolidation.md).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import probatio as vol
from homeassistant.components import ai_task
from homeassistant.const import ATTR_SUPPORTED_FEATURES
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import selector
from homeassistant.helpers.storage import Store
from homeassistant.util import dt as dt_util

from .audience import ADMIN, async_for_task
from .const import (
    CONF_EXTRACTION_ENTITY,
    DOMAIN,
    EVENT_MEMORY_CONSOLIDATED,
)
from .engine.api import ConsolidationReport, EngineError
from .engine.facts import Relation
from .engine.language import base as lang_base
from .engine.models import Memory, Status
from .engine_calls import async_run
from .runtime import MemoryConfigEntry, MemoryRuntimeData

_LOGGER = logging.getLogger(__name__)

# What the last real consolidation run left, kept over restarts in HA's storage
# (.storage/memory.<entry id>.consolidation): when it ended and the possible conflicts it left.
CONSOLIDATION_STORE_VERSION = 1
MAX_JUDGED_PER_RUN = 10  # AI Task calls per consolidation run or conversation: bounded cost and time
TASK_NAME = "Household Memory: judge two memories"

JUDGE_STRUCTURE = vol.Schema(
    {
        vol.Required("relation", description="How the newer memory stands to the older one"): (
            selector.SelectSelector(selector.SelectSelectorConfig(options=[r.value for r in Relation]))
        ),
    }
)


# What each relation means, in the words both ways of asking use (instructions, CRITERIA).
MEANINGS: dict[Relation, str] = {
    Relation.SAME: "both say the same fact (other words or another language: a translation is the same fact)",
    Relation.REPLACES: (
        "the newer one gives the same thing another value, so the older one is no longer true (e.g. "
        "something moved to another place, a day or number changed, a habit stopped)"
    ),
    Relation.ADDS_DETAIL: "the newer one tells more about the same thing, and the older one stays true",
    Relation.UNRELATED: "they are about different things",
}
QUESTION = (
    "A household assistant remembers short statements. Decide how the NEWER statement stands to the OLDER one"
)
# async_evaluate: the choice is applied only when the model gives it more than half of the
# probability (surer of it than of the three others together); else the pair is left for a person.
MIN_CHOICE_PROBABILITY = 0.5


def pair_text(older: Memory, newer: Memory) -> str:
    """The two memories, oldest first, each with the day it was told."""
    return (
        f"OLDER ({older.created_at.date().isoformat()}): {older.content}\n"
        f"NEWER ({newer.created_at.date().isoformat()}): {newer.content}"
    )


def instructions(older: Memory, newer: Memory) -> str:
    """The AI Task's instructions: the four relations, then the two memories (oldest first)."""
    relations = ";\n".join(f"- {r.value}: {MEANINGS[r]}" for r in Relation)
    return (
        f"{QUESTION} and answer with exactly one relation:\n{relations}.\n"
        "When unsure, answer unrelated.\n\n" + pair_text(older, newer)
    )


def evaluation_questions() -> dict[str, Any]:
    """async_evaluate's questions: one choice among the four relations (the state: pair_text)."""
    return {
        "relation": {
            "type": "choice",
            "instructions": f"{QUESTION} (the state gives both). When unsure, choose unrelated.",
            "criteria": {r.value: MEANINGS[r] for r in Relation},
        }
    }


def evaluation_verdict(result: object) -> Relation | None:
    """The relation an evaluation chose with more than MIN_CHOICE_PROBABILITY; else None."""
    answers = getattr(result, "answers", None)
    answer = answers.get("relation") if isinstance(answers, dict) else None
    if getattr(answer, "type", None) != "choice":
        return None
    choice = getattr(answer, "choice", None)
    probabilities = getattr(answer, "probabilities", None)
    verdict = verdict_of(choice)
    if verdict is None or not isinstance(probabilities, dict):
        return None
    probability = probabilities.get(choice)
    if not isinstance(probability, int | float) or not probability > MIN_CHOICE_PROBABILITY:
        return None
    return verdict


def verdict_of(data: object) -> Relation | None:
    """The relation an answer names, when it names exactly one of the four; else None."""
    raw = data.get("relation") if isinstance(data, dict) else data
    if not isinstance(raw, str):
        return None
    try:
        return Relation(raw.strip().casefold())
    except ValueError:
        return None


@dataclass(slots=True)
class Judged:
    """What the judge did with the pairs put to it: the verdicts applied (pair, relation, retired
    ids) and the pairs left for a person."""

    applied: list[tuple[tuple[str, str], Relation, tuple[str, ...]]] = field(default_factory=list)
    left: list[tuple[str, str]] = field(default_factory=list)

    def count(self, status: Status) -> int:
        """Memories the applied verdicts retired with `status` (SAME: ARCHIVED, REPLACES: SUPERSEDED)."""
        relation = Relation.SAME if status is Status.ARCHIVED else Relation.REPLACES
        return sum(len(retired) for _, r, retired in self.applied if r is relation)


async def async_judge_pairs(
    hass: HomeAssistant,
    data: MemoryRuntimeData,
    pairs: Iterable[tuple[str, str]],
    *,
    settles: frozenset[Relation] = frozenset(Relation),
    context: Context | None = None,
) -> Judged:
    """Ask the configured AI Task about each (older_id, newer_id) pair, at most MAX_JUDGED_PER_RUN,
    and apply each clear verdict among `settles` (default all four); any other verdict, or
    without an entity every pair, is left (for a person). `context`: the request of the person
    who asked for this (a user's memory.consolidate, the panel); without a user it is automatic
    (module docstring: which way the AI Task is asked)."""
    judged = Judged()
    todo = list(dict.fromkeys(pairs))
    entity_id = data.options.get(CONF_EXTRACTION_ENTITY)
    if not entity_id:
        judged.left = todo
        return judged
    asked_by_person = context is not None and context.user_id is not None
    evaluate = _evaluation(hass, entity_id, asked_by_person=asked_by_person)
    engine = data.engine
    audience = await async_for_task(hass, data, entity_id)  # what the AI Task may be sent
    for index, (older_id, newer_id) in enumerate(todo):
        if index >= MAX_JUDGED_PER_RUN:
            judged.left.extend(todo[index:])
            break
        older = await async_run(hass, engine.get, older_id, audience)
        newer = await async_run(hass, engine.get, newer_id, audience)
        if (
            older is None
            or newer is None
            or not _current(older, newer)
            or older.withheld is not None  # sensitive, or personal to a cloud model without consent
            or newer.withheld is not None
        ):
            judged.left.append((older_id, newer_id))
            continue
        older, newer = sorted((older, newer), key=lambda m: (m.created_at, m.id))
        try:
            if evaluate is not None:
                result = await evaluate(
                    hass,
                    task_name=TASK_NAME,
                    entity_id=entity_id,
                    questions=evaluation_questions(),
                    state=pair_text(older, newer),
                    context=context if asked_by_person else None,
                )
                verdict = evaluation_verdict(result)
                _LOGGER.debug("%s evaluated %s / %s: %r", entity_id, older.id, newer.id, result)
            else:
                answer = await ai_task.async_generate_data(
                    hass,
                    task_name=TASK_NAME,
                    entity_id=entity_id,
                    instructions=instructions(older, newer),
                    structure=JUDGE_STRUCTURE,
                )
                verdict = verdict_of(answer.data)
                _LOGGER.debug("%s judged %s / %s: %r", entity_id, older.id, newer.id, answer.data)
        except Exception as err:  # any AI Task failure leaves the pair for a person
            _LOGGER.warning("Judging two memories with %s failed: %s", entity_id, err)
            verdict = None
        if verdict is None or verdict not in settles:
            judged.left.append((older_id, newer_id))
            continue
        try:
            retired = await async_run(hass, engine.settle_pair, older.id, newer.id, verdict)
        except EngineError:
            _LOGGER.exception("Could not apply the verdict on two memories")
            judged.left.append((older_id, newer_id))
            continue
        judged.applied.append(((older_id, newer_id), verdict, retired))
    return judged


async def async_judge_translations(
    hass: HomeAssistant, data: MemoryRuntimeData, new: Memory, conflicts: Sequence[Memory]
) -> tuple[Memory | None, list[Memory]]:
    """At the voice door, before the person is asked: each of `conflicts` (current memories `new`
    likely replaces, facts.Relation.REPLACES) told in another language than `new` is put to the
    configured AI Task, because the encoder cannot tell a translation from another thing in the
    same sentence frame (docs/consolidation.md). SAME merges the two (settle_pair: one current
    memory, both tellings in its history); UNRELATED and ADDS_DETAIL keep both, unasked;
    REPLACES, no clear answer or no entity leave the conflict to be asked about (a replacement
    is the person's to confirm, as in one language).
    Returns (the memory that holds after a SAME, else None; the conflicts still to ask about)."""
    language = lang_base(new.language)
    across = [m for m in conflicts if lang_base(m.language) != language]
    if not across:
        return None, list(conflicts)
    judged = await async_judge_pairs(
        hass, data, ((m.id, new.id) for m in across), settles=frozenset(Relation) - {Relation.REPLACES}
    )
    settled = {older: (verdict, retired) for (older, _), verdict, retired in judged.applied}
    for older in across:
        verdict, retired = settled.get(older.id, (None, ()))
        if verdict is Relation.SAME:
            holds = older if new.id in retired else new
            return await async_run(hass, data.engine.get, holds.id, ADMIN) or holds, []
    return None, [m for m in conflicts if m.id not in settled]


def _evaluation(hass: HomeAssistant, entity_id: str, *, asked_by_person: bool) -> Any:
    """`ai_task.async_evaluate` when the judge may use it for `entity_id`, else None (the judge
    generates an answer): Home Assistant has it (2026.11), the entity's state says it supports
    EVALUATE, and a person asked or the household allows automatic evaluation (AI Task's
    `allow_automatic_evaluation` preference: async_evaluate does not check it, its caller must)."""
    evaluate = getattr(ai_task, "async_evaluate", None)
    feature = getattr(ai_task.AITaskEntityFeature, "EVALUATE", None)
    if evaluate is None or feature is None:
        return None  # Home Assistant before 2026.11
    state = hass.states.get(entity_id)
    features = state.attributes.get(ATTR_SUPPORTED_FEATURES, 0) if state else 0
    if not isinstance(features, int) or not features & feature:
        return None
    if not asked_by_person:
        allowed = getattr(ai_task, "async_is_automatic_evaluation_enabled", None)
        if allowed is None or not allowed(hass):
            _LOGGER.debug("Automatic evaluation is not allowed (AI Task settings): %s generates", entity_id)
            return None
    return evaluate


def _current(*memories: Memory) -> bool:
    """Both still current (a pending one is settled by its review, a retired one by nothing)."""
    return all(m.status is Status.ACTIVE for m in memories)


async def async_consolidate(
    hass: HomeAssistant, entry: MemoryConfigEntry, *, dry_run: bool = False, context: Context | None = None
) -> tuple[ConsolidationReport, Judged]:
    """One consolidation run (the service, the daily schedule): the engine's pass, then the judge
    on its possible conflicts; the report's counts include the verdicts applied and its
    `conflicts` are the pairs left for a person. dry_run: the engine's plan only (no judge, no
    event). After a real run `memory_consolidated` is fired with the counts (no text).
    `context`: the request that started the run (its user: a person asked; None, the daily
    run: automatic). Raises EngineError."""
    engine = entry.runtime_data.engine
    report: ConsolidationReport = await async_run(hass, engine.consolidate, dry_run=dry_run)
    if dry_run:
        return report, Judged(left=[(c.older_id, c.newer_id) for c in report.conflicts])
    judged = await async_judge_pairs(
        hass, entry.runtime_data, ((c.older_id, c.newer_id) for c in report.conflicts), context=context
    )
    left = set(judged.left)
    report = replace(
        report,
        merged=report.merged + judged.count(Status.ARCHIVED),
        superseded=report.superseded + judged.count(Status.SUPERSEDED),
        conflicts=tuple(c for c in report.conflicts if (c.older_id, c.newer_id) in left),
    )
    await async_note_consolidation(entry, dt_util.utcnow(), len(report.conflicts))
    hass.bus.async_fire(EVENT_MEMORY_CONSOLIDATED, {**report.counts(), "judged": len(judged.applied)})
    return report, judged


def consolidation_store(hass: HomeAssistant, entry_id: str) -> Store[dict[str, Any]]:
    """The entry's record of its last consolidation run in HA's storage."""
    return Store(hass, CONSOLIDATION_STORE_VERSION, f"{DOMAIN}.{entry_id}.consolidation")


async def async_load_consolidation(store: Store[dict[str, Any]]) -> tuple[datetime | None, int | None]:
    """At set-up, for the runtime data: when the last run (of any earlier start) ended and the
    possible conflicts it left, from `store` (consolidation_store); (None, None) when none ran or
    the record cannot be read."""
    record = await store.async_load()
    if not isinstance(record, dict):
        return None, None
    last = dt_util.parse_datetime(str(record.get("last_consolidation") or ""))
    conflicts = record.get("possible_conflicts")
    if last is None or last.tzinfo is None:
        return None, None
    return last, conflicts if isinstance(conflicts, int) and conflicts >= 0 else None


async def async_note_consolidation(entry: MemoryConfigEntry, ended: datetime, conflicts: int) -> None:
    """The one place that records a real consolidation run: `ended` (aware UTC) and the possible
    conflicts it left, in the runtime (memory/overview, diagnostics) and in HA's storage."""
    data = entry.runtime_data
    data.last_consolidation = ended
    data.possible_conflicts = conflicts
    await data.consolidation_store.async_save(
        {"last_consolidation": ended.isoformat(), "possible_conflicts": conflicts}
    )
