"""Fixtures of the browser tests (tests/browser/): a real `hass` process with the demo household
and a few memories, and Debian's Chromium driven by Playwright.

- `site` (module): a `hass` started like scripts/demo does (scripts/demo_lib: write_config with the
  UI components, HassProcess, provision: owner, Julian and Anna with persons, a guest, Kitchen and
  Hall, the memory integration through its config flow), then seeded through the public APIs
  (memory.remember over REST, memory/settings/update and memory/import over the WebSocket):
  Site.ids names each memory (SEEDED). Every user's password is demo_lib's PASSWORD.
- `owner_ws` -> HAClient: the owner's own WebSocket/REST client (a fresh login), to check
  through the API what the browser did.
- `browser` -> a Chromium (Playwright, /usr/bin/chromium, never a downloaded one).
- `microphone_browser` -> the same Chromium whose microphone plays MICROPHONE_SENTENCES, said by
  espeak-ng (tests.speech), in a loop (Chromium's fake capture device; permission granted).

The test process talks to hass over loopback only (pytest-socket's allow-list is 127.0.0.1;
HA's test plugin disables sockets before each test, these fixtures enable them again).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncGenerator, Generator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_socket

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "scripts"))  # demo_lib

from demo_lib.client import HAClient  # noqa: E402
from demo_lib.household import login, provision  # noqa: E402
from demo_lib.server import HassProcess, free_port, write_config  # noqa: E402

CHROMIUM = "/usr/bin/chromium"  # Debian's package `chromium` (scripts/lib.sh ensure_browser)
# The flags that work on a machine without a network (docs/panel.md#tests)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

REVIEW_FACT = "I drink coffee in the morning."  # Julian's, a fact key (me, drinks) = coffee
REVIEW_PENDING = "I drink tea in the morning."  # pending: approving it supersedes REVIEW_FACT
# name -> memory.remember fields (person: who said it / the owner of a private memory)
REMEMBERED: dict[str, dict[str, Any]] = {
    "spare_key": {
        "content": "The spare key for the cellar is in the blue tin in the hall.",
        "person": "person.julian",
    },
    "window": {
        "content": "The kitchen window sticks in wet weather.",
        "scope": "room",
        "area": "kitchen",
        "person": "person.anna",
    },
    "passport": {
        "content": "My passport is in the desk drawer.",
        "scope": "private",
        "person": "person.anna",
    },
    "pump_old": {"content": "The bike pump is in the garage.", "person": "person.julian"},
}
PUMP_NEW = "The bike pump is in the cellar now."  # remembered with replaces=[pump_old]


@dataclass
class Site:
    """The running hass and what was seeded into it."""

    base_url: str
    hass: HassProcess
    areas: dict[str, str] = field(default_factory=dict)  # "kitchen"/"hall" -> area id
    ids: dict[str, str] = field(default_factory=dict)  # seeded memory name -> id


async def _remember(owner: HAClient, fields: dict[str, Any]) -> str:
    reply = await owner.rest("POST", "/api/services/memory/remember?return_response", fields)
    return str(reply["service_response"]["memory"]["id"])


async def _seed(owner: HAClient, site: Site) -> None:
    """The memories every browser test starts from (module docstring)."""
    areas = {a["name"].casefold(): a["area_id"] for a in await owner.ws("config/area_registry/list")}
    site.areas = {"kitchen": areas["kitchen"], "hall": areas["hall"]}
    for name, fields in REMEMBERED.items():
        data = dict(fields)
        if "area" in data:
            data["area"] = site.areas[data["area"]]
        site.ids[name] = await _remember(owner, data)
    site.ids["pump_new"] = await _remember(
        owner, {"content": PUMP_NEW, "person": "person.julian", "replaces": [site.ids["pump_old"]]}
    )
    # review before use on; what learning would have saved for review comes in by an import
    # (the public way to add a pending memory without an AI Task)
    await owner.ws("memory/settings/update", review_extracted=True)
    julian = {"person_id": "person.julian"}
    fact = {"scope": "private", "owner_id": "person.julian", "kind": "preference", "language": "en",
            "subject": "me", "predicate": "drinks", "said_by": julian}  # fmt: skip
    report = await owner.ws(
        "memory/import",
        data={
            "format": "household-memory/export",
            "version": 1,
            "memories": [{**fact, "content": REVIEW_FACT, "value": "coffee"}],
            "pending": [{**fact, "content": REVIEW_PENDING, "value": "tea", "provenance": "extracted"}],
        },
    )
    assert report == {"created": 2, "duplicates": 0, "rejected": []}, report
    for memory in (await owner.ws("memory/list", status="any"))["memories"]:
        if memory["content"] in (REVIEW_FACT, REVIEW_PENDING):
            site.ids["coffee" if memory["content"] == REVIEW_FACT else "tea"] = memory["id"]


async def _start(site: Site) -> None:
    await site.hass.wait_ready()
    async with aiohttp.ClientSession() as session:
        household = await provision(session, site.base_url, lambda text: None)
        try:
            assert not household.setup_problems, household.setup_problems
            await _seed(household.owner, site)
        finally:
            await household.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Generator[Site]:
    """A real hass with the household and the seeded memories (module docstring)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium (scripts/lib.sh)")
    pytest_socket.enable_socket()
    config_dir = tmp_path_factory.mktemp("hass") / "config"
    port = free_port()
    write_config(config_dir, ROOT, port, fresh=True, ui=True)
    hass = HassProcess(Path(sys.prefix), config_dir, port)  # this venv's `hass`
    site = Site(base_url=hass.base_url, hass=hass)
    hass.start()
    try:
        # a loop of its own, never made current (asyncio.run would unset the current loop,
        # which HA's test plugin reads before every test)
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(_start(site))
        finally:
            loop.close()
        yield site
    finally:
        hass.stop()


@pytest.fixture
def _loopback(socket_enabled: None) -> None:
    """Sockets on for this test (HA's test plugin turns them off before every test)."""


@pytest.fixture
async def owner_ws(site: Site, _loopback: None) -> AsyncGenerator[HAClient]:
    async with aiohttp.ClientSession() as session:
        client = HAClient(session, site.base_url, await login(session, site.base_url, "owner"), "owner")
        await client.connect()
        try:
            yield client
        finally:
            await client.close()


@pytest.fixture
async def browser(_loopback: None) -> AsyncGenerator[Any]:
    async with _chromium(CHROMIUM_ARGS) as chromium:
        yield chromium


@asynccontextmanager
async def _chromium(args: list[str]) -> AsyncGenerator[Any]:
    from playwright.async_api import async_playwright  # noqa: PLC0415

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            yield chromium
        finally:
            await chromium.close()


MICROPHONE_VOICE = "en+m3"  # tests.speech.MEN[0]
MICROPHONE_SENTENCES = (
    "The quick brown fox jumps over the lazy dog near the river bank.",
    "Please turn on the kitchen lights and start the coffee machine.",
    "Tomorrow I will visit my grandmother in the countryside.",
)


@pytest.fixture
async def microphone_browser(_loopback: None, tmp_path: Path) -> AsyncGenerator[Any]:
    """A Chromium hearing MICROPHONE_SENTENCES (with half a second between them) from its
    microphone, over and over (module docstring)."""
    from tests.speech import silence, speak, wav_bytes  # noqa: PLC0415

    speech = b"".join(speak(text, MICROPHONE_VOICE) + silence(0.5) for text in MICROPHONE_SENTENCES)
    wav = tmp_path / "microphone.wav"
    wav.write_bytes(wav_bytes(speech))
    fake = [
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={wav}",
    ]
    async with _chromium([*CHROMIUM_ARGS, *fake]) as chromium:
        yield chromium
