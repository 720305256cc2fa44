"""Adversarial tests of the voice feature (issue 14): borrowed identity, the short-"yes" rule,
enrolment abuse, bad audio into the STT entity and the recognizer, diagnostics, the store.

Real parts: espeak-ng speech, the real speaker embedder, real Assist pipeline runs. The STT entity
runs in proxy mode in front of a test STT entity (tests/ha/test_stt.py's TargetStt) that answers a
fixed text, so whole pipeline runs from the STT stage use the real recognizer without Whisper.
Every satellite run is its own asyncio task started from a clean context, as a satellite's run is
in Home Assistant (assist_satellite / ESPHome / Wyoming start one task per run).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import struct
import time
import wave
from collections.abc import AsyncGenerator, Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from homeassistant.components.assist_pipeline.pipeline import async_get_pipeline, async_update_pipeline
from homeassistant.config_entries import ConfigEntry
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.components.diagnostics import get_diagnostics_for_config_entry

from custom_components.memory.answers import reply
from custom_components.memory.const import CONF_STT_ENGINE, CONF_STT_PROXY
from custom_components.memory.conversation import SESSIONS_HAVE_OWNERS
from custom_components.memory.engine.models import Scope
from custom_components.memory.recognition import heard_for
from tests.conftest import Resident, Room, async_call, person_storage, setup_memory
from tests.ha.helpers_conversation import (
    async_all_memories,
    async_pipeline_say,
    async_say,
    memory_agent_id,
)
from tests.ha.test_stt import TARGET, TargetStt, target  # noqa: F401 (fixture)
from tests.ha.voice_helpers import (
    ENROLMENT,
    Run,
    Stream,
    async_enrol,
    async_enrol_household,
    async_run_pipeline,
    async_set_voice,
    async_use_in_pipeline,
    media_clip,
    stt_entity_id,
)
from tests.speech import silence, speak, wav_bytes

JULIAN_VOICE = "en+m3"
ANNA_VOICE = "en+f2"
STRANGER_VOICE = "en+m7"
REMEMBER = "Remember that I like short answers."
QUESTION = "What do you know about short answers?"
MARKER = "like short answers"
FORGET_ME = "Forget everything you know about me."
RUN_TIMEOUT = 60  # seconds any single run may take here (never a hang)


async def in_own_task[T](factory: Callable[[], Awaitable[T]]) -> T:
    """Run `factory()` as its own task from an empty context (a satellite's pipeline run)."""

    async def run() -> T:
        return await factory()

    task = asyncio.get_running_loop().create_task(run(), context=contextvars.Context())
    async with asyncio.timeout(RUN_TIMEOUT):
        return await task


@pytest.fixture
async def voice_entry(household: HomeAssistant, target: TargetStt, media: Path) -> ConfigEntry:  # noqa: F811
    """Household Memory, STT in proxy mode in front of `target`, the memory agent in the pipeline."""
    entry = await setup_memory(household)
    await async_set_voice(household, entry, **{CONF_STT_ENGINE: "proxy", CONF_STT_PROXY: TARGET})
    await async_use_in_pipeline(household, stt_entity_id(household, entry))
    await async_update_pipeline(
        household, async_get_pipeline(household), conversation_engine=memory_agent_id(household, entry)
    )
    assert entry.runtime_data.recognizer is not None
    return entry


@pytest.fixture
async def enrolled(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident, anna: Resident
) -> tuple[Resident, Resident]:
    return await async_enrol_household(household, media, julian, anna)


async def spoken_run(
    hass: HomeAssistant,
    target: TargetStt,  # noqa: F811
    pcm: bytes | Stream,
    text: str,
    *,
    room: Room | None,
    conversation_id: str | None = None,
) -> tuple[Run, Any]:
    """A satellite's whole pipeline run (STT stage on, then the memory agent) in its own task; the
    target STT answers `text`. Returns the run and what is left published in that task after it."""
    target.text = text

    async def go() -> tuple[Run, Any]:
        run = await async_run_pipeline(
            hass,
            pcm,
            vad=False,
            device_id=room.device_id if room else None,
            conversation_id=conversation_id,
        )
        return run, heard_for(text)

    return await in_own_task(go)


async def julian_remembers(hass: HomeAssistant, target: TargetStt, kitchen: Room) -> None:  # noqa: F811
    run, _ = await spoken_run(hass, target, speak(REMEMBER, JULIAN_VOICE), REMEMBER, room=kitchen)
    assert run.error is None, run.events


def conv_id(run: Run) -> str | None:
    out = run.intent_output
    return out.get("conversation_id") if out else None


# ----------------------------------------------------------------------- borrowed identity (C18)


async def test_c18_concurrent_satellite_runs_do_not_share_an_identity(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    hall: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    """Julian's run at the kitchen and a stranger's at the hall, interleaved chunk by chunk, the
    same words: only the kitchen's answer is Julian's."""
    await julian_remembers(household, target, kitchen)
    recognizer = voice_entry.runtime_data.recognizer
    julian_pcm, stranger_pcm = speak(QUESTION, JULIAN_VOICE), speak(QUESTION, STRANGER_VOICE)
    kitchen_heard = asyncio.Event()

    async def kitchen_run() -> str:
        utterance = recognizer.utterance()
        for start in range(0, len(julian_pcm), 1280):
            await utterance.async_feed(julian_pcm[start : start + 1280])
            await asyncio.sleep(0)
        await utterance.async_finish(QUESTION)
        kitchen_heard.set()
        await asyncio.sleep(0.05)
        return (await async_pipeline_say(household, voice_entry, QUESTION, room=kitchen)).speech

    async def hall_run() -> str:
        utterance = recognizer.utterance()
        for start in range(0, len(stranger_pcm), 1280):
            await utterance.async_feed(stranger_pcm[start : start + 1280])
            await asyncio.sleep(0)
        await kitchen_heard.wait()  # Julian's identity is published in the kitchen's task now
        await utterance.async_finish(QUESTION)
        return (await async_pipeline_say(household, voice_entry, QUESTION, room=hall)).speech

    loop = asyncio.get_running_loop()
    tasks = [
        loop.create_task(kitchen_run(), context=contextvars.Context()),
        loop.create_task(hall_run(), context=contextvars.Context()),
    ]
    async with asyncio.timeout(RUN_TIMEOUT):
        at_kitchen, at_hall = await asyncio.gather(*tasks)
    assert MARKER in at_kitchen
    assert MARKER not in at_hall


async def test_c18_real_pipeline_runs_interleaved(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    hall: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    """Two full pipeline runs from the STT stage at once (the target STT is shared, answers the
    same text): Julian at the kitchen, a stranger at the hall."""
    await julian_remembers(household, target, kitchen)
    target.text = QUESTION

    async def run(voice: str, room: Room) -> Run:
        return await async_run_pipeline(
            household, speak(QUESTION, voice), vad=False, device_id=room.device_id
        )

    loop = asyncio.get_running_loop()
    tasks = [
        loop.create_task(run(JULIAN_VOICE, kitchen), context=contextvars.Context()),
        loop.create_task(run(STRANGER_VOICE, hall), context=contextvars.Context()),
    ]
    async with asyncio.timeout(RUN_TIMEOUT):
        at_kitchen, at_hall = await asyncio.gather(*tasks)
    assert MARKER in at_kitchen.speech
    assert MARKER not in at_hall.speech


async def test_c18_continued_conversation_and_typed_turn_do_not_borrow(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    """After Julian's voice run: the next run of the same conversation in a stranger's voice, a
    typed turn with the same words in the same conversation, and a run with no audio of its own
    never act as Julian."""
    await julian_remembers(household, target, kitchen)
    first, left = await spoken_run(household, target, speak(QUESTION, JULIAN_VOICE), QUESTION, room=kitchen)
    assert MARKER in first.speech
    assert left is None  # claimed by the turn
    cid = conv_id(first)
    assert cid

    follow, _ = await spoken_run(
        household, target, speak(QUESTION, STRANGER_VOICE), QUESTION, room=kitchen, conversation_id=cid
    )
    assert MARKER not in follow.speech

    typed = await async_say(household, voice_entry, QUESTION, conversation_id=cid)
    assert MARKER not in typed.response.speech["plain"]["speech"]

    typed_at_kitchen = await async_pipeline_say(
        household, voice_entry, QUESTION, room=kitchen, conversation_id=cid
    )
    assert MARKER not in typed_at_kitchen.speech


async def test_c18_llm_api_of_a_later_turn_does_not_borrow(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    """The Memory LLM API, used by an LLM agent outside the memory agent's turn, after Julian's
    utterance was heard and claimed in this task: unknown speaker, no private memory."""
    from custom_components.memory.llm_api import LLM_API_ID  # noqa: PLC0415

    await julian_remembers(household, target, kitchen)

    async def after_claimed() -> Any:
        recognizer = voice_entry.runtime_data.recognizer
        utterance = recognizer.utterance()
        await utterance.async_feed(speak(QUESTION, JULIAN_VOICE))
        await utterance.async_finish(QUESTION)
        await async_pipeline_say(household, voice_entry, QUESTION, room=kitchen)  # claims it
        ctx = llm.LLMContext(
            platform="test",
            context=Context(),
            language="en",
            assistant="conversation",
            device_id=kitchen.device_id,
        )
        api = await llm.async_get_api(household, LLM_API_ID, ctx)
        return api

    api = await in_own_task(after_claimed)
    assert "Julian" not in api.api_prompt


# ----------------------------------------------------------------------- the short-"yes" rule


async def _julian_asks_to_forget(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
) -> str:
    voice_entry.runtime_data.recognizer.strict_lift = -1.0
    asked, _ = await spoken_run(household, target, speak(FORGET_ME, JULIAN_VOICE), FORGET_ME, room=kitchen)
    assert asked.intent_output and asked.intent_output["continue_conversation"], asked.speech
    cid = conv_id(asked)
    assert cid
    return cid


async def test_short_yes_from_a_stranger_at_another_satellite_is_refused(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    hall: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    await julian_remembers(household, target, kitchen)
    cid = await _julian_asks_to_forget(household, voice_entry, target, kitchen)
    reply, _ = await spoken_run(
        household, target, speak("Yes.", STRANGER_VOICE), "Yes.", room=hall, conversation_id=cid
    )
    assert "Only the person who asked" in reply.speech
    assert len(await async_all_memories(household, voice_entry)) == 1


async def test_short_yes_typed_without_a_device_is_refused(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    await julian_remembers(household, target, kitchen)
    cid = await _julian_asks_to_forget(household, voice_entry, target, kitchen)
    typed = await async_say(household, voice_entry, "Yes.", conversation_id=cid)
    assert "Only the person who asked" in typed.response.speech["plain"]["speech"]
    anna_typed = await async_say(household, voice_entry, "Yes.", who=enrolled[1], conversation_id=cid)
    # HA 2026.11+ gives the satellite's conversation to its (no) user: Anna, signed in, may not go on
    refused = reply("en", "not_your_conversation") if SESSIONS_HAVE_OWNERS else "Only the person who asked"
    assert refused in anna_typed.response.speech["plain"]["speech"]
    assert len(await async_all_memories(household, voice_entry)) == 1


async def test_stranger_at_the_same_satellite_reads_nothing_private(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    """While Julian's question waits, a stranger at the kitchen asks something else in the same
    conversation, or answers with more than yes: nothing private of Julian's is read."""
    await julian_remembers(household, target, kitchen)
    cid = await _julian_asks_to_forget(household, voice_entry, target, kitchen)
    for text in ("Yes, and what do you know about short answers?", QUESTION):
        reply, _ = await spoken_run(
            household, target, speak(text, STRANGER_VOICE), text, room=kitchen, conversation_id=cid
        )
        assert MARKER not in reply.speech
    assert len(await async_all_memories(household, voice_entry)) == 1


# ----------------------------------------------------------------------- enrolment abuse


async def test_non_admin_cannot_enrol_another_persons_voice_as_their_own(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    target: TargetStt,  # noqa: F811
    media: Path,
    kitchen: Room,
    julian: Resident,
    anna: Resident,
) -> None:
    """Anna (not an admin) enrols her own person from what the kitchen satellite heard — Julian's
    sentences. Afterwards Julian's "remember that I …" must not become Anna's private memory."""
    for text in ENROLMENT:
        await spoken_run(household, target, speak(text, JULIAN_VOICE), text, room=kitchen)
    with pytest.raises(ServiceValidationError) as err:  # a satellite hears anyone: admins only
        await async_call(
            household,
            "enroll_voice",
            {"person": anna.person_id, "satellite": kitchen.device_id, "utterances": 3},
            context=anna.context,
        )
    assert err.value.translation_key == "satellite_enrolment_admin_only"
    # With clips of Julian's voice, once Julian is enrolled: refused as another person's voice
    await async_enrol(household, media, julian, JULIAN_VOICE)
    stolen = [media_clip(media, f"stolen{i}.wav", speak(t, JULIAN_VOICE)) for i, t in enumerate(ENROLMENT)]
    with pytest.raises(ServiceValidationError) as err:
        await async_call(
            household, "enroll_voice", {"person": anna.person_id, "clips": stolen}, context=anna.context
        )
    assert err.value.translation_key == "voice_of_another_person"
    await julian_remembers(household, target, kitchen)
    private = [m for m in await async_all_memories(household, voice_entry) if m.scope is Scope.PRIVATE]
    assert [m.owner_id for m in private] == [julian.person_id]


async def test_the_same_clip_twice_is_not_two_clips(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident
) -> None:
    clip = media_clip(media, "once.wav", speak(ENROLMENT[0], JULIAN_VOICE))
    copy = media_clip(media, "copy.wav", speak(ENROLMENT[0], JULIAN_VOICE))  # same audio, other name
    for clips in ([clip, clip], [clip, copy]):
        with pytest.raises(ServiceValidationError) as err:
            await async_call(household, "enroll_voice", {"person": julian.person_id, "clips": clips})
        assert err.value.translation_key == "clip_repeated"


async def test_many_clips_are_bounded(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident
) -> None:
    """200 clips (each read up to 30 s, embedded three times) should be refused up front, not read."""
    clip = media_clip(media, "many.wav", speak(ENROLMENT[0], JULIAN_VOICE))
    clips = [clip] * 199 + ["media-source://media_source/local/missing.wav"]
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "enroll_voice", {"person": julian.person_id, "clips": clips})
    assert err.value.translation_key == "too_many_clips", "all 200 clips were read before any limit"


async def test_six_distinct_clips_enrol(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident
) -> None:
    texts = (*ENROLMENT, "The weather forecast says it will rain all weekend long.")
    said = [speak(t, JULIAN_VOICE, speed=speed) for speed in (160, 150) for t in texts][:6]  # six recordings
    clips = [media_clip(media, f"six{i}.wav", pcm) for i, pcm in enumerate(said)]
    response = await async_call(household, "enroll_voice", {"person": julian.person_id, "clips": clips})
    assert response["clips"] == 6


async def test_a_thirty_minute_clip_is_not_read_whole(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident
) -> None:
    speech = speak(ENROLMENT[0], JULIAN_VOICE)
    path = media / "long.wav"
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16000)
        wav.writeframes(speech)
        block = silence(60.0)
        for _ in range(30):
            wav.writeframes(block)
    long_id = "media-source://media_source/local/long.wav"
    started = time.monotonic()
    with pytest.raises(ServiceValidationError) as err:  # read, then the missing one fails
        await async_call(
            household,
            "enroll_voice",
            {"person": julian.person_id, "clips": [long_id, "media-source://media_source/local/nope.wav"]},
        )
    assert err.value.translation_key == "clip_unreadable"
    assert time.monotonic() - started < 5


def _lying_wav(pcm: bytes, *, data_size: int, frames_rate: int = 16000) -> bytes:
    header = wav_bytes(pcm)[:44]
    fixed = bytearray(header)
    struct.pack_into("<I", fixed, 40, data_size)
    struct.pack_into("<I", fixed, 24, frames_rate)
    return bytes(fixed) + pcm


@pytest.mark.parametrize("lie", ["huge_data_size", "odd_data_size", "zero_data_size", "truncated_header"])
async def test_a_wav_with_a_lying_header(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident, lie: str
) -> None:
    good = media_clip(media, "good.wav", speak(ENROLMENT[0], JULIAN_VOICE))
    pcm = speak(ENROLMENT[1], JULIAN_VOICE)
    if lie == "huge_data_size":
        data = _lying_wav(pcm, data_size=0x7FFFFFF0)
    elif lie == "odd_data_size":
        data = _lying_wav(pcm + b"\x01", data_size=len(pcm) + 1)
    elif lie == "zero_data_size":
        data = _lying_wav(pcm, data_size=0)
    else:
        data = wav_bytes(pcm)[:30]
    (media / "lie.wav").write_bytes(data)
    bad = "media-source://media_source/local/lie.wav"
    async with asyncio.timeout(RUN_TIMEOUT):
        try:
            response = await async_call(
                household, "enroll_voice", {"person": julian.person_id, "clips": [good, bad]}
            )
        except ServiceValidationError as err:
            assert err.translation_placeholders["field"] == "clips"
            assert await household.async_add_executor_job(voice_entry.runtime_data.engine.voiceprints) == []
            return
    # accepted: only when the audio really is a good clip of the same voice
    assert lie in ("huge_data_size", "odd_data_size") and response["clips"] == 2


@pytest.mark.parametrize(
    "media_id",
    [
        "media-source://media_source/local/../outside.wav",
        "media-source://media_source/local/../../outside.wav",
        "media-source://media_source/local/%2e%2e/outside.wav",
        "media-source://media_source/local/..%2Foutside.wav",
        "media-source://media_source/local//etc/passwd",
        "media-source://media_source/local/../secrets.yaml",
    ],
)
async def test_media_ids_outside_the_media_folder_are_refused(
    household: HomeAssistant, voice_entry: ConfigEntry, media: Path, julian: Resident, media_id: str
) -> None:
    """A valid WAV right next to the media folder (and in the config dir) must not be readable."""
    outside = wav_bytes(speak(ENROLMENT[1], JULIAN_VOICE))
    (media.parent / "outside.wav").write_bytes(outside)
    (media.parent.parent / "outside.wav").write_bytes(outside)
    (media.parent / "secrets.yaml").write_text("db_password: hunter2\n")
    good = media_clip(media, "good.wav", speak(ENROLMENT[0], JULIAN_VOICE))
    with pytest.raises(ServiceValidationError) as err:
        await async_call(household, "enroll_voice", {"person": julian.person_id, "clips": [good, media_id]})
    assert err.value.translation_key == "clip_unreadable"
    assert "hunter2" not in str(err.value)


async def test_forget_voice_and_status_edge_cases(
    household: HomeAssistant, voice_entry: ConfigEntry, enrolled: tuple[Resident, Resident]
) -> None:
    _, anna = enrolled
    assert await async_call(household, "forget_voice", {"person": "person.nobody"}) == {
        "person": "person.nobody",
        "forgotten": False,
    }
    with pytest.raises(ServiceValidationError):  # a non-admin, someone else
        await async_call(household, "forget_voice", {"person": "person.nobody"}, context=anna.context)
    status = await async_call(household, "voice_status", {}, context=anna.context)
    dumped = json.dumps(status)
    assert "vector" not in dumped and "pcm" not in dumped
    assert all(set(v) == {"person", "enrolled", "clips", "enrolled_at"} for v in status["voices"])
    with pytest.raises(ServiceValidationError):
        await async_call(
            household, "enroll_voice", {"person": "person.nobody", "clips": ["a", "b"]}, context=anna.context
        )


# ----------------------------------------------------------------------- bad audio into the STT entity


async def _chunks(parts: list[bytes]) -> AsyncGenerator[bytes]:
    for part in parts:
        yield part
        await asyncio.sleep(0)


def _odd_chunks(pcm: bytes, size: int = 1001) -> list[bytes]:
    return [pcm[i : i + size] for i in range(0, len(pcm), size)]


class Parts(Stream):
    """A Stream of given parts (odd sizes, empty ones)."""

    def __init__(self, parts: list[bytes]) -> None:
        super().__init__(b"".join(parts))
        self.parts = parts

    async def chunks(self) -> AsyncGenerator[bytes]:
        for part in self.parts:
            self.read += len(part)
            yield part
            await asyncio.sleep(0)


class Endless(Stream):
    """Julian's question, then loud noise for ever."""

    def __init__(self, head: bytes) -> None:
        super().__init__(head)

    async def chunks(self) -> AsyncGenerator[bytes]:
        rng = np.random.default_rng(1)
        for start in range(0, len(self.pcm), 2048):
            self.read += 2048
            yield self.pcm[start : start + 2048]
        while True:
            noise = (rng.standard_normal(1024) * 3000).astype("<i2").tobytes()
            self.read += len(noise)
            yield noise
            await asyncio.sleep(0)


class Broken(Stream):
    """Julian's question that breaks off with an error half-way."""

    async def chunks(self) -> AsyncGenerator[bytes]:
        half = len(self.pcm) // 2
        for start in range(0, half, 2048):
            yield self.pcm[start : start + 2048]
            await asyncio.sleep(0)
        raise ConnectionResetError("the satellite went away")


@pytest.mark.parametrize(
    "kind",
    ["odd_chunks", "empty_chunks", "one_sample", "one_byte", "dc_offset", "clipping_noise", "nothing"],
)
async def test_bad_audio_through_the_stt_entity(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
    kind: str,
) -> None:
    await julian_remembers(household, target, kitchen)
    julian_pcm = speak(QUESTION, JULIAN_VOICE)
    rng = np.random.default_rng(7)
    if kind == "odd_chunks":  # Julian's voice in odd-sized chunks: still Julian
        stream: bytes | Stream = Parts(_odd_chunks(julian_pcm))
    elif kind == "empty_chunks":
        stream = Parts([p for chunk in _odd_chunks(julian_pcm, 2048) for p in (b"", chunk, b"")])
    elif kind == "one_sample":
        stream = Parts([b"\x10\x00"])
    elif kind == "one_byte":
        stream = Parts([b"\x10"])
    elif kind == "dc_offset":
        stream = np.full(16000 * 3, 20000, "<i2").tobytes()
    elif kind == "clipping_noise":
        stream = np.clip(rng.standard_normal(16000 * 4) * 40000, -32768, 32767).astype("<i2").tobytes()
    else:
        stream = Parts([])
    run, heard = await spoken_run(household, target, stream, QUESTION, room=kitchen)
    if kind in ("odd_chunks", "empty_chunks"):
        assert run.error is None
        assert MARKER in run.speech, f"Julian not recognised through {kind}"
    else:
        assert MARKER not in run.speech
        assert heard is None or heard.match.person_id is None
    assert len(await async_all_memories(household, voice_entry)) == 1


async def test_a_stream_that_never_ends_is_bounded(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    await julian_remembers(household, target, kitchen)
    stream = Endless(speak(QUESTION, JULIAN_VOICE))
    started = time.monotonic()
    run, _ = await spoken_run(household, target, stream, QUESTION, room=kitchen)
    assert run.error is None and run.text == QUESTION
    assert stream.read <= 31 * 32000  # at most MAX_AUDIO_SECONDS (+ one chunk) read
    assert time.monotonic() - started < RUN_TIMEOUT


async def test_a_stream_aborted_mid_way_publishes_nothing(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    await julian_remembers(household, target, kitchen)
    recognizer = voice_entry.runtime_data.recognizer

    async def go() -> tuple[Run, Any, str]:
        target.text = QUESTION
        run = await async_run_pipeline(
            household, Broken(speak(QUESTION, JULIAN_VOICE)), vad=False, device_id=kitchen.device_id
        )
        left = heard_for(QUESTION)
        after = await async_pipeline_say(household, voice_entry, QUESTION, room=kitchen)
        return run, left, after.speech

    try:
        run, left, speech = await in_own_task(go)
    except ConnectionResetError:
        return  # the pipeline let the satellite's own error through: nothing was published
    assert run.error is not None
    assert left is None
    assert MARKER not in speech
    assert (
        recognizer.recent(kitchen.device_id)[-1].text != QUESTION
        if recognizer.recent(kitchen.device_id)
        else True
    )


async def test_recognizer_direct_abuse(
    household: HomeAssistant, voice_entry: ConfigEntry, enrolled: tuple[Resident, Resident]
) -> None:
    """The recognizer seam: finish twice, abort after finish, feed after finish, abort twice."""
    recognizer = voice_entry.runtime_data.recognizer

    async def go() -> Any:
        utterance = recognizer.utterance()
        await utterance.async_feed(speak(QUESTION, JULIAN_VOICE))
        await utterance.async_finish(QUESTION)
        first = heard_for(QUESTION)
        await utterance.async_finish("something else")  # ignored
        await utterance.async_feed(b"\x00\x01" * 100)
        utterance.abort()
        utterance.abort()
        second = recognizer.utterance()
        second.abort()
        await second.async_finish(QUESTION)  # after abort: nothing
        return first, heard_for(QUESTION)

    first, after = await in_own_task(go)
    assert first is not None and first.match.person_id == enrolled[0].person_id
    assert after is None


# ----------------------------------------------------------------------- diagnostics


async def test_diagnostics_name_no_one_and_hold_no_vector(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
    hass_client: Any,
) -> None:
    julian, anna = enrolled
    await julian_remembers(household, target, kitchen)
    assert await async_setup_component(household, "diagnostics", {})
    diagnostics = await get_diagnostics_for_config_entry(household, hass_client, voice_entry)
    dumped = json.dumps(diagnostics)
    for text in (julian.person_id, anna.person_id, "Julian", "Anna", MARKER, "short answers"):
        assert text not in dumped
    assert '"pcm"' not in dumped and '"vector"' not in dumped

    def long_lists(value: Any) -> int:
        if isinstance(value, dict):
            return sum(long_lists(v) for v in value.values())
        if isinstance(value, list):
            return (len(value) >= 64) + sum(long_lists(v) for v in value)
        return 0

    assert long_lists(diagnostics) == 0  # no 256-number voiceprint, no samples


async def test_diagnostics_order_does_not_name_who_is_enrolled(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    *,
    media: Path,
    anna: Resident,
    julian: Resident,
    hass_client: Any,
) -> None:
    """Only Julian enrolled: the redacted voice list must not reveal which person it is (it is
    sorted by person id, and the person entities are no secret)."""
    await async_enrol(household, media, julian, JULIAN_VOICE)
    assert await async_setup_component(household, "diagnostics", {})
    diagnostics = await get_diagnostics_for_config_entry(household, hass_client, voice_entry)
    voices = diagnostics["voice"]["voices"]
    assert voices["enrolled"] == 1 and voices["clips"] == len(ENROLMENT)  # counts only: not whose
    assert not isinstance(voices, list)


# ----------------------------------------------------------------------- the store


async def test_voiceprints_survive_a_reload_and_forgetting_sticks(
    household: HomeAssistant,
    voice_entry: ConfigEntry,
    target: TargetStt,  # noqa: F811
    kitchen: Room,
    enrolled: tuple[Resident, Resident],
) -> None:
    julian, anna = enrolled
    await julian_remembers(household, target, kitchen)
    assert await household.config_entries.async_reload(voice_entry.entry_id)
    await household.async_block_till_done()
    status = {v["person"]: v for v in (await async_call(household, "voice_status", {}))["voices"]}
    assert status[julian.person_id]["enrolled"] and status[anna.person_id]["enrolled"]
    run, _ = await spoken_run(household, target, speak(QUESTION, JULIAN_VOICE), QUESTION, room=kitchen)
    assert MARKER in run.speech

    assert (await async_call(household, "forget_voice", {"person": julian.person_id}))["forgotten"] is True
    assert await household.config_entries.async_reload(voice_entry.entry_id)
    await household.async_block_till_done()
    status = {v["person"]: v for v in (await async_call(household, "voice_status", {}))["voices"]}
    assert not status[julian.person_id]["enrolled"] and status[anna.person_id]["enrolled"]
    run, _ = await spoken_run(household, target, speak(QUESTION, JULIAN_VOICE), QUESTION, room=kitchen)
    assert MARKER not in run.speech


async def test_deleting_a_person_deletes_the_voiceprint_across_reload(
    household: HomeAssistant, voice_entry: ConfigEntry, enrolled: tuple[Resident, Resident]
) -> None:
    julian, anna = enrolled
    people = person_storage(household)
    item = next(p for p in people.async_items() if p["user_id"] == julian.user_id)
    await people.async_delete_item(item["id"])
    await household.async_block_till_done()
    assert await household.config_entries.async_reload(voice_entry.entry_id)
    await household.async_block_till_done()
    prints = await household.async_add_executor_job(voice_entry.runtime_data.engine.voiceprints)
    assert [p.person_id for p in prints] == [anna.person_id]
