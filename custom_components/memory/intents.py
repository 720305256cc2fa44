"""The memory sentences and intents: remember, forget (with a yes/no turn), forget
everything about me, and "what do you know about …".

The memory agent matches its own hassil templates (sentences/<lang>.yaml) and then
dispatches through HA's intent machinery (`intent.async_handle`), so the handlers
below are the one place that turns a spoken request into engine calls. Handlers are
registered for the memory platform only: they do not show up as Assist LLM tools
(the "Memory" LLM API has speaker-bound tools of its own).
"""

from __future__ import annotations

import logging
import re
import sys
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import probatio as vol
import yaml
from hassil import Intents, recognize_all
from hassil.models import MatchEntity
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import intent
from homeassistant.util import dt as dt_util

from .answers import base_language, quote_all, reply, spoken_date
from .audience import for_person
from .const import DOMAIN
from .dialogue import Ask, PendingQuestion
from .engine.api import EngineError, InvalidInput, MemoryDraft, StoreUnavailable, WriteAction
from .engine.audience import needs_recognition
from .engine.audience import told as told_only
from .engine.models import Hit, Kind, Memory, Provenance, Scope, Source, Status
from .engine.text import strip_invisible
from .engine.writer import checked_text, scope_for
from .engine_calls import async_recall, async_run
from .judge import async_judge_translations
from .runtime import MemoryConfigEntry, MemoryRuntimeData
from .speaker import areas_named, other_tellers
from .turn import Turn, as_asker, current_turn, error_reply, may_answer, question, start_turn
from .utterances import is_filler

_LOGGER = logging.getLogger(__name__)

INTENT_REMEMBER = "MemoryRemember"
INTENT_FORGET = "MemoryForget"
INTENT_CONFIRM = "MemoryConfirm"  # yes/no to the question a memory sentence asked
INTENT_FORGET_ABOUT_ME = "MemoryForgetAboutMe"
INTENT_WHAT_DO_YOU_KNOW = "MemoryWhatDoYouKnow"

SLOT_CONTENT = "content"
SLOT_QUERY = "query"
SLOT_SCOPE = "scope"
SLOT_ANSWER = "answer"
SLOT_CONVERSATION_ID = "conversation_id"  # the agent passes it: intents carry no conversation id

SENTENCES_DIR = Path(__file__).parent / "sentences"
SENTENCE_LANGUAGES = ("en", "de", "it", "fr", "es")
_DATA_SENTENCES = f"{DOMAIN}_sentences"

# A forget request names the best candidate and those nearly as good (several copies of
# one thing), never a loosely related memory: cosine margin below the top candidate.
FORGET_SIMILARITY_MARGIN = 0.05
FORGET_MAX_CANDIDATES = 3
KNOW_MAX_ITEMS = 3  # "what do you know about …" reads out at most this many memories
ABOUT_ME_LIST_LIMIT = 10_000  # enough to count a person's private memories
ROOM_LIST_LIMIT = 1000  # newest visible memories read for a named room's notes (shared ones included)


# Sentences that state a liking make a `preference`, everything else a `fact`.
_PREFERENCE = {
    "en": (
        r"\bI\s+(?:really\s+|do(?:n't| not)\s+)?(?:like|love|prefer|enjoy|hate|dislike)\b"
        r"|\bI can't stand\b|\bmy favou?rite\b"
    ),
    "de": r"\b(?:mag|mögen|liebe|bevorzuge|hasse)\b|\bLieblings|\blieber\b",  # verb-final clauses too
    "it": r"\bmi\s+piac(?:e|ciono)\b|\b(?:amo|preferisco|odio|adoro)\b|\bpreferit[oaie]\b",
    "fr": r"\bj['\u2019](?:aime|adore|préfère|déteste)\b|\bje\s+(?:préfère|déteste|n['\u2019]aime)\b"
    r"|\bpréféré",
    "es": r"\bme\s+(?:gusta|gustan|encanta|encantan)\b|\b(?:prefiero|odio|adoro)\b|\bfavorit[oa]",
}

_WORD = re.compile(r"\w+(?:['\u2019]\w+)*")


@dataclass(frozen=True, slots=True)
class SentenceMatch:
    """A recognised memory sentence: intent type and slot values (content verbatim)."""

    intent_type: str
    slots: dict[str, str]


def _load_sentences(language: str) -> Intents | None:
    """Read sentences/<language>.yaml (blocking; run in the executor)."""
    path = SENTENCES_DIR / f"{language}.yaml"
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as file:
        return Intents.from_dict(yaml.safe_load(file))


async def async_get_sentences(hass: HomeAssistant, language: str) -> Intents | None:
    """The compiled templates of a language, loaded once per HA run."""
    cache: dict[str, Intents | None] = hass.data.setdefault(_DATA_SENTENCES, {})
    lang = base_language(language)
    if lang not in cache:
        cache[lang] = await hass.async_add_executor_job(_load_sentences, lang)
    return cache[lang]


# verbatim(): a word as the sentences' words are compared (apostrophes join, as in _WORD); combining
# marks belong to their word, so text typed decomposed (NFD) splits where hassil's NFC value does.
_VERBATIM_WORD = re.compile(
    r"[\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+"
    r"(?:['\u2019][\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+)*"
)
# What parts the sentence's literal words from the content: spacing with at most one colon, comma
# or free-standing dash ("Remember: …", "Merk dir, dass …", "Retiens : …", "Remember - …").
_VERBATIM_SEPARATOR = re.compile(r"\s*(?:[:,\uff1a\uff0c]|[-\u2013\u2014](?=\s))?\s*")
_VERBATIM_ATTACHED = re.compile(r"[^\w\s]*")  # punctuation stuck to the content's last word


def verbatim(text: str, value: str) -> str:
    """The part of `text` a (normalised) wildcard `value` came from, exactly as said: from
    right after the sentence's literal words and their separator to the end of the text (or,
    for a wildcard inside the sentence, to its last word and the punctuation stuck to it);
    only invisible characters are trimmed from its ends. Leading punctuation, quotes, line
    breaks and spacing stay ("Remember: '); DROP TABLE memories;--" → "'); DROP TABLE
    memories;--").

    hassil drops punctuation and squeezes whitespace in wildcard values; memories are stored as
    said. The value's words are found again as the last run of the same words in `text`
    (compared NFC case-folded, as hassil compares them); linear in the text's length. Falls back
    to `value` when the words cannot be found again.
    """

    def fold(words: list[str]) -> str:
        """The words as hassil compares them (NFC, U+2019 as ', case-folded), each between NULs (no
        word holds one, and no normalisation joins characters across one)."""
        return unicodedata.normalize("NFC", "\0" + "\0".join(words) + "\0").replace("\u2019", "'").casefold()

    words = _VERBATIM_WORD.findall(value)
    if not words:
        return strip_invisible(value)
    spans = [m.span() for m in _VERBATIM_WORD.finditer(text)]
    # the last run of the value's words among the text's words: one substring search
    joined = fold([text[a:b] for a, b in spans])
    found = joined.rfind(fold(words))
    if found < 0:
        return strip_invisible(value)
    first = joined.count("\0", 0, found)  # index of the run's first word in `spans`
    last = first + len(words) - 1

    def past(pattern: re.Pattern[str], pos: int) -> int:
        match = pattern.match(text, pos)  # both patterns also match nothing
        return match.end() if match else pos

    begin = past(_VERBATIM_SEPARATOR, spans[first - 1][1]) if first else 0
    # nothing but punctuation and spacing after the last word: all of it was said with the content
    end = len(text) if last == len(spans) - 1 else past(_VERBATIM_ATTACHED, spans[last][1])
    return strip_invisible(text[begin:end])


def _literal_chars(text: str, entities: dict[str, MatchEntity]) -> int:
    """How much of the text the template matched literally (more is more specific)."""
    wild = sum(len(e.text or "") for e in entities.values() if e.is_wildcard)
    return len(text) - wild


def match_sentence(intents: Intents, text: str, skip: Collection[str] = ()) -> SentenceMatch | None:
    """Best memory sentence for `text`: the one matching most literal words
    (so "forget everything about me" beats "forget {query}", and "remember that X"
    keeps "that" out of the content); intents in `skip` do not count (yes/no while no
    question waits: Spanish "Olvídalo" is then "forget that", not "no")."""
    best: tuple[int, int, SentenceMatch] | None = None
    for result in recognize_all(text, intents):
        if result.intent.name in skip:
            continue
        slots: dict[str, str] = {}
        for name, entity in result.entities.items():
            value = str(entity.value)
            slots[name] = verbatim(text, value) if entity.is_wildcard else value
        if any(name in (SLOT_CONTENT, SLOT_QUERY) and not value for name, value in slots.items()):
            continue
        rank = (_literal_chars(text, result.entities), len(slots))
        if best is None or rank > best[:2]:
            best = (*rank, SentenceMatch(result.intent.name, slots))
    return best[2] if best else None


def infer_kind(content: str, language: str) -> Kind:
    """`preference` for likings ("I like …", "ich mag …"), otherwise `fact`."""
    pattern = _PREFERENCE.get(base_language(language), _PREFERENCE["en"])
    return Kind.PREFERENCE if re.search(pattern, content, re.IGNORECASE) else Kind.FACT


def forget_candidates(hits: list[Hit]) -> list[Hit]:
    """The top candidate and those within FORGET_SIMILARITY_MARGIN of it."""
    if not hits:
        return []
    top = hits[0].similarity
    return [h for h in hits if h.similarity >= top - FORGET_SIMILARITY_MARGIN][:FORGET_MAX_CANDIDATES]


class _MemoryIntentHandler(intent.IntentHandler):
    """Shared plumbing: the entry's runtime data, the turn's speaker, the reply, engine errors."""

    # Only the memory agent dispatches these; the platform also hides them from Assist's LLM tools.
    platforms = {DOMAIN}  # noqa: RUF012 - HA's IntentHandler API

    def __init__(self, entry: MemoryConfigEntry) -> None:
        self._entry = entry

    @property
    def data(self) -> MemoryRuntimeData:
        return self._entry.runtime_data

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        """Handle the intent; an engine error is answered (turn.error_reply), never raised."""
        try:
            return await self._async_handle(intent_obj)
        except EngineError as err:
            _LOGGER.warning("Memory intent %s: %s", self.intent_type, type(err).__name__)
            return self._respond(intent_obj, error_reply(err))

    async def _async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        raise NotImplementedError

    def _turn(self, intent_obj: intent.Intent) -> Turn:
        """The memory agent's turn (speaker resolved once), or one resolved for this intent when
        it was fired by something else."""
        conversation_id = self._slot(intent_obj, SLOT_CONVERSATION_ID)
        if (turn := current_turn(conversation_id)) is not None:
            return turn
        return start_turn(
            intent_obj.hass,
            self.data.options,
            conversation_id=conversation_id or "",
            text=intent_obj.text_input or "",
            language=intent_obj.language,
            context=intent_obj.context,
            device_id=intent_obj.device_id,
            satellite_id=intent_obj.satellite_id,
            recognizer=self.data.recognizer,
        )

    def _ask(self, turn: Turn, pending: PendingQuestion) -> None:
        """Leave `pending` waiting for this conversation's yes/no (none without a conversation)."""
        if turn.conversation_id:
            self.data.pending[turn.conversation_id] = pending

    @staticmethod
    def _respond(intent_obj: intent.Intent, key: str, **values: Any) -> intent.IntentResponse:
        response = intent_obj.create_response()
        response.async_set_speech(reply(intent_obj.language, key, **values))
        return response

    @staticmethod
    def _slot(intent_obj: intent.Intent, name: str) -> str | None:
        slot = intent_obj.slots.get(name)
        return None if slot is None or slot.get("value") is None else str(slot["value"])


def _quoted(memory: Memory, language: str) -> str:
    """A memory read back to the speaker: quoted, or said to be withheld (its text was not told)."""
    return reply(language, "withheld_item") if memory.withheld is not None else quote_all([memory.content])


async def async_remember_said(
    hass: HomeAssistant,
    data: MemoryRuntimeData,
    turn: Turn,
    content: str,
    *,
    room: bool = False,
    language: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """Store what the speaker of `turn` asked to remember, verbatim and confirmed (scope and kind
    from the words, in `language`, default the turn's), and note it for "forget that"; returns
    the reply key and its values. A restatement of a current memory confirms it ("I knew that
    already: …", no second memory); a memory it likely replaces (facts.Relation.REPLACES) is
    named and asked about ("Should this replace it?", one question per turn; yes: MemoryConfirm
    supersedes it, no: both stay). Only a committed write says "got it" (invariant 5): a store
    that refused it says the memory could not be stored ("remember_failed")."""
    try:
        content = checked_text("content", content, limit=sys.maxsize)  # the writer bounds its length
    except InvalidInput as err:
        return ("remember_invalid" if err.reason == "invalid_text" else "remember_what"), {}
    language = language or turn.language
    if is_filler(content, language):
        return "remember_what", {}
    scope = scope_for(content, language, turn.speaker, room=room)
    draft = MemoryDraft(
        content,
        speaker=turn.speaker,
        scope=scope,
        kind=infer_kind(content, language),
        language=language,
        provenance=Provenance.CONFIRMED,
        source=Source.VOICE,
        source_ref=turn.conversation_id or None,
    )
    audience = for_person(data, turn.speaker)
    try:
        result = await async_run(hass, data.engine.remember, draft, audience)
    except InvalidInput as err:
        return error_reply(err), {}
    except StoreUnavailable:  # unreachable, its file deleted, replaced or damaged: nothing stored
        return "remember_failed", {}
    data.note_remembered(result.memory.id, dt_util.utcnow(), turn.conversation_id, turn.asker)
    if result.action is not WriteAction.CREATED:  # said before, in these or other words
        return "remember_known", {"items": _quoted(result.memory, turn.language)}
    told = told_only(c.memory for c in result.conflicts)  # decided for the speaker by remember
    same, told = await async_judge_translations(hass, data, result.memory, told)
    if same is not None:  # the AI Task judged it the same fact told in another language
        return "remember_known", {"items": _quoted(audience.tell(same), turn.language)}
    if told and turn.conversation_id:
        data.pending[turn.conversation_id] = question(
            turn, Ask.REPLACE, memory_ids=(told[0].id,), replacement=result.memory.id
        )
        return "replace_ask", {"items": quote_all([told[0].content])}
    return f"remembered_{scope.value}", {}


class RememberIntentHandler(_MemoryIntentHandler):
    """MemoryRemember: store the content verbatim (confirmed), then say so; nothing named
    ("Remember that for me.", "Ricordatelo.") asks what to remember and stores nothing."""

    intent_type = INTENT_REMEMBER
    description = "Remembers what the user said"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Optional(SLOT_CONTENT): str,
        vol.Optional(SLOT_SCOPE): vol.In([Scope.ROOM.value]),
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def _async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        content = str(slots[SLOT_CONTENT]["value"]) if SLOT_CONTENT in slots else ""
        turn = self._turn(intent_obj)
        key, values = await async_remember_said(
            intent_obj.hass, self.data, turn, content, room=SLOT_SCOPE in slots
        )
        return self._respond(intent_obj, key, **values)


class ForgetIntentHandler(_MemoryIntentHandler):
    """MemoryForget: name what would be forgotten and wait for yes/no. "Forget that" (nothing
    named) means the memory this speaker or conversation stored last, within a few minutes."""

    intent_type = INTENT_FORGET
    description = "Finds memories to forget and asks for confirmation"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Optional(SLOT_QUERY): str,
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def _async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        turn = self._turn(intent_obj)
        try:
            said = str(slots[SLOT_QUERY]["value"]) if SLOT_QUERY in slots else ""
            query = checked_text("query", said, limit=sys.maxsize)  # the engine bounds its length
        except InvalidInput as err:
            if err.reason != "empty":
                return self._respond(intent_obj, "forget_none")
            query = ""  # "forget" with nothing named: the filler rule below asks what
        if is_filler(query, turn.language):
            candidates = await self._just_remembered(intent_obj, turn)
            if not candidates:
                return self._respond(intent_obj, "forget_what")
        else:
            audience = for_person(self.data, turn.speaker)
            hits = await async_run(intent_obj.hass, self.data.engine.find_to_forget, query, audience)
            candidates = [h.memory for h in forget_candidates(hits)]
        if not candidates:
            return self._respond(intent_obj, "forget_none")
        self._ask(turn, question(turn, Ask.FORGET, memory_ids=tuple(m.id for m in candidates)))
        told = told_only(candidates)
        items = quote_all([m.content for m in told])
        if len(told) < len(candidates):
            items = "; ".join(filter(None, (items, reply(intent_obj.language, "withheld_item"))))
        return self._respond(intent_obj, "forget_ask", items=items)

    async def _just_remembered(self, intent_obj: intent.Intent, turn: Turn) -> list[Memory]:
        """The memory this conversation, else this asker, stored last (still visible), or []."""
        memory_id = self.data.last_remembered(dt_util.utcnow(), turn.conversation_id, turn.asker)
        if memory_id is None:
            return []
        audience = for_person(self.data, turn.speaker)
        memory = await async_run(intent_obj.hass, self.data.engine.get, memory_id, audience)
        return [memory] if memory is not None and memory.status is Status.ACTIVE else []


class ForgetAboutMeIntentHandler(_MemoryIntentHandler):
    """MemoryForgetAboutMe: a recognised speaker's private memories, after a yes. Only for a
    confirmed identity (turn.confirmed: a voice only above the strict threshold); the yes must
    come from the same asker (ConfirmIntentHandler)."""

    intent_type = INTENT_FORGET_ABOUT_ME
    description = "Forgets everything private about the speaker, after confirmation"
    slot_schema = {vol.Optional(SLOT_CONVERSATION_ID): str}  # noqa: RUF012 - HA's IntentHandler API

    async def _async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        speaker = (turn := self._turn(intent_obj)).speaker
        if not speaker.known:
            return self._respond(intent_obj, "about_me_unknown")
        if not turn.confirmed:
            return self._respond(intent_obj, "about_me_unconfirmed")
        visible = await async_run(
            intent_obj.hass,
            self.data.engine.list_memories,
            for_person(self.data, speaker),
            limit=ABOUT_ME_LIST_LIMIT,
        )
        count = sum(1 for m in visible if m.scope is Scope.PRIVATE and m.owner_id == speaker.person_id)
        if not count:
            return self._respond(intent_obj, "about_me_none")
        self._ask(turn, question(turn, Ask.FORGET_PERSON, person_id=speaker.person_id))
        return self._respond(intent_obj, "about_me_ask", count=count)


# "no" to a waiting question: what stays as it was
_DECLINED = {Ask.REMEMBER: "remember_declined", Ask.REPLACE: "kept_both"}


class ConfirmIntentHandler(_MemoryIntentHandler):
    """MemoryConfirm: "yes" does what the waiting question asked (forget, forget everything about
    me, remember a statement), "no" keeps things as they are."""

    intent_type = INTENT_CONFIRM
    description = "Answers a pending memory question with yes or no"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Required(SLOT_ANSWER): vol.In(["yes", "no"]),
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def _async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        conversation_id = self._slot(intent_obj, SLOT_CONVERSATION_ID) or ""
        pending = self.data.pending.get(conversation_id)
        if pending is None:
            return self._respond(intent_obj, "forget_nothing_pending")
        turn = self._turn(intent_obj)
        if not may_answer(turn, pending):  # someone else's question stays open
            return self._respond(intent_obj, "forget_not_yours")
        del self.data.pending[conversation_id]
        turn = as_asker(turn, pending)
        if slots[SLOT_ANSWER]["value"] != "yes":
            return self._respond(intent_obj, _DECLINED.get(pending.ask, "forget_cancelled"))
        hass = intent_obj.hass
        if pending.ask is Ask.REMEMBER:
            key, values = await async_remember_said(
                hass, self.data, turn, pending.content or "", language=pending.language
            )
            return self._respond(intent_obj, key, **values)
        if pending.ask is Ask.REPLACE and pending.replacement is not None:
            try:
                await async_run(
                    hass, self.data.engine.supersede, pending.memory_ids, pending.replacement, turn.speaker
                )
            except InvalidInput:  # forgotten or replaced meanwhile
                return self._respond(intent_obj, "forget_none")
            return self._respond(intent_obj, "replaced")
        if pending.ask is Ask.FORGET_PERSON and pending.person_id is not None:
            count = await async_run(hass, self.data.engine.forget_person, pending.person_id)
            return self._respond(intent_obj, "about_me_done", count=count)
        forgotten = 0
        for memory_id in pending.memory_ids:
            try:
                await async_run(hass, self.data.engine.forget, memory_id, for_person(self.data, turn.speaker))
                forgotten += 1
            except InvalidInput:  # gone meanwhile, or not visible to this speaker
                continue
        if forgotten == 0:
            return self._respond(intent_obj, "forget_none")
        return self._respond(intent_obj, "forgot" if forgotten == 1 else "forgot_many", count=forgotten)


class WhatDoYouKnowIntentHandler(_MemoryIntentHandler):
    """MemoryWhatDoYouKnow: read out the best visible memories about a topic, each from another
    day with its day; sensitive ones an unknown speaker may not hear are said to be withheld."""

    intent_type = INTENT_WHAT_DO_YOU_KNOW
    description = "Tells what the memory holds about a topic"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Required(SLOT_QUERY): intent.non_empty_string,
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def _async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        turn = self._turn(intent_obj)
        query = str(slots[SLOT_QUERY]["value"])
        audience = for_person(self.data, turn.speaker)
        hits = await async_recall(intent_obj.hass, self.data, query, audience, language=turn.language)
        # The speaker's own memories ride along with every recall; for "what do you know
        # about <topic>" they are noise unless nothing else matched (e.g. "… about me").
        matches = [h.memory for h in hits if "about_speaker" not in h.factors] or [h.memory for h in hits]
        if not matches:  # nothing about the topic itself: a room it names has its room notes
            matches = await self._room_notes(intent_obj, turn, query)
        told = told_only(matches)
        kept = len(matches) - len(told)
        if not told:
            if kept:
                return self._respond(intent_obj, "withheld")
            # "… about me" from a stranger: why not, never whether (the same with or without one)
            about_me = needs_recognition(turn.speaker, query, turn.language)
            return self._respond(intent_obj, "needs_recognition" if about_me else "know_nothing")
        said = told[:KNOW_MAX_ITEMS]
        items = quote_all(
            [m.content for m in said],
            other_tellers(intent_obj.hass, turn.speaker, said),
            [said_on(m, intent_obj.language) for m in said],
        )
        if kept:
            items = f"{items}; {reply(intent_obj.language, 'withheld_item')}"
        return self._respond(intent_obj, "know_list", items=items)

    async def _room_notes(self, intent_obj: intent.Intent, turn: Turn, query: str) -> list[Memory]:
        """The current room memories of the areas `query` names (speaker.areas_named), newest
        first ("What do you know about the kitchen?"), told or withheld for the turn's speaker;
        never a private memory."""
        notes: list[Memory] = []
        for area_id in areas_named(intent_obj.hass, query):
            visible = await async_run(
                intent_obj.hass,
                self.data.engine.list_memories,
                for_person(self.data, replace(turn.speaker, area_id=area_id)),
                limit=ROOM_LIST_LIMIT,
            )
            notes += [m for m in visible if m.scope is Scope.ROOM and m.area_id == area_id]
        return notes


def said_on(memory: Memory, language: str | None) -> str | None:
    """The local day `memory` was last said, for speech, or None when that was today."""
    return spoken_date(dt_util.as_local(memory.updated_at).date(), language, dt_util.now().date())


_HANDLERS: tuple[type[_MemoryIntentHandler], ...] = (
    RememberIntentHandler,
    ForgetIntentHandler,
    ForgetAboutMeIntentHandler,
    ConfirmIntentHandler,
    WhatDoYouKnowIntentHandler,
)


@callback
def async_register_intents(hass: HomeAssistant, entry: MemoryConfigEntry) -> Callable[[], None]:
    """Register the memory intent handlers; returns the callable that removes them."""
    for handler_cls in _HANDLERS:
        intent.async_register(hass, handler_cls(entry))

    @callback
    def _unregister() -> None:
        for handler_cls in _HANDLERS:
            intent.async_remove(hass, handler_cls.intent_type)

    return _unregister
