"""Translations in recall (recall.py step 2c): a memory in another language that says what a
full-text match says borrows that match's words — a fact does not rank lower for having been
told in another language."""

from __future__ import annotations

from collections.abc import Callable

from custom_components.memory.engine.api import RecallOptions
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker

from .conftest import ANNA, JULIAN

GUEST = Speaker()
ENGLISH = "Leo's swimming lesson is on Wednesday at four."
GERMAN = "Leos Schwimmkurs ist am Mittwoch um vier."  # USE-m3 cosine with ENGLISH 0.82
GERMAN_FILLER = [
    "Mias Klavierstunde ist am Montag um fünf.",
    "Der Müll wird am Donnerstag abgeholt.",
    "Die Ersatzschlüssel liegen in der Schublade im Flur.",
    "Oma kommt jeden zweiten Sonntag zum Kaffee.",
    "Das Auto muss vor dem Winter in die Werkstatt.",
]
QUESTION = "When does Leo have his swimming lesson?"


def _store(engine: MemoryEngine, *, english: bool = True) -> None:
    for text in GERMAN_FILLER:
        engine.remember(text, speaker=GUEST, scope=Scope.SHARED, language="de")
    engine.remember(GERMAN, speaker=GUEST, scope=Scope.SHARED, language="de")
    if english:
        engine.remember(ENGLISH, speaker=GUEST, scope=Scope.SHARED, language="en")


def test_a_translation_borrows_the_words_of_its_match(engine: MemoryEngine) -> None:
    """Asked in English: the German twin of the English match gains that match's full-text share
    (factor "translation") and ranks right behind it, ahead of every other German memory."""
    _store(engine)
    hits = engine.recall(QUESTION, GUEST, RecallOptions(language="en"))
    assert [h.memory.content for h in hits[:2]] == [ENGLISH, GERMAN]
    english, german = hits[0], hits[1]
    assert german.factors["translation"] > 0.3
    assert german.factors["lexical"] == 0.0  # not one shared word ...
    assert german.factors["translation"] <= english.factors["lexical"]  # ... its twin's words' share


def test_no_translation_without_a_match_in_words(engine: MemoryEngine) -> None:
    """Only the German memory: nothing to borrow from, it ranks on meaning alone."""
    _store(engine, english=False)
    hits = engine.recall(QUESTION, GUEST, RecallOptions(language="en"))
    assert hits[0].memory.content == GERMAN
    assert all("translation" not in h.factors for h in hits)


def test_a_translation_enters_with_its_match(make_engine: Callable[..., MemoryEngine]) -> None:
    """With a semantic bar nothing reaches, the English match enters by its words and brings its
    German twin along (C08's calibration admits one sub-threshold hit, the English one: the
    German one is there by translation); alone, the German one is that calibrated hit."""
    strict = RecallOptions(language="en", min_similarity=0.95)
    both, german_only = make_engine("both.db"), make_engine("german.db")
    _store(both)
    _store(german_only, english=False)
    hits = both.recall(QUESTION, GUEST, strict)
    assert [h.memory.content for h in hits] == [ENGLISH, GERMAN]
    assert "translation" in hits[1].factors
    alone = german_only.recall(QUESTION, GUEST, strict)
    assert [(h.memory.content, "translation" in h.factors) for h in alone] == [(GERMAN, False)]


def test_no_borrowing_within_one_language(engine: MemoryEngine) -> None:
    """Two English wordings are no translation: each keeps its own words."""
    _store(engine)
    rephrased = "Leo goes swimming on Wednesdays at 4 pm."
    engine.remember(rephrased, speaker=GUEST, scope=Scope.SHARED, language="en")
    hits = engine.recall(QUESTION, GUEST, RecallOptions(language="en", limit=10))
    assert all("translation" not in h.factors for h in hits if h.memory.language == "en")


def test_a_translation_never_crosses_visibility(engine: MemoryEngine) -> None:
    """Anna's private German note is no one else's twin: Julian gets the shared English one only."""
    for text in GERMAN_FILLER:
        engine.remember(text, speaker=GUEST, scope=Scope.SHARED, language="de")
    engine.remember(ENGLISH, speaker=GUEST, scope=Scope.SHARED, language="en")
    private = engine.remember(GERMAN, speaker=Speaker(person_id=ANNA), scope=Scope.PRIVATE, language="de")
    julian = engine.recall(QUESTION, Speaker(person_id=JULIAN), RecallOptions(language="en", limit=10))
    assert ENGLISH in [h.memory.content for h in julian]
    assert all(h.memory.id != private.memory.id for h in julian)
    anna = engine.recall(QUESTION, Speaker(person_id=ANNA), RecallOptions(language="en", limit=10))
    assert any(h.memory.id == private.memory.id and "translation" in h.factors for h in anna)


def test_a_translation_keeps_its_numbers(make_engine: Callable[..., MemoryEngine]) -> None:
    """Close in meaning (USE-m3 cosine 0.68) but another number: the German code is no twin of the
    English one and borrows nothing; the same code in German is one."""
    for name, german in (("other.db", "Der Garagencode ist 5521."), ("same.db", "Der Garagencode ist 4471.")):
        engine = make_engine(name)
        for text in GERMAN_FILLER:
            engine.remember(text, speaker=GUEST, scope=Scope.SHARED, language="de")
        engine.remember("The garage code is 4471.", speaker=GUEST, scope=Scope.SHARED, language="en")
        twin = engine.remember(german, speaker=GUEST, scope=Scope.SHARED, language="de")
        hits = engine.recall("What is the garage code?", GUEST, RecallOptions(language="en", limit=10))
        borrowed = [h for h in hits if h.memory.id == twin.memory.id and "translation" in h.factors]
        assert bool(borrowed) == (name == "same.db"), name
