"""Full-text terms (stemmed BM25 leg) and conversation context in recall (recall.py steps 2b, 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from custom_components.memory.engine import recall as recall_mod
from custom_components.memory.engine.api import MemoryDraft, RecallOptions
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.terms import document_terms, query_terms

from .conftest import ANNA, JULIAN, legacy_database

GUEST = Speaker()
FILLER = [
    "The dishwasher tablets are under the sink.",
    "Grandma's birthday is on the 3rd of May.",
    "The wifi password is on the fridge.",
    "We take the bins out on Thursday.",
    "The car needs new tyres before winter.",
    "Lena's piano lesson is on Mondays at five.",
    "The spare bulbs are in the hall cupboard.",
    "The cat gets fed twice a day.",
]
LISBON = [
    "Anna: What did you bring back from Lisbon?",
    "Ben: A blue tile for the kitchen wall.",
    "Anna: Lovely, let's put it up on Sunday.",
]


def _texts(hits: list) -> list[str]:
    return [h.memory.content for h in hits]


# ------------------------------------------------------------------ terms
@pytest.mark.parametrize(
    ("lang", "said", "asked"),
    [
        ("en", "We hiked up to the lake last weekend.", "Where did we go hiking?"),
        ("de", "Die Kinder spielen im Fußballverein, zweimal die Woche Fußball.", "Wann ist Fußball?"),
        ("it", "Abbiamo comprato due biciclette nuove.", "Quale bicicletta abbiamo comprato?"),
        ("fr", "Les enfants adorent les chevaux du voisin.", "Quel cheval préfèrent-ils ?"),
        ("es", "Compramos dos bicicletas rojas.", "¿De qué color es la bicicleta?"),
        ("ru", "Мы купили два новых велосипеда.", "Какие велосипеды вы купили?"),
        ("tr", "Çocuklar komşunun atlarını çok seviyor.", "Komşunun atı nerede?"),  # noqa: RUF001
        ("nl", "De kinderen spelen elke week voetbal.", "Wanneer voetballen de kinderen?"),
        ("pt", "Nós compramos duas bicicletas vermelhas para as crianças.", "De que cor é a bicicleta?"),
    ],
)
def test_a_word_form_meets_its_stem(lang: str, said: str, asked: str) -> None:
    """Indexed in the memory's language, asked in another form of the word: a shared term, with the
    query's language known and unknown (then detected, else every hand-tuned language's stem is
    tried)."""
    indexed = set(document_terms(said, lang).split())
    assert indexed & set(query_terms(asked, lang))
    assert indexed & set(query_terms(asked))


def test_function_words_and_numbers() -> None:
    assert document_terms("The code is 4711 and it is on the door.", "en").split() == ["code", "4711", "door"]
    assert query_terms("What is the code?", "en") == ["code"]
    assert document_terms("Der Code ist 4711.", "de").split() == ["cod", "4711"]  # German stem
    assert query_terms("Who?", "xx") == []  # unsupported language: function words of all removed


def test_full_text_finds_a_word_form_semantics_misses(engine: MemoryEngine) -> None:
    for text in [*FILLER, "We hiked up to the lake last weekend."]:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    hits = engine.recall("hiking", GUEST, RecallOptions(language="en"))
    assert _texts(hits)[0] == "We hiked up to the lake last weekend."
    assert hits[0].factors["lexical"] > 0.2  # "hike" is in 1 of 9 memories


def test_full_text_alone_admits_only_a_strong_match(engine: MemoryEngine) -> None:
    """A row enters by full text alone only at TERMS_ADMIT_MIN: a word in most memories admits nothing."""
    texts = [f"The {thing} is in the garage." for thing in ("ladder", "drill", "bike", "hose", "tent")]
    for text in [*texts, *FILLER]:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    store = engine.store
    scores = store.term_matches(query_terms("garage", "en"), Visibility.of(GUEST), 50)
    assert len(scores) == 5 and max(bm25 for bm25, _ in scores.values()) < recall_mod.TERMS_ADMIT_MIN
    hits = engine.recall("garage", GUEST, RecallOptions(language="en", limit=10))
    assert all(h.similarity >= RecallOptions().min_similarity for h in hits)


# ------------------------------------------------------------------ conversation context
def _lisbon(engine: MemoryEngine, *, same_conversation: bool, speaker: Speaker = GUEST, **kw: object) -> None:
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    for i, text in enumerate(LISBON):
        ref = "conversation-1" if same_conversation else f"conversation-{i}"
        engine.remember(
            MemoryDraft(text, speaker=speaker, scope=kw.get("scope", Scope.SHARED), source_ref=ref)
        )  # type: ignore[arg-type]


def test_context_brings_the_answer_next_to_the_question(engine: MemoryEngine) -> None:
    """The answer shares no word with the question; told right after it, it comes along."""
    _lisbon(engine, same_conversation=True)
    hits = engine.recall("What did Ben bring back from Lisbon?", GUEST, RecallOptions(language="en"))
    assert _texts(hits)[:2] == LISBON[:2]
    answer = hits[1]
    assert answer.factors["context"] == pytest.approx(recall_mod.W_CONTEXT * hits[0].score - 0, rel=0.35)
    assert answer.factors["context"] > answer.factors["similarity"]
    assert answer.similarity >= recall_mod.CONTEXT_ADMIT_SIMILARITY
    # two places away and unrelated on its own (similarity ~0): not added by context
    assert LISBON[2] not in _texts(hits)


def test_no_context_across_conversations(engine: MemoryEngine) -> None:
    _lisbon(engine, same_conversation=False)
    hits = engine.recall("What did Ben bring back from Lisbon?", GUEST, RecallOptions(language="en"))
    assert _texts(hits)[0] == LISBON[0]
    assert all("context" not in h.factors for h in hits)


def test_context_never_crosses_visibility(engine: MemoryEngine) -> None:
    """Julian's private neighbour never rides along for Anna, however close it was told."""
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    engine.remember(MemoryDraft(LISBON[0], speaker=GUEST, scope=Scope.SHARED, source_ref="c"))
    engine.remember(
        MemoryDraft(
            "Ben: A blue tile, and a secret gift for Anna.",
            speaker=Speaker(person_id=JULIAN),
            scope=Scope.PRIVATE,
            source_ref="c",
        )
    )
    anna = Speaker(person_id=ANNA)
    hits = engine.recall("What did Ben bring back from Lisbon?", anna, RecallOptions(language="en"))
    assert LISBON[0] in _texts(hits)
    assert all("secret" not in t for t in _texts(hits))


def test_context_never_brings_a_sensitive_memory(engine: MemoryEngine) -> None:
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    engine.remember(MemoryDraft(LISBON[0], speaker=GUEST, scope=Scope.SHARED, source_ref="c"))
    engine.remember(
        MemoryDraft("Ben: the alarm code is 4711.", speaker=GUEST, scope=Scope.SHARED, source_ref="c")
    )
    stored = engine.store.get_many([m.id for m in engine.list_memories(GUEST)], Visibility.of(GUEST))
    assert any(m.sensitive for m in stored.values())  # the alarm code is marked sensitive
    hits = engine.recall("What did Ben bring back from Lisbon?", GUEST, RecallOptions(language="en"))
    assert all("4711" not in t for t in _texts(hits))


def test_neighbours_in_told_order(engine: MemoryEngine) -> None:
    told = [
        engine.remember(
            MemoryDraft(f"Turn {i} about the garden.", speaker=GUEST, scope=Scope.SHARED, source_ref="c")
        )
        for i in range(6)
    ]
    ids = [r.memory.id for r in told]
    other = engine.remember(
        MemoryDraft("Elsewhere.", speaker=GUEST, scope=Scope.SHARED, source_ref="d")
    ).memory.id
    near = engine.store.neighbours([ids[0], ids[3], other], Visibility.of(GUEST), 2)
    assert near[ids[0]] == [(ids[1], 1), (ids[2], 2)]
    assert sorted(near[ids[3]], key=lambda p: ids.index(p[0])) == [
        (ids[1], 2), (ids[2], 1), (ids[4], 1), (ids[5], 2)
    ]  # fmt: skip
    assert near[other] == []


# ------------------------------------------------------------------ schema v6
def test_v5_database_gets_terms_and_finds_by_stem(tmp_path: Path, encoder: BundledEmbedder) -> None:
    path = legacy_database(
        tmp_path / "v5.db",
        5,
        "INSERT INTO memories (id, content, kind, language, provenance, scope, confidence, importance,"
        " sensitive, status, source, access_count, created_at, updated_at)"
        " VALUES ('old1', 'Wir sind im Sommer oft gewandert, am liebsten in den Bergen.', 'fact', 'de',"
        " 'confirmed', 'shared', 1.0, 0.5, 0, 'active', 'service', 0,"
        " '2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00')",
    )
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        found = engine.store.term_matches(query_terms("Berg", "de"), Visibility.of(GUEST), 5)
        assert list(found) == ["old1"]
    finally:
        engine.close()


def test_a_conversation_that_answers_floats_up_together(engine: MemoryEngine) -> None:
    """Hits of one conversation gain W_CONVERSATION x its best hit's score, beyond the window too;
    hits without a conversation gain nothing."""
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    told = [
        "Anna: What did you bring back from Lisbon?",
        "Ben: Not much.",
        "Anna: Oh well.",
        "Ben: We should plan the garden.",
        "Ben: And I still owe you the Lisbon photos.",
    ]
    for text in told:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, source_ref="c"))
    engine.remember(MemoryDraft("Lisbon is lovely in spring.", speaker=GUEST, scope=Scope.SHARED))
    hits = engine.recall(
        "What did Ben bring back from Lisbon?", GUEST, RecallOptions(language="en", limit=10)
    )
    by_text = {h.memory.content: h for h in hits}
    best = max(h.score - h.factors.get("conversation", 0.0) for h in hits if h.memory.source_ref == "c")
    photos = by_text[told[4]]  # 4 places after the question: outside the window, inside the conversation
    assert "context" not in photos.factors
    assert photos.factors["conversation"] == pytest.approx(recall_mod.W_CONVERSATION * best)
    assert "conversation" not in by_text["Lisbon is lovely in spring."].factors


def test_one_shared_word_admits_nothing(engine: MemoryEngine) -> None:
    """Small talk sharing one word with a memory ("like") does not pull it in by full text."""
    for text in [*FILLER, "Leo does not like mushrooms.", "The school play is on Friday."]:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    for query in ("What's the weather like tomorrow?", "Play the radio"):
        hits = engine.recall(query, GUEST, RecallOptions(language="en"))
        assert all(h.similarity >= RecallOptions().min_similarity for h in hits), query
    assert query_terms("What happens in May?", "en") == ["happen", "may"]  # the month is no function word


def test_full_text_alone_never_brings_a_secret(engine: MemoryEngine) -> None:
    """The speaker's own sensitive memory may be found by meaning, not by two shared words alone."""
    julian = Speaker(person_id=JULIAN)
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    secret = engine.remember(
        MemoryDraft("The PIN of my bank card is 8812.", speaker=julian, scope=Scope.PRIVATE)
    )
    assert secret.memory.sensitive
    hits = engine.recall("Which card game do the kids like?", julian, RecallOptions(language="en"))
    assert all(h.memory.id != secret.memory.id for h in hits)


def test_c07_holds_for_neighbours(engine: MemoryEngine) -> None:
    """Both tickets told in one conversation: the other ticket never comes along as context."""
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    for text in ("The boiler service ticket is HX-4471, waiting for a part.",
                 "Ticket HX-4478 was the dishwasher, closed."):  # fmt: skip
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, source_ref="c"))
    hits = engine.recall("What's the status of HX-4471?", GUEST, RecallOptions(language="en"))
    assert _texts(hits)[0].startswith("The boiler")
    assert all("HX-4478" not in t for t in _texts(hits))


def test_unrelated_facts_of_one_conversation_do_not_ride_along(engine: MemoryEngine) -> None:
    """Facts learned in one conversation are no dialogue: a neighbour unrelated to the question
    (similarity < CONTEXT_ADMIT_SIMILARITY) is not added by context."""
    for text in FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    learned = ["The spare key is under the blue flower pot.", "The kids go to bed at eight.",
               "Anna's mother visits every second Sunday."]  # fmt: skip
    for text in learned:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, source_ref="c"))
    hits = engine.recall("Where is the spare key?", GUEST, RecallOptions(language="en"))
    assert _texts(hits)[0] == learned[0]
    for h in hits:
        if "context" in h.factors and h.memory.content in learned[1:]:
            assert h.similarity >= recall_mod.CONTEXT_ADMIT_SIMILARITY
