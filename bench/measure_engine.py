"""One store size, measured in a fresh process (so RSS is this store's alone).

Usage (run by recall_latency.py): measure_engine.py DB_PATH WORK_JSON OUT_JSON
WORK_JSON: {"queries": [[text, language], ...], "new": [[text, language], ...],
            "again": [[text, language, scope, owner, area], ...], "repeats": int}
The DB is opened in place and written to (remember): pass a copy.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path

import engine_import
import numpy as np
import psutil

engine_import.install()
from custom_components.memory.engine import recall as recall_mod  # noqa: E402
from custom_components.memory.engine.api import MemoryDraft, RecallOptions  # noqa: E402
from custom_components.memory.engine.factory import build_engine  # noqa: E402
from custom_components.memory.engine.models import Provenance, Scope, Source, Speaker  # noqa: E402
from custom_components.memory.engine.store.base import Visibility  # noqa: E402

SPEAKERS = {
    "known person in the kitchen": Speaker(person_id="person.julian", area_id="kitchen"),
    "unknown speaker in the living room": Speaker(person_id=None, area_id="living_room"),
}
REMEMBER_SCOPES = (Scope.SHARED, Scope.PRIVATE, Scope.ROOM)


def mb(n_bytes: int) -> float:
    return round(n_bytes / 2**20, 1)


def pct(samples_ns: list[int]) -> dict[str, float]:
    ms = sorted(s / 1e6 for s in samples_ns)

    def q(p: float) -> float:
        k = (len(ms) - 1) * p
        lo, hi = int(k), min(int(k) + 1, len(ms) - 1)
        return round(ms[lo] + (ms[hi] - ms[lo]) * (k - lo), 3)

    return {"p50": q(0.50), "p95": q(0.95), "max": round(ms[-1], 3), "n": len(ms)}


def main(db: Path, work_path: Path, out_path: Path) -> None:
    work = json.loads(work_path.read_text())
    proc = psutil.Process()
    out: dict[str, object] = {}
    rss_before = proc.memory_info().rss

    engine = build_engine(str(db))
    t0 = time.perf_counter()
    engine.store.open(engine.embedder.identity)  # migrations + vectors into the matrix
    t1 = time.perf_counter()
    rss_store = proc.memory_info().rss
    engine.open()  # store already open: loads the encoder, embeds the calibration background
    t2 = time.perf_counter()
    rss_open = proc.memory_info().rss
    out["setup"] = {"store_open_s": round(t1 - t0, 3), "encoder_warm_s": round(t2 - t1, 3),
                    "engine_open_s": round(t2 - t0, 3), "rows": engine.stats().memories}  # fmt: skip

    queries = [(q, lang) for q, lang in work["queries"]]
    qvecs, out["embed"] = embed_queries(engine, queries)
    out.update(time_recall(engine, queries, qvecs, work["repeats"]))
    # where the recall time goes at this size (one pass of every query, known speaker)
    out["breakdown"] = breakdown(engine, queries, qvecs, SPEAKERS["known person in the kitchen"])
    rss_loaded = proc.memory_info().rss
    out.update(time_remember(engine, work))

    rss_after_remember = proc.memory_info().rss
    out["rss"] = {
        "after_remember_mb": mb(rss_after_remember),
        "before_open_mb": mb(rss_before),
        "after_store_open_mb": mb(rss_store),
        "after_engine_open_mb": mb(rss_open),
        "loaded_after_recalls_mb": mb(rss_loaded),
        "store_delta_mb": mb(rss_store - rss_before),
        "encoder_delta_mb": mb(rss_open - rss_store),
        "peak_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "index_mb": mb(engine.store.footprint()["index_bytes"]),
    }
    out["index_dims"] = engine.store.footprint()["dims"]
    # after every RSS figure: this reads all full vectors to know the exact answer
    if out["index_dims"] < engine.embedder.identity.dimension:
        out["pool_recall"] = pool_recall(engine, db, qvecs)
    engine.close()
    out_path.write_text(json.dumps(out, indent=1))


def embed_queries(engine, queries: list[tuple[str, str]]) -> tuple[list[np.ndarray], dict[str, float]]:
    """The queries' vectors (float32[512] each) and the embed latency: single query, warm (the
    encoder has embedded the calibration set already)."""
    embed_ns: list[int] = []
    qvecs = []
    for text, _ in queries:
        s = time.perf_counter_ns()
        vec = engine.embedder.embed([text])[0]
        embed_ns.append(time.perf_counter_ns() - s)
        qvecs.append(vec)
    return qvecs, pct(embed_ns)


def cold(store) -> None:
    """Each timed call starts without the exact vectors the one before read (SQLite's compact index
    keeps them, VectorIndex.keep_exact): the recall and its vector search are timed alike, as a
    new question would find them."""
    index = getattr(store, "_index", None)
    if index is not None:
        index.drop_exact()


def time_recall(
    engine, queries: list[tuple[str, str]], qvecs, repeats: int, statements=None
) -> dict[str, object]:
    """Recall given the vector: the public engine.recall(..., vector=) — the engine's whole pipeline
    and the access-count touch, minus its one embed call — for every query x SPEAKERS, `repeats`
    timed passes after one warm-up; each beside its own vector search (store.semantic with recall's
    pool, TRANSLATION_POOL + the speaker's own, and the speaker's visibility: what issue 30 holds
    recall against); and engine.recall end to end (embedding included, known speaker) as a
    cross-check. statements: a counter of the round trips to the server so far (PostgreSQL),
    read around every timed recall. Keys: recall (per speaker), recall_all, semantic_pool,
    recall_to_semantic (p50 / p50), hits_per_query, recall_end_to_end (pct dicts, ms), round_trips
    (mean / max per recall, with `statements`)."""
    out: dict[str, object] = {}
    options = RecallOptions()
    owned_k = recall_mod.ABOUT_SPEAKER_MAX + options.limit
    recall_ns: dict[str, list[int]] = {name: [] for name in SPEAKERS}
    semantic_ns: list[int] = []
    trips: list[int] = []
    hits_seen: dict[str, int] = {name: 0 for name in SPEAKERS}
    views = {name: Visibility.of(speaker) for name, speaker in SPEAKERS.items()}
    for rep in range(repeats + 1):  # rep 0 warms caches (FTS pages, numpy buffers)
        for (text, lang), vec in zip(queries, qvecs, strict=True):
            for name, speaker in SPEAKERS.items():
                sent = statements() if statements else 0
                cold(engine.store)
                s = time.perf_counter_ns()
                hits = engine.recall(text, speaker, replace(options, language=lang), vector=vec)
                elapsed = time.perf_counter_ns() - s
                sent = statements() - sent if statements else 0
                cold(engine.store)
                s = time.perf_counter_ns()
                engine.store.semantic(vec, views[name], recall_mod.TRANSLATION_POOL, owned_k=owned_k)
                searched = time.perf_counter_ns() - s
                if rep:
                    recall_ns[name].append(elapsed)
                    semantic_ns.append(searched)
                    trips.append(sent)
                    hits_seen[name] += len(hits)
    out["recall"] = {name: pct(v) for name, v in recall_ns.items()}
    out["recall_all"] = pct([x for v in recall_ns.values() for x in v])
    out["semantic_pool"] = pct(semantic_ns)
    out["recall_to_semantic"] = round(out["recall_all"]["p50"] / out["semantic_pool"]["p50"], 2)
    if statements:
        out["round_trips"] = {"mean": round(sum(trips) / len(trips), 2), "max": max(trips)}
    out["hits_per_query"] = {n: round(h / len(recall_ns[n]), 2) for n, h in hits_seen.items()}
    e2e_ns = []
    speaker = SPEAKERS["known person in the kitchen"]
    for text, lang in queries:
        s = time.perf_counter_ns()
        engine.recall(text, speaker, replace(options, language=lang))
        e2e_ns.append(time.perf_counter_ns() - s)
    out["recall_end_to_end"] = pct(e2e_ns)
    return out


def time_remember(engine, work: dict) -> dict[str, object]:
    """engine.remember, the full path (validate, embed, sensitive flag, dedup, tombstones, committed
    write), of work["new"] (created) and work["again"] (merged into their own bucket). Keys:
    remember (pct, ms), remember_by_action ({action: pct})."""
    remember_ns: dict[str, list[int]] = {}
    julian = SPEAKERS["known person in the kitchen"]
    for i, (text, lang) in enumerate(work["new"]):
        s = time.perf_counter_ns()
        result = engine.remember(
            MemoryDraft(
                text,
                speaker=julian,
                scope=REMEMBER_SCOPES[i % 3],
                language=lang,
                provenance=Provenance.CONFIRMED,
                source=Source.VOICE,
            )
        )
        remember_ns.setdefault(result.action.value, []).append(time.perf_counter_ns() - s)
    for text, lang, scope, owner, area in work["again"]:
        s = time.perf_counter_ns()
        result = engine.remember(
            MemoryDraft(
                text,
                speaker=julian,
                scope=Scope(scope),
                owner_id=owner,
                area_id=area,
                language=lang,
                provenance=Provenance.CONFIRMED,
                source=Source.VOICE,
            )
        )
        remember_ns.setdefault(result.action.value, []).append(time.perf_counter_ns() - s)
    return {
        "remember": pct([x for v in remember_ns.values() for x in v]),
        "remember_by_action": {k: pct(v) for k, v in remember_ns.items()},
    }


def breakdown(engine, queries, qvecs, speaker) -> dict[str, float]:
    """p50 ms of the recall steps, through the same public functions recall.recall calls: the
    store's semantic pass, recall.gather, and the rest (reading and ranking memories, the slate)
    as the whole public recall minus the two."""

    store = engine.store
    vis = Visibility.of(speaker)
    options = RecallOptions()
    owned_k = recall_mod.ABOUT_SPEAKER_MAX + options.limit
    parts: dict[str, list[int]] = {"semantic()": [], "gather()": [], "read+rank+slate": []}
    for (text, lang), vec in zip(queries, qvecs, strict=True):
        options = replace(options, language=lang)
        s = time.perf_counter_ns()
        semantic, _ = store.semantic(vec, vis, recall_mod.TRANSLATION_POOL, owned_k=owned_k)
        t_sem = time.perf_counter_ns() - s
        s = time.perf_counter_ns()
        recall_mod.gather(store, vec, semantic, query=text, vis=vis, options=options, hubness=engine.hubness)
        t_gather = time.perf_counter_ns() - s
        s = time.perf_counter_ns()
        engine.recall(text, speaker, options, vector=vec)
        t_all = time.perf_counter_ns() - s
        parts["semantic()"].append(t_sem)
        parts["gather()"].append(t_gather)
        parts["read+rank+slate"].append(max(0, t_all - t_sem - t_gather))
    return {k: pct(v)["p50"] for k, v in parts.items()}


TIE = 1e-5  # equal cosines (the store holds identical sentences in several buckets)


def _found(sims, ids, got: set[str], k: int, floor: float) -> float | None:
    """Share of the exact top-k (members ≥ floor) that `got` holds. Identical vectors tie at the
    k-th place; any of the tied ids counts, so ties split differently are not misses."""
    best = np.argpartition(-sims, k)[:k]
    kth = float(sims[best].min())
    truth = [i for i in best if sims[i] >= floor]
    if not truth:
        return None
    above = [i for i in truth if sims[i] > kth + TIE]
    tied = {ids[i] for i in np.flatnonzero(np.abs(sims - kth) <= TIE)}
    found = sum(ids[i] in got for i in above) + min(len(truth) - len(above), len(tied & got))
    return found / len(truth)


def pool_recall(engine, db: Path, qvecs) -> dict[str, float]:
    """How much of the EXACT visible top-50 (every active vector read from the file, the visibility
    rule restated here in SQL) the compact index's semantic() returns: mean and min over queries x
    speakers, and the same for the top-50 members at cosine ≥ 0.25 (what recall admits)."""
    import sqlite3  # noqa: PLC0415

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT id, embedding, scope, owner_id, area_id FROM memories WHERE status = 'active'"
    )
    ids, scope, owner, area, chunks = [], [], [], [], []
    for mid, blob, sc, ow, ar in rows:
        ids.append(mid), scope.append(sc), owner.append(ow), area.append(ar)
        chunks.append(np.frombuffer(blob, dtype="<f4"))
    conn.close()
    queries = np.stack(qvecs)
    exact = np.stack(chunks) @ queries.T  # [rows, queries]
    del chunks
    scope, owner, area = np.array(scope), np.array(owner, dtype=object), np.array(area, dtype=object)
    top_all, top_admitted = [], []
    k = recall_mod.SEMANTIC_POOL
    for speaker in SPEAKERS.values():
        vis = Visibility.of(speaker)
        mask = np.isin(scope, ["shared", "system"]) | ((scope == "room") & (area == speaker.area_id))
        mask |= (scope == "private") & (owner == speaker.person_id) & (speaker.person_id is not None)
        rows_v = np.flatnonzero(mask)
        ids_v = [ids[r] for r in rows_v]
        for qi, vec in enumerate(qvecs):
            sims = exact[rows_v, qi]
            got = {i for i, _ in engine.store.semantic(vec, vis, k)[0]}
            top_all.append(_found(sims, ids_v, got, k, -1.0))
            share = _found(sims, ids_v, got, k, 0.25)
            if share is not None:
                top_admitted.append(share)
    return {"top50_mean": round(float(np.mean(top_all)), 5), "top50_min": round(float(np.min(top_all)), 3),
            "admitted_mean": round(float(np.mean(top_admitted)), 5),
            "admitted_min": round(float(np.min(top_admitted)), 3), "n": len(top_all)}  # fmt: skip


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
