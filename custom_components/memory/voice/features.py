"""The embedder's front end: 16-bit PCM at 16 kHz -> log10 mel energies, 40 per 10-ms frame.

The same numbers librosa gives for the model's recipe (`melspectrogram(n_fft=512, win_length=400,
hop_length=160, n_mels=40, window="hamming", center=False)`, then log10(S + 1e-10)): frame i covers
samples [160 i, 160 i + 512), Hamming-windowed, power spectrum through the Slaney mel filterbank.
The filterbank and window come from embedder.npz (computed there with librosa). Streaming: samples
may arrive in any chunk size; a frame is produced as soon as its 512 samples are there.
"""

from __future__ import annotations

import numpy as np

SAMPLE_RATE = 16000  # Hz
SAMPLE_WIDTH = 2  # bytes per sample (16-bit)
N_FFT = 512  # samples per frame (32 ms)
HOP = 160  # samples between frames (10 ms)
LOG_FLOOR = 1e-10  # added before log10 (the model's recipe)


def pcm_to_float(pcm: bytes) -> np.ndarray:
    """16-bit little-endian signed PCM -> float32 samples in [-1, 1); a trailing odd byte (a
    stream cut mid-sample) is dropped."""
    usable = len(pcm) - len(pcm) % SAMPLE_WIDTH
    return np.frombuffer(pcm[:usable], dtype="<i2").astype(np.float32) / 32768.0


class LogMel:
    """Streaming log-mel frames: `feed(samples)` -> float32 [n, 40], the frames completed so far."""

    def __init__(self, window: np.ndarray, mel: np.ndarray) -> None:
        self._window = window  # [N_FFT]
        self._mel = mel  # [N_FFT // 2 + 1, 40]
        self._buffer = np.zeros(0, np.float32)

    def feed(self, samples: np.ndarray) -> np.ndarray:
        """Append float32 samples; returns the newly complete frames (possibly none)."""
        buffer = np.concatenate([self._buffer, samples]) if len(self._buffer) else samples
        count = 0 if len(buffer) < N_FFT else 1 + (len(buffer) - N_FFT) // HOP
        self._buffer = buffer[count * HOP :]
        if not count:
            return np.zeros((0, self._mel.shape[1]), np.float32)
        index = np.arange(N_FFT)[None, :] + HOP * np.arange(count)[:, None]
        power = np.abs(np.fft.rfft(buffer[index] * self._window, axis=1)) ** 2
        return np.asarray(np.log10(power.astype(np.float32) @ self._mel + LOG_FLOOR), np.float32)
