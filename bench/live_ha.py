"""A real Home Assistant for the reliability benchmarks (load_ha.py, crash_ha.py, faults_ha.py):
a `hass` child process on a fresh config directory (scripts/demo_lib/server.py), provisioned like
a household (scripts/demo_lib/household.py: owner, Julian, Anna, a guest, the kitchen and hall
satellites, the memory integration through its config flow on the store the benchmark chose,
Assist pipelines), driven over REST and WebSocket as users and satellites do.

- `first_start` starts hass, provisions it, creates a long-lived access token per user (what a
  restart needs: the login tokens are short-lived), saves the household's ids and tokens in the
  config dir (STATE_FILE) and stops hass cleanly (HA writes its registries seconds after a change:
  a crash right after provisioning would lose them). `start` then (re)starts hass on that config
  dir and waits until the memory entry is loaded.
- AUTOMATIONS: two real automations (mode parallel) an event triggers, calling memory.remember
  (observed) and memory.forget with `response_variable`, then firing an event with the token of
  the trigger and the memory id (empty when the call failed: continue_on_error); `EventWaiter`
  resolves one future per token.
- The PostgreSQL store: `postgres_store` starts the embedded server (tests/postgres.py) in a
  directory of the run and, if asked, imports the rows of a SQLite store file into a fresh database
  (the household key HOUSEHOLD), as a move between stores would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(1, str(REPO))

from demo_lib.client import HAClient, HAError, speech_of  # noqa: E402
from demo_lib.household import provision  # noqa: E402
from demo_lib.server import HassProcess, free_port, write_config  # noqa: E402

VENV = Path(sys.prefix)  # the venv running the benchmark: its bin/hass is the one started
STATE_FILE = "bench_household.json"  # ids and long-lived tokens of the provisioned household
TOKEN_DAYS = 30  # lifespan of the long-lived access tokens (the config dir is thrown away)
USERS = ("julian", "anna", "guest")  # household.provision's users besides the owner
HOUSEHOLD = "home"  # the PostgreSQL household key the benchmarks use
LOADED_TIMEOUT = 300  # s until the memory entry is loaded after a start (10k vectors, the encoder)
DB_FILE = "household_memory.db"  # the config flow's default SQLite file (const.DEFAULT_DB_PATH)
REMEMBER_EVENT, REMEMBERED_EVENT = "bench_remember", "bench_remembered"
FORGET_EVENT, FORGOTTEN_EVENT = "bench_forget", "bench_forgotten"
AUTOMATIONS = f"""
automation:
  - id: bench_remember
    alias: Benchmark observation
    mode: parallel
    max: 1000
    triggers:
      - trigger: event
        event_type: {REMEMBER_EVENT}
    actions:
      - action: memory.remember
        data:
          content: "{{{{ trigger.event.data.content }}}}"
          observed: true
        response_variable: written
        continue_on_error: true
      - event: {REMEMBERED_EVENT}
        event_data:
          token: "{{{{ trigger.event.data.token }}}}"
          memory_id: "{{{{ written.memory.id if written is defined else '' }}}}"
          action: "{{{{ written.action if written is defined else '' }}}}"
  - id: bench_forget
    alias: Benchmark forget
    mode: parallel
    max: 1000
    triggers:
      - trigger: event
        event_type: {FORGET_EVENT}
    actions:
      - action: memory.forget
        data:
          memory_id: "{{{{ trigger.event.data.memory_id }}}}"
        response_variable: gone
        continue_on_error: true
      - event: {FORGOTTEN_EVENT}
        event_data:
          token: "{{{{ trigger.event.data.token }}}}"
          memory_id: "{{{{ gone.forgotten.id if gone is defined else '' }}}}"
"""


def sqlite_answers() -> dict[str, Any]:
    """The memory config flow's answers for the SQLite store (DB_FILE in the config dir)."""
    return {"storage": "sqlite", "db_path": DB_FILE, "encoder": "bundled"}


def postgres_answers(url: str) -> dict[str, Any]:
    """The memory config flow's answers for PostgreSQL at `url`, household HOUSEHOLD."""
    return {"storage": "postgresql", "encoder": "bundled", "db_url": url, "household": HOUSEHOLD}


@dataclass
class Live:
    """A provisioned household on a running hass: who is who, and a connected owner client."""

    base_url: str
    session: aiohttp.ClientSession
    tokens: dict[str, str]  # "owner", "julian", "anna", "guest" -> long-lived access token
    devices: dict[str, str]  # "kitchen", "hall" -> satellite device id
    pipelines: dict[str, str]  # language -> Assist pipeline id
    entry_id: str
    owner: HAClient = field(init=False)
    _clients: list[HAClient] = field(default_factory=list)

    async def client(self, who: str) -> HAClient:
        """A new WebSocket connection as `who` (one per concurrent caller: a client reads its
        replies in order). Closed by close()."""
        client = HAClient(self.session, self.base_url, self.tokens[who], who)
        await client.connect()
        self._clients.append(client)
        return client

    async def close(self) -> None:
        for client in self._clients:
            with contextlib.suppress(Exception):
                await client.close()
        self._clients = []

    async def service(self, name: str, data: dict[str, Any]) -> dict[str, Any]:
        """memory.<name> over REST as the owner, with its response; raises HAError (HA's REST API
        answers an error the action raised with status 500 and no message: see call())."""
        reply = await self.owner.rest("POST", f"/api/services/memory/{name}?return_response", data)
        return dict((reply or {}).get("service_response") or {})

    async def call(self, name: str, data: dict[str, Any]) -> dict[str, Any]:
        """memory.<name> over the owner's WebSocket (call_service, as the frontend and the
        automation editor call it), with its response; raises HAError holding the error's code,
        translated message and translation_key. One call at a time on the owner's socket."""
        reply = await self.owner.ws(
            "call_service", domain="memory", service=name, service_data=data, return_response=True
        )
        return dict((reply or {}).get("response") or {})

    async def say(
        self, client: HAClient, text: str, room: str, conversation_id: str | None = None
    ) -> tuple[str, dict[str, Any]]:
        """One text turn through the English Assist pipeline at `room`'s satellite as `client`'s
        user: (the spoken answer, the intent output)."""
        output = await client.run_pipeline(
            text,
            pipeline_id=self.pipelines["en"],
            device_id=self.devices[room],
            conversation_id=conversation_id,
        )
        return speech_of(output), output

    async def entry(self) -> dict[str, Any]:
        """The memory config entry as Settings → Devices & services shows it: `state` ("loaded",
        "setup_retry", "setup_error", …) and `reason` (the message of a failed set-up)."""
        entries = await self.owner.ws("config_entries/get", domain="memory")
        return next((e for e in entries if e["entry_id"] == self.entry_id), {"state": "missing"})

    async def entry_state(self) -> str:
        """The memory config entry's state (see entry())."""
        return str((await self.entry())["state"])

    async def repair_issues(self) -> list[dict[str, Any]]:
        """The memory integration's repair issues (repairs/list_issues, as the Repairs page)."""
        issues = (await self.owner.ws("repairs/list_issues")).get("issues") or []
        return [i for i in issues if i.get("domain") == "memory"]


def prepare(config_dir: Path, *, automations: bool = True, prefix: tuple[str, ...] = ()) -> HassProcess:
    """A fresh config dir (wiped) with the integrations linked and, if asked, AUTOMATIONS;
    `prefix`: see HassProcess."""
    port = free_port()
    write_config(config_dir, REPO, port, fresh=True)
    if automations:
        with (config_dir / "configuration.yaml").open("a", encoding="utf-8") as yaml:
            yaml.write(AUTOMATIONS)
    return HassProcess(VENV, config_dir.resolve(), port, prefix=prefix)


async def first_start(
    hass: HassProcess, session: aiohttp.ClientSession, answers: dict[str, Any], say: Callable[[str], None]
) -> None:
    """Start hass on its fresh config dir, provision the household with the memory config flow's
    `answers`, save STATE_FILE, stop hass cleanly. Raises HAError when a step fails."""
    hass.start()
    await hass.wait_ready()
    household = await provision(session, hass.base_url, say, answers)
    try:
        if household.setup_problems or household.memory_entry is None:
            raise HAError(f"set-up failed: {household.setup_problems}")
        tokens = {"owner": await _long_lived(household.owner)}
        for who in USERS:
            tokens[who] = await _long_lived(household.clients[who])
        state = {
            "tokens": tokens,
            "devices": household.devices,
            "pipelines": household.pipelines,
            "entry_id": household.memory_entry["entry_id"],
        }
        (hass.config_dir / STATE_FILE).write_text(json.dumps(state), encoding="utf-8")
    finally:
        await household.close()
    hass.stop()


async def _long_lived(client: HAClient) -> str:
    return str(await client.ws("auth/long_lived_access_token", client_name="bench", lifespan=TOKEN_DAYS))


async def start(hass: HassProcess, session: aiohttp.ClientSession, *, loaded: bool = True) -> Live:
    """Start the provisioned hass; returns the household with the owner connected once HA runs
    and (loaded=True) the memory entry is loaded. Raises TimeoutError, HAError."""
    hass.start()
    await hass.wait_ready(path="/api/", ok=(401,))
    state = json.loads((hass.config_dir / STATE_FILE).read_text(encoding="utf-8"))
    live = Live(
        hass.base_url, session, state["tokens"], state["devices"], state["pipelines"], state["entry_id"]
    )
    live.owner = await live.client("owner")
    if loaded:
        await wait_for_entry(live, {"loaded"})
    return live


async def wait_for_entry(live: Live, states: set[str], seconds: float = LOADED_TIMEOUT) -> str:
    """Wait up to `seconds` until the memory entry is in one of `states`; returns it. Raises
    TimeoutError."""
    deadline = time.monotonic() + seconds
    state = ""
    while time.monotonic() < deadline:
        with contextlib.suppress(HAError):
            state = await live.entry_state()
            if state in states:
                return state
        await asyncio.sleep(0.5)
    raise TimeoutError(f"memory entry still {state!r} after {seconds}s (wanted {sorted(states)})")


class EventWaiter:
    """A WebSocket of its own subscribed to one event type; `expect(token)` returns a future
    that gets the data of the event whose `token` field matches (the automations' answer)."""

    def __init__(self, client: HAClient, event_type: str) -> None:
        self._client = client
        self._event_type = event_type
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._client.ws("subscribe_events", event_type=self._event_type)
        self._reader = asyncio.create_task(self._read())

    def expect(self, token: str) -> asyncio.Future[dict[str, Any]]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[token] = future
        return future

    async def _read(self) -> None:
        ws = self._client._ws  # the client's own socket, read by this listener alone
        assert ws is not None
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = msg.json()
            if data.get("type") != "event":
                continue
            event = (data.get("event") or {}).get("data") or {}
            future = self._waiting.pop(str(event.get("token")), None)
            if future is not None and not future.done():
                future.set_result(event)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader


@contextlib.contextmanager
def postgres_server(datadir: Path) -> Iterator[str]:
    """The embedded PostgreSQL (tests/postgres.py) on `datadir`; yields its admin URL."""
    from tests import postgres  # noqa: PLC0415 - only the PostgreSQL runs need it

    with postgres.server(datadir) as url:
        yield url


def postgres_store(admin_url: str, sqlite_rows: Path | None) -> str:
    """A fresh database on the server of `admin_url` holding (if given) every memory of the SQLite
    store file `sqlite_rows` under HOUSEHOLD; its URL."""
    import engine_import  # noqa: PLC0415

    engine_import.install()
    from custom_components.memory.engine.embedding.bundled import BUNDLED_IDENTITY  # noqa: PLC0415
    from custom_components.memory.engine.store.postgres import PostgresStore  # noqa: PLC0415
    from custom_components.memory.engine.store.sqlite import SqliteStore  # noqa: PLC0415
    from tests import postgres  # noqa: PLC0415

    url = postgres.fresh_database(admin_url)
    if sqlite_rows is None:
        return url
    source, target = SqliteStore(sqlite_rows), PostgresStore(url, household=HOUSEHOLD)
    source.open(BUNDLED_IDENTITY)
    target.open(BUNDLED_IDENTITY)
    try:
        for batch in source.export_records("memories", batch=5000):
            target.import_records("memories", batch)
    finally:
        source.close()
        target.close()
    return url


@dataclass
class StoreFacts:
    """What a store's database holds, read directly (not through Home Assistant)."""

    checks: dict[str, Any]  # counts and the integrity check; see sqlite_facts / postgres_facts
    ids: set[str]  # every memory id
    contents: set[str]  # every memory text


DUPLICATE_CURRENT = (  # rows beyond the first of the same text in the same bucket, status active
    "SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM memories WHERE status = 'active' {and_household}"
    "GROUP BY content, scope, coalesce(owner_id, ''), coalesce(area_id, '') HAVING count(*) > 1) d"
)


def sqlite_facts(db: Path, *, as_found: bool = False) -> StoreFacts:
    """The SQLite store file `db`: PRAGMA integrity_check, the memory rows and their two full-text
    rows, rows without a vector, duplicate current rows. as_found=True reads a copy of the file and
    its WAL (what the next start opens: SQLite replays the WAL into the copy), leaving the file as a
    crash left it; else the file itself, read-only (after a clean stop)."""
    with tempfile.TemporaryDirectory(prefix="store-copy-") as tmp:
        path = db
        if as_found:
            path = Path(tmp) / db.name
            for suffix in ("", "-wal"):
                if Path(f"{db}{suffix}").exists():
                    shutil.copyfile(f"{db}{suffix}", f"{path}{suffix}")
        conn = sqlite3.connect(path if as_found else f"file:{path}?mode=ro", uri=not as_found)
        try:

            def one(sql: str) -> Any:
                return conn.execute(sql).fetchone()[0]

            checks = {
                "integrity_check": one("PRAGMA integrity_check"),
                "memories": one("SELECT count(*) FROM memories"),
                "fts_rows": one("SELECT count(*) FROM memories_fts"),
                "terms_rows": one("SELECT count(*) FROM memories_terms"),
                "without_fts": one(
                    "SELECT count(*) FROM memories WHERE rowid NOT IN (SELECT rowid FROM memories_fts) "
                    "OR rowid NOT IN (SELECT rowid FROM memories_terms)"
                ),
                "without_vector": one("SELECT count(*) FROM memories WHERE embedding IS NULL"),
                "duplicate_current_rows": one(DUPLICATE_CURRENT.format(and_household="")),
            }
            rows = conn.execute("SELECT id, content FROM memories").fetchall()
        finally:
            conn.close()
    return StoreFacts(checks, {i for i, _ in rows}, {c for _, c in rows})


def postgres_facts(url: str) -> StoreFacts:
    """The PostgreSQL store (household HOUSEHOLD): the memory rows, rows without their full-text
    columns or vector, duplicate current rows."""
    import psycopg  # noqa: PLC0415

    with psycopg.connect(url) as conn:

        def one(sql: str) -> int:
            return int(conn.execute(sql, (HOUSEHOLD,)).fetchone()[0])  # type: ignore[index]

        checks = {
            "memories": one("SELECT count(*) FROM memories WHERE household = %s"),
            "without_search_columns": one(
                "SELECT count(*) FROM memories WHERE household = %s AND (content_tsv IS NULL OR terms_tsv IS NULL)"
            ),
            "without_vector": one("SELECT count(*) FROM memories WHERE household = %s AND embedding IS NULL"),
            "duplicate_current_rows": one(DUPLICATE_CURRENT.format(and_household="AND household = %s ")),
        }
        rows = conn.execute("SELECT id, content FROM memories WHERE household = %s", (HOUSEHOLD,)).fetchall()
    return StoreFacts(checks, {i for i, _ in rows}, {c for _, c in rows})


def store_whole(checks: dict[str, Any]) -> bool:
    """A StoreFacts.checks with nothing half-written: integrity ok, each memory with its full-text
    rows (or columns) and vector, no duplicate current row."""
    memories = checks["memories"]
    return (
        checks.get("integrity_check", "ok") == "ok"
        and checks.get("fts_rows", memories) == memories == checks.get("terms_rows", memories)
        and not any(checks.get(k) for k in ("without_fts", "without_search_columns", "without_vector"))
        and checks["duplicate_current_rows"] == 0
    )


async def all_memories(live: Live, page: int = 200) -> list[dict[str, Any]]:
    """Every memory of every status through memory/list (the admin's view), `page` at a time."""
    rows: list[dict[str, Any]] = []
    while True:
        answer = await live.owner.ws("memory/list", status="any", limit=page, offset=len(rows))
        rows += answer["memories"]
        if len(rows) >= answer["total"] or not answer["memories"]:
            return rows


def pct(samples: list[float]) -> dict[str, float | int]:
    """{"n", "p50", "p99", "max"} of `samples` in ms (nearest rank)."""
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)

    def rank(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))], 1)

    return {"n": len(ordered), "p50": rank(0.50), "p99": rank(0.99), "max": round(ordered[-1], 1)}


def log_errors(hass: HassProcess) -> list[str]:
    """The ERROR lines of hass's log (home-assistant.log) that name the memory integration."""
    if not hass.log_file.is_file():
        return []
    lines = hass.log_file.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if " ERROR " in line and "memory" in line]
