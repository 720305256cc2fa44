"""Speaker identity by voice: enrolment, C05 and C18 by voice, forgetting a voice, destructive
requests and the strict threshold.

Real parts: espeak-ng speech (tests.speech) in different voices, the real speaker embedder of the
voice core, the real conversation and Assist pipeline (intent stage). A voice turn drives the seam
the STT entity uses, in the same task as the pipeline run — exactly what a pipeline run does:
`utt = recognizer.utterance(); await utt.async_feed(chunk)...; await utt.async_finish(text)`, then
the pipeline's intent stage at the satellite.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import entity_registry as er

from custom_components.memory.engine.models import Role, Scope, SpeakerSource
from custom_components.memory.recognition import MAX_UTTERANCE_BYTES, VoiceRecognizer, heard_for
from tests.conftest import Resident, Room, async_call, person_storage
from tests.ha.helpers_conversation import (
    PipelineTurn,
    async_all_memories,
    async_pipeline_say,
    async_say,
    async_transcript,
    async_wrap_recording_agent,
)
from tests.ha.voice_helpers import ENROLMENT, async_enrol, async_enrol_household, media_clip
from tests.speech import MEN, WOMEN, silence, speak

JULIAN_VOICE = "en+m3"
ANNA_VOICE = "en+f2"
STRANGER_VOICE = "en+m7"  # never enrolled
assert JULIAN_VOICE in MEN and STRANGER_VOICE in MEN and ANNA_VOICE in WOMEN

REMEMBER = "Remember that I like short answers."
QUESTION = "What do you know about short answers?"
MARKER = "like short answers"
CHUNK = 1280  # bytes: 40 ms of 16-bit mono 16 kHz, as a satellite streams it


@pytest.fixture
def recognizer(memory_entry: Any) -> VoiceRecognizer:
    recognizer = memory_entry.runtime_data.recognizer
    assert recognizer is not None  # voice recognition is on by default
    return recognizer


async def async_hear(recognizer: VoiceRecognizer, pcm: bytes, text: str) -> None:
    """The STT step's side of one utterance: stream `pcm` in chunks, then end it with `text`."""
    utterance = recognizer.utterance()
    for start in range(0, len(pcm), CHUNK):
        await utterance.async_feed(pcm[start : start + CHUNK])
    await utterance.async_finish(text)


async def async_voice_turn(
    hass: HomeAssistant,
    entry: Any,
    text: str,
    voice: str,
    *,
    room: Room,
    conversation_id: str | None = None,
) -> PipelineTurn:
    """`text` spoken in `voice` at `room`'s satellite: heard, then the pipeline's intent stage in
    the same task (no HA user: satellites carry none)."""
    await async_hear(entry.runtime_data.recognizer, speak(text, voice), text)
    return await async_pipeline_say(hass, entry, text, room=room, conversation_id=conversation_id)


@pytest.fixture
async def enrolled(
    hass: HomeAssistant, memory_entry: Any, media: Path, julian: Resident, anna: Resident
) -> tuple[Resident, Resident]:
    """Julian (en+m3) and Anna (en+f2) enrolled by clips."""
    return await async_enrol_household(hass, media, julian, anna)


async def test_enrol_by_clips_status_and_re_enrolment(
    hass: HomeAssistant, memory_entry: Any, media: Path, julian: Resident, anna: Resident
) -> None:
    response = await async_enrol(hass, media, julian, JULIAN_VOICE)
    assert response["person"] == julian.person_id and response["clips"] == 3
    assert response["enrolled_at"].endswith("+00:00")

    status = await async_call(hass, "voice_status", {})
    assert status["recognition"] is True
    by_person = {v["person"]: v for v in status["voices"]}
    assert by_person[julian.person_id]["enrolled"] is True and by_person[julian.person_id]["clips"] == 3
    assert by_person[anna.person_id] == {
        "person": anna.person_id,
        "enrolled": False,
        "clips": 0,
        "enrolled_at": None,
    }
    assert "vector" not in str(status)

    clips = [
        media_clip(media, f"again{i}.wav", speak(text, JULIAN_VOICE)) for i, text in enumerate(ENROLMENT[:2])
    ]
    again = await async_call(hass, "enroll_voice", {"person": julian.person_id, "clips": clips})
    assert again["clips"] == 2  # replaced, not added
    (print_,) = await hass.async_add_executor_job(memory_entry.runtime_data.engine.voiceprints)
    assert (print_.person_id, print_.clips) == (julian.person_id, 2)


async def test_c05_private_stays_private_by_voice(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, enrolled: tuple[Resident, Resident]
) -> None:
    """Julian's voice at the kitchen satellite stores a private memory for person.julian; Anna's
    voice and an unenrolled voice asking there never see it; Julian's voice does."""
    julian, _ = enrolled
    await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)

    (memory,) = await async_all_memories(hass, memory_entry)
    assert (memory.scope, memory.owner_id, memory.speaker_id) == (
        Scope.PRIVATE,
        julian.person_id,
        julian.person_id,
    )

    assert MARKER in (await async_voice_turn(hass, memory_entry, QUESTION, JULIAN_VOICE, room=kitchen)).speech
    assert (
        MARKER not in (await async_voice_turn(hass, memory_entry, QUESTION, ANNA_VOICE, room=kitchen)).speech
    )
    assert (
        MARKER
        not in (await async_voice_turn(hass, memory_entry, QUESTION, STRANGER_VOICE, room=kitchen)).speech
    )


async def test_transcript_keeps_how_the_speaker_was_recognised(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, enrolled: tuple[Resident, Resident]
) -> None:
    julian, _ = enrolled
    turn = await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)
    engine = memory_entry.runtime_data.engine
    said = await async_transcript(hass, engine, turn.conversation_id)
    user = [t for t in said if t.role is Role.USER]
    assert [(t.speaker_id, t.speaker_source) for t in user] == [(julian.person_id, SpeakerSource.VOICE)]


async def test_the_prompt_says_how_the_speaker_was_recognised(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, enrolled: tuple[Resident, Resident]
) -> None:
    julian, _ = enrolled
    agent = await async_wrap_recording_agent(hass, memory_entry)
    question = "What's a good recipe for dinner tonight?"
    await async_voice_turn(hass, memory_entry, question, JULIAN_VOICE, room=kitchen)
    await async_say(hass, memory_entry, question, who=julian)
    await async_voice_turn(hass, memory_entry, question, STRANGER_VOICE, room=kitchen)
    by_voice, signed_in, stranger = agent.extra_prompts
    assert "The speaker is Julian, recognised by voice." in by_voice
    assert "The speaker is Julian, signed in." in signed_in
    assert "The speaker is not recognised" in stranger


async def test_c18_no_borrowed_identity(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, hall: Room, enrolled: tuple[Resident, Resident]
) -> None:
    """An identity heard for one utterance never reaches the next turn, a turn whose text differs,
    another satellite's turn, or the next voice after it (an announcement, then someone else)."""
    await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)
    recognizer = memory_entry.runtime_data.recognizer

    # the next turn without audio of its own (typed, or another agent's run in the same task)
    assert MARKER not in (await async_pipeline_say(hass, memory_entry, QUESTION, room=kitchen)).speech

    # heard one thing, the turn says another
    await async_hear(recognizer, speak(QUESTION, JULIAN_VOICE), "What time is it?")
    assert MARKER not in (await async_pipeline_say(hass, memory_entry, QUESTION, room=kitchen)).speech

    # Julian is heard at the kitchen (its own pipeline run: another task); the hall's run says the
    # same words at the same moment
    await hass.async_create_task(async_hear(recognizer, speak(QUESTION, JULIAN_VOICE), QUESTION))
    assert MARKER not in (await async_pipeline_say(hass, memory_entry, QUESTION, room=hall)).speech

    # Julian heard (or an announcement to him), then a different voice in the same satellite task
    await async_hear(recognizer, speak(QUESTION, JULIAN_VOICE), QUESTION)
    turn = await async_voice_turn(hass, memory_entry, QUESTION, STRANGER_VOICE, room=kitchen)
    assert MARKER not in turn.speech

    # a stream that failed publishes nothing either
    await async_hear(recognizer, speak(QUESTION, JULIAN_VOICE), QUESTION)
    failed = recognizer.utterance()
    await failed.async_feed(speak(QUESTION, JULIAN_VOICE)[:CHUNK])
    failed.abort()
    assert MARKER not in (await async_pipeline_say(hass, memory_entry, QUESTION, room=kitchen)).speech

    # and Julian's own voice still works
    assert MARKER in (await async_voice_turn(hass, memory_entry, QUESTION, JULIAN_VOICE, room=kitchen)).speech


async def test_enrol_from_the_last_utterances_at_the_kitchen(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, hall: Room, anna: Resident
) -> None:
    """Anna speaks at the kitchen satellite (unknown: not enrolled), then enrols from what the
    kitchen heard; a satellite given as its assist_satellite entity works the same way."""
    await async_voice_turn(hass, memory_entry, REMEMBER, ANNA_VOICE, room=kitchen)
    assert (await async_all_memories(hass, memory_entry))[0].scope is Scope.SHARED  # unknown speaker
    for text in ENROLMENT:
        await async_voice_turn(hass, memory_entry, text, ANNA_VOICE, room=kitchen)

    with pytest.raises(ServiceValidationError) as err:  # the hall heard nothing
        await async_call(hass, "enroll_voice", {"person": anna.person_id, "satellite": hall.device_id})
    assert err.value.translation_key == "too_few_clips"
    assert err.value.translation_placeholders["field"] == "utterances"
    for bad in (2.5, "many", 0, 10_000, True):  # a whole number in range, else named; nothing enrolled
        with pytest.raises(ServiceValidationError) as err:
            await async_call(
                hass,
                "enroll_voice",
                {"person": anna.person_id, "satellite": kitchen.device_id, "utterances": bad},
            )
        assert (err.value.translation_key, err.value.translation_placeholders["field"]) == (
            "invalid_utterances", "utterances",
        ), bad  # fmt: skip

    satellite = er.async_get(hass).async_get_or_create(
        "assist_satellite", "satellite_test", "kitchen", device_id=kitchen.device_id
    )
    response = await async_call(
        hass, "enroll_voice", {"person": anna.person_id, "satellite": satellite.entity_id, "utterances": 3}
    )
    assert response["clips"] == 3
    await async_voice_turn(  # 0.15 over its threshold ("… every evening." alone: 0.016, too close)
        hass,
        memory_entry,
        "Remember that I like to walk along the river with the dog every evening after dinner.",
        ANNA_VOICE,
        room=kitchen,
    )
    private = [m for m in await async_all_memories(hass, memory_entry) if m.scope is Scope.PRIVATE]
    assert [m.owner_id for m in private] == [anna.person_id]


async def test_forget_voice(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, enrolled: tuple[Resident, Resident]
) -> None:
    julian, _ = enrolled
    await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)
    assert await async_call(hass, "forget_voice", {"person": julian.person_id}) == {
        "person": julian.person_id,
        "forgotten": True,
    }
    assert (
        MARKER
        not in (await async_voice_turn(hass, memory_entry, QUESTION, JULIAN_VOICE, room=kitchen)).speech
    )
    assert (await async_call(hass, "forget_voice", {"person": julian.person_id}))["forgotten"] is False


async def test_destructive_request_needs_the_strict_threshold(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, enrolled: tuple[Resident, Resident]
) -> None:
    """ "Forget everything about me" by voice: refused when the voice is recognised but not above
    the strict threshold (here raised above any real score); done when it passes."""
    julian, _ = enrolled
    recognizer = memory_entry.runtime_data.recognizer
    await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)

    recognizer.strict_lift = 1.0  # no voice reaches it: recognised, never confirmed
    refused = await async_voice_turn(
        hass, memory_entry, "Forget everything you know about me.", JULIAN_VOICE, room=kitchen
    )
    assert "couldn't confirm" in refused.speech
    assert not refused.continue_conversation
    assert len(await async_all_memories(hass, memory_entry)) == 1

    recognizer.strict_lift = -1.0  # every recognised voice passes
    asked = await async_voice_turn(
        hass, memory_entry, "Forget everything you know about me.", JULIAN_VOICE, room=kitchen
    )
    assert asked.continue_conversation, asked.speech
    done = await async_voice_turn(
        hass,
        memory_entry,
        "Yes, forget all of it.",
        JULIAN_VOICE,
        room=kitchen,
        conversation_id=asked.conversation_id,
    )
    assert "forgotten 1" in done.speech
    assert await async_all_memories(hass, memory_entry) == []
    # "everything about me" includes the voice: only Anna's voiceprint is left
    prints = await hass.async_add_executor_job(memory_entry.runtime_data.engine.voiceprints)
    assert [p.person_id for p in prints] != [] and julian.person_id not in [p.person_id for p in prints]


async def test_deleting_a_person_deletes_their_voiceprint(
    hass: HomeAssistant, memory_entry: Any, enrolled: tuple[Resident, Resident]
) -> None:
    julian, anna = enrolled
    people = person_storage(hass)
    item = next(p for p in people.async_items() if p["user_id"] == julian.user_id)
    await people.async_delete_item(item["id"])
    await hass.async_block_till_done()
    prints = await hass.async_add_executor_job(memory_entry.runtime_data.engine.voiceprints)
    assert [p.person_id for p in prints] == [anna.person_id]
    status = await async_call(hass, "voice_status", {})
    assert julian.person_id not in {v["person"] for v in status["voices"]}


@pytest.mark.parametrize(
    ("clip", "key"),
    [
        ("short", "clip_too_short"),
        ("silence", "clip_no_speech"),
        ("two_voices", "clip_two_voices"),
        ("other_voice", "clip_other_voice"),
        ("stereo", "clip_format"),
        ("not_wav", "clip_format"),
        ("missing", "clip_unreadable"),
    ],
)
async def test_bad_enrolment_clips_name_the_field(
    hass: HomeAssistant, memory_entry: Any, media: Path, *, julian: Resident, clip: str, key: str
) -> None:
    good = media_clip(media, "good.wav", speak(ENROLMENT[0], JULIAN_VOICE))
    if clip == "short":
        bad = media_clip(media, "short.wav", speak("Hi.", JULIAN_VOICE))
    elif clip == "silence":
        bad = media_clip(media, "silence.wav", silence(3.0))
    elif clip == "two_voices":
        bad = media_clip(
            media, "two.wav", speak(ENROLMENT[1], JULIAN_VOICE) + speak(ENROLMENT[2], ANNA_VOICE)
        )
    elif clip == "other_voice":  # a good clip, but Anna's among Julian's
        bad = media_clip(media, "anna.wav", speak(ENROLMENT[1], ANNA_VOICE))
    elif clip == "stereo":
        import wave  # noqa: PLC0415

        with wave.open(str(media / "stereo.wav"), "wb") as wav:
            wav.setnchannels(2)
            wav.setsampwidth(2)
            wav.setframerate(16000)
            wav.writeframes(silence(1.0) * 2)
        bad = "media-source://media_source/local/stereo.wav"
    elif clip == "not_wav":
        (media / "notes.wav").write_text("not audio")
        bad = "media-source://media_source/local/notes.wav"
    else:
        bad = "media-source://media_source/local/nowhere.wav"
    with pytest.raises(ServiceValidationError) as err:
        await async_call(hass, "enroll_voice", {"person": julian.person_id, "clips": [good, bad]})
    assert err.value.translation_key == key
    assert err.value.translation_placeholders == {"field": "clips", "clip": bad}
    assert await hass.async_add_executor_job(memory_entry.runtime_data.engine.voiceprints) == []


@pytest.mark.parametrize(
    ("data", "key", "field"),
    [
        ({"person": "person.nobody", "clips": ["a", "b"]}, "unknown_person", "person"),
        ({"person": "person.julian"}, "enroll_needs_clips", "clips"),
        (
            {"person": "person.julian", "clips": ["media-source://media_source/local/a.wav"]},
            "too_few_clips",
            "clips",
        ),
        (
            {"person": "person.julian", "satellite": "assist_satellite.nowhere"},
            "unknown_satellite",
            "satellite",
        ),
        ({"person": "person.julian", "satellite": "x", "clips": ["a", "b"]}, "enroll_needs_clips", "clips"),
    ],
)
async def test_bad_enrolment_requests_name_the_field(
    hass: HomeAssistant, memory_entry: Any, *, julian: Resident, data: dict[str, Any], key: str, field: str
) -> None:
    with pytest.raises(ServiceValidationError) as err:
        await async_call(hass, "enroll_voice", data)
    assert err.value.translation_key == key
    assert err.value.translation_placeholders["field"] == field


async def test_only_the_person_or_an_admin_enrols_a_voice(
    hass: HomeAssistant, memory_entry: Any, media: Path, julian: Resident, anna: Resident
) -> None:
    """An enrolled voice reads its person's private memories: Anna may not enrol hers as Julian."""
    clips = [
        media_clip(media, f"anna{i}.wav", speak(text, ANNA_VOICE)) for i, text in enumerate(ENROLMENT[:2])
    ]
    with pytest.raises(ServiceValidationError) as err:
        await async_call(
            hass, "enroll_voice", {"person": julian.person_id, "clips": clips}, context=anna.context
        )
    assert err.value.translation_key == "person_not_allowed"
    with pytest.raises(ServiceValidationError):
        await async_call(hass, "forget_voice", {"person": julian.person_id}, context=anna.context)
    response = await async_call(
        hass, "enroll_voice", {"person": anna.person_id, "clips": clips}, context=anna.context
    )
    assert response["person"] == anna.person_id


async def test_voice_recognition_off(hass: HomeAssistant, memory_entry: Any, julian: Resident) -> None:
    hass.config_entries.async_update_entry(
        memory_entry, options={**memory_entry.options, "voice": {"voice_recognition": False}}
    )
    await hass.config_entries.async_reload(memory_entry.entry_id)
    await hass.async_block_till_done()
    assert memory_entry.runtime_data.recognizer is None
    with pytest.raises(ServiceValidationError) as err:
        await async_call(hass, "enroll_voice", {"person": julian.person_id, "clips": ["a", "b"]})
    assert err.value.translation_key == "voice_recognition_off"
    assert (await async_call(hass, "voice_status", {}))["recognition"] is False


async def test_utterance_edge_cases_publish_unknown(
    hass: HomeAssistant, memory_entry: Any, kitchen: Room, enrolled: tuple[Resident, Resident]
) -> None:
    """Silence, nothing fed and a 60-second stream end, never hang, and keep at most
    MAX_UTTERANCE_SECONDS of audio; silence and nothing are an unknown voice."""
    recognizer = memory_entry.runtime_data.recognizer
    await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)
    for pcm in (silence(2.0), b""):
        await async_hear(recognizer, pcm, QUESTION)
        assert MARKER not in (await async_pipeline_say(hass, memory_entry, QUESTION, room=kitchen)).speech
    await asyncio.wait_for(
        async_hear(recognizer, speak(QUESTION, JULIAN_VOICE) + silence(60.0), QUESTION), 120
    )
    heard = heard_for(QUESTION)
    assert heard is not None and len(heard.pcm) == MAX_UTTERANCE_BYTES


@pytest.mark.parametrize(
    ("answer", "voice", "where", "done"),
    [
        ("Yes.", JULIAN_VOICE, "kitchen", True),  # too short to recognise: no one's voice, same satellite
        ("Yes please.", ANNA_VOICE, "kitchen", False),  # Anna's voice, recognised (long audio below)
        ("Yes.", JULIAN_VOICE, "hall", False),  # another satellite
    ],
    ids=["short-yes-here", "anna-answers", "yes-at-the-hall"],
)
async def test_a_short_yes_answers_the_question_a_recognised_voice_asked(  # noqa: PLR0917 (fixtures)
    hass: HomeAssistant,
    memory_entry: Any,
    kitchen: Room,
    hall: Room,
    enrolled: tuple[Resident, Resident],
    answer: str,
    voice: str,
    where: str,
    done: bool,
) -> None:
    """A bare "yes" is too short to recognise a voice: it answers the question a recognised voice
    asked at the same satellite, and acts as the asker; a voice recognised as someone else, or a
    "yes" at another satellite, does not."""
    recognizer = memory_entry.runtime_data.recognizer
    await async_voice_turn(hass, memory_entry, REMEMBER, JULIAN_VOICE, room=kitchen)
    recognizer.strict_lift = -1.0  # the request itself passes; what matters here is who answers
    asked = await async_voice_turn(
        hass, memory_entry, "Forget everything you know about me.", JULIAN_VOICE, room=kitchen
    )
    assert asked.continue_conversation, asked.speech
    room = kitchen if where == "kitchen" else hall
    # Anna's "yes please" must be recognised as hers: heard as a few seconds of her voice
    audio = speak(ENROLMENT[0], voice) if voice == ANNA_VOICE else speak(answer, voice)
    await async_hear(recognizer, audio, answer)
    reply = await async_pipeline_say(
        hass, memory_entry, answer, room=room, conversation_id=asked.conversation_id
    )
    left = await async_all_memories(hass, memory_entry)
    if done:
        assert "forgotten 1" in reply.speech
        assert left == []
    else:
        assert "Only the person who asked" in reply.speech
        assert len(left) == 1
