"""Supersession and consolidation: one current memory per fact (docs/design.md §6, cases C09-C15).

A fact's key is (bucket, subject, predicate): the bucket is the memory's scope/owner/area, the
subject and predicate are normalised here (`fact_subject`, `fact_predicate`), once, for every door
(the writer stores them normalised). Two memories of one key say the same when their values fold
to the same words (`same_value`); otherwise the newer one supersedes the older (C09, C10), and
memories of different keys never touch each other (C15).

`settle` is the one rule deciding which memory of a key stays current; the writer applies its
write-time form (writer.py) and `consolidate` runs it over the whole store, daily and on demand.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from .api import ConsolidationReport
from .models import Memory, Provenance, Status
from .store.base import Bucket
from .text import same_text

if TYPE_CHECKING:
    from .engine import MemoryEngine

SELF = "me"  # the normalised subject of a fact about the speaker
# First-person forms a model writes as the subject of a fact about the speaker (en/de/it/fr/es).
FIRST_PERSON = frozenset(
    {
        "me", "i", "myself", "my", "mine", "user", "the user", "speaker", "the speaker",
        "the person speaking", "ich", "mich", "mir", "mein", "meine", "io", "mi", "mio", "mia",
        "je", "moi", "mon", "ma", "yo", "mí",
    }
)  # fmt: skip
INFERRED_PRUNE_DAYS = 90  # inferred memories never recalled for this long are deleted (docs/design.md §6)

_NON_WORD = re.compile(r"[\W_]+")
_EDGE_PUNCTUATION = " .,;:!?\"'«»“”„()[]{}\u2018\u2019"


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


class Stated(Protocol):
    """What value comparison reads: a Memory, or an extraction Candidate."""

    @property
    def content(self) -> str: ...
    @property
    def value(self) -> str | None: ...


def _fold_value(value: str) -> str:
    """A value as compared: casefolded, Unicode-normalised (NFC), whitespace collapsed, quotes and
    sentence punctuation trimmed at the edges — signs, symbols and accents inside are meaning
    ("-18" is not "18", "C++" is not "C", "año" is not "ano")."""
    folded = " ".join(unicodedata.normalize("NFC", value.casefold()).split())
    return folded.strip(_EDGE_PUNCTUATION)


def same_value(a: Stated, b: Stated) -> bool:
    """True when two memories of one key state the same value: both carry a value and the values
    are equal as `_fold_value` compares them; without a value on either side, only the same wording
    (folded content) counts — a sentence that merely mentions the old value ("I don't drink coffee
    any more, I drink tea now") is never taken as agreeing with it (C09)."""
    if a.value is not None and b.value is not None:
        return _fold_value(a.value) == _fold_value(b.value)
    return same_text(a.content, b.content)


def key_of(memory: Memory) -> tuple[Bucket, str, str] | None:
    """The fact key of a stored memory, None when it has no subject or predicate."""
    subject, predicate = fact_subject(memory.subject), fact_predicate(memory.predicate)
    if subject is None or predicate is None:
        return None
    return Bucket.of(memory.scope, memory.owner_id, memory.area_id), subject, predicate


def precedence(memory: Memory) -> tuple[bool, datetime]:
    """Which memory of a key holds: a statement beats a guess (an `inferred` memory never
    supersedes a confirmed/observed/extracted one), then the newest (created_at)."""
    return memory.provenance is not Provenance.INFERRED, memory.created_at


@dataclass(frozen=True, slots=True)
class Settlement:
    """The outcome for one key: the current memory and the others with their new status
    (ARCHIVED: the same value, merged into `current`; SUPERSEDED: a different, older value)."""

    current: Memory
    retired: list[tuple[Memory, Status]]


def settle(group: Sequence[Memory]) -> Settlement:
    """The one rule: the value of the memory with the highest `precedence` holds; among the
    memories saying that value the strongest provenance (then the newest) stays current and the
    rest are ARCHIVED into it; every memory with another value is SUPERSEDED by it."""
    winner = max(group, key=precedence)
    agreeing = [m for m in group if same_value(m, winner)]
    current = max(agreeing, key=lambda m: (-m.provenance.rank, m.created_at))
    retired = [
        (m, Status.ARCHIVED if same_value(m, current) else Status.SUPERSEDED)
        for m in group
        if m.id != current.id
    ]
    return Settlement(current, retired)


def consolidate(engine: MemoryEngine, now: datetime) -> ConsolidationReport:
    """One pass over the store (any bucket): every key with more than one ACTIVE memory is
    settled (`settle`), each key in one transaction; `inferred` memories never recalled and
    created more than INFERRED_PRUNE_DAYS days before `now` are deleted without a tombstone
    (they were never said). Idempotent: a second run changes nothing. Raises StoreUnavailable."""
    groups: dict[tuple[Bucket, str, str], list[Memory]] = defaultdict(list)
    for memory in engine.store.keyed_current():
        if (key := key_of(memory)) is not None:
            groups[key].append(memory)
    merged = superseded = 0
    for group in groups.values():
        if len(group) < 2:
            continue
        outcome = settle(group)
        confirmed = replace(outcome.current, updated_at=now)
        engine.store.retire([(m.id, status) for m, status in outcome.retired], confirmed, now)
        merged += sum(status is Status.ARCHIVED for _, status in outcome.retired)
        superseded += sum(status is Status.SUPERSEDED for _, status in outcome.retired)
    pruned = engine.store.prune_inferred(now - timedelta(days=INFERRED_PRUNE_DAYS))
    return ConsolidationReport(merged=merged, superseded=superseded, pruned=pruned)
