"""One store size on PostgreSQL + pgvector or on ChromaDB, in a fresh process, over exactly the
rows of the SQLite store bench/store_builder.py built (same sentences, vectors, buckets).

Usage (run by recall_latency.py):
    measure_store.py postgres SQLITE_DB WORK_JSON OUT_JSON URL
    measure_store.py chroma   SQLITE_DB WORK_JSON OUT_JSON DIRECTORY
    measure_store.py sqlite   SQLITE_DB WORK_JSON OUT_JSON COPY_PATH
WORK_JSON: measure_engine.py's, plus "held_out": [sentence index, ...] (vectors for Chroma's single
adds) and "vectors": the cached sentence-vector .npy file. SQLITE_DB is only read. The queries are
embedded with the bundled encoder, one at a time, as the engine embeds them.

The rows are read from SQLITE_DB as the move between stores exports them (TRANSFER_TABLES
columns, the SQLite schema's formats). One change: GUEST_SHARE of the store — private memories of
person.leo, who never speaks in this benchmark — belong to GUEST instead, so that one person's
private memories are 1 % of the store (the selective filter); what the two benchmark speakers see is
the same rows as in the SQLite run.

- postgres: PostgresStore.import_records in IMPORT_BATCH batches (the store's bulk path; it builds its
  own indexes), timed as the bulk import rate; then a MemoryEngine over a new PostgresStore on the
  same database: recall / remember exactly as measure_engine.py times them on SQLite, and the
  vector legs through store.semantic against the exact answer (ann_recall below).
- sqlite: the vector legs only (SqliteStore.semantic on a copy with the same GUEST rows): the
  engine rows of SQLite are measure_engine.py's, on the unchanged file.
- chroma: chromadb.PersistentClient in DIRECTORY, one collection in cosine space (chromadb's default
  HNSW parameters), the same vectors with scope / owner / area / status as metadata, added in
  batches of the client's maximum; queries with a metadata `where` compiled from the same
  Visibility.grants() the stores compile; add rate, single add, query p50/p95 and recall@10.

Recall@10 against exact search: the exact top-10 is computed in numpy over every vector, among the
current rows a filter grants (Visibility.allows, the one statement of the rule); ties at the 10th
place (the store holds identical sentences in several buckets) count as found whichever copy
is returned (measure_engine._found).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import engine_import
import numpy as np

engine_import.install()
from measure_engine import SPEAKERS, _found, breakdown, embed_queries, pct, time_recall, time_remember  # noqa: E402

from custom_components.memory.engine.embedding.bundled import BUNDLED_IDENTITY, BundledEmbedder  # noqa: E402
from custom_components.memory.engine.engine import MemoryEngine  # noqa: E402
from custom_components.memory.engine.models import Scope, Speaker, Status  # noqa: E402
from custom_components.memory.engine.store.base import TRANSFER_TABLES, Visibility  # noqa: E402

K = 10  # recall@10, the measure
GUEST = "person.guest"  # the selective filter's person (see the module docstring)
GUEST_FROM = "person.leo"  # never a benchmark speaker (measure_engine.SPEAKERS)
GUEST_SHARE = 0.01  # the issue: one person's private memories, 1 % of the store
IMPORT_BATCH = 5000  # rows per import_records call (one transaction each)
HOUSEHOLD = "bench"
KNOWN = SPEAKERS["known person in the kitchen"]
ADMIN = Visibility(everything=True, area_id=None, owner_id=None)
SELECTIVE = "selective: one person's private (1 %)"
FILTERS = {  # name -> the Visibility whose grants filter the vector query
    "no filter (admin view)": ADMIN,
    "visible to the known person": Visibility.of(KNOWN),
    # semantic()'s owned leg: vis.owner_id's PRIVATE memories only
    SELECTIVE: Visibility.of(Speaker(person_id=GUEST, area_id=None)),
}


def stored_rows(db: Path) -> list[dict[str, Any]]:
    """Every memory of the SQLite file as a TRANSFER_TABLES record (created_at, id order), with
    GUEST_SHARE of the store (by id order among GUEST_FROM's private rows) owned by GUEST."""
    columns = TRANSFER_TABLES["memories"]
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    rows = [
        dict(r) for r in conn.execute(f"SELECT {', '.join(columns)} FROM memories ORDER BY created_at, id")
    ]
    conn.close()
    theirs = sorted((r for r in rows if r["scope"] == Scope.PRIVATE.value and r["owner_id"] == GUEST_FROM),
                    key=lambda r: r["id"])  # fmt: skip
    wanted = round(len(rows) * GUEST_SHARE)
    if len(theirs) < wanted:
        raise SystemExit(f"{GUEST_FROM} owns {len(theirs)} private rows, fewer than {wanted}")
    for r in theirs[:wanted]:
        r["owner_id"] = GUEST
    return rows


class Exact:
    """Exact cosine top-k over every row, under a Visibility's grants (current rows only)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.ids = [r["id"] for r in rows]
        self.matrix = np.stack([np.frombuffer(r["embedding"], dtype="<f4") for r in rows])
        self._rows = [
            SimpleNamespace(scope=Scope(r["scope"]), owner_id=r["owner_id"], area_id=r["area_id"])
            for r in rows
        ]
        self._active = np.array([r["status"] == Status.ACTIVE.value for r in rows])

    def rows_of(self, vis: Visibility, owned: bool) -> np.ndarray:
        """Indexes of the current rows `vis` grants; `owned`: only vis.owner_id's PRIVATE ones."""
        mask = self._active & np.array([vis.allows(r) for r in self._rows])
        if owned:
            mask &= np.array([r.scope is Scope.PRIVATE and r.owner_id == vis.owner_id for r in self._rows])
        return np.flatnonzero(mask)

    def found(self, rows: np.ndarray, vec: np.ndarray, got: list[str], k: int = K) -> float:
        """Share of the exact top-k among `rows` that `got` holds (ties counted as found)."""
        if rows.size <= k:  # every granted row is in the exact top-k
            return len({self.ids[i] for i in rows} & set(got)) / max(1, rows.size)
        sims = self.matrix[rows] @ vec
        return _found(sims, [self.ids[i] for i in rows], set(got), k, -1.0) or 0.0


def ann_stats(exact: Exact, qvecs: list[np.ndarray], search) -> dict[str, dict[str, Any]]:
    """Per FILTERS entry: latency of `search(vec, name, vis) -> [id, ...]` (pct, ms, after one
    untimed pass), recall@K against exact (mean / min over the queries) and the mean count returned."""
    out = {}
    for name, vis in FILTERS.items():
        rows = exact.rows_of(vis, owned=name == SELECTIVE)
        for vec in qvecs[:20]:  # warm-up
            search(vec, name, vis)
        times, shares, returned = [], [], []
        for vec in qvecs:
            s = time.perf_counter_ns()
            got = search(vec, name, vis)
            times.append(time.perf_counter_ns() - s)
            shares.append(exact.found(rows, vec, got))
            returned.append(len(got))
        out[name] = {"latency": pct(times), "recall_at_10": round(float(np.mean(shares)), 4),
                     "recall_at_10_min": round(float(np.min(shares)), 3),
                     "returned_mean": round(float(np.mean(returned)), 2), "rows": int(rows.size)}  # fmt: skip
    return out


def batches(rows: list[Any], size: int):
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def measure_postgres(rows: list[dict[str, Any]], work: dict[str, Any], url: str) -> dict[str, Any]:
    from custom_components.memory.engine.store.postgres import PostgresStore  # noqa: PLC0415

    out: dict[str, Any] = {"rows": len(rows)}
    store = PostgresStore(url, household=HOUSEHOLD)
    store.open(BUNDLED_IDENTITY)  # the schema, and the (empty) HNSW index
    dropped = drop_hnsw(url)  # built again after the load, by the next open()
    started = time.perf_counter()
    for batch in batches(rows, IMPORT_BATCH):
        store.import_records("memories", batch)
    loaded = time.perf_counter() - started
    store.close()

    engine = MemoryEngine(PostgresStore(url, household=HOUSEHOLD), BundledEmbedder())
    t0 = time.perf_counter()
    engine.store.open(engine.embedder.identity)  # builds the HNSW index over the loaded rows
    t1 = time.perf_counter()
    engine.open()
    t2 = time.perf_counter()
    seconds = loaded + (t1 - t0)
    out["import"] = {"load_s": round(loaded, 2), "index_s": round(t1 - t0, 2), "seconds": round(seconds, 2),
                     "per_s": round(len(rows) / seconds), "hnsw_dropped": dropped}  # fmt: skip
    out["setup"] = {"encoder_warm_s": round(t2 - t1, 3), "rows": engine.stats().memories}
    out["settings"] = server_settings(url)
    queries = [(q, lang) for q, lang in work["queries"]]
    qvecs, out["embed"] = embed_queries(engine, queries)
    with counted_round_trips() as statements:
        out.update(time_recall(engine, queries, qvecs, work["repeats"], statements))
    out["breakdown"] = breakdown(engine, queries, qvecs, KNOWN)

    def search(vec: np.ndarray, name: str, vis: Visibility) -> list[str]:
        top, owned = engine.store.semantic(vec, vis, K, owned_k=K if name == SELECTIVE else 0)
        return [i for i, _ in (owned if name == SELECTIVE else top)]

    out["ann"] = ann_stats(Exact(rows), qvecs, search)
    out.update(time_remember(engine, work))
    engine.close()
    return out


@contextlib.contextmanager
def counted_round_trips():
    """A counter of the round trips psycopg makes to the server while inside: each statement sent
    outside a pipeline, and each pipeline (its statements go together, answered in one go) —
    commits aside: recall sends none."""
    import psycopg  # noqa: PLC0415

    sent = [0]
    execute, pipeline = psycopg.AsyncCursor.execute, psycopg.AsyncConnection.pipeline

    async def counted_execute(self, *args, **kwargs):
        if self._conn._pipeline is None:
            sent[0] += 1
        return await execute(self, *args, **kwargs)

    def counted_pipeline(self):
        if self._pipeline is None:
            sent[0] += 1
        return pipeline(self)

    psycopg.AsyncCursor.execute, psycopg.AsyncConnection.pipeline = counted_execute, counted_pipeline
    try:
        yield lambda: sent[0]
    finally:
        psycopg.AsyncCursor.execute, psycopg.AsyncConnection.pipeline = execute, pipeline


def drop_hnsw(url: str) -> list[str]:
    """Drop the HNSW indexes on memories (the store's open() makes them when missing): a bulk load
    into an empty table is faster without, and one build over every row after it gives the same
    graph as a move between stores onto a fresh database. Returns the names dropped."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(url, autocommit=True) as conn:
        names = [n for (n,) in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'memories' AND indexdef ILIKE '%USING hnsw%'")]  # fmt: skip
        for name in names:
            conn.execute(f'DROP INDEX "{name}"')
    return names


def server_settings(url: str) -> dict[str, str]:
    """The server's version and the settings that size a vector search (recorded with the run)."""
    import psycopg  # noqa: PLC0415

    names = (
        "server_version",
        "shared_buffers",
        "work_mem",
        "effective_cache_size",
        "max_parallel_workers_per_gather",
    )
    with psycopg.connect(url) as conn:
        out = {n: str(conn.execute(f"SHOW {n}").fetchone()[0]) for n in names}
        out["vector"] = str(
            conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()[0]
        )
    return out


def chroma_where(vis: Visibility, owned: bool) -> dict[str, Any]:
    """vis.grants() as a chromadb `where` over current rows; `owned`: vis.owner_id's PRIVATE rows."""
    current = {"status": Status.ACTIVE.value}
    if owned:
        return {"$and": [current, {"scope": Scope.PRIVATE.value}, {"owner": vis.owner_id}]}
    grants = vis.grants()
    if grants is None:
        return current
    clauses: list[dict[str, Any]] = []
    for grant in grants:
        scope = {"scope": grant.scope.value}
        if grant.column is None:
            clauses.append(scope)
        else:
            column = "owner" if grant.column == "owner_id" else "area"
            clauses.append({"$and": [scope, {column: {"$in": list(grant.values)}}]})
    granted = clauses[0] if len(clauses) == 1 else {"$or": clauses}
    return {"$and": [current, granted]}


def chroma_metadata(r: dict[str, Any]) -> dict[str, str]:
    return {
        "scope": r["scope"],
        "owner": r["owner_id"] or "",
        "area": r["area_id"] or "",
        "status": r["status"],
    }


def measure_chroma(rows: list[dict[str, Any]], work: dict[str, Any], directory: Path) -> dict[str, Any]:
    import chromadb  # noqa: PLC0415

    out: dict[str, Any] = {"rows": len(rows), "chromadb": chromadb.__version__}
    client = chromadb.PersistentClient(
        path=str(directory), settings=chromadb.Settings(anonymized_telemetry=False)
    )
    collection = client.create_collection(
        "memories", configuration={"hnsw": {"space": "cosine"}}, embedding_function=None
    )
    out["hnsw"] = {k: v for k, v in (collection.configuration.get("hnsw") or {}).items()}
    started = time.perf_counter()
    for batch in batches(rows, client.get_max_batch_size()):
        collection.add(
            ids=[r["id"] for r in batch],
            embeddings=np.stack([np.frombuffer(r["embedding"], dtype="<f4") for r in batch]),
            metadatas=[chroma_metadata(r) for r in batch],
        )
    seconds = time.perf_counter() - started
    out["import"] = {"seconds": round(seconds, 2), "per_s": round(len(rows) / seconds)}

    vectors = np.load(work["vectors"], mmap_mode="r")
    qvecs = query_vectors(work)
    wheres = {name: chroma_where(vis, owned=name == SELECTIVE) for name, vis in FILTERS.items()}

    def search(vec: np.ndarray, name: str, vis: Visibility) -> list[str]:
        found = collection.query(query_embeddings=[vec], n_results=K, where=wheres[name], include=[])
        return list(found["ids"][0])

    out["ann"] = ann_stats(Exact(rows), qvecs, search)
    add_ns = []
    for n, idx in enumerate(work["held_out"]):
        s = time.perf_counter_ns()
        collection.add(ids=[f"held-{n}"], embeddings=[np.asarray(vectors[idx], dtype=np.float32)],
                       metadatas=[{"scope": "shared", "owner": "", "area": "", "status": "active"}])  # fmt: skip
        add_ns.append(time.perf_counter_ns() - s)
    out["add_one"] = pct(add_ns)
    return out


def query_vectors(work: dict[str, Any]) -> list[np.ndarray]:
    """The queries embedded by the bundled encoder one at a time, as engine.recall embeds them."""
    embedder = BundledEmbedder()
    return [embedder.embed([text])[0] for text, _ in work["queries"]]


def measure_sqlite(rows: list[dict[str, Any]], work: dict[str, Any], db: Path, copy: Path) -> dict[str, Any]:
    """The vector legs of SqliteStore.semantic on a copy of `db` with the same GUEST rows."""
    import shutil  # noqa: PLC0415

    from custom_components.memory.engine.store.sqlite import SqliteStore  # noqa: PLC0415

    shutil.copyfile(db, copy)
    conn = sqlite3.connect(copy)
    with conn:
        conn.executemany("UPDATE memories SET owner_id = ? WHERE id = ?",
                         [(GUEST, r["id"]) for r in rows if r["owner_id"] == GUEST])  # fmt: skip
    conn.close()
    store = SqliteStore(copy)
    store.open(BUNDLED_IDENTITY)

    def search(vec: np.ndarray, name: str, vis: Visibility) -> list[str]:
        top, owned = store.semantic(vec, vis, K, owned_k=K if name == SELECTIVE else 0)
        return [i for i, _ in (owned if name == SELECTIVE else top)]

    out = {"rows": len(rows), "ann": ann_stats(Exact(rows), query_vectors(work), search),
           "index_dims": store.footprint()["dims"]}  # fmt: skip
    store.close()
    return out


def main(kind: str, db: Path, work_path: Path, out_path: Path, where: str) -> None:
    work = json.loads(work_path.read_text())
    rows = stored_rows(db)
    if kind == "sqlite":
        out = measure_sqlite(rows, work, db, Path(where))
    elif kind == "postgres":
        out = measure_postgres(rows, work, where)
    elif kind == "chroma":
        out = measure_chroma(rows, work, Path(where))
    else:
        raise SystemExit(f"unknown store {kind!r}")
    out_path.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), sys.argv[5])
