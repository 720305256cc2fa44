"""bench/odd_input.py's utterances and the "Odd input" section report.py renders from its results."""

from __future__ import annotations

from typing import Any

import odd_input
import pytest
import report

STEP = {"p50": 1.5, "max": 2.0}


@pytest.mark.parametrize("said_as", list(odd_input.SAID_AS))
@pytest.mark.parametrize("shape", list(odd_input.UNITS))
@pytest.mark.parametrize("language", ["en", "de"])
def test_utterances_fit_the_size(shape: str, said_as: str, language: str) -> None:
    text, content = odd_input.utterance(said_as, shape, 1000, language)
    assert len(text) <= 1000
    assert content and content in text
    assert content == content.strip()
    if said_as == "plain":
        assert text == content


def _doc(**overrides: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "command": "scripts/python bench/odd_input.py --repeats 3",
        "machine": {"cpu": "Test CPU", "nproc": 2, "platform": "Linux", "python": "3.13.5"},
        "date": "2026-12-01 12:00 UTC",
        "cap": 1000,
        "repeats": 3,
        "rows": [
            {"shape": "one word", "said_as": "plain", "size": 1000, "chars": 1000,
             "steps": {"hassil en": STEP, "hassil de": STEP, "engine": STEP, "transcript": STEP}},
            {"shape": "one word", "said_as": "remember", "size": 1000, "chars": 1000,
             "steps": {"hassil en": STEP, "hassil de": STEP, "engine": {"p50": 50.0, "max": 60.0},
                       "transcript": STEP}},
        ],
        "over": [
            {"shape": "one word", "said_as": "plain", "size": 2000, "chars": 2000,
             "steps": {"hassil en": STEP, "hassil de": STEP, "engine": STEP}},
            {"shape": "one word", "said_as": "remember", "size": 2000, "chars": 2000,
             "steps": {"hassil en": STEP, "hassil de": STEP, "engine": {"error": "InvalidInput", "ms": 0.1}}},
        ],
        "ha": {
            "rows": [
                {"shape": "one word", "said_as": "plain", "chars": 1000,
                 "steps": {"HA strict": STEP, "HA non-strict": {"p50": 3.0, "max": 4.0},
                           "memory agent turn": {"p50": 700.0, "max": 800.0}}},
            ],
            "area": [{"k": 16, "chars": 127, "p50": 12.0, "max": 12.0}],
        },
    }  # fmt: skip
    return doc | overrides


def test_section_renders_every_step() -> None:
    text = "\n".join(report.odd_input_section(_doc()))
    assert "## Odd input (case C27)" in text
    assert "scripts/python bench/odd_input.py --repeats 3" in text
    assert (
        "| one word | plain | 1.5 / 2 | 1.5 / 2 | recall 1.5 / 2 | 1.5 / 2 | 1.5 / 2 | "
        "3 / 4 | 700 / 800 |" in text
    )
    assert "| one word | Remember: … | 1.5 / 2 | 1.5 / 2 | remember 50 / 60 | 1.5 / 2 |  |  |  |" in text
    assert "| one word | 2000 | 1.5 / 2 | 1.5 / 2 | 1.5 / 2 | 1.5 / 2 | 1.5 / 2 |  |" in text
    assert "engine 60 ms (one word, Remember: …)" in text  # the slowest run per step
    assert "memory agent turn 800 ms (one word, plain)" in text
    assert "| 16 | 127 | 12.0 |" in text


def test_section_without_home_assistant() -> None:
    text = "\n".join(report.odd_input_section(_doc(ha=None, over=[])))
    assert "| one word | plain | 1.5 / 2 | 1.5 / 2 | recall 1.5 / 2 | 1.5 / 2 |  |  |  |" in text
    assert "Above the cap" not in text
    assert "an area name said k times" not in text
