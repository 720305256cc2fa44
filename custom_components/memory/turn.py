"""One conversation turn, worked out once: who speaks and where, what was said, what memory holds.

Every door a turn passes (the memory agent, its intents, the Memory LLM API of a wrapped LLM
agent) reads the same `Turn`, published in a context variable for the duration of the memory
agent's `async_process`: the speaker and room are resolved once, the text is checked once, the
turn is recorded once and recall runs once. Doors reached without the memory agent (an intent
fired by something else, an LLM agent used directly) resolve their own speaker the same way
(speaker.resolve_identity).

What a turn may be told is decided by the engine for the turn's audience (audience.for_person;
engine/audience.py); `error_reply` words engine errors as spoken reply keys.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

from homeassistant.core import Context, HomeAssistant

from .answers import base_language
from .audience import for_person
from .dialogue import Ask, PendingQuestion
from .engine.api import MAX_CONTENT_CHARS, EngineError, InvalidInput
from .engine.models import Hit, Speaker, SpeakerSource
from .engine_calls import async_recall
from .recognition import VoiceRecognizer, claim_heard, heard_for, satellite_key
from .runtime import MemoryRuntimeData
from .speaker import resolve_identity

# The longest utterance the memory agent interprets: the services' limit (docs/services.md). A
# longer one is answered "too long" before anything matches, recalls or delegates.
MAX_UTTERANCE_CHARS = MAX_CONTENT_CHARS


@dataclass(slots=True)
class Turn:
    """One user turn at the memory agent.

    text: the utterance verbatim; language: its base language ("de" for "de-CH");
    speaker: who speaks and in which room (speaker.resolve_identity), resolved once;
    confirmed: the speaker is sure enough for a destructive request (speaker.Identity);
    asker: who may answer a question this turn asks (a person, else the satellite/device);
    hits: the turn's recall, filled by `async_recall_once` (None until then).
    """

    conversation_id: str
    text: str
    language: str
    speaker: Speaker
    asker: tuple[str, str]
    confirmed: bool = False
    context: Context | None = None
    device_id: str | None = None
    satellite_id: str | None = None
    hits: list[Hit] | None = field(default=None, repr=False)


_CURRENT: ContextVar[Turn | None] = ContextVar("memory_turn", default=None)

# How long a turn waits for the turn before it in the same conversation (an LLM answer with its
# tool calls) before it is answered "busy" instead: well past what one LLM turn takes.
TURN_WAIT = 60.0  # seconds


class TurnQueue:
    """The memory agent's turns of one conversation, answered one after another (two people at one
    satellite, an automation continuing a conversation): HA 2026.11+ refuses a second turn while
    one holds the conversation's chat log (ConversationBusyError), and before 2026.11 the later
    turn's chat log overwrote the earlier one's. Conversations never wait for each other."""

    def __init__(self) -> None:
        self._queues: dict[str, tuple[asyncio.Lock, int]] = {}  # conversation id -> (lock, users)

    @asynccontextmanager
    async def turn(self, conversation_id: str, wait: float = TURN_WAIT) -> AsyncIterator[bool]:
        """Hold the conversation while the block runs; yields False (holding nothing) when the
        turn before did not end within `wait` seconds."""
        lock, users = self._queues.get(conversation_id, (asyncio.Lock(), 0))
        self._queues[conversation_id] = (lock, users + 1)
        try:
            try:
                async with asyncio.timeout(wait):
                    await lock.acquire()
            except TimeoutError:
                yield False
                return
            try:
                yield True
            finally:
                lock.release()
        finally:
            lock, users = self._queues[conversation_id]
            if users == 1:
                del self._queues[conversation_id]
            else:
                self._queues[conversation_id] = (lock, users - 1)


def asker_key(speaker: Speaker, device_id: str | None, satellite_id: str | None) -> tuple[str, str]:
    """Who asked a question that waits for yes/no: ("person", person id) for a recognised person,
    ("device", satellite or device id, or "") for an unknown speaker. Only the same asker may
    answer it (someone else's "yes" must not forget another person's memories)."""
    if speaker.person_id is not None:
        return ("person", speaker.person_id)
    return ("device", satellite_id or device_id or "")


def question(turn: Turn, ask: Ask, **what: Any) -> PendingQuestion:
    """The yes/no question `turn`'s speaker is asked (`what`: PendingQuestion's other fields)."""
    voice = turn.speaker.source is SpeakerSource.VOICE
    return PendingQuestion(
        asker=turn.asker,
        ask=ask,
        speaker=turn.speaker,
        voice_at=(turn.satellite_id or turn.device_id) if voice else None,
        **what,
    )


def may_answer(turn: Turn, pending: PendingQuestion) -> bool:
    """Whether `turn` may answer `pending`: the same asker; or, when a voice recognised at a
    satellite asked, an answer at that satellite from a voice that is no one's — a bare "yes" or
    "no" is too short to recognise (docs/voice.md). Another recognised person never answers
    someone else's question, and nothing is read as the asker on such an answer: only what the
    asker asked is done."""
    if turn.asker == pending.asker:
        return True
    here = turn.satellite_id or turn.device_id
    return pending.voice_at is not None and turn.speaker.person_id is None and here == pending.voice_at


def as_asker(turn: Turn, pending: PendingQuestion) -> Turn:
    """`turn` acting as the asker of `pending` (whose question it answers)."""
    if pending.speaker is None or pending.speaker == turn.speaker:
        return turn
    return replace(turn, speaker=pending.speaker, asker=pending.asker)


def start_turn(
    hass: HomeAssistant,
    options: Mapping[str, Any],
    *,
    conversation_id: str,
    text: str,
    language: str | None,
    context: Context | None,
    device_id: str | None,
    satellite_id: str | None,
    recognizer: VoiceRecognizer | None = None,
) -> Turn:
    """The turn with its speaker and room resolved (the only resolution of this turn). The
    utterance this pipeline run heard for `text`, if any, is claimed by this turn (no later turn
    borrows its identity) and kept among the recent utterances of the turn's satellite for
    enrolment (`recognizer`: the entry's, None when recognition is off)."""
    heard = heard_for(text)
    identity = resolve_identity(
        hass, context=context, device_id=device_id, satellite_id=satellite_id, options=options, heard=heard
    )
    if heard is not None:
        claim_heard(heard)  # this turn's: never a later turn's
        key = satellite_key(hass, satellite_id=satellite_id, device_id=device_id)
        if recognizer is not None and key is not None:
            recognizer.file_heard(key, heard)
    speaker = identity.speaker
    return Turn(
        conversation_id=conversation_id,
        text=text,
        language=base_language(language or hass.config.language),
        speaker=speaker,
        asker=asker_key(speaker, device_id, satellite_id),
        confirmed=identity.confirmed,
        context=context,
        device_id=device_id,
        satellite_id=satellite_id,
    )


@contextmanager
def active(turn: Turn) -> Iterator[Turn]:
    """Publish `turn` to the doors it passes (intents, the Memory LLM API) while it runs."""
    token = _CURRENT.set(turn)
    try:
        yield turn
    finally:
        _CURRENT.reset(token)


def current_turn(conversation_id: str | None = None) -> Turn | None:
    """The memory agent's turn running now (of `conversation_id` when given), else None."""
    turn = _CURRENT.get()
    if turn is None or (conversation_id is not None and turn.conversation_id != conversation_id):
        return None
    return turn


def utterance_problem(text: str) -> str | None:
    """Why an utterance is not interpreted, as a reply key ("too_long" past
    MAX_UTTERANCE_CHARS), or None when it can be. Text that is not valid Unicode is left to
    the doors it reaches: each answers it in its own words (nothing can store or match it)."""
    return "too_long" if len(text) > MAX_UTTERANCE_CHARS else None


async def async_recall_once(hass: HomeAssistant, data: MemoryRuntimeData, turn: Turn) -> list[Hit]:
    """The turn's recall: run on first use, the same hits for every later door of the turn."""
    if turn.hits is None:
        audience = for_person(data, turn.speaker)
        turn.hits = await async_recall(hass, data, turn.text, audience, language=turn.language)
    return turn.hits


def error_reply(err: EngineError) -> str:
    """The spoken reply key for an engine error of a memory sentence."""
    if isinstance(err, InvalidInput):
        if err.reason == "scope_needs_area":
            return "remember_no_room"
        if err.reason == "unknown_memory":
            return "forget_none"
        return "remember_invalid"
    return "store_unavailable"
