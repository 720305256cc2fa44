"""The one rule for "a question only a private memory could answer" (engine/audience.py
needs_recognition over language.asks_about_self): an unknown speaker asking about themself, in
every language the integration answers in; never a recognised person or the administrator;
never a question about the house, nor the "me" of a request to be told."""

from __future__ import annotations

import pytest

from custom_components.memory.engine.audience import needs_recognition
from custom_components.memory.engine.language import asks_about_self
from custom_components.memory.engine.models import Speaker, SpeakerSource

from .conftest import HALL, JULIAN

STRANGER = Speaker(area_id=HALL)
ABOUT_THEMSELF = [
    ("en", "What's my dentist appointment?"),
    ("en", "When is my appointment?"),
    ("en", "What do I like?"),
    ("en", "Tell me what I like."),
    ("de", "Was mag ich?"),
    ("de", "Wann ist mein Zahnarzttermin?"),
    ("de", "Sag mir, was ich mag."),
    ("es", "¿Qué me gusta?"),
    ("es", "¿Cuándo es mi cita?"),
    ("fr", "Qu'est-ce que j'aime ?"),
    ("fr", "Qu\u2019est-ce que j\u2019aime ?"),
    ("fr", "Quand est mon rendez-vous ?"),
    ("it", "Cosa mi piace?"),
    ("it", "Dimmi cosa mi piace."),
    ("it", "Quando è il mio appuntamento?"),
]
ABOUT_THE_HOUSE = [
    ("en", "When is the bin day?"),
    ("en", "Tell me when the bins go out."),
    ("en", "Can you remind me where the spare key is?"),
    ("de", "Wann wird der Müll abgeholt?"),
    ("de", "Sag mir, wo der Ersatzschlüssel ist."),
    ("de", "Kannst du mir sagen, wann die Müllabfuhr kommt?"),
    ("es", "¿Me dices dónde está la llave?"),
    ("es", "Dime dónde está la llave."),
    ("fr", "Dis-moi où est la clé."),
    ("fr", "Tu me dis où est la clé ?"),
    ("it", "Mi dici dov'è la chiave?"),
    ("it", "Dimmi dov'è la chiave."),
]


@pytest.mark.parametrize(("language", "question"), ABOUT_THEMSELF)
def test_a_strangers_question_about_themself_needs_recognition(language: str, question: str) -> None:
    assert asks_about_self(question, language)
    assert needs_recognition(STRANGER, question, language)
    for known in (
        Speaker(person_id=JULIAN, area_id=HALL, source=SpeakerSource.VOICE),
        Speaker(person_id=JULIAN),
        Speaker.administrator(),
    ):
        assert not needs_recognition(known, question, language)


@pytest.mark.parametrize(("language", "question"), ABOUT_THE_HOUSE)
def test_a_question_about_the_house_needs_no_one(language: str, question: str) -> None:
    assert not asks_about_self(question, language)
    assert not needs_recognition(STRANGER, question, language)
