"""A PostgreSQL server lost under a running engine (C33), on a real server of the test's own
(tests/postgres.OwnServer) stopped and started again: a write is refused as a write (never "read
failed"), without the password; after the first failure every call fails at once, asking the pool
for no connection (store/postgres/breaker.py); started again, the engine works without being
reopened, the old pool's connections gone."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import psycopg
import pytest

from custom_components.memory.engine.api import MemoryDraft, StoreUnavailable
from custom_components.memory.engine.embedding.bundled import BundledEmbedder
from custom_components.memory.engine.engine import MemoryEngine
from custom_components.memory.engine.models import Scope, Speaker
from custom_components.memory.engine.store.postgres import PostgresStore
from custom_components.memory.engine.store.postgres.connection import POOL_MAX
from tests.postgres import OwnServer, count_pool_requests

SECRET = "s3cr3t-Pa55"  # the server trusts its socket: any password works, none may show
JULIAN = Speaker(person_id="person.julian", area_id=None)
RECOVERY_PATIENCE = 60.0  # s: a bound on the wait for the reconnect (every 5 s), for a busy CI


def _with_password(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{scheme}://postgres:{SECRET}@{rest.split('@', 1)[1]}"


@pytest.fixture
def lost(own_server: OwnServer, encoder: BundledEmbedder) -> Iterator[tuple[MemoryEngine, OwnServer]]:
    """An open engine on the test's own server, one memory stored."""
    store = PostgresStore(_with_password(own_server.url), household="home", connect_timeout=2)
    engine = MemoryEngine(store, encoder)
    engine.open()
    engine.remember(MemoryDraft("The spare key is in the blue tin.", speaker=JULIAN, scope=Scope.SHARED))
    try:
        yield engine, own_server
    finally:
        engine.close()


@pytest.fixture
def pool_requests(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every request for a pooled connection (a call that would wait for one), as it is made."""
    return count_pool_requests(monkeypatch)


def _draft(text: str) -> MemoryDraft:
    return MemoryDraft(text, speaker=JULIAN, scope=Scope.SHARED)


def _refused(call: Callable[[], object]) -> StoreUnavailable:
    with pytest.raises(StoreUnavailable) as caught:
        call()
    return caught.value


def test_c33_a_write_to_a_stopped_server_is_refused_as_a_write(lost: tuple[MemoryEngine, OwnServer]) -> None:
    engine, server = lost
    server.stop()
    first = _refused(lambda: engine.remember(_draft("The bins go out on Tuesday.")))
    later = _refused(lambda: engine.remember(_draft("The bins go out on Tuesday.")))
    for err in (first, later):
        assert err.writing
        assert "unavailable for writing" in str(err) and "nothing was stored" in str(err)
        assert "read failed" not in str(err)
        assert SECRET not in str(err) and "postgres:" not in str(err)
    forgot = _refused(lambda: engine.forget_person("person.julian"))  # every write says so
    assert forgot.writing and "unavailable for writing" in str(forgot)


def test_c33_after_the_first_failure_calls_fail_at_once_asking_no_connection(
    lost: tuple[MemoryEngine, OwnServer], pool_requests: list[int]
) -> None:
    engine, server = lost
    server.stop()
    assert engine.recall("Where is the spare key?", JULIAN) == []  # the first call finds it down
    asked = len(pool_requests)
    assert asked >= 1
    assert engine.recall("Where is the spare key?", JULIAN) == []  # recall never raises
    _refused(lambda: engine.remember(_draft("The bins go out on Tuesday.")))
    _refused(engine.stats)
    _refused(lambda: engine.list_memories(JULIAN))
    assert len(pool_requests) == asked  # none of them waited for the pool


def test_c33_started_again_the_engine_works_without_reopening(
    lost: tuple[MemoryEngine, OwnServer], pool_requests: list[int]
) -> None:
    engine, server = lost
    server.stop()
    _refused(lambda: engine.remember(_draft("The bins go out on Tuesday.")))
    admin = server.start()
    deadline = time.monotonic() + RECOVERY_PATIENCE
    while True:  # the background reconnect (every breaker.RECONNECT_EVERY) closes the breaker
        try:
            engine.stats()
            break
        except StoreUnavailable:
            assert time.monotonic() < deadline, "the store did not reconnect by itself"
            time.sleep(0.2)
    assert [h.memory.content for h in engine.recall("Where is the spare key?", JULIAN)] == [
        "The spare key is in the blue tin."
    ]
    engine.remember(_draft("The bins go out on Tuesday."))
    assert [m.content for m in engine.list_memories(JULIAN)] == [
        "The bins go out on Tuesday.",
        "The spare key is in the blue tin.",
    ]
    # the fresh pool is the only one: the old one's connections are closed, not leaked
    with psycopg.connect(admin, autocommit=True) as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'home-assistant-memory'"
        ).fetchone()  # type: ignore[misc]
    assert 1 <= count <= POOL_MAX
