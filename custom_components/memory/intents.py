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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import voluptuous as vol
import yaml
from hassil import Intents, recognize_all
from hassil.models import MatchEntity
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import intent

from .answers import base_language, quote_all, reply
from .const import DOMAIN
from .engine.api import EngineError, InvalidInput
from .engine.models import Hit, Kind, Provenance, Scope, Source, Speaker
from .runtime import MemoryConfigEntry, MemoryRuntimeData, async_recall, async_run
from .speaker import async_resolve_speaker

_LOGGER = logging.getLogger(__name__)

INTENT_REMEMBER = "MemoryRemember"
INTENT_FORGET = "MemoryForget"
INTENT_FORGET_CONFIRM = "MemoryForgetConfirm"
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

# Words that make a memory about the speaker ("I", "my", …) per language.
_FIRST_PERSON: dict[str, frozenset[str]] = {
    "en": frozenset({"i", "i'm", "i've", "i'd", "i'll", "my", "me", "mine", "myself"}),
    "de": frozenset({"ich", "mein", "meine", "meinen", "meinem", "meiner", "meines", "mir", "mich"}),
    "it": frozenset({"io", "mio", "mia", "miei", "mie", "mi", "me"}),
    "fr": frozenset({"je", "moi", "mon", "ma", "mes", "me"}),
    "es": frozenset({"yo", "mi", "mis", "me", "mío", "mía", "míos", "mías"}),
}
_FIRST_PERSON_ELISIONS: dict[str, tuple[str, ...]] = {"fr": ("j'", "m'", "j\u2019", "m\u2019")}

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


def verbatim(text: str, value: str) -> str:
    """The part of `text` a (normalised) wildcard `value` came from, with the user's
    own punctuation and casing; trailing punctuation up to the end is kept.

    hassil drops punctuation from wildcard values; memories are stored as said.
    Falls back to `value` when the words cannot be found again.
    """
    words = [w.casefold() for w in _WORD.findall(value)]
    if not words:
        return value.strip()
    spans = list(_WORD.finditer(text))
    tokens = [m.group().casefold() for m in spans]
    for start in range(len(tokens) - len(words), -1, -1):  # wildcards sit at the end: search backwards
        if tokens[start : start + len(words)] == words:
            begin = spans[start].start()
            end = spans[start + len(words) - 1].end()
            rest = text[end:]
            if not _WORD.search(rest):  # only punctuation/space follows: keep it ("…im Flur.")
                end = len(text.rstrip())
            return text[begin:end].strip()
    return value.strip()


def _literal_chars(text: str, entities: dict[str, MatchEntity]) -> int:
    """How much of the text the template matched literally (more is more specific)."""
    wild = sum(len(e.text or "") for e in entities.values() if e.is_wildcard)
    return len(text) - wild


def match_sentence(intents: Intents, text: str) -> SentenceMatch | None:
    """Best memory sentence for `text`: the one matching most literal words
    (so "forget everything about me" beats "forget {query}", and "remember that X"
    keeps "that" out of the content)."""
    best: tuple[int, int, SentenceMatch] | None = None
    for result in recognize_all(text, intents):
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


def is_about_speaker(content: str, language: str) -> bool:
    """True when the memory is in the first person ("I …", "my …", "mein …")."""
    lang = base_language(language)
    words = {w.casefold() for w in _WORD.findall(content)}
    if words & _FIRST_PERSON.get(lang, _FIRST_PERSON["en"]):
        return True
    elisions = _FIRST_PERSON_ELISIONS.get(lang, ())
    return any(w.startswith(elisions) for w in words)


def infer_kind(content: str, language: str) -> Kind:
    """`preference` for likings ("I like …", "ich mag …"), otherwise `fact`."""
    pattern = _PREFERENCE.get(base_language(language), _PREFERENCE["en"])
    return Kind.PREFERENCE if re.search(pattern, content, re.IGNORECASE) else Kind.FACT


def infer_scope(content: str, language: str, speaker: Speaker, room: bool = False) -> Scope:
    """ROOM when asked for this room; PRIVATE when about a recognised speaker; else SHARED."""
    if room:
        return Scope.ROOM
    if speaker.known and is_about_speaker(content, language):
        return Scope.PRIVATE
    return Scope.SHARED


def forget_candidates(hits: list[Hit]) -> list[Hit]:
    """The top candidate and those within FORGET_SIMILARITY_MARGIN of it."""
    if not hits:
        return []
    top = hits[0].similarity
    return [h for h in hits if h.similarity >= top - FORGET_SIMILARITY_MARGIN][:FORGET_MAX_CANDIDATES]


class _MemoryIntentHandler(intent.IntentHandler):
    """Shared plumbing: the entry's runtime data, the speaker and the reply."""

    # Only the memory agent dispatches these; the platform also hides them from Assist's LLM tools.
    platforms = {DOMAIN}  # noqa: RUF012 - HA's IntentHandler API

    def __init__(self, entry: MemoryConfigEntry) -> None:
        self._entry = entry

    @property
    def data(self) -> MemoryRuntimeData:
        return self._entry.runtime_data

    async def _speaker(self, intent_obj: intent.Intent) -> Speaker:
        return await async_resolve_speaker(
            intent_obj.hass,
            context=intent_obj.context,
            device_id=intent_obj.device_id,
            satellite_id=intent_obj.satellite_id,
            options=self.data.options,
        )

    @staticmethod
    def _respond(intent_obj: intent.Intent, key: str, **values: Any) -> intent.IntentResponse:
        response = intent_obj.create_response()
        response.async_set_speech(reply(intent_obj.language, key, **values))
        return response

    @staticmethod
    def _slot(intent_obj: intent.Intent, name: str) -> str | None:
        slot = intent_obj.slots.get(name)
        return None if slot is None or slot.get("value") is None else str(slot["value"])


class RememberIntentHandler(_MemoryIntentHandler):
    """MemoryRemember: store the content verbatim (confirmed), then say so."""

    intent_type = INTENT_REMEMBER
    description = "Remembers what the user said"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Required(SLOT_CONTENT): intent.non_empty_string,
        vol.Optional(SLOT_SCOPE): vol.In([Scope.ROOM.value]),
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        content = str(slots[SLOT_CONTENT]["value"]).strip()
        language = base_language(intent_obj.language)
        speaker = await self._speaker(intent_obj)
        scope = infer_scope(content, language, speaker, room=SLOT_SCOPE in slots)
        try:
            await async_run(
                intent_obj.hass,
                self.data.engine.remember,
                content,
                speaker=speaker,
                scope=scope,
                kind=infer_kind(content, language),
                language=language,
                provenance=Provenance.CONFIRMED,
                source=Source.VOICE,
                source_ref=self._slot(intent_obj, SLOT_CONVERSATION_ID),
            )
        except InvalidInput as err:
            key = "remember_no_room" if err.reason == "scope_needs_area" else "remember_invalid"
            return self._respond(intent_obj, key)
        except EngineError:
            _LOGGER.warning("Memory store unavailable while remembering")
            return self._respond(intent_obj, "store_unavailable")
        # The engine committed before returning: only now say "got it" (invariant 5).
        return self._respond(intent_obj, f"remembered_{scope.value}")


class ForgetIntentHandler(_MemoryIntentHandler):
    """MemoryForget: name what would be forgotten and wait for yes/no."""

    intent_type = INTENT_FORGET
    description = "Finds memories to forget and asks for confirmation"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Required(SLOT_QUERY): intent.non_empty_string,
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        speaker = await self._speaker(intent_obj)
        try:
            hits = await async_run(
                intent_obj.hass, self.data.engine.find_to_forget, str(slots[SLOT_QUERY]["value"]), speaker
            )
        except EngineError:
            return self._respond(intent_obj, "store_unavailable")
        candidates = forget_candidates(hits)
        if not candidates:
            return self._respond(intent_obj, "forget_none")
        if conversation_id := self._slot(intent_obj, SLOT_CONVERSATION_ID):
            self.data.pending_forget[conversation_id] = [h.memory.id for h in candidates]
        return self._respond(
            intent_obj, "forget_ask", items=quote_all([h.memory.content for h in candidates])
        )


class ForgetAboutMeIntentHandler(_MemoryIntentHandler):
    """MemoryForgetAboutMe: a recognised speaker's private memories, after a yes."""

    intent_type = INTENT_FORGET_ABOUT_ME
    description = "Forgets everything private about the speaker, after confirmation"
    slot_schema = {vol.Optional(SLOT_CONVERSATION_ID): str}  # noqa: RUF012 - HA's IntentHandler API

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        speaker = await self._speaker(intent_obj)
        if not speaker.known:
            return self._respond(intent_obj, "about_me_unknown")
        try:
            visible = await async_run(
                intent_obj.hass, self.data.engine.list_memories, speaker, limit=ABOUT_ME_LIST_LIMIT
            )
        except EngineError:
            return self._respond(intent_obj, "store_unavailable")
        count = sum(1 for m in visible if m.scope is Scope.PRIVATE and m.owner_id == speaker.person_id)
        if not count:
            return self._respond(intent_obj, "about_me_none")
        if conversation_id := self._slot(intent_obj, SLOT_CONVERSATION_ID):
            self.data.pending_forget_person[conversation_id] = str(speaker.person_id)
        return self._respond(intent_obj, "about_me_ask", count=count)


class ForgetConfirmIntentHandler(_MemoryIntentHandler):
    """MemoryForgetConfirm: "yes" forgets what was asked about, "no" keeps it."""

    intent_type = INTENT_FORGET_CONFIRM
    description = "Confirms or cancels a pending forget"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Required(SLOT_ANSWER): vol.In(["yes", "no"]),
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        conversation_id = self._slot(intent_obj, SLOT_CONVERSATION_ID) or ""
        person_id = self.data.pending_forget_person.pop(conversation_id, None)
        memory_ids = self.data.pending_forget.pop(conversation_id, None)
        if person_id is None and memory_ids is None:
            return self._respond(intent_obj, "forget_nothing_pending")
        if slots[SLOT_ANSWER]["value"] != "yes":
            return self._respond(intent_obj, "forget_cancelled")
        speaker = await self._speaker(intent_obj)
        hass = intent_obj.hass
        try:
            if person_id is not None:
                if speaker.person_id != person_id:  # only the person asked about may confirm
                    return self._respond(intent_obj, "about_me_unknown")
                count = await async_run(hass, self.data.engine.forget_person, person_id)
                return self._respond(intent_obj, "about_me_done", count=count)
            forgotten = 0
            for memory_id in memory_ids or []:
                try:
                    await async_run(hass, self.data.engine.forget, memory_id, speaker)
                    forgotten += 1
                except InvalidInput:  # gone meanwhile, or not visible to this speaker
                    continue
        except EngineError:
            return self._respond(intent_obj, "store_unavailable")
        if forgotten == 0:
            return self._respond(intent_obj, "forget_none")
        return self._respond(intent_obj, "forgot" if forgotten == 1 else "forgot_many", count=forgotten)


class WhatDoYouKnowIntentHandler(_MemoryIntentHandler):
    """MemoryWhatDoYouKnow: read out the best visible memories about a topic."""

    intent_type = INTENT_WHAT_DO_YOU_KNOW
    description = "Tells what the memory holds about a topic"
    slot_schema = {  # noqa: RUF012 - HA's IntentHandler API
        vol.Required(SLOT_QUERY): intent.non_empty_string,
        vol.Optional(SLOT_CONVERSATION_ID): str,
    }

    async def async_handle(self, intent_obj: intent.Intent) -> intent.IntentResponse:
        slots = self.async_validate_slots(intent_obj.slots)
        speaker = await self._speaker(intent_obj)
        hits = await async_recall(intent_obj.hass, self.data, str(slots[SLOT_QUERY]["value"]), speaker)
        # The speaker's own memories ride along with every recall (C05); for "what do you know
        # about <topic>" they are noise unless nothing else matched (e.g. "… about me").
        matches = [h for h in hits if "about_speaker" not in h.factors] or hits
        if not matches:
            return self._respond(intent_obj, "know_nothing")
        return self._respond(
            intent_obj, "know_list", items=quote_all([h.memory.content for h in matches[:KNOW_MAX_ITEMS]])
        )


_HANDLERS: tuple[type[_MemoryIntentHandler], ...] = (
    RememberIntentHandler,
    ForgetIntentHandler,
    ForgetAboutMeIntentHandler,
    ForgetConfirmIntentHandler,
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
