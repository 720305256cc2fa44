"""Enrolment clips as a room would deliver them: reverberation and background noise, in numpy.

A voiceprint made only from clips recorded close to a quiet microphone scores a voice in a noisy,
echoing kitchen low; multi-condition voiceprints (matching.VoiceModel) also embed every enrolment
clip as `ROOMS` would change it. The rooms are fixed (seeded), so enrolling the same clips twice
gives the same voiceprint. Nothing here is what the benchmark's rooms are made with (sox's reverb
and noise, bench/voice_pool.py): the voiceprints are not tuned to the test rooms.

Audio: 16-bit little-endian mono PCM at 16 kHz (features.SAMPLE_RATE).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .features import SAMPLE_RATE


@dataclass(frozen=True, slots=True)
class Room:
    """rt60: seconds for the reverberation to decay by 60 dB (0: none); snr_db: speech level over
    the noise (louder half of 20-ms frames against the noise's RMS); tilt: the noise's spectral slope
    (0 white, 1 pink, 2 brown); seed: the room's random draws."""

    rt60: float
    snr_db: float
    tilt: float
    seed: int


# A living room with a little echo and a fan; a kitchen with hard walls and an extractor hood.
ROOMS = (Room(0.35, 20.0, 1.0, 1), Room(0.6, 12.0, 1.5, 2))


def impulse_response(rt60: float, seed: int) -> np.ndarray:
    """float32 [n], unit energy: a room's impulse response — the direct sound, then a 2-10 ms gap and
    exponentially decaying noise (amplitude falls 60 dB in rt60 seconds) carrying as much energy as
    the direct sound (a microphone a few metres away: direct-to-reverberant ratio 0 dB)."""
    rng = np.random.default_rng(seed)
    length = max(1, int(rt60 * SAMPLE_RATE))
    t = np.arange(length) / SAMPLE_RATE
    tail = rng.standard_normal(length) * np.power(10.0, -3.0 * t / rt60)
    tail[: int(rng.uniform(0.002, 0.01) * SAMPLE_RATE)] = 0.0
    response = np.concatenate([[1.0], tail / (np.sqrt(np.sum(tail**2)) + 1e-12)])
    return (response / np.sqrt(np.sum(response**2))).astype(np.float32)


def coloured_noise(samples: int, tilt: float, seed: int) -> np.ndarray:
    """float64 [samples] of unit RMS noise whose power falls as 1/f**tilt."""
    rng = np.random.default_rng(seed)
    spectrum = np.fft.rfft(rng.standard_normal(samples))
    freqs = np.fft.rfftfreq(samples, 1.0 / SAMPLE_RATE)
    spectrum *= 1.0 / np.maximum(freqs, 20.0) ** (tilt / 2)
    noise = np.fft.irfft(spectrum, samples)
    return noise / (np.sqrt(np.mean(noise**2)) + 1e-12)


def in_room(pcm: bytes, room: Room) -> bytes:
    """`pcm` reverberated and noised as `room` (same length, 16-bit, clipped at full scale)."""
    speech = np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], "<i2").astype(np.float64)
    if not len(speech):
        return b""
    if room.rt60 > 0:
        response = impulse_response(room.rt60, room.seed).astype(np.float64)
        size = len(speech) + len(response) - 1
        wet = np.fft.irfft(np.fft.rfft(speech, size) * np.fft.rfft(response, size), size)[: len(speech)]
        speech = wet * np.sqrt(np.mean(speech**2) / (np.mean(wet**2) + 1e-12))
    frames = speech[: len(speech) // 320 * 320].reshape(-1, 320)
    power = np.sort((frames**2).mean(axis=1)) if len(frames) else np.mean(speech**2, keepdims=True)
    level = float(np.sqrt(power[len(power) // 2 :].mean()))
    noise = coloured_noise(len(speech), room.tilt, room.seed + 1000) * level * 10 ** (-room.snr_db / 20)
    return np.clip(speech + noise, -32768, 32767).astype("<i2").tobytes()
