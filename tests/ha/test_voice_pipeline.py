"""Voice end to end: full Assist pipeline runs from the STT stage at the kitchen satellite, through
the memory STT entity on in-process Whisper and the real speaker embedder, to the memory agent.

Nothing is short-cut: espeak-ng audio streams into async_pipeline_from_audio_stream (what a
satellite starts), the real Whisper base model transcribes it, the recognizer embeds the same
chunks while they arrive, and the memory agent of the pipeline reads who spoke. The memory agent
wraps a RecordingAgent (an LLM agent's stand-in with the Memory API ticked), so each test sees the
prompt the LLM would get: who speaks, how recognised, and which memories.

Whisper runs are kept few (each takes seconds on this machine): 15 over the module. Sentences
are ones Whisper base transcribes right from espeak at SPEED; recognised turns are 2.5 s or more
(shorter commands score too close to THRESHOLD), enrolment uses 3 clips of 3-4 s.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from unittest.mock import patch

import numpy as np
import pytest
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import HomeAssistant

from custom_components.memory import stt as memory_stt
from custom_components.memory.engine.models import Role, Scope, SpeakerSource
from custom_components.memory.llm_api import UNKNOWN_SPEAKER_LINE
from custom_components.memory.recognition import VoiceRecognizer
from custom_components.memory.voice import VoiceMatch
from tests.conftest import Resident, Room, async_call
from tests.ha.helpers_conversation import (
    RecordingAgent,
    async_all_memories,
    async_pipeline_say,
    async_transcript,
)
from tests.ha.voice_helpers import (
    ENROLMENT,
    SPEED,
    Run,
    Stream,
    async_enrol,
    async_heard,
    async_run_pipeline,
    async_speakers,
    metadata,
    words,
)
from tests.speech import MEN, SAMPLE_RATE, WOMEN, silence, speak

JULIAN_VOICE = MEN[0]
ANNA_VOICE = WOMEN[0]
STRANGER_VOICE = MEN[1]  # never enrolled

REMEMBER = "Remember that I like short answers."
MARKER = "like short answers"  # the memory's text, in a prompt that holds it
DINNER = "What should I cook for dinner tonight?"  # a question about something else (C05)
ABOUT = "What do you know about my answers?"
FORGET_ME = "Forget everything you know about me."


def _said(voice: str, text: str) -> bytes:
    """`text` said by `voice` at SPEED, then the second of silence the pipeline's VAD ends on."""
    return speak(text, voice, speed=SPEED) + silence(1)


@pytest.fixture
async def julian(hass: HomeAssistant, agent: RecordingAgent, media: Path, julian: Resident) -> Resident:
    """Julian (the household fixture's), his voice enrolled by 3 media-source WAV clips read at
    SPEED, through memory.enroll_voice (after the agent's reload of the entry)."""
    assert (await async_enrol(hass, media, julian, JULIAN_VOICE, speed=SPEED))["clips"] == 3
    return julian


async def async_at(
    hass: HomeAssistant, room: Room, voice: str, text: str, *, exact: bool = True, **kwargs: Any
) -> Run:
    """`text` said by espeak-ng `voice` at `room`'s satellite (voice_helpers.async_heard)."""
    return await async_heard(hass, room, _said(voice, text), text, exact=exact, **kwargs)


async def async_remember_for(hass: HomeAssistant, who: Resident, content: str) -> None:
    """A private memory of `who`, through memory.remember (not by voice)."""
    await async_call(hass, "remember", {"content": content, "scope": "private", "person": who.person_id})


async def test_c05_by_voice_with_enrolment_by_clips_and_at_the_kitchen(
    hass: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    agent: RecordingAgent,
    kitchen: Room,
    anna: Resident,
    julian: Resident,
) -> None:
    """Julian enrols by clips (media-source WAVs); his voice stores "I like short answers"
    private. Anna, not enrolled, talks at the kitchen (a stranger), then enrols from the last
    three utterances the kitchen heard; an unenrolled voice and Anna's, recognised, ask about
    his answers and never see it; Julian's next question, about dinner, carries it to the LLM
    (the memory agent's prompt; the Memory API of the same run points to that block)."""
    remembered = await async_at(hass, kitchen, JULIAN_VOICE, REMEMBER)
    (memory,) = await async_all_memories(hass, voice_entry)
    assert (memory.scope, memory.owner_id, memory.speaker_id) == (
        Scope.PRIVATE,
        julian.person_id,
        julian.person_id,
    )
    assert MARKER in memory.content
    assert await async_speakers(hass, voice_entry, remembered) == [(julian.person_id, SpeakerSource.VOICE)]
    listed = await async_call(hass, "recall", {"query": "short answers", "person": julian.person_id})
    assert MARKER in str(listed)  # the services see it for Julian too
    assert MARKER not in str(await async_call(hass, "recall", {"query": "short answers"}))  # nobody's

    for text in ENROLMENT:  # Anna, not enrolled yet, talks at the kitchen: a stranger
        run = await async_at(hass, kitchen, ANNA_VOICE, text, exact=False)
        assert await async_speakers(hass, voice_entry, run) == [(None, None)]
    assert agent.extra_prompts and all(UNKNOWN_SPEAKER_LINE in p for p in agent.extra_prompts)

    enrolled = await async_call(
        hass, "enroll_voice", {"person": anna.person_id, "satellite": kitchen.device_id, "utterances": 3}
    )
    assert enrolled["clips"] == 3
    stranger = await async_at(hass, kitchen, STRANGER_VOICE, ABOUT)  # the memory agent answers it
    assert MARKER not in stranger.speech
    assert await async_speakers(hass, voice_entry, stranger) == [(None, None)]
    asked = await async_at(hass, kitchen, ANNA_VOICE, ABOUT)  # the memory agent answers it
    assert MARKER not in asked.speech
    assert await async_speakers(hass, voice_entry, asked) == [(anna.person_id, SpeakerSource.VOICE)]
    assert not any(MARKER in p for p in agent.extra_prompts + agent.api_prompts)  # none for Anna

    await async_at(hass, kitchen, JULIAN_VOICE, DINNER)
    assert "The speaker is Julian, recognised by voice." in agent.extra_prompts[-1]
    assert MARKER in agent.extra_prompts[-1]  # memories about the speaker shape any answer
    assert len(await async_all_memories(hass, voice_entry)) == 1  # the questions stored nothing


async def test_c18_and_forgetting_a_voice(
    hass: HomeAssistant, voice_entry: ConfigEntry, *, agent: RecordingAgent, kitchen: Room, julian: Resident
) -> None:
    """C18: Julian's voice is recognised for his own turn only. The conversation the satellite
    starts next for an announcement to Julian (assist_satellite.start_conversation: the
    announcement as the run's extra system prompt) is answered by another voice within seconds
    at the same satellite: a stranger, nothing of Julian's read, nothing written for him; a typed
    turn there after Julian's is nobody either. Then memory.forget_voice: the same audio of
    Julian's voice is a stranger."""
    await async_remember_for(hass, julian, "I like short answers.")

    recognised = await async_at(hass, kitchen, JULIAN_VOICE, ABOUT)  # the memory agent answers
    assert MARKER in recognised.speech
    assert await async_speakers(hass, voice_entry, recognised) == [(julian.person_id, SpeakerSource.VOICE)]

    typed, speakers = await async_run_text(hass, voice_entry, kitchen, ABOUT)
    assert MARKER not in typed and speakers == [(None, None)]

    announcement = "Julian, your parcel has arrived. Shall I remember where it is?"
    answered = await async_at(
        hass, kitchen, STRANGER_VOICE, "Remember that I like long answers.", extra_system_prompt=announcement
    )
    assert await async_speakers(hass, voice_entry, answered) == [(None, None)]
    memories = await async_all_memories(hass, voice_entry)
    (long_answers,) = [m for m in memories if "long answers" in m.content]
    assert long_answers.scope is not Scope.PRIVATE and long_answers.owner_id is None
    assert long_answers.speaker_id is None
    assert [m.owner_id for m in memories if m.scope is Scope.PRIVATE] == [julian.person_id]

    assert await async_call(hass, "forget_voice", {"person": julian.person_id}) == {
        "person": julian.person_id,
        "forgotten": True,
    }
    forgotten = await async_at(hass, kitchen, JULIAN_VOICE, ABOUT)  # the same audio as before
    assert MARKER not in forgotten.speech
    assert await async_speakers(hass, voice_entry, forgotten) == [(None, None)]
    assert not any(MARKER in p for p in agent.extra_prompts + agent.api_prompts)
    status = await async_call(hass, "voice_status", {})
    assert {v["person"]: v["enrolled"] for v in status["voices"]}[julian.person_id] is False


async def async_run_text(
    hass: HomeAssistant, entry: ConfigEntry, room: Room, text: str
) -> tuple[str, list[tuple[Any, Any]]]:
    """A typed turn at `room`'s satellite device (a pipeline run from the intent stage, no
    audio): its answer and the stored (speaker_id, speaker_source) of its user turn."""
    turn = await async_pipeline_say(hass, entry, text, room=room)
    engine = entry.runtime_data.engine
    turns = await async_transcript(hass, engine, turn.conversation_id)
    return turn.speech, [(t.speaker_id, t.speaker_source) for t in turns if t.role is Role.USER]


async def test_destructive_request_needs_the_strict_threshold(
    hass: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    agent: RecordingAgent,
    recognizer: VoiceRecognizer,
    matches: list[VoiceMatch],
    kitchen: Room,
    julian: Resident,
) -> None:
    """ "Forget everything you know about me" in Julian's enrolled voice. The voice's score is what
    espeak and the embedder make of it (near the strict threshold either way), so the test does
    not rely on where it falls: it moves the recognizer's strict lift over the utterance's
    threshold (the knob the product has, VoiceRecognizer.strict_lift) around the real score.
    First a lift no cosine reaches: the voice is recognised but not confirmed -> refused, memories
    kept. Then a lift below any cosine: every recognised voice is confirmed -> the agent asks for
    confirmation (and forgets nothing before the answer). (No lift would still ask a quiet room's
    bar, 0.90, of the voice: it scores 0.912 here, too close to rely on — tests/voice/test_matching.py
    ROUNDING_ROOM.)"""
    await async_remember_for(hass, julian, "I like short answers.")

    recognizer.strict_lift = 1.0  # above any cosine: recognised, never confirmed
    refused = await async_at(hass, kitchen, JULIAN_VOICE, FORGET_ME)
    assert matches[-1].person_id == julian.person_id and not matches[-1].strict
    assert "couldn't confirm" in refused.speech
    assert refused.intent_output is not None and not refused.intent_output["continue_conversation"]
    assert len(await async_all_memories(hass, voice_entry)) == 1

    recognizer.strict_lift = -1.0  # below any cosine: every recognised voice is confirmed
    asked = await async_at(hass, kitchen, JULIAN_VOICE, FORGET_ME)
    assert matches[-1].person_id == julian.person_id and matches[-1].strict
    assert asked.intent_output is not None and asked.intent_output["continue_conversation"], asked.speech
    assert len(await async_all_memories(hass, voice_entry)) == 1  # nothing forgotten before "yes"
    assert agent.inputs == []  # memory sentences: the LLM never saw them


async def test_onnxruntime_missing_uses_the_portable_encoder(
    hass: HomeAssistant, voice_entry: ConfigEntry, kitchen: Room, julian: Resident
) -> None:
    """Julian enrols with onnxruntime (the fast path); where onnxruntime cannot import (musl)
    the recognizer of the reloaded entry embeds with the portable numpy network, and its
    embedding of his voice matches the voiceprint onnxruntime made (tests/voice/test_encoder.py
    checks the two agree numerically)."""
    onnx = voice_entry.runtime_data.recognizer
    assert onnx is not None and onnx.encoder_name == "onnxruntime"

    with patch.dict(sys.modules, {"onnxruntime": None}):  # import onnxruntime -> ImportError
        assert await hass.config_entries.async_reload(voice_entry.entry_id)
        await hass.async_block_till_done()
        recognizer = voice_entry.runtime_data.recognizer
        assert recognizer is not None and recognizer is not onnx
        await async_at(hass, kitchen, JULIAN_VOICE, REMEMBER)

    assert recognizer.encoder_name == "portable"
    (memory,) = await async_all_memories(hass, voice_entry)
    assert (memory.scope, memory.owner_id) == (Scope.PRIVATE, julian.person_id)


async def test_bad_input_through_the_pipeline(
    hass: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    agent: RecordingAgent,
    recognizer: VoiceRecognizer,
    kitchen: Room,
    julian: Resident,
) -> None:
    """Silence, noise and a 60-second stream: "no text recognized", the agent never runs, nothing
    stored, no utterance kept for enrolment. A stream that stops mid-word: the words before it go
    on, nothing is stored. An unsupported sample rate: refused before any audio is read."""
    noise = (np.random.default_rng(7).normal(0, 0.05, SAMPLE_RATE * 3) * 32767).astype("<i2").tobytes()
    long = Stream(silence(60))
    for audio in (silence(3), noise, long):
        run = await async_run_pipeline(hass, audio, vad=False, device_id=kitchen.device_id)
        assert run.error == "stt-no-text-recognized", run.events
        assert run.intent_output is None
    assert long.read <= memory_stt.MAX_AUDIO_BYTES + 2048
    assert agent.inputs == [] and recognizer.recent(kitchen.device_id) == []

    said = speak(ABOUT, JULIAN_VOICE, speed=SPEED)
    cut = Stream(said[: len(said) * 3 // 5 + 1])  # in the middle of "about", half a sample at the end
    run = await async_run_pipeline(hass, cut, device_id=kitchen.device_id)
    assert run.error is None, run.events
    assert words(run.text).startswith("what do you know"), run.text
    assert run.intent_output is not None  # the turn ended with an answer

    refused = await async_run_pipeline(  # refused up front: the run's error event
        hass, said, stt_metadata=metadata(sample_rate=44100), device_id=kitchen.device_id
    )
    assert refused.error == "stt-provider-unsupported-metadata"
    assert (refused.text, refused.intent_output) == (None, None)  # nothing heard, nobody answered

    assert await async_all_memories(hass, voice_entry) == []
