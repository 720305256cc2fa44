"""bench/xquad.py on a tiny hand-written dataset in XQuAD's JSON shape (our own sentences, en/de):
sentence splitting, answer-sentence marking by offset, hand-checked mAP/recall, and one real run."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import xquad

# article 0: paragraph 0 (3 sentences), paragraph 1 (2 sentences); per language.
PARAGRAPHS = {
    "en": (
        "The cellar key hangs on the blue hook. Anna painted the fence last spring. "
        "The boiler was serviced by Mr. Weber on 3 March.",
        "Our dog is called Bruno. He sleeps in the hall.",
    ),
    "de": (
        "Der Kellerschlüssel hängt am blauen Haken. Anna hat den Zaun letzten Frühling gestrichen. "
        "Herr Weber hat den Heizkessel am 3. März gewartet.",
        "Unser Hund heißt Bruno. Er schläft im Flur.",
    ),
}
# (id, paragraph, {lang: (question, answer text)})
QUESTIONS = (
    (
        "q1",
        0,
        {
            "en": ("Who serviced the boiler?", "Mr. Weber"),
            "de": ("Wer hat den Heizkessel gewartet?", "Herr Weber"),
        },
    ),
    ("q2", 1, {"en": ("What is the dog called?", "Bruno"), "de": ("Wie heißt der Hund?", "Bruno")}),
    ("q3", 1, {"en": ("Where does the dog sleep?", "the hall"), "de": ("Wo schläft der Hund?", "Flur")}),
)
LANGS = ("en", "de")


@pytest.fixture
def xquad_dir(tmp_path: Path) -> Path:
    for lang in LANGS:
        paragraphs = []
        for p, context in enumerate(PARAGRAPHS[lang]):
            qas = [
                {
                    "id": qid,
                    "question": by_lang[lang][0],
                    "answers": [{"answer_start": context.index(by_lang[lang][1]), "text": by_lang[lang][1]}],
                }
                for qid, para, by_lang in QUESTIONS
                if para == p
            ]
            paragraphs.append({"context": context, "qas": qas})
        doc = {"version": "1.1", "data": [{"title": "Household", "paragraphs": paragraphs}]}
        (tmp_path / f"xquad.{lang}.json").write_text(json.dumps(doc), encoding="utf-8")
    return tmp_path


def _texts(paragraph: str, lang: str) -> list[str]:
    return [paragraph[s:e] for s, e in xquad.sentence_spans(paragraph, lang)]


def test_sentence_spans_keep_abbreviations_and_german_ordinals() -> None:
    assert _texts(PARAGRAPHS["en"][0], "en") == [
        "The cellar key hangs on the blue hook.",
        "Anna painted the fence last spring.",
        "The boiler was serviced by Mr. Weber on 3 March.",
    ]
    assert _texts(PARAGRAPHS["de"][0], "de") == [
        "Der Kellerschlüssel hängt am blauen Haken.",
        "Anna hat den Zaun letzten Frühling gestrichen.",
        "Herr Weber hat den Heizkessel am 3. März gewartet.",
    ]
    assert _texts("Es war 1999. Dann kam der Winter.", "de") == ["Es war 1999.", "Dann kam der Winter."]


def test_answer_sentence_by_offset() -> None:
    spans = xquad.sentence_spans(PARAGRAPHS["en"][1], "en")  # [(0, 24), (25, 47)]
    assert spans == [(0, 24), (25, 47)]
    assert [xquad.answer_sentence(spans, o) for o in (0, 23, 24, 25, 46)] == [0, 0, 0, 1, 1]


def test_pool_marks_the_answer_sentence_in_every_language(xquad_dir: Path) -> None:
    pool = xquad.load_pool(xquad_dir, LANGS)
    assert [(s.language, s.paragraph, s.position) for s in pool.sentences] == [
        ("en", (0, 0), 0), ("en", (0, 0), 1), ("en", (0, 0), 2), ("en", (0, 1), 0), ("en", (0, 1), 1),
        ("de", (0, 0), 0), ("de", (0, 0), 1), ("de", (0, 0), 2), ("de", (0, 1), 0), ("de", (0, 1), 1),
    ]  # fmt: skip
    assert [(q.qid, q.language) for q in pool.questions] == [
        ("q1", "en"), ("q2", "en"), ("q3", "en"), ("q1", "de"), ("q2", "de"), ("q3", "de"),
    ]  # fmt: skip
    expected = {"q1": {"en": 2, "de": 7}, "q2": {"en": 3, "de": 8}, "q3": {"en": 4, "de": 9}}
    for q in pool.questions:
        assert q.answers == expected[q.qid]  # parallel: the same marks whatever the query language
    assert pool.sentences[7].text == "Herr Weber hat den Heizkessel am 3. März gewartet."
    assert len(xquad.load_pool(xquad_dir, LANGS, questions=2).questions) == 4  # 2 ids x 2 languages


def test_evaluate_hand_checked(xquad_dir: Path) -> None:
    pool = xquad.load_pool(xquad_dir, LANGS)
    ids = list(range(10))

    def rank(q: xquad.Question) -> list[int]:
        if q.language == "en":  # own-language answer first, then everything in id order
            return [q.answers["en"], *(i for i in ids if i != q.answers["en"])]
        return ids[:-1]  # id order; sentence 9 (q3's German answer) never returned

    res = xquad.evaluate(pool, rank)
    off = float(Fraction(1, 3) + Fraction(1, 4) + Fraction(1, 5)) / 3  # answers at ranks 3, 4, 5
    de_de = float(Fraction(1, 3) + Fraction(1, 4) + 0) / 3
    assert res["map"] == {
        "en": {"en": 1.0, "de": pytest.approx(off, abs=1e-4)},
        "de": {"en": pytest.approx(off, abs=1e-4), "de": pytest.approx(de_de, abs=1e-4)},
    }
    assert res["recall@1"] == {"en": {"en": 1.0, "de": 0.0}, "de": {"en": 0.0, "de": 0.0}}
    assert res["recall@10"] == {
        "en": {"en": 1.0, "de": 1.0},
        "de": {"en": 1.0, "de": pytest.approx(2 / 3, abs=1e-4)},
    }
    assert res["found"]["de"]["de"] == pytest.approx(2 / 3, abs=1e-4)
    assert res["gap"] == pytest.approx(off - (1.0 + de_de) / 2, abs=1e-3)
    # pooled, en queries: own answer at rank 1, the German one at ranks 8, 9, 10 -> AP (1 + 2/r) / 2
    pooled_en = sum((1 + Fraction(2, r)) / 2 for r in (8, 9, 10)) / 3
    assert res["pooled_map"]["en"] == pytest.approx(float(pooled_en), abs=1e-4)


def test_run_with_the_bundled_encoder(xquad_dir: Path, tmp_path: Path) -> None:
    doc = xquad.run(xquad_dir, "bundled", None, tmp_path / "memory.db", LANGS)
    assert doc["sentences"] == {"en": 5, "de": 5} and doc["memories"] == 10
    assert doc["questions_per_language"] == 3
    for name in ("vector", "hybrid"):
        res = doc["configs"][name]
        assert set(res["map"]) == set(LANGS) and all(
            0.0 <= v <= 1.0 for row in res["map"].values() for v in row.values()
        )
    vector = doc["configs"]["vector"]
    assert vector["found"] == {q: {m: 1.0 for m in LANGS} for q in LANGS}  # every stored sentence is ranked
    assert vector["recall@1"]["en"]["en"] == 1.0  # "Who serviced the boiler?" etc. find their own sentence
    assert "[hybrid]" in xquad.format_report(doc)
