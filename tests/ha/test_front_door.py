"""The memory agent's front door without an LLM (HA's own agent wrapped): everyday memory talk gets
the right answer, odd input a clear one. Cases C25, C26, C27 (length), C28, C30, C31, and
statements nobody understood, through HA's real conversation component, intents and default agent.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant
from homeassistant.helpers import intent
from pytest_homeassistant_custom_component.common import async_mock_service

from custom_components.memory.answers import REPLIES, reply
from custom_components.memory.const import CONF_LEARNING, CONF_SENSITIVE_TO_UNKNOWN
from custom_components.memory.engine.models import Speaker
from custom_components.memory.turn import MAX_UTTERANCE_CHARS
from tests.conftest import Resident, Room, async_call

from .helpers_conversation import (
    async_all_memories,
    async_say,
    async_transcript,
    async_wrap_recording_agent,
    speech,
)

LANGUAGES = ("en", "de", "it", "fr", "es")


def is_from_memory(language: str, said: str) -> bool:
    """True when `said` is one of the memory answers ("From memory: …", "On …, I noted: …")."""
    for key in ("from_memory", "from_memory_dated", "from_memory_by", "from_memory_by_dated"):
        pattern = re.sub(r"\\\{\w+\\\}", ".+", re.escape(REPLIES[language][key]))
        if re.fullmatch(pattern, said, re.DOTALL):
            return True
    return False


async def _set_options(hass: HomeAssistant, entry: ConfigEntry, **options: Any) -> None:
    hass.config_entries.async_update_entry(entry, options={**entry.options, **options})
    await hass.config_entries.async_reload(entry.entry_id)


# --- C25: "where is" asks the memory, not an intent HA's agent guesses -------------------------

# language -> [(remember, question, marker of the answer)]
WHERE_IS = {
    "en": [
        (
            "Remember: the spare bulbs are in the hall cupboard.",
            "Where are the spare bulbs?",
            "hall cupboard",
        ),
        ("Remember: the NAS is on the top shelf in the study.", "Where is the NAS?", "top shelf"),
    ],
    "de": [
        (
            "Merk dir: Die Ersatzglühbirnen sind im Flurschrank.",
            "Wo sind die Ersatzglühbirnen?",
            "Flurschrank",
        ),
        ("Merk dir: Das NAS steht oben im Regal im Arbeitszimmer.", "Wo ist das NAS?", "Arbeitszimmer"),
    ],
    "it": [
        (
            "Ricorda: le lampadine di scorta sono nell'armadio del corridoio.",
            "Dove sono le lampadine di scorta?",
            "armadio del corridoio",
        ),
        ("Ricorda: il NAS è sullo scaffale in alto nello studio.", "Dov'è il NAS?", "scaffale"),
    ],
    "fr": [
        (
            "Retiens : les ampoules de rechange sont dans le placard du couloir.",
            "Où sont les ampoules de rechange ?",
            "placard du couloir",
        ),
        ("Retiens : le NAS est sur l'étagère du haut dans le bureau.", "Où est le NAS ?", "étagère"),
    ],
    "es": [
        (
            "Recuerda: las bombillas de repuesto están en el armario del pasillo.",
            "¿Dónde están las bombillas de repuesto?",
            "armario del pasillo",
        ),
        (
            "Recuerda: el NAS está en la estantería de arriba del despacho.",
            "¿Dónde está el NAS?",
            "estantería",
        ),
    ],
}
WHAT_TIME = {
    "en": "What time is it?",
    "de": "Wie spät ist es?",
    "it": "Che ore sono?",
    "fr": "Quelle heure est-il ?",
    "es": "¿Qué hora es?",
}
CLOCK_NOTE = {  # a memory close to the time question: HA's exact match must still win
    "en": "Remember: the clock in the hall is five minutes fast.",
    "de": "Merk dir: Die Uhr im Flur geht fünf Minuten vor.",
    "it": "Ricorda: l'orologio del corridoio è avanti di cinque minuti.",
    "fr": "Retiens : l'horloge du couloir avance de cinq minutes.",
    "es": "Recuerda: el reloj del pasillo va cinco minutos adelantado.",
}


@pytest.mark.parametrize("language", LANGUAGES)
async def test_c25_where_is_asks_the_memory(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str
) -> None:
    for remember, _, _ in WHERE_IS[language]:
        stored = await async_say(hass, memory_entry, remember, language=language, room=hall)
        assert speech(stored) == reply(language, "remembered_shared")
    for _, question, marker in WHERE_IS[language]:
        answer = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
        assert is_from_memory(language, answer), answer
        assert marker in answer


@pytest.mark.parametrize("language", LANGUAGES)
async def test_c25_what_time_is_it_still_tells_the_time(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str
) -> None:
    await async_say(hass, memory_entry, CLOCK_NOTE[language], language=language, room=hall)
    result = await async_say(hass, memory_entry, WHAT_TIME[language], language=language, room=hall)
    assert result.response.response_type is not intent.IntentResponseType.ERROR
    assert result.response.intent is not None
    assert result.response.intent.intent_type == "HassGetCurrentTime"
    assert not is_from_memory(language, speech(result))


@pytest.mark.parametrize("language", ["en", "de", "es"])
async def test_a_turn_home_assistant_answers_itself_recalls_nothing(
    hass: HomeAssistant, memory_entry: Any, hall: Room, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """Without an LLM, HA's agent answers what it matches exactly and reads no memory block: the
    turn costs no recall (and counts no memory as used); a question it does not match recalls."""
    engine = memory_entry.runtime_data.engine
    await async_say(hass, memory_entry, CLOCK_NOTE[language], language=language, room=hall)
    asked: list[str] = []
    recall = engine.recall

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(text)
        return recall(text, *args, **kwargs)

    monkeypatch.setattr(engine, "recall", counted)
    timed = await async_say(hass, memory_entry, WHAT_TIME[language], language=language, room=hall)
    assert timed.response.intent is not None
    assert timed.response.intent.intent_type == "HassGetCurrentTime"
    assert asked == []
    _, question, marker = WHERE_IS[language][0]
    await async_say(hass, memory_entry, WHERE_IS[language][0][0], language=language, room=hall)
    answer = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
    assert marker in answer
    assert asked == [question]


async def test_c25_a_question_about_a_person_asks_the_memory(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, anna: Resident, kitchen: Room
) -> None:
    """ "Is Julian allergic to anything?" is not answered from Julian's person entity."""
    await async_say(hass, memory_entry, "Remember: Julian is allergic to penicillin.", who=anna, room=kitchen)
    answer = await async_say(hass, memory_entry, "Is Julian allergic to anything?", who=anna, room=kitchen)
    assert "penicillin" in speech(answer)


# --- C26: "forget that" right after a remember ------------------------------------------------

REMEMBER_NUMBER = {
    "en": "Remember: the plumber's number is 0151 2345.",
    "de": "Merk dir: Die Nummer vom Klempner ist 0151 2345.",
    "it": "Ricorda: il numero dell'idraulico è 0151 2345.",
    "fr": "Retiens : le numéro du plombier est le 0151 2345.",
    "es": "Recuerda: el número del fontanero es 0151 2345.",
}
FORGET_THAT = {
    "en": ["Forget that.", "No, forget that.", "Forget it."],
    "de": ["Vergiss das.", "Nein, vergiss das wieder."],
    "it": ["Dimenticalo.", "No, dimentica questo."],
    "fr": ["Oublie ça.", "Non, oublie-le."],
    "es": ["Olvídalo.", "No, olvida eso."],
}
YES = {"en": "yes", "de": "ja", "it": "sì", "fr": "oui", "es": "sí"}


@pytest.mark.parametrize(
    ("language", "forget"), [(lang, said) for lang, all_said in FORGET_THAT.items() for said in all_said]
)
async def test_c26_forget_that_after_a_remember(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, forget: str
) -> None:
    await async_say(hass, memory_entry, WHERE_IS[language][0][0], language=language, room=hall)
    stored = await async_say(hass, memory_entry, REMEMBER_NUMBER[language], language=language, room=hall)
    asked = await async_say(
        hass, memory_entry, forget, language=language, room=hall, conversation_id=stored.conversation_id
    )
    assert "0151 2345" in speech(asked)
    assert WHERE_IS[language][0][2] not in speech(asked)  # exactly the memory just stored
    assert asked.continue_conversation
    done = await async_say(
        hass, memory_entry, YES[language], language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert speech(done) == reply(language, "forgot")
    (left,) = await async_all_memories(hass, memory_entry)
    assert "0151" not in left.content


@pytest.mark.parametrize("language", ["en", "de"])
async def test_c26_forget_that_in_a_new_conversation_at_the_same_satellite(
    hass: HomeAssistant, memory_entry: Any, hall: Room, kitchen: Room, language: str
) -> None:
    """A satellite may start a new conversation per request: "forget that" still means what this
    satellite stored a moment ago, and nothing another satellite stored."""
    await async_say(hass, memory_entry, REMEMBER_NUMBER[language], language=language, room=hall)
    elsewhere = await async_say(hass, memory_entry, FORGET_THAT[language][0], language=language, room=kitchen)
    assert speech(elsewhere) == reply(language, "forget_what")
    asked = await async_say(hass, memory_entry, FORGET_THAT[language][0], language=language, room=hall)
    assert "0151 2345" in speech(asked)


async def test_c26_forget_that_with_nothing_remembered_asks_what(
    hass: HomeAssistant, memory_entry: Any, hall: Room
) -> None:
    await async_call(hass, "remember", {"content": WHERE_IS["en"][0][0]})  # not said at the hall
    result = await async_say(hass, memory_entry, "Forget that.", room=hall)
    assert speech(result) == reply("en", "forget_what")
    assert len(await async_all_memories(hass, memory_entry)) == 1


# --- C27: odd input at the front door (length; verbatim storage in test_verbatim) ---------------

ODD_INPUTS = {
    "4 kB": "Remember that " + "the boiler makes a noise, " * 160,
    "200 kB": "Where is the " + "very " * 40_000 + "spare key?",
    "10,000-character word": "Remember: " + "x" * 10_000,
}


@pytest.mark.parametrize("shape", list(ODD_INPUTS))
@pytest.mark.parametrize("language", ["en", "de"])
async def test_c27_over_long_input_gets_a_clear_reply(
    hass: HomeAssistant, memory_entry: Any, hall: Room, shape: str, language: str
) -> None:
    text = ODD_INPUTS[shape]
    assert len(text) > MAX_UTTERANCE_CHARS
    result = await async_say(hass, memory_entry, text, language=language, room=hall)
    assert speech(result) == reply(language, "too_long")
    assert await async_all_memories(hass, memory_entry) == []
    engine = memory_entry.runtime_data.engine
    assert await async_transcript(hass, engine, result.conversation_id) == []


async def test_c27_input_at_the_limit_is_interpreted(
    hass: HomeAssistant, memory_entry: Any, hall: Room
) -> None:
    prefix = "Remember: "
    text = prefix + "y" * (MAX_UTTERANCE_CHARS - len(prefix))
    result = await async_say(hass, memory_entry, text, room=hall)
    assert speech(result) == reply("en", "remembered_shared")


# --- C28: relative time is read back with the day it was said ---------------------------------

PLUMBER = {
    "en": (
        "Remember: the plumber comes tomorrow at 9.",
        "When does the plumber come?",
        "Monday, 30 November",
    ),
    "de": ("Merk dir: Der Klempner kommt morgen um 9.", "Wann kommt der Klempner?", "Montag, 30. November"),
    "it": ("Ricorda: l'idraulico viene domani alle 9.", "Quando viene l'idraulico?", "lunedì 30 novembre"),
    "fr": (
        "Retiens : le plombier vient demain à 9 heures.",
        "Quand vient le plombier ?",
        "lundi 30 novembre",
    ),
    "es": (
        "Recuerda: el fontanero viene mañana a las 9.",
        "¿Cuándo viene el fontanero?",
        "lunes 30 de noviembre",
    ),
}


@pytest.mark.parametrize("language", list(PLUMBER))
async def test_c28_relative_time_is_read_back_with_its_day(
    hass: HomeAssistant, memory_entry: Any, hall: Room, freezer: Any, language: str
) -> None:
    await hass.config.async_set_time_zone("Europe/Berlin")
    remember, question, day = PLUMBER[language]
    freezer.move_to(datetime.fromisoformat("2026-11-30T08:00:00+01:00"))  # a Monday
    await async_say(hass, memory_entry, remember, language=language, room=hall)
    same_day = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
    assert is_from_memory(language, same_day)
    assert day not in same_day  # said today: no date needed

    freezer.move_to(datetime.fromisoformat("2026-12-03T18:00:00+01:00"))  # Thursday
    answer = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
    assert is_from_memory(language, answer)
    assert day in answer
    assert answer.index(day) < answer.index("9")  # the day frames the memory, not after it


@pytest.mark.parametrize("language", ["en", "de"])
async def test_c28_what_do_you_know_dates_older_memories(
    hass: HomeAssistant, memory_entry: Any, hall: Room, freezer: Any, language: str
) -> None:
    await hass.config.async_set_time_zone("Europe/Berlin")
    remember, _, day = PLUMBER[language]
    ask = {"en": "What do you know about the plumber?", "de": "Was weißt du über den Klempner?"}[language]
    freezer.move_to(datetime.fromisoformat("2026-11-30T08:00:00+01:00"))
    await async_say(hass, memory_entry, remember, language=language, room=hall)
    freezer.move_to(datetime.fromisoformat("2026-12-03T18:00:00+01:00"))
    answer = speech(await async_say(hass, memory_entry, ask, language=language, room=hall))
    assert day in answer


# --- C30: sensitive memories and unknown speakers ---------------------------------------------

SENSITIVE = {
    "en": [
        ("Remember: the alarm code is 2580.", "What is the alarm code?", "2580"),
        ("Remember: Julian is allergic to penicillin.", "Is Julian allergic to anything?", "penicillin"),
    ],
    "de": [
        ("Merk dir: Der Alarmcode ist 2580.", "Wie lautet der Alarmcode?", "2580"),
        (
            "Merk dir: Julian ist allergisch gegen Penicillin.",
            "Ist Julian gegen etwas allergisch?",
            "Penicillin",
        ),
    ],
}


@pytest.mark.parametrize("language", list(SENSITIVE))
async def test_c30_sensitive_things_and_unknown_speakers(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    hall: Room,
    language: str,
) -> None:
    for remember, _, _ in SENSITIVE[language]:
        await async_say(hass, memory_entry, remember, language=language, who=julian, room=hall)
    assert all(m.sensitive for m in await async_all_memories(hass, memory_entry))
    for _, question, secret in SENSITIVE[language]:
        guest = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
        assert secret not in guest
        assert guest == reply(language, "withheld")
        for member in (julian, anna):
            heard = speech(
                await async_say(hass, memory_entry, question, language=language, who=member, room=hall)
            )
            assert secret in heard

    await _set_options(hass, memory_entry, **{CONF_SENSITIVE_TO_UNKNOWN: True})
    for _, question, secret in SENSITIVE[language]:
        assert secret in speech(await async_say(hass, memory_entry, question, language=language, room=hall))


async def test_c30_what_do_you_know_and_forget_do_not_read_it_out(
    hass: HomeAssistant, memory_entry: Any, hall: Room
) -> None:
    await async_say(hass, memory_entry, "Remember: the alarm code is 2580.", room=hall)
    known = speech(await async_say(hass, memory_entry, "What do you know about the alarm code?", room=hall))
    assert "2580" not in known
    assert known == reply("en", "withheld")
    asked = await async_say(hass, memory_entry, "Forget the alarm code.", room=hall)
    assert "2580" not in speech(asked)
    assert reply("en", "withheld_item") in speech(asked)
    done = await async_say(hass, memory_entry, "yes", room=hall, conversation_id=asked.conversation_id)
    assert speech(done) == reply("en", "forgot")
    assert await async_all_memories(hass, memory_entry) == []


async def test_c30_an_llm_prompt_for_an_unknown_speaker_withholds_it(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, hall: Room
) -> None:
    await async_say(hass, memory_entry, "Remember: the alarm code is 2580.", room=hall)
    agent = await async_wrap_recording_agent(hass, memory_entry, with_memory_api=True)
    await async_say(hass, memory_entry, "What is the alarm code?", room=hall)
    assert "2580" not in agent.extra_prompts[-1]
    assert "not recognised" in agent.extra_prompts[-1]
    # Julian may hear it; this test agent counts as a cloud model, which never gets it
    await async_say(hass, memory_entry, "What is the alarm code?", who=julian, room=hall)
    assert "2580" not in agent.extra_prompts[-1]
    assert "not recognised" not in agent.extra_prompts[-1]


# --- C31: nothing to remember ----------------------------------------------------------------

NOTHING = {
    "en": ["Remember that for me.", "Remember it please.", "Remember.", "Don't forget that."],
    "de": ["Merk dir das bitte.", "Merk es dir.", "Merk dir das für mich."],
    "it": ["Ricordatelo.", "Ricorda questo per me, per favore."],
    "fr": ["Retiens ça.", "Souviens-toi de ça, s'il te plaît."],
    "es": ["Recuérdalo.", "Recuerda eso por favor."],
}


@pytest.mark.parametrize(
    ("language", "said"), [(lang, said) for lang, all_said in NOTHING.items() for said in all_said]
)
async def test_c31_nothing_to_remember(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, said: str
) -> None:
    result = await async_say(hass, memory_entry, said, language=language, room=hall)
    assert speech(result) == reply(language, "remember_what")
    assert await async_all_memories(hass, memory_entry) == []


# --- Statements nobody understood --------------------------------------------------------------

STATEMENTS = {
    "en": ("I've started learning the cello, my lessons are on Thursdays.", "yes", "no", "cello"),
    "de": ("Ich habe angefangen, Cello zu lernen, der Unterricht ist donnerstags.", "ja", "nein", "Cello"),
    "it": ("Ho cominciato a studiare il violoncello, le lezioni sono il giovedì.", "sì", "no", "violoncello"),
    "fr": ("J'ai commencé le violoncelle, les cours sont le jeudi.", "oui", "non", "violoncelle"),
    "es": ("He empezado a aprender violonchelo, las clases son los jueves.", "sí", "no", "violonchelo"),
}


@pytest.mark.parametrize("language", list(STATEMENTS))
async def test_a_statement_is_offered_to_be_remembered(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, kitchen: Room, language: str
) -> None:
    said, yes, _, marker = STATEMENTS[language]
    offered = await async_say(hass, memory_entry, said, language=language, who=julian, room=kitchen)
    assert speech(offered) == reply(language, "remember_offer")
    assert offered.continue_conversation
    assert await async_all_memories(hass, memory_entry) == []
    done = await async_say(
        hass,
        memory_entry,
        yes,
        language=language,
        who=julian,
        room=kitchen,
        conversation_id=offered.conversation_id,
    )
    assert speech(done) == reply(language, "remembered_private")
    (stored,) = await async_all_memories(hass, memory_entry)
    assert stored.content == said
    assert stored.owner_id == julian.person_id
    assert marker in stored.content


@pytest.mark.parametrize("language", ["en", "de"])
async def test_a_statement_declined_or_ignored_stores_nothing(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str
) -> None:
    said, _, no, _ = STATEMENTS[language]
    offered = await async_say(hass, memory_entry, said, language=language, room=hall)
    declined = await async_say(
        hass, memory_entry, no, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert speech(declined) == reply(language, "remember_declined")
    offered = await async_say(hass, memory_entry, said, language=language, room=hall)
    forget_it = {"en": "No, forget it.", "de": "Nein, vergiss es."}[language]
    declined = await async_say(
        hass, memory_entry, forget_it, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert speech(declined) == reply(language, "remember_declined")
    assert await async_all_memories(hass, memory_entry) == []


@pytest.mark.parametrize("language", ["en", "de"])
async def test_a_statement_with_learning_on_is_acknowledged(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str
) -> None:
    await _set_options(hass, memory_entry, **{CONF_LEARNING: True})
    result = await async_say(hass, memory_entry, STATEMENTS[language][0], language=language, room=hall)
    assert speech(result) == reply(language, "noted")
    assert not result.continue_conversation


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Thank you very much."), ("en", "Good night!"), ("de", "Vielen Dank!"), ("en", "Blue.")],
)
async def test_pleasantries_are_not_offered(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, said: str
) -> None:
    result = await async_say(hass, memory_entry, said, language=language, room=hall)
    assert speech(result) != reply(language, "remember_offer")


async def test_one_memory_block_when_the_wrapped_llm_has_the_memory_api(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, kitchen: Room
) -> None:
    """One recall per turn: the memory block is in the system prompt once; the Memory API of the
    wrapped LLM agent points at it instead of recalling again."""
    await async_say(hass, memory_entry, "Remember my daughter's name is Mia.", who=julian, room=kitchen)
    agent = await async_wrap_recording_agent(hass, memory_entry, with_memory_api=True)
    engine = memory_entry.runtime_data.engine
    calls: list[str] = []
    recall = engine.recall

    def counting(query: str, speaker: Speaker, *args: Any, **kwargs: Any) -> Any:
        calls.append(query)
        return recall(query, speaker, *args, **kwargs)

    engine.recall = counting
    try:
        await async_say(hass, memory_entry, "What's my daughter's name?", who=julian, room=kitchen)
    finally:
        engine.recall = recall
    assert calls == ["What's my daughter's name?"]
    assert "Mia" in agent.extra_prompts[-1]
    assert "Mia" not in agent.api_prompts[-1]
    assert (agent.extra_prompts[-1] + agent.api_prompts[-1]).count("Mia") == 1


async def test_a_failing_turn_still_gets_a_reply(
    hass: HomeAssistant, memory_entry: Any, hall: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plumbing: whatever breaks inside a turn, the agent answers and records the reply."""
    from custom_components.memory import conversation as agent  # noqa: PLC0415

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("broken")

    await async_say(hass, memory_entry, WHERE_IS["en"][1][0], room=hall)
    monkeypatch.setattr(agent, "async_strict_intent", broken)
    result = await async_say(hass, memory_entry, WHERE_IS["en"][1][1], room=hall)
    assert speech(result) == reply("en", "turn_failed")
    engine = memory_entry.runtime_data.engine
    turns = await async_transcript(hass, engine, result.conversation_id)
    assert [t.text for t in turns] == [WHERE_IS["en"][1][1], reply("en", "turn_failed")]


# --- Everyday phrasings found by review (each in several languages) ----------------------------

# (language, remember, question, marker): the memory's cosine alone is below answer similarity;
# it shares the thing's word with the question, and HA's agent would only guess at it.
BY_WORDS = [
    ("en", "Remember: the drill is on the left shelf in the garage.", "Where is the drill?", "left shelf"),
    (
        "de",
        "Merk dir: Die Reisepässe liegen in der obersten Schublade im Arbeitszimmer.",
        "Wo sind die Reisepässe?",
        "obersten Schublade",
    ),
    ("it", "Ricorda: il trapano è sullo scaffale di sinistra in garage.", "Dov'è il trapano?", "scaffale"),
    (
        "es",
        "Recuerda: el taladro está en la estantería izquierda del garaje.",
        "¿Sabes dónde está el taladro?",
        "estantería",
    ),
    (
        "en",
        "Remember: the passports are in the top drawer of the desk.",
        "I can't find the passports.",
        "top drawer",
    ),
    (
        "de",
        "Merk dir: Die Reisepässe liegen in der obersten Schublade.",
        "Ich finde die Reisepässe nicht.",
        "Schublade",
    ),
    ("es", "Recuerda: la linterna está debajo del fregadero.", "donde esta la linterna", "fregadero"),
]


@pytest.mark.parametrize(("language", "remember", "question", "marker"), BY_WORDS)
async def test_c25_a_question_sharing_the_things_word_is_answered_from_memory(
    hass: HomeAssistant,
    memory_entry: Any,
    hall: Room,
    *,
    language: str,
    remember: str,
    question: str,
    marker: str,
) -> None:
    await async_say(hass, memory_entry, remember, language=language, room=hall)
    answer = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
    assert is_from_memory(language, answer), answer
    assert marker in answer


# (language, remember, lead-in "forget that")
FORGET_THAT_PHRASED = [
    ("en", "Oh, forget that."),
    ("en", "Forget what I just said."),
    ("en", "No wait, scratch that."),
    ("de", "Ach, vergiss es."),
    ("de", "Vergiss, was ich gerade gesagt habe."),
    ("it", "Dimentica quello che ho detto."),
    ("fr", "Oublie ce que je viens de dire."),
    ("es", "Olvídate de eso."),
]


@pytest.mark.parametrize(("language", "forget"), FORGET_THAT_PHRASED)
async def test_c26_forget_that_in_other_words(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, forget: str
) -> None:
    await async_say(hass, memory_entry, REMEMBER_NUMBER[language], language=language, room=hall)
    asked = speech(await async_say(hass, memory_entry, forget, language=language, room=hall))
    assert "0151 2345" in asked


# (language, yes-answer, no-answer): natural answers to a waiting question
ANSWERS = [
    ("en", "Yes, forget it.", "Nope, keep it please."),
    ("de", "Ja, vergiss es.", "Nein, behalte es."),
    ("it", "Sì, dimenticalo.", "No, tienilo."),
    ("fr", "Oui, oublie-le.", "Non, garde-le."),
    ("es", "Sí, bórralo.", "No, guárdalo."),
]


@pytest.mark.parametrize(("language", "yes", "no"), ANSWERS)
async def test_c03_natural_answers_to_a_forget_question(
    hass: HomeAssistant, memory_entry: Any, hall: Room, *, language: str, yes: str, no: str
) -> None:
    remember = WHERE_IS[language][1][0]
    await async_say(hass, memory_entry, remember, language=language, room=hall)
    forget = {"en": "Forget the NAS.", "de": "Vergiss das NAS.", "it": "Dimentica il NAS.",
              "fr": "Oublie le NAS.", "es": "Olvida el NAS."}[language]  # fmt: skip
    asked = await async_say(hass, memory_entry, forget, language=language, room=hall)
    kept = await async_say(
        hass, memory_entry, no, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert speech(kept) == reply(language, "forget_cancelled")
    asked = await async_say(hass, memory_entry, forget, language=language, room=hall)
    done = await async_say(
        hass, memory_entry, yes, language=language, room=hall, conversation_id=asked.conversation_id
    )
    assert speech(done) == reply(language, "forgot")
    assert await async_all_memories(hass, memory_entry) == []


@pytest.mark.parametrize(
    ("language", "yes"),
    [("en", "Yes, please remember that."), ("de", "Ja, bitte merken."), ("it", "Sì, ricordalo.")],
)
async def test_a_natural_yes_stores_the_statement_not_the_answer(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, yes: str
) -> None:
    said = STATEMENTS[language][0]
    offered = await async_say(hass, memory_entry, said, language=language, room=hall)
    await async_say(
        hass, memory_entry, yes, language=language, room=hall, conversation_id=offered.conversation_id
    )
    assert [m.content for m in await async_all_memories(hass, memory_entry)] == [said]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Remember all that."),
        ("en", "Keep that in mind."),
        ("en", "Write that down."),
        ("de", "Merk dir das alles."),
        ("de", "Vergiss das nicht."),
        ("it", "Ricorda tutto questo."),
        ("es", "No lo olvides."),
        ("es", "Recuerda todo eso."),
        ("en", "\ufeffRemember that."),
    ],
)
async def test_c31_nothing_to_remember_in_other_words(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, said: str
) -> None:
    await async_call(hass, "remember", {"content": "The car does not need an inspection this year."})
    result = await async_say(hass, memory_entry, said, language=language, room=hall)
    assert speech(result) == reply(language, "remember_what")
    assert len(await async_all_memories(hass, memory_entry)) == 1  # nothing stored, nothing forgotten


@pytest.mark.parametrize(
    "said", ["\ufeffRemember: the bins go out on Tuesday.", "Remember:\u200b the bins go out on Tuesday."]
)
async def test_c27_invisible_characters_do_not_stop_a_remember(
    hass: HomeAssistant, memory_entry: Any, hall: Room, said: str
) -> None:
    result = await async_say(hass, memory_entry, said, room=hall)
    assert speech(result) == reply("en", "remembered_shared")
    (stored,) = await async_all_memories(hass, memory_entry)
    assert stored.content == "the bins go out on Tuesday."


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Thanks, that's all."),
        ("en", "Good night everyone"),
        ("de", "Danke, das war's."),
        ("it", "Buongiorno a tutti"),
        ("fr", "Merci, c'est tout."),
        ("es", "Gracias, eso es todo."),
        ("en", "Open the garage door"),
        ("de", "Mach das Licht in der Küche an"),
    ],
)
async def test_pleasantries_and_commands_are_not_offered(
    hass: HomeAssistant, memory_entry: Any, hall: Room, language: str, said: str
) -> None:
    result = await async_say(hass, memory_entry, said, language=language, room=hall)
    assert speech(result) != reply(language, "remember_offer")


async def test_a_statement_home_assistant_would_mistake_is_offered(
    hass: HomeAssistant, memory_entry: Any, hall: Room
) -> None:
    """HA's agent guesses "Anna's birthday is on 12 May." to be turning something on (unknown
    names); it is a statement, offered to be remembered."""
    result = await async_say(hass, memory_entry, "Anna's birthday is on 12 May.", room=hall)
    assert speech(result) == reply("en", "remember_offer")


# (language, said, carried out): long or repetitive commands; HA's agent matches these in
# milliseconds (its fuzzy matcher is gone: bench/odd_input.py), so they are handed to it whole
LONG_COMMANDS = [
    ("en", "Turn on the kitchen light please please please please", True),
    ("en", "Turn on the kitchen light " + "now " * 40, False),
    ("en", "Turn on the light in the kitchen, the light in the kitchen, the light in the kitchen", False),
    ("de", "Schalte bitte bitte bitte bitte das Küchenlicht ein", False),
    ("es", "Enciende la luz de la cocina por favor por favor por favor por favor", False),
]


@pytest.mark.parametrize(("language", "said", "carried_out"), LONG_COMMANDS)
async def test_c27_long_or_repetitive_commands_reach_home_assistants_agent(
    hass: HomeAssistant,
    memory_entry: Any,
    kitchen: Room,
    monkeypatch: pytest.MonkeyPatch,
    *,
    language: str,
    said: str,
    carried_out: bool,
) -> None:
    """Without an LLM a command the memory does not answer is Home Assistant's, however long or
    repetitive: HA's agent gets it whole and answers it (carrying it out when it understands)."""
    from custom_components.memory import conversation as agent  # noqa: PLC0415

    hass.states.async_set("light.kitchen_light", "off", {"friendly_name": "Kitchen light"})
    switched = async_mock_service(hass, "light", "turn_on")
    handed: list[str] = []
    converse = agent.conversation.async_converse

    async def watched(hass: HomeAssistant, text: str, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("agent_id") == agent.conversation.HOME_ASSISTANT_AGENT:
            handed.append(text)
        return await converse(hass, text, *args, **kwargs)

    monkeypatch.setattr(agent.conversation, "async_converse", watched)
    result = await async_say(hass, memory_entry, said, language=language, room=kitchen)
    assert handed == [said]
    assert speech(result) not in {reply(language, key) for key in ("remember_offer", "know_nothing")}
    assert len(switched) == int(carried_out)


ROOM_NOTES = {
    "en": ("Kitchen", "Remember for this room: the dishwasher tablets are above the fridge.",
           "What do you know about the kitchen?", "dishwasher"),
    "de": ("Küche", "Merk dir für diesen Raum: Die Spülmaschinentabs sind über dem Kühlschrank.",
           "Was weißt du über die Küche?", "Spülmaschinentabs"),
    "it": ("Cucina", "Ricorda per questa stanza: le pastiglie per la lavastoviglie sono sopra il frigo.",
           "Cosa sai della cucina?", "lavastoviglie"),
    "fr": ("Cuisine", "Souviens-toi pour cette pièce : les pastilles du lave-vaisselle sont sur le frigo.",
           "Que sais-tu sur la cuisine ?", "lave-vaisselle"),
    "es": ("Cocina", "Recuerda para esta habitación: las pastillas del lavavajillas están sobre la nevera.",
           "Qué sabes de la cocina?", "lavavajillas"),
}  # fmt: skip


@pytest.mark.parametrize("language", list(ROOM_NOTES))
async def test_c29_what_do_you_know_about_a_room_lists_its_notes(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, kitchen: Room, hall: Room, language: str
) -> None:
    from homeassistant.helpers import area_registry as ar  # noqa: PLC0415

    name, note, question, marker = ROOM_NOTES[language]
    ar.async_get(hass).async_update(kitchen.area_id, name=name)
    await async_say(hass, memory_entry, note, language=language, room=kitchen)
    private = {"en": "Remember that I keep my own kitchen knife in the drawer.",
               "de": "Merk dir, dass ich mein eigenes Küchenmesser in der Schublade habe.",
               "it": "Ricorda che io tengo il mio coltello da cucina nel cassetto.",
               "fr": "Souviens-toi que je garde mon couteau de cuisine dans le tiroir.",
               "es": "Recuerda que yo guardo mi cuchillo de cocina en el cajón."}[language]  # fmt: skip
    await async_say(hass, memory_entry, private, language=language, who=julian, room=kitchen)
    answer = speech(await async_say(hass, memory_entry, question, language=language, room=hall))
    assert marker in answer
    assert private.split()[-1].strip(".") not in answer  # Julian's private note never follows a name
