"""A conversation's state between turns: the question waiting for yes/no, and what was stored
last ("forget that" right after it). Kept per entry in MemoryRuntimeData."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from .engine.models import Speaker

# "Forget that" refers to the last memory stored within this long: HA's own chat session ends
# five minutes after its last turn (homeassistant.helpers.chat_session.CONVERSATION_TIMEOUT).
LAST_REMEMBERED_WINDOW = timedelta(minutes=5)


class Ask(StrEnum):
    """What a question waiting for yes/no does on "yes"."""

    FORGET = "forget"  # forget memory_ids ("forget …", "forget that")
    FORGET_PERSON = "forget_person"  # forget person_id's private memories ("forget everything about me")
    REMEMBER = "remember"  # remember `content` (a statement the wrapped agent did not understand)
    REPLACE = "replace"  # `replacement` supersedes memory_ids ("Should this replace it?")


@dataclass(frozen=True, slots=True)
class PendingQuestion:
    """A question waiting for yes/no in one conversation.

    asker: who asked (turn.asker_key); who may answer: turn.may_answer.
    speaker: the asker's Speaker; "yes" acts as them. voice_at: the satellite (or device) where a
    speaker recognised by voice asked, whose unrecognised short "yes" may answer (turn.may_answer).
    ask: what "yes" does. memory_ids: the memories named in a FORGET question, or the ones a
    REPLACE question would have `replacement` (the memory just stored) supersede; person_id: whose
    private memories a FORGET_PERSON question forgets; content/language: what a REMEMBER question
    stores, verbatim, and its language.
    """

    asker: tuple[str, str]
    ask: Ask = Ask.FORGET
    speaker: Speaker | None = None
    voice_at: str | None = None
    memory_ids: tuple[str, ...] = ()
    person_id: str | None = None
    content: str | None = None
    language: str | None = None
    replacement: str | None = None


@dataclass(frozen=True, slots=True)
class Remembered:
    """The memory a conversation or asker stored last, for "forget that" right after it.

    at: when (aware UTC); it counts for LAST_REMEMBERED_WINDOW.
    """

    memory_id: str
    at: datetime
