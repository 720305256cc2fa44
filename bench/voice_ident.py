"""Who spoke, on voices recorded from real speakers (issue 28): the thresholds chosen on half of the
pool and the rates on the other half, by condition, through the product's own rule. A benchmark,
not a test: nothing here asserts.

    scripts/voice-pool bench/voice_ident.py [--draws 1000] [--choose] [--results bench/results/voice.json]

- Pool: bench/voice_pool.py (52 voices; MBROLA, flite's CMU ARCTIC, Festival). Festival's rab, pc
  and lp diphones are cut from the same speakers' recordings as MBROLA's en1, it3 and it4 (each
  pair scores as one voice) and are left out: SAME_SPEAKER. A voice none of whose enrolment clips
  has speech for the detector cannot enrol; it stays in the pool as a stranger.
- Embedding: the onnxruntime path (the portable one agrees within cosine 0.998, tests/voice), each
  clip whole through `Encoder.embed` (the same EmbeddingStream a pipeline feeds: VAD, paused windows
  left out, the utterance's speech seconds and level over its noise floor).
- Households: --draws random draws of 2-5 enrolled voices of a half; every other voice of that half
  is a stranger. A member's clip is a false reject when not recognised as them (no vector counts);
  a stranger's clip accepted as anyone is a false accept; a member taken for another member too.
- Rule: voice.matching.identify_utterance with the product's constants (threshold_for by speech
  seconds and noise, MARGIN, STRICT_LIFT). `--choose` searches the constants on the tuning half
  (strangers <= 0.6 %, member as another <= 0.1 %, then the fewest false rejects; quiet values on the
  quiet sessions, noisy values on the room sessions; STRICT_LIFT: the lowest with strangers <= 0.1 %
  on quiet sentences) and prints them; they are copied into matching.py by hand.
- Before: the rule of issue 14 (one threshold 0.87, margin 0.06, strict 0.91) on the same trials.
- espeak-ng: the distinct voices of bench/voice.py `ident` (its results name the 16 dropped as the
  same speaker twice; near-twin synthetic voices, the worst case for strangers), split the same way: its tuning half bounds the quiet thresholds while choosing
  (strangers <= ESPEAK_FA), its held-out half is reported.

Saves its part as "human" in bench/results/voice.json and re-renders docs/benchmarks.md.

    scripts/voice-pool bench/voice_ident.py --cut [trimmed stream padded] [--draws 300]

- The cut (saved as "human_cut", nothing re-rendered): the level marks (matching.QUIET_DB,
  NOISY_DB) from the tuning half's clips in every form (choose_marks), and per form
  (voice_pool.FORMS: trimmed as a satellite's VAD may cut, in a pipeline's stream, padded) and half
  the median level and threshold and the rates at today's thresholds, with the level rule before
  (level_before: 95th against 10th percentile of the whole audio, marks 33 / 24 dB) and now; and
  the share of clips whose threshold moves between the forms.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import pickle
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import engine_import  # noqa: E402

engine_import.install()

import report  # noqa: E402
import runinfo  # noqa: E402
import voice_pool  # noqa: E402

from custom_components.memory.voice import MODEL_IDENTITY, Utterance, fusion, load_encoder, matching, stream  # noqa: E402
from custom_components.memory.voice.features import LogMel, pcm_to_float  # noqa: E402
from custom_components.memory.voice.network import load_front_end  # noqa: E402

CACHE = Path.home() / ".cache" / "household-memory-bench" / "voice"
SAME_SPEAKER = {
    "festival:rab_diphone": "mb-en1",
    "festival:pc_diphone": "mb-it3",
    "festival:lp_diphone": "mb-it4",
}
TESTS = ("sentence", "command", "room_sentence", "room_command")
QUIET, NOISY = ("sentence", "command"), ("room_sentence", "room_command")
BEFORE = {"threshold": 0.87, "margin": 0.06, "strict": 0.91}
# The d-vector's rule before the fusion (issue 28's values), for runs without --choose.
DVECTOR_RULE = {"QUIET_LONG": 0.90, "QUIET_SHORT": 0.82, "NOISY_LONG": 0.70, "NOISY_SHORT": 0.72,
                "MARGIN": 0.03, "STRICT_LIFT": 0.0}  # fmt: skip
ESPEAK_FA = 0.045  # strangers accepted among espeak-ng's near-twins while choosing (target <= 5 %)
FA_STRANGER, FA_MEMBER = 0.01, 0.001  # while choosing: strangers, a member taken for another member
# How the clips reach the recogniser while choosing and reporting (voice_pool.FORMS): in a
# pipeline's stream, and cut close by a satellite's VAD.
FORMS = ("stream", "trimmed")
# The recogniser (the fused embedding) and its d-vector leg alone (the recogniser before the fusion),
# each with its own thresholds chosen the same way on the same trials.
LEGS = ("fused", "dvector")
RULE_KEYS = ("QUIET_LONG", "QUIET_SHORT", "NOISY_LONG", "NOISY_SHORT", "MARGIN", "STRICT_LIFT")


def _energy(front_end: Any, pcm: bytes) -> np.ndarray:
    """log10 power per 10-ms frame, as the stream measures it (EmbeddingStream.feed)."""
    frames = LogMel(front_end.window, front_end.mel).feed(pcm_to_float(pcm))
    return np.log10(np.power(10.0, frames).sum(axis=1)).astype(np.float32)


def embedded(clips: Sequence[Any], form: str = "synth", *, halves: bool = False,
             level: Callable[[np.ndarray], float] | None = None) -> dict[str, Utterance]:  # fmt: skip
    """Each clip's Utterance in `form` (voice_pool.FORMS; onnxruntime path), cached on disk by clip,
    form and model: the vector and speech seconds as the encoder gave them, the level over the noise
    floor re-measured from the cached frame energies by `level` (default: the current
    stream.level_over_floor, so a change of that rule needs no new embedding). halves: the clip's
    two halves as enrolment splits it instead (keys `key|0`, `key|1`). A clip is anything with a
    `key` and `pcm(form)`."""
    path = CACHE / f"pool-{form}{'-halves' if halves else ''}-{MODEL_IDENTITY.replace('/', '_')}.pkl"
    cache: dict[str, tuple[Any, ...]] = pickle.loads(path.read_bytes()) if path.exists() else {}
    keys = [f"{c.key}|{i}" for c in clips for i in (0, 1)] if halves else [c.key for c in clips]
    missing = [c for c in clips if (f"{c.key}|0" if halves else c.key) not in cache]
    if missing:
        encoder = load_encoder(prefer_onnx=True)
        front_end = load_front_end()
        for n, clip in enumerate(missing):
            pcm = clip.pcm(form)
            middle = len(pcm) // 4 * 2  # as recognition._assess_clips splits a clip
            parts = (
                {f"{clip.key}|0": pcm[:middle], f"{clip.key}|1": pcm[middle:]} if halves else {clip.key: pcm}
            )
            for key, audio in parts.items():
                u = encoder.embed(audio)
                cache[key] = (u.vector, u.speech_seconds, u.seconds, u.windows, _energy(front_end, audio))
            if n % 200 == 0:
                print(f"embedded {form}{' halves' if halves else ''} {n}/{len(missing)}", flush=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pickle.dumps(cache))
    measure = level or stream.level_over_floor
    return {k: _utterance(*cache[k], level=measure) for k in keys}


def _utterance(vector: Any, speech: float, seconds: float, windows: int, energy: np.ndarray, *,
               level: Callable[[np.ndarray], float]) -> Utterance:  # fmt: skip
    return Utterance(vector, speech, seconds, windows, snr_db=level(energy),
                     active_seconds=stream.active_seconds(energy))  # fmt: skip


def espeak_pool() -> dict[str, tuple[list[Utterance], list[Utterance]]]:
    """bench/voice.py's espeak-ng voices: (3 enrolment, 5 test) Utterances each, cached."""
    path = CACHE / f"espeak-{MODEL_IDENTITY.replace('/', '_')}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    spec = importlib.util.spec_from_file_location("voice_bench", BENCH / "voice.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    encoder = load_encoder(prefer_onnx=True)
    out = {}
    for index, (voice, language) in enumerate(bench.voices()):
        enrol, tests = bench.clip_set(voice, language, index)
        out[voice] = ([encoder.embed(p) for p in enrol], [encoder.embed(p) for p in tests])
    path.write_bytes(pickle.dumps(out))
    return out


def unit(x: np.ndarray) -> np.ndarray:
    return np.asarray(x / (np.linalg.norm(x) + 1e-12), np.float32)


def as_leg(leg: str, utterance: Utterance) -> Utterance:
    """`utterance` as `leg` sees it: the fused vector, or its d-vector leg alone (unit)."""
    if leg == "fused" or utterance.vector is None:
        return utterance
    return dataclasses.replace(utterance, vector=unit(fusion.legs(utterance.vector)[0]))


def print_of(leg: str, vectors: Sequence[np.ndarray]) -> np.ndarray:
    """A voiceprint of `leg`'s vectors: the product's (matching.voiceprint), or the unit mean."""
    return matching.voiceprint(vectors) if leg == "fused" else unit(np.mean(np.stack(vectors), axis=0))


class Trials:
    """One half's test utterances against its enrollable voices' prints."""

    def __init__(
        self, prints: dict[str, np.ndarray], tests: list[tuple[str, Utterance]], voices: list[str]
    ) -> None:
        self.prints = prints
        self.tests = tests
        self.voices = voices  # every voice of the half (members are drawn from those with a print)

    def households(self, draws: int, seed: int) -> list[list[str]]:
        rng = np.random.default_rng(seed)
        enrolled = sorted(self.prints)
        return [list(rng.choice(enrolled, size=int(rng.integers(2, 6)), replace=False)) for _ in range(draws)]

    def rates(
        self, houses: list[list[str]], decide: Callable[[Utterance, dict[str, np.ndarray]], Any]
    ) -> dict[str, Any]:
        fa = fr = mm = strict_fa = strict_fr = members = strangers = 0
        for house in houses:
            prints = {v: self.prints[v] for v in house}
            for voice, utterance in self.tests:
                match = decide(utterance, prints)
                if voice in prints:
                    members += 1
                    fr += match.person_id != voice
                    mm += match.person_id not in (None, voice)
                    strict_fr += not (match.person_id == voice and match.strict)
                else:
                    strangers += 1
                    fa += match.person_id is not None
                    strict_fa += match.person_id is not None and match.strict
        return {"fa_stranger": fa / max(strangers, 1), "fa_member": mm / max(members, 1), "fr": fr / max(members, 1),
                "strict_fa": strict_fa / max(strangers, 1), "strict_fr": strict_fr / max(members, 1),
                "member_trials": members, "stranger_trials": strangers}  # fmt: skip

    def fast_rates(self, houses: list[list[str]]) -> tuple[float, float, float, float]:
        """(stranger FA, member-as-member FA, FR, strict stranger FA) of the product's rule
        (matching.identify_utterance at matching's constants), computed at once over every house:
        what `rates(houses, product)` counts (checked in `choose`)."""
        if not hasattr(self, "_scores"):
            names = sorted(self.prints)
            self._index = {v: i for i, v in enumerate(names)}
            vectors = [u.vector for _, u in self.tests]
            dim = len(next(v for v in vectors if v is not None))
            stacked = np.stack([v if v is not None else np.full(dim, np.nan, np.float32) for v in vectors])
            self._scores = stacked @ np.stack([self.prints[v] for v in names]).T  # [tests, voices]
            self._speaker = np.array([self._index.get(v, -1) for v, _ in self.tests])
            self._shape = np.array([(u.speech_seconds, u.snr_db) for _, u in self.tests])
        bars = np.array([matching.threshold_for(a, b) for a, b in self._shape])
        strict = np.maximum(bars, matching.QUIET_LONG) + matching.STRICT_LIFT
        fa = fr = mm = sfa = members = strangers = 0
        for house in houses:
            cols = np.array([self._index[v] for v in house])
            s = self._scores[:, cols]
            order = np.argsort(-np.nan_to_num(s, nan=-9.0), axis=1)
            best = np.take_along_axis(s, order[:, :1], axis=1)[:, 0]
            lead = best - np.take_along_axis(s, order[:, 1:2], axis=1)[:, 0]
            accepted = (best >= bars) & (lead >= matching.MARGIN)  # NaN (no vector): never
            who = cols[order[:, 0]]
            member = np.isin(self._speaker, cols)
            members += int(member.sum())
            strangers += int((~member).sum())
            fr += int((member & ~(accepted & (who == self._speaker))).sum())
            mm += int((member & accepted & (who != self._speaker)).sum())
            fa += int((~member & accepted).sum())
            sfa += int((~member & accepted & (best >= strict)).sum())
        return fa / max(strangers, 1), mm / max(members, 1), fr / max(members, 1), sfa / max(strangers, 1)


def product(utterance: Utterance, prints: dict[str, np.ndarray]) -> matching.VoiceMatch:
    return matching.identify_utterance(utterance, prints)


def before(utterance: Utterance, prints: dict[str, np.ndarray]) -> matching.VoiceMatch:
    """Issue 14's rule: one threshold whatever the utterance."""
    if utterance.vector is None:
        return matching.UNKNOWN
    match = matching.identify(utterance.vector, prints, threshold=BEFORE["threshold"], margin=BEFORE["margin"],
                              strict_lift=BEFORE["strict"] - BEFORE["threshold"])  # fmt: skip
    return match


def pool_trials(voices: list[str], utterances: dict[str, Utterance], clips: list[voice_pool.Clip],
                enrol: str = "enrol", leg: str = "fused") -> dict[str, Trials]:  # fmt: skip
    """Per test session: the half's prints (mean of the voice's enrolment clips with a vector) and
    tests, as `leg` sees them (as_leg, print_of)."""
    by: dict[tuple[str, str], list[Utterance]] = {}
    for clip in clips:
        by.setdefault((clip.voice, clip.session), []).append(as_leg(leg, utterances[clip.key]))
    prints = {}
    for v in voices:
        vectors = [u.vector for u in by[(v, enrol)] if u.vector is not None]
        if len(vectors) >= 2:
            prints[v] = print_of(leg, vectors)
    return {s: Trials(prints, [(v, u) for v in voices for u in by[(v, s)]], voices) for s in TESTS}


def choose(trials: dict[str, Trials], espeak: Trials, draws: int) -> dict[str, float]:
    """The rule's constants chosen on the tuning half (`trials` keyed "session@form", every form of
    FORMS; `espeak`: the espeak-ng tuning half): strangers <= FA_STRANGER and a member taken for
    another <= FA_MEMBER in every quiet (then noisy) session and form, the near-twins' strangers <=
    ESPEAK_FA (quiet values), then the fewest false rejects summed over them; STRICT_LIFT the lowest
    with strict stranger FA <= 0.1 % on the quiet sentences of every form. Sets them in matching
    while searching; returns them (matching itself is left as it was)."""
    houses = {k: t.households(draws, 1) for k, t in trials.items()}
    espeak_houses = espeak.households(draws, 1)
    quiet = [k for k in trials if k.split("@")[0] in QUIET]
    noisy = [k for k in trials if k.split("@")[0] in NOISY]
    key = quiet[0]  # the fast count is the product's rule: checked once here
    slow = trials[key].rates(houses[key], product)
    assert np.allclose(trials[key].fast_rates(houses[key])[:3],
                       (slow["fa_stranger"], slow["fa_member"], slow["fr"])), "fast_rates is not the rule"  # fmt: skip

    def score(keys: Sequence[str]) -> tuple[float, float, float]:
        rates = [trials[k].fast_rates(houses[k]) for k in keys]
        return max(r[0] for r in rates), max(r[1] for r in rates), sum(r[2] for r in rates)

    chosen: dict[str, float] = {}
    with marks_set({k: getattr(matching, k) for k in RULE_KEYS}):
        best: tuple[float, ...] | None = None
        for long_ in np.arange(0.70, 0.97, 0.01):
            for short in np.arange(long_ - 0.10, long_ + 0.03, 0.01):
                for margin in (0.02, 0.03, 0.05):
                    matching.QUIET_LONG, matching.QUIET_SHORT, matching.MARGIN = (
                        float(long_),
                        float(short),
                        margin,
                    )
                    fa, mm, fr = score(quiet)
                    if fa > FA_STRANGER or mm > FA_MEMBER or (best is not None and fr >= best[0]):
                        continue
                    if espeak.fast_rates(espeak_houses)[0] <= ESPEAK_FA:
                        best = (fr, float(long_), float(short), margin)
        assert best is not None, "no quiet thresholds meet the false-accept limits"
        matching.QUIET_LONG, matching.QUIET_SHORT, matching.MARGIN = best[1], best[2], best[3]
        chosen |= {"QUIET_LONG": best[1], "QUIET_SHORT": best[2], "MARGIN": best[3]}
        best = None
        for long_ in np.arange(0.55, 0.95, 0.01):
            for short in np.arange(long_ - 0.10, long_ + 0.05, 0.01):
                matching.NOISY_LONG, matching.NOISY_SHORT = float(long_), float(short)
                fa, mm, fr = score(noisy)
                if fa <= FA_STRANGER and mm <= FA_MEMBER and (best is None or fr < best[0]):
                    best = (fr, float(long_), float(short))
        assert best is not None, "no noisy thresholds meet the false-accept limits"
        chosen |= {"NOISY_LONG": best[1], "NOISY_SHORT": best[2]}
        matching.NOISY_LONG, matching.NOISY_SHORT = best[1], best[2]
        sentences = [k for k in quiet if k.startswith("sentence@")]
        for lift in np.arange(0.0, 0.15, 0.01):
            matching.STRICT_LIFT = float(lift)
            if max(trials[k].fast_rates(houses[k])[3] for k in sentences) <= 0.001:
                chosen["STRICT_LIFT"] = float(lift)
                break
    return {k: round(v, 2) for k, v in chosen.items()}


EQUAL_FA = (0.005, 0.01, 0.02)  # stranger rates at which the legs' false rejects are compared
SHIFTS = np.round(np.arange(-0.06, 0.1001, 0.005), 3)  # added to every threshold of a rule


def at_equal_fa(trials: dict[str, Trials], rule: dict[str, float], draws: int) -> dict[str, Any]:
    """Per trials key, the lowest false-reject rate whose stranger rate is at most each of EQUAL_FA,
    every threshold of `rule` shifted together by one of SHIFTS (margin and strict lift as chosen):
    the legs compared at equal false accepts on the same trials (held-out: not used for choosing)."""
    out: dict[str, Any] = {}
    for key, t in trials.items():
        houses = t.households(draws, 2)
        points = []
        for shift in SHIFTS:
            shifted = {k: v + (shift if k.endswith(("_LONG", "_SHORT")) else 0.0) for k, v in rule.items()}
            with marks_set(shifted):
                fa, _, fr, _ = t.fast_rates(houses)
            points.append((fa, fr))
        out[key] = {f"{target:g}": min((fr for fa, fr in points if fa <= target), default=None)
                    for target in EQUAL_FA}  # fmt: skip
    return out


def measure(draws: int, do_choose: bool) -> dict[str, Any]:
    """Per leg (LEGS): the rule (chosen on the tuning half with --choose; else the fused one is
    matching's and the d-vector's the one it had before the fusion, DVECTOR_RULE) and its rates per
    form and session on both halves, on clips enrolled in the same noise, on the espeak-ng twins."""
    clips = voice_pool.pool()
    voices = [v for v, _ in voice_pool.VOICES if v not in SAME_SPEAKER]
    tune, held = voice_pool.split(voices)
    utterances = {form: embedded(clips, form) for form in FORMS}
    espeak = espeak_pool()
    twins = json.loads((BENCH / "results" / "voice.json").read_text(encoding="utf-8"))["parts"]["ident"][
        "duplicates"
    ]
    kept = sorted(v for v in espeak if v not in twins)  # bench/voice.py's distinct voices
    espeak_halves = dict(zip(("tuning", "held_out"), voice_pool.split(kept), strict=True))

    def espeak_trials(leg: str, voices_: list[str]) -> Trials:
        prints = {v: print_of(leg, [as_leg(leg, u).vector for u in espeak[v][0] if u.vector is not None])
                  for v in voices_}  # fmt: skip
        return Trials(prints, [(v, as_leg(leg, u)) for v in voices_ for u in espeak[v][1]], voices_)

    out: dict[str, Any] = {"voices": len(voices), "left_out": SAME_SPEAKER, "draws": draws, "forms": list(FORMS),
                           "halves": {"tuning": tune, "held_out": held}, "legs": {},
                           "marks": {k: getattr(matching, k) for k in ("LONG_SECONDS", "SHORT_SECONDS",
                                                                       "QUIET_DB", "NOISY_DB")}}  # fmt: skip
    for leg in LEGS:
        halves = {
            name: {f"{s}@{form}": t for form in FORMS
                   for s, t in pool_trials(vs, utterances[form], clips, leg=leg).items()}
            for name, vs in (("tuning", tune), ("held_out", held))
        }  # fmt: skip
        if do_choose:
            rule = choose(halves["tuning"], espeak_trials(leg, espeak_halves["tuning"]), draws)
            print(f"{leg}: chosen on the tuning half: {rule}", flush=True)
        else:
            rule = {k: getattr(matching, k) for k in RULE_KEYS} if leg == "fused" else DVECTOR_RULE
        entry: dict[str, Any] = {"rule": rule, "chosen": do_choose}
        with marks_set(rule):
            for name, trials in halves.items():
                entry[name] = {
                    key: {**t.rates(t.households(draws, 2), product),
                          "speech_seconds_median": float(np.median([u.speech_seconds for _, u in t.tests])),
                          "snr_db_median": float(np.median([u.snr_db for _, u in t.tests]))}
                    for key, t in trials.items()
                }  # fmt: skip
                entry[f"{name}_unenrollable"] = sorted(set(tune if name == "tuning" else held)
                                                       - set(next(iter(trials.values())).prints))  # fmt: skip
            # Enrolled from clips in the same noise (what enrolment refuses: matching.ENROL_MIN_SNR_DB).
            entry["held_out_noisy_enrolment"] = {
                f"{s}@{form}": t.rates(t.households(draws, 3), product)
                for form in FORMS
                for s, t in pool_trials(held, utterances[form], clips, enrol="room_enrol", leg=leg).items()
                if s in NOISY
            }
            entry["held_out_at_equal_fa"] = at_equal_fa(halves["held_out"], rule, draws)
            twins_held = espeak_trials(leg, espeak_halves["held_out"])
            entry["espeak"] = {"voices": len(twins_held.voices),
                               "product": twins_held.rates(twins_held.households(draws, 4), product)}  # fmt: skip
        out["legs"][leg] = entry
    return out


# ---------------------------------------------------------------- the cut (trimmed / stream / padded)

LEVEL_FORMS = ("trimmed", "stream", "padded")
BEFORE_MARKS = {"QUIET_DB": 33.0, "NOISY_DB": 24.0}  # issue 28's marks for level_before


def level_before(energy: np.ndarray) -> float:
    """Issue 28's level over the floor: the 95th against the 10th percentile of every frame."""
    if not len(energy):
        return 0.0
    loud, floor = np.percentile(energy, [95, 10])
    return float(min(stream.MAX_SNR_DB, max(0.0, 10.0 * (loud - floor))))


@contextmanager
def marks_set(values: dict[str, float]) -> Iterator[None]:
    """matching's QUIET_DB / NOISY_DB set to `values` inside the block."""
    original = {k: getattr(matching, k) for k in values}
    for k, v in values.items():
        setattr(matching, k, v)
    try:
        yield
    finally:
        for k, v in original.items():
            setattr(matching, k, v)


def choose_marks(clips: list[voice_pool.Clip], tune: list[str]) -> dict[str, Any]:
    """QUIET_DB / NOISY_DB from the tuning half's levels (the current stream.level_over_floor of
    each clip in every LEVEL_FORMS; no embedding needed): the quiet sessions' 1st percentile, the
    room sessions' 95th."""
    front_end = load_front_end()
    quiet, noisy = [], []
    for clip in clips:
        if clip.voice in tune:
            for form in LEVEL_FORMS:
                level = stream.level_over_floor(_energy(front_end, clip.pcm(form)))
                (noisy if clip.room is not None else quiet).append(level)
    return {"QUIET_DB": round(float(np.percentile(quiet, 1)), 1), "NOISY_DB": round(float(np.percentile(noisy, 95)), 1),
            "quiet_p1_p5_median": [round(float(np.percentile(quiet, q)), 1) for q in (1, 5, 50)],
            "noisy_median_p95_p99": [round(float(np.percentile(noisy, q)), 1) for q in (50, 95, 99)]}  # fmt: skip


def by_cut(clips: list[voice_pool.Clip], halves: dict[str, list[str]], draws: int,
           forms: Sequence[str] = LEVEL_FORMS) -> dict[str, Any]:  # fmt: skip
    """Per form (`forms`) and half: per test session the median level and threshold and the
    product's rates, with the level rule before (level_before, BEFORE_MARKS) and now; and per half
    the share of clips whose threshold differs between the forms."""
    rules = {"before": (level_before, BEFORE_MARKS), "now": (stream.level_over_floor, {})}
    out: dict[str, Any] = {}
    thresholds: dict[tuple[str, str], dict[str, float]] = {}
    for form in forms:
        for rule, (level, marks) in rules.items():
            utterances = embedded(clips, form, level=level)
            with marks_set(marks):
                for name, voices in halves.items():
                    trials = pool_trials(voices, utterances, clips)
                    rows = out.setdefault(form, {}).setdefault(name, {})
                    for session, t in trials.items():
                        r = t.rates(t.households(draws, 2), product)
                        levels = [u.snr_db for _, u in t.tests]
                        bars = [matching.threshold_for(u.speech_seconds, u.snr_db) for _, u in t.tests]
                        rows.setdefault(session, {})[rule] = {
                            "snr_db_median": round(float(np.median(levels)), 1),
                            "threshold_median": round(float(np.median(bars)), 3),
                            "fa_stranger": r["fa_stranger"], "fa_member": r["fa_member"], "fr": r["fr"]}  # fmt: skip
                for clip in clips:
                    u = utterances[clip.key]
                    bar = matching.threshold_for(u.speech_seconds, u.snr_db)
                    thresholds.setdefault((rule, clip.key), {})[form] = bar
    voice_half = {v: name for name, voices in halves.items() for v in voices}
    for rule in rules:
        for name in halves:
            spread = [max(b.values()) - min(b.values()) for (r, key), b in thresholds.items()
                      if r == rule and voice_half.get(key.split("|")[0]) == name]  # fmt: skip
            out.setdefault("threshold_moves", {}).setdefault(rule, {})[name] = {
                "over_0.01": round(float(np.mean(np.array(spread) > 0.01)), 4),
                "over_0.03": round(float(np.mean(np.array(spread) > 0.03)), 4),
                "max": round(float(np.max(spread)), 3)}  # fmt: skip
    return out


# ------------------------------------------------------------------------------------- enrolment

ENROL_FORMS = ("trimmed",)  # the stream form: bench --enrolment after embedding it (slow here)
ENROL_SESSIONS = ("enrol", "sentence", "room_enrol")  # quiet sentences, and sentences in 15 dB noise
BEFORE_ENROL = {"min_speech": 2.5, "min_snr_db": 23.0, "same_voice": 0.55}  # issue 28's check
TWO_VOICE_SECONDS = (1.0, 1.5, 2.0)  # each voice's share of a two-voice clip
TWO_VOICE_PAIRS = 40  # per half and length


def check_before(whole: Utterance, halves: tuple[Utterance, Utterance]) -> str | None:
    """Issue 28's enrolment check (the utterances measured with level_before): the reason or None."""
    if whole.vector is None:
        return "no_speech"
    if whole.speech_seconds < BEFORE_ENROL["min_speech"]:
        return "too_short"
    if whole.snr_db < BEFORE_ENROL["min_snr_db"]:
        return "noisy"
    a, b = (h.vector for h in halves)
    if a is not None and b is not None and float(a @ b) < BEFORE_ENROL["same_voice"]:
        return "two_voices"
    return None


def check_now(whole: Utterance, halves: tuple[Utterance, Utterance]) -> str | None:
    try:
        matching.check_clip(whole, halves)
    except matching.ClipRejected as err:
        return err.reason
    return None


@dataclass(frozen=True)
class TwoVoices:
    """A clip in which two voices take turns: `seconds` of one voice's trimmed sentence, then as
    much of another's."""

    first: voice_pool.Clip
    second: voice_pool.Clip
    seconds: float

    @property
    def key(self) -> str:
        return f"two|{self.first.key}|{self.second.key}|{self.seconds}"

    def pcm(self, form: str = "trimmed") -> bytes:
        n = 2 * int(self.seconds * 16000)
        return self.first.pcm("trimmed")[:n] + self.second.pcm("trimmed")[:n]


def enrolment(clips: list[voice_pool.Clip], halves: dict[str, list[str]], draws: int) -> dict[str, Any]:
    """Per form (ENROL_FORMS) and half, the enrolment check before (check_before) and now
    (matching.check_clip): the share of quiet sentence clips accepted and why the rest were refused,
    of clips in 15 dB noise refused, of voices whose 3 enrolment clips all pass (and pass
    odd_clip_out); the recognition rates (today's level rule and thresholds) in households of the
    voices enrolled under each rule, with the false rejects of the voices only the new rule
    enrols apart; two voices in turn caught, by length; another person's clip among three caught."""
    chosen = [c for c in clips if c.session in ENROL_SESSIONS]
    rules = {"before": (level_before, check_before), "now": (stream.level_over_floor, check_now)}
    out: dict[str, Any] = {}
    for form in ENROL_FORMS:
        tests = embedded(clips, form)
        enrolled_by: dict[tuple[str, str], dict[str, np.ndarray]] = {}
        for rule, (level, check) in rules.items():
            whole = embedded(chosen, form, level=level)
            parts = embedded(chosen, form, halves=True, level=level)
            verdict = {c.key: check(whole[c.key], (parts[f"{c.key}|0"], parts[f"{c.key}|1"])) for c in chosen}
            for name, voices in halves.items():
                row = out.setdefault(form, {}).setdefault(name, {}).setdefault(rule, {})
                for session in ENROL_SESSIONS:
                    keys = [c.key for c in chosen if c.session == session and c.voice in voices]
                    reasons = [verdict[k] for k in keys]
                    row[session] = {"clips": len(keys), "accepted": round(reasons.count(None) / len(keys), 4),
                                    "refused": {r: reasons.count(r) for r in sorted(set(reasons) - {None})}}  # fmt: skip
                enrolled = {}
                for v in voices:
                    own = [c for c in chosen if c.voice == v and c.session == "enrol"]
                    if all(verdict[c.key] is None for c in own):
                        vectors = [whole[c.key].vector for c in own]
                        if matching.odd_clip_out(vectors) is None:
                            enrolled[v] = matching.voiceprint(vectors)
                row["voices"] = len(voices)
                row["voices_enrolled"] = len(enrolled)
                enrolled_by[(name, rule)] = enrolled
                by: dict[str, list[tuple[str, Utterance]]] = {}
                for c in clips:
                    if c.voice in voices and c.session in TESTS:
                        by.setdefault(c.session, []).append((c.voice, tests[c.key]))
                row["rates"] = {}
                new = set(enrolled) - set(enrolled_by.get((name, "before"), enrolled))
                for session in TESTS:
                    trials = Trials(enrolled, by[session], voices)
                    houses = trials.households(draws, 5)
                    r = trials.rates(houses, product)
                    row["rates"][session] = {k: r[k] for k in ("fa_stranger", "fa_member", "fr")}
                    if new:
                        only = Trials(enrolled, [(v, u) for v, u in by[session] if v in new], voices)
                        row["rates"][session]["fr_newly_enrolled"] = only.rates(houses, product)["fr"]
    out["two_voices"] = _two_voices(clips, halves)
    out["other_person"] = _other_person(clips, halves)
    return out


def _two_voices(clips: list[voice_pool.Clip], halves: dict[str, list[str]]) -> dict[str, Any]:
    """Two voices taking turns (TwoVoices, trimmed) caught by the check now, by length and half; and
    one voice's halves at the same length (its sentence's first 2 x seconds) wrongly refused."""
    rng = np.random.default_rng(42)
    sentences = {}
    for c in clips:
        if c.session == "enrol":
            sentences.setdefault(c.voice, []).append(c)
    out: dict[str, Any] = {}
    for name, voices in halves.items():
        usable = [v for v in voices if v in sentences]
        for seconds in TWO_VOICE_SECONDS:
            mixes = []
            for _ in range(TWO_VOICE_PAIRS):
                a, b = rng.choice(usable, size=2, replace=False)
                mixes.append(TwoVoices(sentences[a][0], sentences[b][1], seconds))
            singles = [TwoVoices(sentences[v][2], sentences[v][2], seconds) for v in usable]
            row = {}
            for kind, items in (("two_voices", mixes), ("one_voice_repeated", singles)):
                whole = embedded(items, "trimmed")
                parts = embedded(items, "trimmed", halves=True)
                reasons = [check_now(whole[m.key], (parts[f"{m.key}|0"], parts[f"{m.key}|1"])) for m in items]
                row[kind] = {r or "accepted": reasons.count(r) for r in set(reasons)}
            out.setdefault(name, {})[f"{seconds:g}"] = row
    return out


def _other_person(clips: list[voice_pool.Clip], halves: dict[str, list[str]]) -> dict[str, Any]:
    """odd_clip_out over a voice's 3 enrolment clips (trimmed): named wrongly; with another voice's
    clip added: caught."""
    whole = embedded([c for c in clips if c.session == "enrol"], "trimmed")
    own: dict[str, list[np.ndarray]] = {}
    for c in clips:
        if c.session == "enrol" and whole[c.key].vector is not None:
            own.setdefault(c.voice, []).append(whole[c.key].vector)
    out: dict[str, Any] = {}
    for name, voices in halves.items():
        sets = {v: own[v] for v in voices if len(own.get(v, [])) == 3}
        wrong = sum(matching.odd_clip_out(vs) is not None for vs in sets.values())
        caught = total = 0
        for v, vs in sets.items():
            for other in sets:
                if other != v:
                    total += 1
                    caught += matching.odd_clip_out([*vs, sets[other][0]]) == 3
        out[name] = {
            "own_named_other": wrong,
            "own_sets": len(sets),
            "other_caught": caught,
            "other_sets": total,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--choose", action="store_true")
    parser.add_argument("--cut", nargs="*", metavar="FORM", help="only the level rule by cut "
                        f"(forms of {', '.join(voice_pool.FORMS)}; default {' '.join(LEVEL_FORMS)}): saved as 'human_cut'")  # fmt: skip
    parser.add_argument("--results", default=str(BENCH / "results" / "voice.json"))
    parser.add_argument("--out", default=str(REPO / "docs" / "benchmarks.md"))
    parser.add_argument("--images", default=str(REPO / "docs" / "images"))
    parser.add_argument("--enrolment", action="store_true", help="only the enrolment check, before and "
                        "now: saved as 'human_enrolment'")  # fmt: skip
    args = parser.parse_args()
    results = Path(args.results)
    doc: dict[str, Any] = json.loads(results.read_text(encoding="utf-8")) if results.is_file() else {}
    doc.setdefault("parts", {})
    if args.cut is not None:
        clips = voice_pool.pool()
        tune, held = voice_pool.split([v for v, _ in voice_pool.VOICES if v not in SAME_SPEAKER])
        cut = {"marks_tuning": choose_marks(clips, tune), "marks_held_out": choose_marks(clips, held),
               **by_cut(clips, {"tuning": tune, "held_out": held}, args.draws, args.cut or LEVEL_FORMS),
               "run": runinfo.run_info()}  # fmt: skip
        doc["parts"]["human_cut"] = cut
        results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in cut.items() if k != "run"}, indent=1))
        return
    if args.enrolment:
        clips = voice_pool.pool()
        tune, held = voice_pool.split([v for v, _ in voice_pool.VOICES if v not in SAME_SPEAKER])
        doc["parts"]["human_enrolment"] = {**enrolment(clips, {"tuning": tune, "held_out": held}, args.draws),
                                           "run": runinfo.run_info()}  # fmt: skip
        results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in doc["parts"]["human_enrolment"].items() if k != "run"}, indent=1))
        return
    doc["parts"]["human"] = {**measure(args.draws, args.choose), "run": runinfo.run_info()}
    results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("\n".join(report.human_voice_section(doc["parts"]["human"])))
    if report.LATENCY_RESULTS.is_file():
        for path in report.generate(
            report.load(report.LATENCY_RESULTS), Path(args.out), Path(args.images), voice=doc
        ):
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
