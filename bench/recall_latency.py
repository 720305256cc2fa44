"""Recall latency, embedding, remember, RSS and setup of the memory engine at 1k/10k/100k memories,
plus the added latency of one Assist turn through the memory agent; saves the results as JSON
(bench/results/latency.json) and renders docs/benchmarks.md + docs/images/latency-vs-store-size.png
from them (bench/report.py, which also re-renders from the JSON alone).

    .venv/bin/python bench/recall_latency.py [--sizes 1000,10000,100000] [--out docs/benchmarks.md]
        [--results bench/results/latency.json] [--images docs/images]
        [--datasets ../shared/datasets] [--cache-dir ~/.cache/household-memory-bench]

Reads the public datasets in place (bench/corpus.py); the sentence vectors and built stores are
cached outside the repo (bench/store_builder.py). Each size is measured in a fresh process
(bench/measure_engine.py), the Assist turn in HA's test harness (bench/ha_turn.py).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402
import report  # noqa: E402
import runinfo  # noqa: E402
import store_builder  # noqa: E402

TURN_SIMPLE = (  # handled by HA's default agent itself
    ("What time is it?", "en"),
    ("What is the date today?", "en"),
    ("Wie spät ist es?", "de"),
    ("¿Qué hora es?", "es"),
)


def machine() -> dict[str, object]:
    try:
        from threadpoolctl import threadpool_info  # noqa: PLC0415

        blas = [
            {
                k: i.get(k)
                for k in ("internal_api", "version", "architecture", "num_threads", "threading_layer")
            }
            for i in threadpool_info()
        ]
    except ImportError:
        blas = [{"threadpoolctl": "not installed"}]
    git = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    )
    return {
        "date": datetime.now(UTC).strftime(runinfo.DATE_FORMAT),
        "cpu": runinfo.cpu_model(),
        "platform": platform.platform(),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "blas": blas,
        "openblas_env": {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")},
        "commit": git.stdout.strip() or "?",
    }


def run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(
        cmd, cwd=REPO, env={**os.environ, **(env or {})}, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
        raise SystemExit(f"failed: {' '.join(cmd)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--out", default="docs/benchmarks.md")
    parser.add_argument("--results", default=str(report.LATENCY_RESULTS), help="the saved results (JSON)")
    parser.add_argument("--images", default=str(REPO / "docs" / "images"), help="where the latency plot goes")
    parser.add_argument("--datasets", default=str(REPO.parent / "shared" / "datasets"))
    parser.add_argument("--cache-dir", default=str(store_builder.default_cache_dir()))
    parser.add_argument("--locomo-queries", type=int, default=150)
    parser.add_argument("--xquad-queries", type=int, default=50, help="per language (en, de, es)")
    parser.add_argument("--repeats", type=int, default=2, help="timed passes over queries x speakers")
    parser.add_argument(
        "--turn-size", type=int, default=10000, help="store size of the Assist turn (0: skip)"
    )
    parser.add_argument("--turn-repeats", type=int, default=10)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    datasets, cache = Path(args.datasets).resolve(), Path(args.cache_dir).expanduser()

    t = time.perf_counter()
    sv, key = store_builder.sentence_vectors(datasets, cache)
    print(f"sentences {len(sv.sentences)} ({'embedded' if sv.embed_seconds else 'cached'}) "
          f"{time.perf_counter() - t:.1f}s", flush=True)  # fmt: skip
    queries = corpus.load_queries(datasets, locomo=args.locomo_queries, per_xquad_language=args.xquad_queries)
    held = sv.held_out
    again = []  # already-stored sentences, remembered again into their own bucket (the merge path)
    pool = list(sv.pool)
    for n in range(50):
        idx = pool[n * 97 % len(pool)]
        again.append(idx)
    work_dir = Path(tempfile.mkdtemp(prefix="memory-bench-"))
    results: dict[int, dict[str, object]] = {}
    builds: dict[int, dict[str, object]] = {}
    try:
        for size in sorted(set(sizes) | ({args.turn_size} if args.turn_size else set())):
            path, facts = store_builder.ensure_store(sv, key, cache, size)
            builds[size] = facts
            print(f"store {size}: {facts}", flush=True)
            if size not in sizes:
                continue
            copy = work_dir / f"store_{size}.db"
            shutil.copyfile(path, copy)
            work = {
                "queries": [[q.text, q.language] for q in queries],
                "new": [[s.text, s.language] for s in held[:100]],
                "again": again_rows(sv, path, again),
                "repeats": args.repeats,
            }
            (work_dir / "work.json").write_text(json.dumps(work))
            out = work_dir / f"result_{size}.json"
            load_before = os.getloadavg()[0]
            run([sys.executable, str(BENCH / "measure_engine.py"), str(copy), str(work_dir / "work.json"), str(out)],
                env={"PYTHONPATH": str(BENCH)})  # fmt: skip
            results[size] = json.loads(out.read_text())
            results[size]["load"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
            copy.unlink()
            print(f"measured {size}: recall p50 {results[size]['recall_all']['p50']} ms", flush=True)
        turn = None
        if args.turn_size:
            turn = turn_latency(sv, key, cache, work_dir, args, queries)
    finally:
        shutil.rmtree(work_dir, ignore_errors=True)

    if turn:
        turn["summary"] = report.turn_summary(turn)
    doc = {
        "machine": machine(),
        "command": runinfo.command(),
        "results": results,
        "builds": builds,
        "turn": turn,
        "corpus": {
            "sentences": len(sv.sentences),
            "queries": len(queries),
            "locomo_queries": sum(q.origin == "locomo" for q in queries),
            "xquad_queries": sum(q.origin == "xquad" for q in queries),
        },
        "recipe": {  # how store_builder built the stores, for the report's description
            "held_out": store_builder.HELD_OUT,
            "buckets": len(store_builder.BUCKETS),
            "areas": list(store_builder.AREAS),
            "persons": list(store_builder.PERSONS),
            "span_days": store_builder.SPAN_DAYS,
            "not_active_share": store_builder.NOT_ACTIVE_SHARE,
        },
    }
    saved = Path(args.results)
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {saved}")
    out_path = (REPO / args.out) if not Path(args.out).is_absolute() else Path(args.out)
    for path in report.generate(report.load(saved), out_path, Path(args.images)):
        print(f"wrote {path}")


def again_rows(sv: store_builder.SentenceVectors, db: Path, idxs: list[int]) -> list[list[object]]:
    """[text, language, scope, owner, area] of stored rows of these sentences (their own bucket)."""
    import sqlite3  # noqa: PLC0415

    conn = sqlite3.connect(db)
    rows = []
    for idx in idxs:
        s = sv.sentences[idx]
        row = conn.execute(
            "SELECT scope, owner_id, area_id FROM memories WHERE content = ? AND scope != 'system' LIMIT 1",
            (s.text,),
        ).fetchone()
        if row:
            rows.append([s.text, s.language, *row])
    conn.close()
    return rows


def turn_latency(sv, key, cache, work_dir, args, queries):
    path = store_builder.store_path(cache, key, args.turn_size)
    loc = [[q.text, q.language] for q in queries if q.origin == "locomo"][:16]
    xq = [[q.text, q.language] for q in queries if q.origin == "xquad"]
    sentences = [*map(list, TURN_SIMPLE), *loc]
    for lang in corpus.XQUAD_LANGUAGES:
        sentences += [s for s in xq if s[1] == lang][:3]
    work = {"db": str(path), "sentences": sentences, "repeats": args.turn_repeats}
    (work_dir / "turn.json").write_text(json.dumps(work))
    out = work_dir / "turn_out.json"
    run([sys.executable, "-m", "pytest", "-p", "no:sugar", "-q", "-o", "timeout=1800", str(BENCH / "ha_turn.py")],
        env={"BENCH_TURN_WORK": str(work_dir / "turn.json"), "BENCH_TURN_OUT": str(out)})  # fmt: skip
    data = json.loads(out.read_text())
    data["size"] = args.turn_size
    data["load"] = round(os.getloadavg()[0], 2)
    return data


if __name__ == "__main__":
    main()
