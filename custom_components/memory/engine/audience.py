"""Who will be told: the one rule for what a caller may read of the memories it may see.

Visibility (store.base.Visibility) decides which memories a speaker may *see* at all: the
others are left out, never counted. The audience decides, of the visible ones, which may be
*told*: a memory withheld comes back from the engine with its text removed and the reason
(`Memory.withheld`, a `Withheld` value), so a door can count it and say why, and cannot read it
out by mistake. Every engine method that returns memories to a caller takes an Audience and
returns every memory already decided; doors only translate (docs/privacy.md).

The rules (docs/privacy.md "What each caller is told"):
- an administrator in the panel (Reader.ADMIN) is told everything it sees;
- a sensitive memory (sensitive.classify at write time: codes, payment, health) is never told to
  a cloud model (Reader.CLOUD_MODEL) or to a model working for the household with nobody
  listening (Reader.TASK: the judge, extraction), and not to an unknown speaker unless the
  household allows it (`sensitive_to_unknown`);
- an automation running an administrator's service (Reader.AUTOMATION: no user, so nobody to
  recognise) sees every scope but is told no PRIVATE memory, and a sensitive one only as an
  unknown speaker would be;
- a personal memory (PRIVATE, or told by a recognised person) goes to a cloud model working for
  the household (Reader.TASK with `cloud`) only with the household's "personal memories to cloud"
  option (`personal_to_cloud`). A cloud model answering a recognised person is told that person's
  own memories: they chose to talk to it;
- an unknown speaker's question about themself is one only a private memory could answer
  (`needs_recognition`): a door says that private memories need a recognised voice or a personal
  device, the same whether or not such a memory exists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from .language import asks_about_self
from .models import Hit, Memory, Scope, Speaker


class Reader(StrEnum):
    """Who reads what the engine returns."""

    PERSON = "person"  # the speaker hears or reads it (a no-LLM answer, a service response)
    LOCAL_MODEL = "local_model"  # a model running in the house answers the speaker
    CLOUD_MODEL = "cloud_model"  # a cloud service (or an unknown one: an MCP client) answers them
    TASK = "task"  # a model working for the household with nobody listening (judge, extraction)
    AUTOMATION = "automation"  # an automation running an administrator's service (no user)
    ADMIN = "admin"  # an administrator in the panel: told everything it sees


class Withheld(StrEnum):
    """Why a visible memory was not told (Memory.withheld); each door words it its own way."""

    SENSITIVE_UNKNOWN_SPEAKER = "sensitive_unknown_speaker"
    SENSITIVE_TO_MODEL = "sensitive_to_model"
    PERSONAL_TO_CLOUD = "personal_to_cloud"
    PRIVATE_TO_AUTOMATION = "private_to_automation"


@dataclass(frozen=True, slots=True)
class Audience:
    """One request's audience, resolved once at the door it arrived at.

    speaker: who is asking and where (their Visibility; Speaker.administrator() for the panel and
    for household tasks). reader: who reads the answer (Reader). cloud: for Reader.TASK, the model
    is a cloud service. sensitive_to_unknown / personal_to_cloud: the household's options
    (the config entry's CONF_SENSITIVE_TO_UNKNOWN / CONF_CLOUD_PERSONAL)."""

    speaker: Speaker
    reader: Reader = Reader.PERSON
    cloud: bool = False
    sensitive_to_unknown: bool = False
    personal_to_cloud: bool = False

    @classmethod
    def of(cls, who: Audience | Speaker) -> Audience:
        """`who` as an audience: a bare Speaker is that person reading the answer themselves
        under the strictest options (what the engine's own tests and tools pass); the
        administrator's Speaker is the administrator (Reader.ADMIN)."""
        if isinstance(who, Audience):
            return who
        return cls(who, Reader.ADMIN) if who.admin else cls(who)

    @classmethod
    def administrator(cls) -> Audience:
        """The panel's administrator: sees and is told every memory."""
        return cls(Speaker.administrator(), Reader.ADMIN)

    def withholds(self, memory: Memory) -> Withheld | None:
        """Why `memory` (visible to this audience) may not be told, or None when it may. A
        memory is personal when it is PRIVATE or a recognised person told it."""
        private = memory.scope is Scope.PRIVATE
        personal = private or memory.speaker_id is not None
        return self.withholds_text(sensitive=memory.sensitive, personal=personal, private=private)

    def withholds_text(self, *, sensitive: bool, personal: bool, private: bool = False) -> Withheld | None:
        """The rule for any text this audience would read — a memory, a conversation's turn sent
        to extraction, a reply going into a model's chat log: `sensitive`
        (sensitive.is_sensitive), `personal` (a recognised person's words or memory), `private`
        (a PRIVATE memory). Why it may not be told, or None."""
        if self.reader is Reader.ADMIN:
            return None
        if sensitive:
            if self.reader in (Reader.CLOUD_MODEL, Reader.TASK):
                return Withheld.SENSITIVE_TO_MODEL
            if not self.speaker.known and not self.sensitive_to_unknown:
                return Withheld.SENSITIVE_UNKNOWN_SPEAKER
        if personal and self.reader is Reader.TASK and self.cloud and not self.personal_to_cloud:
            return Withheld.PERSONAL_TO_CLOUD
        if private and self.reader is Reader.AUTOMATION:
            return Withheld.PRIVATE_TO_AUTOMATION
        return None

    def tell(self, memory: Memory) -> Memory:
        """`memory` as this audience may read it: itself, or withheld — its text, fact key and
        value removed and `withheld` saying why. A memory withheld already stays withheld."""
        if memory.withheld is not None:
            return memory
        if (reason := self.withholds(memory)) is None:
            return memory
        return replace(memory, content="", subject=None, predicate=None, value=None, withheld=reason)

    def tell_all(self, memories: Iterable[Memory]) -> list[Memory]:
        """Each of `memories` told or withheld (tell), order kept."""
        return [self.tell(m) for m in memories]

    def tell_hits(self, hits: Iterable[Hit]) -> list[Hit]:
        """Recall's hits as this audience may read them (tell), order and scores kept. A stricter
        audience may re-tell hits another one was given (a cloud model reading the speaker's)."""
        return [h if (told := self.tell(h.memory)) is h.memory else replace(h, memory=told) for h in hits]


def told(memories: Iterable[Memory]) -> list[Memory]:
    """The memories that were told (not withheld), order kept."""
    return [m for m in memories if m.withheld is None]


def withheld_count(memories: Iterable[Memory]) -> int:
    """How many of `memories` were withheld."""
    return sum(m.withheld is not None for m in memories)


def needs_recognition(speaker: Speaker, question: str, language: str | None) -> bool:
    """Whether only a private memory could answer `question` and `speaker` may see none: an
    unknown speaker (not the administrator) asking about themself (language.asks_about_self: the
    first person that makes a recognised person's memory private, writer.scope_for). `question`
    is what a door knows to be a question (an utterance utterances.is_question takes for one, a
    recall query, a "what do you know about" topic); `language` its language.

    Decided from who asks and the words alone, never from what is stored: a door that answers
    on it ("private memories need a recognised voice or a personal device") says the same
    whether or not anyone has such a memory (docs/privacy.md "What an unknown speaker hears").
    """
    return not speaker.known and not speaker.admin and asks_about_self(question, language)
