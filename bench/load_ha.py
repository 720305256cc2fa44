"""Concurrent load through a real Home Assistant (issue 26): --concurrency callers for --seconds on
a store of --size memories, on SQLite and on PostgreSQL; what every caller was told is checked
afterwards through the WebSocket API and in the database.

    scripts/python bench/load_ha.py [--seconds 60] [--concurrency 50] [--stores sqlite,postgres]
        [--size 10000] [--datasets ../shared/datasets] [--cache-dir DIR] [--out bench/results/load.json]
        [--docs docs/benchmarks.md] [--images docs/images] [--work DIR]

The store: bench/store_builder.py's store of --size real sentences (LoCoMo, XQuAD, read in place
from --datasets), copied into the config dir (SQLite) or imported into a fresh database of the
embedded PostgreSQL (live_ha.postgres_store). hass is started and provisioned by bench/live_ha.py
(household, the kitchen and hall satellites, the memory integration through its config flow,
two automations). The callers, all at once (SHARES of --concurrency):
- conversations: Julian, Anna and the guest, each on their own WebSocket, at the kitchen and hall
  satellites (assist_pipeline/run, intent stage, device_id): "Remember: Crate <tag> holds … and
  stands in …." (a tag no other memory holds), "What do you know about crate <tag>?" in the same
  conversation (must be answered with it; a recall through the memory sentence, read out by rank), now and then a question about a crate this caller had forgotten
  (must not come back), and every second round "Forget that." + "yes";
- automations: an event triggers the real automation that calls memory.remember (observed) with
  `response_variable` and answers with an event carrying the id; every third one is forgotten
  again through the memory.forget automation;
- the admin's panel: memory/list (a random page of 200), memory/search (a recent crate), memory/overview.

Checks (each a count; all must be 0): failed or unexpected answers (errors), an acknowledged
memory missing afterwards, a forgotten one still stored, a duplicate current row (same content
and bucket, status active), a forgotten memory returned by a read that began after its forget
was acknowledged, a crate not found by the question right after it was stored, a row count other
than before + acknowledged - forgotten; in the database: PRAGMA integrity_check and every memory
row with its full-text rows (SQLite). p50/p99 per operation kind (ms, from the client: the whole
round trip through HA). Saves --out (the JSON is the record) and re-renders docs/benchmarks.md
(bench/report.py, section "Concurrent load") when the latency results are there. A benchmark:
bounded in time, nothing timed is asserted; on a shared 2-core machine the latencies are noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import engine_import
import live_ha
import report
import runinfo
import store_builder
from live_ha import REPO, HAClient, HAError, Live

engine_import.install()
from custom_components.memory.answers import reply  # noqa: E402

OUT = REPO / "bench" / "results" / "load.json"
SHARES = {"conversation": 0.72, "automation": 0.2, "admin": 0.08}  # of --concurrency (at least 1 each)
SPEAKERS = ("julian", "anna", "guest")  # the guest is linked to no person: an unknown speaker
ROOMS = ("kitchen", "hall")
THINGS = ("the ladder", "the drill", "the tent", "the kettle", "the torch", "the bike pump",
          "the picnic rug", "the paint roller", "the spare fuses", "the garden hose", "the sledge",
          "the toolbox", "the camping stove", "the fan heater", "the Christmas lights")  # fmt: skip
PLACES = ("the cellar", "the attic", "the garage", "the shed", "the hall cupboard", "the loft",
          "the boiler room", "the guest room", "the carport", "the pantry")  # fmt: skip
TAG_PREFIX = {"kitchen": "KQ", "hall": "HQ", "automation": "AU"}
TAG = re.compile(r"\b(?:KQ|HQ|AU)\d{5}\b")  # the tags this benchmark writes, in any returned text
FORGET_EVERY_AUTOMATION = 3  # every third observation is forgotten again
ASK_FORGOTTEN_SHARE = 0.3  # of the conversation rounds: also ask about a crate forgotten earlier
# The question after a remember: a memory sentence, answered with the best-ranked memories. ("Where
# is crate <tag>?" is answered by the no-LLM answer rule, which prefers a memory closer in meaning
# over the top-ranked one with the tag: docs/reliability.md, findings.)
ASK = "What do you know about"
OP_TIMEOUT = 120.0  # s for one automation's answer event (a WebSocket command has the client's)
PAGE = 200  # memory/list's largest page


@dataclass
class Item:
    """One memory this run wrote: its text, id (once known) and when it was acknowledged."""

    tag: str
    content: str
    memory_id: str = ""
    acked_at: float | None = None  # monotonic s
    forgotten_at: float | None = None  # monotonic s: the forget was acknowledged


@dataclass
class Run:
    """Everything the callers were told and measured."""

    deadline: float
    items: dict[str, Item] = field(default_factory=dict)  # tag -> item
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    error_samples: list[str] = field(default_factory=list)
    reads: list[tuple[float, str, set[str]]] = field(default_factory=list)  # (began, what, tags)
    not_found: list[str] = field(default_factory=list)  # crates a conversation did not find
    counter: int = 0

    def new(self, prefix: str, content: str) -> Item:
        """A new item whose `content` (a format string with {tag}) carries a fresh tag."""
        self.counter += 1
        tag = f"{prefix}{self.counter:05d}"
        item = Item(tag, content.format(tag=tag))
        self.items[tag] = item
        return item

    def error(self, kind: str, what: str) -> None:
        self.errors[kind] += 1
        if len(self.error_samples) < 40:
            self.error_samples.append(f"{kind}: {what}"[:400])

    def read(self, began: float, what: str, text: str) -> None:
        self.reads.append((began, what, set(TAG.findall(text))))

    async def timed(self, kind: str, call: Any) -> Any:
        """Await `call`, add its duration (ms) to `kind`; an exception is counted as an error
        of `kind` and returned as None."""
        began = time.monotonic()
        try:
            result = await call
        except (HAError, TimeoutError, aiohttp.ClientError, ConnectionError) as err:
            self.error(kind, f"{type(err).__name__}: {err}")
            return None
        self.latencies[kind].append((time.monotonic() - began) * 1000)
        return result


def _stored(answer: str) -> bool:
    """A remember's answer that acknowledges the write: stored, or stored and asking whether it
    replaces a similar memory (both stay current unless the answer is yes)."""
    asks_to_replace = reply("en", "replace_ask", items="\0").split("\0")[0]
    return answer == reply("en", "remembered_shared") or answer.startswith(asks_to_replace)


async def conversation(live: Live, run: Run, number: int) -> None:
    """One caller at a satellite: remember, ask, sometimes ask about a forgotten crate, forget."""
    who, room = SPEAKERS[number % len(SPEAKERS)], ROOMS[number % len(ROOMS)]
    client = await live.client(who)
    rng = random.Random(number)
    forgotten: list[Item] = []
    while time.monotonic() < run.deadline:
        item = run.new(
            TAG_PREFIX[room], f"Crate {{tag}} holds {rng.choice(THINGS)} and stands in {rng.choice(PLACES)}."
        )
        said = await run.timed("pipeline: remember", live.say(client, f"Remember: {item.content}", room))
        if said is None:
            continue
        if not _stored(said[0]):
            run.error("pipeline: remember", f"{item.tag}: {said[0]!r}")
            continue
        item.acked_at = time.monotonic()
        cid = said[1].get("conversation_id")
        began = time.monotonic()
        asked = await run.timed("pipeline: question", live.say(client, f"{ASK} crate {item.tag}?", room, cid))
        if asked is not None:
            run.read(began, f"answer to {who}", asked[0])
            if item.tag not in asked[0]:
                run.not_found.append(f"{item.tag}: {asked[0]!r}"[:300])
        if forgotten and rng.random() < ASK_FORGOTTEN_SHARE:
            old = rng.choice(forgotten)
            began = time.monotonic()
            asked = await run.timed("pipeline: question", live.say(client, f"{ASK} crate {old.tag}?", room))
            if asked is not None:
                run.read(began, f"answer to {who} about a forgotten crate", asked[0])
        if rng.random() < 0.5:
            continue
        await _forget_in_conversation(live, run, client, room, item, cid)
        if item.forgotten_at is not None:
            forgotten.append(item)


async def _forget_in_conversation(
    live: Live, run: Run, client: HAClient, room: str, item: Item, cid: str | None
) -> None:
    """ "Forget that." -> the question naming the crate -> "yes" -> forgotten."""
    asked = await run.timed("pipeline: forget", live.say(client, "Forget that.", room, cid))
    if asked is None:
        return
    if asked[0] != reply("en", "forget_ask", items=f'"{item.content}"'):
        run.error("pipeline: forget", f"{item.tag}: {asked[0]!r}")
        return
    done = await run.timed("pipeline: yes", live.say(client, "yes", room, cid))
    if done is None:
        return
    if done[0] != reply("en", "forgot"):
        run.error("pipeline: yes", f"{item.tag}: {done[0]!r}")
        return
    item.forgotten_at = time.monotonic()


async def automation(live: Live, run: Run, waiters: dict[str, live_ha.EventWaiter], number: int) -> None:
    """One automation's stream of observations: remembered through the automation (an event
    in, an event with the id out), every FORGET_EVERY_AUTOMATION-th forgotten again."""
    rng = random.Random(1000 + number)
    rounds = 0
    while time.monotonic() < run.deadline:
        item = run.new(
            TAG_PREFIX["automation"],
            f"Meter {{tag}} in {rng.choice(PLACES)} read {rng.randrange(100, 99999)} kWh.",
        )
        answer = await run.timed(
            "automation: remember",
            _fire(live, waiters[live_ha.REMEMBERED_EVENT], live_ha.REMEMBER_EVENT, {"content": item.content}),
        )
        if answer is None:
            continue
        if not answer.get("memory_id") or answer.get("action") != "created":
            run.error("automation: remember", f"{item.tag}: {answer} (the call failed: see the hass log)")
            continue
        item.memory_id, item.acked_at = str(answer["memory_id"]), time.monotonic()
        rounds += 1
        if rounds % FORGET_EVERY_AUTOMATION:
            continue
        answer = await run.timed(
            "automation: forget",
            _fire(
                live, waiters[live_ha.FORGOTTEN_EVENT], live_ha.FORGET_EVENT, {"memory_id": item.memory_id}
            ),
        )
        if answer is None:
            continue
        if answer.get("memory_id") != item.memory_id:
            run.error("automation: forget", f"{item.tag}: {answer} (the call failed: see the hass log)")
            continue
        item.forgotten_at = time.monotonic()


async def _fire(live: Live, waiter: live_ha.EventWaiter, event: str, data: dict[str, Any]) -> dict[str, Any]:
    """Fire `event` with `data` and a fresh token (REST, as the owner); the automation's answer."""
    token = uuid.uuid4().hex
    answer = waiter.expect(token)
    await live.owner.rest("POST", f"/api/events/{event}", {**data, "token": token})
    return await asyncio.wait_for(answer, OP_TIMEOUT)


async def admin(live: Live, run: Run, number: int, rows: int) -> None:
    """The admin's panel: a random page of the newest memories, a search for a recent crate,
    the overview, over and over."""
    client = await live.client("owner")
    rng = random.Random(2000 + number)
    while time.monotonic() < run.deadline:
        began = time.monotonic()
        page = await run.timed(
            "panel: memory/list", client.ws("memory/list", limit=PAGE, offset=rng.randrange(0, rows, PAGE))
        )
        if page is not None:
            run.read(began, "memory/list", json.dumps([m["content"] for m in page["memories"]]))
        recent = [i.tag for i in list(run.items.values())[-50:]]
        query = f"Where is crate {rng.choice(recent)}?" if recent else "Where is the ladder?"
        began = time.monotonic()
        found = await run.timed("panel: memory/search", client.ws("memory/search", query=query, limit=20))
        if found is not None:
            run.read(began, "memory/search", json.dumps([h["memory"]["content"] for h in found["hits"]]))
        await run.timed("panel: memory/overview", client.ws("memory/overview"))


def judge(run: Run, rows: list[dict[str, Any]], rows_before: int) -> dict[str, Any]:
    """The checks of the module docstring over the API's listing; counts and samples."""
    acked = [i for i in run.items.values() if i.acked_at is not None]
    kept = [i for i in acked if i.forgotten_at is None]
    forgotten = [i for i in acked if i.forgotten_at is not None]
    by_content = Counter(r["content"] for r in rows if r["status"] == "active")
    present = Counter(r["content"] for r in rows)
    missing = [i.tag for i in kept if not by_content[i.content]]
    still = [i.tag for i in forgotten if present[i.content]]
    buckets = Counter(
        (r["content"], r["scope"], r["owner_id"], r["area_id"]) for r in rows if r["status"] == "active"
    )
    resurfaced = [
        f"{what}: {tag}"
        for began, what, tags in run.reads
        for tag in tags
        if (item := run.items.get(tag)) is not None
        and item.forgotten_at is not None
        and item.forgotten_at < began
    ]
    return {
        "acknowledged": len(acked),
        "forgotten": len(forgotten),
        "missing": len(missing),
        "missing_samples": missing[:10],
        "forgotten_still_stored": len(still),
        "duplicate_current_rows": sum(n - 1 for n in buckets.values() if n > 1),
        "forgotten_returned": len(resurfaced),
        "forgotten_returned_samples": resurfaced[:10],
        "not_found_after_remember": len(run.not_found),
        "not_found_samples": run.not_found[:10],
        "rows_before": rows_before,
        "rows_after": len(rows),
        "rows_expected": rows_before + len(acked) - len(forgotten),
        "reads_checked": len(run.reads),
    }


def database_checks(facts: live_ha.StoreFacts, run: Run) -> dict[str, Any]:
    """The database's own checks (live_ha.sqlite_facts / postgres_facts) and the acknowledged
    and forgotten texts in it."""
    acked = [i for i in run.items.values() if i.acked_at is not None]
    return {
        **facts.checks,
        "whole": live_ha.store_whole(facts.checks),
        "acknowledged_missing": sum(
            1 for i in acked if i.forgotten_at is None and i.content not in facts.contents
        ),
        "forgotten_present": sum(
            1 for i in acked if i.forgotten_at is not None and i.content in facts.contents
        ),
    }


def workers(concurrency: int) -> dict[str, int]:
    """Callers per kind: SHARES of `concurrency`, at least one each, summing to it."""
    out = {k: max(1, round(concurrency * s)) for k, s in SHARES.items() if k != "conversation"}
    out["conversation"] = max(1, concurrency - sum(out.values()))
    return out


async def warm_up(live: Live) -> None:
    """One of each operation before the clock starts (the encoder's first call, HA's caches)."""
    client = await live.client("julian")
    await live.say(client, "What do you know about the attic?", "kitchen")
    await live.owner.ws("memory/list", limit=PAGE)
    await live.owner.ws("memory/search", query="Where is the ladder?")


async def measure(hass: Any, answers: dict[str, Any], seconds: float, concurrency: int) -> dict[str, Any]:
    """First start + provisioning, the timed run, the API checks; hass is stopped on return."""
    async with aiohttp.ClientSession() as session:
        await live_ha.first_start(hass, session, answers, lambda text: print(f"  · {text}", flush=True))
        live = await live_ha.start(hass, session)
        try:
            await warm_up(live)
            rows_before = (await live.owner.ws("memory/list", status="any", limit=1))["total"]
            waiters = {}
            for event in (live_ha.REMEMBERED_EVENT, live_ha.FORGOTTEN_EVENT):
                waiters[event] = live_ha.EventWaiter(await live.client("owner"), event)
                await waiters[event].start()
            counts = workers(concurrency)
            print(f"  · {rows_before} memories; callers {counts}; {seconds:.0f} s", flush=True)
            load_before = os.getloadavg()
            run = Run(deadline=time.monotonic() + seconds)
            started = time.monotonic()
            await asyncio.gather(
                *(conversation(live, run, n) for n in range(counts["conversation"])),
                *(automation(live, run, waiters, n) for n in range(counts["automation"])),
                *(admin(live, run, n, rows_before) for n in range(counts["admin"])),
            )
            wall = time.monotonic() - started
            load_after = os.getloadavg()
            for waiter in waiters.values():
                await waiter.close()
            checks = judge(run, await live_ha.all_memories(live), rows_before)
        finally:
            await live.close()
    hass.stop()
    return {
        "seconds": seconds,
        "wall_s": round(wall, 1),
        "concurrency": concurrency,
        "callers": counts,
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in load_after],
        "ops": {
            kind: {**live_ha.pct(run.latencies[kind]), "errors": run.errors[kind]}
            for kind in sorted(set(run.latencies) | set(run.errors))
        },
        "errors": sum(run.errors.values()),
        "error_samples": run.error_samples,
        "checks": checks,
        "hass_log_errors": live_ha.log_errors(hass)[:20],
        "_run": run,
    }


def run_store(store: str, db: Path, seconds: float, concurrency: int, work: Path) -> dict[str, Any]:
    """One store's run in `work` (a fresh config dir, and the PostgreSQL data dir)."""
    print(f"\n{store}: {work}", flush=True)
    hass = live_ha.prepare(work / "config")
    if store == "sqlite":
        shutil.copyfile(db, hass.config_dir / live_ha.DB_FILE)
        out = asyncio.run(measure(hass, live_ha.sqlite_answers(), seconds, concurrency))
        out["database"] = database_checks(
            live_ha.sqlite_facts(hass.config_dir / live_ha.DB_FILE), out["_run"]
        )
        return out
    with live_ha.postgres_server(work / "pgdata") as admin_url:
        url = live_ha.postgres_store(admin_url, db)
        out = asyncio.run(measure(hass, live_ha.postgres_answers(url), seconds, concurrency))
        out["database"] = database_checks(live_ha.postgres_facts(url), out["_run"])
        return out


def passed(result: dict[str, Any]) -> bool:
    """Every count of the module docstring 0, the row count as expected, the database whole."""
    checks, db = result["checks"], result["database"]
    zero = ("missing", "forgotten_still_stored", "duplicate_current_rows", "forgotten_returned",
            "not_found_after_remember")  # fmt: skip
    return (
        result["errors"] == 0
        and all(checks[k] == 0 for k in zero)
        and checks["rows_after"] == checks["rows_expected"]
        and db["whole"]
        and db["acknowledged_missing"] == db["forgotten_present"] == 0
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--stores", default="sqlite,postgres")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--datasets", default=str(REPO.parent / "shared" / "datasets"))
    parser.add_argument("--cache-dir", default=str(store_builder.default_cache_dir()))
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--docs", default=str(REPO / "docs" / "benchmarks.md"))
    parser.add_argument("--images", default=str(REPO / "docs" / "images"))
    parser.add_argument("--work", help="a folder for the config dirs, kept (default: a temporary one)")
    args = parser.parse_args()
    cache = Path(args.cache_dir).expanduser()
    sv, key = store_builder.sentence_vectors(Path(args.datasets).resolve(), cache)
    db, _ = store_builder.ensure_store(sv, key, cache, args.size)
    out_path = Path(args.out)
    doc = json.loads(out_path.read_text(encoding="utf-8")) if out_path.is_file() else {"stores": {}}
    doc.update(runinfo.run_info())
    doc["commit"] = runinfo.commit()
    doc["size"] = args.size
    ok = True
    for store in [s.strip() for s in args.stores.split(",") if s.strip()]:
        if args.work:  # kept afterwards: hass's log is there
            (Path(args.work) / store).mkdir(parents=True, exist_ok=True)
            result = run_store(store, db, args.seconds, args.concurrency, (Path(args.work) / store).resolve())
        else:
            with tempfile.TemporaryDirectory(prefix=f"load-{store}-") as work:
                result = run_store(store, db, args.seconds, args.concurrency, Path(work))
        result.pop("_run")
        result["passed"] = passed(result)
        result |= {"date": doc["date"], "commit": doc["commit"], "command": doc["command"]}
        ok &= result["passed"]
        doc["stores"][store] = result
        out_path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in result.items() if k not in ("hass_log_errors",)}, indent=1))
    print("\n".join(report.load_section(doc)))
    if report.LATENCY_RESULTS.is_file():
        report.generate(report.load(report.LATENCY_RESULTS), Path(args.docs), Path(args.images))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
