"""Other speaker embedders against the current d-vector (issue 28), on the voice pool
(bench/voice_pool.py: 52 voices recorded from people, sessions enrol / sentence / command / room_*).
A benchmark, not a test: nothing here asserts.

    scripts/voice-pool bench/embedder_compare.py [--portable] [--cost-clips 24] [--fusion]
        [--results bench/results/embedder_compare.json]

Embedders:
- dvector: the integration's own (custom_components/memory/voice, `load_encoder`): open-voicefilter-
  lite's LSTM; onnxruntime where it imports (the portable numpy path agrees within cosine 0.998,
  tests/voice), the numpy path with --portable.
- resemblyzer: Resemblyzer 0.1.4's GE2E encoder (PyPI wheel, Apache-2.0, `resemblyzer/pretrained.pt`:
  3-layer LSTM 256 on 40 mel power bands, 1.6-s partials at 1.3 per second, ReLU, L2), evaluated here
  in numpy from the weights in the wheel (read without torch by scripts/ge2e_weights.py; this
  whole-clip reference, checked against the package itself, is what tests/voice/test_ge2e.py holds
  the integration's streaming GE2E to). The package's
  recipe (`preprocess_wav`, `embed_utterance`) except webrtcvad's trimming of long silences (no
  webrtcvad here; the pool's clips hold no long pauses). The wheel is fetched once with
  `pip download --no-deps resemblyzer==0.1.4` into ~/.cache/household-memory/embedders.

Metric, per test session (sentence, command, room_sentence, room_command) on the held-out half of
`voice_pool.split` (and on all voices): each voice's print is the mean of its 3 `enrol` vectors (also
of its 3 `room_enrol` vectors for the room sessions); every test clip is scored by cosine against
every print of that half: same voice = genuine, other voice = impostor; the equal error rate (EER) is
where false accepts equal false rejects. The integration's gate stands in front of every embedder: a
clip the d-vector gives no vector (too little speech for its voice activity detector) has no vector
for any embedder, so a voice with such an enrolment clip is not enrolled (its clips are impostor
trials only), and such a test clip is a false reject at every threshold (Resemblyzer without the gate
is reported too). 90 % intervals of the EER difference: 2000 bootstrap draws of the
half's voices. Cost: CPU seconds per second of audio to embed whole clips (BLAS on one thread, as the
integration runs it), median over --cost-clips clips.

--fusion: score fusion instead (`fusion`): per trial w * cosine_dvector + (1 - w) *
cosine_resemblyzer, also with each embedder's scores z-normalised by the mean and standard deviation
of its impostor scores on the tuning half; w in 0, 0.1, ..., 1 chosen on the tuning half (lowest mean
EER over the four test sessions with enrol prints); EER and the false-reject rate where the
false-accept rate is 1 % (pooled trials of a session), per half, with 90 % bootstrap intervals of
fusion minus d-vector on the held-out half (the same draws). Saved under "fusion" in --results, the
file's other keys kept.

Vectors are cached per embedder in ~/.cache/household-memory/embedders/<name>.npz (by the sha256 of
the clip's audio).
Saves --results (JSON).
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(REPO))

from scripts import ge2e_weights  # noqa: E402  (the wheel and its reader: no torch)

CACHE = ge2e_weights.CACHE  # the wheel and the vectors

SAMPLE_RATE = 16000
TEST_SESSIONS = ("sentence", "command", "room_sentence", "room_command")
BOOTSTRAP_DRAWS = 2000
FA_TARGET = 0.01  # false-accept rate for the false-reject rate reported with --fusion
FUSION_WEIGHTS = tuple(k / 10 for k in range(11))  # w of the d-vector's score (--fusion)

# --- Resemblyzer's GE2E encoder in numpy (its hparams.py, audio.py, voice_encoder.py) -----------

R_N_FFT = 400  # 25-ms window (mel_window_length)
R_HOP = 160  # 10 ms (mel_window_step)
R_N_MELS = 40
R_PARTIAL = 160  # frames per partial utterance (1.6 s)
R_RATE = 1.3  # partials per second (embed_utterance's default)
R_MIN_COVERAGE = 0.75  # a last partial at least this full is kept (zero-padded)
R_TARGET_DBFS = -30.0  # audio_norm_target_dBFS, increase only
R_HIDDEN = 256
R_LAYERS = 3


@dataclass(frozen=True, slots=True)
class GE2E:
    """Resemblyzer's weights, float32, transposed for x @ w: w_ih [in, 4H], w_hh [H, 4H], b [4H]
    (both biases), gates in torch order (input, forget, cell, output); linear [H, 256]; the mel
    filterbank [201, 40] and the periodic Hann window [400]; source: wheel file and sha256."""

    w_ih: tuple[np.ndarray, ...]
    w_hh: tuple[np.ndarray, ...]
    b: tuple[np.ndarray, ...]
    linear: np.ndarray
    linear_bias: np.ndarray
    mel: np.ndarray
    window: np.ndarray
    source: str

    @classmethod
    def from_wheel(cls, wheel: Path) -> GE2E:
        """Read by scripts/ge2e_weights.py (the wheel's tensors in torch's layout, no torch)."""
        state, source = ge2e_weights.model_state(wheel)
        return cls(
            w_ih=tuple(state[f"lstm.weight_ih_l{k}"].T.copy() for k in range(R_LAYERS)),
            w_hh=tuple(state[f"lstm.weight_hh_l{k}"].T.copy() for k in range(R_LAYERS)),
            b=tuple(state[f"lstm.bias_ih_l{k}"] + state[f"lstm.bias_hh_l{k}"] for k in range(R_LAYERS)),
            linear=state["linear.weight"].T.copy(),
            linear_bias=state["linear.bias"],
            mel=ge2e_weights.slaney_mel(SAMPLE_RATE, R_N_FFT, R_N_MELS).T.astype(np.float32),
            window=(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(R_N_FFT) / R_N_FFT)).astype(np.float32),
            source=source,
        )


def ge2e_mel(weights: GE2E, wav: np.ndarray) -> np.ndarray:
    """librosa.feature.melspectrogram(y=wav, sr=16000, n_fft=400, hop_length=160, n_mels=40) (power,
    centred frames, zero padding), transposed: float32 [1 + len // 160, 40]. Not a log."""
    padded = np.pad(wav, R_N_FFT // 2)
    count = 1 + (len(padded) - R_N_FFT) // R_HOP
    index = np.arange(R_N_FFT)[None, :] + R_HOP * np.arange(count)[:, None]
    power = np.abs(np.fft.rfft(padded[index] * weights.window, axis=1)) ** 2
    return np.asarray(power.astype(np.float32) @ weights.mel, np.float32)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def ge2e_partials(weights: GE2E, mels: np.ndarray) -> np.ndarray:
    """VoiceEncoder.forward: mels float32 [n, T, 40] -> L2-normalised embeddings [n, 256]."""
    rows, steps, _ = mels.shape
    x = mels
    for layer in range(R_LAYERS):
        projected = (x.reshape(rows * steps, -1) @ weights.w_ih[layer] + weights.b[layer]).reshape(
            rows, steps, -1
        )
        h = np.zeros((rows, R_HIDDEN), np.float32)
        c = np.zeros((rows, R_HIDDEN), np.float32)
        outputs = np.empty((rows, steps, R_HIDDEN), np.float32)
        w_hh = weights.w_hh[layer]
        for t in range(steps):
            gates = projected[:, t] + h @ w_hh
            i, f, g, o = np.split(gates, 4, axis=1)
            c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
            h = _sigmoid(o) * np.tanh(c)
            outputs[:, t] = h
        x = outputs
    raw = np.maximum(h @ weights.linear + weights.linear_bias, 0.0)
    return np.asarray(raw / (np.linalg.norm(raw, axis=1, keepdims=True) + 1e-12), np.float32)


def ge2e_slices(n_samples: int) -> list[tuple[int, int]]:
    """VoiceEncoder.compute_partial_slices(n_samples, 1.3, 0.75): (start, stop) frame ranges."""
    n_frames = int(np.ceil((n_samples + 1) / R_HOP))
    frame_step = round((SAMPLE_RATE / R_RATE) / R_HOP)
    starts = range(0, max(1, n_frames - R_PARTIAL + frame_step + 1), frame_step)
    slices = [(i, i + R_PARTIAL) for i in starts]
    coverage = (n_samples - slices[-1][0] * R_HOP) / (R_PARTIAL * R_HOP)
    if coverage < R_MIN_COVERAGE and len(slices) > 1:
        slices = slices[:-1]
    return slices


def ge2e_embed(weights: GE2E, pcm: bytes) -> np.ndarray:
    """Resemblyzer's embed_utterance(preprocess_wav(wav)) without the silence trimming: float32 [256]."""
    wav = np.frombuffer(pcm[: len(pcm) - len(pcm) % 2], "<i2").astype(np.float32) / 32768.0
    rms = float(np.sqrt(np.mean((wav * 32767.0) ** 2))) if len(wav) else 0.0
    if rms > 0:
        change = R_TARGET_DBFS - 20 * np.log10(rms / 32767.0)
        if change > 0:  # increase only
            wav = (wav * 10 ** (change / 20)).astype(np.float32)
    slices = ge2e_slices(len(wav))
    stop = slices[-1][1] * R_HOP
    if stop >= len(wav):
        wav = np.pad(wav, (0, stop - len(wav)))
    mel = ge2e_mel(weights, wav)
    partials = ge2e_partials(weights, np.stack([mel[a:b] for a, b in slices]))
    mean = partials.mean(axis=0)
    return np.asarray(mean / np.linalg.norm(mean), np.float32)


# --- The comparison ------------------------------------------------------------------------------


def eer(genuine: np.ndarray, impostor: np.ndarray) -> float:
    """Equal error rate: where the false-reject rate (genuine < t) meets the false-accept rate
    (impostor >= t), over every threshold; NaN scores are genuine clips without a vector (rejected)."""
    genuine = np.where(np.isnan(genuine), -np.inf, genuine)
    thresholds = np.unique(np.concatenate([genuine[np.isfinite(genuine)], impostor]))
    g = np.sort(genuine)
    i = np.sort(impostor)
    fr = np.searchsorted(g, thresholds, side="left") / len(g)
    fa = 1.0 - np.searchsorted(i, thresholds, side="left") / len(i)
    k = int(np.argmin(np.abs(fr - fa)))
    return float((fr[k] + fa[k]) / 2)


def scores(
    vectors: dict[tuple[str, str, int], np.ndarray | None],
    voices: Sequence[str],
    test: str,
    enrol: str,
    gate: set[tuple[str, str, int]],
) -> tuple[list[tuple[str, str, float]], int, int]:
    """(voice of clip, voice of print, cosine) for every test clip of `test` against every print of
    `voices`. A voice is enrolled (has a print: the mean of its `enrol` vectors) when all its enrol
    clips give a vector (the integration refuses a clip with too little speech); a clip in `gate`
    counts as giving none. A test clip without a vector is a genuine trial at NaN (a false reject)
    and no impostor trial (nothing is accepted). Plus: test clips without a vector, voices enrolled."""

    def vector(key: tuple[str, str, int]) -> np.ndarray | None:
        return None if key in gate else vectors[key]

    prints = {}
    for voice in voices:
        enrolled = [vector(k) for k in vectors if k[0] == voice and k[1] == enrol]
        if all(v is not None for v in enrolled):
            mean = np.mean(enrolled, axis=0)
            prints[voice] = mean / np.linalg.norm(mean)
    out: list[tuple[str, str, float]] = []
    missing = 0
    for key in vectors:
        voice, session, _ = key
        if session != test or voice not in voices:
            continue
        v = vector(key)
        missing += v is None
        for other, p in prints.items():
            if v is not None:
                out.append((voice, other, float(v @ p)))
            elif other == voice:
                out.append((voice, other, float("nan")))
    return out, missing, len(prints)


def fr_at_fa(genuine: np.ndarray, impostor: np.ndarray, target: float = FA_TARGET) -> float:
    """False-reject rate at the lowest threshold (over every score) whose false-accept rate is at
    most `target`, counted as in `eer` (NaN genuine scores are rejected)."""
    genuine = np.where(np.isnan(genuine), -np.inf, genuine)
    thresholds = np.append(np.unique(np.concatenate([genuine[np.isfinite(genuine)], impostor])), np.inf)
    fa = 1.0 - np.searchsorted(np.sort(impostor), thresholds, side="left") / len(impostor)
    threshold = thresholds[int(np.argmax(fa <= target))]  # fa falls as the threshold rises
    return float(np.mean(genuine < threshold))


def trials(
    rows: list[tuple[str, str, float]], voices: Sequence[str] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """(genuine, impostor) scores of `rows` restricted to clips and prints of `voices` (a bootstrap
    draw may repeat voices: each repeat counts again); impostor trials without a vector dropped."""
    a = np.array([r[0] for r in rows])
    b = np.array([r[1] for r in rows])
    s = np.array([r[2] for r in rows], float)
    same = a == b
    if voices is None:
        return s[same], s[~same & ~np.isnan(s)]
    weight = collections.Counter(voices)
    wa = np.array([weight[v] for v in a], int)
    wb = np.array([weight[v] for v in b], int)
    impostor = ~same & ~np.isnan(s)
    return np.repeat(s[same], wa[same]), np.repeat(s[impostor], (wa * wb)[impostor])


def eer_of(rows: list[tuple[str, str, float]], voices: Sequence[str] | None = None) -> float:
    """EER of `rows` restricted to clips and prints of `voices` (`trials`)."""
    return eer(*trials(rows, voices))


def interval_90(diffs: Sequence[float]) -> list[float]:
    """The 90 % interval of bootstrap differences (5th and 95th percentile draws)."""
    ordered = sorted(diffs)
    return [ordered[int(0.05 * len(ordered))], ordered[int(0.95 * len(ordered)) - 1]]


def fused(
    rows_a: list[tuple[str, str, float]],
    rows_b: list[tuple[str, str, float]],
    w: float,
    norms: Sequence[tuple[float, float]] = ((0.0, 1.0), (0.0, 1.0)),
) -> list[tuple[str, str, float]]:
    """Score fusion of two embedders' `scores` rows for the same trials (same gate, same order):
    w * (a - mean_a) / std_a + (1 - w) * (b - mean_b) / std_b; NaN (no vector) stays NaN."""
    (mean_a, std_a), (mean_b, std_b) = norms
    out = []
    for (voice, other, a), (voice_b, other_b, b) in zip(rows_a, rows_b, strict=True):
        if (voice, other, np.isnan(a)) != (voice_b, other_b, np.isnan(b)):
            raise ValueError(f"unpaired trials: {voice}/{other} against {voice_b}/{other_b}")
        out.append((voice, other, w * (a - mean_a) / std_a + (1 - w) * (b - mean_b) / std_b))
    return out


def fusion(
    vectors: Sequence[dict[tuple[str, str, int], np.ndarray | None]],
    gate: set[tuple[str, str, int]],
    halves: dict[str, Sequence[str]],
    conditions: Sequence[tuple[str, str]],
    draws: Sequence[Sequence[str]],
) -> dict[str, Any]:
    """Score fusion of the d-vector (vectors[0]) and Resemblyzer (vectors[1]), raw and z-normalised
    (each embedder's scores less the mean, over the standard deviation, of its impostor scores on the
    tuning half, pooled over the first len(TEST_SESSIONS) conditions). w (FUSION_WEIGHTS) is chosen
    on the tuning half: the lowest mean false-reject rate at FA_TARGET over those conditions (a tie:
    the larger w; before 2026-12-07: the lowest mean EER). Per
    condition and half: EER and the false-reject rate at FA_TARGET of each embedder and of the
    fusion; on the held-out half, 90 % bootstrap intervals (`draws`) of fusion minus d-vector."""
    labels = [f"{test} / {enrol}" for test, enrol in conditions]
    select = labels[: len(TEST_SESSIONS)]
    rows = {
        half: {
            f"{test} / {enrol}": [scores(v, voices, test, enrol, gate)[0] for v in vectors]
            for test, enrol in conditions
        }
        for half, voices in halves.items()
    }
    impostors = [np.concatenate([trials(rows["tuning"][label][k])[1] for label in select]) for k in (0, 1)]
    modes = {
        "raw": ((0.0, 1.0), (0.0, 1.0)),
        "znorm": tuple((float(np.mean(i)), float(np.std(i))) for i in impostors),
    }
    out: dict[str, Any] = {
        "fused": "w * dvector + (1 - w) * resemblyzer (cosines; znorm: each (cosine - mean) / std)",
        "w_chosen_on": f"tuning half, lowest mean false-reject rate at FA_TARGET over {', '.join(select)}",
        "fa_target": FA_TARGET,
        "bootstrap_draws": len(draws),
    }
    for mode, norms in modes.items():

        def fuse(pair: list[list[tuple[str, str, float]]], w: float, norms: Any = norms) -> Any:
            return fused(pair[0], pair[1], w, norms)

        by_w = {
            half: {
                w: statistics.mean(fr_at_fa(*trials(fuse(rows[half][label], w))) for label in select)
                for w in FUSION_WEIGHTS
            }
            for half in halves
        }
        w = min(FUSION_WEIGHTS, key=lambda x: (by_w["tuning"][x], -x))
        entry: dict[str, Any] = {
            "norms": {"dvector": norms[0], "resemblyzer": norms[1]},
            "mean_fr_at_fa_by_w": {half: {f"{x:.1f}": e for x, e in by_w[half].items()} for half in halves},
            "w": w,
            "conditions": {},
        }
        for label in labels:
            condition: dict[str, Any] = {}
            for half in halves:
                pair = rows[half][label]
                condition[half] = {}
                for name, r in (("dvector", pair[0]), ("resemblyzer", pair[1]), ("fusion", fuse(pair, w))):
                    genuine, impostor = trials(r)
                    condition[half][name] = {
                        "eer": eer(genuine, impostor),
                        "fr_at_fa": fr_at_fa(genuine, impostor),
                    }
            pair = rows["held_out"][label]
            fusion_rows = fuse(pair, w)
            diffs: dict[str, list[float]] = {"eer": [], "fr_at_fa": []}
            for draw in draws:
                base, fused_trials = trials(pair[0], draw), trials(fusion_rows, draw)
                diffs["eer"].append(eer(*fused_trials) - eer(*base))
                diffs["fr_at_fa"].append(fr_at_fa(*fused_trials) - fr_at_fa(*base))
            condition["held_out_fusion_minus_dvector_90"] = {k: interval_90(v) for k, v in diffs.items()}
            entry["conditions"][label] = condition
            print(f"fusion {mode} w={w:.1f} {label:28s} " + json.dumps(condition), flush=True)
        out[mode] = entry
    return out


def embed_all(name: str, embed: Callable[[bytes], np.ndarray | None], clips: Sequence[Any]) -> dict[str, Any]:
    """{clip key: vector or None}; vectors cached in CACHE/<name>.npz by the sha256 of the clip's
    audio (a pool whose rooms or voices change gets new vectors)."""
    path = CACHE / f"{name}.npz"
    cached: dict[str, Any] = {}
    if path.exists():
        with np.load(path, allow_pickle=False) as z:
            digests = [str(k) for k in z["keys"]]
            cached = {
                k: (None if np.isnan(v).all() else v) for k, v in zip(digests, z["vectors"], strict=True)
            }
    digest = {c.key: hashlib.sha256(c.pcm()).hexdigest() for c in clips}
    todo = [c for c in clips if digest[c.key] not in cached]
    start = time.perf_counter()
    for n, clip in enumerate(todo, 1):
        cached[digest[clip.key]] = embed(clip.pcm())
        if n % 100 == 0:
            print(
                f"  {name}: {n}/{len(todo)} in {time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    if todo:
        CACHE.mkdir(parents=True, exist_ok=True)
        dim = next(len(v) for v in cached.values() if v is not None)
        keys = sorted(cached)
        vectors = np.stack(
            [cached[k] if cached[k] is not None else np.full(dim, np.nan, np.float32) for k in keys]
        )
        np.savez(path, keys=np.array(keys), vectors=vectors)
    return {c.key: cached[digest[c.key]] for c in clips}


def cost(embed: Callable[[bytes], Any], clips: Sequence[Any]) -> dict[str, float]:
    """CPU and wall seconds per second of audio (median over clips, after one warm-up)."""
    embed(clips[0].pcm())
    cpu, wall = [], []
    for clip in clips:
        pcm = clip.pcm()
        seconds = len(pcm) / 2 / SAMPLE_RATE
        c0, w0 = time.process_time(), time.perf_counter()
        embed(pcm)
        cpu.append((time.process_time() - c0) / seconds)
        wall.append((time.perf_counter() - w0) / seconds)
    return {"cpu_s_per_audio_s": statistics.median(cpu), "wall_s_per_audio_s": statistics.median(wall)}


def fuse_legs(form: str, results: Path) -> None:
    """`fusion` of the recogniser's d-vector and GE2E legs as the product computes them (each clip
    in `form` through Encoder.embed, the legs of its fused vector; voice_ident's cache), the
    product's gate in front (no vector: no speech); saved under "fusion-<form>" in `results`."""
    sys.path.insert(0, str(BENCH))
    import runinfo  # noqa: PLC0415
    import voice_ident  # noqa: PLC0415  (sets up the voice core without Home Assistant)
    import voice_pool  # noqa: PLC0415

    from custom_components.memory.voice import fusion as layout  # noqa: PLC0415

    clips = voice_pool.pool()
    voices = [v for v, _ in voice_pool.VOICES if v not in voice_ident.SAME_SPEAKER]
    tuning, held_out = voice_pool.split(voices)
    utterances = voice_ident.embedded(clips, form)
    vectors: list[dict[tuple[str, str, int], np.ndarray | None]] = [{}, {}]
    for clip in clips:
        vector = utterances[clip.key].vector
        for leg, part in enumerate(layout.legs(vector) if vector is not None else (None, None)):
            vectors[leg][(clip.voice, clip.session, clip.index)] = (
                None if part is None else part / np.linalg.norm(part)
            )
    gate = {k for k, v in vectors[0].items() if v is None}
    conditions = [(t, "enrol") for t in TEST_SESSIONS] + [(t, "room_enrol") for t in TEST_SESSIONS[2:]]
    rng = random.Random(28)
    draws = [[rng.choice(held_out) for _ in held_out] for _ in range(BOOTSTRAP_DRAWS)]
    kept = json.loads(results.read_text(encoding="utf-8")) if results.exists() else {}
    kept[f"fusion-{form}"] = {
        **runinfo.run_info(),
        "command": f"scripts/voice-pool bench/embedder_compare.py --legs {form}",
        "dvector_weight_shipped": layout.DVECTOR_WEIGHT,
        **fusion(vectors, gate, {"tuning": tuning, "held_out": held_out}, conditions, draws),
    }
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--portable", action="store_true", help="the d-vector's numpy path (default: onnxruntime)"
    )
    parser.add_argument("--cost-clips", type=int, default=24)
    parser.add_argument(
        "--fusion",
        action="store_true",
        help="score fusion of the two embedders (only: no cost, no per-embedder table), saved under"
        ' "fusion" in --results, whose other keys are kept',
    )
    parser.add_argument(
        "--legs",
        metavar="FORM",
        help="--fusion of the recogniser's own two legs (voice/fusion.py), the pool's clips in FORM"
        ' (voice_pool.FORMS; embedded and cached by bench/voice_ident.py), saved under "fusion-FORM"',
    )
    parser.add_argument("--results", type=Path, default=BENCH / "results" / "embedder_compare.json")
    args = parser.parse_args()
    if args.legs:
        fuse_legs(args.legs, args.results)
        return

    sys.path.insert(0, str(BENCH))
    sys.path.insert(0, str(REPO))
    import engine_import  # noqa: PLC0415
    import runinfo  # noqa: PLC0415

    engine_import.install()  # the voice core without Home Assistant
    import voice_pool  # noqa: PLC0415
    from threadpoolctl import threadpool_limits  # noqa: PLC0415

    from custom_components.memory.voice import load_encoder  # noqa: PLC0415

    encoder = load_encoder(prefer_onnx=not args.portable)
    ge2e = GE2E.from_wheel(ge2e_weights.resemblyzer_wheel())

    def dvector(pcm: bytes) -> np.ndarray | None:
        stream = encoder.dvector_stream()  # the recogniser's d-vector leg alone
        stream.feed(pcm)
        return stream.finish().vector

    def resemblyzer(pcm: bytes) -> np.ndarray:
        with threadpool_limits(limits=1, user_api="blas"):
            return ge2e_embed(ge2e, pcm)

    embedders: dict[str, Callable[[bytes], np.ndarray | None]] = {
        f"dvector-{encoder.name}": dvector,
        "resemblyzer": resemblyzer,
    }
    clips = voice_pool.pool()
    voices = sorted({c.voice for c in clips})
    tuning, held_out = voice_pool.split(voices)
    rng = random.Random(28)
    cost_clips = rng.sample([c for c in clips if c.session in TEST_SESSIONS], args.cost_clips)

    results: dict[str, Any] = {
        **runinfo.run_info(),
        "command": "scripts/voice-pool bench/embedder_compare.py" + (" --portable" if args.portable else ""),
        "voices": len(voices),
        "held_out": held_out,
        "resemblyzer_source": ge2e.source,
        "embedders": {},
    }
    per_clip: dict[str, dict[tuple[str, str, int], np.ndarray | None]] = {}
    for name, embed in embedders.items():
        print(f"{name}: embedding {len(clips)} clips", file=sys.stderr, flush=True)
        by_key = embed_all(name, embed, clips)
        per_clip[name] = {(c.voice, c.session, c.index): by_key[c.key] for c in clips}
        if not args.fusion:
            results["embedders"][name] = {"cost": cost(embed, cost_clips), "eer": {}}

    conditions = [(t, "enrol") for t in TEST_SESSIONS] + [(t, "room_enrol") for t in TEST_SESSIONS[2:]]
    draws = [[rng.choice(held_out) for _ in held_out] for _ in range(BOOTSTRAP_DRAWS)]
    base = f"dvector-{encoder.name}"
    # The d-vector's clips without a vector (too little speech heard by the integration's voice
    # activity detector) count as without a vector for every embedder: the same gate would stand
    # in front of any of them. Resemblyzer without it is also reported.
    gate = {k for k, v in per_clip[base].items() if v is None}
    if args.fusion:
        kept = json.loads(args.results.read_text(encoding="utf-8")) if args.results.exists() else {}
        halves = {"tuning": tuning, "held_out": held_out}
        vectors = [per_clip[base], per_clip["resemblyzer"]]
        kept["fusion"] = {
            **runinfo.run_info(),
            "command": "scripts/voice-pool bench/embedder_compare.py --fusion"
            + (" --portable" if args.portable else ""),
            **fusion(vectors, gate, halves, conditions, draws),
        }
        args.results.parent.mkdir(parents=True, exist_ok=True)
        args.results.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
        return
    for test, enrol in conditions:
        label = f"{test} / {enrol}"
        rows_base: list[tuple[str, str, float]] = []
        for name in embedders:
            rows, missing, enrolled = scores(per_clip[name], held_out, test, enrol, gate)
            entry: dict[str, Any] = {
                "held_out": eer_of(rows),
                "all": eer_of(scores(per_clip[name], voices, test, enrol, gate)[0]),
                "tuning": eer_of(scores(per_clip[name], tuning, test, enrol, gate)[0]),
                "no_vector": missing,
                "enrolled": enrolled,
                "genuine": sum(a == b for a, b, _ in rows),
                "impostor": sum(a != b for a, b, _ in rows),
            }
            if name == base:
                rows_base = rows
            else:
                entry["held_out_ungated"] = eer_of(scores(per_clip[name], held_out, test, enrol, set())[0])
                entry["minus_base_90"] = interval_90([eer_of(rows, d) - eer_of(rows_base, d) for d in draws])
            results["embedders"][name]["eer"][label] = entry
            print(f"{label:34s} {name:22s} " + json.dumps(entry), flush=True)
    if encoder.name != "portable":  # the path every install type has, for its cost alone
        portable = load_encoder(prefer_onnx=False)
        results["dvector_portable_cost"] = cost(lambda pcm: portable.embed(pcm).vector, cost_clips)
        print("dvector-portable", results["dvector_portable_cost"], flush=True)
    for name in embedders:
        print(name, results["embedders"][name]["cost"], flush=True)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
