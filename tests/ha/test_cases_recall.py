"""Cases C07 (exact identifier) and C08 (meaning without shared words) through Home Assistant:
the memory.recall service and the memory agent's "what do you know about …", real encoder."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant

from tests.conftest import async_call, both_stores
from tests.ha.helpers_conversation import async_say, speech

pytestmark = both_stores  # every test here touches the store: run on SQLite and PostgreSQL

# (language, boiler ticket, dishwasher ticket, "what do you know about {}" in that language)
TICKETS = {
    "en": (
        "The boiler service ticket is HX-4471, waiting for a part.",
        "Ticket HX-4478 was the dishwasher, closed.",
        "What do you know about {}?",
    ),
    "de": (
        "Das Wartungsticket für den Boiler ist HX-4471, es fehlt noch ein Teil.",
        "Ticket HX-4478 war die Spülmaschine, erledigt.",
        "Was weißt du über {}?",
    ),
    "it": (
        "Il ticket di assistenza della caldaia è HX-4471, in attesa di un pezzo.",
        "Il ticket HX-4478 era la lavastoviglie, chiuso.",
        "Cosa sai di {}?",
    ),
}
SPELLINGS = ["HX-4471", "HX 4471", "hx4471", "4471"]  # as typed, or as speech-to-text writes it

# (language, address, "where do we live?") with the household's other memories as distractors
HOME = {
    "en": ("Our home address is Lindenstraße 12.", "Where do we live?"),
    "de": ("Unsere Adresse ist Lindenstraße 12.", "Wo wohnen wir?"),
    "it": ("Il nostro indirizzo di casa è Lindenstraße 12.", "Dove abitiamo?"),
    "fr": ("Notre adresse est Lindenstraße 12.", "Où habitons-nous ?"),
    "es": ("Nuestra dirección es Lindenstraße 12.", "¿Dónde vivimos?"),
}
DISTRACTORS = {
    "en": ["The spare key is in the blue tin.", "The bins go out on Thursday.", "The cat's name is Luna."],
    "de": ["Der Ersatzschlüssel liegt in der blauen Dose.", "Die Tonnen kommen donnerstags raus.",
           "Die Katze heißt Luna."],
    "it": ["La chiave di riserva è nella scatola blu.", "I bidoni escono il giovedì.",
           "Il gatto si chiama Luna."],
    "fr": ["La clé de secours est dans la boîte bleue.", "Les poubelles sortent le jeudi.",
           "Le chat s'appelle Luna."],
    "es": ["La llave de repuesto está en la lata azul.", "La basura sale los jueves.",
           "El gato se llama Luna."],
}  # fmt: skip


async def _remember_all(hass: HomeAssistant, texts: list[str], language: str) -> None:
    for text in texts:
        await async_call(hass, "remember", {"content": text, "language": language})


def _contents(response: dict[str, Any]) -> list[str]:
    return [m["content"] for m in response["memories"]]


@pytest.mark.parametrize("language", list(TICKETS))
@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_c07_exact_identifier(
    household: HomeAssistant, memory_entry: Any, language: str, spelling: str
) -> None:
    boiler, dishwasher, ask = TICKETS[language]
    await _remember_all(household, [boiler, dishwasher, *DISTRACTORS[language]], language)

    recalled = _contents(await async_call(household, "recall", {"query": spelling}))
    assert recalled[:1] == [boiler]
    assert dishwasher not in recalled

    answer = speech(await async_say(household, memory_entry, ask.format(spelling), language=language))
    assert "HX-4471" in answer, answer
    assert "HX-4478" not in answer, answer


@pytest.mark.parametrize("language", list(HOME))
async def test_c08_meaning_without_shared_words(
    household: HomeAssistant, memory_entry: Any, language: str
) -> None:

    address, question = HOME[language]
    await _remember_all(household, [address, *DISTRACTORS[language]], language)
    recalled = _contents(await async_call(household, "recall", {"query": question}))
    assert recalled[:1] == [address]
    assert not set(recalled) & set(DISTRACTORS[language])
