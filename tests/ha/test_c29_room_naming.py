"""Case C29, naming the room: a question that names an area (its name or an alias in the area
registry) recalls that area's room memories from anywhere — a phone with no area, another room's
satellite, the memory.recall service — in any language; a private memory never follows a name,
and without a named area C06 holds (the hall never sees the kitchen's room notes)."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import area_registry as ar

from custom_components.memory.answers import reply
from custom_components.memory.engine.models import Scope
from custom_components.memory.speaker import areas_named
from tests.conftest import Resident, Room, async_call

from .helpers_conversation import async_all_memories, async_say, speech


class Said:
    """One language's turns: the kitchen's name, the room note, a question naming the kitchen,
    questions at the hall that name no room, Julian's private note about the kitchen window."""

    def __init__(
        self,
        area: str,
        note: tuple[str, str],
        named: str,
        unnamed: tuple[str, ...],
        private: tuple[str, str],
    ) -> None:
        self.area = area
        self.note, self.note_marker = note
        self.named = named
        self.unnamed = unnamed
        self.private, self.private_marker = private


SAID = {
    "en": Said(
        "Kitchen",
        ("Remember for this room: the window sticks, lift it before opening.", "lift it before opening"),
        "What do you know about the kitchen window?",
        ("Which window sticks?", "What do you know about the window?"),
        ("Remember that I keep the kitchen window key in my coat pocket.", "coat pocket"),
    ),
    "de": Said(
        "Küche",
        ("Merk dir für diesen Raum: Das Fenster klemmt, vor dem Öffnen anheben.", "vor dem Öffnen anheben"),
        "Was weißt du über das Fenster in der Küche?",
        ("Welches Fenster klemmt?", "Was weißt du über das Fenster?"),
        (
            "Merk dir, dass ich den Schlüssel für das Fenster in der Küche in meiner Jackentasche habe.",
            "Jackentasche",
        ),
    ),
    "it": Said(
        "Cucina",
        (
            "Ricorda per questa stanza: la finestra si blocca, sollevala prima di aprirla.",
            "sollevala prima di aprirla",
        ),
        "Cosa sai della finestra della cucina?",
        ("Quale finestra si blocca?", "Cosa sai della finestra?"),
        (
            "Ricorda che io tengo la chiave della finestra della cucina nella tasca del cappotto.",
            "tasca del cappotto",
        ),
    ),
    "fr": Said(
        "Cuisine",
        (
            "Souviens-toi pour cette pièce : la fenêtre coince, soulève-la avant de l'ouvrir.",
            "soulève-la avant de l'ouvrir",
        ),
        "Que sais-tu sur la fenêtre de la cuisine ?",
        ("Quelle fenêtre coince ?", "Que sais-tu sur la fenêtre ?"),
        (
            "Souviens-toi que je garde la clé de la fenêtre de la cuisine dans la poche de mon manteau.",
            "poche de mon manteau",
        ),
    ),
    "es": Said(
        "Cocina",
        (
            "Recuerda para esta habitación: la ventana se atasca, levántala antes de abrirla.",
            "levántala antes de abrirla",
        ),
        "Qué sabes de la ventana de la cocina?",
        ("Qué ventana se atasca?", "Qué sabes de la ventana?"),
        (
            "Recuerda que yo guardo la llave de la ventana de la cocina en el bolsillo del abrigo.",
            "bolsillo del abrigo",
        ),
    ),
}


async def _kitchen_notes(
    hass: HomeAssistant, entry: Any, language: str, julian: Resident, kitchen: Room
) -> None:
    """The kitchen's room note (by an unknown voice at its satellite) and Julian's private note."""
    said = SAID[language]
    stored = await async_say(hass, entry, said.note, language=language, room=kitchen)
    assert speech(stored) == reply(language, "remembered_room")
    stored = await async_say(hass, entry, said.private, language=language, who=julian, room=kitchen)
    assert speech(stored) == reply(language, "remembered_private")
    scopes = {(m.scope, m.area_id, m.owner_id) for m in await async_all_memories(hass, entry)}
    assert scopes == {(Scope.ROOM, kitchen.area_id, None), (Scope.PRIVATE, None, julian.person_id)}


@pytest.mark.parametrize("language", list(SAID))
async def test_c29_naming_the_room(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    hall: Room,
    language: str,
) -> None:
    said = SAID[language]
    ar.async_get(hass).async_update(kitchen.area_id, name=said.area)
    await _kitchen_notes(hass, memory_entry, language, julian, kitchen)

    # named: from a phone with no area (Anna, or an unknown voice) and from the hall satellite
    for who, room in ((anna, None), (None, None), (anna, hall), (None, hall)):
        answer = speech(
            await async_say(hass, memory_entry, said.named, language=language, who=who, room=room)
        )
        assert said.note_marker in answer, (who, room, answer)
        assert said.private_marker not in answer, (who, room, answer)  # Julian's, never Anna's
    # not named: at the hall the kitchen's note stays in the kitchen (C06)
    for question in said.unnamed:
        for who in (anna, None):
            answer = speech(
                await async_say(hass, memory_entry, question, language=language, who=who, room=hall)
            )
            assert said.note_marker not in answer, (question, who, answer)
            assert said.private_marker not in answer, (question, who, answer)
    # Julian naming the kitchen hears his own note: the private memory is there to be found
    mine = speech(await async_say(hass, memory_entry, said.named, language=language, who=julian, room=hall))
    assert said.private_marker in mine


@pytest.mark.parametrize("language", ["en", "de"])
async def test_c29_naming_the_room_through_the_recall_service(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    hall: Room,
    language: str,
) -> None:
    """memory.recall with no area, naming the kitchen: the room note, never Julian's private note
    (for Anna or no one); at the hall without naming it: nothing of the kitchen."""
    said = SAID[language]
    ar.async_get(hass).async_update(kitchen.area_id, name=said.area)
    await _kitchen_notes(hass, memory_entry, language, julian, kitchen)

    def contents(response: dict[str, Any]) -> str:
        return " ".join(m["content"] for m in response["memories"])

    for person in ({}, {"person": anna.person_id}):
        found = contents(await async_call(hass, "recall", {"query": said.named, "limit": 10, **person}))
        assert said.note_marker in found
        assert said.private_marker not in found
        for question in said.unnamed:
            data = {"query": question, "limit": 10, "area": hall.area_id, **person}
            assert said.note_marker not in contents(await async_call(hass, "recall", data))


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "What do you know about the window in the scullery?"),
        ("de", "Was weißt du über das Fenster in der Küche?"),
        ("it", "Cosa sai della finestra della cucina?"),
    ],
)
async def test_c29_an_alias_names_the_room(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    kitchen: Room,
    hall: Room,
    language: str,
    question: str,
) -> None:
    """The area is called "Kitchen"; its aliases name it too, in any language."""
    ar.async_get(hass).async_update(kitchen.area_id, aliases={"Scullery", "Küche", "cucina"})
    stored = await async_say(hass, memory_entry, SAID["en"].note, room=kitchen)
    assert speech(stored) == reply("en", "remembered_room")
    for room in (None, hall):
        answer = speech(await async_say(hass, memory_entry, question, language=language, room=room))
        assert SAID["en"].note_marker in answer, (room, answer)


async def test_areas_named(hass: HomeAssistant, kitchen: Room, hall: Room) -> None:
    """Names and aliases as whole words, in any case, diacritics aside, a genitive "s"; no compound,
    no part of a longer word."""
    registry = ar.async_get(hass)
    registry.async_update(kitchen.area_id, name="Küche", aliases={"Kitchen", "Cucina"})
    living = registry.async_create("Living room")
    assert areas_named(hass, "das Fenster in der Küche") == (kitchen.area_id,)
    assert areas_named(hass, "DAS FENSTER IN DER KUCHE") == (kitchen.area_id,)
    assert areas_named(hass, "the kitchen window") == (kitchen.area_id,)
    assert areas_named(hass, "the kitchen's window and the hall") == (kitchen.area_id, hall.area_id)
    assert areas_named(hass, "la finestra della cucina") == (kitchen.area_id,)
    assert areas_named(hass, "what is in the living room?") == (living.id,)
    assert areas_named(hass, "Was weißt du über das Küchenfenster?") == ()
    assert areas_named(hass, "Hallo, which window sticks in the hallway?") == ()
    assert areas_named(hass, "which room is it?") == ()
