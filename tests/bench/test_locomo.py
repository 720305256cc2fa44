"""bench/locomo.py on a tiny conversation written here in LoCoMo's JSON shape (no dataset content):
the harness indexes turns with captions and session dates, repairs evidence ids and scores recall
as the paper does."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from locomo import (
    EvidenceLog,
    Question,
    Result,
    evaluate_conversation,
    normalise_evidence,
    parse_session_date,
    summarise,
    turn_content,
)
from metrics import recall_at_k

from custom_components.memory.engine.embedding.bundled import BundledEmbedder


def _qa(question: str, evidence: list[str], category: int) -> dict[str, object]:
    """A QA item in the dataset's shape (answers are not read by the harness)."""
    answer = "adversarial_answer" if category == 5 else "answer"
    return {"question": question, answer: "-", "evidence": evidence, "category": category}


SAMPLE = {
    "sample_id": "conv-test",
    "conversation": {
        "speaker_a": "Alice",
        "speaker_b": "Bob",
        "session_1_date_time": "10:00 am on 3 March, 2024",
        "session_1": [
            {"speaker": "Alice", "dia_id": "D1:1", "text": "I adopted a grey cat named Pepper last week."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Lovely! I am training for a marathon in Lisbon."},
            {
                "speaker": "Alice",
                "dia_id": "D1:3",
                "text": "Look what I got myself!",
                "blip_caption": "a photo of a red bicycle leaning against a wall",
            },
        ],
        "session_2_date_time": "4:30 pm on 10 April, 2024",
        "session_2": [
            {"speaker": "Bob", "dia_id": "D2:1", "text": "I finished the race in four hours."},
            {"speaker": "Alice", "dia_id": "D2:2", "text": "Pepper knocked my coffee mug off the table."},
        ],
        # a date without turns, as conv-26 has: ignored
        "session_3_date_time": "9:00 am on 1 May, 2024",
    },
    "qa": [
        _qa("What is the name of Alice's cat?", ["D1:1"], 4),
        _qa("What colour is Alice's bicycle?", ["D1:3"], 4),
        _qa("What did Alice's cat break?", ["D1:1; D9:9", "D2:2"], 1),  # packed ids, D9:9 unknown
        _qa("Which season did Bob run?", ["D"], 2),  # no id left: skipped
        _qa("Would Bob enjoy hiking?", [], 3),  # empty evidence: counts as recalled
        _qa("What is Bob's favourite opera?", ["D1:2"], 5),
    ],
}


@pytest.fixture(scope="module")
def encoder() -> BundledEmbedder:
    return BundledEmbedder()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (["D1:3"], ["D1:3"]),
        (["D8:6; D9:17"], ["D8:6", "D9:17"]),
        (["D9:1 D4:4 D4:6"], ["D9:1", "D4:4", "D4:6"]),
        (["D:11:26"], ["D11:26"]),
        (["D30:05"], ["D30:5"]),
        (["D"], []),
        (["D2:1", "D2:1"], ["D2:1"]),
    ],
)
def test_normalise_evidence(raw: list[str], expected: list[str]) -> None:
    assert normalise_evidence(raw) == expected


def test_turn_content_and_date() -> None:
    turns = SAMPLE["conversation"]["session_1"]
    assert turn_content(turns[0]) == "Alice: I adopted a grey cat named Pepper last week."
    assert turn_content(turns[2]) == (
        "Alice: Look what I got myself! [image: a photo of a red bicycle leaning against a wall]"
    )
    assert parse_session_date("4:30 pm on 10 April, 2024") == datetime(2024, 4, 10, 16, 30, tzinfo=UTC)


def test_summarise_hand_checked() -> None:
    def result(category: int, evidence: tuple[str, ...], ranking: list[str]) -> Result:
        return Result(Question("q", category, evidence), dict.fromkeys(("engine", "vector", "bm25"), ranking))

    ranking = [f"D1:{i}" for i in range(1, 31)]  # D1:1 first … D1:30 thirtieth
    summary = summarise(
        [
            result(4, ("D1:1",), ranking),  # R@5..50 = 1
            result(4, ("D1:7",), ranking),  # R@5 = 0, R@10.. = 1
            result(1, ("D1:2", "D1:26"), ranking),  # R@5 = R@10 = R@25 = 0.5, R@50 = 1
            result(3, (), []),  # empty evidence counts as recalled
            Result(Question("q", 5, ("D1:1",)), {}, engine_empty=True, engine_ms=9.0),
            Result(Question("q", 5, ("D1:1",)), {}, engine_empty=False, engine_ms=1.0),
        ]
    )
    engine = summary["recall"]["engine"]
    assert engine["4"] == {"n": 2, "R@5": 0.5, "R@10": 1.0, "R@25": 1.0, "R@50": 1.0}
    assert engine["1"] == {"n": 1, "R@5": 0.5, "R@10": 0.5, "R@25": 0.5, "R@50": 1.0}
    assert engine["2"]["n"] == 0
    assert engine["overall"] == {"n": 4, "R@5": 0.625, "R@10": 0.875, "R@25": 0.875, "R@50": 1.0}
    assert summary["adversarial"]["n"] == 2
    assert summary["adversarial"]["engine_empty"] == 0.5
    # nearest rank over all six questions' times (0, 0, 0, 0, 1, 9 ms)
    assert summary["engine_recall_ms"] == {"p50": 0.0, "p95": 9.0}


def test_tiny_conversation_through_the_real_engine(encoder: BundledEmbedder, tmp_path: Path) -> None:
    log = EvidenceLog()
    results, timing = evaluate_conversation(SAMPLE, encoder, tmp_path, log)

    assert log.skipped_questions == 1  # evidence "D" only
    assert log.dropped_ids == ["conv-test D9:9"]
    assert [r.question.category for r in results] == [4, 4, 1, 3, 5]
    assert results[2].question.evidence == ("D1:1", "D2:2")
    assert set(timing) == {"index", "query"}

    cat, bicycle = results[0], results[1]
    # the evidence turn ranks first for the engine: R@1 = 1
    assert recall_at_k(cat.rankings["engine"], cat.question.evidence, 1) == 1.0
    # the bicycle is only in the image caption; BM25 finds the caption's exact word
    assert recall_at_k(bicycle.rankings["bm25"], bicycle.question.evidence, 1) == 1.0
    # vector-only ranks every turn: all five of them come back
    assert sorted(cat.rankings["vector"]) == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2"]

    summary = summarise(results)
    assert summary["recall"]["vector"]["overall"]["R@5"] == 1.0  # 5 turns: everything is in the top 5
    assert summary["recall"]["engine"]["3"] == {"n": 1, "R@5": 1.0, "R@10": 1.0, "R@25": 1.0, "R@50": 1.0}
