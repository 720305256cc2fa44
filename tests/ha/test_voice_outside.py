"""C40, a stronger recogniser outside: the satellite's audio goes through a speech-to-text engine
that verifies the speaker itself and tags its transcript, "[julian] What do I like?", as
wyoming-voice-match does with TAG_SPEAKER=true (docs/voice.md "A stronger recogniser outside").

Real parts: HA's wyoming integration and its speech-to-text entity, talking the Wyoming protocol
over TCP (the `wyoming` package) to a server of the test's own (plumbing: it answers every
Transcribe with a set transcript, as the add-on would after verifying the voice); Household
Memory's speech-to-text entity in proxy mode in front of it, in a real Assist pipeline run from
the STT stage with espeak-ng audio; the memory agent, the transcripts store and the memory store.
The memory agent wraps a RecordingAgent with the Memory API ticked (an LLM agent's stand-in), so
the test sees the text and the prompt the LLM would get.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any

import pytest
from homeassistant.components import stt
from homeassistant.config_entries import ConfigEntry, ConfigEntryState
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry
from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStop
from wyoming.event import Event
from wyoming.info import AsrModel, AsrProgram, Attribution, Describe, Info
from wyoming.server import AsyncEventHandler

from custom_components.memory.const import (
    CONF_STT_ENGINE,
    CONF_STT_PROXY,
    CONF_STT_SPEAKERS,
    CONF_STT_TRUST_SPEAKER,
    CONF_VOICE_RECOGNITION,
)
from custom_components.memory.engine.models import Role, SpeakerSource
from custom_components.memory.ha_compat import STT_NAMES_SPEAKERS
from custom_components.memory.recognition import (
    OURS,
    SPEAKER_ID,
    TAG,
    Named,
    Who,
    decide,
    heard_for,
    split_tag,
)
from custom_components.memory.speaker import person_for_named
from custom_components.memory.voice import UNKNOWN, VoiceMatch
from tests.conftest import Resident, Room, async_call
from tests.ha.helpers_conversation import (
    RecordingAgent,
    async_all_memories,
    async_transcript,
    async_wrap_recording_agent,
    memory_agent_id,
)
from tests.ha.voice_helpers import (
    Stream,
    async_run_pipeline,
    async_set_voice,
    async_use_in_pipeline,
    metadata,
    stt_entity_id,
)
from tests.speech import MEN, silence, speak

QUESTION = "What do I like?"
TAGGED = f"[julian] {QUESTION}"
LIKES = "apple strudel"  # Julian's private memory: "I like apple strudel"
VOICE = MEN[1]  # whoever talks at the kitchen: our own recogniser knows no voice in these tests


@dataclass
class TaggingServer:
    """A Wyoming speech-to-text server on 127.0.0.1 answering each utterance with `reply`
    (plumbing for the add-on: its verification and its ASR are not under test)."""

    reply: str = TAGGED
    received: list[int] = field(default_factory=list)  # bytes of audio per utterance
    port: int = 0


class _Handler(AsyncEventHandler):
    def __init__(self, server: TaggingServer, *args: Any) -> None:
        super().__init__(*args)
        self.server = server
        self.audio = 0

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(_info().event())
        elif Transcribe.is_type(event.type):
            self.audio = 0
        elif AudioChunk.is_type(event.type):
            self.audio += len(AudioChunk.from_event(event).audio)
        elif AudioStop.is_type(event.type):
            self.server.received.append(self.audio)
            await self.write_event(Transcript(text=self.server.reply).event())
            return False
        return True


def _info() -> Info:
    about = Attribution(name="test", url="http://127.0.0.1/")
    model = AsrModel(
        name="tagging", attribution=about, installed=True, description=None, version="1", languages=["en"]
    )
    program = AsrProgram(
        name="voice-match", attribution=about, installed=True, description=None, version="1", models=[model]
    )
    return Info(asr=[program])


@pytest.fixture
async def tagging_server(household: HomeAssistant, socket_enabled: None) -> AsyncGenerator[TaggingServer]:
    """The server, listening on a free port of 127.0.0.1 (pytest-socket lets the test use it)."""
    server = TaggingServer()
    handlers: set[asyncio.Task[None]] = set()

    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        handlers.add(task)
        try:
            await _Handler(server, reader, writer).run()
        finally:
            handlers.discard(task)

    listening = await asyncio.start_server(connected, "127.0.0.1", 0)
    server.port = listening.sockets[0].getsockname()[1]
    yield server
    listening.close()
    for task in list(handlers):
        task.cancel()
    await listening.wait_closed()


@pytest.fixture
async def wyoming_stt(household: HomeAssistant, tagging_server: TaggingServer) -> str:
    """HA's wyoming integration set up for the tagging server; its speech-to-text entity id."""
    entry = MockConfigEntry(domain="wyoming", data={"host": "127.0.0.1", "port": tagging_server.port})
    entry.add_to_hass(household)
    assert await household.config_entries.async_setup(entry.entry_id)
    await household.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    (entity,) = [e for e in er.async_entries_for_config_entry(er.async_get(household), entry.entry_id)]
    assert entity.domain == "stt"
    return entity.entity_id


@dataclass
class Household:
    entry: ConfigEntry
    agent: RecordingAgent
    stt_entity: str


async def async_household(
    hass: HomeAssistant,
    memory_entry: ConfigEntry,
    target: str,
    julian: Resident,
    *,
    trust: bool,
    recognition: bool = True,
) -> Household:
    """Memory's STT entity proxying to `target` (its speaker trusted or not; our own recognition
    on or off), in the preferred pipeline with the memory agent wrapping a RecordingAgent;
    Julian's private memory stored."""
    result = await async_set_voice(
        hass,
        memory_entry,
        **{
            CONF_STT_ENGINE: "proxy",
            CONF_STT_PROXY: target,
            CONF_STT_TRUST_SPEAKER: trust,
            CONF_VOICE_RECOGNITION: recognition,
        },
    )
    assert "errors" not in result or not result["errors"], result
    agent = await async_wrap_recording_agent(hass, memory_entry, with_memory_api=True)
    entity = stt_entity_id(hass, memory_entry)
    await async_use_in_pipeline(hass, entity)
    from homeassistant.components.assist_pipeline.pipeline import (  # noqa: PLC0415
        async_get_pipeline,
        async_update_pipeline,
    )

    await async_update_pipeline(
        hass, async_get_pipeline(hass), conversation_engine=memory_agent_id(hass, memory_entry)
    )
    await async_call(
        hass, "remember", {"content": f"I like {LIKES}.", "scope": "private", "person": julian.person_id}
    )
    return Household(memory_entry, agent, entity)


async def async_user_turns(hass: HomeAssistant, entry: ConfigEntry, conversation_id: str) -> list[Any]:
    turns = await async_transcript(hass, entry.runtime_data.engine, conversation_id)
    return [t for t in turns if t.role is Role.USER]


async def async_at_kitchen(hass: HomeAssistant, kitchen: Room, said: str) -> Any:
    """Someone says `said` at the kitchen satellite: one pipeline run from the STT stage."""
    run = await async_run_pipeline(hass, speak(said, VOICE) + silence(1), device_id=kitchen.device_id)
    assert run.error is None, run.events
    return run


async def test_c40_the_tag_of_a_trusted_engine_names_julian_and_never_reaches_the_text(
    hass: HomeAssistant,
    memory_entry: ConfigEntry,
    *,
    wyoming_stt: str,
    tagging_server: TaggingServer,
    kitchen: Room,
    julian: Resident,
) -> None:
    """The kitchen's audio goes to the tagging engine, which answers "[julian] What do I like?":
    Julian is the speaker (his private memory reaches the LLM), and everything reads "What do I
    like?" — the pipeline's transcript, the agent's input, the transcripts store; a tagged
    "remember" stores Julian's memory without the tag."""
    home = await async_household(hass, memory_entry, wyoming_stt, julian, trust=True)

    run = await async_at_kitchen(hass, kitchen, QUESTION)

    assert tagging_server.received and tagging_server.received[-1] > 0  # the audio went through
    assert run.text == QUESTION  # the pipeline's STT result: what HA's intents match on
    assert home.agent.inputs[-1].text == QUESTION  # the conversation input the LLM reads
    assert LIKES in home.agent.extra_prompts[-1]  # Julian's private memory, for Julian
    assert "Julian, recognised by voice" in home.agent.extra_prompts[-1]
    assert run.intent_output is not None
    (turn,) = await async_user_turns(hass, memory_entry, run.intent_output["conversation_id"])
    assert (turn.text, turn.speaker_id, turn.speaker_source) == (
        QUESTION,
        julian.person_id,
        SpeakerSource.VOICE,
    )

    tagging_server.reply = "[julian] Remember that I like short answers."
    run = await async_at_kitchen(hass, kitchen, "Remember that I like short answers.")
    assert run.text == "Remember that I like short answers."
    stored = [m for m in await async_all_memories(hass, memory_entry) if "short answers" in m.content]
    assert [(m.owner_id, "[" in m.content) for m in stored] == [(julian.person_id, False)]
    assert run.intent_output is not None
    (turn,) = await async_user_turns(hass, memory_entry, run.intent_output["conversation_id"])
    assert (turn.text, turn.speaker_id) == ("Remember that I like short answers.", julian.person_id)

    # the Voices view's record of the kitchen's recognitions: by the tag, no audio, no text
    recognizer = memory_entry.runtime_data.recognizer
    assert recognizer is not None
    (recent, *_) = recognizer.recognitions()[kitchen.device_id]
    assert (recent["person"], recent["recogniser"], recent["strict"]) == (julian.person_id, TAG, False)
    assert recent["named"] == {"how": TAG, "name": "julian", "person": julian.person_id}
    assert "short answers" not in str(recent) and "text" not in recent


async def test_the_trusted_engine_alone_with_our_recognition_off(
    hass: HomeAssistant, memory_entry: ConfigEntry, wyoming_stt: str, kitchen: Room, julian: Resident
) -> None:
    """Our own recognition off: the trusted engine's tag still names Julian (there is no
    recognizer: nothing of the audio is kept, no recognition is listed)."""
    home = await async_household(hass, memory_entry, wyoming_stt, julian, trust=True, recognition=False)
    assert memory_entry.runtime_data.recognizer is None

    run = await async_at_kitchen(hass, kitchen, QUESTION)

    assert run.text == QUESTION and LIKES in home.agent.extra_prompts[-1]
    assert run.intent_output is not None
    (turn,) = await async_user_turns(hass, memory_entry, run.intent_output["conversation_id"])
    assert (turn.text, turn.speaker_id) == (QUESTION, julian.person_id)


async def test_c40_a_guest_typing_the_tag_stays_unknown(
    hass: HomeAssistant,
    memory_entry: ConfigEntry,
    wyoming_stt: str,
    julian: Resident,
) -> None:
    """A guest types "[julian] What do I like?" in the Assist dialog (conversation.process, no
    user): typed text never passes through the speech-to-text entity, so nobody is recognised
    and Julian's private memory stays his."""
    home = await async_household(hass, memory_entry, wyoming_stt, julian, trust=True)

    result = await hass.services.async_call(
        "conversation",
        "process",
        {"text": TAGGED, "agent_id": memory_agent_id(hass, memory_entry)},
        blocking=True,
        context=Context(user_id=None),
        return_response=True,
    )

    assert result is not None
    assert LIKES not in str(result) and LIKES not in home.agent.extra_prompts[-1]
    assert "Julian, recognised" not in home.agent.extra_prompts[-1]
    (turn,) = await async_user_turns(hass, memory_entry, str(result["conversation_id"]))
    assert turn.speaker_id is None


async def test_the_tag_of_an_untrusted_engine_names_nobody_and_is_removed(
    hass: HomeAssistant,
    memory_entry: ConfigEntry,
    wyoming_stt: str,
    kitchen: Room,
    julian: Resident,
) -> None:
    """The same engine, not trusted in the options: its tag is removed (nothing reads it) and
    identifies nobody."""
    home = await async_household(hass, memory_entry, wyoming_stt, julian, trust=False)

    run = await async_at_kitchen(hass, kitchen, QUESTION)

    assert run.text == QUESTION and home.agent.inputs[-1].text == QUESTION
    assert LIKES not in home.agent.extra_prompts[-1]
    assert run.intent_output is not None
    (turn,) = await async_user_turns(hass, memory_entry, run.intent_output["conversation_id"])
    assert (turn.text, turn.speaker_id) == (QUESTION, None)


async def test_two_tags_name_two_speakers_so_nobody_and_neither_reaches_the_text(
    hass: HomeAssistant,
    memory_entry: ConfigEntry,
    *,
    wyoming_stt: str,
    tagging_server: TaggingServer,
    kitchen: Room,
    julian: Resident,
) -> None:
    """A trusted engine answering "[julian] [anna] What do I like?": two speakers, so nobody is
    named (as with several speaker ids), and neither tag reaches the pipeline's text or the
    transcripts store."""
    home = await async_household(hass, memory_entry, wyoming_stt, julian, trust=True)
    tagging_server.reply = f"[julian] [anna] {QUESTION}"

    run = await async_at_kitchen(hass, kitchen, QUESTION)

    assert run.text == QUESTION and home.agent.inputs[-1].text == QUESTION
    assert LIKES not in home.agent.extra_prompts[-1]
    assert run.intent_output is not None
    (turn,) = await async_user_turns(hass, memory_entry, run.intent_output["conversation_id"])
    assert (turn.text, turn.speaker_id) == (QUESTION, None)


@pytest.mark.skipif(not STT_NAMES_SPEAKERS, reason="speech-to-text speakers came with HA 2026.11")
async def test_our_entity_reports_the_person_as_its_speaker_id(
    hass: HomeAssistant,
    memory_entry: ConfigEntry,
    wyoming_stt: str,
    julian: Resident,
) -> None:
    """HA 2026.11's speech-to-text result, as any integration reads it from our entity: a partial
    result naming person.julian, then the final text without the tag."""
    home = await async_household(hass, memory_entry, wyoming_stt, julian, trust=True)
    entity = stt.async_get_speech_to_text_entity(hass, home.stt_entity)
    assert entity is not None

    results = [
        result
        async for result in entity.internal_async_process_audio_stream_with_progress(  # type: ignore[attr-defined]
            metadata(), Stream(speak(QUESTION, VOICE)).chunks()
        )
    ]

    assert results == [
        stt.PartialSpeechResult(QUESTION, speaker_id=julian.person_id),  # type: ignore[attr-defined]
        stt.SpeechResult(QUESTION, stt.SpeechResultState.SUCCESS),
    ]
    heard = heard_for(QUESTION)  # what this run's turn would take: the same person, by the tag
    assert heard is not None and (heard.who.person_id, heard.who.recogniser) == (julian.person_id, TAG)


# --- the rules, one by one ---


@pytest.mark.parametrize(
    ("transcript", "tags", "text"),
    [
        ("[julian] What do I like?", {"julian"}, "What do I like?"),
        (" [Anna Lena]  turn on the light", {"Anna Lena"}, "turn on the light"),
        ("[jx]", {"jx"}, ""),  # the add-on tags no empty text, but a tag alone is no words
        ("What do I like?", set(), "What do I like?"),
        ("I said [julian] twice", set(), "I said [julian] twice"),  # only in front
        ("[] hello", set(), "[] hello"),
        ("[a]b[c] hello", {"a"}, "b[c] hello"),  # tags in front only
        ("[julian] [anna] What do I like?", {"julian", "anna"}, "What do I like?"),  # two speakers
        ("[julian][JULIAN] hi", {"julian"}, "hi"),  # one name twice is one speaker
        ("[julian]\u00a0What?", {"julian"}, "What?"),  # any space after the tag
        ("[julian]\nWhat?", {"julian"}, "What?"),
    ],
)
def test_split_tag(transcript: str, tags: set[str], text: str) -> None:
    assert split_tag(transcript) == (frozenset(tags), text)


JULIAN, ANNA = "person.julian", "person.anna"


@pytest.mark.parametrize(
    ("ours", "named", "who"),
    [
        (VoiceMatch(JULIAN, 0.93, 0.2, strict=True), None, Who(JULIAN, OURS, strict=True)),
        (UNKNOWN, None, Who(None, None, strict=False)),
        # the engine's person, strict only when our recogniser heard the same person strictly
        (UNKNOWN, Named(TAG, "julian", JULIAN), Who(JULIAN, TAG, strict=False)),
        (VoiceMatch(JULIAN, 0.85, 0.2), Named(TAG, "julian", JULIAN), Who(JULIAN, TAG, strict=False)),
        (
            VoiceMatch(JULIAN, 0.93, 0.2, strict=True),
            Named(SPEAKER_ID, "Julian", JULIAN),
            Who(JULIAN, SPEAKER_ID, strict=True),
        ),
        # the two disagree, or the engine names nobody of ours: nobody
        (
            VoiceMatch(ANNA, 0.93, 0.2, strict=True),
            Named(TAG, "julian", JULIAN),
            Who(None, None, False, True),
        ),
        (VoiceMatch(ANNA, 0.93, 0.2, strict=True), Named(TAG, "guest", None), Who(None, None, False, True)),
    ],
)
def test_decide(ours: VoiceMatch, named: Named | None, who: Who) -> None:
    assert decide(ours, named) == who


async def test_person_for_named(household: HomeAssistant, julian: Resident, anna: Resident) -> None:
    from homeassistant.components import person  # noqa: PLC0415

    await person.async_create_person(household, "Anna Lena")
    await person.async_create_person(household, "Julian Berg")
    await household.async_block_till_done()
    mapped = {CONF_STT_SPEAKERS: [{"name": "JX", "person": julian.person_id}]}
    assert {
        said: person_for_named(household, said, mapped)
        for said in ("jx", "Julian", "person.anna", "anna_lena", "Anna-Lena", "Berg", "nobody", "anna")
    } == {
        "jx": julian.person_id,  # the options' mapping, any case
        "Julian": julian.person_id,  # the entity id's object id (Julian Berg's first name too, but later)
        "person.anna": anna.person_id,
        "anna_lena": "person.anna_lena",
        "Anna-Lena": "person.anna_lena",
        "Berg": None,
        "nobody": None,
        "anna": anna.person_id,
    }
    assert person_for_named(household, "julian berg", {}) == "person.julian_berg"
