"""C32 through Home Assistant: the kitchen and hall satellites remember, ask and forget while an
automation writes (and forgets) observations and an admin lists memories in the panel, all at
the same moment (asyncio.gather over HA's real conversation component, services and WebSocket
API; the engine calls run on HA's executor threads at once), on both stores.

Afterwards: every acknowledged memory there exactly once, every forgotten one gone, no error, no
duplicate current memory, no forgotten memory returned after its forget was acknowledged, and
recall never silently empty (a conversation finds what it just stored; the store's search finds
every kept memory). Threads switch every microsecond (eager_switching), so the interleavings a
busy executor produces now and then happen on every run; nothing here depends on timing, and a
hang fails by the wait timeout (GATHER_TIMEOUT).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

import pytest
from homeassistant.core import Context, HomeAssistant
from pytest_homeassistant_custom_component.typing import MockHAClientWebSocket, WebSocketGenerator

from custom_components.memory.answers import reply
from custom_components.memory.engine.models import Speaker, Status
from custom_components.memory.engine.store.base import MemoryFilter
from tests.conftest import Resident, Room, async_call, both_stores
from tests.engine.test_concurrency import eager_switching  # noqa: F401 - the fixture, by name

from .helpers_conversation import async_say, speech

pytestmark = [both_stores, pytest.mark.usefixtures("eager_switching")]

ADMIN = Speaker.administrator()
THINGS = ("the ladder", "the drill", "the tent", "the kettle", "the torch", "the bike pump",
          "the picnic rug", "the paint roller", "the spare fuses", "the garden hose")  # fmt: skip
PLACES = ("the cellar", "the attic", "the garage", "the shed", "the hall cupboard", "the loft")
CONVERSATIONS = 3  # per satellite, at once
ROUNDS = 3  # remember + ask (+ forget every second round) per conversation
SEEDED = 24  # observations stored before; the automation forgets them during the run
OBSERVATIONS = 24  # the automation writes these during the run (and forgets every third)
LISTINGS = 12  # rounds of the admin's panel listing (list page, search, overview)
SIDES = ("K", "H")  # the kitchen's and the hall's crates
GATHER_TIMEOUT = 600  # s: a hang fails instead of blocking the suite


@dataclass
class Ledger:
    """What the callers were told (the event loop is single-threaded: no lock needed)."""

    kept: dict[str, str] = field(default_factory=dict)  # content -> memory id ("" until known)
    forgotten: set[str] = field(default_factory=set)  # contents whose forget was acknowledged
    errors: list[str] = field(default_factory=list)
    resurfaced: list[str] = field(default_factory=list)  # forgotten content returned afterwards

    def returned(self, what: str, contents: list[str], forgotten_before: set[str]) -> None:
        """Contents a read returned; those forgotten (acknowledged) before the read began are a finding."""
        self.resurfaced += [f"{what}: {c}" for c in contents if c in forgotten_before]


def _crate(side: str, conversation: int, rnd: int) -> tuple[str, str]:
    """(tag, sentence) of one conversation's round: a tag nothing else in the store holds."""
    n = (SIDES.index(side) * CONVERSATIONS + conversation) * ROUNDS + rnd  # a different pair each
    tag = f"{side}{conversation}{rnd}-{4400 + n * 37}"
    return tag, f"Crate {tag} holds {THINGS[n % len(THINGS)]} and stands in {PLACES[n // len(THINGS)]}."


def _stored(answer: str) -> bool:
    """The reply acknowledges the write: stored, or stored and asking whether it replaces a
    similar memory (both stay current unless the answer is yes)."""
    asks_to_replace = reply("en", "replace_ask", items="\0").split("\0")[0]  # "Noted. I also have "
    return answer == reply("en", "remembered_shared") or answer.startswith(asks_to_replace)


async def _conversation(
    hass: HomeAssistant, entry: Any, ledger: Ledger, *, who: Resident, room: Room, side: str, number: int
) -> None:
    """One conversation at a satellite: remember a crate, ask where it is (must be found), and
    every second round forget it again with "Forget that." and "yes"."""
    for rnd in range(ROUNDS):
        tag, sentence = _crate(side, number, rnd)
        said = await async_say(hass, entry, f"Remember: {sentence}", who=who, room=room)
        if not _stored(speech(said)):
            ledger.errors.append(f"remember {tag}: {speech(said)!r}")
            continue
        ledger.kept[sentence] = ""
        cid = said.conversation_id
        before = set(ledger.forgotten)
        asked = await async_say(
            hass, entry, f"Where is crate {tag}?", who=who, room=room, conversation_id=cid
        )
        if tag not in speech(asked):
            ledger.errors.append(f"ask {tag}: not found in {speech(asked)!r}")
        ledger.returned(f"answer to {who.name}", [c for c in before if c in speech(asked)], before)
        if rnd % 2:
            continue
        question = await async_say(hass, entry, "Forget that.", who=who, room=room, conversation_id=cid)
        if speech(question) != reply("en", "forget_ask", items=f'"{sentence}"'):
            ledger.errors.append(f"forget {tag}: {speech(question)!r}")
            continue
        done = await async_say(hass, entry, "yes", who=who, room=room, conversation_id=cid)
        if speech(done) != reply("en", "forgot"):
            ledger.errors.append(f"yes {tag}: {speech(done)!r}")
            continue
        ledger.forgotten.add(sentence)
        ledger.kept.pop(sentence)


async def _automation(hass: HomeAssistant, ledger: Ledger, seeded: dict[str, str]) -> None:
    """The automation: observations written (memory.remember, observed) and forgotten
    (memory.forget: every seeded one, and every third of its own) as its triggers fire."""
    context = Context()  # an automation's calls carry no user

    async def observe(n: int) -> None:
        content = f"Meter {n} in {PLACES[n % len(PLACES)]} read {7000 + n * 13} kWh."
        written = await async_call(hass, "remember", {"content": content, "observed": True}, context=context)
        if written["action"] != "created":
            ledger.errors.append(f"observation {n}: {written['action']}")
            return
        ledger.kept[content] = written["memory"]["id"]
        if n % 3 == 0:
            await forget(content, written["memory"]["id"])

    async def forget(content: str, memory_id: str) -> None:
        gone = await async_call(hass, "forget", {"memory_id": memory_id}, context=context)
        if gone["forgotten"]["id"] != memory_id:
            ledger.errors.append(f"forget {memory_id}: {gone}")
            return
        ledger.forgotten.add(content)
        ledger.kept.pop(content, None)

    await asyncio.gather(
        *(_guarded(ledger, f"observation {n}", observe(n)) for n in range(OBSERVATIONS)),
        *(_guarded(ledger, f"forget {i}", forget(c, i)) for c, i in seeded.items()),
    )


async def _guarded(ledger: Ledger, what: str, work: Coroutine[Any, Any, None]) -> None:
    """Run `work`; an exception is a finding, recorded, and the others go on (so every finding of
    the run is reported, and no executor job outlives the test)."""
    try:
        await work
    except Exception as err:  # every failure is a finding
        ledger.errors.append(f"{what}: {type(err).__name__}: {err}")


async def _panel(ws: MockHAClientWebSocket, ledger: Ledger) -> None:
    """The admin's panel: the newest page of memories, a search, the overview — over and over."""
    for rnd in range(LISTINGS):
        before = set(ledger.forgotten)
        for command, data in (
            ("list", {"limit": 200}),
            ("search", {"query": f"Where is crate K0{rnd % ROUNDS}?", "limit": 20}),
            ("overview", {}),
        ):
            await ws.send_json_auto_id({"type": f"memory/{command}", **data})
            answer = await ws.receive_json()
            if not answer["success"]:
                ledger.errors.append(f"memory/{command}: {answer['error']}")
                continue
            result = answer["result"]
            shown = [m["content"] for m in result.get("memories", [])]
            shown += [h["memory"]["content"] for h in result.get("hits", [])]
            ledger.returned(f"memory/{command}", shown, before)


async def _seed(hass: HomeAssistant) -> dict[str, str]:
    """SEEDED observations stored before the run: content -> id."""
    seeded = {}
    for n in range(SEEDED):
        content = f"Window {n} in {PLACES[n % len(PLACES)]} was opened {n + 2} times today."
        written = await async_call(hass, "remember", {"content": content, "observed": True})
        seeded[content] = written["memory"]["id"]
    return seeded


async def test_c32_two_satellites_an_automation_and_the_panel_at_once(
    hass: HomeAssistant,
    memory_entry: Any,
    *,
    julian: Resident,
    anna: Resident,
    kitchen: Room,
    hall: Room,
    hass_ws_client: WebSocketGenerator,
) -> None:
    engine = memory_entry.runtime_data.engine
    seeded = await _seed(hass)
    panels = [await hass_ws_client(hass) for _ in range(2)]
    ledger = Ledger()
    satellites = (("kitchen", julian, kitchen, "K"), ("hall", anna, hall, "H"))
    work = {
        f"{name} conversation {n}": _conversation(
            hass, memory_entry, ledger, who=who, room=room, side=side, number=n
        )
        for name, who, room, side in satellites
        for n in range(CONVERSATIONS)
    }
    work["automation"] = _automation(hass, ledger, seeded)
    work |= {f"panel {n}": _panel(ws, ledger) for n, ws in enumerate(panels)}
    await asyncio.wait_for(
        asyncio.gather(*(_guarded(ledger, what, job) for what, job in work.items())), GATHER_TIMEOUT
    )

    assert ledger.errors == []
    assert ledger.resurfaced == []
    active, total = await hass.async_add_executor_job(
        lambda: engine.find(ADMIN, MemoryFilter(status=Status.ACTIVE), limit=10_000)
    )
    assert len(active) == total
    current = Counter(m.content for m in active)
    assert {c: n for c, n in current.items() if n > 1} == {}, "a duplicate current memory"
    assert set(ledger.kept) <= set(current), "an acknowledged memory is missing"
    assert not ledger.forgotten & set(current), "a forgotten memory is back"
    assert len(ledger.forgotten) == SEEDED + len(range(0, OBSERVATIONS, 3)) + 2 * CONVERSATIONS * len(
        range(0, ROUNDS, 2)
    )
    everything, _ = await hass.async_add_executor_job(
        lambda: engine.find(ADMIN, MemoryFilter(status=None), limit=10_000)
    )
    assert not ledger.forgotten & {m.content for m in everything}, "a forgotten text is still stored"
    for content in ledger.kept:  # the store's search is in step with the rows: recall finds each
        found = await async_call(hass, "recall", {"query": content, "limit": 3})
        assert content in [m["content"] for m in found["memories"]], content
