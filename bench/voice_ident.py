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

from custom_components.memory.voice import MODEL_IDENTITY, Utterance, load_encoder, matching, stream  # noqa: E402
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
ESPEAK_FA = 0.045  # strangers accepted among espeak-ng's near-twins while choosing (target <= 5 %)


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
                enrol: str = "enrol") -> dict[str, Trials]:  # fmt: skip
    """Per test session: the half's prints (mean of the voice's enrolment clips with a vector) and tests."""
    by: dict[tuple[str, str], list[Utterance]] = {}
    for clip in clips:
        by.setdefault((clip.voice, clip.session), []).append(utterances[clip.key])
    prints = {}
    for v in voices:
        vectors = [u.vector for u in by[(v, enrol)] if u.vector is not None]
        if len(vectors) >= 2:
            prints[v] = matching.voiceprint(vectors)
    return {s: Trials(prints, [(v, u) for v in voices for u in by[(v, s)]], voices) for s in TESTS}


def choose(trials: dict[str, Trials], espeak: Trials, draws: int) -> dict[str, float]:
    """The constants chosen on the tuning half (module docstring; `espeak`: the espeak-ng tuning
    half, whose strangers must stay <= ESPEAK_FA); sets them in matching while searching."""
    houses = {s: t.households(draws, 1) for s, t in trials.items()}
    espeak_houses = espeak.households(draws, 1)
    original = {
        k: getattr(matching, k) for k in ("QUIET_LONG", "QUIET_SHORT", "NOISY_LONG", "NOISY_SHORT", "MARGIN")
    }

    def score(sessions: Sequence[str]) -> tuple[float, float, float]:
        rates = [trials[s].rates(houses[s], lambda u, p: matching.identify_utterance(u, p, margin=matching.MARGIN))
                 for s in sessions]  # fmt: skip
        return (max(r["fa_stranger"] for r in rates), max(r["fa_member"] for r in rates),
                sum(r["fr"] for r in rates))  # fmt: skip

    best: tuple[float, ...] | None = None
    for long_ in np.arange(0.80, 0.96, 0.02):
        for short in np.arange(long_ - 0.08, long_ + 0.03, 0.02):
            for margin in (0.03, 0.05):
                matching.QUIET_LONG, matching.QUIET_SHORT, matching.MARGIN = (
                    float(long_),
                    float(short),
                    margin,
                )
                fa, mm, fr = score(QUIET)
                if fa > 0.006 or mm > 0.001 or (best is not None and fr >= best[0]):
                    continue
                twins = espeak.rates(
                    espeak_houses, lambda u, p: matching.identify_utterance(u, p, margin=matching.MARGIN)
                )
                if twins["fa_stranger"] <= ESPEAK_FA:
                    best = (fr, float(long_), float(short), margin)
    assert best is not None, "no quiet thresholds meet the false-accept limits"
    matching.QUIET_LONG, matching.QUIET_SHORT, matching.MARGIN = best[1], best[2], best[3]
    chosen = {"QUIET_LONG": best[1], "QUIET_SHORT": best[2], "MARGIN": best[3]}
    best = None
    for long_ in np.arange(0.66, 0.88, 0.02):
        for short in np.arange(long_ - 0.08, long_ + 0.03, 0.02):
            matching.NOISY_LONG, matching.NOISY_SHORT = float(long_), float(short)
            fa, mm, fr = score(NOISY)
            if fa <= 0.006 and mm <= 0.001 and (best is None or fr < best[0]):
                best = (fr, float(long_), float(short))
    assert best is not None, "no noisy thresholds meet the false-accept limits"
    chosen |= {"NOISY_LONG": best[1], "NOISY_SHORT": best[2]}
    matching.NOISY_LONG, matching.NOISY_SHORT = best[1], best[2]
    for lift in np.arange(0.0, 0.15, 0.01):
        r = trials["sentence"].rates(
            houses["sentence"],
            lambda u, p, lift=float(lift): matching.identify_utterance(u, p, strict_lift=lift),
        )
        if r["strict_fa"] <= 0.001:
            chosen["STRICT_LIFT"] = round(float(lift), 2)
            break
    for key, value in original.items():
        setattr(matching, key, value)
    return {k: round(v, 2) for k, v in chosen.items()}


def measure(draws: int, do_choose: bool) -> dict[str, Any]:
    clips = voice_pool.pool()
    utterances = embedded(clips)
    voices = [v for v, _ in voice_pool.VOICES if v not in SAME_SPEAKER]
    tune, held = voice_pool.split(voices)
    halves = {
        "tuning": pool_trials(tune, utterances, clips),
        "held_out": pool_trials(held, utterances, clips),
    }
    out: dict[str, Any] = {"voices": len(voices), "left_out": SAME_SPEAKER, "draws": draws,
                           "halves": {"tuning": tune, "held_out": held},
                           "rule": {k: getattr(matching, k) for k in ("QUIET_LONG", "QUIET_SHORT", "NOISY_LONG",
                                    "NOISY_SHORT", "LONG_SECONDS", "SHORT_SECONDS", "QUIET_DB", "NOISY_DB",
                                    "MARGIN", "STRICT_LIFT")}}  # fmt: skip
    espeak = espeak_pool()
    twins = json.loads((BENCH / "results" / "voice.json").read_text(encoding="utf-8"))["parts"]["ident"][
        "duplicates"
    ]
    kept = sorted(v for v in espeak if v not in twins)  # bench/voice.py's distinct voices
    espeak_halves = dict(zip(("tuning", "held_out"), voice_pool.split(kept), strict=True))

    def espeak_trials(voices_: list[str]) -> Trials:
        prints = {
            v: matching.voiceprint([u.vector for u in espeak[v][0] if u.vector is not None]) for v in voices_
        }
        return Trials(prints, [(v, u) for v in voices_ for u in espeak[v][1]], voices_)

    if do_choose:
        out["chosen_on_tuning"] = choose(halves["tuning"], espeak_trials(espeak_halves["tuning"]), draws)
        print("chosen on the tuning half:", out["chosen_on_tuning"], flush=True)
    for name, trials in halves.items():
        rows: dict[str, Any] = {}
        for session, t in trials.items():
            houses = t.households(draws, 2)
            rows[session] = {"product": t.rates(houses, product), "before": t.rates(houses, before),
                             "speech_seconds_median": float(np.median([u.speech_seconds for _, u in t.tests])),
                             "snr_db_median": float(np.median([u.snr_db for _, u in t.tests]))}  # fmt: skip
        out[name] = rows
        out[f"{name}_unenrollable"] = sorted(set(trials["sentence"].voices) - set(trials["sentence"].prints))
    # Enrolled from clips in the same noise (what enrolment now refuses: matching.ENROL_MIN_SNR_DB).
    satellite = pool_trials(held, utterances, clips, enrol="room_enrol")
    out["held_out_noisy_enrolment"] = {
        s: satellite[s].rates(satellite[s].households(draws, 3), product) for s in NOISY
    }
    trials_e = espeak_trials(espeak_halves["held_out"])
    houses = trials_e.households(draws, 4)
    out["espeak"] = {
        "voices": len(trials_e.voices),
        "product": trials_e.rates(houses, product),
        "before": trials_e.rates(houses, before),
    }
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
