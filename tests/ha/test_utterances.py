"""utterances.answer_then: a yes/no answer that goes on to something else, set off by punctuation
(conversation.py hands what follows to Home Assistant's agent when it matches it exactly)."""

from __future__ import annotations

import pytest

from custom_components.memory.utterances import answer_then, yes_or_no

GOES_ON = [
    ("en", "No, turn on the kitchen light.", ("no", "turn on the kitchen light.")),
    ("en", "Yes. What time is it?", ("yes", "What time is it?")),
    ("en", "Okay - turn it off", ("yes", "turn it off")),
    ("en", "No\u2014what time is it", ("no", "what time is it")),
    ("en", "Yes!!! Turn it on", ("yes", "Turn it on")),
    ("de", "Nein, wie spät ist es?", ("no", "wie spät ist es?")),
    ("de", "Ja: Licht an", ("yes", "Licht an")),
    ("it", "Sì, che ore sono?", ("yes", "che ore sono?")),
    ("fr", "Non, quelle heure est-il ?", ("no", "quelle heure est-il ?")),
    ("fr", "Garde-le, merci", ("no", "merci")),
    ("es", "No, ¿qué hora es?", ("no", "¿qué hora es?")),
    ("es", "¡Sí, enciende la luz!", ("yes", "enciende la luz!")),
]
# Not set off: the opening word belongs to what follows, or nothing follows.
ONLY_AN_ANSWER = [
    ("en", "Don't turn off the kitchen light", "no"),
    ("en", "No turn on the light", "no"),
    ("en", "No.", "no"),
    ("en", "Nope!", "no"),
    ("de", "Nicht das Küchenlicht ausschalten", "no"),
    ("it", "Non spegnere la luce", "no"),
]


@pytest.mark.parametrize(("language", "said", "expected"), GOES_ON)
def test_an_answer_set_off_by_punctuation_goes_on(
    language: str, said: str, expected: tuple[str, str]
) -> None:
    assert answer_then(said, language) == expected


@pytest.mark.parametrize(("language", "said", "answer"), ONLY_AN_ANSWER)
def test_an_answer_not_set_off_is_only_an_answer(language: str, said: str, answer: str) -> None:
    assert answer_then(said, language) is None
    assert yes_or_no(said, language) == answer


def test_a_sentence_opening_with_another_word_is_no_answer() -> None:
    assert answer_then("Turn on the light, please.", "en") is None
    assert answer_then("Where, exactly, is the key?", "en") is None
