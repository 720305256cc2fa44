"""Honest answers when nobody is recognised (issue 42, C34's stranger): an unknown speaker's
question that only a private memory could answer hears that private memories need a recognised
voice or a personal device — the same reply, word for word, whether or not anyone has such a
memory — on every door: the memory agent without an LLM, its Assist pipeline at a satellite, the
prompt of a wrapped LLM agent and of the Memory API, and the recall tool. A recognised speaker is
answered as before, and an unknown speaker's question about something else is still answered
from shared memories. Through HA's real conversation, intent and assist_pipeline components.
"""

from __future__ import annotations

from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import llm

from custom_components.memory.answers import reply
from custom_components.memory.const import LLM_API_ID
from custom_components.memory.engine.models import Scope
from custom_components.memory.llm_api import (
    PRIVATE_NEEDS_RECOGNITION,
    UNKNOWN_SPEAKER_LINE,
    UNKNOWN_SPEAKER_RECALL_NOTE,
)
from tests.conftest import Resident, Room, both_stores

from .helpers_conversation import (
    Model,
    async_all_memories,
    async_pipeline_say,
    async_say,
    async_scripted_llm,
    async_wrap_recording_agent,
    speech,
)

# language -> (what Julian tells privately, the questions only that memory answers — the last as
# speech-to-text may write it: no question mark, no accent — a word of it)
ABOUT_ME: dict[str, tuple[list[str], list[str], str]] = {
    "en": (
        ["Remember that my dentist appointment is on Friday at 3.", "Remember that I like jazz."],
        [
            "What's my dentist appointment?",
            "When is my appointment?",
            "What do I like?",
            "what is my appointment",
        ],
        "Friday",
    ),
    "de": (
        ["Merk dir, dass mein Zahnarzttermin am Freitag um 3 ist.", "Merk dir, dass ich Jazz mag."],
        ["Wann ist mein Zahnarzttermin?", "Was mag ich?", "wann ist mein Zahnarzttermin"],
        "Freitag",
    ),
    "it": (
        ["Ricorda che il mio appuntamento dal dentista è venerdì alle 3.", "Ricorda che mi piace il jazz."],
        ["Quando è il mio appuntamento dal dentista?", "Cosa mi piace?", "qual è il mio appuntamento"],
        "venerdì",
    ),
    "fr": (
        [
            "Retiens que mon rendez-vous chez le dentiste est vendredi à 15 heures.",
            "Retiens que j'aime le jazz.",
        ],
        [
            "Quand est mon rendez-vous chez le dentiste ?",
            "Qu'est-ce que j'aime ?",
            "quel est mon rendez-vous",
        ],
        "vendredi",
    ),
    "es": (
        ["Recuerda que mi cita con el dentista es el viernes a las 3.", "Recuerda que me gusta el jazz."],
        ["¿Cuándo es mi cita con el dentista?", "¿Qué me gusta?", "cual es mi cita con el dentista"],
        "viernes",
    ),
}
LANGUAGES = tuple(ABOUT_ME)


def _as_heard(result: conversation.ConversationResult) -> dict[str, Any]:
    """Everything a turn's result tells the asker, but the conversation's own id."""
    heard = result.as_dict()
    heard.pop("conversation_id")
    return heard


async def _julian_tells(hass: HomeAssistant, entry: Any, language: str, julian: Resident, room: Room) -> None:
    """Julian (recognised) tells ABOUT_ME[language]'s private memories; they are stored private."""
    for said in ABOUT_ME[language][0]:
        await async_say(hass, entry, said, language=language, who=julian, room=room)
    stored = await async_all_memories(hass, entry)
    assert len(stored) == len(ABOUT_ME[language][0])
    assert {m.scope for m in stored} == {Scope.PRIVATE}


@both_stores
@pytest.mark.parametrize("language", LANGUAGES)
async def test_c34_a_stranger_asking_about_themself_hears_why_not_whether(
    hass: HomeAssistant, memory_entry: Any, language: str, *, julian: Resident, hall: Room
) -> None:
    """No LLM: the stranger at the hall satellite hears that private memories need a recognised
    voice or a personal device; the whole result is the same before and after Julian told the
    private memories that answer the question (no count, no other difference); Julian hears them."""
    _, questions, marker = ABOUT_ME[language]
    before = [await async_say(hass, memory_entry, q, language=language, room=hall) for q in questions]
    await _julian_tells(hass, memory_entry, language, julian, hall)
    after = [await async_say(hass, memory_entry, q, language=language, room=hall) for q in questions]
    for question, without, with_memory in zip(questions, before, after, strict=True):
        assert speech(without) == reply(language, "needs_recognition"), question
        assert _as_heard(with_memory) == _as_heard(without), question
    # the memories do answer these questions for the person they belong to
    heard = speech(
        await async_say(hass, memory_entry, questions[0], language=language, who=julian, room=hall)
    )
    assert marker in heard


async def test_a_recognised_speaker_is_answered_as_before(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, hall: Room
) -> None:
    """Julian asking about himself with nothing stored hears Home Assistant's own answer, never
    the reply meant for a stranger (he is recognised; nothing is missing)."""
    said = speech(
        await async_say(hass, memory_entry, "What's my dentist appointment?", who=julian, room=hall)
    )
    assert said != reply("en", "needs_recognition")
    assert "recognised" not in said


async def test_a_strangers_question_about_the_house_is_answered_from_shared_memories(
    hass: HomeAssistant, memory_entry: Any, *, hall: Room
) -> None:
    """Not about themself ("When is the bin day?", "Tell me when the bins go out."): answered
    from a shared memory as before; nothing shared answers → Home Assistant's own reply. A
    first-person question a shared memory answers is answered from it ("Where do I put the
    recycling?"), and a sensitive shared one stays withheld (C30: "What's my wifi password?")."""
    for question in ("When is the bin day?", "Tell me when the bins go out."):
        unanswered = speech(await async_say(hass, memory_entry, question, room=hall))
        assert unanswered != reply("en", "needs_recognition"), question
    for told in (
        "Remember: the bins go out on Tuesday.",
        "Remember: the recycling goes in the yellow bin by the garage.",
        "Remember: the wifi password is hunter22.",
    ):
        await async_say(hass, memory_entry, told, room=hall)
    assert "Tuesday" in speech(await async_say(hass, memory_entry, "When is the bin day?", room=hall))
    assert "Tuesday" in speech(
        await async_say(hass, memory_entry, "Tell me when the bins go out.", room=hall)
    )
    assert "yellow bin" in speech(
        await async_say(hass, memory_entry, "Where do I put the recycling?", room=hall)
    )
    wifi = speech(await async_say(hass, memory_entry, "What's my wifi password?", room=hall))
    assert wifi == reply("en", "withheld")


async def test_c34_the_same_at_a_satellite_through_the_assist_pipeline(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, hall: Room
) -> None:
    """A voice nobody recognised, through a real Assist pipeline run at the hall satellite."""
    before = await async_pipeline_say(hass, memory_entry, "What do I like?", room=hall)
    await _julian_tells(hass, memory_entry, "en", julian, hall)
    after = await async_pipeline_say(hass, memory_entry, "What do I like?", room=hall)
    assert before.speech == after.speech == reply("en", "needs_recognition")
    assert before.continue_conversation is after.continue_conversation is False


@pytest.mark.parametrize("language", LANGUAGES)
async def test_what_do_you_know_about_me_from_a_stranger(
    hass: HomeAssistant, memory_entry: Any, language: str, *, julian: Resident, hall: Room
) -> None:
    """The memory sentence "What do you know about me?" asked by a stranger: the same reply
    before and after Julian told private memories."""
    question = {
        "en": "What do you know about me?",
        "de": "Was weißt du über mich?",
        "it": "Cosa sai di me?",
        "fr": "Que sais-tu de moi ?",
        "es": "¿Qué sabes de mí?",
    }[language]
    before = await async_say(hass, memory_entry, question, language=language, room=hall)
    await _julian_tells(hass, memory_entry, language, julian, hall)
    after = await async_say(hass, memory_entry, question, language=language, room=hall)
    assert speech(before) == reply(language, "needs_recognition")
    assert _as_heard(after) == _as_heard(before)


# ------------------------------------------------------------------ a model answering the stranger
@both_stores
async def test_c34_the_wrapped_llms_prompt_says_how_to_answer_a_stranger(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, hall: Room
) -> None:
    """The memory agent wrapping an LLM agent (with the Memory API ticked): the stranger's turn
    tells the model how to answer a question about themself, and the prompt is the same, byte for
    byte, before and after Julian told the private memories; Julian's turn has no such line."""
    agent = await async_wrap_recording_agent(hass, memory_entry, with_memory_api=True)
    await async_say(hass, memory_entry, "What's my dentist appointment?", room=hall)
    await _julian_tells(hass, memory_entry, "en", julian, hall)
    await async_say(hass, memory_entry, "What's my dentist appointment?", room=hall)
    without, with_memory = agent.extra_prompts[0], agent.extra_prompts[-1]
    assert PRIVATE_NEEDS_RECOGNITION in without
    assert with_memory == without
    assert "Friday" not in with_memory
    await async_say(hass, memory_entry, "What's my dentist appointment?", who=julian, room=hall)
    assert PRIVATE_NEEDS_RECOGNITION not in agent.extra_prompts[-1]
    assert "Friday" in agent.extra_prompts[-1]


def _memory_part(system_prompt: str) -> str:
    """The Memory API's speaker line and memory block (what follows HA's own prompt and time)."""
    return system_prompt[system_prompt.index("The speaker is") :]


@both_stores
@pytest.mark.parametrize("apis", [[LLM_API_ID], [llm.LLM_API_ASSIST]], ids=["memory-api", "assist-only"])
async def test_c34_a_models_recall_for_a_stranger_says_the_same_with_or_without(
    hass: HomeAssistant, memory_entry: Any, apis: list[str], *, julian: Resident, hall: Room
) -> None:
    """An LLM agent used directly, with the Memory API (its prompt names the stranger and how to
    answer) or with only Assist ticked (the tool platform: the recall tool's `note` says it): the
    recall tool's result and the Memory API's prompt are the same before and after Julian told
    the private memories that answer the question; Julian's recall finds them, without the note."""
    agent, agent_id = await async_scripted_llm(hass, apis)
    results: list[llm.ToolResult] = []

    async def recall(model: Model) -> str:
        results.append(await model.call_memory("recall", query="What's my dentist appointment?"))
        return "ok"

    async def ask(who: Resident | None) -> None:
        agent.script.append(recall)
        await conversation.async_converse(
            hass,
            "What's my dentist appointment?",
            None,
            who.context if who else Context(user_id=None),
            "en",
            agent_id=agent_id,
            device_id=hall.device_id,
        )

    await ask(None)
    await _julian_tells(hass, memory_entry, "en", julian, hall)
    await ask(None)
    await ask(julian)
    without, with_memory, julians = (result.data for result in results)
    assert without == with_memory
    assert without["memories"] == []
    assert without["note"] == UNKNOWN_SPEAKER_RECALL_NOTE
    assert "withheld" not in without
    assert "Friday" in julians["memories"][0]["content"]
    assert "note" not in julians
    if LLM_API_ID in apis:
        first, second, third = (_memory_part(p) for p in agent.system_prompts)
        assert first.startswith(UNKNOWN_SPEAKER_LINE)
        assert second == first
        assert UNKNOWN_SPEAKER_LINE not in third
