"""facts.decide, the one rule for what a write does, on given memories (no store, no encoder)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from custom_components.memory.engine.facts import Conflict, Relation, WriteAction, decide
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Status

from .conftest import memory_row

T0 = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


def _memory(mid: str, content: str, *, at: datetime = T0, **fields: object) -> Memory:
    return memory_row(content, created_at=at, id=mid, **fields)


NEW = _memory("new", "The bins go out on Wednesday.", at=T0 + timedelta(days=3), speaker_id="person.anna")


def test_the_same_wording_merges_and_takes_over_what_was_replaced() -> None:
    old = _memory("old", "the bins go out on wednesday", speaker_id="person.julian")
    decision = decide(NEW, replaced=("other", "old"), wording=old)
    assert (decision.action, decision.reason, decision.existing) == (WriteAction.MERGED, "same wording", True)
    assert decision.memory.id == "old" and decision.memory.speaker_id == "person.julian"  # first teller kept
    assert decision.memory.updated_at == NEW.updated_at
    assert decision.supersedes == ("other",)  # not itself
    assert decision.reembed  # the new case and punctuation are kept: re-embedded


KEYED = replace(NEW, subject="bins", predicate="collection_day", value="Wednesday")


def test_a_fact_key_decides_by_itself() -> None:
    same = _memory(
        "same", "Bin day: Wednesday.", subject="bins", predicate="collection_day", value="wednesday"
    )
    other = _memory("other", "Bins on Tuesday.", subject="bins", predicate="collection_day", value="Tuesday")
    merged = decide(KEYED, key_current=[other, same])
    assert (merged.action, merged.reason, merged.memory.id) == (WriteAction.MERGED, "same value", "same")
    newer = decide(KEYED, key_current=[other])
    assert (newer.action, newer.reason, newer.supersedes) == (WriteAction.CREATED, "new value", ("other",))
    pending = decide(replace(KEYED, status=Status.PENDING), key_current=[other])
    assert (pending.action, pending.reason, pending.supersedes) == (
        WriteAction.CREATED,
        "awaiting review",
        (),
    )


def test_a_key_never_keeps_two_values_whatever_was_named_replaced() -> None:
    """A person named a memory the keyed draft replaces: the key's current value goes too (a new
    value) — or, said again, the named memory goes and the value is confirmed."""
    other = _memory("other", "Bins on Tuesday.", subject="bins", predicate="collection_day", value="Tuesday")
    newer = decide(KEYED, replaced=("named",), key_current=[other])
    assert (newer.action, newer.supersedes) == (WriteAction.CREATED, ("named", "other"))
    same = replace(other, id="same", value=KEYED.value)
    again = decide(KEYED, replaced=("named", "same"), key_current=[same])
    assert (again.action, again.memory.id, again.supersedes) == (WriteAction.MERGED, "same", ("named",))


def test_a_guess_never_supersedes_a_statement() -> None:
    stated = _memory(
        "stated", "Bins on Tuesday.", subject="bins", predicate="collection_day", value="Tuesday"
    )
    decision = decide(replace(KEYED, provenance=Provenance.INFERRED), key_current=[stated])
    assert decision.reason == "a statement holds the key"
    assert (decision.memory.status, decision.memory.superseded_by) == (Status.SUPERSEDED, "stated")
    assert decision.supersedes == ()


def test_a_restatement_confirms_what_is_seen_at_least_as_widely() -> None:
    shared = _memory("shared", "Bin day is Wednesday.", speaker_id="person.julian")
    near = [Conflict(shared, Relation.SAME, 0.9)]
    decision = decide(NEW, neighbours=near)
    assert (decision.action, decision.reason, decision.memory.id) == (
        WriteAction.CONFIRMED,
        "restatement",
        "shared",
    )
    assert (
        decision.memory.content == "Bin day is Wednesday." and decision.memory.speaker_id == "person.julian"
    )
    # told more widely than what it restates (Julian's private fact said as shared): a new memory
    private = replace(shared, scope=Scope.PRIVATE, owner_id="person.julian")
    wider = decide(NEW, neighbours=[Conflict(private, Relation.SAME, 0.9)])
    assert (wider.action, wider.reason) == (WriteAction.CREATED, "new")
    # both keyed with other values: no restatement, whatever the words say
    keyed_other = replace(shared, subject="bins", predicate="collection_day", value="Tuesday")
    assert decide(KEYED, neighbours=[Conflict(keyed_other, Relation.SAME, 0.9)]).action is WriteAction.CREATED


def test_a_pending_restatement_confirms_instead_of_waiting_for_review() -> None:
    known = _memory("known", "Bin day is Wednesday.")
    decision = decide(replace(NEW, status=Status.PENDING, provenance=Provenance.EXTRACTED),
                      neighbours=[Conflict(known, Relation.SAME, 0.9)])  # fmt: skip
    assert (decision.action, decision.memory.id, decision.memory.status) == (
        WriteAction.CONFIRMED,
        "known",
        Status.ACTIVE,
    )
    assert decision.memory.provenance is Provenance.CONFIRMED  # the stronger provenance stays


def test_likely_replacements_are_reported_and_what_a_person_replaced_is_superseded() -> None:
    tuesday = _memory("tue", "The bins go out on Tuesday.")
    moved = Conflict(tuesday, Relation.REPLACES, 0.95)
    decision = decide(NEW, neighbours=[moved])
    assert (decision.action, decision.conflicts, decision.supersedes) == (WriteAction.CREATED, (moved,), ())
    said_so = decide(NEW, replaced=("tue",), neighbours=[moved])
    assert (said_so.conflicts, said_so.supersedes) == ((), ("tue",))  # settled by the person: no question
    restated = Conflict(_memory("same", "Bins: Wednesday."), Relation.SAME, 0.9)
    assert decide(NEW, replaced=("tue",), neighbours=[restated]).action is WriteAction.CREATED


def test_a_summary_saying_what_a_fact_says_confirms_it_and_stays_a_fact() -> None:
    """A conversation's summary (EPISODE) in the very words of a fact learned from it merges into
    the fact, which stays a fact (C13: what the user newly said is kept as a fact)."""
    fact = _memory(
        "fact", "Clara visits us every Sunday afternoon with her dog.", provenance=Provenance.EXTRACTED
    )
    summary = replace(NEW, content=fact.content, kind=Kind.EPISODE, provenance=Provenance.EXTRACTED)
    decision = decide(summary, wording=fact)
    assert (decision.action, decision.memory.id, decision.memory.kind) == (
        WriteAction.MERGED,
        "fact",
        Kind.FACT,
    )
