"""Resemblyzer's GE2E speaker encoder in numpy, computed while the audio arrives (docs/voice.md).

The weights are Resemblyzer 0.1.4's (ge2e.npz, written from its wheel by scripts/ge2e_weights.py;
LICENSE.ge2e), float16 on disk, float32 in memory (5.7 MB). The recipe is the package's
`embed_utterance(preprocess_wav(wav))` except where said:

- front end (`PowerMel`): 40 mel *power* bands (not a log) of 25-ms Hann windows every 10 ms,
  frames centred on every 160th sample with zeros before the first (librosa's `melspectrogram`
  defaults);
- volume: raised (never lowered) to TARGET_DBFS. The package measures the whole clip; here the level
  is the speech's (`speech_level`: the 10-ms blocks within ACTIVE_BELOW_PEAK_DB of the loud ones), so
  the pauses a pipeline's stream carries around the words do not raise the gain, and it is measured
  per partial over the audio up to its end (below). webrtcvad's trimming of long pauses is not done;
- partials of PARTIAL frames (1.6 s) every PARTIAL_STEP frames (1.3 per second); the last one,
  zero-padded, is kept when at least MIN_COVERAGE of it is audio (`partial_starts`); each partial's
  embedding is ReLU(linear(h)) of the top layer's last output, L2-normalised.

A partial's gain is the one the speech level of the audio up to the partial's end gives (so a
partial never waits for audio after it). `Ge2eStream` advances every open partial BLOCK frames at a
time as audio arrives, at the gain the level so far gives; when that moves by more than GAIN_STEP_DB,
the open partials are run again from their starts, and a partial that completes at a gain off its
own by more is run again at its own: streaming equals the whole clip within that step
(tests/voice/test_ge2e.py), and at the end of speech at most the last partials' zero-padded frames
are left to run. Everything here blocks (the HA side runs it in the executor).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .features import SAMPLE_RATE
from .network import State, Weights, advance, with_new_row, zero_state

WEIGHTS_FILE = Path(__file__).with_name("ge2e.npz")
N_FFT = 400  # samples per frame (25 ms; hparams.mel_window_length)
HOP = 160  # samples between frames (10 ms)
N_MELS = 40
LAYERS = 3
HIDDEN = 256
DIM = 256  # embedding size
PARTIAL = 160  # frames per partial (1.6 s; hparams.partials_n_frames)
PARTIAL_STEP = round(SAMPLE_RATE / 1.3 / HOP)  # 77 frames: embed_utterance's rate of 1.3 partials per second
MIN_COVERAGE = 0.75  # the last, zero-padded partial is kept when at least this much of it is audio
TARGET_DBFS = -30.0  # hparams.audio_norm_target_dBFS; increase only
# The speech's level: the RMS of the 10-ms blocks within this of the 95th-percentile block (the
# d-vector's rule for paused windows, stream.ACTIVE_BELOW_PEAK, in dB).
ACTIVE_BELOW_PEAK_DB = 30.0
LOUD_PERCENTILE = 95
# A stream re-runs its partials when its gain has moved by more than this since they ran: a 0.5-dB
# step moved an embedding by cosine <= 0.0002 on real speech (tests/voice/test_ge2e.py), while the
# running level of a pipeline's stream settles within the first second of speech.
GAIN_STEP_DB = 0.5
BLOCK = 10  # frames advanced together (as stream.BLOCK)


def load_weights(path: Path = WEIGHTS_FILE) -> Weights:
    """Read ge2e.npz as float32 network.Weights (gates in the d-vector's order); blocking, ~20 ms.
    Raises OSError when the file is missing, KeyError/ValueError when it is not ours."""
    with np.load(path) as z:

        def f32(name: str) -> np.ndarray:
            return np.asarray(z[name], np.float32)

        weights = Weights(
            w=tuple(f32(f"w{layer}") for layer in range(LAYERS)),
            r=tuple(f32(f"r{layer}") for layer in range(LAYERS)),
            b=tuple(f32(f"b{layer}") for layer in range(LAYERS)),
            proj=f32("proj"),
            proj_bias=f32("proj_bias"),
            mel=f32("mel"),
            window=f32("window"),
            source=str(z["source"]),
        )
    if weights.w[0].shape != (N_MELS, 4 * HIDDEN) or weights.proj.shape != (HIDDEN, DIM):
        raise ValueError(f"{path}: unexpected shapes")
    return weights


class PowerMel:
    """Streaming mel power frames: `feed(samples)` -> float32 [n, N_MELS], the frames completed so
    far (frame i is centred on sample HOP * i; zeros before the first sample)."""

    def __init__(self, window: np.ndarray, mel: np.ndarray) -> None:
        self._window = window  # [N_FFT]
        self._mel = mel  # [N_FFT // 2 + 1, N_MELS]
        self._buffer = np.zeros(N_FFT // 2, np.float32)  # the centring pad

    def feed(self, samples: np.ndarray) -> np.ndarray:
        """Append float32 samples; returns the newly complete frames (possibly none)."""
        buffer = np.concatenate([self._buffer, samples])
        count = 0 if len(buffer) < N_FFT else 1 + (len(buffer) - N_FFT) // HOP
        self._buffer = buffer[count * HOP :]
        index = np.arange(N_FFT)[None, :] + HOP * np.arange(count)[:, None]
        power = np.abs(np.fft.rfft(buffer[index] * self._window, axis=1)) ** 2
        return np.asarray(power.astype(np.float32) @ self._mel, np.float32).reshape(count, N_MELS)


def partial_starts(samples: int) -> list[int]:
    """The first frame of each partial of a clip of `samples` samples (Resemblyzer's
    `compute_partial_slices(samples, rate=1.3, min_coverage=0.75)`); at least one."""
    frames = -(-(samples + 1) // HOP)
    starts = list(range(0, max(1, frames - PARTIAL + PARTIAL_STEP + 1), PARTIAL_STEP))
    coverage = (samples - starts[-1] * HOP) / (PARTIAL * HOP)
    return starts[:-1] if coverage < MIN_COVERAGE and len(starts) > 1 else starts


def speech_level(mean_squares: np.ndarray) -> float | None:
    """dBFS of the speech in 10-ms blocks whose mean squares (float samples in [-1, 1)) are
    `mean_squares`: the RMS over the blocks within ACTIVE_BELOW_PEAK_DB of the LOUD_PERCENTILE block;
    None for no blocks or digital silence."""
    if not len(mean_squares):
        return None
    loud = float(np.percentile(mean_squares, LOUD_PERCENTILE))
    if loud <= 0.0:
        return None
    active = mean_squares[mean_squares >= loud * 10 ** (-ACTIVE_BELOW_PEAK_DB / 10)]
    return float(10 * np.log10(np.mean(active)))


def gain_for(level_dbfs: float | None) -> float:
    """The gain in dB that raises `level_dbfs` to TARGET_DBFS (0 when already louder, or no level)."""
    return 0.0 if level_dbfs is None else max(0.0, TARGET_DBFS - level_dbfs)


def embed_partials(weights: Weights, frames: np.ndarray) -> np.ndarray:
    """Embeddings float32 [n, DIM], L2-normalised rows, of whole partials float32 [n, T, N_MELS]
    (mel power frames, already at their gain)."""
    return _embedding(weights, advance(weights, frames, zero_state(len(frames), HIDDEN, LAYERS)))


def _embedding(weights: Weights, state: State) -> np.ndarray:
    raw = np.maximum(state[-1][0] @ weights.proj + weights.proj_bias, 0.0)
    return np.asarray(raw / (np.linalg.norm(raw, axis=1, keepdims=True) + 1e-12), np.float32)


@dataclass(frozen=True, slots=True)
class Partials:
    """A stream's partial embeddings: vectors float32 [n, DIM] (L2-normalised rows; n >= 1) and
    starts, each one's first frame (int [n]; frame i is centred on sample HOP * i)."""

    vectors: np.ndarray
    starts: np.ndarray


class Ge2eStream:
    """One utterance's GE2E partials while its audio arrives: `feed(samples)` in order, then
    `finish()` once. `gain_db` fixes the gain instead of the speech's level (tests)."""

    def __init__(self, weights: Weights, *, gain_db: float | None = None) -> None:
        self._weights = weights
        self._mel = PowerMel(weights.window, weights.mel)
        self._fixed_gain = gain_db
        self._samples = 0
        self._blocks: list[np.ndarray] = []  # mean square per HOP samples
        self._odd = np.zeros(0, np.float32)  # samples short of a whole block
        self._frames = np.zeros((0, N_MELS), np.float32)  # mel power at gain 1
        self._gain = 0.0  # dB the open partials run at
        self._done = 0  # frames advanced
        self._starts: list[int] = []  # first frame of each open partial (state's row order)
        self._state: State = zero_state(0, HIDDEN, LAYERS)
        self._finished: dict[int, np.ndarray] = {}  # start -> vector

    def feed(self, samples: np.ndarray) -> None:
        """Add float32 samples; advances every open partial as far as whole blocks allow."""
        self._samples += len(samples)
        self._measure(samples)
        self._frames = np.concatenate([self._frames, self._mel.feed(samples)])
        self._run(self.gain(), final=False)

    def gain(self, until: int | None = None) -> float:
        """The gain (dB) of the audio so far, or of its first `until` blocks of HOP samples:
        gain_for(speech_level(...)) unless fixed."""
        if self._fixed_gain is not None:
            return self._fixed_gain
        blocks = np.concatenate(self._blocks) if self._blocks else np.zeros(0)
        return gain_for(speech_level(blocks[:until]))

    def finish(self) -> Partials:
        """The partials of the whole utterance (Resemblyzer's slices; partial_starts), the last
        zero-padded. Call once."""
        starts = partial_starts(self._samples)
        stop = (starts[-1] + PARTIAL) * HOP  # the last partial's end, in samples
        tail = np.zeros(max(0, stop - self._samples) + N_FFT // 2, np.float32)
        self._frames = np.concatenate([self._frames, self._mel.feed(tail)])
        self._run(self.gain(), final=True)
        return Partials(np.stack([self._finished[s] for s in starts]), np.array(starts))

    def _measure(self, samples: np.ndarray) -> None:
        joined = np.concatenate([self._odd, samples])
        whole = len(joined) - len(joined) % HOP
        if whole:
            self._blocks.append(np.mean(joined[:whole].reshape(-1, HOP) ** 2, axis=1))
        self._odd = joined[whole:]

    def _run(self, gain: float, *, final: bool) -> None:
        """Advance the open partials over the frames there are (whole BLOCKs unless `final`),
        first re-running them from their starts when `gain` moved by more than GAIN_STEP_DB."""
        if abs(gain - self._gain) > GAIN_STEP_DB:
            self._done = self._starts[0] if self._starts else self._done
            self._starts = []
            self._state = zero_state(0, HIDDEN, LAYERS)
            self._gain = gain
        scale = np.float32(10 ** (self._gain / 10))  # power: the square of the amplitude's gain
        while self._done < len(self._frames):
            if self._done % PARTIAL_STEP == 0 and self._done not in self._starts:
                self._open()
            boundary = min(
                (self._done // PARTIAL_STEP + 1) * PARTIAL_STEP, self._starts[0] + PARTIAL, len(self._frames)
            )
            take = min(BLOCK, boundary - self._done)
            if not final and take < BLOCK and boundary == len(self._frames):
                return  # wait for a whole block
            block = self._frames[self._done : self._done + take] * scale
            rows = len(self._starts)
            self._state = advance(
                self._weights, np.ascontiguousarray(np.broadcast_to(block, (rows, *block.shape))), self._state
            )
            self._done += take
            if self._starts[0] + PARTIAL == self._done:
                self._emit()

    def _emit(self) -> None:
        """The oldest open partial is complete: its embedding at its own gain (the level of the
        audio up to its end), run again at that gain when the one it ran at is off by more than
        GAIN_STEP_DB; then it is closed."""
        start = self._starts.pop(0)
        own = self.gain(until=start + PARTIAL)
        if abs(own - self._gain) > GAIN_STEP_DB:
            frames = self._frames[None, start : start + PARTIAL] * np.float32(10 ** (own / 10))
            self._finished[start] = embed_partials(self._weights, frames)[0]
        else:
            self._finished[start] = _embedding(self._weights, [(h[:1], c[:1]) for h, c in self._state])[0]
        self._state = [(h[1:], c[1:]) for h, c in self._state]

    def _open(self) -> None:
        self._state = with_new_row(self._state)
        self._starts.append(self._done)
