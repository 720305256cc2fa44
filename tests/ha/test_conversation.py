"""The memory agent through HA's real conversation component: cases C01, C02, C03, C05, C06, C16,
C19 as turns at the kitchen/hall satellites, by Julian, Anna or an unknown voice."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_homeassistant_custom_component.common import async_mock_service

from custom_components.memory.answers import reply
from custom_components.memory.conversation import SESSIONS_HAVE_OWNERS
from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.models import Kind, Provenance, Scope, Speaker, Status
from tests.conftest import Resident, Room, async_call

from .helpers_conversation import (
    async_all_memories,
    async_pipeline_say,
    async_say,
    async_wrap_recording_agent,
    speech,
)

KEY_DE = "Bitte merk dir: Der Ersatzschlüssel für den Keller liegt in der blauen Dose im Flur."
KEY_CONTENT = "Der Ersatzschlüssel für den Keller liegt in der blauen Dose im Flur."
KEY_ANSWER = "blauen Dose"

# Per language: remember-about-me (C05), its question and a marker of the stored text.
PRIVATE = {
    "en": (
        "Remember that I like short answers.",
        "What do you know about short answers?",
        "like short answers",
    ),
    "de": (
        "Merk dir, dass ich kurze Antworten mag.",
        "Was weißt du über kurze Antworten?",
        "kurze Antworten mag",
    ),
    "it": (
        "Ricorda che mi piacciono le risposte brevi.",
        "Cosa sai delle risposte brevi?",
        "piacciono le risposte",
    ),
}
# Per language: remember-for-this-room (C06), its question and a marker of the stored text.
ROOM = {
    "en": (
        "Remember for this room: the window sticks, lift it before opening.",
        "What do you know about the window?",
        "lift it before opening",
    ),
    "de": (
        "Merk dir für diesen Raum: Das Fenster klemmt, vor dem Öffnen anheben.",
        "Was weißt du über das Fenster?",
        "vor dem Öffnen anheben",
    ),
    "it": (
        "Ricorda per questa stanza: la finestra si blocca, sollevala prima di aprirla.",
        "Cosa sai della finestra?",
        "sollevala prima di aprirla",
    ),
}
# Per language: the forget request (C03), yes, no, and the question that finds the key.
FORGET = {
    "en": ("Forget where the spare key is.", "yes", "no", "Where is the spare key for the cellar?"),
    "de": (
        "Vergiss, wo der Ersatzschlüssel ist.",
        "ja",
        "nein",
        "Wo ist der Ersatzschlüssel für den Keller?",
    ),
    "it": (
        "Dimentica dove si trova la chiave di riserva.",
        "sì",
        "no",
        "Dove si trova la chiave di riserva della cantina?",
    ),
}
# C02: questions in other languages than the German memory.
KEY_QUESTIONS = {
    "it": "Dove si trova la chiave di riserva della cantina?",
    "en": "Where is the spare key for the cellar?",
    "fr": "Où se trouve la clé de secours de la cave ?",
}


async def _remember_key(hass: Any, entry: Any, hall: Room) -> None:
    result = await async_say(hass, entry, KEY_DE, language="de", room=hall)
    assert speech(result) == reply("de", "remembered_shared")


async def test_c01_remember_in_german_by_voice(hass: Any, memory_entry: Any, hall: Room) -> None:
    """Unknown speaker at the hall satellite: one confirmed shared fact, stored in German, German reply."""
    result = await async_say(hass, memory_entry, KEY_DE, language="de", room=hall)

    assert speech(result) == reply("de", "remembered_shared")
    memories = await async_all_memories(hass, memory_entry)
    assert len(memories) == 1
    memory = memories[0]
    assert memory.content == KEY_CONTENT
    assert (memory.kind, memory.scope, memory.provenance, memory.language) == (
        Kind.FACT,
        Scope.SHARED,
        Provenance.CONFIRMED,
        "de",
    )
    assert memory.owner_id is None


@pytest.mark.parametrize("language", list(KEY_QUESTIONS))
async def test_c02_recall_across_languages_without_llm(
    hass: Any, memory_entry: Any, *, hall: Room, kitchen: Room, anna: Resident, language: str
) -> None:
    """A new conversation in another language: HA's agent does not understand, the memory answers."""
    await _remember_key(hass, memory_entry, hall)

    result = await async_say(
        hass, memory_entry, KEY_QUESTIONS[language], language=language, who=anna, room=kitchen
    )

    assert KEY_ANSWER in speech(result)
    assert speech(result).startswith(reply(language, "from_memory", items="").strip())


GARAGE = "Remember that the car is booked in at the garage on Friday."
GARAGE_CONTENT = "the car is booked in at the garage on Friday"


async def test_the_prompt_says_who_told_a_memory(
    hass: Any, memory_entry: Any, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """A shared memory Julian told reaches Anna's prompt as "said by Julian" (its "I" would be
    his), Julian's as "said by you", an unknown speaker's memory with no teller."""
    await async_say(hass, memory_entry, GARAGE, who=julian, room=kitchen)
    await async_say(hass, memory_entry, KEY_DE, language="de", room=kitchen)
    agent = await async_wrap_recording_agent(hass, memory_entry)

    question = "When is the car at the garage, and where is the spare key for the cellar?"
    await async_say(hass, memory_entry, question, who=anna, room=kitchen)
    await async_say(hass, memory_entry, question, who=julian, room=kitchen)

    anna_prompt, julian_prompt = agent.extra_prompts
    garage = next(line for line in anna_prompt.splitlines() if GARAGE_CONTENT in line)
    key = next(line for line in anna_prompt.splitlines() if KEY_CONTENT in line)
    assert "(said by Julian, confirmed, " in garage
    assert "said by" not in key
    mine = next(line for line in julian_prompt.splitlines() if GARAGE_CONTENT in line)
    assert "(said by you, confirmed, " in mine


async def test_what_do_you_know_names_who_told_it(
    hass: Any, memory_entry: Any, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """The read-out list puts the teller's name before what another person told."""
    await async_say(hass, memory_entry, GARAGE, who=julian, room=kitchen)
    for_anna = speech(
        await async_say(hass, memory_entry, "What do you know about the garage?", who=anna, room=kitchen)
    )
    for_julian = speech(
        await async_say(hass, memory_entry, "What do you know about the garage?", who=julian, room=kitchen)
    )
    assert f'Julian: "{GARAGE_CONTENT}' in for_anna
    assert "Julian:" not in for_julian and GARAGE_CONTENT in for_julian


@pytest.mark.parametrize("language", ["en", "de", "it"])
async def test_the_memory_answer_names_who_told_it(
    hass: Any, memory_entry: Any, *, julian: Resident, anna: Resident, kitchen: Room, language: str
) -> None:
    """HA's agent does not understand; the memory answers with what Julian told, in his name
    for Anna, as plain memory for Julian himself."""
    await async_say(hass, memory_entry, GARAGE, who=julian, room=kitchen)
    question = {
        "en": "When is the car booked in at the garage?",
        "de": "An welchem Tag ist der Termin in der Autowerkstatt?",
        "it": "Quando è prenotata l'auto in officina?",
    }[language]
    for_anna = speech(
        await async_say(hass, memory_entry, question, language=language, who=anna, room=kitchen)
    )
    for_julian = speech(
        await async_say(hass, memory_entry, question, language=language, who=julian, room=kitchen)
    )
    assert GARAGE_CONTENT in for_anna and GARAGE_CONTENT in for_julian
    assert for_anna.startswith(reply(language, "from_memory_by", name="Julian", items="").strip())
    assert for_julian.startswith(reply(language, "from_memory", items="").strip())


@pytest.mark.parametrize("language", list(FORGET))
async def test_c03_forget_with_confirmation(hass: Any, memory_entry: Any, hall: Room, language: str) -> None:
    """Forget names what it would forget and waits; "no" keeps it, "yes" leaves only a tombstone."""
    forget, yes, no, question = FORGET[language]
    await _remember_key(hass, memory_entry, hall)
    engine = memory_entry.runtime_data.engine

    asked = await async_say(hass, memory_entry, forget, language=language, room=hall)
    assert KEY_ANSWER in speech(asked)
    assert asked.continue_conversation
    kept = await async_say(
        hass, memory_entry, no, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert speech(kept) == reply(language, "forget_cancelled")
    assert len(await async_all_memories(hass, memory_entry)) == 1

    asked = await async_say(hass, memory_entry, forget, language=language, room=hall)
    done = await async_say(
        hass, memory_entry, yes, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert speech(done) == reply(language, "forgot")
    assert not done.continue_conversation

    assert await async_all_memories(hass, memory_entry) == []
    stats = await hass.async_add_executor_job(engine.stats)
    assert stats.tombstones == 1
    after = await async_say(hass, memory_entry, question, language=language, room=hall)
    assert KEY_ANSWER not in speech(after)


async def test_c03_yes_without_a_question_goes_to_the_wrapped_agent(hass: Any, memory_entry: Any) -> None:
    """A bare "yes" with nothing pending is not a memory sentence: HA's agent answers it."""
    result = await async_say(hass, memory_entry, "yes")
    assert speech(result) != reply("en", "forget_nothing_pending")


async def test_c03_nothing_to_forget(hass: Any, memory_entry: Any) -> None:
    result = await async_say(hass, memory_entry, "Forget where the spare key is.")
    assert speech(result) == reply("en", "forget_none")
    assert not result.continue_conversation


async def test_c03_moving_on_cancels_the_question(hass: Any, memory_entry: Any, hall: Room) -> None:
    """Another sentence after the question drops it: a later "yes" forgets nothing."""
    await _remember_key(hass, memory_entry, hall)
    asked = await async_say(hass, memory_entry, "Forget where the spare key is.")
    await async_say(
        hass, memory_entry, "What do you know about the cellar?", conversation_id=asked.conversation_id
    )
    await async_say(hass, memory_entry, "yes", conversation_id=asked.conversation_id)
    assert len(await async_all_memories(hass, memory_entry)) == 1


# Not memory sentences: HA's own answer, a question answered from memory, a fragment.
MOVING_ON = {
    "en": ("What time is it?", "Where is the spare key?", "Hm?"),
    "de": ("Wie spät ist es?", "Wo ist der Ersatzschlüssel?", "Hä?"),
    "es": ("¿Qué hora es?", "¿Dónde está la llave de repuesto?", "¿Eh?"),
}
WAITING = {  # (remember, forget, statement offered to be remembered, yes)
    "en": ("Remember: the spare key is under the blue flowerpot.", "Forget where the spare key is.",
           "I've started learning the cello, my lessons are on Thursdays.", "yes"),
    "de": ("Merk dir: Der Ersatzschlüssel liegt unter dem blauen Blumentopf.",
           "Vergiss, wo der Ersatzschlüssel ist.",
           "Ich habe angefangen, Cello zu lernen, der Unterricht ist donnerstags.", "ja"),
    "es": ("Recuerda: la llave de repuesto está debajo de la maceta azul.",
           "Olvida dónde está la llave de repuesto.",
           "He empezado a aprender violonchelo, las clases son los jueves.", "sí"),
}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "between"), [(lang, said) for lang, all_said in MOVING_ON.items() for said in all_said]
)
async def test_c03_any_other_sentence_drops_a_waiting_question(
    hass: Any, memory_entry: Any, hall: Room, language: str, between: str
) -> None:
    """Not only a memory sentence moves on: after a device command, HA's own answer or a question,
    a later "yes" neither forgets (the forget question) nor stores (the offer to remember)."""
    remember, forget, statement, yes = WAITING[language]
    await async_say(hass, memory_entry, remember, language=language, room=hall)
    asked = await async_say(hass, memory_entry, forget, language=language, room=hall)
    assert asked.continue_conversation
    moved = await async_say(
        hass, memory_entry, between, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert not moved.continue_conversation
    await async_say(
        hass, memory_entry, yes, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert len(await async_all_memories(hass, memory_entry)) == 1

    offered = await async_say(hass, memory_entry, statement, language=language, room=hall)
    assert speech(offered) == reply(language, "remember_offer")
    await async_say(
        hass, memory_entry, between, language=language, room=hall, conversation_id=offered.conversation_id
    )
    await async_say(
        hass, memory_entry, yes, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert len(await async_all_memories(hass, memory_entry)) == 1


# An answer that goes on to something Home Assistant's agent matches exactly: (statement offered
# to be remembered, yes, no, HA's own question)
GOING_ON = {
    "en": ("I've started learning the cello, my lessons are on Thursdays.", "Yes", "No", "what time is it?"),
    "de": ("Ich habe angefangen, Cello zu lernen, der Unterricht ist donnerstags.", "Ja", "Nein",
           "wie spät ist es?"),
    "it": ("Ho iniziato a studiare il violoncello, le lezioni sono il giovedì.", "Sì", "No", "che ore sono?"),
    "fr": ("J'ai commencé le violoncelle, mes cours sont le jeudi.", "Oui", "Non", "quelle heure est-il ?"),
    "es": ("He empezado a aprender violonchelo, las clases son los jueves.", "Sí", "No", "¿qué hora es?"),
}  # fmt: skip


@pytest.mark.parametrize("language", list(GOING_ON))
@pytest.mark.parametrize("answer", ["yes", "no"])
async def test_c03_an_answer_that_goes_on_gets_both_done(
    hass: Any, memory_entry: Any, hall: Room, language: str, answer: str
) -> None:
    """ "No, what time is it?" to "Should I remember that?": the offer is declined and the time
    told, in one reply; "Yes, …" stores the statement and tells the time."""
    statement, yes, no, then = GOING_ON[language]
    offered = await async_say(hass, memory_entry, statement, language=language, room=hall)
    assert speech(offered) == reply(language, "remember_offer")
    said = f"{yes if answer == 'yes' else no}, {then}"
    result = await async_say(
        hass, memory_entry, said, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert result.response.intent is not None
    assert result.response.intent.intent_type == "HassGetCurrentTime"
    stored = await async_all_memories(hass, memory_entry)
    if answer == "yes":
        assert [m.content for m in stored] == [statement]
    else:
        assert stored == []
        assert speech(result).startswith(reply(language, "remember_declined") + " ")
    assert not result.continue_conversation


@pytest.mark.parametrize("answer", ["yes", "no"])
@pytest.mark.parametrize("language", list(WAITING))
async def test_c03_a_forget_question_answered_with_a_command(
    hass: Any, memory_entry: Any, kitchen: Room, language: str, answer: str
) -> None:
    """ "No, turn on the kitchen light." to "Should I forget …?" keeps the memory and switches the
    light on; "Yes, …" forgets it and switches the light on. "Don't turn off the kitchen light"
    is only a "no" (no punctuation sets the answer off): nothing is switched off."""
    for light, name in (("kitchen_light", "Kitchen light"), ("kuechenlicht", "Küchenlicht"),
                        ("luz_de_la_cocina", "Luz de la cocina")):  # fmt: skip
        hass.states.async_set(f"light.{light}", "off", {"friendly_name": name})
    switched_on = async_mock_service(hass, "light", "turn_on")
    switched_off = async_mock_service(hass, "light", "turn_off")
    remember, forget, _, _ = WAITING[language]
    _, yes, no, _ = GOING_ON[language]
    command = {"en": "turn on the kitchen light.", "de": "schalte das Küchenlicht ein.",
               "es": "enciende la luz de la cocina."}[language]  # fmt: skip
    await async_say(hass, memory_entry, remember, language=language, room=kitchen)
    asked = await async_say(hass, memory_entry, forget, language=language, room=kitchen)
    assert asked.continue_conversation
    said = f"{yes if answer == 'yes' else no}, {command}"
    await async_say(
        hass, memory_entry, said, language=language, room=kitchen, conversation_id=asked.conversation_id
    )
    assert len(switched_on) == 1
    assert len(await async_all_memories(hass, memory_entry)) == (0 if answer == "yes" else 1)

    if language == "en":
        asked = await async_say(hass, memory_entry, remember, language=language, room=kitchen)
        asked = await async_say(hass, memory_entry, forget, language=language, room=kitchen)
        await async_say(
            hass,
            memory_entry,
            "Don't turn off the kitchen light",
            room=kitchen,
            conversation_id=asked.conversation_id,
        )
        assert switched_off == []


COLOUR = {"supported_color_modes": ["hs"], "color_mode": "hs"}


def _lights(hass: Any) -> tuple[list[Any], list[Any]]:
    """The kitchen light in en/de/es, off; (turn_on calls, turn_off calls)."""
    for light, name in (("kitchen_light", "Kitchen light"), ("kuechenlicht", "Küchenlicht"),
                        ("luz_de_la_cocina", "Luz de la cocina")):  # fmt: skip
        hass.states.async_set(f"light.{light}", "off", {"friendly_name": name, **COLOUR})
    return async_mock_service(hass, "light", "turn_on"), async_mock_service(hass, "light", "turn_off")


# (language, said to "Should I forget …?", forgotten): how an answer may open before a command
OPENINGS = [
    ("en", "No\u2026 turn on the kitchen light.", False),
    ("en", "No! Turn on the kitchen light.", False),
    ("en", '"Yes, turn on the kitchen light."', True),
    ("en", "No thanks, turn on the kitchen light.", False),
    ("en", "Yes please, turn on the kitchen light.", True),
    ("en", "No, no, turn on the kitchen light.", False),
    ("de", "Nein danke, schalte das Küchenlicht ein.", False),
    ("de", "Ja bitte. Schalte das Küchenlicht ein.", True),
    ("es", "No gracias, enciende la luz de la cocina.", False),
    ("es", "¡Sí! Enciende la luz de la cocina.", True),
]


@pytest.mark.parametrize(("language", "said", "forgotten"), OPENINGS)
async def test_c03_how_an_answer_opens_before_a_command(
    hass: Any, memory_entry: Any, kitchen: Room, *, language: str, said: str, forgotten: bool
) -> None:
    switched_on, _ = _lights(hass)
    remember, forget, _, _ = WAITING[language]
    await async_say(hass, memory_entry, remember, language=language, room=kitchen)
    asked = await async_say(hass, memory_entry, forget, language=language, room=kitchen)
    await async_say(
        hass, memory_entry, said, language=language, room=kitchen, conversation_id=asked.conversation_id
    )
    assert len(switched_on) == 1
    assert len(await async_all_memories(hass, memory_entry)) == (0 if forgotten else 1)


@pytest.mark.parametrize("said", ["Okay, turn on the kitchen light.", "Sure - turn on the kitchen light."])
async def test_c03_an_acknowledgement_before_a_request_forgets_nothing(
    hass: Any, memory_entry: Any, kitchen: Room, said: str
) -> None:
    """ "Okay" is no plain yes: before a request it answers nothing, the question is dropped as
    by any other sentence, and the request is answered; with no question waiting the same."""
    switched_on, _ = _lights(hass)
    remember, forget, _, yes = WAITING["en"]
    await async_say(hass, memory_entry, remember, room=kitchen)
    asked = await async_say(hass, memory_entry, forget, room=kitchen)
    done = await async_say(hass, memory_entry, said, room=kitchen, conversation_id=asked.conversation_id)
    assert len(switched_on) == 1 and not done.continue_conversation
    await async_say(hass, memory_entry, yes, room=kitchen, conversation_id=asked.conversation_id)
    assert len(await async_all_memories(hass, memory_entry)) == 1
    await async_say(hass, memory_entry, said, room=kitchen)  # nothing waits
    assert len(switched_on) == 2


# Long replies that open with a yes but are no yes (or no request): nothing may be done.
LONG_NOT_YES = {
    "en": ["Yes? Sorry, I didn't catch that, what did you just ask me?",
           "Yeah, no, keep it, I still need that key for the cellar.",
           "Yes, wait, which key is that, the one for the cellar or the garage?"],
    "de": ["Ja, ich weiß nicht, ob ich den Schlüssel noch brauche, lass mal.",
           "Ja? Entschuldigung, ich habe dich nicht verstanden, was hast du gesagt?"],
    "es": ["Sí, bueno, no, guárdalo, todavía la necesito para el sótano.",
           "Si, por ejemplo, mañana llueve, cierra todas las ventanas de la casa."],
}  # fmt: skip


@pytest.mark.parametrize(
    ("language", "said"), [(lang, said) for lang, all_said in LONG_NOT_YES.items() for said in all_said]
)
async def test_c03_a_long_reply_opening_with_yes_forgets_nothing(
    hass: Any, memory_entry: Any, hall: Room, language: str, said: str
) -> None:
    """Only what follows decides whether a long reply is two turns: a request of its own (a
    memory sentence naming something, an exact HA match) — never its length. These are neither:
    the question is dropped and the memory kept; the offer to remember stores nothing."""
    remember, forget, statement, _ = WAITING[language]
    await async_say(hass, memory_entry, remember, language=language, room=hall)
    asked = await async_say(hass, memory_entry, forget, language=language, room=hall)
    await async_say(
        hass, memory_entry, said, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert len(await async_all_memories(hass, memory_entry)) == 1
    offered = await async_say(hass, memory_entry, statement, language=language, room=hall)
    await async_say(
        hass, memory_entry, said, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert [m.content for m in await async_all_memories(hass, memory_entry)] == [remember.split(": ", 1)[1]]


async def test_c03_a_long_no_that_only_says_more_declines(hass: Any, memory_entry: Any, hall: Room) -> None:
    """Too long for a bare answer, but what follows only says more of a "no" ("forget it, …"
    names nothing): the question is answered no, and no second question is asked. (A long
    "yes" never acts: test above.)"""
    remember, forget, _, _ = WAITING["en"]
    await async_say(hass, memory_entry, remember, room=hall)
    asked = await async_say(hass, memory_entry, forget, room=hall)
    said = "No, forget it, I still need that key for the cellar."
    result = await async_say(hass, memory_entry, said, room=hall, conversation_id=asked.conversation_id)
    assert speech(result) == reply("en", "forget_cancelled")
    assert len(await async_all_memories(hass, memory_entry)) == 1
    assert not result.continue_conversation


# Said to "Should I remember that?": a refusal that is worded as a remember stores nothing
NEGATED_REMEMBER = [
    ("de", "Nein, merk dir das bitte nicht, das ist privat."),
    ("de", "Nein, speichere das nicht, das stimmt so nicht mehr."),
    ("en", "No, remember nothing about that, it was private."),
]


@pytest.mark.parametrize(("language", "said"), NEGATED_REMEMBER)
async def test_c03_no_and_a_negated_remember_store_nothing(
    hass: Any, memory_entry: Any, hall: Room, language: str, said: str
) -> None:
    statement = GOING_ON[language][0]
    offered = await async_say(hass, memory_entry, statement, language=language, room=hall)
    await async_say(
        hass, memory_entry, said, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert await async_all_memories(hass, memory_entry) == []
    await async_say(hass, memory_entry, said, language=language, room=hall)  # nothing waits
    assert await async_all_memories(hass, memory_entry) == []


# (language, statement offered to be remembered, "No." + a memory sentence, what it stores)
NO_REMEMBER_THIS = {
    "en": ("No, remember this: the bins go out on Wednesday.", "the bins go out on Wednesday"),
    "de": ("Nein. Merk dir, dass der Müll am Mittwoch rausgeht.", "der Müll am Mittwoch rausgeht"),
    "es": ("No. Recuerda que la basura sale los miércoles.", "la basura sale los miércoles"),
}


@pytest.mark.parametrize("language", list(NO_REMEMBER_THIS))
async def test_c03_no_then_a_memory_sentence(hass: Any, memory_entry: Any, hall: Room, language: str) -> None:
    """ "No. Remember that …" to "Should I remember that?": the offer is declined and the memory
    sentence stores what it says (not the whole utterance, not the declined statement)."""
    statement = GOING_ON[language][0]
    said, stored = NO_REMEMBER_THIS[language]
    offered = await async_say(hass, memory_entry, statement, language=language, room=hall)
    assert speech(offered) == reply(language, "remember_offer")
    result = await async_say(
        hass, memory_entry, said, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert speech(result).startswith(reply(language, "remember_declined"))
    (memory,) = await async_all_memories(hass, memory_entry)
    assert stored in memory.content and "No" not in memory.content


async def test_c03_someone_elses_answer_and_command(
    hass: Any, memory_entry: Any, *, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """Anna's "No, turn on the kitchen light." to Julian's question: the light goes on, the
    question stays Julian's and the satellite keeps listening for it. HA 2026.11+ gives a signed-in
    user's conversation to that user: Anna's turn there is refused and does nothing, and the
    question stays Julian's all the same."""
    switched_on, _ = _lights(hass)
    await async_say(hass, memory_entry, "Remember that the ladder is behind the shed.", room=kitchen)
    asked = await async_say(hass, memory_entry, "Forget about the ladder.", who=julian, room=kitchen)
    said = "No, turn on the kitchen light."
    other = await async_say(
        hass, memory_entry, said, who=anna, room=kitchen, conversation_id=asked.conversation_id
    )
    if SESSIONS_HAVE_OWNERS:  # HA 2026.11+: Julian's conversation is his; Anna's turn does nothing
        assert speech(other) == reply("en", "not_your_conversation") and not switched_on
    else:
        assert len(switched_on) == 1 and other.continue_conversation
        assert speech(other).startswith(reply("en", "forget_not_yours"))
    done = await async_say(
        hass, memory_entry, "yes", who=julian, room=kitchen, conversation_id=asked.conversation_id
    )
    assert speech(done) == reply("en", "forgot")


async def test_c03_a_failing_command_after_yes_still_says_what_was_done(
    hass: Any, memory_entry: Any, kitchen: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plumbing: HA's agent fails on the command after "Yes,": the memory is forgotten and the
    reply says so before "something went wrong"."""
    from custom_components.memory import conversation as agent  # noqa: PLC0415

    _lights(hass)
    remember, forget, _, _ = WAITING["en"]
    await async_say(hass, memory_entry, remember, room=kitchen)
    asked = await async_say(hass, memory_entry, forget, room=kitchen)
    converse = agent.conversation.async_converse

    async def broken(hass: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("agent_id") == agent.conversation.HOME_ASSISTANT_AGENT:
            raise RuntimeError("agent failed")
        return await converse(hass, text, *args, **kwargs)

    monkeypatch.setattr(agent.conversation, "async_converse", broken)
    said = "Yes, turn on the kitchen light."
    result = await async_say(hass, memory_entry, said, room=kitchen, conversation_id=asked.conversation_id)
    assert await async_all_memories(hass, memory_entry) == []
    assert speech(result) == f"{reply('en', 'forgot')} {reply('en', 'turn_failed')}"


@pytest.mark.parametrize("language", list(PRIVATE))
async def test_c05_private_stays_private(
    hass: Any,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    hall: Room,
    language: str,
) -> None:
    """Julian's "I like …" is private to him: not for Anna, a guest or a service call without speaker."""
    sentence, question, marker = PRIVATE[language]
    result = await async_say(hass, memory_entry, sentence, language=language, who=julian, room=kitchen)
    assert speech(result) == reply(language, "remembered_private")
    (memory,) = await async_all_memories(hass, memory_entry)
    assert (memory.scope, memory.owner_id, memory.kind, memory.language) == (
        Scope.PRIVATE,
        julian.person_id,
        Kind.PREFERENCE,
        language,
    )

    for who, room in ((anna, kitchen), (None, hall), (None, kitchen)):
        answer = await async_say(hass, memory_entry, question, language=language, who=who, room=room)
        assert marker not in speech(answer)
    response = await async_call(hass, "recall", {"query": question})
    assert all(marker not in row["content"] for row in response["memories"])

    answer = await async_say(hass, memory_entry, question, language=language, who=julian, room=hall)
    assert marker in speech(answer)


async def test_c05_speaker_memories_shape_unrelated_answers(
    hass: Any, memory_entry: Any, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """Julian's preference reaches the wrapped agent's prompt for an unrelated question; Anna's doesn't."""
    await async_say(hass, memory_entry, PRIVATE["en"][0], who=julian, room=kitchen)
    agent = await async_wrap_recording_agent(hass, memory_entry)

    await async_say(hass, memory_entry, "What's a good recipe for dinner tonight?", who=julian, room=kitchen)
    await async_say(hass, memory_entry, "What's a good recipe for dinner tonight?", who=anna, room=kitchen)

    julian_prompt, anna_prompt = agent.extra_prompts
    assert "I like short answers." in julian_prompt
    assert "(said by you, confirmed, " in julian_prompt
    assert "short answers" not in anna_prompt


async def test_what_do_you_know_lists_the_topic_not_the_speakers_own(
    hass: Any, memory_entry: Any, julian: Resident, hall: Room
) -> None:
    """ "What do you know about <topic>" names the topic's memories; the speaker's own unrelated
    ones come only when nothing else matches ("… about me")."""
    await async_say(hass, memory_entry, PRIVATE["en"][0], who=julian, room=hall)
    await async_say(hass, memory_entry, "Remember: the spare key is in the blue tin.", who=julian, room=hall)

    topic = speech(await async_say(hass, memory_entry, "What do you know about the spare key?", who=julian))
    assert "blue tin" in topic
    assert "short answers" not in topic
    assert '.".' not in topic  # no doubled full stop after a quoted memory

    me = speech(await async_say(hass, memory_entry, "What do you know about me?", who=julian))
    assert "short answers" in me


@pytest.mark.parametrize("language", list(ROOM))
async def test_c06_room_stays_in_its_room(
    hass: Any, memory_entry: Any, *, anna: Resident, kitchen: Room, hall: Room, language: str
) -> None:
    """Said at the kitchen satellite "for this room": visible in the kitchen only."""
    sentence, question, marker = ROOM[language]
    result = await async_say(hass, memory_entry, sentence, language=language, who=anna, room=kitchen)
    assert speech(result) == reply(language, "remembered_room")
    (memory,) = await async_all_memories(hass, memory_entry)
    assert (memory.scope, memory.area_id, memory.owner_id) == (Scope.ROOM, kitchen.area_id, None)

    at_hall = await async_say(hass, memory_entry, question, language=language, who=anna, room=hall)
    assert marker not in speech(at_hall)
    at_kitchen = await async_say(hass, memory_entry, question, language=language, room=kitchen)
    assert marker in speech(at_kitchen)


async def test_c06_this_room_needs_a_room(hass: Any, memory_entry: Any) -> None:
    """Without a satellite there is no room: nothing is stored and the reply says why."""
    result = await async_say(hass, memory_entry, ROOM["en"][0])
    assert speech(result) == reply("en", "remember_no_room")
    assert await async_all_memories(hass, memory_entry) == []


async def test_c16_forget_everything_about_me(
    hass: Any, memory_entry: Any, *, julian: Resident, anna: Resident, kitchen: Room, hall: Room
) -> None:
    """Julian's private memories go (after a yes); Anna's private, room and shared ones stay.
    An unknown speaker is refused."""
    await _remember_key(hass, memory_entry, hall)
    await async_say(hass, memory_entry, "Remember that I like short answers.", who=julian, room=kitchen)
    await async_say(hass, memory_entry, "Remember my bike is the red one.", who=julian, room=hall)
    await async_say(hass, memory_entry, "Remember that I like long walks.", who=anna, room=kitchen)
    await async_say(hass, memory_entry, ROOM["en"][0], who=anna, room=kitchen)
    before = await async_all_memories(hass, memory_entry)
    assert len(before) == 5

    refused = await async_say(hass, memory_entry, "Forget everything about me.", room=hall)
    assert speech(refused) == reply("en", "about_me_unknown")
    assert not refused.continue_conversation
    assert len(await async_all_memories(hass, memory_entry)) == 5

    asked = await async_say(hass, memory_entry, "Forget everything about me.", who=julian, room=hall)
    assert speech(asked) == reply("en", "about_me_ask", count=2)
    assert asked.continue_conversation
    done = await async_say(
        hass, memory_entry, "yes", who=julian, room=hall, conversation_id=asked.conversation_id
    )
    assert speech(done) == reply("en", "about_me_done", count=2)

    after = await async_all_memories(hass, memory_entry)
    assert all(m.owner_id != julian.person_id for m in after)
    assert {(m.scope, m.owner_id) for m in after} == {
        (Scope.SHARED, None),
        (Scope.PRIVATE, anna.person_id),
        (Scope.ROOM, None),
    }
    assert all(m.status is Status.ACTIVE for m in after)


async def test_c16_only_the_person_can_confirm(
    hass: Any, memory_entry: Any, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """Anna saying "yes" to Julian's question forgets nothing of Julian's."""
    await async_say(hass, memory_entry, "Remember that I like short answers.", who=julian, room=kitchen)
    asked = await async_say(hass, memory_entry, "Forget everything about me.", who=julian, room=kitchen)
    await async_say(hass, memory_entry, "yes", who=anna, room=kitchen, conversation_id=asked.conversation_id)
    assert len(await async_all_memories(hass, memory_entry)) == 1


async def test_c19_memory_reaches_the_answer_without_llm(
    hass: Any, memory_entry: Any, julian: Resident, kitchen: Room
) -> None:
    """ "Remember my daughter's name is Mia." → a new conversation → "What's my daughter's name?" → Mia."""
    stored = await async_say(
        hass, memory_entry, "Remember my daughter's name is Mia.", who=julian, room=kitchen
    )
    answer = await async_say(hass, memory_entry, "What's my daughter's name?", who=julian, room=kitchen)

    assert answer.conversation_id != stored.conversation_id
    assert "Mia" in speech(answer)


async def test_c19_memory_reaches_the_llm_prompt(
    hass: Any, memory_entry: Any, julian: Resident, kitchen: Room
) -> None:
    """An LLM agent wrapped by the memory agent, with the Memory API ticked, gets Mia in its prompt:
    once, in the memory block of the system prompt (the API's part points at it)."""
    await async_say(hass, memory_entry, "Remember my daughter's name is Mia.", who=julian, room=kitchen)
    agent = await async_wrap_recording_agent(hass, memory_entry, with_memory_api=True)

    answer = await async_say(hass, memory_entry, "What's my daughter's name?", who=julian, room=kitchen)

    assert speech(answer) == "ok"
    assert "Mia" in agent.extra_prompts[-1]
    assert "Mia" not in agent.api_prompts[-1]


async def test_unknown_sentence_without_matching_memory_is_the_wrapped_agents_answer(
    hass: Any, memory_entry: Any, hall: Room
) -> None:
    """No memory close enough: HA's own "not understood" stands (no invented answer)."""
    await _remember_key(hass, memory_entry, hall)
    result = await async_say(hass, memory_entry, "What's the capital of Mongolia?")
    assert result.response.error_code is not None
    assert KEY_ANSWER not in speech(result)


async def test_memory_agent_passes_conversation_on(hass: Any, memory_entry: Any, kitchen: Room) -> None:
    """A command HA's agent understands is answered by HA's agent (no memory sentence)."""
    agent = await async_wrap_recording_agent(hass, memory_entry)
    result = await async_say(hass, memory_entry, "Turn on the kitchen light", room=kitchen)
    assert speech(result) == "ok"
    (received,) = agent.inputs
    assert received.text == "Turn on the kitchen light"
    assert received.device_id == kitchen.device_id


async def test_c01_c03_through_an_assist_pipeline(hass: Any, memory_entry: Any, hall: Room) -> None:
    """The same turns through a real Assist pipeline at the hall satellite (how voice arrives)."""
    stored = await async_pipeline_say(hass, memory_entry, KEY_DE, language="de", room=hall)
    assert stored.speech == reply("de", "remembered_shared")

    asked = await async_pipeline_say(hass, memory_entry, "Forget where the spare key is.", room=hall)
    assert KEY_ANSWER in asked.speech
    assert asked.continue_conversation
    done = await async_pipeline_say(
        hass, memory_entry, "yes", room=hall, conversation_id=asked.conversation_id
    )
    assert done.speech == reply("en", "forgot")
    assert await async_all_memories(hass, memory_entry) == []


# C05 in the pro-drop languages: first person without "io"/"yo" (sentence, question, marker).
PRIVATE_WITHOUT_PRONOUN = {
    "it": ("Ricordati che sono allergico alle noci.", "Cosa sai delle noci?", "allergico alle noci"),
    "es": ("Recuerda que soy alérgico a las nueces.", "Qué sabes de las nueces?", "alérgico a las nueces"),
    "fr": (
        "Souviens-toi que j'ai rendez-vous chez le cardiologue jeudi.",
        "Que sais-tu sur le cardiologue ?",
        "cardiologue",
    ),
    "de": ("Merk dir, bin allergisch gegen Nüsse.", "Was weißt du über Nüsse?", "allergisch"),
}


@pytest.mark.parametrize("language", list(PRIVATE_WITHOUT_PRONOUN))
async def test_c05_first_person_without_pronoun_stays_private(
    hass: Any,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    hall: Room,
    language: str,
) -> None:
    sentence, question, marker = PRIVATE_WITHOUT_PRONOUN[language]
    said = await async_say(hass, memory_entry, sentence, language=language, who=julian, room=kitchen)
    assert speech(said) == reply(language, "remembered_private")
    (memory,) = await async_all_memories(hass, memory_entry)
    assert (memory.scope, memory.owner_id) == (Scope.PRIVATE, julian.person_id)
    for who in (anna, None):
        other = await async_say(hass, memory_entry, question, language=language, who=who, room=hall)
        assert marker not in speech(other)
    own = await async_say(hass, memory_entry, question, language=language, who=julian, room=hall)
    assert marker in speech(own)


@pytest.mark.parametrize("who_answers", ["anna", "guest"])
async def test_c03_only_the_asker_can_confirm(
    hass: Any, memory_entry: Any, *, julian: Resident, anna: Resident, kitchen: Room, who_answers: str
) -> None:
    """Julian asks to forget a shared memory; Anna's or a guest's "yes" in the same conversation
    forgets nothing and leaves the question open for Julian."""
    await async_say(hass, memory_entry, "Remember that the ladder is behind the shed.", room=kitchen)
    asked = await async_say(hass, memory_entry, "Forget about the ladder.", who=julian, room=kitchen)
    assert "ladder" in speech(asked)
    other = anna if who_answers == "anna" else None
    refused = await async_say(
        hass, memory_entry, "yes", who=other, room=kitchen, conversation_id=asked.conversation_id
    )
    # HA 2026.11+ gives the conversation to Julian's user: another context may not go on with it
    assert speech(refused) == reply(
        "en", "not_your_conversation" if SESSIONS_HAVE_OWNERS else "forget_not_yours"
    )
    assert len(await async_all_memories(hass, memory_entry)) == 1
    done = await async_say(
        hass, memory_entry, "yes", who=julian, room=kitchen, conversation_id=asked.conversation_id
    )
    assert speech(done) == reply("en", "forgot")
    assert await async_all_memories(hass, memory_entry) == []


async def test_two_users_keep_their_conversations_apart(
    hass: Any, memory_entry: Any, *, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """Julian and Anna, two HA users (two contexts) of one household, through the real
    conversation agent: each turn is answered as its user, each first turn opens its own
    conversation. HA 2026.10.4 keeps no owner of a chat session (chat_session takes no context),
    so Anna sending Julian's conversation id continues it; what she says there is hers alone:
    she hears none of his private memories, her "yes" does not answer his question, and her
    other sentences leave that question open for him. HA 2026.11+ gives the conversation to
    Julian's user: Anna is told it is someone else's, and nothing she says there is read."""
    sentence, question, marker = PRIVATE["en"]
    julians = await async_say(hass, memory_entry, sentence, who=julian, room=kitchen)
    assert speech(julians) == reply("en", "remembered_private")
    annas = await async_say(hass, memory_entry, "Remember that I like long answers.", who=anna, room=kitchen)
    assert speech(annas) == reply("en", "remembered_private")
    assert annas.conversation_id != julians.conversation_id
    own = await async_say(hass, memory_entry, question, who=julian, conversation_id=julians.conversation_id)
    assert marker in speech(own)

    asked = await async_say(
        hass, memory_entry, "Forget about short answers.", who=julian, conversation_id=julians.conversation_id
    )
    assert "short answers" in speech(asked) and asked.continue_conversation
    in_his = await async_say(hass, memory_entry, question, who=anna, conversation_id=julians.conversation_id)
    refused = await async_say(hass, memory_entry, "yes", who=anna, conversation_id=julians.conversation_id)
    if SESSIONS_HAVE_OWNERS:  # HA 2026.11+: his conversation is his alone
        assert speech(in_his) == speech(refused) == reply("en", "not_your_conversation")
        assert in_his.conversation_id is None
    else:
        assert in_his.conversation_id == julians.conversation_id  # HA lets her continue it
        assert marker not in speech(in_his) and "long answers" in speech(in_his)  # her memories, not his
        assert speech(refused) == reply("en", "forget_not_yours")
    done = await async_say(hass, memory_entry, "yes", who=julian, conversation_id=julians.conversation_id)
    assert speech(done) == reply("en", "forgot")
    remaining = await async_all_memories(hass, memory_entry)
    assert [(m.content, m.owner_id) for m in remaining] == [("I like long answers.", anna.person_id)]


async def test_c03_a_guest_confirms_at_the_same_satellite_only(
    hass: Any, memory_entry: Any, kitchen: Room, hall: Room
) -> None:
    """Unknown speakers are told apart by the satellite they speak at."""
    await async_say(hass, memory_entry, "Remember that the ladder is behind the shed.", room=kitchen)
    asked = await async_say(hass, memory_entry, "Forget about the ladder.", room=kitchen)
    elsewhere = await async_say(hass, memory_entry, "yes", room=hall, conversation_id=asked.conversation_id)
    assert speech(elsewhere) == reply("en", "forget_not_yours")
    done = await async_say(hass, memory_entry, "yes", room=kitchen, conversation_id=asked.conversation_id)
    assert speech(done) == reply("en", "forgot")


# C16 said in other words, by an unknown voice: refused in every language.
ABOUT_ME_BY_A_GUEST = {
    "en": "Forget everything you know about me.",
    "de": "Vergiss alles, was du über mich weißt.",
    "it": "Dimentica tutto quello che sai di me.",
    "fr": "Oublie tout ce que tu sais de moi.",
    "es": "Olvida todo sobre mi.",
}


@pytest.mark.parametrize("language", list(ABOUT_ME_BY_A_GUEST))
async def test_c16_unknown_speaker_refused_in_other_words(
    hass: Any, memory_entry: Any, julian: Resident, hall: Room, language: str
) -> None:
    await async_say(hass, memory_entry, "Remember that I like short answers.", who=julian, room=hall)
    refused = await async_say(hass, memory_entry, ABOUT_ME_BY_A_GUEST[language], language=language, room=hall)
    assert speech(refused) == reply(language, "about_me_unknown")
    assert len(await async_all_memories(hass, memory_entry)) == 1


REMEMBER_A_FILLER = {
    "en": "Remember that.",
    "de": "Merk dir das.",
    "it": "Ricorda questo.",
    "fr": "Souviens-toi de ça.",
    "es": "Recuerda eso.",
}


@pytest.mark.parametrize("language", list(REMEMBER_A_FILLER))
async def test_remember_that_alone_asks_what(hass: Any, memory_entry: Any, hall: Room, language: str) -> None:
    result = await async_say(hass, memory_entry, REMEMBER_A_FILLER[language], language=language, room=hall)
    assert speech(result) == reply(language, "remember_what")
    assert await async_all_memories(hass, memory_entry) == []


async def test_broken_unicode_does_not_crash_the_turn(hass: Any, memory_entry: Any, hall: Room) -> None:
    said = await async_say(hass, memory_entry, "Remember that the key \ud800 is in the tin.", room=hall)
    assert speech(said) == reply("en", "remember_invalid")
    asked = await async_say(hass, memory_entry, "Forget the key \ud800.", room=hall)
    assert speech(asked) == reply("en", "forget_none")
    assert await async_all_memories(hass, memory_entry) == []


async def test_c02_answer_by_meaning_not_by_shared_words(
    hass: Any, memory_entry: Any, *, kitchen: Room, anna: Resident
) -> None:
    """Without an LLM the memory answers with the most similar memory, not the top-ranked one: the
    English question shares "name" and "dog" with an English memory (ranked first by full text),
    the answer was told in German."""
    engine = memory_entry.runtime_data.engine
    for content, language in (
        ("Der Hund heißt Bruno.", "de"),
        ("The dog's name tag is in the drawer.", "en"),
    ):
        await hass.async_add_executor_job(
            lambda c=content, lang=language: engine.remember(
                MemoryDraft(c, speaker=Speaker(), scope=Scope.SHARED, language=lang)
            )
        )
    result = await async_say(
        hass, memory_entry, "What's the name of our dog?", language="en", who=anna, room=kitchen
    )
    assert "Bruno" in speech(result)
