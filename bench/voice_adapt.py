"""Who spoke, as a household lives with it (issue 28): does voiceprint adaptation
(voice.matching.adapts / adapted, as recognition.py runs them) lower false rejects without letting
strangers in, and what does Home Assistant's speex noise suppression do to recognition? Values
chosen on the tuning half of bench/voice_pool.py, rates on the held-out half. A benchmark, not a
test: nothing here asserts.

    scripts/voice-pool bench/voice_adapt.py [--draws 1000] [--only adapt|speex]
                                            [--results bench/results/voice_adapt.json]

Pool, embeddings, halves, households and rates: bench/voice_ident.py's (`embedded`, `pool_trials`,
`Trials`; households of 2-5 enrolled voices, every other voice of the half a stranger), the
product's rule (matching.identify_utterance with matching.py's constants).

Adaptation ("adapt"). Per household draw, every member is enrolled from its 3 `enrol` clips. Every
voice of the half (members and strangers) holds out one of its 5 `sentence` clips at random (a
seeded leave-one-out per draw); its other 4 sentences are its everyday speech: all voices' 4 arrive
in one seeded random order, each is identified against the household's current prints, and when
`adapts(match, utterance, enrolled print)` holds it joins that person's print (`adapted`, the last
ADAPT_KEEP kept, recognition.py's deque). Commands and room clips cannot adapt (adapts needs
ADAPT_MIN_SPEECH of detected speech and ENROL_MIN_SNR_DB over the noise; the members' sentences
that pass this are counted as "gate_pass", by adapts itself: `gates`), so they are left out of the
stream. After the stream the tests are scored against the final prints and,
for "without", against the enrolled prints: the held-out sentence, its room twin (room_sentence
of the same index: the room twins of the everyday sentences are the same recordings and are not
tested), all 6 commands and all 6 room commands. No clip that could adapt a print is tested.
Reported: per session FA stranger / member as another member / FR / strict FA / strict FR with and
without; the share of the members' everyday sentences that adapted; how many strangers' sentences
(and members' taken for another member) adapted a print — must be 0. Sweep on the tuning half:
ADAPT_SCORE 0.90-0.96 x ADAPT_MARGIN 0.05/0.10/0.15 x ADAPT_KEEP 3/5/10; chosen: the fewest false
rejects summed over the 4 sessions with, per session, FA stranger and member as another at most
0.1 percentage point above no adaptation and no wrong adaptation at all (ties: the higher score,
margin, keep). The held-out half is reported at the chosen values (and at matching.py's).

Noise suppression ("speex"). Home Assistant's assist pipeline runs the stream through
`MicroVadSpeexEnhancer(auto_gain_dbfs, noise_suppression_level, ...)` in 10-ms chunks
(default_pipeline.py `process_enhance_audio`) before speech-to-text and so before our recognizer;
levels 1-4 (speex -15..-60 dB), auto gain 0 (off), as HA maps them. Every clip of the sessions
used is run through HA's own class and embedded (cached beside voice_ident's, one file per level);
the rates are the product's rule with prints from the unprocessed `enrol` clips ("enrol raw") and
from the processed ones ("enrol processed"); level 0 is the unprocessed audio (voice_ident's rows).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import engine_import  # noqa: E402

engine_import.install()

import runinfo  # noqa: E402
import voice_pool  # noqa: E402
from voice_ident import CACHE, SAME_SPEAKER, TESTS, Trials, embedded, pool_trials, product  # noqa: E402

from custom_components.memory.voice import MODEL_IDENTITY, Utterance, load_encoder, matching  # noqa: E402

RULE_KEYS = (
    "QUIET_LONG",
    "QUIET_SHORT",
    "NOISY_LONG",
    "NOISY_SHORT",
    "LONG_SECONDS",
    "SHORT_SECONDS",
    "QUIET_DB",
    "NOISY_DB",
    "MARGIN",
    "STRICT_LIFT",
    "MIN_CLIP_SPEECH",
    "ENROL_MIN_SNR_DB",
    "ADAPT_MIN_SPEECH",
)
ADAPT_KEYS = ("ADAPT_SCORE", "ADAPT_MARGIN", "ADAPT_KEEP")
SCORES = tuple(round(0.90 + 0.01 * k, 2) for k in range(7))
MARGINS = (0.05, 0.10, 0.15)
KEEPS = (3, 5, 10)
LIMIT = 0.001  # FA stranger / member as another: at most this above no adaptation, per session
COUNTS = ("fa_stranger", "fa_member", "fr", "strict_fa", "strict_fr")
LEVELS = (1, 2, 3, 4)  # HA's noise_suppression_level (0 = off)
SPEEX_SESSIONS = ("enrol", *TESTS)


# --- adaptation -------------------------------------------------------------------------------


@dataclass(slots=True)
class Draw:
    """One household and its clips: the everyday stream (voice, utterance) in arrival order and the
    tests per session."""

    house: list[str]
    stream: list[tuple[str, Utterance]]
    tests: dict[str, list[tuple[str, Utterance]]]


@dataclass(slots=True)
class Tally:
    """Counts over draws (Trials.rates' rates times its trials, summed) and the adaptation counts."""

    counts: dict[str, dict[str, float]] = field(default_factory=dict)
    adapted: int = 0  # members' everyday sentences that adapted their own print
    wrong_member: int = 0  # a member's sentence that adapted another member's print
    stranger: int = 0  # a stranger's sentence that adapted anyone's print
    member_stream: int = 0
    gate_pass: int = 0  # members' everyday sentences with the speech and level adapts needs

    def add(self, session: str, rates: dict[str, Any]) -> None:
        row = self.counts.setdefault(
            session, dict.fromkeys((*COUNTS, "member_trials", "stranger_trials"), 0.0)
        )
        for key in COUNTS:
            row[key] += (
                rates[key]
                * rates["stranger_trials" if key in ("fa_stranger", "strict_fa") else "member_trials"]
            )
        row["member_trials"] += rates["member_trials"]
        row["stranger_trials"] += rates["stranger_trials"]

    def rates(self) -> dict[str, dict[str, float]]:
        out = {}
        for session, row in self.counts.items():
            members, strangers = max(row["member_trials"], 1), max(row["stranger_trials"], 1)
            out[session] = {k: round(row[k]) / (strangers if k in ("fa_stranger", "strict_fa") else members)
                            for k in COUNTS} | {"member_trials": int(row["member_trials"]),
                                                "stranger_trials": int(row["stranger_trials"])}  # fmt: skip
        return out

    def summary(self) -> dict[str, Any]:
        return {"rates": self.rates(), "adapted_share": self.adapted / max(self.member_stream, 1),
                "gate_pass_share": self.gate_pass / max(self.member_stream, 1),
                "member_stream_utterances": self.member_stream, "stranger_adaptations": self.stranger,
                "wrong_member_adaptations": self.wrong_member}  # fmt: skip


# A match and an enrolled print that pass every other condition of matching.adapts, so `gates`
# asks the product's own predicate instead of restating its speech and level rule.
_SURE = matching.VoiceMatch("gate", score=1.0, margin=1.0, strict=True)


def gates(utterance: Utterance) -> bool:
    """The utterance's own part of matching.adapts (its speech and level): adapts itself, with a
    strict match far ahead of everyone and the utterance's own vector as the enrolled print."""
    return utterance.vector is not None and matching.adapts(_SURE, utterance, utterance.vector)


def draws_of(trials: dict[str, Trials], by: dict[tuple[str, str], list[Utterance]], draws: int,
             seed: int) -> list[Draw]:  # fmt: skip
    """The half's households (Trials.households) with a seeded held-out sentence per voice and a
    seeded arrival order of everyone's other sentences."""
    voices = trials["sentence"].voices
    rng = np.random.default_rng(seed + 1000)
    out = []
    for house in trials["sentence"].households(draws, seed):
        held = {v: int(rng.integers(len(by[(v, "sentence")]))) for v in voices}
        stream = [(v, u) for v in voices for k, u in enumerate(by[(v, "sentence")]) if k != held[v]]
        order = rng.permutation(len(stream))
        tests = {
            "sentence": [(v, by[(v, "sentence")][held[v]]) for v in voices],
            "room_sentence": [(v, by[(v, "room_sentence")][held[v]]) for v in voices],
            "command": [(v, u) for v in voices for u in by[(v, "command")]],
            "room_command": [(v, u) for v in voices for u in by[(v, "room_command")]],
        }
        out.append(Draw(house, [stream[i] for i in order], tests))
    return out


def live(
    draw: Draw, enrolled: dict[str, np.ndarray], clips: dict[str, int], tally: Tally
) -> dict[str, np.ndarray]:
    """The household's prints after its everyday stream, adapting as recognition.py does."""
    prints = {v: enrolled[v] for v in draw.house}
    recent: dict[str, list[np.ndarray]] = {v: [] for v in draw.house}
    for voice, utterance in draw.stream:
        member = voice in prints
        tally.member_stream += member
        tally.gate_pass += member and gates(utterance)
        match = matching.identify_utterance(utterance, prints)
        person = match.person_id
        if (
            person is None
            or utterance.vector is None
            or not matching.adapts(match, utterance, enrolled[person])
        ):
            continue
        recent[person].append(utterance.vector)
        prints[person] = matching.adapted(enrolled[person], clips[person], recent[person])
        if person == voice:
            tally.adapted += 1
        elif member:
            tally.wrong_member += 1
        else:
            tally.stranger += 1
    return prints


def score(draws: list[Draw], enrolled: dict[str, np.ndarray], clips: dict[str, int],
          baseline: list[dict[str, dict[str, Any]]] | None = None) -> tuple[Tally, list[dict[str, dict[str, Any]]]]:  # fmt: skip
    """Tally of the tests against the prints after adaptation (`baseline`: the per-draw rates
    without it, reused for a draw where nothing adapted), and the per-draw rates."""
    tally, per_draw = Tally(), []
    for n, draw in enumerate(draws):
        before = tally.adapted + tally.wrong_member + tally.stranger
        prints = live(draw, enrolled, clips, tally)
        if baseline is not None and tally.adapted + tally.wrong_member + tally.stranger == before:
            rows = baseline[n]
        else:
            rows = {
                s: Trials(prints, tests, draw.house).rates([draw.house], product)
                for s, tests in draw.tests.items()
            }
        per_draw.append(rows)
        for session, rates in rows.items():
            tally.add(session, rates)
    return tally, per_draw


def without(
    draws: list[Draw], enrolled: dict[str, np.ndarray]
) -> tuple[Tally, list[dict[str, dict[str, Any]]]]:
    tally, per_draw = Tally(), []
    for draw in draws:
        rows = {
            s: Trials(enrolled, tests, draw.house).rates([draw.house], product)
            for s, tests in draw.tests.items()
        }
        per_draw.append(rows)
        for session, rates in rows.items():
            tally.add(session, rates)
        for voice, utterance in draw.stream:
            tally.member_stream += voice in draw.house
            tally.gate_pass += voice in draw.house and gates(utterance)
    return tally, per_draw


def set_adapt(values: dict[str, float]) -> None:
    for key, value in values.items():
        setattr(matching, key, int(value) if key == "ADAPT_KEEP" else float(value))


def half_of(voices: list[str], utterances: dict[str, Utterance], clips: list[voice_pool.Clip]) -> tuple[
        dict[str, Trials], dict[tuple[str, str], list[Utterance]], dict[str, int]]:  # fmt: skip
    """pool_trials for the half, its utterances by (voice, session) in clip order, and each
    enrollable voice's number of enrolment clips with a vector (matching.adapted's `clips`)."""
    trials = pool_trials(voices, utterances, clips)
    by: dict[tuple[str, str], list[Utterance]] = {}
    for clip in sorted(clips, key=lambda c: c.index):
        if clip.voice in voices:
            by.setdefault((clip.voice, clip.session), []).append(utterances[clip.key])
    counts = {v: sum(u.vector is not None for u in by[(v, "enrol")]) for v in trials["sentence"].prints}
    return trials, by, counts


def adaptation(draws: int) -> dict[str, Any]:
    clips = voice_pool.pool()
    utterances = embedded(clips)
    voices = [v for v, _ in voice_pool.VOICES if v not in SAME_SPEAKER]
    tune, held = voice_pool.split(voices)
    original = {k: getattr(matching, k) for k in ADAPT_KEYS}
    out: dict[str, Any] = {
        "draws": draws,
        "placeholder": original,
        "halves": {"tuning": tune, "held_out": held},
    }
    # Tuning half: the sweep.
    trials, by, n_clips = half_of(tune, utterances, clips)
    enrolled = trials["sentence"].prints
    plan = draws_of(trials, by, draws, 5)
    base, base_rows = without(plan, enrolled)
    base_rates = base.rates()
    sweep = []
    for s in SCORES:
        for m in MARGINS:
            for k in KEEPS:
                set_adapt({"ADAPT_SCORE": s, "ADAPT_MARGIN": m, "ADAPT_KEEP": k})
                tally, _ = score(plan, enrolled, n_clips, base_rows)
                rates = tally.rates()
                ok = (
                    tally.stranger == 0
                    and tally.wrong_member == 0
                    and all(
                        rates[x]["fa_stranger"] <= base_rates[x]["fa_stranger"] + LIMIT
                        and rates[x]["fa_member"] <= base_rates[x]["fa_member"] + LIMIT
                        for x in TESTS
                    )
                )
                sweep.append({"ADAPT_SCORE": s, "ADAPT_MARGIN": m, "ADAPT_KEEP": k, "allowed": ok,
                              "fr_sum": sum(rates[x]["fr"] for x in TESTS), **tally.summary()})  # fmt: skip
                print(f"  score {s:.2f} margin {m:.2f} keep {k:2d}: FR sum {sweep[-1]['fr_sum']:.4f} "
                      f"adapted {100 * sweep[-1]['adapted_share']:.1f} % strangers {tally.stranger} "
                      f"{'ok' if ok else 'over'}", flush=True)  # fmt: skip
    allowed = [r for r in sweep if r["allowed"]]
    best = min(
        allowed,
        key=lambda r: (round(r["fr_sum"], 6), -r["ADAPT_SCORE"], -r["ADAPT_MARGIN"], -r["ADAPT_KEEP"]),
    )
    chosen = {k: best[k] for k in ADAPT_KEYS}
    base_fr = sum(base_rates[x]["fr"] for x in TESTS)
    out["tuning"] = {"without": base.summary(), "fr_sum_without": base_fr, "sweep": sweep,
                     "chosen": chosen, "chosen_row": best, "helps": best["fr_sum"] < base_fr - 1e-9}  # fmt: skip
    # Held-out half: without, at the chosen values and at matching.py's.
    trials, by, n_clips = half_of(held, utterances, clips)
    enrolled = trials["sentence"].prints
    plan = draws_of(trials, by, draws, 6)
    base, base_rows = without(plan, enrolled)
    out["held_out"] = {"without": base.summary()}
    for name, values in (("chosen", chosen), ("placeholder", original)):
        set_adapt(values)
        tally, _ = score(plan, enrolled, n_clips, base_rows)
        out["held_out"][name] = {**values, **tally.summary()}
    set_adapt(original)
    return out


# --- noise suppression ------------------------------------------------------------------------


def suppress(pcm: bytes, level: int, auto_gain: int = 0) -> bytes:
    """`pcm` through Home Assistant's own enhancer as its pipeline runs it (default_pipeline.py
    process_enhance_audio: 10-ms chunks, the partial last chunk held back and never sent). The VAD
    part is off: it only labels chunks and leaves the audio as it is."""
    from homeassistant.components.assist_pipeline.audio_enhancer import MicroVadSpeexEnhancer  # noqa: PLC0415
    from homeassistant.components.assist_pipeline.const import BYTES_PER_CHUNK, MS_PER_CHUNK  # noqa: PLC0415
    from homeassistant.components.assist_pipeline.vad import AudioBuffer, chunk_samples  # noqa: PLC0415

    enhancer = MicroVadSpeexEnhancer(auto_gain, level, is_vad_enabled=False)
    buffer = AudioBuffer(BYTES_PER_CHUNK)
    chunks = chunk_samples(pcm, BYTES_PER_CHUNK, buffer)
    return b"".join(enhancer.enhance_chunk(c, n * MS_PER_CHUNK).audio for n, c in enumerate(chunks))


def suppressed(clips: Sequence[voice_pool.Clip], level: int) -> dict[str, Utterance]:
    """Each clip's Utterance after HA's noise suppression at `level`, cached on disk by clip and
    model (saved every 200 clips)."""
    path = CACHE / f"pool-speex{level}-{MODEL_IDENTITY.replace('/', '_')}.pkl"
    cache: dict[str, Utterance] = pickle.loads(path.read_bytes()) if path.exists() else {}
    missing = [c for c in clips if c.key not in cache]
    if missing:
        encoder = load_encoder(prefer_onnx=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        for n, clip in enumerate(missing, 1):
            cache[clip.key] = encoder.embed(suppress(clip.pcm(), level))
            if n % 200 == 0 or n == len(missing):
                path.write_bytes(pickle.dumps(cache))
                print(f"speex level {level}: embedded {n}/{len(missing)}", flush=True)
    return {c.key: cache[c.key] for c in clips}


def speex_rows(voices: list[str], utterances: dict[str, Utterance], clips: list[voice_pool.Clip],
               draws: int) -> dict[str, Any]:  # fmt: skip
    trials = pool_trials(voices, utterances, clips)
    rows = {}
    for session, t in trials.items():
        rows[session] = {"product": t.rates(t.households(draws, 2), product),
                         "speech_seconds_median": float(np.median([u.speech_seconds for _, u in t.tests])),
                         "snr_db_median": float(np.median([u.snr_db for _, u in t.tests])),
                         "no_vector": sum(u.vector is None for _, u in t.tests)}  # fmt: skip
    return {"rows": rows, "enrollable": len(trials["sentence"].prints)}


def noise_suppression(draws: int) -> dict[str, Any]:
    voices = [v for v, _ in voice_pool.VOICES if v not in SAME_SPEAKER]
    clips = [c for c in voice_pool.pool() if c.voice in voices and c.session in SPEEX_SESSIONS]
    raw = embedded(clips)
    tune, held = voice_pool.split(voices)
    out: dict[str, Any] = {"draws": draws, "auto_gain_dbfs": 0, "levels": {}}
    out["levels"]["0"] = {
        half: speex_rows(v, raw, clips, draws) for half, v in (("tuning", tune), ("held_out", held))
    }
    for level in LEVELS:
        processed = suppressed(clips, level)
        raw_enrol = processed | {c.key: raw[c.key] for c in clips if c.session == "enrol"}
        out["levels"][str(level)] = {
            f"{half}_{enrol}": speex_rows(v, table, clips, draws)
            for half, v in (("tuning", tune), ("held_out", held))
            for enrol, table in (("enrol_raw", raw_enrol), ("enrol_processed", processed))
        }
        moved: dict[str, list[float]] = {}
        for c in clips:
            a, b = raw[c.key].vector, processed[c.key].vector
            if a is not None and b is not None:
                moved.setdefault(c.session, []).append(float(np.dot(a, b)))
        out["levels"][str(level)]["cosine_to_unprocessed_median"] = {
            k: float(np.median(v)) for k, v in moved.items()
        }
        print(f"speex level {level} measured", flush=True)
    return out


# --- output -----------------------------------------------------------------------------------


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def _row(label: str, r: dict[str, float]) -> str:
    return f"| {label} | " + " | ".join(_pct(r[k]) for k in COUNTS) + " |"


HEAD = "| FA stranger | member as other | FR | strict FA | strict FR |"


def table(doc: dict[str, Any]) -> list[str]:
    lines = []
    a = doc.get("adaptation")
    if a:
        t, h = a["tuning"], a["held_out"]
        c = t["chosen"]
        lines += [f"### Adaptation (draws {a['draws']}; %)", "",
                  f"Sweep on the tuning half: FR summed over the 4 sessions (without adaptation "
                  f"{_pct(t['fr_sum_without'])}); * = over the FA limits or a wrong adaptation.", "",
                  "| ADAPT_SCORE, ADAPT_MARGIN | " + " | ".join(f"KEEP {k}" for k in KEEPS) + " |",
                  "|---" * (1 + len(KEEPS)) + "|"]  # fmt: skip
        cells = {(r["ADAPT_SCORE"], r["ADAPT_MARGIN"], r["ADAPT_KEEP"]): r for r in t["sweep"]}
        for sc in SCORES:
            for m in MARGINS:
                row = [cells[(sc, m, k)] for k in KEEPS]
                lines.append(f"| {sc:.2f}, {m:.2f} | "
                             + " | ".join(f"{_pct(r['fr_sum'])}{'' if r['allowed'] else ' *'}" for r in row) + " |")  # fmt: skip
        lines += ["", f"Chosen: ADAPT_SCORE {c['ADAPT_SCORE']}, ADAPT_MARGIN {c['ADAPT_MARGIN']}, "
                  f"ADAPT_KEEP {c['ADAPT_KEEP']} (helps on the tuning half: {t['helps']}); placeholder "
                  + ", ".join(f"{k} {v}" for k, v in a["placeholder"].items()), ""]  # fmt: skip
        for half, rows in (("tuning", {"without": t["without"], "chosen": t["chosen_row"]}), ("held_out", h)):
            lines += [f"| {half}: session, prints {HEAD}", "|---" * 6 + "|"]
            for session in TESTS:
                for name, summary in rows.items():
                    lines.append(_row(f"{session}, {name}", summary["rates"][session]))
            lines.append("")
            for name, summary in rows.items():
                lines.append(f"- {half}, {name}: adapted {_pct(summary['adapted_share'])} % of the members' "
                             f"everyday sentences (speech and level enough: {_pct(summary['gate_pass_share'])} %); "
                             f"strangers' adaptations {summary['stranger_adaptations']}, a member adapting another "
                             f"member {summary['wrong_member_adaptations']}")  # fmt: skip
            lines.append("")
    s = doc.get("noise_suppression")
    if s:
        lines += [f"### HA speex noise suppression, held-out half (draws {s['draws']}; %)", "",
                  f"| level, enrol, session (median s, dB) {HEAD} no vector |",
                  "|---" * 7 + "|"]  # fmt: skip
        for level, parts in s["levels"].items():
            for part, data in parts.items():
                if not part.startswith("held_out") or "rows" not in data:
                    continue
                enrol = part.removeprefix("held_out").lstrip("_") or "raw (no processing)"
                for session, row in data["rows"].items():
                    label = (f"{level}, {enrol}, {session} ({row['speech_seconds_median']:.1f} s, "
                             f"{row['snr_db_median']:.0f} dB)")  # fmt: skip
                    lines.append(_row(label, row["product"])[:-1] + f" {row['no_vector']} |")
        lines.append("")
        for level, parts in s["levels"].items():
            if "cosine_to_unprocessed_median" in parts:
                lines.append(f"- level {level}: median cosine of a clip's vector to its unprocessed one: "
                             + ", ".join(f"{k} {v:.3f}" for k, v in parts["cosine_to_unprocessed_median"].items()))  # fmt: skip
        lines.append("")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--only", choices=("adapt", "speex"))
    parser.add_argument("--results", default=str(BENCH / "results" / "voice_adapt.json"))
    args = parser.parse_args()
    results = Path(args.results)
    doc: dict[str, Any] = json.loads(results.read_text(encoding="utf-8")) if results.is_file() else {}
    run = {**runinfo.run_info(), "commit": runinfo.commit()}
    if args.only in (None, "adapt"):
        doc["adaptation"] = {**adaptation(args.draws), "run": run}
    if args.only in (None, "speex"):
        doc["noise_suppression"] = {**noise_suppression(args.draws), "run": run}
    doc["rule"] = {k: getattr(matching, k) for k in RULE_KEYS}
    results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("\n".join(table(doc)))


if __name__ == "__main__":
    main()
