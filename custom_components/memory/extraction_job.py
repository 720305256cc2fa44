"""Learning from conversations, HA side: when a conversation ends, ask an AI Task for memories.

The memory agent notes every turn (`ExtractionJob.note_turn`). A conversation ends when its
chat session is cleaned up (HA drops a session 5 minutes after its last use) or when no turn
came for the idle option (default 10 minutes), whichever is first; it is then extracted once,
in a background task, never on the answer path.

Nothing reaches a model unless every rule holds (docs/learning.md, docs/privacy.md):
consent on, the area not opted out, an AI Task entity chosen; for a cloud entity (its
integration's manifest iot_class, cloud.py) a recognised speaker's conversation is sent only
with the "personal memories to cloud" option; user turns the sensitive detector flags are
never sent (to any model). Only the user's own words are sent (engine.extraction).

The answer goes through parse_candidates (never raises) and MemoryEngine.learn (executor);
`memory_learned` is fired with the counts. EXTRACTION_FAILURES_FOR_REPAIR failed answers in a
row raise a repair issue, the next good one deletes it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import probatio as vol
from homeassistant.components import ai_task
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir
from homeassistant.helpers import selector
from homeassistant.helpers.chat_session import ChatSession
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.util import dt as dt_util

from .audience import async_for_task
from .commands import async_is_device_command
from .const import (
    CONF_EXTRACTION_ENTITY,
    CONF_IDLE_MINUTES,
    CONF_REVIEW,
    DEFAULT_IDLE_MINUTES,
    DEFAULT_REVIEW,
    DOMAIN,
    EVENT_MEMORY_LEARNED,
)
from .engine.extraction import (
    EXTRACTION_SCHEMA,
    MAX_CANDIDATES,
    LearnResult,
    parse_candidates,
    select_user_text,
)
from .engine.models import Role, Speaker, TranscriptTurn
from .engine.sensitive import is_sensitive
from .engine_calls import async_run
from .judge import async_judge_pairs
from .repair_issues import create_issue
from .runtime import MemoryConfigEntry
from .speaker import person_names
from .transcripts import learning_allowed

_LOGGER = logging.getLogger(__name__)

IDLE_CHECK_INTERVAL = timedelta(minutes=1)  # idle ends are found within a minute of the option
EXTRACTION_FAILURES_FOR_REPAIR = 3  # "when it keeps happening" (issue): three failed answers in a row
ISSUE_EXTRACTION_FAILING = "extraction_failing"
TASK_NAME = "Household Memory: learn from a conversation"

# The AI Task `structure`: EXTRACTION_SCHEMA (engine/extraction.py, its one spelling) as HA
# selectors. A number between 0 and 1 (the confidence) is offered in hundredths.
NUMBER_STEP = 0.01


def _selector(prop: dict[str, Any]) -> dict[str, Any]:
    """One answer field of the schema as an HA selector: a choice, a number or a text."""
    if "enum" in prop:
        return {"select": {"options": list(prop["enum"])}}
    if prop["type"] == "number":
        return {"number": {"min": prop["minimum"], "max": prop["maximum"], "step": NUMBER_STEP}}
    return {"text": {}}


def _structure(schema: dict[str, Any]) -> vol.Schema:
    """An object schema of texts and arrays of objects as the AI Task's `structure`."""
    out: dict[Any, Any] = {}
    for name, prop in schema["properties"].items():
        key = vol.Required if name in schema["required"] else vol.Optional
        if prop["type"] == "array":
            item = prop["items"]
            fields: dict[str, selector.ObjectSelectorField] = {
                f: {"required": f in item["required"], "selector": _selector(p)}
                for f, p in item["properties"].items()
            }
            value: Any = selector.ObjectSelector(selector.ObjectSelectorConfig(multiple=True, fields=fields))
        else:
            value = selector.TextSelector()
        out[key(name, description=prop.get("description"))] = value
    return vol.Schema(out)


EXTRACTION_STRUCTURE = _structure(EXTRACTION_SCHEMA)


# Languages named in the instructions: small models keep "French" better than the code "fr"
# (they translated to English with the code alone); other codes are passed as they are.
LANGUAGE_NAMES = {"en": "English", "de": "German", "it": "Italian", "fr": "French", "es": "Spanish"}


def instructions(user_text: str, language: str) -> str:
    """The AI Task's instructions: the rules, then the user's own words (nothing else)."""
    name = LANGUAGE_NAMES.get(language.split("-", maxsplit=1)[0].casefold())
    spoken = f"{name} ({language})" if name else language
    return (
        "Below is what one person said to a home assistant in one conversation (only their own "
        "words; the assistant's replies are not included).\n"
        f"Extract at most {MAX_CANDIDATES} lasting facts worth remembering about the household, its "
        "people, their preferences, plans and where things are. Rules:\n"
        f"- the person spoke {spoken}: write every fact and the summary in {spoken}, never "
        "translated into another language, as a short statement;\n"
        "- a request to the assistant to do something now (lights, heating, temperature, blinds, "
        "music, timers, devices) is a command, not a fact: leave it out, and do not restate it as a "
        "wish or as the state it asks for;\n"
        "- a question is not a fact: never answer it or guess its answer; do not include greetings "
        "or anything the assistant said;\n"
        "- do not include passwords, codes, payment or health details;\n"
        '- subject: who or what the fact is about ("me" when it is about the person speaking, else '
        "a name or thing); predicate: the property as a short English snake_case key, the same key "
        "whenever the same property is meant (e.g. favourite_colour, drinks, likes_food, works_on, "
        "location); value: the property's value in the person's language (e.g. blue, tea);\n"
        "- give a confidence between 0 and 1; return no memories when there is nothing to keep;\n"
        "- summary: one or two sentences about what the person told, in the same language; empty "
        "when there are no memories.\n\n"
        f"What the person said:\n{user_text}"
    )


@dataclass(slots=True)
class _Seen:
    """A conversation the memory agent answered: when its last turn was, who spoke where."""

    last_turn: datetime
    speaker: Speaker
    language: str


class ExtractionJob:
    """Ends conversations and extracts each once (module docstring). One per config entry."""

    def __init__(self, hass: HomeAssistant, entry: MemoryConfigEntry) -> None:
        self.hass = hass
        self.entry = entry
        self.conversations: dict[str, _Seen] = {}
        self.failures = 0  # failed answers in a row (repair issue)
        self.skipped_cloud = 0  # conversations not sent because the entity is cloud (diagnostics)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._unsub: Callable[[], None] | None = None
        self._stopped = False

    @property
    def options(self) -> dict[str, Any]:
        return self.entry.runtime_data.options

    @callback
    def start(self) -> None:
        """Start the idle check (every IDLE_CHECK_INTERVAL)."""
        self._unsub = async_track_time_interval(
            self.hass, self._async_check_idle, IDLE_CHECK_INTERVAL, name=f"{DOMAIN} conversation idle"
        )

    async def async_stop(self) -> None:
        """Stop the idle check and cancel running extractions (unload)."""
        self._stopped = True
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self.conversations.clear()

    @callback
    def note_turn(
        self, conversation_id: str, speaker: Speaker, language: str, session: ChatSession | None = None
    ) -> None:
        """A turn of `conversation_id` was answered; the first one hooks the chat session's end."""
        first = conversation_id not in self.conversations
        self.conversations[conversation_id] = _Seen(dt_util.utcnow(), speaker, language)
        if first and session is not None:
            session.async_on_cleanup(lambda: self.async_end(conversation_id))

    @callback
    def async_end(self, conversation_id: str) -> None:
        """The conversation ended: extract it once in the background (a second end is a no-op)."""
        if self._stopped or (seen := self.conversations.pop(conversation_id, None)) is None:
            return
        task = self.entry.async_create_background_task(
            self.hass, self.async_extract(conversation_id, seen), f"{DOMAIN} extraction {conversation_id}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _async_check_idle(self, now: datetime) -> None:
        idle = timedelta(minutes=float(self.options.get(CONF_IDLE_MINUTES, DEFAULT_IDLE_MINUTES)))
        for conversation_id, seen in list(self.conversations.items()):
            if now - seen.last_turn >= idle:
                self.async_end(conversation_id)

    async def async_extract(self, conversation_id: str, seen: _Seen) -> LearnResult | None:
        """Extract one ended conversation; None when a rule said no (nothing was sent)."""
        options = self.options
        entity_id = options.get(CONF_EXTRACTION_ENTITY)
        if not learning_allowed(options, seen.speaker.area_id) or not entity_id:
            return None
        engine = self.entry.runtime_data.engine
        try:
            await self.entry.runtime_data.transcripts.async_flush()  # its last turns may still be queued
            turns: list[TranscriptTurn] = await async_run(self.hass, engine.conversation, conversation_id)
        except Exception:
            _LOGGER.exception("Could not read the transcript of conversation %s", conversation_id)
            return None
        user_turns = [t for t in turns if t.role is Role.USER]
        # every turn counts: a conversation that moved rooms or speakers is judged by all of them
        if not all(learning_allowed(options, t.area_id) for t in user_turns):
            return None
        personal = seen.speaker.known or any(t.speaker_id for t in user_turns)
        audience = await async_for_task(self.hass, self.entry.runtime_data, entity_id)
        if audience.withholds_text(sensitive=False, personal=personal) is not None:
            self.skipped_cloud += 1
            _LOGGER.info(
                "Not learning from conversation %s: %s is a cloud model and personal memories "
                "may not go to the cloud (option)",
                conversation_id,
                entity_id,
            )
            return None
        said = [  # a sensitive turn is never sent, to any model (invariant 7); nor a command
            (t.role.value, t.text)
            for t in user_turns
            if audience.withholds_text(sensitive=is_sensitive(t.text), personal=personal) is None
            and not await async_is_device_command(self.hass, t.text, t.language or seen.language)
        ]
        if (user_text := select_user_text(said)) is None:
            return None
        try:
            answer = await ai_task.async_generate_data(
                self.hass,
                task_name=TASK_NAME,
                entity_id=entity_id,
                instructions=instructions(user_text, seen.language),
                structure=EXTRACTION_STRUCTURE,
            )
            raw: object = answer.data
        except Exception as err:  # any AI Task failure is a failed answer, never a crash
            _LOGGER.warning(
                "Extraction with %s failed for conversation %s: %s", entity_id, conversation_id, err
            )
            raw = err
        parsed = parse_candidates(raw)
        if parsed.problems:
            _LOGGER.warning(
                "Extraction answer of %s for conversation %s: problems %s (%d candidates read)",
                entity_id,
                conversation_id,
                ", ".join(parsed.problems),
                len(parsed.candidates),
            )
        self._count_failure(parsed.failed, entity_id)
        if parsed.failed:
            return None
        review = bool(options.get(CONF_REVIEW, DEFAULT_REVIEW))
        # a person named as a fact's subject is keyed to that person (engine/extraction.py)
        people = {name: entity_id for entity_id, name in person_names(self.hass).items()}
        try:
            result = await async_run(
                self.hass,
                lambda: engine.learn(
                    parsed.candidates,
                    speaker=seen.speaker,
                    language=seen.language,
                    summary=parsed.summary,
                    review=review,
                    conversation_id=conversation_id,
                    people=people,
                ),
            )
        except Exception:  # EngineError or a bug: logged, and the next conversation still learns
            _LOGGER.exception("Could not store what was learned from conversation %s", conversation_id)
            return None
        self.hass.bus.async_fire(
            EVENT_MEMORY_LEARNED,
            {
                **result.counts(),
                "conversation_id": conversation_id,
                "pending": review and result.stored > 0,  # new memories await memory.approve
                "memory_ids": list(result.ids),
            },
        )
        if result.conflicts:  # (stored, current): the new memory likely replaces a current one
            await async_judge_pairs(
                self.hass, self.entry.runtime_data, ((old, new) for new, old in result.conflicts)
            )
        return result

    def _count_failure(self, failed: bool, entity_id: str) -> None:
        """Count failed answers in a row; the repair issue comes at the threshold, goes on success."""
        if not failed:
            if self.failures >= EXTRACTION_FAILURES_FOR_REPAIR:
                ir.async_delete_issue(self.hass, DOMAIN, ISSUE_EXTRACTION_FAILING)
            self.failures = 0
            return
        self.failures += 1
        if self.failures >= EXTRACTION_FAILURES_FOR_REPAIR:
            create_issue(
                self.hass,
                ISSUE_EXTRACTION_FAILING,
                ir.IssueSeverity.WARNING,
                config_entry_id=self.entry.entry_id,
                entity_id=entity_id,
                count=str(self.failures),
            )


@callback
def async_note_turn(
    hass: HomeAssistant,
    entry: MemoryConfigEntry,
    conversation_id: str,
    *,
    speaker: Speaker,
    language: str,
    session: ChatSession | None = None,
) -> None:
    """The memory agent answered a turn of `conversation_id` (conversation.py's hook)."""
    entry.runtime_data.extraction.note_turn(conversation_id, speaker, language, session)
