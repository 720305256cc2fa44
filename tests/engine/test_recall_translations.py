"""Translations in recall (recall.py step 2c): a memory in another language that says what a
full-text match says borrows that match's words — a fact does not rank lower for having been
told in another language."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from custom_components.memory.engine import recall as recall_mod
from custom_components.memory.engine.api import MemoryDraft, RecallOptions
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store.base import Visibility

from .conftest import ANNA, JULIAN, add_verbatim

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
MORE_FILLER = [
    "Dr. Hoffmann is the children's doctor.",
    "The dentist's appointment card is on the fridge.",
    "Grandpa's optician is in the old town.",
    "The vet is open until six on Fridays.",
    "Leo's football coach is called Tom.",
    "The pharmacy on the corner closes at eight.",
    "Anna's hairdresser moved to Kirchgasse.",
    "The piano tuner comes every spring.",
]
DISHWASHER = "Ticket HX-4478 was the dishwasher, closed."
FILLER_EN = [
    "The dishwasher tablets are under the sink.",
    "The spare bulbs are in the hall cupboard.",
    "The car needs new tyres before winter.",
    "The cat gets fed twice a day.",
]


# Twins in two languages go straight to the store (add_verbatim): told through the writer, a
# translation of a memory is a restatement and only confirms it (facts.relation, C24).


def _store(engine: MemoryEngine, *, english: bool = True) -> None:
    for text in GERMAN_FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language="de"))
    add_verbatim(engine, GERMAN, language="de")
    if english:
        add_verbatim(engine, ENGLISH)


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
    engine.remember(MemoryDraft(rephrased, speaker=GUEST, scope=Scope.SHARED, language="en"))
    hits = engine.recall(QUESTION, GUEST, RecallOptions(language="en", limit=10))
    assert all("translation" not in h.factors for h in hits if h.memory.language == "en")


def test_a_translation_never_crosses_visibility(engine: MemoryEngine) -> None:
    """Anna's private German note is no one else's twin: Julian gets the shared English one only."""
    for text in GERMAN_FILLER:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language="de"))
    engine.remember(MemoryDraft(ENGLISH, speaker=GUEST, scope=Scope.SHARED, language="en"))
    private = add_verbatim(engine, GERMAN, scope=Scope.PRIVATE, owner_id=ANNA, language="de")
    julian = engine.recall(QUESTION, Speaker(person_id=JULIAN), RecallOptions(language="en", limit=10))
    assert ENGLISH in [h.memory.content for h in julian]
    assert all(h.memory.id != private.id for h in julian)
    anna = engine.recall(QUESTION, Speaker(person_id=ANNA), RecallOptions(language="en", limit=10))
    assert any(h.memory.id == private.id and "translation" in h.factors for h in anna)


def test_a_translation_keeps_its_numbers(make_engine: Callable[..., MemoryEngine]) -> None:
    """Close in meaning (USE-m3 cosine 0.80) but another phone number sharing the area code: no
    twin, it borrows nothing; the same number in Italian is one."""
    for name, italian in (("other.db", "L'idraulico di Julian ha il numero 0171 5559999."),
                          ("same.db", "L'idraulico di Julian ha il numero 0171 5551234.")):  # fmt: skip
        engine = make_engine(name)
        for text in GERMAN_FILLER:
            engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language="de"))
        add_verbatim(engine, "Julian's plumber has the number 0171 5551234.")
        twin = add_verbatim(engine, italian, language="it")
        hits = engine.recall(
            "What is the number of Julian's plumber?", GUEST, RecallOptions(language="en", limit=10)
        )
        borrowed = [h for h in hits if h.memory.id == twin.id and "translation" in h.factors]
        assert bool(borrowed) == (name == "same.db"), name


@pytest.mark.parametrize("limit", [1, 2, 3, 4])
def test_borrowed_words_never_push_a_memory_out(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    """Anna asks for her dentist; Julian's English note matches the words and its German copy
    borrows them. That copy only takes places nothing else wants: every memory of the slate
    without step 2c is still in it (it pushed Anna's own dentist out before)."""
    anna = Speaker(person_id=ANNA)
    for text in [*GERMAN_FILLER, *FILLER_EN, *MORE_FILLER]:  # more than one read batch (_ranked_prefix)
        engine.remember(
            MemoryDraft(
                text, speaker=GUEST, scope=Scope.SHARED, language="de" if text in GERMAN_FILLER else "en"
            )
        )
    engine.remember(
        MemoryDraft("Julian's dentist is Dr. Smith on Baker Street.", speaker=GUEST, scope=Scope.SHARED)
    )
    engine.remember(
        MemoryDraft(
            "Julians Zahnarzt ist Dr. Smith in der Baker Street.",
            speaker=GUEST,
            scope=Scope.SHARED,
            language="de",
        )
    )
    engine.remember(
        MemoryDraft(
            "Annas Zahnarzt ist Dr. Weber in der Hauptstraße.",
            speaker=anna,
            scope=Scope.PRIVATE,
            language="de",
        )
    )
    options = RecallOptions(language="en", limit=limit)
    with_twins = {h.memory.id for h in engine.recall("Who is my dentist?", anna, options)}
    monkeypatch.setattr(recall_mod, "TRANSLATION_SEEDS", 0)
    without = {h.memory.id for h in engine.recall("Who is my dentist?", anna, options)}
    assert without <= with_twins


def test_c07_no_twin_of_an_excluded_ticket(engine: MemoryEngine) -> None:
    """The other ticket is dropped by C07; its German twin (no identifier of its own) must not come
    back by borrowing its words."""
    for text in FILLER_EN:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    engine.remember(
        MemoryDraft(
            "The boiler service ticket HX-4471 is waiting for a part.", speaker=GUEST, scope=Scope.SHARED
        )
    )
    engine.remember(MemoryDraft(DISHWASHER, speaker=GUEST, scope=Scope.SHARED))
    twin = add_verbatim(engine, "Das Ticket war die Spülmaschine, geschlossen.", language="de")
    closed = engine.store.similarities([twin.id], engine.embedder.embed([DISHWASHER])[0])
    assert closed[twin.id] >= engine.hubness.same_meaning  # a twin by meaning: C07 must stop it
    hits = engine.recall("Is ticket HX-4471 closed?", GUEST, RecallOptions(language="en", limit=10))
    assert hits[0].memory.content.startswith("The boiler")
    assert all("translation" not in h.factors for h in hits if h.memory.id == twin.id)


def test_a_sensitive_memory_never_borrows(engine: MemoryEngine) -> None:
    """Another password in German is close in meaning to the English one: it gains nothing from
    the English match's words (it could push the right one out of a short slate). Both are
    sensitive here, so this pins "no borrowing between sensitive memories"."""
    for text in FILLER_EN:
        engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED))
    engine.remember(MemoryDraft("The alarm password is bluebird.", speaker=GUEST, scope=Scope.SHARED))
    other = engine.remember(
        MemoryDraft(
            "Das Passwort der Alarmanlage ist Pinguin.", speaker=GUEST, scope=Scope.SHARED, language="de"
        )
    )
    assert other.memory.sensitive
    hits = engine.recall("What is the password for the alarm?", GUEST, RecallOptions(language="en", limit=10))
    assert all("translation" not in h.factors for h in hits if h.memory.id == other.memory.id)


def test_a_borrowed_place_does_not_settle_the_slate_early(engine: MemoryEngine) -> None:
    """Recall reads memories in batches and stops once the slate is settled; a hit whose place
    rests on borrowed words (filled last) must not count towards that: with a 2-place slate, the
    best memory that answers on its own takes the second place even when it is read later."""
    ids = [
        engine.remember(
            MemoryDraft(f"Note number {i} about the house.", speaker=GUEST, scope=Scope.SHARED)
        ).memory.id
        for i in range(recall_mod.FETCH_BATCH_MIN + 4)
    ]
    twin, best, *rest = ids
    candidates = {
        twin: recall_mod.RetrievalCandidate(twin, 0.1, translation=1.0),  # highest bound, borrowed words only
        best: recall_mod.RetrievalCandidate(best, 0.9),
        **{
            mid: recall_mod.RetrievalCandidate(mid, 0.3) for mid in rest
        },  # equal bounds: none settles batch 1
    }
    options = RecallOptions(limit=2)
    prefix = recall_mod._ranked_prefix(
        engine.store,
        candidates,
        [],
        Visibility.of(GUEST),
        options=options,
        now=engine._clock(),
    )
    slate = recall_mod.cap_slate(prefix, [], options)
    assert twin not in {h.memory.id for h in slate}
    assert best in {h.memory.id for h in slate}


LOOKALIKE = "Leos Fußballtraining ist am Freitag um fünf."  # cosine with ENGLISH 0.67: the topic only


def test_only_the_nearest_both_ways_is_a_twin(engine: MemoryEngine) -> None:
    """A German note on the same topic (cosine 0.67 with the English match, above the old 0.55
    level) is no twin while the real translation is there: the translation is the match's nearest
    German memory, so only it borrows; the look-alike ranks on its own meaning."""
    _store(engine)
    lookalike = add_verbatim(engine, LOOKALIKE, language="de")
    vector = engine.embedder.embed([ENGLISH])[0]
    cosines = engine.store.similarities([lookalike.id], vector)
    assert cosines[lookalike.id] >= 0.55  # what the cosine level alone would have taken as a twin
    hits = engine.recall(QUESTION, GUEST, RecallOptions(language="en", limit=10))
    factors = {h.memory.content: h.factors for h in hits}
    assert "translation" in factors[GERMAN]
    assert "translation" not in factors.get(LOOKALIKE, {})
    german = [h.memory.content for h in hits if h.memory.language == "de"]
    assert german[0] == GERMAN


# A Russian note and its Chinese translation at USE-m3 cosine 0.49: Russian-Chinese translations
# often stay under the level an en/de/es pair reaches (docs/recall-tuning.md).
KEY_RU = "Запасной ключ от гаража лежит под горшком с геранью."
KEY_ZH = "车库的备用钥匙放在天竺葵花盆下面。"
AROUND_RU = ["Бабушка приезжает к нам каждое второе воскресенье.", "Мусор вывозят по четвергам рано утром."]
AROUND_ZH = ["猫每天喂两次，早上和晚上。", "无线网络密码写在冰箱上。", "车库的灯泡坏了，需要换新的。"]


def test_a_russian_fact_lends_its_words_to_its_chinese_translation(engine: MemoryEngine) -> None:
    """Asked in Russian: the Chinese translation of the Russian match (the nearest both ways,
    below the cosine an en/de/es pair reaches) borrows its words and leads the Chinese memories."""
    for text in AROUND_RU:
        add_verbatim(engine, text, language="ru")
    for text in AROUND_ZH:
        add_verbatim(engine, text, language="zh")
    add_verbatim(engine, KEY_RU, language="ru")
    twin = add_verbatim(engine, KEY_ZH, language="zh")
    ru, zh = engine.embedder.embed([KEY_RU, KEY_ZH])
    assert float(ru @ zh) < 0.55
    hits = engine.recall("Где лежит запасной ключ от гаража?", GUEST, RecallOptions(limit=10))
    chinese = [h for h in hits if h.memory.language == "zh"]
    assert chinese[0].memory.id == twin.id
    assert "translation" in chinese[0].factors
    assert all("translation" not in h.factors for h in chinese[1:])


class _Vectors:
    """Only what same_meaning_pairs reads of a store (vectors by id): the rule is geometry on
    given vectors, tested here without an encoder."""

    def __init__(self, rows: dict[str, list[float]]) -> None:
        self.rows = {k: np.asarray(v, dtype=np.float32) / np.linalg.norm(v) for k, v in rows.items()}

    def vectors(self, ids: list[str]) -> tuple[list[str], np.ndarray]:
        found = [i for i in ids if i in self.rows]
        return found, np.stack([self.rows[i] for i in found])


def _pairs(rows: dict[str, list[float]], seeds: list[str], level: float = 0.45) -> set[tuple[str, str]]:
    language = {mid: mid.split("-")[0] for mid in rows}
    store = _Vectors(rows)
    return set(recall_mod.same_meaning_pairs(store, seeds, list(rows), language, level))  # type: ignore[arg-type]


def test_a_twin_is_the_nearest_both_ways() -> None:
    """de-twin is en-seed's nearest German memory and en-seed is its nearest English one: a pair.
    de-topic is close to the seed too, but not the nearest: no pair."""
    rows = {
        "en-seed": [1, 0.1, 0],
        "de-twin": [1, 0.15, 0.05],
        "de-topic": [1, 0.8, 0],
        "en-other": [0.2, 1, 0],
    }
    assert _pairs(rows, ["en-seed"]) == {("en-seed", "de-twin")}


def test_no_twin_when_the_other_is_nearer_to_another_memory() -> None:
    """de-near is the seed's nearest German memory but en-closer is nearer to it: not both ways."""
    rows = {"en-seed": [1, 0.5, 0], "de-near": [0.6, 1, 0], "en-closer": [0.55, 1, 0.05]}
    assert _pairs(rows, ["en-seed"]) == set()


def test_no_twin_below_the_level() -> None:
    """Nearest both ways, but at a cosine under the level."""
    rows = {"en-seed": [1, 0, 0], "de-far": [0.3, 1, 0]}
    assert float(_Vectors(rows).rows["en-seed"] @ _Vectors(rows).rows["de-far"]) < 0.45
    assert _pairs(rows, ["en-seed"]) == set()


def test_a_twin_of_a_twin_covers_a_language_without_a_direct_one() -> None:
    """ru-seed and zh-copy are under the level with each other; both pair with en-copy: the Chinese
    one is ru-seed's twin by that one step. A language with a direct twin keeps it."""
    rows = {"ru-seed": [1, 0, 0], "en-copy": [1, 1, 0], "zh-copy": [0, 1, 0.3], "de-copy": [1, 0.2, 0]}
    view = _Vectors(rows).rows
    assert float(view["ru-seed"] @ view["zh-copy"]) < 0.45 <= float(view["en-copy"] @ view["zh-copy"])
    assert _pairs(rows, ["ru-seed"]) == {
        ("ru-seed", "en-copy"),
        ("ru-seed", "zh-copy"),
        ("ru-seed", "de-copy"),
    }


SHED = "The spare key for the garden shed is under the blue flowerpot."
# Other keys, one note per language, told once each: the car key note is a translation in three
# languages; the Chinese mailbox note shares the word 钥匙 ("key") with the question.
KEYS_ELSEWHERE = [
    ("信箱的钥匙挂在门厅里。", "zh"),
    ("車の鍵は玄関のフックにかかっています。", "ja"),
    ("Der Autoschlüssel hängt am Haken neben der Haustür.", "de"),
    ("Las llaves del trastero están en el cajón de la cocina.", "es"),
    ("The car key hangs on the hook by the front door.", "en"),
    ("The cat gets fed twice a day.", "en"),
]


def test_a_match_by_one_common_word_lends_nothing(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked in Chinese for the shed key told in English: the Chinese mailbox note matches the one
    word "key" — not enough to enter by its words, so it lends nothing; its "twins" (the other
    languages' key notes) do not push the answer down as they did (2nd → 5th)."""
    answer = add_verbatim(engine, SHED)
    for text, lang in KEYS_ELSEWHERE:
        add_verbatim(engine, text, language=lang)
    question = "花园小屋的备用钥匙在哪里？"
    hits = engine.recall(question, GUEST, RecallOptions(limit=10))
    assert all("translation" not in h.factors for h in hits)
    place = [h.memory.id for h in hits].index(answer.id)
    monkeypatch.setattr(recall_mod, "TRANSLATION_SEEDS", 0)
    without = [h.memory.id for h in engine.recall(question, GUEST, RecallOptions(limit=10))].index(answer.id)
    assert place == without <= 1
