"""bench/measure_store.py on a tiny store (400 rows, random unit vectors: nothing here depends on
meaning): the selective person owns 1 % of the rows, the exact SQLite index finds the exact top-10,
and PostgreSQL (a real server, the pg_url fixture) and ChromaDB run through to their figures."""

from __future__ import annotations

import measure_store
import numpy as np
import pytest
import store_builder
from corpus import Sentence

ROWS = 400
QUERIES = [
    ["What does Anna like to cook?", "en"],
    ["Wann kommt der Zug?", "de"],
    ["¿Dónde está la llave?", "es"],
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory):
    """(SQLite store built by store_builder, its rows as measure_store reads them, work dict)."""
    root = tmp_path_factory.mktemp("tiny")
    rng = np.random.default_rng(5)
    n = 300 + store_builder.HELD_OUT
    vectors = rng.standard_normal((n, 512)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    sentences = [Sentence(f"Sentence number {i} about the household.", "en", "turn") for i in range(n)]
    sv = store_builder.SentenceVectors(sentences, vectors, None)
    db = root / "store.db"
    store_builder.build_store(sv, ROWS, db)
    np.save(root / "vectors.npy", vectors)
    work = {"queries": QUERIES, "new": [["Anna likes green tea.", "en"]], "again": [], "repeats": 1,
            "held_out": [n - 1], "vectors": str(root / "vectors.npy")}  # fmt: skip
    return db, measure_store.stored_rows(db), work, root


def test_one_person_owns_one_percent(tiny) -> None:
    _, rows, _, _ = tiny
    guest = [r for r in rows if r["owner_id"] == measure_store.GUEST]
    assert len(rows) == ROWS
    assert len(guest) == ROWS // 100
    assert all(r["scope"] == "private" for r in guest)


def test_exact_sqlite_index_returns_the_exact_top_10(tiny) -> None:
    db, rows, work, root = tiny
    out = measure_store.measure_sqlite(rows, work, db, root / "copy.db")
    assert set(out["ann"]) == set(measure_store.FILTERS)
    for name, ann in out["ann"].items():
        assert ann["recall_at_10"] == 1.0, name
    assert out["ann"][measure_store.SELECTIVE]["rows"] == ROWS // 100


@pytest.mark.timeout(120)
def test_postgres_and_chroma_run_through(tiny, pg_url: str) -> None:
    _, rows, work, root = tiny
    pg = measure_store.measure_postgres(rows, work, pg_url)
    assert pg["setup"]["rows"] == ROWS
    assert pg["import"]["hnsw_dropped"]  # the bulk load ran without the index
    assert pg["recall_all"]["n"] == len(QUERIES) * len(measure_store.SPEAKERS)
    assert pg["remember"]["n"] == 1
    chroma = measure_store.measure_chroma(rows, work, root / "chroma")
    assert chroma["add_one"]["n"] == 1
    for out in (pg, chroma):
        selective = out["ann"][measure_store.SELECTIVE]
        assert selective["returned_mean"] == ROWS // 100  # fewer than 10 rows granted: all of them
        for name, ann in out["ann"].items():
            assert ann["recall_at_10"] >= 0.9, name
