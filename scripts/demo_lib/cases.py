"""The cases the demo plays (docs/cases.md C01, C02, C05, C06, C03, who said a memory, the
front door without an LLM: C25, C26, C30, C31 and an offered statement, truth over time: C23,
C24; by voice: C05 spoken at the kitchen satellite; with the local LLM also learning in passing,
C04 and C38, the Memory LLM API on every turn of one conversation), as turns at satellites and
service calls, each with the checks a person listening would make."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .household import LLM_PIPELINE, SATELLITE


# --- checks on an answer ------------------------------------------------------
@dataclass(frozen=True)
class Check:
    """`kind` is "answered" (a non-error, non-empty reply), "contains", "absent", "any"
    (at least one of `texts`) or "word" (at least one of `texts` as a whole word); comparisons
    ignore case."""

    kind: str
    texts: tuple[str, ...] = ()

    def holds(self, answer: str, response_type: str) -> bool:
        low = answer.casefold()
        found = [t.casefold() in low for t in self.texts]
        if self.kind == "answered":
            return bool(answer.strip()) and response_type != "error"
        if self.kind == "contains":
            return all(found)
        if self.kind == "absent":
            return not any(found)
        if self.kind == "word":
            return any(re.search(rf"(?<!\w){re.escape(t)}(?!\w)", answer, re.IGNORECASE) for t in self.texts)
        return any(found)

    def __str__(self) -> str:
        quoted = " / ".join(repr(t) for t in self.texts)
        return {
            "answered": "answered",
            "contains": f"contains {quoted}",
            "absent": f"not {quoted}",
            "any": f"one of {quoted}",
            "word": f"names one of {quoted}",
        }[self.kind]


ANSWERED = Check("answered")


def contains(*texts: str) -> Check:
    return Check("contains", texts)


def absent(*texts: str) -> Check:
    return Check("absent", texts)


def any_of(*texts: str) -> Check:
    return Check("any", texts)


def any_word(*words: str) -> Check:
    return Check("word", words)


# --- checks on a memory.recall service response --------------------------------
@dataclass(frozen=True)
class RowCheck:
    """A row whose content contains `text` must exist with these field values
    (`fields`), or must not exist at all (`present=False`)."""

    text: str
    fields: tuple[tuple[str, str], ...] = ()
    present: bool = True

    def holds(self, rows: list[dict[str, Any]]) -> bool:
        match = [r for r in rows if self.text.casefold() in str(r.get("content", "")).casefold()]
        if not self.present:
            return not match
        return any(all(str(r.get(k)) == v for k, v in self.fields) for r in match)

    def __str__(self) -> str:
        if not self.present:
            return f"no row with {self.text!r}"
        return f"row with {self.text!r} is " + ", ".join(f"{k}={v}" for k, v in self.fields)


# --- steps ---------------------------------------------------------------------
@dataclass(frozen=True)
class Say:
    """A turn at a satellite. `who`: julian | anna | guest, or SATELLITE (the kitchen
    satellite's own user, linked to no person); `where`: kitchen | hall. follow_up=True continues
    the previous turn's conversation (multi-turn yes/no). The pipeline is the language's
    (answered by the memory agent) unless `pipeline` names another (LLM_PIPELINE: the local LLM)."""

    who: str
    where: str
    lang: str
    text: str
    checks: tuple[Check, ...] = (ANSWERED,)
    follow_up: bool = False
    tag: str | None = None  # names this conversation for a later Learned step
    pipeline: str | None = None  # household.pipelines key; None: `lang`


@dataclass(frozen=True)
class Speak:
    """A spoken turn: `text` said by `voice`'s espeak-ng voice (demo_lib/voice.py VOICES: julian,
    anna, stranger) at the satellite in `where`, streamed through the spoken pipeline from its
    speech-to-text stage over the satellite's own connection (a user linked to no person), so
    who speaks comes from the voice alone. Checked: the transcript is `text` (case and
    punctuation aside), then `checks` on the answer."""

    voice: str
    where: str
    text: str
    checks: tuple[Check, ...] = (ANSWERED,)


@dataclass(frozen=True)
class Recall:
    """`memory.recall` through REST with return_response, as `who`: the owner (no person: no
    speaker) or a household member (their token: that person speaks)."""

    query: str
    checks: tuple[RowCheck, ...]
    who: str = "owner"


@dataclass(frozen=True)
class Learned:
    """Wait for the `memory_learned` event of the conversation tagged `tag` (it fires once the
    conversation has ended and the AI Task's answer is applied); event[count] >= least for each
    (count, least)."""

    tag: str
    counts: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Diagnostics:
    """The memory entry's diagnostics download (REST, as the UI's "Download diagnostics"):
    engine counts at least `min_counts`, and none of `absent` anywhere in it (no memory text)."""

    min_counts: tuple[tuple[str, int], ...]
    absent: tuple[str, ...]


@dataclass(frozen=True)
class SystemPrompt:
    """The system prompt of the conversation the previous Say step was in, read as an
    administrator through Home Assistant's `conversation/chat_log/subscribe` (its first event, the
    chat log's as_dict: content[0] is the system prompt; unsubscribed after). It must contain each
    of `holds` (case aside); with `renewed`, its memory lines (the Memory API's block) must not be
    the previous SystemPrompt step's: the memories were recalled for this turn's question."""

    holds: tuple[str, ...]
    renewed: bool = False


type Step = Say | Speak | Recall | Diagnostics | Learned | SystemPrompt


@dataclass(frozen=True)
class Case:
    case_id: str
    title: str
    steps: tuple[Step, ...] = field(default_factory=tuple)


KEY_DE = "Bitte merk dir: Der Ersatzschlüssel für den Keller liegt in der blauen Dose im Flur."
KEY_ANSWER = "blauen Dose"
SHORT = "Remember that I like short answers."
SHORT_Q = "What do you know about short answers?"
SHORT_TEXT = "like short answers"
ABOUT_ME = "What do you know about me?"
# Spoken, a longer question: a two-second one is often too short to recognise a voice (docs/voice.md).
ABOUT_ME_SPOKEN = "What do you remember about me and my preferences?"
WINDOW = "Remember for this room: the window sticks, lift it before opening."
WINDOW_Q = "What should I know about the window?"
WINDOW_TEXT = "lift it"
FORGET = "Forget where the spare key is."
WHERE_KEY = "Where is the spare key for the cellar?"
WHERE_KEY_IT = "Dove si trova la chiave di riserva della cantina?"
WHERE_KEY_FR = "Où se trouve la clé de secours de la cave ?"
KEY_Q = "What do you know about the spare key?"
GARAGE = "Remember that the car is booked in at the garage on Friday."  # shared: not about Julian
GARAGE_Q = "When is the car booked in at the garage?"
GARAGE_Q_NAMED = "When is Julian's car booked in at the garage?"
GARAGE_TEXT = "garage on Friday"
NAS = "Remember: the NAS is on the top shelf in the study."
PLUMBER = "Remember: the plumber's number is 0151 2345."
ALLERGY = "Remember: Julian is allergic to penicillin."
ALLERGY_Q = "Is Julian allergic to anything?"
CLEANER = "The window cleaner comes on the first Monday of the month."
PUMP = "Remember: the bike pump is in the garage."
PUMP_MOVED = "Remember: I put the bike pump in the cellar now."
PUMP_Q = "Where is the bike pump?"
SHARED = (("scope", "shared"),)
LADDER_DE = "Merk dir: Die Leiter steht im Schuppen."
LADDER_MOVED_DE = "Merk dir: Die Leiter steht jetzt im Keller."
BINS = "Remember: the bins are emptied on Tuesdays."
BINS_AGAIN = "Remember: bin day is Tuesday."
BINS_IT = "Ricorda: i bidoni si svuotano il martedì."
CLEANER_Q = "When does the window cleaner come?"

# fmt: off
CASES: tuple[Case, ...] = (
    Case("C01", "remember in German (typed at the hall satellite)", (
        Say("guest", "hall", "de", KEY_DE, (ANSWERED, absent("Got it", "remember"))),  # a German reply
        Recall("Ersatzschlüssel Keller", (
            RowCheck(KEY_ANSWER, (("language", "de"), ("scope", "shared"), ("provenance", "confirmed"))),
        )),
    )),
    Case("C02", "recall across languages", (
        Say("anna", "kitchen", "it", WHERE_KEY_IT, (ANSWERED, contains(KEY_ANSWER))),
        Say("guest", "kitchen", "en", WHERE_KEY, (ANSWERED, contains(KEY_ANSWER))),
        Say("julian", "hall", "fr", WHERE_KEY_FR, (ANSWERED, contains(KEY_ANSWER))),
    )),
    Case("C05", "private stays private", (
        Say("julian", "kitchen", "en", SHORT),
        Say("anna", "kitchen", "en", SHORT_Q, (absent(SHORT_TEXT),)),
        Say("guest", "hall", "en", SHORT_Q, (absent(SHORT_TEXT),)),
        Recall("short answers", (RowCheck(SHORT_TEXT, present=False),)),
        Say("anna", "kitchen", "en", ABOUT_ME, (absent(SHORT_TEXT),)),
        Say("guest", "kitchen", "en", ABOUT_ME, (absent(SHORT_TEXT),)),
        Say("julian", "hall", "en", SHORT_Q, (ANSWERED, contains(SHORT_TEXT))),
        Say("julian", "kitchen", "en", ABOUT_ME, (ANSWERED, contains(SHORT_TEXT))),
    )),
    Case("C06", "room stays in its room", (
        Say("anna", "kitchen", "en", WINDOW),
        Say("anna", "hall", "en", WINDOW_Q, (absent(WINDOW_TEXT),)),
        Say("guest", "kitchen", "en", WINDOW_Q, (ANSWERED, contains(WINDOW_TEXT))),
    )),
    Case("WHO", "who said it: a question naming a person, answered in their name", (
        Say("julian", "kitchen", "en", GARAGE),
        Say("anna", "hall", "en", GARAGE_Q_NAMED, (ANSWERED, contains("Julian told me", GARAGE_TEXT))),
        Say("julian", "hall", "en", GARAGE_Q, (ANSWERED, contains(GARAGE_TEXT), absent("Julian told me"))),
    )),
    Case("C03", "forget with confirmation", (
        Say("julian", "hall", "en", FORGET, (ANSWERED, any_of(KEY_ANSWER, "Ersatzschlüssel"))),
        Say("julian", "hall", "en", "no", follow_up=True),
        Say("julian", "hall", "en", WHERE_KEY, (ANSWERED, contains(KEY_ANSWER))),
        Say("julian", "hall", "en", KEY_Q, (ANSWERED, contains(KEY_ANSWER))),
        Say("julian", "hall", "en", FORGET, (ANSWERED, any_of(KEY_ANSWER, "Ersatzschlüssel"))),
        Say("julian", "hall", "en", "yes", follow_up=True),
        Say("anna", "kitchen", "en", WHERE_KEY, (absent(KEY_ANSWER),)),
        Say("anna", "kitchen", "en", KEY_Q, (ANSWERED, absent(KEY_ANSWER))),
        Recall("Ersatzschlüssel Keller", (RowCheck(KEY_ANSWER, present=False),)),
        Diagnostics((("tombstones", 1),), (KEY_ANSWER, SHORT_TEXT, WINDOW_TEXT)),
    )),
    Case("C25", "\"where is\" asks the memory; \"what time is it\" still tells the time", (
        Say("guest", "hall", "en", NAS),
        Say("guest", "hall", "en", "Where is the NAS?", (ANSWERED, contains("top shelf"))),
        Say("anna", "kitchen", "de", "Wo ist das NAS?", (ANSWERED, contains("top shelf"))),
        Say("guest", "hall", "en", "What time is it?", (ANSWERED, absent("top shelf", "memory"))),
    )),
    Case("C26", "\"forget that\" right after a remember", (
        Say("anna", "kitchen", "en", PLUMBER),
        Say("anna", "kitchen", "en", "No, forget that.", (ANSWERED, contains("0151 2345")), follow_up=True),
        Say("anna", "kitchen", "en", "yes", follow_up=True),
        Recall("plumber's number", (RowCheck("0151 2345", present=False),)),
    )),
    Case("C30", "a health fact is not told to an unknown voice", (
        Say("anna", "kitchen", "en", ALLERGY),
        Say("guest", "hall", "en", ALLERGY_Q, (ANSWERED, absent("penicillin"), contains("sensitive"))),
        Say("anna", "hall", "en", ALLERGY_Q, (ANSWERED, contains("penicillin"))),
    )),
    Case("C31", "nothing to remember", (
        Say("guest", "hall", "de", "Merk dir das bitte.", (ANSWERED, contains("Was soll ich mir merken"))),
    )),
    Case("C23", "a moved thing, said explicitly: the old memory is named and asked about", (
        Say("guest", "hall", "en", PUMP),
        Say("guest", "hall", "en", PUMP_MOVED, (ANSWERED, contains("garage", "replace"))),
        Say("guest", "hall", "en", "yes", (ANSWERED, contains("replaces")), follow_up=True),
        Say("anna", "kitchen", "en", PUMP_Q, (ANSWERED, contains("cellar"), absent("garage"))),
        Recall("bike pump", (RowCheck("cellar", (("scope", "shared"),)), RowCheck("garage", present=False))),
        Say("anna", "kitchen", "de", LADDER_DE),
        Say("anna", "kitchen", "de", LADDER_MOVED_DE, (ANSWERED, contains("Schuppen", "ersetzen"))),
        Say("anna", "kitchen", "de", "nein", (ANSWERED, contains("beides")), follow_up=True),
        Recall("Leiter", (RowCheck("Schuppen", SHARED), RowCheck("Keller", SHARED))),
    )),
    Case("C24", "a restatement is no second memory, whoever tells it, in any language", (
        Say("julian", "kitchen", "en", BINS),
        Say("anna", "hall", "en", BINS_AGAIN, (ANSWERED, contains("knew that already", "Tuesdays"))),
        Say("guest", "kitchen", "it", BINS_IT, (ANSWERED, contains("sapevo", "Tuesdays"))),
        Recall("When are the bins emptied?", (RowCheck("Tuesdays", (("scope", "shared"),)),
                                              RowCheck("bin day", present=False),
                                              RowCheck("bidoni", present=False))),
    )),
    Case("SAY", "a statement nobody understood is offered to be remembered", (
        Say("guest", "hall", "en", CLEANER, (ANSWERED, contains("Should I remember that"))),
        Say("guest", "hall", "en", "yes", (ANSWERED, contains("remember")), follow_up=True),
        Say("julian", "kitchen", "en", CLEANER_Q, (ANSWERED, contains("first Monday"))),
    )),
)
# fmt: on


# --- by voice (played after CASES, once the voice part is set up: demo.py voice_part) ---------
FORGET_SHORT = "Forget that I like short answers."
# The comma is espeak-ng's pause before "that": without it Whisper base hears Julian's espeak
# voice say "short-time so..." (the transcript has no comma either way).
SHORT_SPOKEN = "Remember, that I like short answers."
# Anna's voice (flite's slt): Whisper base hears her "prefer tea" as "prefer to".
TEA_SPOKEN = "Remember that I drink my tea without sugar."
TEA_TEXT = "tea without sugar"


def _private(person: str) -> tuple[tuple[str, str], ...]:
    """A private memory of `person`, said by them (recall rows' scope, person and said_by)."""
    return (("scope", "private"), ("person", f"person.{person}"), ("said_by", f"person.{person}"))


# fmt: off
VOICE_CASES: tuple[Case, ...] = (
    Case("C05", "typed first: Julian, signed in, forgets short answers, so the voice starts afresh", (
        Say("julian", "hall", "en", FORGET_SHORT, (ANSWERED, contains("short answers"))),
        Say("julian", "hall", "en", "yes", follow_up=True),
        Recall("short answers", (RowCheck(SHORT_TEXT, present=False),), who="julian"),
    )),
    Case("C05", "private stays private, by voice at the kitchen satellite (no signed-in user)", (
        Speak("julian", "kitchen", SHORT_SPOKEN),
        Recall("short answers", (RowCheck(SHORT_TEXT, _private("julian")),), who="julian"),
        Recall("short answers", (RowCheck(SHORT_TEXT, present=False),)),
        Speak("anna", "kitchen", TEA_SPOKEN),
        Recall("tea without sugar", (RowCheck(TEA_TEXT, _private("anna")),), who="anna"),
        Speak("julian", "kitchen", ABOUT_ME_SPOKEN, (ANSWERED, contains(SHORT_TEXT), absent(TEA_TEXT))),
        Speak("anna", "kitchen", ABOUT_ME_SPOKEN, (ANSWERED, contains(TEA_TEXT), absent(SHORT_TEXT))),
        Speak("stranger", "kitchen", ABOUT_ME_SPOKEN, (ANSWERED, absent(SHORT_TEXT, TEA_TEXT))),
        Speak("anna", "kitchen", SHORT_Q, (absent(SHORT_TEXT),)),
        Speak("stranger", "kitchen", SHORT_Q, (absent(SHORT_TEXT),)),
        Speak("julian", "kitchen", SHORT_Q, (ANSWERED, contains(SHORT_TEXT))),
    )),
)
# fmt: on


# --- learning (needs the local LLM; played after CASES, with learning turned on) -------
CELLO = "I've started learning the cello, my lessons are on Thursdays."
CELLO_Q_DE = "Was weißt du über das Cello?"
GATE = "Remember the gate code is 4711."
FORGET_GATE = "Forget the gate code."
# In passing, in a new conversation, in other words: a gate word next to a code-like number is
# flagged sensitive (engine/sensitive.py), so this turn never reaches the model and the code is
# not learned again; were it not flagged, the tombstone's keyed digest of the number would drop
# it (tests/ha/test_learning_forgotten.py). The first turn gives the conversation something to learn.
PARCEL = "The parcel driver comes tomorrow morning."
GATE_IN_PASSING = "He can let himself in, the garden gate opens with 4711."
GATE_Q = "garden gate code 4711"

# fmt: off
# Every conversation is started first, so all of them end at the same idle check.
LEARNING_CASES: tuple[Case, ...] = (
    Case("LEARN", "Julian mentions something in passing (no \"remember\")", (
        Say("julian", "kitchen", "en", CELLO, (), tag="cello"),  # the default agent may not understand
    )),
    Case("C04", "forgotten stays forgotten: remember, forget, then mention it in passing", (
        Say("julian", "hall", "en", GATE),
        Recall(GATE_Q, (RowCheck("4711", (("provenance", "confirmed"),)),), who="julian"),
        Say("julian", "hall", "en", FORGET_GATE, (ANSWERED, any_of("4711", "gate"))),
        Say("julian", "hall", "en", "yes", follow_up=True),
        Recall(GATE_Q, (RowCheck("4711", present=False),), who="julian"),
        Say("julian", "kitchen", "en", PARCEL, (), tag="gate"),
        Say("julian", "kitchen", "en", GATE_IN_PASSING, (), follow_up=True),
    )),
    Case("LEARN", "the conversation ends; the local LLM extracts; asked in German, in a new conversation", (
        Learned("cello", (("stored", 1),)),
        Recall("cello lessons", (RowCheck("cello", (("provenance", "extracted"),)),), who="julian"),
        Say("julian", "hall", "de", CELLO_Q_DE, (ANSWERED, contains("cello"))),
    )),
    Case("C04", "the in-passing conversation is extracted; the code mentioned in passing is not learned", (
        Learned("gate", (("stored", 1),)),
        Recall(GATE_Q, (RowCheck("4711", present=False),), who="julian"),
        Say("julian", "hall", "en", GATE),  # an explicit remember lifts the block
        Recall(GATE_Q, (RowCheck("4711", (("provenance", "confirmed"),)),), who="julian"),
    )),
)
# fmt: on


# --- the Memory LLM API on every turn (needs the local LLM; played after LEARNING_CASES, once
# demo.py llm_agent_part ticked the Memory API on the local LLM's conversation agent) ----------
# Three shared memories no other case touches (C24's "bins are emptied on Tuesdays" would make a
# bins memory a restatement), told to the memory agent at the kitchen satellite by its own user.
KEY_38 = "Remember: the spare key is in the blue tin in the hall."
BULBS_38 = "Remember: the spare light bulbs are in the drawer under the oven."
VET_38 = "Remember: the dog's vet is Dr. Berger."
NEW = (ANSWERED, absent("knew that already", "replace"))  # stored as a new memory


def _ask(text: str, memory_words: tuple[str, ...], *, first: bool = False) -> Say:
    """A question to the local LLM at the kitchen satellite by its own user, in one conversation."""
    checks = (ANSWERED, any_word(*memory_words))
    return Say(SATELLITE, "kitchen", "en", text, checks, follow_up=not first, pipeline=LLM_PIPELINE)


# fmt: off
LLM_AGENT_CASES: tuple[Case, ...] = (
    Case("C38", "memory on every turn: three memories for the local LLM agent with the Memory API ticked", (
        Say(SATELLITE, "kitchen", "en", KEY_38, NEW),
        Say(SATELLITE, "kitchen", "en", BULBS_38, NEW),
        Say(SATELLITE, "kitchen", "en", VET_38, NEW),
        Recall("spare key", (RowCheck("blue tin", SHARED),)),
        Recall("spare light bulbs", (RowCheck("under the oven", SHARED),)),
        Recall("the dog's vet", (RowCheck("Berger", SHARED),)),
    )),
    Case("C38", "three questions in one conversation, same user and satellite: each recalled anew", (
        _ask("Where is the spare key?", ("blue", "tin"), first=True),
        SystemPrompt(("blue tin",)),
        _ask("Where are the spare light bulbs?", ("drawer", "oven")),
        SystemPrompt(("under the oven",), renewed=True),
        _ask("Who is the dog's vet?", ("Berger",)),
        SystemPrompt(("Berger",), renewed=True),
    )),
)
# fmt: on
