"""utterances.answer_then: an utterance that opens with an answer word set off by punctuation and
goes on (conversation.py answers a waiting question with a plain yes or no, then what follows)."""

from __future__ import annotations

import pytest

from custom_components.memory.utterances import Opening, answer_then, names_something, yes_or_no

GOES_ON = [
    ("en", "No, turn on the kitchen light.", Opening("no", True, "turn on the kitchen light.")),
    ("en", "Yes. What time is it?", Opening("yes", True, "What time is it?")),
    ("en", "Yes - turn it off", Opening("yes", True, "turn it off")),
    ("en", "No\u2014what time is it", Opening("no", True, "what time is it")),
    ("en", "No\u2026 turn it on", Opening("no", True, "turn it on")),
    ("en", "No! Turn it on", Opening("no", True, "Turn it on")),
    (
        "en",
        "No, remember that Julian\u2019s bike is in the shed.",
        Opening("no", True, "remember that Julian\u2019s bike is in the shed."),
    ),
    ("en", '"No, turn on the kitchen light."', Opening("no", True, "turn on the kitchen light.")),
    ("en", "No thanks, turn it on", Opening("no", True, "turn it on")),
    ("en", "No, no, no, turn it on", Opening("no", True, "turn it on")),
    ("en", "Okay, turn it on", Opening("yes", False, "turn it on")),
    ("en", "Okay, yes, turn it on", Opening("yes", True, "turn it on")),
    ("de", "Nein danke, wie spät ist es?", Opening("no", True, "wie spät ist es?")),
    ("de", "Ja bitte: Licht an", Opening("yes", True, "Licht an")),
    ("de", "Klar, Licht an", Opening("yes", False, "Licht an")),
    ("it", "Sì, che ore sono?", Opening("yes", True, "che ore sono?")),
    ("fr", "«Non, allume la lumière»", Opening("no", True, "allume la lumière")),
    ("fr", '«Non… retiens que le code est "1234"»', Opening("no", True, 'retiens que le code est "1234"')),
    ("fr", "Oui, oui. Allume la lumière", Opening("yes", True, "Allume la lumière")),
    ("es", "No gracias, ¿qué hora es?", Opening("no", True, "¿qué hora es?")),
    ("es", "¡Sí, enciende la luz!", Opening("yes", True, "enciende la luz!")),
    ("es", "Vale, enciende la luz", Opening("yes", False, "enciende la luz")),
]
# Not set off: the opening word belongs to what follows, or nothing follows.
ONLY_AN_ANSWER = [
    ("en", "Don't turn off the kitchen light", "no"),
    ("en", "No turn on the light", "no"),
    ("en", "No.", "no"),
    ("en", "Nope!", "no"),
    ("en", "No? Turn it on", "no"),  # "?" sets nothing off: "Yes?" may mean "what?"
    ("de", "Nicht das Küchenlicht ausschalten", "no"),
    ("it", "Non spegnere la luce", "no"),
]


@pytest.mark.parametrize(("language", "said", "expected"), GOES_ON)
def test_an_answer_set_off_by_punctuation_goes_on(language: str, said: str, expected: Opening) -> None:
    assert answer_then(said, language) == expected


@pytest.mark.parametrize(("language", "said", "answer"), ONLY_AN_ANSWER)
def test_an_answer_not_set_off_is_only_an_answer(language: str, said: str, answer: str) -> None:
    assert answer_then(said, language) is None
    assert yes_or_no(said, language) == answer


def test_a_sentence_opening_with_another_word_is_no_answer() -> None:
    assert answer_then("Turn on the light, please.", "en") is None
    assert answer_then("Where, exactly, is the key?", "en") is None
    assert answer_then("Oh no, turn it on", "en") is None


MIXED = [
    ("en", "Yeah, no, keep it."),
    ("en", "Yes, I mean no, keep it, I still need it."),
    ("it", "Sì, cioè no, tienilo."),
    ("fr", "Oui, enfin non, garde-le."),
    ("es", "Sí, bueno, no, guárdalo."),
]


@pytest.mark.parametrize(("language", "said"), MIXED)
def test_a_yes_and_a_no_together_answer_nothing(language: str, said: str) -> None:
    assert yes_or_no(said, language) is None
    assert answer_then(said, language) is None


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Yes, no problem."), ("en", "Yeah, no worries, forget it."), ("es", "Sí, no hay problema.")],
)
def test_no_problem_is_a_yes(language: str, said: str) -> None:
    assert yes_or_no(said, language) == "yes"


@pytest.mark.parametrize(
    ("language", "content", "names"),
    [
        ("en", "it, I don't need that key anymore.", False),
        ("en", "that", False),
        ("en", "the spare key, the blue one", True),
        ("de", "das bitte, das ist wichtig", False),
        ("de", "den Müll, der am Mittwoch rausgeht", True),
        ("en", "this: the bins go out on Wednesday.", True),
        ("de", "das bitte nicht, das ist privat.", False),
        ("en", "nothing about that, it was private.", False),
        ("fr", "pas ça, c'est privé", False),
    ],
)
def test_a_memory_sentence_names_something_before_its_first_stop(
    language: str, content: str, names: bool
) -> None:
    assert names_something(content, language) is names
