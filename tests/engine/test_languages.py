"""Recall in the encoder's languages beyond the five we tuned (engine/language.py): Russian,
Chinese, Japanese, Turkish and Thai sentences of our own, through the real engine and the bundled
encoder, on every store; plus the word cutting, detection and terms each language gets."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from custom_components.memory.engine import language
from custom_components.memory.engine.api import MemoryDraft, RecallOptions
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.extraction import ExtractedFact
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.base import Visibility
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.terms import document_terms, query_terms, query_words

from .conftest import legacy_database

GUEST = Speaker()
ANCHOR_KEY = b"k" * 32
# What a household says, one fact per language (our own sentences), and other facts around it.
SAID = {
    "ru": "Запасной ключ от подвала лежит в синей жестяной банке в прихожей.",
    "zh": "地下室的备用钥匙放在走廊的蓝色铁盒里。",
    "ja": "地下室の合鍵は廊下の青い缶に入っています。",
    "tr": "Bodrumun yedek anahtarı koridordaki mavi teneke kutuda duruyor.",
}
AROUND = [
    "Бабушкин день рождения третьего мая.",
    "洗碗机的清洁片在水槽下面。",
    "猫は一日に二回ごはんを食べます。",
    "Çöpler perşembe günü dışarı çıkarılıyor.",
    "The wifi password is on the fridge.",
    "Lena's piano lesson is on Mondays at five.",
    "Die Winterreifen liegen in der Garage.",
    "La bici di Anna è in cantina.",
]
# The same place, another thing (an umbrella): what the key must beat.
UMBRELLA = {
    "ru": "Запасной зонт лежит в синей жестяной банке в прихожей.",
    "zh": "备用雨伞放在走廊的蓝色铁盒里。",
    "ja": "予備の傘は廊下の青い缶に入っています。",
    "tr": "Yedek şemsiye koridordaki mavi teneke kutuda duruyor.",
}
# The same question asked in another language than the fact was told in.
ASKED = {
    "ru": ("zh", "备用钥匙在哪里？"),
    "zh": ("ja", "予備の鍵はどこですか？"),
    "ja": ("tr", "Yedek anahtar nerede?"),
    "tr": ("ru", "Где запасной ключ?"),
}


def _remember(engine: MemoryEngine, text: str, lang: str = "en") -> str:
    """Stored as a service would, in HA's configured language (`lang`), whatever it was said in."""
    return engine.remember(MemoryDraft(text, speaker=GUEST, scope=Scope.SHARED, language=lang)).memory.id


# ------------------------------------------------------------------ words
def test_scripts_without_spaces_are_set_apart_from_identifiers() -> None:
    assert language.tokens("工单HX-4471已关闭") == ["工单", "hx-4471", "已关闭"]
    assert language.spaced("工单HX-4471已关闭").split() == ["工单", "HX-4471", "已关闭"]
    assert language.tokens("Ключ HX-4471, ok") == ["ключ", "hx-4471", "ok"]  # other scripts as before


def test_chinese_and_japanese_runs_are_cut_into_bigrams() -> None:
    assert language.bigrams("备用钥匙") == ["备用", "用钥", "钥匙"]
    assert language.bigrams("鍵") == ["鍵"]
    assert language.words("合鍵は廊下") == ["合鍵", "鍵は", "は廊", "廊下"]


def test_thai_gives_no_terms_but_its_numbers_stay() -> None:
    """No segmenter: the lexical legs stay out of the way of Thai words (vector recall only)."""
    assert document_terms("กุญแจสำรองอยู่ในกล่องสีน้ำเงิน 4471", "th") == "4471"
    assert not language.has_lexical_words("กุญแจ")


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "Где лежит запасной ключ?"),
        ("zh", "备用钥匙在哪里？"),
        ("ja", "予備の鍵はどこですか？"),
        ("tr", "Yedek anahtarı nereye koyduk?"),
        ("en", "Where is the spare key?"),
        ("de", "Wo liegt der Ersatzschlüssel?"),
        ("es", "¿Dónde está la llave de repuesto?"),
    ],
)
def test_the_language_of_a_short_question_is_detected(lang: str, text: str) -> None:
    assert language.detect(text) == lang


def test_too_little_text_or_doubt_leaves_the_given_language() -> None:
    assert language.detect("HX-4471") is None
    assert language.detect("ok") is None
    assert language.lexical_language("ok", "de-CH") == "de"
    assert (
        language.lexical_language("Где лежит запасной ключ?", "en") == "ru"
    )  # HA's language, said in Russian


def test_russian_function_words_are_no_terms() -> None:
    assert query_words("Где лежит ключ от подвала?", "ru") == [  # "где", "от" are function words
        frozenset({"леж"}),
        frozenset({"ключ"}),
        frozenset({"подва"}),
    ]
    # no language given: detected, and the words as said beside (as before for the hand-tuned five)
    words = {w for group in query_words("Где лежит ключ от подвала?") for w in group}
    assert {"леж", "ключ", "подва"} <= words and not {"где", "от"} & words


# ------------------------------------------------------------------ recall through the engine
@pytest.mark.parametrize("told", list(SAID))
def test_a_fact_told_in_one_language_is_found_by_a_question_in_another(
    engine: MemoryEngine, told: str
) -> None:
    for text in AROUND:
        _remember(engine, text)
    for lang, text in SAID.items():
        if lang != told:
            _remember(
                engine,
                text.replace("ключ", "зонт")
                .replace("钥匙", "雨伞")
                .replace("鍵", "傘")
                .replace("anahtar", "şemsiye"),
            )
    wanted = _remember(engine, SAID[told])
    asked_in, question = ASKED[told]
    hits = engine.recall(question, GUEST, RecallOptions(limit=3))
    assert hits and hits[0].memory.id == wanted, (asked_in, [h.memory.content for h in hits])


def test_an_identifier_inside_a_chinese_sentence_is_found_exactly(engine: MemoryEngine) -> None:
    """No spaces around the ticket number: it is still an exact anchor, and the other ticket of
    the same shape is left out (C07)."""
    for text in AROUND:
        _remember(engine, text)
    closed = _remember(engine, "维修工单HX-4471已经在周一关闭了。", "zh")
    _remember(engine, "维修工单HX-4478还没有人处理。", "zh")
    hits = engine.recall("工单HX4471怎么样了？", GUEST, RecallOptions(limit=5))
    assert [h.memory.id for h in hits][:1] == [closed]
    assert all("4478" not in h.memory.content for h in hits)
    assert hits[0].factors["lexical"] > 0


def test_a_forgotten_russian_fact_blocks_its_paraphrase(make_engine: Callable[..., MemoryEngine]) -> None:
    engine = make_engine("keyed.db", anchor_key=ANCHOR_KEY)
    memory = _remember(engine, "Код от садовой калитки — 4711.", "ru")
    engine.forget(memory, GUEST)
    paraphrase = "Садовая калитка открывается кодом 4711."
    assert engine.is_tombstoned(paraphrase, scope=Scope.SHARED)
    learned = engine.learn([ExtractedFact(paraphrase, confidence=0.9)], speaker=GUEST, language="ru")
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)
    assert engine.recall("Какой код от калитки?", GUEST) == []


def test_digits_of_every_script_and_full_width_forms_are_one_value() -> None:
    """Arabic-Indic and full-width digits, full-width letters: the same identifier as ASCII."""
    assert language.folded("رمز البوابة ٤٤٧١") == "رمز البوابة 4471"
    assert language.tokens("チケットＨＸ－４４７１") == ["チケット", "hx-4471"]
    assert language.tokens("티켓HX-4471은 닫혔어요") == ["티켓", "hx-4471", "은", "닫혔어요"]  # Hangul apart


@pytest.mark.parametrize(
    ("said", "lang", "asked"),
    [
        ("رمز بوابة الحديقة هو ٤٤٧١.", "ar", "What is the garden gate code, is it 4471?"),
        ("The garden gate code is 4471.", "en", "هل رمز بوابة الحديقة ٤٤٧١؟"),
        ("庭の門の暗証番号は４４７１です。", "ja", "門の暗証番号は4471ですか？"),
        ("티켓HX-4471은 월요일에 닫혔어요.", "ko", "HX-4471 티켓 어떻게 됐어?"),
    ],
)
def test_a_number_is_found_however_its_digits_are_written(
    engine: MemoryEngine, said: str, lang: str, asked: str
) -> None:
    """The code matches exactly (factor "lexical") whatever digits or script it was said in, and
    a memory with another code of its shape is left out (C07), as for ASCII digits."""
    for text in AROUND:
        _remember(engine, text)
    wanted = _remember(engine, said, lang)
    other = said.replace("4471", "4478").replace("٤٤٧١", "٤٤٧٨").replace("４４７１", "４４７８")
    _remember(engine, other, lang)
    hits = engine.recall(asked, GUEST, RecallOptions(limit=5))
    assert [h.memory.id for h in hits][:1] == [wanted]
    assert hits[0].factors["lexical"] > 0
    assert all(not any(d in h.memory.content for d in ("4478", "٤٤٧٨", "４４７８")) for h in hits)


@pytest.mark.parametrize("retold", ["庭の門の暗証番号は１２３４です。", "رمز بوابة الحديقة ١٢٣٤"])
def test_a_forgotten_code_does_not_come_back_in_other_digits(
    make_engine: Callable[..., MemoryEngine], retold: str
) -> None:
    engine = make_engine("keyed.db", anchor_key=ANCHOR_KEY)
    engine.forget(_remember(engine, "The garden gate code is 1234."), GUEST)
    assert engine.is_tombstoned(retold, scope=Scope.SHARED)
    learned = engine.learn([ExtractedFact(retold, confidence=0.9)], speaker=GUEST, language="en")
    assert (learned.skipped_forgotten, learned.stored) == (1, 0)


# ------------------------------------------------------------------ schema
def test_v10_database_gets_terms_of_every_language(tmp_path: Path, encoder: BundledEmbedder) -> None:
    """A memory stored before (words of a Chinese sentence as one run) is indexed again: its
    identifier and its bigrams are found."""
    path = legacy_database(
        tmp_path / "v10.db",
        10,
        "INSERT INTO memories (id, content, kind, language, provenance, scope, confidence, importance,"
        " sensitive, status, source, access_count, created_at, updated_at)"
        " VALUES ('old1', '维修工单HX-4471已经关闭了。', 'fact', 'en',"
        " 'confirmed', 'shared', 1.0, 0.5, 0, 'active', 'service', 0,"
        " '2026-01-01T00:00:00.000000+00:00', '2026-01-01T00:00:00.000000+00:00')",
        "INSERT INTO memories_fts(rowid, content) SELECT rowid, content FROM memories",
        "INSERT INTO memories_terms(rowid, terms) SELECT rowid, lower(content) FROM memories",
    )
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        view = Visibility.of(GUEST)
        assert list(engine.store.term_matches(query_terms("工单关闭"), view, 5)) == ["old1"]
        assert [r.id for r in engine.store.lexical(["hx 4471"], view, 5)] == ["old1"]
    finally:
        engine.close()
