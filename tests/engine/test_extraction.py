"""Extraction (engine part): C21 messy answers, C04 forgotten stays forgotten, C13 no echo,
C20 commands are not memories, sensitive data never extracted, scopes by speaker, review mode.
Real bundled encoder, real SQLite store."""

from __future__ import annotations

import json

import pytest

from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import (
    EXTRACTION_SCHEMA,
    MAX_CANDIDATES,
    MIN_CONFIDENCE,
    MISSING_CONFIDENCE,
    ExtractedFact,
    is_device_command,
    parse_candidates,
    select_user_text,
)
from custom_components.memory.engine.models import Kind, Provenance, Scope, Source, Speaker, Status

from .conftest import JULIAN, KITCHEN

JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
GUEST = Speaker(area_id=KITCHEN)
GOOD = {"content": "Anna likes jazz.", "kind": "preference", "subject": "Anna", "confidence": 0.9}


# ---------------------------------------------------------------------------- C21 parsing
@pytest.mark.parametrize(
    "raw",
    [
        {"memories": [GOOD], "summary": None},
        [GOOD],
        GOOD,  # a single object instead of a list
        json.dumps({"memories": [GOOD]}),
        "Sure! Here is what I found:\n" + json.dumps({"memories": [GOOD]}) + "\nHope this helps.",
        "```json\n" + json.dumps([GOOD]) + "\n```",
        {"memories": GOOD},  # one object where the list should be
        {"memories": [GOOD, {"content": "  "}, {"kind": "fact"}, 42]},  # junk next to it
    ],
    ids=["dict", "list", "single", "json", "prose", "fenced", "memories_object", "junk"],
)
def test_c21_messy_forms_are_parsed(raw: object) -> None:
    result = parse_candidates(raw)
    assert [c.content for c in result.candidates] == ["Anna likes jazz."]
    assert result.candidates[0].kind is Kind.PREFERENCE
    assert result.candidates[0].confidence == 0.9
    assert not result.failed


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (None, "empty"),
        ("", "empty"),
        ("   ", "empty"),
        (TimeoutError("AI Task timed out"), "failed"),
        ("I could not find anything worth remembering.", "not_json"),
        (EXTRACTION_SCHEMA, "schema_echo"),
        (json.dumps(EXTRACTION_SCHEMA), "schema_echo"),
        ({"memories": [{"kind": "fact", "confidence": 0.9}]}, "missing_content"),
        (3.14, "wrong_type"),
        ({"memories": "Anna likes jazz"}, "wrong_type"),
        ("{not json at all", "not_json"),
    ],
)
def test_c21_unusable_answers_are_reported_never_raised(raw: object, problem: str) -> None:
    result = parse_candidates(raw)
    assert result.candidates == []
    assert problem in result.problems
    assert result.failed  # counted by the HA side for its repair issue: never a silent drop


def test_c21_missing_fields_get_documented_defaults() -> None:
    result = parse_candidates({"memories": [{"content": "The bins go out on Thursday."}], "summary": "Bins."})
    (candidate,) = result.candidates
    assert candidate == ExtractedFact(
        "The bins go out on Thursday.", Kind.FACT, confidence=MISSING_CONFIDENCE
    )
    assert result.summary == "Bins."
    assert "missing_confidence" in result.problems


def test_c21_wrong_types_and_too_many() -> None:
    items = [{"content": f"Fact number {i}.", "confidence": str(50 + i * 5)} for i in range(8)]
    items.append({"content": "Odd kind.", "kind": "gossip", "scope_hint": "galaxy", "confidence": True})
    result = parse_candidates({"memories": items})
    assert len(result.candidates) == MAX_CANDIDATES
    assert [c.confidence for c in result.candidates] == pytest.approx([0.85, 0.8, 0.75, 0.7, 0.65])
    assert {"too_many", "unknown_kind", "unknown_scope_hint", "bad_confidence"} <= set(result.problems)


def test_c21_summary_only_is_not_a_failure() -> None:
    result = parse_candidates({"memories": [], "summary": "Julian planned the weekend."})
    assert (result.candidates, result.summary, result.failed) == ([], "Julian planned the weekend.", False)


# ---------------------------------------------------------------------------- user text (C13, C20)
def test_c13_c20_only_the_users_own_words() -> None:
    turns = [
        {"role": "system", "content": "Memories: Anna likes jazz."},
        ("user", "Turn on the kitchen light"),
        ("assistant", "Done. By the way, Anna likes jazz."),
        {"role": "user", "text": "My sister Paula moves to Lyon in May."},
        {"role": "tool_result", "text": "ok"},
    ]
    assert select_user_text(turns) == "My sister Paula moves to Lyon in May."


def test_fewer_than_15_user_characters_are_skipped() -> None:
    assert (
        select_user_text([("user", "Thanks a lot"), ("assistant", "You're welcome, happy to help!")]) is None
    )
    assert select_user_text([("user", "I like green tea")]) == "I like green tea"
    assert select_user_text([None, 3, ("user",)]) is None


COMMANDS = [
    ("en", "Set the kitchen light to red"),
    ("en", "Turn off the hall"),
    ("en", "Please turn the living room lights on"),
    ("en", "The user asked to turn on the kitchen light."),
    ("de", "Schalte das Licht in der Küche aus"),
    ("de", "Mach das Licht im Flur an"),
    ("it", "Accendi la luce in cucina"),
    ("it", "Spegni la luce del corridoio"),
    ("fr", "Allume la lumière de la cuisine"),
    ("fr", "Éteins la lumière du salon"),
    ("es", "Enciende la luz de la cocina"),
    ("es", "Apaga la luz del pasillo"),
]
NOT_COMMANDS = [
    ("en", "Anna likes jazz."),
    ("en", "Stella is Julian's daughter."),
    ("de", "Ich trinke morgens grünen Tee."),
    ("it", "Mia sorella Paola vive a Lione."),
    ("fr", "Montréal est la ville natale de Julian."),
    ("es", "Pongo la mesa los domingos con mi hermana."),
]


@pytest.mark.parametrize(("lang", "text"), COMMANDS)
def test_c20_device_commands_are_rejected(engine: MemoryEngine, lang: str, text: str) -> None:
    assert is_device_command(text)
    result = engine.learn([ExtractedFact(text, confidence=0.95)], speaker=JULIAN_KITCHEN, language=lang)
    assert (result.rejected, result.stored) == (1, 0)
    assert engine.stats().memories == 0


@pytest.mark.parametrize(("lang", "text"), NOT_COMMANDS)
def test_c20_facts_are_not_commands(lang: str, text: str) -> None:
    assert not is_device_command(text), (lang, text)


# ---------------------------------------------------------------------------- C04 forgotten
@pytest.mark.parametrize("scope", [Scope.SHARED, Scope.PRIVATE])
def test_c04_forgotten_candidate_is_skipped_and_summary_left_out(engine: MemoryEngine, scope: Scope) -> None:
    said = engine.remember(
        MemoryDraft("the code for the garden gate is 4711", speaker=JULIAN_KITCHEN, scope=scope)
    )
    engine.forget(said.memory.id, JULIAN_KITCHEN)
    result = engine.learn(
        [
            ExtractedFact("The garden gate code is 4711.", confidence=0.9),
            ExtractedFact("Julian's sister Paula moves to Lyon in May.", confidence=0.9),
        ],
        speaker=JULIAN_KITCHEN,
        language="en",
        summary="Julian gave the garden gate code and talked about his sister's move.",
    )
    # the gate code is sensitive too: the tombstone comes first, so the count says "forgotten"
    assert (result.skipped_forgotten, result.skipped_sensitive, result.stored) == (1, 0, 1)
    stored = engine.list_memories(Speaker.administrator())
    assert [m.content for m in stored] == ["Julian's sister Paula moves to Lyon in May."]
    assert not any(m.kind is Kind.EPISODE for m in stored)  # the conversation's summary left out
    assert engine.stats().tombstones == 1  # extraction never lifts the block


def test_c04_summary_close_to_a_tombstone_is_skipped(engine: MemoryEngine) -> None:
    said = engine.remember(
        MemoryDraft("Julian talked about his divorce lawyer.", speaker=JULIAN_KITCHEN, scope=Scope.PRIVATE)
    )
    engine.forget(said.memory.id, JULIAN_KITCHEN)
    kept = ExtractedFact("Julian's sister moves to Turin in June.", confidence=0.9)
    result = engine.learn(
        [kept],
        speaker=JULIAN_KITCHEN,
        language="en",
        summary="Julian talked about his divorce lawyer.",
    )
    assert (result.skipped_forgotten, result.stored) == (1, 1)  # the summary; the fact is kept
    assert [m.content for m in engine.list_memories(JULIAN_KITCHEN)] == [
        "Julian's sister moves to Turin in June."
    ]


# ---------------------------------------------------------------------------- C13 no echo
@pytest.mark.parametrize(
    ("lang", "existing", "candidate"),
    [
        ("en", "Anna likes jazz.", "anna likes jazz"),
        ("de", "Anna mag Jazz.", "Anna mag Jazz!"),
        ("it", "Ad Anna piace il jazz.", "ad anna piace il jazz"),
    ],
)
def test_c13_known_fact_is_merged_not_duplicated(
    engine: MemoryEngine, lang: str, existing: str, candidate: str
) -> None:
    first = engine.remember(
        MemoryDraft(existing, speaker=JULIAN_KITCHEN, scope=Scope.SHARED, language=lang)
    ).memory
    result = engine.learn([ExtractedFact(candidate, confidence=0.9)], speaker=JULIAN_KITCHEN, language=lang)
    assert (result.merged, result.stored, result.ids) == (1, 0, [first.id])
    (kept,) = engine.list_memories(Speaker.administrator())
    assert (kept.id, kept.content, kept.provenance) == (first.id, existing, Provenance.CONFIRMED)
    assert kept.updated_at >= first.updated_at


def test_c13_a_different_number_is_a_new_fact(engine: MemoryEngine) -> None:
    engine.remember(MemoryDraft("Anna's locker is number 12.", speaker=JULIAN_KITCHEN, scope=Scope.SHARED))
    result = engine.learn(
        [ExtractedFact("Anna's locker is number 13.", confidence=0.9)], speaker=GUEST, language="en"
    )
    assert (result.merged, result.stored) == (0, 1)


# ---------------------------------------------------------------------------- sensitive
SENSITIVE = [
    ("en", "My PIN is 1234."),
    ("en", "My Visa is 4111 1111 1111 1111."),
    ("en", "I take metformin for diabetes."),
    ("de", "Meine PIN ist 1234."),
    ("de", "Meine Visa-Karte: 4111 1111 1111 1111."),
    ("de", "Ich nehme Metformin gegen Diabetes."),
    ("it", "Il mio PIN è 1234."),
    ("it", "La mia Visa è 4111 1111 1111 1111."),
    ("it", "Prendo la metformina per il diabete."),
]


@pytest.mark.parametrize(("lang", "text"), SENSITIVE)
def test_sensitive_candidates_are_never_extracted(engine: MemoryEngine, lang: str, text: str) -> None:
    kept = ExtractedFact("Julian's sister moves to Turin in June.", confidence=0.9)
    result = engine.learn(
        [ExtractedFact(text, confidence=0.95), kept], speaker=JULIAN_KITCHEN, language=lang, summary=text
    )
    assert (result.skipped_sensitive, result.stored) == (2, 1)  # the candidate and the summary; not `kept`
    assert [m.content for m in engine.list_memories(JULIAN_KITCHEN)] == [kept.content]


# ---------------------------------------------------------------------------- storing
def test_low_confidence_is_rejected(engine: MemoryEngine) -> None:
    result = engine.learn(
        [ExtractedFact("Anna likes jazz.", confidence=MIN_CONFIDENCE - 0.01)],
        speaker=GUEST,
        language="en",
    )
    assert (result.rejected, result.stored) == (1, 0)
    assert engine.stats().memories == 0


@pytest.mark.parametrize(
    ("speaker", "hint", "scope", "owner", "area"),
    [
        (GUEST, None, Scope.SHARED, None, None),
        (GUEST, "private", Scope.SHARED, None, None),
        (JULIAN_KITCHEN, None, Scope.PRIVATE, JULIAN, None),
        (JULIAN_KITCHEN, "private", Scope.PRIVATE, JULIAN, None),
        (JULIAN_KITCHEN, "shared", Scope.SHARED, None, None),
        (JULIAN_KITCHEN, "room", Scope.ROOM, None, KITCHEN),
        (Speaker(person_id=JULIAN), "room", Scope.PRIVATE, JULIAN, None),
    ],
    ids=["guest", "guest_private_hint", "julian", "julian_private", "julian_shared", "room", "room_no_area"],
)
def test_scope_follows_the_speaker(  # noqa: PLR0917 - parametrized
    engine: MemoryEngine,
    speaker: Speaker,
    hint: str | None,
    scope: Scope,
    owner: str | None,
    area: str | None,
) -> None:
    result = engine.learn(
        [ExtractedFact("Ich trinke morgens grünen Tee.", Kind.PREFERENCE, scope_hint=hint, confidence=0.8)],
        speaker=speaker,
        language="de",
        conversation_id="conv-1",
    )
    assert result.stored == 1
    (memory,) = engine.list_memories(Speaker.administrator())
    assert (memory.scope, memory.owner_id, memory.area_id) == (scope, owner, area)
    assert (memory.provenance, memory.source, memory.source_ref) == (
        Provenance.EXTRACTED,
        Source.EXTRACTION,
        "conv-1",
    )
    assert (memory.language, memory.content, memory.kind) == (
        "de",
        "Ich trinke morgens grünen Tee.",
        Kind.PREFERENCE,
    )


def test_summary_is_stored_as_an_episode(engine: MemoryEngine) -> None:
    trip = ExtractedFact("Julian goes to Lyon in May.", confidence=0.9)
    result = engine.learn(
        [trip], speaker=JULIAN_KITCHEN, language="en", summary="Julian planned a trip to Lyon."
    )
    assert result.counts() == {
        "stored": 2,
        "merged": 0,
        "skipped_forgotten": 0,
        "skipped_sensitive": 0,
        "rejected": 0,
        "superseded": 0,
        "conflicts": 0,
    }
    (episode,) = [m for m in engine.list_memories(JULIAN_KITCHEN) if m.kind is Kind.EPISODE]
    assert (episode.content, episode.scope) == ("Julian planned a trip to Lyon.", Scope.PRIVATE)


def test_c20_a_summary_of_nothing_learned_is_not_stored(engine: MemoryEngine) -> None:
    """Commands and small talk: every candidate rejected, so the summary is no memory either."""
    command = ExtractedFact("The user asked to turn on the kitchen light.", confidence=0.9)
    result = engine.learn([command], speaker=JULIAN_KITCHEN, language="en", summary="Julian said good night.")
    assert (result.rejected, result.stored) == (1, 0)
    assert engine.stats().memories == 0


def test_review_mode_stores_pending_never_recalled(engine: MemoryEngine) -> None:
    result = engine.learn(
        [ExtractedFact("Paula moves to Lyon in May.", confidence=0.9)],
        speaker=GUEST,
        language="en",
        review=True,
    )
    assert (result.stored, result.pending) == (1, True)
    assert engine.get(result.ids[0], Speaker.administrator()).status is Status.PENDING  # type: ignore[union-attr]
    assert engine.recall("When does Paula move to Lyon?", GUEST) == []
    assert engine.list_memories(GUEST) == []


def test_c21_numbers_are_read_as_text_and_unstorable_text_is_a_problem() -> None:
    """A model writes "value": 14; a split emoji escape ("\\ud83d") cannot be stored: that
    candidate is reported, the others are read."""
    result = parse_candidates(
        {
            "memories": [
                {
                    "content": "Mimi is 14.",
                    "subject": "Mimi",
                    "predicate": "age",
                    "value": 14,
                    "confidence": 0.9,
                },
                {"content": "Mimi \ud83d loves tuna.", "confidence": 0.9},
            ]
        }
    )
    (candidate,) = result.candidates
    assert (candidate.content, candidate.value) == ("Mimi is 14.", "14")
    assert "missing_content" in result.problems
