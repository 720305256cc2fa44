"""The panel's voice commands (memory/voice/status, assess, enroll, forget) through HA's test
WebSocket client, with real espeak-ng speech (tests.speech) and the real speaker embedder: each
clip's assessment, the reasons a clip is refused, the upload bounds, enrolment from clips and from
what a satellite heard, and forgetting. memory.enroll_voice's response carries the same report
(one assessment for both doors). Non-admins refused and schema errors: test_websocket_api.py's
COMMANDS."""

from __future__ import annotations

import base64
import wave
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.typing import MockHAClientWebSocket, WebSocketGenerator

from custom_components.memory.recognition import MAX_CLIP_SECONDS, RECENT_RECOGNITIONS
from custom_components.memory.voice import matching
from tests.conftest import Resident, Room, async_call
from tests.ha.test_voice_identity import ANNA_VOICE, JULIAN_VOICE, async_voice_turn
from tests.ha.voice_helpers import ENROLMENT, async_enrol, media_clip
from tests.speech import SAMPLE_RATE, silence, speak, wav_bytes

CLIP_FIELDS = {
    "name", "seconds", "speech_seconds", "active_seconds", "level_dbfs", "peak_dbfs", "clipped",
    "snr_db", "similarity", "same_voice", "problem", "advice", "warnings",
}  # fmt: skip


def upload(name: str, pcm: bytes) -> dict[str, str]:
    """A clip as the panel sends it: its name and a base64 16-bit mono 16 kHz WAV."""
    return {"name": name, "wav": base64.b64encode(wav_bytes(pcm)).decode()}


def julian_clips(count: int = 3) -> list[dict[str, str]]:
    return [upload(f"Clip {i}", speak(text, JULIAN_VOICE)) for i, text in enumerate(ENROLMENT[:count], 1)]


@dataclass
class Panel:
    """The panel's side of one WebSocket connection: ok(command, **data) -> the result (failing the
    test on an error), error(command, **data) -> the error (failing it on a result)."""

    client: MockHAClientWebSocket

    async def send(self, command: str, **data: Any) -> dict[str, Any]:
        await self.client.send_json_auto_id({"type": f"memory/voice/{command}", **data})
        response: dict[str, Any] = await self.client.receive_json()
        return response

    async def ok(self, command: str, **data: Any) -> Any:
        response = await self.send(command, **data)
        assert response["success"], response
        return response["result"]

    async def error(self, command: str, **data: Any) -> Any:
        response = await self.send(command, **data)
        assert not response["success"], response
        return response["error"]


@pytest.fixture
async def panel(household: HomeAssistant, memory_entry: Any, hass_ws_client: WebSocketGenerator) -> Panel:
    return Panel(await hass_ws_client(household))


async def status_of(panel: Panel, person: str) -> dict[str, Any]:
    status = await panel.ok("status")
    return next(v for v in status["voices"] if v["person"] == person)


async def test_assess_reports_each_clip_and_the_expected_rate(panel: Panel, julian: Resident) -> None:
    report = await panel.ok("assess", person=julian.person_id, clips=julian_clips())
    assert report["accepted"] is True and report["other_person"] is None
    assert [c["name"] for c in report["clips"]] == ["Clip 1", "Clip 2", "Clip 3"]
    for clip in report["clips"]:
        assert set(clip) == CLIP_FIELDS
        assert clip["problem"] is None and clip["same_voice"] is True, clip
        assert clip["active_seconds"] >= matching.MIN_CLIP_SPEECH and clip["advice"] is None
        assert clip["seconds"] >= max(clip["speech_seconds"], clip["active_seconds"])
        assert -40 < clip["level_dbfs"] <= clip["peak_dbfs"] <= 0  # espeak speaks loud, never clipped
        assert clip["clipped"] == 0 and clip["snr_db"] > 30  # silence between espeak's words
        assert clip["warnings"] == []
    assert set(report["expected"]) == {"sentence", "command", "noisy"}
    assert all(0 <= share <= 1 for share in report["expected"].values())
    assert (await status_of(panel, julian.person_id))["enrolled"] is False  # assessing stores nothing


async def test_assess_names_why_each_clip_is_rejected(panel: Panel, julian: Resident) -> None:
    good = speak(ENROLMENT[0], JULIAN_VOICE)
    report = await panel.ok(
        "assess",
        person=julian.person_id,
        clips=[
            upload("good", good),
            upload("short", speak("Hi.", JULIAN_VOICE)),
            upload("silence", silence(3.0)),
            upload("two", speak(ENROLMENT[1], JULIAN_VOICE) + speak(ENROLMENT[2], ANNA_VOICE)),
        ],
    )
    assert [c["problem"] for c in report["clips"]] == [None, "too_short", "no_speech", "two_voices"]
    # every refusal says what to do; the speech figure is the one the minimum is compared with
    assert [c["advice"] for c in report["clips"]] == [
        None,
        *(matching.ADVICE[p] for p in ("too_short", "no_speech", "two_voices")),
    ]
    good_clip, short_clip = report["clips"][:2]
    assert short_clip["active_seconds"] < matching.MIN_CLIP_SPEECH <= good_clip["active_seconds"]
    assert report["accepted"] is False and report["expected"] is None  # one good clip: no rate

    report = await panel.ok(
        "assess",
        clips=[*julian_clips(2), upload("Anna", speak(ENROLMENT[2], ANNA_VOICE))],
    )
    assert [c["problem"] for c in report["clips"]] == [None, None, "other_voice"]
    assert report["clips"][2]["advice"] == matching.ADVICE["other_voice"]
    assert report["clips"][2]["same_voice"] is False and report["clips"][0]["same_voice"] is True
    assert report["expected"] is not None  # of the two clips that would be stored


async def test_loud_noisy_clip_is_warned_about_and_refused(panel: Panel) -> None:
    """A clip turned up until it clips, over loud hiss: a clipping warning, and refused as noisy (a
    voiceprint made in noise lets strangers in noise pass for the person)."""
    import numpy as np  # noqa: PLC0415

    rng = np.random.default_rng(7)
    speech = np.frombuffer(speak(ENROLMENT[0], JULIAN_VOICE), "<i2").astype(np.float64) * 8
    hiss = rng.normal(0, 3000, len(speech))
    loud = np.clip(speech + hiss, -32768, 32767).astype("<i2").tobytes()
    report = await panel.ok("assess", clips=[upload("loud", loud)])
    (clip,) = report["clips"]
    assert "clipping" in clip["warnings"] and clip["clipped"] > 0.001
    assert clip["snr_db"] < matching.ENROL_MIN_SNR_DB and clip["problem"] == "noisy"
    assert clip["advice"] == matching.ADVICE["noisy"]
    assert clip["similarity"] is None and clip["same_voice"] is None  # nothing to compare with


async def test_enrol_from_recorded_clips_status_re_enrol_forget(
    panel: Panel, julian: Resident, anna: Resident
) -> None:
    enrolled = await panel.ok("enroll", person=julian.person_id, clips=julian_clips())
    assert enrolled["person"] == julian.person_id and enrolled["clips"] == 3
    assert enrolled["report"]["accepted"] is True and enrolled["report"]["expected"] is not None
    status = await panel.ok("status")
    assert status["recognition"] is True and status["satellites"] == []
    mine = next(v for v in status["voices"] if v["person"] == julian.person_id)
    assert (mine["enrolled"], mine["clips"], mine["enrolled_at"]) == (True, 3, enrolled["enrolled_at"])

    again = await panel.ok("enroll", person=julian.person_id, clips=julian_clips(2))
    assert again["clips"] == 2 and (await status_of(panel, julian.person_id))["clips"] == 2  # replaced

    # Julian's voice cannot become Anna's, and the report says whose it is
    report = await panel.ok("assess", person=anna.person_id, clips=julian_clips(2))
    assert report["other_person"] == julian.person_id and report["accepted"] is False

    assert await panel.ok("forget", person=julian.person_id) == {
        "person": julian.person_id,
        "forgotten": True,
    }
    assert (await status_of(panel, julian.person_id))["enrolled"] is False
    assert (await panel.ok("forget", person=julian.person_id))["forgotten"] is False


async def test_enrol_refuses_a_rejected_clip_by_name(panel: Panel, julian: Resident) -> None:
    error = await panel.error(
        "enroll",
        person=julian.person_id,
        clips=[julian_clips(1)[0], upload("Kitchen take", speak("Hi.", JULIAN_VOICE))],
    )
    assert error["code"] == "invalid_input"
    assert error["translation_key"] == "clip_too_short"
    assert error["translation_placeholders"] == {"field": "clips", "clip": "Kitchen take"}
    assert "Kitchen take" in error["message"] and "too little speech" in error["message"]
    assert (await status_of(panel, julian.person_id))["enrolled"] is False


def _stereo() -> bytes:
    out = BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(2)
        wav.setsampwidth(2)
        wav.setframerate(SAMPLE_RATE)
        wav.writeframes(silence(1.0) * 2)
    return out.getvalue()


@pytest.mark.parametrize(
    ("clips", "key", "clip"),
    [
        ([upload("long", silence(MAX_CLIP_SECONDS + 1)), upload("b", silence(1))], "clip_too_long", "long"),
        ([upload(f"c{i}", silence(22.6 + i / 10)) for i in range(4)], "clips_too_long", None),  # 91 s
        ([upload(f"c{i}", silence(1 + i)) for i in range(11)], "too_many_clips", None),
        ([upload("a", silence(1)), {"name": "not base64", "wav": "%%%"}], "clip_format", "not base64"),
        ([upload("a", silence(1)), {"name": "text", "wav": "bm90IGF1ZGlv"}], "clip_format", "text"),
        (
            [upload("a", silence(1)), {"name": "stereo", "wav": base64.b64encode(_stereo()).decode()}],
            "clip_format",
            "stereo",
        ),
        ([upload("a", silence(1)), upload("a", silence(2))], "clip_repeated", "a"),
        ([upload("only", silence(1))], "too_few_clips", None),
        ([], "enroll_needs_clips", None),
    ],
)
async def test_upload_bounds_name_the_field(
    panel: Panel, *, julian: Resident, clips: list[dict[str, str]], key: str, clip: str | None
) -> None:
    error = await panel.error("enroll", person=julian.person_id, clips=clips)
    assert (error["code"], error["translation_key"]) == ("invalid_input", key)
    assert error["translation_placeholders"]["field"] == "clips"
    assert error["translation_placeholders"].get("clip") == clip
    assert (await status_of(panel, julian.person_id))["enrolled"] is False


async def test_unknown_person_and_satellite_are_named(panel: Panel, julian: Resident) -> None:
    error = await panel.error("enroll", person="person.nobody", clips=julian_clips(2))
    assert (error["translation_key"], error["translation_placeholders"]["field"]) == (
        "unknown_person",
        "person",
    )
    error = await panel.error("assess", satellite="assist_satellite.nowhere")
    assert (error["translation_key"], error["translation_placeholders"]["field"]) == (
        "unknown_satellite", "satellite",
    )  # fmt: skip


async def test_enrol_from_the_last_utterances_at_a_satellite(
    household: HomeAssistant, memory_entry: Any, panel: Panel, *, kitchen: Room, anna: Resident
) -> None:
    """What the kitchen satellite heard (the path memory.enroll_voice's `satellite` takes)."""
    for text in ENROLMENT:
        await async_voice_turn(household, memory_entry, text, ANNA_VOICE, room=kitchen)
    assert (await panel.ok("status"))["satellites"] == [
        {"satellite": kitchen.device_id, "name": "Kitchen satellite", "utterances": 3}
    ]
    report = await panel.ok("assess", person=anna.person_id, satellite=kitchen.device_id, utterances=2)
    assert [c["name"] for c in report["clips"]] == [
        f"utterance 1 ({ENROLMENT[1]!r})",
        f"utterance 2 ({ENROLMENT[2]!r})",
    ]
    assert report["accepted"] is True
    error = await panel.error("enroll", person=anna.person_id, satellite=kitchen.device_id, utterances=9)
    assert (error["translation_key"], error["translation_placeholders"]["field"]) == (
        "invalid_utterances", "utterances",
    )  # fmt: skip
    enrolled = await panel.ok("enroll", person=anna.person_id, satellite=kitchen.device_id)
    assert enrolled["clips"] == 3 and (await status_of(panel, anna.person_id))["enrolled"] is True


async def test_the_service_response_carries_the_same_report(
    household: HomeAssistant, memory_entry: Any, media: Path, julian: Resident
) -> None:
    clips = [media_clip(media, f"j{i}.wav", speak(t, JULIAN_VOICE)) for i, t in enumerate(ENROLMENT)]
    response = await async_call(household, "enroll_voice", {"person": julian.person_id, "clips": clips})
    report = response["report"]
    assert [c["name"] for c in report["clips"]] == clips
    assert all(set(c) == CLIP_FIELDS and c["problem"] is None for c in report["clips"])
    assert report["accepted"] is True and set(report["expected"]) == {"sentence", "command", "noisy"}


async def test_voice_recognition_off(household: HomeAssistant, memory_entry: Any, panel: Panel) -> None:
    household.config_entries.async_update_entry(
        memory_entry, options={**memory_entry.options, "voice": {"voice_recognition": False}}
    )
    await household.config_entries.async_reload(memory_entry.entry_id)
    await household.async_block_till_done()
    error = await panel.error("assess", clips=julian_clips(1))
    assert (error["code"], error["translation_key"]) == ("invalid_input", "voice_recognition_off")
    assert (await panel.ok("status")) == {"recognition": False, "voices": ANY, "satellites": []}
    assert (await panel.ok("recognitions")) == {
        "recognition": False,
        "kept": RECENT_RECOGNITIONS,
        "satellites": [],
    }


RECOGNITION_FIELDS = {
    "at", "person", "recogniser", "strict", "conflict", "named", "voice_person", "score", "threshold",
    "speech_seconds", "snr_db",
}  # fmt: skip


async def test_recent_recognitions_per_satellite(
    household: HomeAssistant,
    media: Path,  # media_source before the WebSocket client starts HA's HTTP server
    *,
    memory_entry: Any,
    panel: Panel,
    hass_ws_client: WebSocketGenerator,
    hass_read_only_access_token: str,
    kitchen: Room,
    hall: Room,
    julian: Resident,
) -> None:
    """Who spoke the last turns at each satellite and how sure, newest first, for the
    administrator only: the recogniser, the score against the utterance's own threshold, the
    speech heard and its level over the noise — no audio, no words."""
    await async_enrol(household, media, julian, JULIAN_VOICE)
    assert (await panel.ok("recognitions"))["satellites"] == []
    question = "What do you know about my favourite short answers?"
    await async_voice_turn(household, memory_entry, question, JULIAN_VOICE, room=kitchen)
    await async_voice_turn(household, memory_entry, question, ANNA_VOICE, room=kitchen)  # not enrolled
    await async_voice_turn(household, memory_entry, question, JULIAN_VOICE, room=hall)

    listed = await panel.ok("recognitions")
    assert [(s["satellite"], s["name"]) for s in listed["satellites"]] == [
        (hall.device_id, "Hall satellite"),
        (kitchen.device_id, "Kitchen satellite"),
    ]
    anna, julian_at_kitchen = listed["satellites"][1]["recognitions"]  # newest first
    assert set(anna) == set(julian_at_kitchen) == RECOGNITION_FIELDS
    assert (julian_at_kitchen["person"], julian_at_kitchen["recogniser"]) == (julian.person_id, "voice")
    assert julian_at_kitchen["score"] >= julian_at_kitchen["threshold"] > 0
    assert (anna["person"], anna["recogniser"], anna["strict"]) == (None, None, False)
    assert anna["score"] < anna["threshold"]
    for seen in (anna, julian_at_kitchen):
        assert seen["speech_seconds"] > 1.5 and seen["snr_db"] > 20 and seen["named"] is None
    assert anna["at"] >= julian_at_kitchen["at"]
    assert "short answers" not in str(listed)  # no words, and no audio either

    guest = await hass_ws_client(household, hass_read_only_access_token)
    await guest.send_json_auto_id({"type": "memory/voice/recognitions"})
    refused = await guest.receive_json()
    assert not refused["success"] and refused["error"]["code"] == "unauthorized"
