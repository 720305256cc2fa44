"""Values decide sameness (issue 26): two texts that differ only in a value — its sign, decimals,
unit, a date or time, an identifier, an ordinal, or values swapped between the same words — are
never merged or confirmed as one, by any door that merges or confirms: the writer
(engine.remember), learning (engine.learn), the import (engine.import_memories) and
consolidation (engine.consolidate); in every language with lexical rules. The same value written
otherwise ("5,5 °C" / "5.5 °C" in German, "1,234" / "1234" in English, "1 234" / "1234",
"HX-4471" / "hx 4471") still is one text. Real encoder, both stores; one rule
(engine/values.py) read by all four doors.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from custom_components.memory.engine.api import MemoryDraft, RememberResult, WriteAction
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact
from custom_components.memory.engine.facts import Relation
from custom_components.memory.engine.models import Scope, Speaker, Status
from custom_components.memory.engine.text import same_text
from custom_components.memory.engine.values import scan

from .conftest import JULIAN, KITCHEN, add_verbatim

JULIAN_KITCHEN = Speaker(person_id=JULIAN, area_id=KITCHEN)
ADMIN = Speaker.administrator()


@dataclass(frozen=True)
class Pair:
    """Two texts in one language, said one after the other."""

    id: str
    language: str
    first: str
    second: str


# Told one after the other: another value every time, so never one memory.
CHANGED = [
    # the sign
    Pair("sign-en", "en", "The temperature is 5 degrees.", "The temperature is -5 degrees."),
    Pair("minus-sign-en", "en", "The temperature is 5 degrees.", "The temperature is \u22125 degrees."),
    Pair("minus-word-en", "en", "The temperature is 5 degrees.", "The temperature is minus 5 degrees."),
    Pair("below-zero-en", "en", "It was 5 degrees at dawn.", "It was 5 degrees below zero at dawn."),
    Pair("below-zero-first-en", "en", "It was 5 degrees below zero at dawn.", "It was 5 degrees at dawn."),
    Pair("sign-celsius-en", "en", "The freezer is set to -18 °C.", "The freezer is set to 18 °C."),
    Pair("sign-currency-en", "en", "The club account is at -€50.", "The club account is at €50."),
    Pair("minus-spelled-en", "en", "The shed is at minus five degrees.", "The shed is at five degrees."),
    Pair("below-zero-spelled-en", "en", "It was five degrees below zero.", "It was five degrees."),
    Pair("minus-spelled-de", "de", "Draußen hat es minus fünf Grad.", "Draußen hat es fünf Grad."),
    Pair("minus-spelled-zh", "zh", "外面零下五度。", "外面五度。"),
    Pair("sign-de", "de", "Die Temperatur beträgt 5 Grad.", "Die Temperatur beträgt -5 Grad."),
    Pair("minus-word-de", "de", "Die Gefriertruhe hat minus 18 Grad.", "Die Gefriertruhe hat 18 Grad."),
    Pair("sign-it", "it", "La temperatura è di 5 gradi.", "La temperatura è di -5 gradi."),
    Pair("minus-word-it", "it", "Il congelatore è a meno 18 gradi.", "Il congelatore è a 18 gradi."),
    Pair("sign-fr", "fr", "La température est de 5 degrés.", "La température est de -5 degrés."),
    Pair("minus-word-fr", "fr", "Le congélateur est à moins 18 degrés.", "Le congélateur est à 18 degrés."),
    Pair("sign-es", "es", "La temperatura es de 5 grados.", "La temperatura es de -5 grados."),
    Pair("minus-word-es", "es", "El congelador está a menos 18 grados.", "El congelador está a 18 grados."),
    Pair("sign-nl", "nl", "De vriezer staat op -18 graden.", "De vriezer staat op 18 graden."),
    Pair("sign-pt", "pt", "O congelador está a -18 graus.", "O congelador está a 18 graus."),
    Pair("sign-pl", "pl", "Zamrażarka ma -18 stopni.", "Zamrażarka ma 18 stopni."),
    Pair("minus-word-ru", "ru", "Температура минус 5 градусов.", "Температура 5 градусов."),
    Pair("sign-zh", "zh", "冰箱温度是5度。", "冰箱温度是-5度。"),
    Pair("minus-prefix-zh", "zh", "冰箱温度是负5度。", "冰箱温度是5度。"),
    Pair("sign-ja", "ja", "気温は5度です。", "気温は-5度です。"),
    Pair("minus-word-ko", "ko", "기온은 영하 5도입니다.", "기온은 5도입니다."),
    # decimals and digit grouping, as the language writes them
    Pair("grouping-en", "en", "The tank holds 1,250 litres.", "The tank holds 1.250 litres."),
    Pair("grouping-de", "de", "Der Tank fasst 1.250 Liter.", "Der Tank fasst 1,250 Liter."),
    Pair("decimal-en", "en", "The shelf is 2.5 metres wide.", "The shelf is 2 5 metres wide."),
    # units
    Pair("percent-en", "en", "The rent went up by 5 %.", "The rent went up by 5."),
    Pair("percent-euro-de", "de", "Die Miete steigt um 5 %.", "Die Miete steigt um 5 Euro."),
    Pair("percent-euro-fr", "fr", "Le loyer augmente de 5 %.", "Le loyer augmente de 5 €."),
    Pair("percent-euro-es", "es", "El alquiler sube un 5 %.", "El alquiler sube un 5 €."),
    Pair("percent-euro-it", "it", "L'affitto aumenta del 5 %.", "L'affitto aumenta del 5 €."),
    Pair("currency-en", "en", "The parking costs €5.", "The parking costs $5."),
    Pair("pound-euro-en", "en", "The parking costs £5.", "The parking costs €5."),
    Pair("km-m-en", "en", "The trail is 5 km long.", "The trail is 5 m long."),
    Pair("celsius-fahrenheit-en", "en", "The fridge is set to 5 °C.", "The fridge is set to 5 °F."),
    Pair("kg-g-en", "en", "The parcel weighs 5 kg.", "The parcel weighs 5 g."),
    # dates and times
    Pair("pm-am-en", "en", "Dinner is at 7 pm.", "Dinner is at 7 am."),
    Pair("time-en", "en", "The train leaves at 9:30.", "The train leaves at 19:30."),
    Pair("date-de", "de", "Der Termin ist am 1.2.2026.", "Der Termin ist am 2.1.2026."),
    Pair("day-month-de", "de", "Der Termin ist am 12.03.", "Der Termin ist am 13.03."),
    Pair("fraction-date-en", "en", "The appointment is on 3/4.", "The appointment is on 4/3."),
    # the same values, moved between the same words
    Pair("moved-en", "en", "The shop opens at 9 and closes at 5.", "The shop opens at 5 and closes at 9."),
    Pair("swapped-en", "en", "The shop opens at 9 and closes at 5.", "The shop closes at 9 and opens at 5."),
    Pair("range-en", "en", "Office hours are from 9 to 5.", "Office hours are from 5 to 9."),
    # a value said by one only: merging would lose it either way round
    Pair("value-added-en", "en", "The bus leaves from the inn.", "The bus leaves from the inn at 7:45."),
    Pair("value-dropped-en", "en", "The bus leaves from the inn at 7:45.", "The bus leaves from the inn."),
    # identifiers and ordinals
    Pair("identifier-en", "en", "The ticket is HX-4471.", "The ticket is HX-4478."),
    Pair("ordinal-en", "en", "Anna lives on the 3rd floor.", "Anna lives on the 4th floor."),
    Pair("ordinal-de", "de", "Julian wohnt im 3. Stock.", "Julian wohnt im 4. Stock."),
    Pair("ordinal-fr", "fr", "Julian habite au 3e étage.", "Julian habite au 4e étage."),
]  # fmt: skip

# The same value written another way: one text (merged, a duplicate, archived into the first).
SAME = [
    Pair("decimal-comma-de", "de", "Im Keller sind es 5,5 °C.", "Im Keller sind es 5.5 °C."),
    Pair("grouping-en", "en", "The town has 1,234 people.", "The town has 1234 people."),
    Pair("grouping-de", "de", "Die Stadt hat 1.234 Einwohner.", "Die Stadt hat 1234 Einwohner."),
    Pair("grouping-es", "es", "El pueblo tiene 1.234 habitantes.", "El pueblo tiene 1234 habitantes."),
    Pair("space-grouping-fr", "fr", "La ville compte 1 234 habitants.", "La ville compte 1234 habitants."),
    Pair("space-grouping-en", "en", "The town has 1 234 people.", "The town has 1,234 people."),
    Pair("narrow-space-fr", "fr", "La ville compte 1\u202f234 habitants.", "La ville compte 1234 habitants."),
    Pair("minus-sign-en", "en", "It is -5 degrees outside.", "It is \u22125 degrees outside."),
    Pair("minus-word-en", "en", "It is -5 degrees outside.", "It is minus 5 degrees outside."),
    Pair("unit-spacing-en", "en", "The fridge is at 5 °C.", "the fridge is at 5°C"),
    Pair("identifier-case-en", "en", "Ticket HX-4471 is open.", "ticket hx-4471 is open"),
    Pair("identifier-space-en", "en", "Ticket HX-4471 is open.", "Ticket HX 4471 is open."),
    Pair("full-width-zh", "zh", "冰箱温度是\uff0d\uff15度。", "冰箱温度是-5度。"),  # full-width "-5"
]  # fmt: skip


def _ids(pairs: list[Pair]) -> list[str]:
    return [p.id for p in pairs]


def _tell(
    engine: MemoryEngine,
    text: str,
    language: str,
    *,
    key: tuple[str, str, str] | None = None,
    replaces: tuple[str, ...] = (),
) -> RememberResult:
    """Julian remembers `text` for the household; key: (subject, predicate, value)."""
    subject, predicate, value = key or (None, None, None)
    draft = MemoryDraft(
        text, speaker=JULIAN_KITCHEN, scope=Scope.SHARED, language=language, subject=subject,
        predicate=predicate, value=value, replaces=replaces,
    )  # fmt: skip
    return engine.remember(draft)


def _current(engine: MemoryEngine) -> list[str]:
    return sorted(m.content for m in engine.list_memories(ADMIN))


# ---------------------------------------------------------------------------- the writer
@pytest.mark.parametrize("pair", CHANGED, ids=_ids(CHANGED))
def test_the_writer_keeps_a_changed_value_as_a_new_memory(engine: MemoryEngine, pair: Pair) -> None:
    first = _tell(engine, pair.first, pair.language)
    second = _tell(engine, pair.second, pair.language)
    assert second.action is WriteAction.CREATED, second.action  # never MERGED or CONFIRMED into it
    assert second.memory.id != first.memory.id
    # at most asked about as a likely replacement, never settled silently
    assert {c.relation for c in second.conflicts} <= {Relation.REPLACES}
    assert _current(engine) == sorted([pair.first, pair.second])  # the first text is unchanged


@pytest.mark.parametrize("pair", SAME, ids=_ids(SAME))
def test_the_writer_merges_the_same_value_written_otherwise(engine: MemoryEngine, pair: Pair) -> None:
    first = _tell(engine, pair.first, pair.language)
    second = _tell(engine, pair.second, pair.language)
    assert (second.action, second.memory.id) == (WriteAction.MERGED, first.memory.id)
    assert engine.stats().memories == 1


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [
        ("en", "-18 °C", "18 °C"),
        ("en", "5 %", "5"),
        ("en", "€5", "$5"),
        ("de", "2,5 kg", "25 kg"),
    ],
)
def test_a_fact_keys_changed_value_supersedes_never_merges(
    engine: MemoryEngine, language: str, first: str, second: str
) -> None:
    old = _tell(engine, f"The freezer setting is {first}.", language, key=("freezer", "setting", first))
    new = _tell(engine, f"The freezer setting is {second}.", language, key=("freezer", "setting", second))
    assert (new.action, new.superseded) == (WriteAction.CREATED, (old.memory.id,))


@pytest.mark.parametrize(
    ("language", "said", "first", "second"),
    [
        ("de", "Im Keller sind es {}.", "5,5 °C", "5.5 °C"),
        ("en", "The cellar is at {}.", "-18 °C", "\u221218°C"),
        ("fr", "La réparation de la cave coûte {}.", "1 234 €", "1234 €"),
    ],
)
def test_a_fact_keys_value_written_otherwise_merges(
    engine: MemoryEngine, language: str, said: str, first: str, second: str
) -> None:
    old = _tell(engine, said.format(first), language, key=("cellar", "state", first))
    again = _tell(engine, said.format(second) + " !", language, key=("cellar", "state", second))
    assert (again.action, again.memory.id) == (WriteAction.MERGED, old.memory.id)
    assert engine.stats().memories == 1


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (("en", "The oven is at 180 degrees."), ("de", "Der Ofen steht auf 180 Grad.")),
        (("en", "The trail is 5 km long."), ("en", "The trail is 5 kilometres long.")),
        (("en", "The rent went up by 5 %."), ("en", "The rent went up by 5 percent.")),
        (("en", "Anna's birthday is on 12 May."), ("en", "Anna has her birthday on May 12.")),
    ],
    ids=["translation", "unit-word", "percent-word", "date-order"],
)
def test_a_restatement_of_the_same_value_is_confirmed(
    engine: MemoryEngine, first: tuple[str, str], second: tuple[str, str]
) -> None:
    """C12/C24 kept: the same value said in other words or another language is the same fact."""
    told = _tell(engine, first[1], first[0])
    again = _tell(engine, second[1], second[0])
    assert (again.action, again.memory.id, again.memory.content) == (
        WriteAction.CONFIRMED, told.memory.id, first[1],
    )  # fmt: skip


# ---------------------------------------------------------------------------- learning
@pytest.mark.parametrize("pair", CHANGED, ids=_ids(CHANGED))
def test_learning_stores_a_changed_value_never_confirms_the_old(engine: MemoryEngine, pair: Pair) -> None:
    first = _tell(engine, pair.first, pair.language).memory
    result = engine.learn(
        [ExtractedFact(pair.second, confidence=0.9)], speaker=JULIAN_KITCHEN, language=pair.language
    )
    assert (result.merged, result.stored) == (0, 1)
    assert first.id not in result.ids
    assert _current(engine) == sorted([pair.first, pair.second])


@pytest.mark.parametrize("pair", SAME, ids=_ids(SAME))
def test_learning_confirms_the_same_value_written_otherwise(engine: MemoryEngine, pair: Pair) -> None:
    first = _tell(engine, pair.first, pair.language).memory
    result = engine.learn(
        [ExtractedFact(pair.second, confidence=0.9)], speaker=JULIAN_KITCHEN, language=pair.language
    )
    assert (result.merged, result.stored, result.ids) == (1, 0, [first.id])


def test_learning_a_keyed_changed_value_supersedes(engine: MemoryEngine) -> None:
    old = _tell(engine, "The freezer is set to 18 °C.", "en", key=("freezer", "setting", "18 °C")).memory
    said = ExtractedFact(
        "The freezer is set to -18 °C.", subject="freezer", predicate="setting", value="-18 °C",
        scope_hint="shared", confidence=0.9,
    )  # fmt: skip
    result = engine.learn([said], speaker=JULIAN_KITCHEN, language="en")
    assert (result.merged, result.stored, result.superseded) == (0, 1, 1)
    replaced = engine.get(old.id, ADMIN)
    assert replaced is not None and replaced.status is Status.SUPERSEDED


# ---------------------------------------------------------------------------- the import
def _draft(pair: Pair, text: str) -> MemoryDraft:
    return MemoryDraft(text, speaker=JULIAN_KITCHEN, scope=Scope.SHARED, language=pair.language)


@pytest.mark.parametrize("pair", CHANGED, ids=_ids(CHANGED))
def test_an_import_of_a_changed_value_is_no_duplicate(engine: MemoryEngine, pair: Pair) -> None:
    _tell(engine, pair.first, pair.language)
    report = engine.import_memories([_draft(pair, pair.second)])
    assert (report.created, report.duplicates, report.rejected) == (1, 0, ())
    assert _current(engine) == sorted([pair.first, pair.second])


@pytest.mark.parametrize("pair", CHANGED[:6], ids=_ids(CHANGED[:6]))
def test_an_import_of_a_changed_value_is_no_duplicate_of_a_replaced_memory(
    engine: MemoryEngine, pair: Pair
) -> None:
    """What was said here and replaced since is a duplicate of an import; another value is not."""
    first = _tell(engine, pair.first, pair.language).memory
    _tell(engine, "The weather station was taken down.", "en", replaces=(first.id,))
    report = engine.import_memories([_draft(pair, pair.second), _draft(pair, pair.first)])
    assert (report.created, report.duplicates) == (1, 1)  # the second is new; the first known


@pytest.mark.parametrize("pair", SAME, ids=_ids(SAME))
def test_an_import_of_the_same_value_written_otherwise_is_a_duplicate(
    engine: MemoryEngine, pair: Pair
) -> None:
    _tell(engine, pair.first, pair.language)
    report = engine.import_memories([_draft(pair, pair.second)])
    assert (report.created, report.duplicates) == (0, 1)
    assert engine.stats().memories == 1


# ---------------------------------------------------------------------------- consolidation
@pytest.mark.parametrize("pair", CHANGED, ids=_ids(CHANGED))
def test_consolidation_never_archives_a_changed_value(engine: MemoryEngine, pair: Pair) -> None:
    add_verbatim(engine, pair.first, language=pair.language, speaker_id=JULIAN)
    add_verbatim(engine, pair.second, language=pair.language, speaker_id=JULIAN)
    report = engine.consolidate()
    assert (report.merged, report.superseded) == (0, 0)
    assert _current(engine) == sorted([pair.first, pair.second])


@pytest.mark.parametrize("pair", SAME, ids=_ids(SAME))
def test_consolidation_merges_the_same_value_written_otherwise(engine: MemoryEngine, pair: Pair) -> None:
    add_verbatim(engine, pair.first, language=pair.language, speaker_id=JULIAN)
    add_verbatim(engine, pair.second, language=pair.language, speaker_id=JULIAN)
    assert engine.consolidate().merged == 1
    assert engine.stats().active == 1


# ---------------------------------------------------------------------------- the one rule
@pytest.mark.parametrize(
    ("language", "a", "b", "same"),
    [
        ("en", "1,234", "1234", True),
        ("de", "1,234", "1234", False),  # 1.234 in German
        ("de", "1.234", "1234", True),
        ("en", "1.234", "1234", False),
        ("fr", "1 234", "1234", True),
        ("en", "1 234", "1234", True),  # a space groups digits in every language
        ("en", "0171 5551234", "01715551234", False),  # but not after 4 digits: two numbers
        ("de", "1.234,5", "1234,5", True),
        ("en", "1,234.5", "1234.5", True),
        ("de", "2,5", "2.5", True),
        ("en", "2,5", "2.5", True),  # not 3 digits after the mark: a decimal in every language
        (None, "1,234", "1234", False),  # unknown language: 1234 or 1.234, kept apart
        ("de", "5,5 °C", "5.5°C", True),
        ("en", "2.50 €", "2.5 €", False),  # zeros are kept
        ("en", "C++", "C", False),
        ("en", "C#", "C", False),
        ("en", "10² apples", "102 apples", False),  # an exponent, not a digit
        ("en", "CO₂", "CO2", True),
        ("en", "A-", "A", False),
        ("en", "I like 🍕", "I like 🍔", False),
        ("en", "+5", "5", False),
        ("en", "open 9 - 17", "open 9-17", False),  # a range, and a code
        ("en", "-5", "- 5", False),  # a dash before a number, set apart, is no sign
    ],
)
def test_same_text_reads_values_in_the_texts_language(
    language: str | None, a: str, b: str, same: bool
) -> None:
    assert same_text(a, b, language) is same


@given(
    st.integers(min_value=1, max_value=99_999),
    st.sampled_from(["en", "de", "it", "fr", "es", "ru", "zh", None]),
    st.sampled_from(["-{n}", "\u2212{n}", "{n}.5", "{n},5", "{n} %", "€{n}", "{n} km", "{n}th", "HX-{n}"]),
)
def test_any_changed_number_is_another_text(n: int, language: str | None, changed: str) -> None:
    assert not same_text(f"The value is {n} now.", f"The value is {changed.format(n=n)} now.", language)


@given(st.text(max_size=80), st.sampled_from(["en", "de", "fr", "zh", "ko", "th", None]))
def test_any_text_scans_and_is_the_same_text_as_itself(text: str, language: str | None) -> None:
    assert scan(text, language).wording == scan(text, language).wording  # never raises; cached
    assert same_text(text, text, language)


def test_a_value_change_is_a_conflict_the_writer_reports(engine: MemoryEngine) -> None:
    """The quoted case: the old value is named as likely replaced, for a person to settle."""
    first = _tell(engine, "The temperature is 5 degrees.", "en")
    second = _tell(engine, "The temperature is -5 degrees.", "en")
    assert [(c.memory.id, c.relation) for c in second.conflicts] == [(first.memory.id, Relation.REPLACES)]
