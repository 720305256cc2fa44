"""The memory intents through HA's intent machinery, and the sentence templates of every language."""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import intent

from custom_components.memory.answers import REPLIES, reply
from custom_components.memory.const import DOMAIN
from custom_components.memory.engine.language import speaks_as_self
from custom_components.memory.engine.models import Kind, Scope, Speaker
from custom_components.memory.engine.writer import scope_for
from custom_components.memory.intents import (
    INTENT_CONFIRM,
    INTENT_FORGET,
    INTENT_FORGET_ABOUT_ME,
    INTENT_REMEMBER,
    INTENT_WHAT_DO_YOU_KNOW,
    SENTENCE_LANGUAGES,
    _load_sentences,
    infer_kind,
    match_sentence,
    verbatim,
)
from tests.conftest import Resident, Room

from .helpers_conversation import async_all_memories

ALL_INTENTS = (
    INTENT_REMEMBER,
    INTENT_FORGET,
    INTENT_CONFIRM,
    INTENT_FORGET_ABOUT_ME,
    INTENT_WHAT_DO_YOU_KNOW,
)

# (language, sentence, intent, slots): the content keeps the user's words and punctuation.
SENTENCES = [
    ("en", "Remember that I like short answers.", INTENT_REMEMBER, {"content": "I like short answers."}),
    (
        "en",
        "Remember for this room: the window sticks, lift it before opening.",
        INTENT_REMEMBER,
        {"content": "the window sticks, lift it before opening.", "scope": "room"},
    ),
    ("en", "Forget where the spare key is.", INTENT_FORGET, {"query": "where the spare key is."}),
    ("en", "Forget everything about me.", INTENT_FORGET_ABOUT_ME, {}),
    ("en", "What do you know about the window?", INTENT_WHAT_DO_YOU_KNOW, {"query": "the window?"}),
    ("en", "yes", INTENT_CONFIRM, {"answer": "yes"}),
    (
        "de",
        "Bitte merk dir: Der Ersatzschlüssel für den Keller liegt in der blauen Dose im Flur.",
        INTENT_REMEMBER,
        {"content": "Der Ersatzschlüssel für den Keller liegt in der blauen Dose im Flur."},
    ),
    (
        "de",
        "Merk dir für diesen Raum: Das Fenster klemmt, vor dem Öffnen anheben.",
        INTENT_REMEMBER,
        {"content": "Das Fenster klemmt, vor dem Öffnen anheben.", "scope": "room"},
    ),
    ("de", "Vergiss alles über mich.", INTENT_FORGET_ABOUT_ME, {}),
    ("de", "Nein", INTENT_CONFIRM, {"answer": "no"}),
    (
        "it",
        "Ricorda per questa stanza: la finestra si blocca, sollevala prima di aprirla.",
        INTENT_REMEMBER,
        {"content": "la finestra si blocca, sollevala prima di aprirla.", "scope": "room"},
    ),
    ("it", "Dimentica tutto su di me.", INTENT_FORGET_ABOUT_ME, {}),
    ("it", "Sì", INTENT_CONFIRM, {"answer": "yes"}),
    (
        "fr",
        "Souviens-toi que j'aime les réponses courtes.",
        INTENT_REMEMBER,
        {"content": "j'aime les réponses courtes."},
    ),
    (
        "fr",
        "Souviens-toi pour cette pièce : la fenêtre coince, soulève-la avant d'ouvrir.",
        INTENT_REMEMBER,
        {"content": "la fenêtre coince, soulève-la avant d'ouvrir.", "scope": "room"},
    ),
    (
        "fr",
        "Oublie où se trouve la clé de secours.",
        INTENT_FORGET,
        {"query": "où se trouve la clé de secours."},
    ),
    ("fr", "Oui", INTENT_CONFIRM, {"answer": "yes"}),
    (
        "es",
        "Recuerda que me gustan las respuestas cortas.",
        INTENT_REMEMBER,
        {"content": "me gustan las respuestas cortas."},
    ),
    (
        "es",
        "Recuerda para esta habitación: la ventana se atasca, levántala antes de abrir.",
        INTENT_REMEMBER,
        {"content": "la ventana se atasca, levántala antes de abrir.", "scope": "room"},
    ),
    ("es", "Olvida todo sobre mí.", INTENT_FORGET_ABOUT_ME, {}),
    ("es", "Sí", INTENT_CONFIRM, {"answer": "yes"}),
]


@pytest.mark.parametrize(("language", "text", "intent_type", "slots"), SENTENCES)
def test_sentences(language: str, text: str, intent_type: str, slots: dict[str, str]) -> None:
    match = match_sentence(_load_sentences(language), text)
    assert match is not None
    assert (match.intent_type, match.slots) == (intent_type, slots)


@pytest.mark.parametrize("language", SENTENCE_LANGUAGES)
def test_every_language_has_every_intent_and_reply(language: str) -> None:
    sentences = _load_sentences(language)
    assert sentences is not None
    assert set(ALL_INTENTS) <= set(sentences.intents)
    assert REPLIES[language].keys() == REPLIES["en"].keys()


@pytest.mark.parametrize(
    ("language", "text"), [("en", "Turn on the kitchen light"), ("de", "Wie spät ist es?")]
)
def test_other_sentences_are_not_memory_sentences(language: str, text: str) -> None:
    assert match_sentence(_load_sentences(language), text) is None


@pytest.mark.parametrize(
    ("language", "content", "kind", "about_me"),
    [
        ("en", "I like short answers.", Kind.PREFERENCE, True),
        ("en", "my daughter's name is Mia.", Kind.FACT, True),
        ("en", "the spare key is in the blue tin.", Kind.FACT, False),
        ("de", "ich kurze Antworten mag.", Kind.PREFERENCE, True),
        ("de", "Der Ersatzschlüssel liegt in der blauen Dose.", Kind.FACT, False),
        ("it", "mi piacciono le risposte brevi.", Kind.PREFERENCE, True),
        ("it", "la chiave è nella scatola blu.", Kind.FACT, False),
        ("fr", "j'aime les réponses courtes.", Kind.PREFERENCE, True),
        ("fr", "la clé est dans la boîte bleue.", Kind.FACT, False),
        ("es", "me gustan las respuestas cortas.", Kind.PREFERENCE, True),
        ("es", "la llave está en la caja azul.", Kind.FACT, False),
    ],
)
def test_kind_and_scope_from_the_words(language: str, content: str, kind: Kind, about_me: bool) -> None:
    assert infer_kind(content, language) is kind
    known = Speaker(person_id="person.julian")
    assert scope_for(content, language, known) is (Scope.PRIVATE if about_me else Scope.SHARED)
    assert scope_for(content, language, Speaker()) is Scope.SHARED  # an unknown speaker's "I" is shared
    assert scope_for(content, language, known, room=True) is Scope.ROOM


def test_verbatim_keeps_the_users_words() -> None:
    text = "Remember, my PIN hint: 'the year we met' (not the date)!"
    assert (
        verbatim(text, "my PIN hint the year we met not the date")
        == "my PIN hint: 'the year we met' (not the date)!"
    )


async def test_registered_for_the_memory_platform_only(hass: HomeAssistant, memory_entry: Any) -> None:
    handlers = {h.intent_type: h for h in intent.async_get(hass)}
    assert set(ALL_INTENTS) <= handlers.keys()
    assert all(handlers[name].platforms == {DOMAIN} for name in ALL_INTENTS)


async def test_removed_on_unload(hass: HomeAssistant, memory_entry: Any) -> None:
    await hass.config_entries.async_unload(memory_entry.entry_id)
    assert not set(ALL_INTENTS) & {h.intent_type for h in intent.async_get(hass)}


async def test_remember_intent(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, kitchen: Room
) -> None:
    """Dispatched like the agent does: the person and room come from the intent's context/device."""
    response = await intent.async_handle(
        hass,
        DOMAIN,
        INTENT_REMEMBER,
        {"content": {"value": "Ich mag kurze Antworten."}},
        context=julian.context,
        language="de",
        device_id=kitchen.device_id,
    )
    assert response.speech["plain"]["speech"] == reply("de", "remembered_private")
    (memory,) = await async_all_memories(hass, memory_entry)
    assert (memory.content, memory.scope, memory.owner_id, memory.language) == (
        "Ich mag kurze Antworten.",
        Scope.PRIVATE,
        julian.person_id,
        "de",
    )


@pytest.mark.parametrize("slots", [{"content": {"value": "  "}}, {}])
async def test_remember_intent_without_content_asks_what(
    hass: HomeAssistant, memory_entry: Any, slots: dict[str, Any]
) -> None:
    """Blank or no content ("Ricordatelo."): nothing is stored and the reply asks what to remember."""
    response = await intent.async_handle(hass, DOMAIN, INTENT_REMEMBER, slots, context=Context())
    assert response.speech["plain"]["speech"] == reply("en", "remember_what")
    assert await async_all_memories(hass, memory_entry) == []


async def test_what_do_you_know_intent(hass: HomeAssistant, memory_entry: Any, hall: Room) -> None:
    await intent.async_handle(
        hass,
        DOMAIN,
        INTENT_REMEMBER,
        {"content": {"value": "The spare key is in the blue tin."}},
        language="en",
    )
    response = await intent.async_handle(
        hass,
        DOMAIN,
        INTENT_WHAT_DO_YOU_KNOW,
        {"query": {"value": "the spare key"}},
        language="it",
        device_id=hall.device_id,
    )
    speech = response.speech["plain"]["speech"]
    assert speech.startswith("Ecco cosa so:")
    assert "blue tin" in speech


async def test_confirm_without_pending_question(hass: HomeAssistant, memory_entry: Any) -> None:
    response = await intent.async_handle(
        hass, DOMAIN, INTENT_CONFIRM, {"answer": {"value": "yes"}, "conversation_id": {"value": "x"}}
    )
    assert response.speech["plain"]["speech"] == reply("en", "forget_nothing_pending")


# --- C05: first person without a pronoun (it/es drop it), and household facts that stay shared ---

# (language, content): the speaker's own fact, no subject pronoun in it/es.
ABOUT_THE_SPEAKER = [
    ("en", "I'm allergic to nuts."),
    ("en", "I\u2019ve got a dentist appointment on Tuesday."),
    ("de", "bin allergisch gegen Nüsse."),
    ("de", "hab den Zahnarzttermin am Dienstag."),
    ("it", "sono allergico alle noci."),
    ("it", "preferisco le risposte brevi."),
    ("it", "ho appuntamento dal dentista martedì."),
    ("it", "domani sono dal dentista."),
    ("it", "lavoro di notte il martedì."),
    ("it", "l'ho messo nel cassetto."),
    ("it", "tengo la chiave di scorta nel cassetto."),
    ("fr", "j'ai rendez-vous chez le cardiologue jeudi."),
    ("fr", "suis allergique aux noix."),
    ("es", "soy alérgico a las nueces."),
    ("es", "tengo cita con el dentista el martes."),
    ("es", "prefiero las respuestas cortas."),
    ("es", "guardo la llave de repuesto en el cajón."),
    ("es", "trabajo de noche los martes."),
]
# (language, content): about the house or someone else; verb forms that could be "I" but are not.
ABOUT_THE_HOUSEHOLD = [
    ("en", "the spare key is in the blue tin."),
    ("en", "Our home address is Lindenstraße 12."),
    ("de", "Julian allergisch gegen Nüsse ist."),
    ("de", "Der Ersatzschlüssel liegt in der blauen Dose."),
    ("it", "le chiavi sono nel cassetto."),
    ("it", "ci sono due chiavi di riserva."),
    ("it", "il lavoro di Anna inizia alle otto."),
    ("it", "la chiave di riserva della cantina è nella scatola blu."),
    ("fr", "le code du portail est à côté de la boîte aux lettres."),
    ("es", "la llave de repuesto del sótano está en la lata azul."),
    ("es", "el trabajo de Anna empieza a las ocho."),
    ("es", "la casa era azul."),
]


@pytest.mark.parametrize(("language", "content"), ABOUT_THE_SPEAKER)
def test_c05_first_person_without_pronoun_is_about_the_speaker(language: str, content: str) -> None:
    assert speaks_as_self(content, language)
    assert scope_for(content, language, Speaker(person_id="person.julian")) is Scope.PRIVATE
    assert scope_for(content, language, Speaker()) is Scope.SHARED  # nobody to own it


@pytest.mark.parametrize(("language", "content"), ABOUT_THE_HOUSEHOLD)
def test_c01_household_facts_stay_shared(language: str, content: str) -> None:
    assert not speaks_as_self(content, language)
    assert scope_for(content, language, Speaker(person_id="person.julian")) is Scope.SHARED


# --- C16: the common ways to say "forget everything about me" ---------------------------------

ABOUT_ME_SENTENCES = [
    ("en", "Forget everything you know about me."),
    ("en", "Please delete all my data."),
    ("en", "Forget everything I've told you."),
    ("de", "Vergiss alles, was du über mich weißt."),
    ("de", "Lösche alle meine Daten."),
    ("it", "Dimentica tutto quello che sai di me."),
    ("it", "Cancella tutto su di me."),
    ("fr", "Oublie tout ce que tu sais de moi."),
    ("fr", "Oublie tout me concernant."),
    ("es", "Olvida todo sobre mi."),  # without the accent, as speech-to-text often writes it
    ("es", "Olvídate de todo lo que sabes de mí."),
]


@pytest.mark.parametrize(("language", "text"), ABOUT_ME_SENTENCES)
def test_c16_forget_about_me_variants(language: str, text: str) -> None:
    match = match_sentence(_load_sentences(language), text)
    assert match is not None
    assert match.intent_type == INTENT_FORGET_ABOUT_ME


# --- "Remember that." has nothing to remember ------------------------------------------------

FILLERS = {"en": "that.", "de": "das.", "it": "questo.", "fr": "ça.", "es": "eso."}


@pytest.mark.parametrize("language", list(FILLERS))
async def test_remember_only_a_filler_asks_what(
    hass: HomeAssistant, memory_entry: Any, language: str
) -> None:
    for content in (FILLERS[language], "...", "\u200b it \u200b" if language == "en" else FILLERS[language]):
        response = await intent.async_handle(
            hass, DOMAIN, INTENT_REMEMBER, {"content": {"value": content}}, language=language
        )
        assert response.speech["plain"]["speech"] == reply(language, "remember_what")
    assert await async_all_memories(hass, memory_entry) == []


async def test_remember_intent_strips_invisible_edges_and_refuses_broken_text(
    hass: HomeAssistant, memory_entry: Any
) -> None:
    broken = await intent.async_handle(
        hass, DOMAIN, INTENT_REMEMBER, {"content": {"value": "the key \ud800 is here"}}, language="en"
    )
    assert broken.speech["plain"]["speech"] == reply("en", "remember_invalid")
    await intent.async_handle(
        hass,
        DOMAIN,
        INTENT_REMEMBER,
        {"content": {"value": "\ufeffThe key is in the tin.\u200b"}},
        language="en",
    )
    assert [m.content for m in await async_all_memories(hass, memory_entry)] == ["The key is in the tin."]
