"""The fact rules (engine/facts.py) on real sentences with the bundled encoder, and the writer and
engine acting on them: a restatement confirms, a likely replacement is reported (never settled
silently), `replaces` and `supersede` settle it, history keeps every value. The pairs are the ones
the thresholds were chosen on (docs/consolidation.md); the property test drives random sequences
of remember / replace / forget / consolidate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from custom_components.memory.engine.api import InvalidInput, MemoryDraft, RecallOptions, WriteAction
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.facts import Reading, Relation, relation
from custom_components.memory.engine.language import compound_heads
from custom_components.memory.engine.models import Scope, Speaker, Status
from custom_components.memory.engine.store.base import MemoryStore, Visibility
from custom_components.memory.engine.terms import query_words
from custom_components.memory.engine.writer import embedding_text

from .conftest import ANNA, JULIAN

GUEST = Speaker()
SAME, REPLACES, UNRELATED = Relation.SAME, Relation.REPLACES, Relation.UNRELATED

# (expected, old language, old text, new language, new text)
PAIRS = [
    (SAME, "en", "The bins are emptied on Tuesdays.", "en", "Bin day is Tuesday."),
    (SAME, "en", "The bins are emptied on Tuesdays.", "it", "I bidoni si svuotano il martedì."),
    (SAME, "en", "Bin day is Tuesday.", "it", "I bidoni si svuotano il martedì."),
    (SAME, "en", "My favourite colour is blue.", "en", "Blue is my colour."),
    (SAME, "en", "My favourite colour is blue.", "en", "Favourite colour: blue."),
    (SAME, "de", "Die Mülltonnen werden dienstags geleert.", "de", "Die Müllabfuhr kommt am Dienstag."),
    # a translation with no value in common is asked about: the encoder cannot tell it from another
    # place said in the other language (test_places_across_languages)
    (REPLACES, "en", "The spare key is in the blue tin in the hall.", "de", "Der Ersatzschlüssel liegt in der blauen Dose im Flur."),  # noqa: E501
    (SAME, "en", "The wifi password is on the fridge.", "en", "The WiFi password is stuck to the fridge."),
    (SAME, "en", "Anna's birthday is on 12 May.", "en", "Anna has her birthday on May 12."),
    (REPLACES, "de", "Die Luftpumpe ist in der Garage.", "en", "The bike pump is in the garage."),
    (REPLACES, "en", "The bike pump is in the garage.", "en", "I put the bike pump in the cellar now."),
    (REPLACES, "en", "The bike pump is in the garage.", "en", "The bike pump is in the cellar."),
    (REPLACES, "de", "Die Luftpumpe ist in der Garage.", "de", "Die Luftpumpe ist jetzt im Keller."),
    (REPLACES, "en", "The bike pump is in the garage.", "de", "Die Luftpumpe ist jetzt im Keller."),
    (REPLACES, "en", "I like coffee in the morning.", "en", "I don't drink coffee any more, I drink tea now."),  # noqa: E501
    (REPLACES, "en", "I like coffee in the morning.", "en", "Now it's tea, not coffee."),
    (REPLACES, "en", "I love spicy food.", "en", "I can't stand spicy food any more."),
    (REPLACES, "en", "The bins are emptied on Tuesdays.", "en", "The bins are emptied on Wednesdays."),
    (REPLACES, "en", "The gate code is 4711.", "en", "The gate code is 4712."),
    (REPLACES, "de", "Ich trinke morgens gern Kaffee.", "de", "Ich trinke keinen Kaffee mehr, jetzt Tee."),
    (REPLACES, "en", "The plumber comes on Monday.", "en", "The plumber is coming on Friday instead."),
    (REPLACES, "en", "Anna's birthday is on 12 May.", "en", "Anna's birthday is on 14 May."),
    (REPLACES, "en", "My favourite colour is blue.", "en", "My favourite colour is green."),
    (REPLACES, "it", "La pompa della bici è in garage.", "it", "Ho messo la pompa della bici in cantina."),
    (REPLACES, "fr", "La pompe à vélo est dans le garage.", "fr", "La pompe à vélo est maintenant dans la cave."),  # noqa: E501
    (REPLACES, "es", "El inflador de la bici está en el garaje.", "es", "Ahora el inflador de la bici está en el sótano."),  # noqa: E501
    (UNRELATED, "en", "Anna works night shifts on Tuesdays.", "en", "Anna's bike is in the garage."),
    (UNRELATED, "en", "The bike pump is in the garage.", "en", "The car keys are in the hall."),
    (UNRELATED, "en", "The bins are emptied on Tuesdays.", "en", "The plumber comes on Tuesday."),
    (UNRELATED, "en", "The bike pump is in the garage.", "en", "The lawn mower is in the garage."),
    (UNRELATED, "de", "Die Luftpumpe ist in der Garage.", "de", "Der Rasenmäher steht in der Garage."),
    (UNRELATED, "en", "The alarm code is 2580.", "en", "The gate code is 4711."),
    (UNRELATED, "en", "Anna likes tea.", "en", "Anna works nights."),
    (UNRELATED, "en", "The plumber's number is 0151 2345.", "en", "The electrician's number is 0171 5551234."),  # noqa: E501
    (UNRELATED, "en", "Julian's birthday is on 3 May.", "en", "Anna's birthday is on 3 May."),
    (UNRELATED, "en", "Leo's football training is on Monday.", "en", "Mia's piano lesson is on Monday."),
]  # fmt: skip
# Found by trying to break the rules (2026-12-01): never the same fact — the new one would be lost
NEVER_SAME = [
    ("en", "The garage code is 4711.", "en", "The safe code is 4711."),
    ("en", "The yellow bins are emptied on Tuesdays.", "en", "The blue bins are emptied on Tuesdays."),
    ("en", "The plumber's number is 0151 2345.", "en", "The electrician's number is 0151 2345."),
    ("de", "Julians Geburtstag ist am 12. Mai.", "de", "Annas Geburtstag ist am 12. Mai."),
]
# ... and changes said without "now": asked about, never stored silently beside the old one
CHANGES = [
    ("en", "Grandma's phone number is 030 1234567.", "en", "Grandma has a new number: 030 7654321."),
    ("de", "Die Leiter steht im Schuppen.", "de", "Ich habe die Leiter in den Keller gebracht."),
    ("it", "La scala è nel capanno.", "it", "Ho messo la scala in cantina."),
    ("fr", "L'échelle est dans l'abri.", "fr", "J'ai mis l'échelle dans la cave."),
    ("es", "La escalera está en el cobertizo.", "es", "He puesto la escalera en el sótano."),
    ("en", "The wifi password is Sunflower22.", "en", "The wifi password is Tulip99."),  # values, not names
    ("en", "The meeting is in Berlin.", "en", "The meeting is in Munich."),  # places, not who it is about
]
# Measured misses, all on the safe side (asked, never confirmed away or left unasked):
ASKED_INSTEAD = [
    ("en", "My favourite colour is blue.", "en", "I like blue best."),  # a paraphrase: asked
    ("en", "My favourite colour is blue.", "en", "Anna's favourite colour is green."),  # another's: asked
]


def _relation(encoder: BundledEmbedder, old: tuple[str, str], new: tuple[str, str]) -> Relation:
    vectors = encoder.embed([embedding_text(old[1]), embedding_text(new[1])])
    similarity = float(vectors[0] @ vectors[1])  # USE-m3's raw cosine is the recall scale
    return relation(Reading.of(old[1], old[0]), Reading.of(new[1], new[0]), similarity)


@pytest.mark.parametrize("pair", PAIRS, ids=lambda p: f"{p[0]}:{p[2][:24]}|{p[4][:24]}")
def test_relation_of_two_texts(encoder: BundledEmbedder, pair: tuple[Relation, str, str, str, str]) -> None:
    expected, old_lang, old, new_lang, new = pair
    assert _relation(encoder, (old_lang, old), (new_lang, new)) is expected


@pytest.mark.parametrize(("old_lang", "old", "new_lang", "new"), ASKED_INSTEAD)
def test_known_misses_are_asked_never_confirmed(
    encoder: BundledEmbedder, old_lang: str, old: str, new_lang: str, new: str
) -> None:
    assert _relation(encoder, (old_lang, old), (new_lang, new)) is REPLACES


@pytest.mark.parametrize(("old_lang", "old", "new_lang", "new"), NEVER_SAME)
def test_another_thing_with_the_same_value_is_never_the_same(
    encoder: BundledEmbedder, old_lang: str, old: str, new_lang: str, new: str
) -> None:
    assert _relation(encoder, (old_lang, old), (new_lang, new)) is not SAME


@pytest.mark.parametrize(("old_lang", "old", "new_lang", "new"), CHANGES)
def test_a_change_without_now_is_asked_about(
    encoder: BundledEmbedder, old_lang: str, old: str, new_lang: str, new: str
) -> None:
    assert _relation(encoder, (old_lang, old), (new_lang, new)) is REPLACES


def test_a_restatement_confirms(engine: MemoryEngine) -> None:
    first = engine.remember(
        MemoryDraft("The bins are emptied on Tuesdays.", speaker=GUEST, scope=Scope.SHARED)
    )
    again = engine.remember(
        MemoryDraft("I bidoni si svuotano il martedì.", speaker=GUEST, scope=Scope.SHARED, language="it")
    )
    assert again.action is WriteAction.CONFIRMED and again.memory.id == first.memory.id
    assert again.memory.content == "The bins are emptied on Tuesdays."  # the first wording stays
    assert engine.stats().memories == 1


def test_a_likely_replacement_is_reported_not_settled(engine: MemoryEngine) -> None:
    old = engine.remember(MemoryDraft("The bike pump is in the garage.", speaker=GUEST, scope=Scope.SHARED))
    new = engine.remember(
        MemoryDraft("I put the bike pump in the cellar now.", speaker=GUEST, scope=Scope.SHARED)
    )
    assert new.action is WriteAction.CREATED and new.superseded == ()
    assert [(c.memory.id, c.relation) for c in new.conflicts] == [(old.memory.id, REPLACES)]
    assert engine.get(old.memory.id, GUEST).status is Status.ACTIVE  # type: ignore[union-attr]
    assert engine.supersede([old.memory.id], new.memory.id, GUEST) == (old.memory.id,)
    assert [m.id for m in engine.history(new.memory.id, GUEST)] == [new.memory.id, old.memory.id]
    assert engine.recall("Where is the bike pump?", GUEST)[0].memory.id == new.memory.id
    assert all(h.memory.id != old.memory.id for h in engine.recall("bike pump garage", GUEST))


def test_replaces_supersedes_at_once_and_checks_its_ids(engine: MemoryEngine) -> None:
    old = engine.remember(MemoryDraft("The gate code is 4711.", speaker=GUEST, scope=Scope.SHARED))
    private = engine.remember(
        MemoryDraft("I like tea.", speaker=Speaker(person_id=ANNA), scope=Scope.PRIVATE)
    )
    with pytest.raises(InvalidInput) as err:  # Anna's private memory is not Julian's to replace
        engine.remember(
            MemoryDraft(
                "x is 1.",
                speaker=Speaker(person_id=JULIAN),
                scope=Scope.SHARED,
                replaces=(private.memory.id,),
            )
        )
    assert (err.value.field, err.value.reason) == ("replaces", "unknown_memory")
    new = engine.remember(
        MemoryDraft("The gate code is 4712.", speaker=GUEST, scope=Scope.SHARED, replaces=(old.memory.id,))
    )
    assert new.superseded == (old.memory.id,) and new.conflicts == ()
    with pytest.raises(InvalidInput):  # superseded: no longer current
        engine.supersede([old.memory.id], new.memory.id, GUEST)


def test_another_tellers_i_is_not_mine(engine: MemoryEngine) -> None:
    """Shared, told by two recognised people: Anna's "I" is not Julian's, nothing is compared."""
    engine.remember(MemoryDraft("I like coffee.", speaker=Speaker(person_id=JULIAN), scope=Scope.SHARED))
    anna = engine.remember(
        MemoryDraft("I like coffee a lot.", speaker=Speaker(person_id=ANNA), scope=Scope.SHARED)
    )
    assert anna.action is WriteAction.CREATED and anna.conflicts == ()


THINGS = {"en": ["bike pump", "ladder", "drill"], "de": ["Luftpumpe", "Leiter", "Bohrmaschine"]}
PLACES = {"en": ["garage", "cellar", "attic", "shed"], "de": ["Garage", "Keller", "Dachboden", "Schuppen"]}
SAY = {"en": "The {thing} is in the {place}.", "de": "Die {thing} ist im {place}."}


@pytest.mark.parametrize(("old_lang", "new_lang"), [("en", "en"), ("de", "de"), ("en", "de"), ("de", "en")])
def test_a_thing_in_every_place(encoder: BundledEmbedder, old_lang: str, new_lang: str) -> None:
    """Every thing moved between every two places, in and across two languages: never taken as
    the same fact (that would drop the move) and never as unrelated (that would keep two places
    current); the same place in one language is the same fact. Across languages the same place
    is asked about (no value in common to tell it from a translation)."""
    for thing, first, second in product(range(3), range(4), range(4)):
        old = (old_lang, SAY[old_lang].format(thing=THINGS[old_lang][thing], place=PLACES[old_lang][first]))
        new = (new_lang, SAY[new_lang].format(thing=THINGS[new_lang][thing], place=PLACES[new_lang][second]))
        if old == new:
            continue
        moved = first != second or old_lang != new_lang
        assert _relation(encoder, old, new) is (REPLACES if moved else SAME), (old, new)


# --- property: one current memory per fact, every older value in history ----------------------

_ops = st.lists(
    st.tuples(
        st.sampled_from(["say", "say", "say", "forget", "consolidate"]),
        st.integers(0, 2),
        st.integers(0, 3),
        st.sampled_from(["en", "de"]),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_ops)
def test_property_one_current_memory_per_fact(
    tmp_path_factory: pytest.TempPathFactory,
    encoder: BundledEmbedder,
    new_store: Callable[[Path], MemoryStore],
    ops: list[tuple[str, int, int, str]],
) -> None:
    """Saying where a thing is (the person answers "yes" whenever asked whether it replaces
    something), forgetting, consolidating, in any order: at most one current memory per thing,
    and every superseded memory is in the history of a current one."""
    clock = [datetime(2026, 1, 1, tzinfo=UTC)]
    where = tmp_path_factory.mktemp("prop")  # a store of its own per example
    engine = MemoryEngine(new_store(where / f"{where.name}.db"), encoder, clock=lambda: clock[0])
    engine.open()
    try:
        _play(engine, ops, clock)
        current = engine.list_memories(Speaker.administrator(), limit=100)
        for index in range(3):
            names = (THINGS["en"][index], THINGS["de"][index])
            about = [m for m in current if any(name in m.content for name in names)]
            assert len(about) <= 1, [m.content for m in about]
        admin = Speaker.administrator()
        for memory in engine.store.list_current(
            Visibility.of(admin), limit=100, offset=0, status=Status.SUPERSEDED
        ):
            chain = engine.history(memory.id, admin)
            assert chain[0].status is Status.ACTIVE and memory.id in [m.id for m in chain]
    finally:
        engine.close()


def _play(engine: MemoryEngine, ops: list[tuple[str, int, int, str]], clock: list[datetime]) -> None:
    for op, thing, place, lang in ops:
        clock[0] += timedelta(days=1)
        text = SAY[lang].format(thing=THINGS[lang][thing], place=PLACES[lang][place])
        if op == "say":
            result = engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language=lang))
            if result.action is WriteAction.CREATED and result.conflicts:
                engine.supersede([c.memory.id for c in result.conflicts], result.memory.id, GUEST)
        elif op == "forget":
            for hit in engine.find_to_forget(text, GUEST, limit=1):
                engine.forget(hit.memory.id, GUEST)
        else:
            engine.consolidate()


def test_remember_again_with_replaces_settles_it(engine: MemoryEngine) -> None:
    """The LLM's or an automation's second call: the same words again, now with `replaces`."""
    old = engine.remember(MemoryDraft("The bike pump is in the garage.", speaker=GUEST, scope=Scope.SHARED))
    said = MemoryDraft("The bike pump is in the cellar.", speaker=GUEST, scope=Scope.SHARED)
    new = engine.remember(said)
    assert [c.memory.id for c in new.conflicts] == [old.memory.id]
    again = engine.remember(replace(said, replaces=(old.memory.id,)))
    assert (again.action, again.memory.id, again.superseded) == (
        WriteAction.MERGED,
        new.memory.id,
        (old.memory.id,),
    )
    assert [m.id for m in engine.list_memories(GUEST)] == [new.memory.id]


def test_the_households_fact_whoever_tells_it(engine: MemoryEngine) -> None:
    """Not in the first person, a shared fact is the household's: Anna restating what Julian told
    confirms it; Anna's changing it is asked about."""
    julian, anna = Speaker(person_id=JULIAN), Speaker(person_id=ANNA)
    told = engine.remember(
        MemoryDraft("The bins are emptied on Tuesdays.", speaker=julian, scope=Scope.SHARED)
    )
    again = engine.remember(MemoryDraft("Bin day is Tuesday.", speaker=anna, scope=Scope.SHARED))
    assert (again.action, again.memory.id, again.memory.speaker_id) == (
        WriteAction.CONFIRMED,
        told.memory.id,
        JULIAN,
    )
    moved = engine.remember(
        MemoryDraft("The bins are emptied on Wednesdays now.", speaker=anna, scope=Scope.SHARED)
    )
    assert [c.memory.id for c in moved.conflicts] == [told.memory.id]


# C35: a compound and its head word name the same thing (language.compound_heads)
COMPOUND_MOVES = {
    "de": (
        "Der Werkzeugkasten ist im Keller.",
        "Der Kasten ist jetzt in der Garage.",
        "Wo ist der Werkzeugkasten?",
    ),
    "de-door": (
        "Der Schlüssel für die Kellertür hängt am Haken.",
        "Der Schlüssel für die Tür liegt jetzt in der Schublade.",
        "Wo ist der Schlüssel für die Kellertür?",
    ),
    "nl": (
        "De gereedschapskist staat in de kelder.",
        "De kist staat nu in de garage.",
        "Waar is de gereedschapskist?",
    ),
    "sv": ("Verktygslådan står i källaren.", "Lådan står nu i garaget.", "Var är verktygslådan?"),
    "da": ("Værktøjskassen står i kælderen.", "Kassen står nu i garagen.", "Hvor er værktøjskassen?"),
}  # fmt: skip
COMPOUND_HOUSEHOLD = (
    "Die Waschmaschine läuft am besten nachts.", "Oma hat am 3. Mai Geburtstag.",
    "De fiets van Anna heeft een lekke band.", "De hond krijgt 's ochtends een half blik.",
    "Katten får inte ligga i soffan.", "Bilen ska besiktas i mars.",
    "Hunden får mad to gange om dagen.", "Naboen hedder Jensen.",
    "The bins go out on Tuesday.", "Grandma likes lavender tea.",
)  # fmt: skip


@pytest.mark.parametrize("case", list(COMPOUND_MOVES))
def test_c35_a_compound_and_its_head_word_are_one_thing(engine: MemoryEngine, case: str) -> None:
    """Said later by its head word, a thing first named by a compound is the same thing: the
    move is a likely replacement (asked about, C23), and recall by the compound finds the new
    place too — in every compounding language with a stemmer."""
    language = case.split("-", maxsplit=1)[0]
    first, moved, question = COMPOUND_MOVES[case]
    home = Speaker(person_id=None, area_id="kitchen")
    for other in COMPOUND_HOUSEHOLD:
        engine.remember(MemoryDraft(other, speaker=home, scope=Scope.SHARED))
    old = engine.remember(MemoryDraft(first, speaker=home, scope=Scope.SHARED, language=language)).memory
    result = engine.remember(MemoryDraft(moved, speaker=home, scope=Scope.SHARED, language=language))
    assert result.action is WriteAction.CREATED
    assert [(c.memory.id, c.relation) for c in result.conflicts] == [(old.id, Relation.REPLACES)]
    found = [h.memory.id for h in engine.recall(question, home, RecallOptions(language=language))]
    assert result.memory.id in found and old.id in found


@pytest.mark.parametrize(
    ("language", "word", "head", "expected"),
    [
        ("de", "werkzeugkasten", "kasten", True),
        ("de", "kellertür", "tür", True),
        ("nl", "gereedschapskist", "kist", True),
        ("de", "natur", "tur", False),  # too little before the head to be a compound
        ("de", "kasten", "kasten", False),
        ("en", "toolbox", "box", False),  # English writes compounds apart, or as its own word
        ("fr", "portemanteau", "manteau", False),
    ],
)
def test_compound_heads(language: str, word: str, head: str, expected: bool) -> None:
    assert (head in compound_heads(word, language)) is expected


def test_compounds_do_not_touch_languages_that_write_words_apart() -> None:
    """An English question finds no German head words in its words: "password" is no "sword"."""
    assert query_words("Where is the password?", "en") == [frozenset({"password"})]
    assert compound_heads("password", "en") == []


# C35: the same fact told again in another language
TRANSLATED = {
    "de>en": ("de", "Die Gießkanne steht im Schuppen.", "en", "The watering can is in the shed."),
    "en>de": (
        "en",
        "The spare key is under the doormat.",
        "de",
        "Der Ersatzschlüssel liegt unter der Fußmatte.",
    ),
    "it>en": ("it", "La chiave di riserva è sotto lo zerbino.", "en", "The spare key is under the doormat."),
    "es>de": ("es", "El perro duerme en el sótano.", "de", "Der Hund schläft im Keller."),
    "fr>de": ("fr", "Le vélo d'Anna est dans le garage.", "de", "Annas Fahrrad steht in der Garage."),
    "de>it": (
        "de",
        "Der Schlüssel für den Keller hängt am Haken.",
        "it",
        "La chiave della cantina è appesa al gancio.",
    ),
}
TRANSLATED_HOUSEHOLD = (
    "The bins go out on Tuesday.",
    "Grandma likes lavender tea.",
    "The dentist appointment is on Friday.",
    "Die Waschmaschine läuft am besten nachts.",
    "Il gatto mangia alle sette.",
    "La bici di Julian ha una gomma bucata.",
)


@pytest.mark.parametrize("case", list(TRANSLATED))
def test_c35_the_same_fact_in_another_language_is_asked_about(engine: MemoryEngine, case: str) -> None:
    """Told by one person, then by another in another language: the new telling is stored and the
    first reported as what it likely replaces — the person (or an AI Task judge) settles it, as the
    encoder cannot tell a translation from another thing in the same sentence (the next test)."""
    first_language, first, again_language, again = TRANSLATED[case]
    for other in TRANSLATED_HOUSEHOLD:
        engine.remember(
            MemoryDraft(other, speaker=Speaker(person_id=None, area_id="kitchen"), scope=Scope.SHARED)
        )
    told = engine.remember(
        MemoryDraft(
            first, speaker=Speaker(JULIAN, area_id="kitchen"), scope=Scope.SHARED, language=first_language
        )
    ).memory
    result = engine.remember(
        MemoryDraft(again, speaker=Speaker(ANNA, area_id="hall"), scope=Scope.SHARED, language=again_language)
    )
    assert (result.action, result.reason) == (WriteAction.CREATED, "new")
    assert told.id in {c.memory.id for c in result.conflicts if c.relation is Relation.REPLACES}
    settled = engine.supersede([told.id], result.memory.id, Speaker(ANNA, area_id="hall"))  # the person's yes
    assert settled == (told.id,)
    current = engine.store.list_current(Visibility.of(Speaker(admin=True)), limit=100, offset=0)
    assert len(current) == len(TRANSLATED_HOUSEHOLD) + 1  # one memory of the fact
    history = engine.history(result.memory.id, Speaker(admin=True))
    assert [(m.id, m.speaker_id) for m in history] == [
        (result.memory.id, ANNA),
        (told.id, JULIAN),
    ]  # both tellers


# Another thing or place in the same sentence, told in another language: as near as a translation
# to the encoder (raw cosines beside), so never merged as one.
NOT_TRANSLATED = {
    "de>en": ("de", "Die Gießkanne steht im Schuppen.", "en", "The wheelbarrow is in the shed."),  # 0.47
    "it>en": ("it", "La chiave della cantina è sotto il vaso.", "en",
              "The spare key is in the blue tin."),  # 0.59
    "de>it": ("de", "Der Schlüssel für den Keller hängt am Haken.", "it",
              "La chiave della macchina è appesa al gancio."),  # 0.61
    "fr>en": ("fr", "Le chat dort sur le canapé.", "en", "The dog sleeps on the sofa."),  # 0.71
}  # fmt: skip


@pytest.mark.parametrize("case", list(NOT_TRANSLATED))
def test_c35_another_thing_in_another_language_is_never_confirmed_away(
    engine: MemoryEngine, case: str
) -> None:
    first_language, first, again_language, again = NOT_TRANSLATED[case]
    home = Speaker(person_id=None, area_id="kitchen")
    told = engine.remember(
        MemoryDraft(first, speaker=home, scope=Scope.SHARED, language=first_language)
    ).memory
    result = engine.remember(MemoryDraft(again, speaker=home, scope=Scope.SHARED, language=again_language))
    assert result.action is WriteAction.CREATED and result.memory.id != told.id
    assert engine.get(told.id, home).status is Status.ACTIVE  # type: ignore[union-attr]


TRANSLATED_CHANGES = {
    "moved, said so": (
        "de",
        "Der Ersatzschlüssel liegt unter der Fußmatte.",
        "en",
        "The spare key is in the blue tin now.",
    ),
    "not any more": ("en", "Anna likes lavender tea.", "de", "Anna mag keinen Lavendeltee mehr."),
    "another day": ("it", "I bidoni si svuotano il martedì.", "en", "The bins are emptied on Wednesday."),
    "another number": ("fr", "Le code du portail est 4711.", "de", "Der Code für das Tor ist 4712."),
}


@pytest.mark.parametrize("case", list(TRANSLATED_CHANGES))
def test_c35_a_change_told_in_another_language_is_asked_about(engine: MemoryEngine, case: str) -> None:
    """What says something changed (a change word, a negation, another value) is never taken for
    a translation: stored beside the old one, which it likely replaces (asked, C23)."""
    first_language, first, again_language, again = TRANSLATED_CHANGES[case]
    home = Speaker(person_id=None, area_id="kitchen")
    told = engine.remember(
        MemoryDraft(first, speaker=home, scope=Scope.SHARED, language=first_language)
    ).memory
    result = engine.remember(MemoryDraft(again, speaker=home, scope=Scope.SHARED, language=again_language))
    assert result.action is WriteAction.CREATED
    assert [(c.memory.id, c.relation) for c in result.conflicts] == [(told.id, Relation.REPLACES)]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "The bike pump is in the cellar now."),
        ("en", "We don't have a cat any more."),
        ("de", "Die Luftpumpe ist jetzt im Keller."),
    ],
)
def test_c11_the_same_words_from_another_teller_are_one_memory(
    engine: MemoryEngine, language: str, text: str
) -> None:
    """Not about the teller ("now", "not any more" and all): Anna saying what Julian said is the
    household's one memory, merged — not a second copy reported as replacing the first."""
    told = engine.remember(MemoryDraft(text, speaker=Speaker(JULIAN), scope=Scope.SHARED, language=language))
    again = engine.remember(MemoryDraft(text, speaker=Speaker(ANNA), scope=Scope.SHARED, language=language))
    assert (again.action, again.memory.id, again.conflicts) == (WriteAction.MERGED, told.memory.id, ())
    assert again.memory.speaker_id == JULIAN  # the first teller kept
