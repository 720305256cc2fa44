"""The Memory panel in a real headless Chromium (Debian's, driven by Playwright) against a real
`hass` process with the integration (tests/browser/conftest.py: the demo household and its
seeded memories). Each test logs in through Home Assistant's own login form, opens /memory,
acts through the panel and then checks through the memory/* WebSocket API what it did.

Screenshots of the main views (light and dark, desktop and phone width) are taken by
test_screenshots; with MEMORY_SCREENSHOTS=1 they are written to docs/images/panel-*.png (the
pictures in docs/panel.md), else into the test's temporary folder.

Every wait is on a condition (Playwright's auto-waiting locators and expect, generous
timeouts); a hang fails by pytest-timeout.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.browser.conftest import PUMP_NEW, REMEMBERED, REVIEW_FACT, REVIEW_PENDING, ROOT, Site
from tests.speech import MEN, silence, speak, whisper_base_dir

from demo_lib.client import HAClient, HAError  # isort: skip  (scripts/ is on sys.path by the conftest)
from demo_lib.household import PASSWORD, run_config_flow  # isort: skip

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

WAIT = 60_000  # ms: a busy two-core machine; a real hang still fails (pytest-timeout)
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}  # a phone: HA's sidebar collapses, the panel is `narrow`
IMAGES = ROOT / "docs" / "images"

expect.set_options(timeout=WAIT)


async def open_panel(
    browser: Any, site: Site, user: str = "owner", *, path: str = "/memory", **context: Any
) -> Page:
    """A new browser context logged in as `user` through HA's login form, at `path`."""
    ctx = await browser.new_context(viewport=context.pop("viewport", DESKTOP), locale="en-US", **context)
    ctx.set_default_timeout(WAIT)
    page = await ctx.new_page()
    await page.goto(site.base_url + path)
    await page.wait_for_url("**/auth/authorize**")
    await page.locator("input[name=username]").fill(user)
    await page.locator("input[name=password]").fill(PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await page.wait_for_url(f"{site.base_url}{path}")
    return page


async def ready(page: Page) -> None:
    """The panel has rendered its overview (its first view)."""
    await expect(page.locator("[data-testid=overview-pending]")).to_be_visible()


async def tab(page: Page, name: str) -> None:
    await page.locator(f"[data-testid=tab-{name}]").click()
    await expect(page.locator(f"[data-testid=view-{name}]")).to_be_visible()


async def open_memory(page: Page, memory_id: str) -> None:
    """From the Memories tab (status any), open one memory's page."""
    await tab(page, "list")
    await page.locator("[data-testid=filter-status]").select_option("any")
    card = page.locator(f"[data-testid=memory-item][data-memory-id='{memory_id}']")
    await card.locator("[data-testid=open-memory]").click()
    await expect(page.locator(f"[data-testid=detail][data-memory-id='{memory_id}']")).to_be_visible()


def count_of(text: str) -> int:
    return int(text.split(maxsplit=1)[0])


SHOTS = (
    # (file name, theme, viewport, view)
    ("panel-overview-light.png", "light", DESKTOP, "overview"),
    ("panel-overview-dark.png", "dark", DESKTOP, "overview"),
    ("panel-search-light.png", "light", DESKTOP, "search"),
    ("panel-memory-dark.png", "dark", DESKTOP, "memory"),
    ("panel-review-light.png", "light", DESKTOP, "pending"),
    ("panel-list-phone-light.png", "light", PHONE, "list"),
    ("panel-search-phone-dark.png", "dark", PHONE, "search"),
    ("panel-memory-phone-dark.png", "dark", PHONE, "memory"),
    ("panel-settings-light.png", "light", DESKTOP, "settings"),
    ("panel-forget-phone-dark.png", "dark", PHONE, "forget"),
)
# and panel-consolidate-light.png, by test_consolidation_dry_run_then_run_now (a plan to show),
# panel-voice-light.png by test_enrol_a_voice_recorded_in_the_browser_then_forget_it (two clips)
VIEW_SHOWN = {  # what a view shows once it has loaded
    "settings": "[data-testid=settings-form]",
    "forget": "[data-testid=tombstone-list], [data-testid=tombstones-empty]",
}


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: docs/images/ with MEMORY_SCREENSHOTS=1, else the test's folder."""
    return IMAGES if os.environ.get("MEMORY_SCREENSHOTS") == "1" else tmp_path


@pytest.mark.parametrize("shot", SHOTS, ids=[s[0][6:-4] for s in SHOTS])
async def test_screenshots(
    site: Site, browser: Any, owner_ws: HAClient, tmp_path: Path, shot: tuple[str, str, dict[str, int], str]
) -> None:
    """The main views in light and dark, desktop and phone width: HA's default theme follows the
    browser's colour scheme."""
    name, theme, viewport, view = shot
    page = await open_panel(browser, site, viewport=viewport, color_scheme=theme)
    await ready(page)
    # the panel paints itself with HA's theme variables: dark in the dark theme, light otherwise
    rgb = await page.locator("household-memory-panel").evaluate("e => getComputedStyle(e).backgroundColor")
    channels = [int(c) for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    assert (sum(channels) < 3 * 128) == (theme == "dark"), (theme, rgb)
    if view == "search":
        await _search(page, owner_ws, "Where is the bike pump?", "person.julian", site.areas["kitchen"])
    elif view == "memory":
        await open_memory(page, site.ids["pump_new"])
        await expect(page.locator("[data-testid=history-item]")).to_have_count(2)
    elif view != "overview":
        await tab(page, view)
        shown = VIEW_SHOWN.get(
            view, "[data-testid=memory-item], [data-testid=pending-item], [data-testid=pending-empty]"
        )
        await expect(page.locator(shown).first).to_be_visible()
    folder = shots(tmp_path)
    await page.screenshot(path=folder / name, full_page=viewport is DESKTOP and view != "search")
    assert (folder / name).stat().st_size > 0
    await page.context.close()


async def test_panel_loads_with_the_store_counts(site: Site, browser: Any, owner_ws: HAClient) -> None:
    page = await open_panel(browser, site)
    await ready(page)
    overview = await owner_ws.ws("memory/overview")
    counts = overview["counts"]
    assert (
        count_of(await page.locator("[data-testid=overview-pending]").inner_text()) == counts["pending"] == 1
    )
    assert (
        count_of(await page.locator("[data-testid=overview-tombstones]").inner_text()) == counts["tombstones"]
    )
    for group in ("scope", "provenance", "status"):
        for key, n in counts[f"by_{group}"].items():
            shown = await page.locator(f"[data-testid=overview-{group}-{key}]").inner_text()
            assert count_of(shown) == n, (group, key, shown)
    assert counts["by_status"]["superseded"] == 1
    await expect(page.locator("[data-testid=overview-store]")).to_contain_text("SQLite")
    await expect(page.locator("[data-testid=overview-encoder]")).to_contain_text(
        str(overview["encoder"]["dimension"])
    )
    await page.context.close()


async def _search(page: Page, api: HAClient, query: str, person: str, area: str) -> list[dict[str, Any]]:
    """Search in the panel as `person` in `area` (ids; "" = unknown speaker / no room) and wait
    until the panel shows exactly the hits memory/search gives for the same speaker and room;
    returns those hits."""
    hits = (await api.ws("memory/search", query=query, person=person or None, area=area or None))["hits"]
    await tab(page, "search")
    await page.locator("[data-testid=search-query]").fill(query)
    await page.locator("[data-testid=search-person]").select_option(person)
    await page.locator("[data-testid=search-area]").select_option(area)
    await page.locator("[data-testid=search-submit]").click()
    shown = page.locator("[data-testid=search-hit]")
    if not hits:
        await expect(page.locator("[data-testid=search-empty]")).to_be_visible()
    for index, hit in enumerate(hits):  # expect retries until the new answer is rendered
        await expect(shown.nth(index)).to_have_attribute("data-memory-id", hit["memory"]["id"])
    await expect(shown).to_have_count(len(hits))
    return list(hits)


async def test_search_as_a_speaker_in_a_room(site: Site, browser: Any, owner_ws: HAClient) -> None:
    page = await open_panel(browser, site)
    await ready(page)
    query = "What do I drink in the morning?"
    hits = await _search(page, owner_ws, query, "person.julian", site.areas["kitchen"])
    ids = [h["memory"]["id"] for h in hits]
    assert site.ids["coffee"] in ids  # Julian's own private memory
    coffee = page.locator(f"[data-testid=search-hit][data-memory-id='{site.ids['coffee']}']")
    factors = coffee.locator("[data-testid=factor]")
    await expect(factors.first).to_be_visible()
    names = {await f.get_attribute("data-factor") for f in await factors.all()}
    assert "similarity" in names, names
    assert names == set(hits[ids.index(site.ids["coffee"])]["factors"])
    await expect(coffee.locator("[data-testid=said-by]")).to_contain_text("Julian")
    for row in await page.locator("[data-testid=factor]").all():  # every factor has its label
        label = (await row.locator("th").inner_text()).strip()
        assert label and label != await row.get_attribute("data-factor"), label

    hits = await _search(page, owner_ws, query, "person.anna", site.areas["hall"])
    assert site.ids["coffee"] not in [h["memory"]["id"] for h in hits]  # private to Julian

    window = "Does the window stick?"  # names no room (a question naming one reaches its room notes)
    hits = await _search(page, owner_ws, window, "", site.areas["kitchen"])
    assert site.ids["window"] in [h["memory"]["id"] for h in hits]  # a room memory, in its room
    hits = await _search(page, owner_ws, window, "", site.areas["hall"])
    assert site.ids["window"] not in [h["memory"]["id"] for h in hits]
    await page.context.close()


DE_EXCEPTIONS = json.loads(
    (ROOT / "custom_components" / "memory" / "translations" / "de.json").read_text(encoding="utf-8")
)["exceptions"]
DE_PANEL = json.loads((ROOT / "frontend" / "src" / "translations" / "de.json").read_text(encoding="utf-8"))
DOOR_CODE_DE = "Der Türcode ist 4711."


async def in_german(page: Page) -> None:
    """The user picks German in Home Assistant (the frontend keeps the choice in localStorage,
    as its profile page does); Home Assistant's own language stays English."""
    await page.evaluate("localStorage.setItem('selectedLanguage', JSON.stringify('de'))")
    await page.reload()
    await ready(page)
    assert await page.evaluate("document.querySelector('home-assistant').hass.language") == "de"
    await expect(page.locator("[data-testid=tab-search]")).to_have_text(DE_PANEL["tab.search"])


async def test_refused_edit_in_the_users_language(site: Site, browser: Any, owner_ws: HAClient) -> None:
    """A refused edit shows the integration's error in the user's language (German), not in Home
    Assistant's (English): the server's translation_key, from translations/de.json."""
    learned = "Die Gießkanne steht hinter der Garage."
    await owner_ws.ws("memory/settings/update", review_extracted=False)  # current, not awaiting review
    report = await owner_ws.ws(
        "memory/import",
        data={"format": "household-memory/export", "version": 1, "memories": [
            {"content": learned, "scope": "shared", "language": "de", "provenance": "extracted"}]},
    )  # fmt: skip
    await owner_ws.ws("memory/settings/update", review_extracted=True)  # the site's setting
    assert report["created"] == 1, report
    memory_id = next(
        m["id"] for m in (await owner_ws.ws("memory/list", status="any", limit=200))["memories"]
        if m["content"] == learned
    )  # fmt: skip
    with pytest.raises(HAError, match="learned automatically"):  # the server speaks English
        await owner_ws.ws("memory/update", memory_id=memory_id, content=DOOR_CODE_DE)
    page = await open_panel(browser, site)
    await ready(page)
    await in_german(page)
    await open_memory(page, memory_id)
    error = page.locator("[data-testid=error]")
    await page.locator("[data-testid=detail-edit]").click()
    for text, key in ((DOOR_CODE_DE, "sensitive_content"), ("   ", "empty_content")):
        await page.locator("[data-testid=edit-content]").fill(text)  # the form stays open after a refusal
        await page.locator("[data-testid=edit-save]").click()
        await expect(error).to_have_text(DE_EXCEPTIONS[key]["message"].replace("{field}", "content"))
    assert (await owner_ws.ws("memory/get", memory_id=memory_id))["memory"]["content"] == learned
    await page.context.close()


async def test_import_report_names_reasons_in_the_users_language(
    site: Site, browser: Any, owner_ws: HAClient, tmp_path: Path
) -> None:
    """A refused import entry says why in the user's language, never as the raw reason key."""
    secret = {"content": DOOR_CODE_DE, "scope": "shared", "language": "de", "provenance": "extracted"}
    data = {"format": "household-memory/export", "version": 1, "memories": [secret]}
    (rejected,) = (await owner_ws.ws("memory/import", data=data))["rejected"]  # refused: nothing stored
    assert rejected["reason"] == "sensitive_content", rejected
    reason = (
        DE_EXCEPTIONS["sensitive_content"]["message"].replace("{field}", rejected["field"])
        if rejected.get("field")  # the server names the field (newer servers)
        else DE_PANEL["transfer.reason.sensitive_content"]
    )
    file = tmp_path / "learned-secret.json"
    file.write_text(json.dumps(data), encoding="utf-8")
    page = await open_panel(browser, site)
    await ready(page)
    await in_german(page)
    await tab(page, "transfer")
    await page.locator("[data-testid=import-file]").set_input_files(file)
    item = page.locator("[data-testid=import-rejected-item]")
    await expect(item).to_have_text(DE_PANEL["transfer.rejected_item"].format(index=1, reason=reason))
    assert "sensitive_content" not in await item.inner_text()
    await page.context.close()


async def test_search_shows_what_is_withheld_from_the_speaker(
    site: Site, browser: Any, owner_ws: HAClient, tmp_path: Path
) -> None:
    """A sensitive memory recalled for an unknown speaker is listed as kept from them (with who
    said it), not among the hits the assistant would tell; at phone width, in the dark theme."""
    query = "What is the code of the garden gate?"
    memory_id = await remember(owner_ws, "The garden gate code is 2580.", person="person.julian")
    assert (await owner_ws.ws("memory/get", memory_id=memory_id))["memory"]["sensitive"] is True
    found = await owner_ws.ws("memory/search", query=query)
    assert memory_id in [h["memory"]["id"] for h in found["withheld"]], found
    page = await open_panel(browser, site, viewport=PHONE, color_scheme="dark")
    await ready(page)
    hits = await _search(page, owner_ws, query, "", "")
    assert memory_id not in [h["memory"]["id"] for h in hits]
    section = page.locator("[data-testid=search-withheld-section]")
    await expect(section.locator("h2")).to_have_text("Kept from this speaker")
    kept = section.locator(f"[data-testid=search-withheld][data-memory-id='{memory_id}']")
    await expect(kept).to_be_visible()
    await expect(kept.locator("[data-testid=withheld-mark]")).to_be_visible()
    await expect(kept.locator("[data-testid=said-by]")).to_contain_text("Julian")
    await expect(page.locator(f"[data-testid=search-hit][data-memory-id='{memory_id}']")).to_have_count(0)
    await kept.scroll_into_view_if_needed()
    assert await page.evaluate(
        "document.documentElement.scrollWidth <= window.innerWidth"
    )  # no sideways scroll
    await page.screenshot(path=shots(tmp_path) / "panel-search-withheld-phone-dark.png")

    # Julian himself hears it: a hit, nothing withheld
    hits = await _search(page, owner_ws, query, "person.julian", "")
    assert memory_id in [h["memory"]["id"] for h in hits]
    await expect(page.locator(f"[data-testid=search-withheld][data-memory-id='{memory_id}']")).to_have_count(
        0
    )
    await page.context.close()


async def test_history_chain(site: Site, browser: Any) -> None:
    page = await open_panel(browser, site)
    await ready(page)
    await open_memory(page, site.ids["pump_new"])
    chain = page.locator("[data-testid=history-item]")
    await expect(chain).to_have_count(2)
    this = page.locator(f"[data-testid=history-item][data-memory-id='{site.ids['pump_new']}']")
    older = page.locator(f"[data-testid=history-item][data-memory-id='{site.ids['pump_old']}']")
    await expect(this).to_have_attribute("data-relation", "this")
    await expect(older).to_have_attribute("data-relation", "older")
    await expect(older).to_contain_text(REMEMBERED["pump_old"]["content"])
    await expect(older.locator("[data-testid=history-window]")).to_contain_text("Replaced")
    await older.locator("[data-testid=history-open]").click()
    await expect(
        page.locator(f"[data-testid=detail][data-memory-id='{site.ids['pump_old']}']")
    ).to_be_visible()
    newer = page.locator(f"[data-testid=history-item][data-memory-id='{site.ids['pump_new']}']")
    await expect(newer).to_have_attribute("data-relation", "newer")
    await expect(newer).to_contain_text(PUMP_NEW)
    await page.context.close()


async def test_edit_then_recalled_with_the_new_text(site: Site, browser: Any, owner_ws: HAClient) -> None:
    page = await open_panel(browser, site)
    await ready(page)
    memory_id = site.ids["window"]
    await open_memory(page, memory_id)
    await page.locator("[data-testid=detail-edit]").click()
    new_text = "The kitchen window sticks when it rains; lift the handle firmly."
    await page.locator("[data-testid=edit-content]").fill(new_text)
    await page.locator("[data-testid=edit-save]").click()
    await expect(page.locator("[data-testid=notice]")).to_have_text("Saved.")
    await expect(page.locator("[data-testid=detail-content]")).to_have_text(new_text)

    assert (await owner_ws.ws("memory/get", memory_id=memory_id))["memory"]["content"] == new_text
    hits = await owner_ws.ws(
        "memory/search", query="Does the kitchen window stick when it rains?", area=site.areas["kitchen"]
    )
    assert new_text in [h["memory"]["content"] for h in hits["hits"]]
    assert REMEMBERED["window"]["content"] not in json.dumps(hits)
    await page.context.close()


async def test_approve_a_pending_memory(site: Site, browser: Any, owner_ws: HAClient) -> None:
    page = await open_panel(browser, site)
    await ready(page)
    await page.locator("[data-testid=overview-review]").click()
    item = page.locator(f"[data-testid=pending-item][data-memory-id='{site.ids['tea']}']")
    await expect(item.locator("[data-testid=memory-content]")).to_have_text(REVIEW_PENDING)
    struck = item.locator("[data-testid=pending-replaces] del[data-testid=replaced-value]")
    await expect(struck).to_have_text(REVIEW_FACT)  # <del>: shown struck through
    assert await struck.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    await item.locator("[data-testid=pending-approve]").click()
    await expect(page.locator("[data-testid=notice]")).to_have_text("Approved.")
    await expect(page.locator("[data-testid=pending-empty]")).to_be_visible()

    assert (await owner_ws.ws("memory/get", memory_id=site.ids["tea"]))["memory"]["status"] == "active"
    coffee = await owner_ws.ws("memory/get", memory_id=site.ids["coffee"])
    assert (coffee["memory"]["status"], [m["id"] for m in coffee["newer"]]) == (
        "superseded",
        [site.ids["tea"]],
    )
    assert (await owner_ws.ws("memory/pending"))["pending"] == []
    await page.context.close()


async def test_forget_with_confirmation(site: Site, browser: Any, owner_ws: HAClient) -> None:
    memory_id = site.ids["spare_key"]
    query = "Where is the spare key for the cellar?"
    assert memory_id in [h["memory"]["id"] for h in (await owner_ws.ws("memory/search", query=query))["hits"]]
    stones = (await owner_ws.ws("memory/tombstones"))["total"]
    page = await open_panel(browser, site)
    await ready(page)
    await open_memory(page, memory_id)
    dialog = page.locator("[data-testid=confirm-dialog]")
    await page.locator("[data-testid=detail-forget]").click()
    await expect(dialog).to_be_visible()
    await expect(page.locator("[data-testid=confirm-text]")).to_contain_text(
        REMEMBERED["spare_key"]["content"]
    )
    await page.locator("[data-testid=confirm-cancel]").click()  # cancelled: nothing happens
    await expect(dialog).to_be_hidden()
    assert (await owner_ws.ws("memory/get", memory_id=memory_id))["memory"]["status"] == "active"

    await page.locator("[data-testid=detail-forget]").click()
    await page.locator("[data-testid=confirm-ok]").click()
    await expect(page.locator("[data-testid=notice]")).to_have_text("Forgotten.")
    await expect(page.locator("[data-testid=detail]")).to_have_count(0)

    with pytest.raises(HAError, match="not_found"):
        await owner_ws.ws("memory/get", memory_id=memory_id)
    hits = (await owner_ws.ws("memory/search", query=query))["hits"]
    assert memory_id not in [h["memory"]["id"] for h in hits]
    tombstones = await owner_ws.ws("memory/tombstones")
    assert tombstones["total"] == stones + 1
    assert memory_id in [t["id"] for t in tombstones["tombstones"]]
    assert "spare key" not in json.dumps(tombstones)
    await page.context.close()


# Records the events of the panel's memory/import subscription (window.importEvents).
RECORD_IMPORT_EVENTS = """() => {
  const connection = document.querySelector("home-assistant").hass.connection;
  const subscribe = connection.subscribeMessage.bind(connection);
  window.importEvents = [];
  connection.subscribeMessage = (callback, msg, options) =>
    subscribe((event) => {
      if (msg.type === "memory/import") window.importEvents.push(event);
      callback(event);
    }, msg, options);
}"""


async def test_export_then_import_reports_duplicates(
    site: Site, browser: Any, owner_ws: HAClient, tmp_path: Path
) -> None:
    before = (await owner_ws.ws("memory/list", status="any"))["total"]
    page = await open_panel(browser, site, accept_downloads=True)
    await ready(page)
    await tab(page, "transfer")
    async with page.expect_download() as download_info:
        await page.locator("[data-testid=export-download]").click()
    download = await download_info.value
    assert download.suggested_filename.startswith("household-memory-")
    file = tmp_path / download.suggested_filename
    await download.save_as(file)
    exported = json.loads(file.read_text(encoding="utf-8"))
    assert (exported["format"], exported["version"]) == ("household-memory/export", 1)
    total = len(exported["memories"]) + len(exported["pending"])
    assert total >= 4
    await expect(page.locator("[data-testid=export-done]")).to_contain_text(str(len(exported["memories"])))

    await page.evaluate(RECORD_IMPORT_EVENTS)
    await page.locator("[data-testid=import-file]").set_input_files(file)
    await expect(page.locator("[data-testid=import-report]")).to_be_visible()
    await expect(page.locator("[data-testid=import-created]")).to_have_text("Imported: 0")
    await expect(page.locator("[data-testid=import-duplicates]")).to_have_text(f"Already known: {total}")
    await expect(page.locator("[data-testid=import-rejected]")).to_have_text("Refused: 0")
    assert (await owner_ws.ws("memory/list", status="any"))["total"] == before
    events = await page.evaluate("window.importEvents")  # the panel asked for progress and got it
    assert events[-2:] == [
        {"done": total, "total": total},
        {"result": {"created": 0, "duplicates": total, "rejected": []}},
    ]
    await page.context.close()


async def test_non_admin_gets_no_memory_panel(site: Site, browser: Any) -> None:
    page = await open_panel(browser, site, "anna", path="/history")
    sidebar = page.locator("ha-sidebar")
    await expect(sidebar.locator("a[href='/history']")).to_be_visible()  # the sidebar is there
    await expect(sidebar.locator("a[href='/memory']")).to_have_count(0)
    panels = await page.evaluate("document.querySelector('home-assistant').hass.panels")
    assert "memory" not in panels and "history" in panels
    await page.goto(site.base_url + "/memory")
    # HA's frontend has no such panel for her: it goes to her default dashboard, the panel
    # element never appears
    await page.wait_for_url(lambda url: not url.endswith("/memory"))
    await expect(page.locator("household-memory-panel")).to_have_count(0)
    # and the API refuses her
    error = await page.evaluate(
        "document.querySelector('home-assistant').hass.callWS({type: 'memory/overview'})"
        ".then(() => null, (err) => err.code)"
    )
    assert error == "unauthorized"
    await page.context.close()


async def remember(api: HAClient, content: str, **fields: Any) -> str:
    """memory.remember over REST (the public door), returning the memory's id."""
    reply = await api.rest(
        "POST", "/api/services/memory/remember?return_response", {"content": content, **fields}
    )
    return str(reply["service_response"]["memory"]["id"])


async def statuses(api: HAClient) -> dict[str, str]:
    """Every memory's status by id (any status; the store at this moment)."""
    found = await api.ws("memory/list", status="any", limit=200)
    assert found["total"] <= 200, found["total"]
    return {m["id"]: m["status"] for m in found["memories"]}


BINS = "The bins are emptied on Tuesdays."
BIN_DAY = "Bin day is Tuesday."  # a restatement of BINS: consolidation merges them


async def test_consolidation_dry_run_then_run_now(
    site: Site, browser: Any, owner_ws: HAClient, tmp_path: Path
) -> None:
    # Two current memories saying one thing: an edit is not read against the others (remembering
    # BIN_DAY would have confirmed BINS instead), so only consolidation settles them.
    bins = await remember(owner_ws, BINS)
    bin_day = await remember(owner_ws, "The recycling box is in the garage.")
    await owner_ws.ws("memory/update", memory_id=bin_day, content=BIN_DAY)
    store = await statuses(owner_ws)
    assert (store[bins], store[bin_day]) == ("active", "active")
    last = (await owner_ws.ws("memory/overview"))["last_consolidation"]
    planned = await owner_ws.ws("memory/consolidate", dry_run=True)  # a dry run changes nothing
    assert planned["merged"] >= 1

    page = await open_panel(browser, site)
    await ready(page)
    await tab(page, "consolidate")
    await page.locator("[data-testid=consolidate-dry-run]").click()
    plan = page.locator("[data-testid=consolidate-plan]")
    await expect(plan.locator("[data-testid=consolidate-merged] .n")).to_have_text(str(planned["merged"]))
    change = plan.locator(
        f"[data-testid=consolidate-changes] li[data-memory-id='{bins}'],"
        f" [data-testid=consolidate-changes] li[data-memory-id='{bin_day}']"
    )
    await expect(change).to_have_count(1)  # one of them merged into the other
    await expect(change).to_contain_text("Merge")
    await expect(change).to_contain_text(BINS)
    await expect(change).to_contain_text(BIN_DAY)
    assert await statuses(owner_ws) == store  # the dry run changed nothing
    await page.screenshot(path=shots(tmp_path) / "panel-consolidate-light.png", full_page=True)
    assert (await owner_ws.ws("memory/overview"))["last_consolidation"] == last

    await page.locator("[data-testid=consolidate-run]").click()
    done = page.locator("[data-testid=consolidate-done]")
    await expect(done.locator("[data-testid=consolidate-merged] .n")).to_have_text(str(planned["merged"]))
    await expect(plan).to_have_count(0)
    after = await statuses(owner_ws)
    assert sorted((after[bins], after[bin_day])) == ["active", "archived"]
    merged = bins if after[bins] == "archived" else bin_day
    assert (await owner_ws.ws("memory/get", memory_id=merged))["memory"]["superseded_by"] in {bins, bin_day}
    ran = (await owner_ws.ws("memory/overview"))["last_consolidation"]
    assert ran is not None and ran != last
    await tab(page, "overview")
    await expect(page.locator("[data-testid=overview-last-consolidation]")).not_to_have_text("Never")
    await page.context.close()


async def options_flow_values(api: HAClient) -> dict[str, Any]:
    """The values the integration's options flow (Settings → Devices & services → Configure)
    offers, i.e. the config entry's options: its form is opened over REST and aborted."""
    (entry,) = await api.ws("config_entries/get", domain="memory")
    flow = await api.rest("POST", "/api/config/config_entries/options/flow", {"handler": entry["entry_id"]})
    try:
        return {
            field["name"]: (field.get("description") or {}).get("suggested_value", field.get("default"))
            for field in flow["data_schema"]
        }
    finally:
        await api.rest("DELETE", f"/api/config/config_entries/options/flow/{flow['flow_id']}")


SWITCHES = ("learning", "review_extracted", "cloud_personal")
CHECKBOX = {
    "learning": "settings-learning",
    "review_extracted": "settings-review",
    "cloud_personal": "settings-cloud",
}


async def test_learning_switches_are_the_entry_options(site: Site, browser: Any, owner_ws: HAClient) -> None:
    before = await owner_ws.ws("memory/settings")
    hall = site.areas["hall"]
    want = {key: not before[key] for key in SWITCHES}
    want["learning_opt_out_areas"] = sorted(set(before["learning_opt_out_areas"]) ^ {hall})
    want["transcript_retention_days"] = 30 if before["transcript_retention_days"] != 30 else 31
    page = await open_panel(browser, site)
    await ready(page)
    await tab(page, "settings")
    for key in SWITCHES:
        await page.locator(f"[data-testid={CHECKBOX[key]}]").set_checked(want[key])
    await page.locator(f"[data-testid=settings-optout-{hall}]").set_checked(
        hall in want["learning_opt_out_areas"]
    )

    # out of range: the field says so by name, and nothing is saved (not the switches either)
    retention = page.locator("[data-testid=settings-retention]")
    error = page.locator("[data-testid=settings-retention-error]")
    save = page.locator("[data-testid=settings-save]")
    for wrong in ("0", "3651", "2.5", ""):
        await retention.fill(wrong)
        await expect(error).to_have_text(
            "Transcript retention (days): enter a whole number of days from 1 to 3650."
        )
        await expect(retention).to_have_attribute("aria-invalid", "true")
        await expect(save).to_be_disabled()
    await retention.press("Enter")  # submitting the form anyway
    await expect(error).to_be_visible()
    await expect(page.locator("[data-testid=settings-saved]")).to_have_count(0)
    assert await owner_ws.ws("memory/settings") == before
    options = await options_flow_values(owner_ws)
    assert {key: options[key] for key in before} == before

    await retention.fill(str(want["transcript_retention_days"]))
    await expect(error).to_have_count(0)
    await expect(retention).to_have_attribute("aria-invalid", "false")
    await save.click()
    await expect(page.locator("[data-testid=settings-saved]")).to_have_text("Saved.")
    await expect(save).to_be_disabled()  # nothing left to save
    after = await owner_ws.ws("memory/settings")
    after["learning_opt_out_areas"] = sorted(after["learning_opt_out_areas"])
    assert after == want
    options = await options_flow_values(owner_ws)  # the same source of truth as the options flow
    shown = {key: options[key] for key in want}
    shown["learning_opt_out_areas"] = sorted(shown["learning_opt_out_areas"])
    assert shown == want
    await page.context.close()
    await owner_ws.ws("memory/settings/update", **before)  # the site's settings for the other tests


async def private_memories(api: HAClient, person: str) -> list[str]:
    found = await api.ws("memory/list", scope="private", person=person, limit=200)
    return sorted(m["id"] for m in found["memories"])


async def test_forget_a_person_with_confirmation(site: Site, browser: Any, owner_ws: HAClient) -> None:
    await remember(owner_ws, "I keep my gym bag in the hall cupboard.", scope="private", person="person.anna")
    anna = await private_memories(owner_ws, "person.anna")
    assert site.ids["passport"] in anna and len(anna) >= 2
    julian = await private_memories(owner_ws, "person.julian")
    assert julian
    page = await open_panel(browser, site)
    await ready(page)
    await tab(page, "forget")
    await page.locator("[data-testid=forget-person]").select_option("person.anna")
    dialog = page.locator("[data-testid=confirm-dialog]")
    await page.locator("[data-testid=forget-person-submit]").click()
    await expect(dialog).to_be_visible()
    await expect(page.locator("[data-testid=confirm-text]")).to_contain_text("Anna")
    await page.locator("[data-testid=confirm-cancel]").click()  # cancelled: nothing forgotten
    await expect(dialog).to_be_hidden()
    assert await private_memories(owner_ws, "person.anna") == anna

    await page.locator("[data-testid=forget-person-submit]").click()
    await page.locator("[data-testid=confirm-ok]").click()
    await expect(page.locator("[data-testid=notice]")).to_have_text(
        f"Private memories of Anna forgotten: {len(anna)}"
    )
    assert await private_memories(owner_ws, "person.anna") == []
    for memory_id in anna:
        with pytest.raises(HAError, match="not_found"):
            await owner_ws.ws("memory/get", memory_id=memory_id)
    assert await private_memories(owner_ws, "person.julian") == julian  # only hers
    window = await owner_ws.ws("memory/get", memory_id=site.ids["window"])  # a room memory she told stays
    assert window["memory"]["status"] == "active"
    await page.context.close()


async def test_lift_a_tombstone(site: Site, browser: Any, owner_ws: HAClient) -> None:
    memory_id = await remember(owner_ws, "The ladder hangs on the garage wall.")
    page = await open_panel(browser, site)
    await ready(page)
    await open_memory(page, memory_id)
    await page.locator("[data-testid=detail-forget]").click()
    await page.locator("[data-testid=confirm-ok]").click()
    await expect(page.locator("[data-testid=notice]")).to_have_text("Forgotten.")
    stone = next(t for t in (await owner_ws.ws("memory/tombstones"))["tombstones"] if t["id"] == memory_id)
    assert stone["lifted_at"] is None

    await tab(page, "forget")
    item = page.locator(f"[data-testid=tombstone-item][data-tombstone-id='{memory_id}']")
    await expect(item).to_contain_text("Household")  # its scope; a tombstone holds no text
    await expect(item).not_to_contain_text("ladder")
    await item.locator("[data-testid=tombstone-lift]").click()
    await expect(page.locator("[data-testid=notice]")).to_have_text("Tombstone lifted.")
    await expect(item.locator("[data-testid=tombstone-lift]")).to_have_count(0)
    await expect(item).to_contain_text("lifted")
    stone = next(t for t in (await owner_ws.ws("memory/tombstones"))["tombstones"] if t["id"] == memory_id)
    assert stone["lifted_at"] is not None
    await page.context.close()


TABS = ("overview", "list", "search", "pending", "forget", "consolidate", "transfer", "voice", "settings")


async def test_the_tabs_are_keyboard_reachable(site: Site, browser: Any) -> None:
    """From the panel's title, Tab walks the tabs in order and Enter opens each; the focus stays
    on the tab, which is marked as the current page."""
    page = await open_panel(browser, site)
    await ready(page)
    await page.locator("[data-testid=panel-title]").click()  # where sequential focus starts
    for index, name in enumerate(TABS):
        await page.keyboard.press("Tab")
        button = page.locator(f"[data-testid=tab-{name}]")
        await expect(button).to_be_focused()
        if index:
            await expect(button).to_have_attribute("aria-current", "false")
        await page.keyboard.press("Enter")
        await expect(page.locator(f"[data-testid=view-{name}]")).to_be_visible()
        await expect(button).to_have_attribute("aria-current", "page")
        await expect(button).to_be_focused()
    await page.context.close()


async def voice_of(api: HAClient, person: str) -> dict[str, Any]:
    status = await api.ws("memory/voice/status")
    return next(v for v in status["voices"] if v["person"] == person)


async def record(page: Page, seconds: int) -> None:
    """Record one clip of at least `seconds` from the (fake) microphone: the clip count grows by one."""
    clips = page.locator("[data-testid=voice-clip]")
    before = await clips.count()
    await page.locator("[data-testid=voice-record]").click()
    elapsed = page.locator("[data-testid=voice-elapsed]")
    await expect(elapsed).to_be_visible()
    # the recorder shows whole seconds recorded; 30 is where it stops by itself
    await expect(elapsed).to_have_attribute(
        "data-seconds", re.compile("^(" + "|".join(map(str, range(seconds, 31))) + ")$")
    )
    await page.locator("[data-testid=voice-stop]").click()
    await expect(clips).to_have_count(before + 1)


async def test_enrol_a_voice_recorded_in_the_browser_then_forget_it(
    site: Site, microphone_browser: Any, owner_ws: HAClient, tmp_path: Path
) -> None:
    """Julian reads sentences into the microphone (Chromium plays espeak speech as its
    microphone): two clips recorded, replayable, each checked (speech, level, noise, same voice)
    with the expected recognition shown; a too-short third clip is refused by name and
    discarded; enrolling stores his voice; forgetting deletes it."""
    assert (await voice_of(owner_ws, "person.julian"))["enrolled"] is False
    tall = {"width": DESKTOP["width"], "height": 1500}  # the whole enrolment in the screenshot
    page = await open_panel(microphone_browser, site, permissions=["microphone"], viewport=tall)
    await ready(page)
    await tab(page, "voice")
    julian = page.locator("[data-testid=voice-person][data-person='person.julian']")
    await expect(julian.locator("[data-testid=voice-state]")).to_have_text("Not enrolled")
    await julian.locator("[data-testid=voice-enrol]").click()
    await expect(page.locator("[data-testid=voice-enrolment]")).to_be_visible()

    await record(page, 5)
    await record(page, 8)  # Chromium plays the file from its start for each recording: more of it
    clips = page.locator("[data-testid=voice-clip]")
    report = page.locator("[data-testid=voice-report]")
    await expect(report).to_have_attribute("data-accepted", "true")
    for index in range(2):
        clip = clips.nth(index)
        await expect(clip.locator("[data-testid=voice-verdict]")).to_have_text("Usable")
        await expect(clip.locator("[data-testid=voice-speech]")).to_contain_text(" s")
        await expect(clip.locator("[data-testid=voice-snr]")).to_contain_text("dB")
        await expect(clip.locator("[data-testid=voice-same]")).to_contain_text("Yes")
        duration = await clip.locator("audio").evaluate(
            "a => new Promise(r => a.readyState >= 1 ? r(a.duration)"
            " : a.addEventListener('loadedmetadata', () => r(a.duration)))"
        )
        assert 5 <= duration <= 30, duration  # the WAV replays: 16-kHz PCM of the recording
    await expect(page.locator("[data-testid=voice-expected-sentence]")).to_contain_text("%")
    await page.locator("[data-testid=voice-enrolment]").scroll_into_view_if_needed()
    await page.screenshot(path=shots(tmp_path) / "panel-voice-light.png")

    await record(page, 1)  # too little speech
    third = clips.nth(2)
    await expect(third).to_have_attribute("data-problem", "too_short")
    await expect(third.locator("[data-testid=voice-verdict]")).to_contain_text("too little speech")
    await expect(page.locator("[data-testid=voice-enrol-submit]")).to_be_disabled()
    await third.locator("[data-testid=voice-clip-discard]").click()
    await expect(clips).to_have_count(2)
    await expect(report).to_have_attribute("data-accepted", "true")

    await page.locator("[data-testid=voice-enrol-submit]").click()
    await expect(page.locator("[data-testid=notice]")).to_contain_text("enrolled from 2 clips")
    await expect(julian).to_have_attribute("data-enrolled", "true")
    await expect(julian.locator("[data-testid=voice-state]")).to_contain_text("Enrolled from 2 clips")
    voice = await voice_of(owner_ws, "person.julian")
    assert (voice["enrolled"], voice["clips"]) == (True, 2)

    await julian.locator("[data-testid=voice-forget]").click()
    await page.locator("[data-testid=confirm-ok]").click()
    await expect(julian).to_have_attribute("data-enrolled", "false")
    assert (await voice_of(owner_ws, "person.julian"))["enrolled"] is False
    await page.context.close()


async def test_recent_recognitions_in_the_voices_view(site: Site, browser: Any, owner_ws: HAClient) -> None:
    """A spoken turn at the kitchen satellite (Household Memory's speech-to-text entity on
    in-process Whisper, espeak-ng speech of a voice nobody enrolled) is listed under the kitchen:
    unknown, with the score against the utterance's threshold, and not strict. Last in the
    module: it turns the speech-to-text engine on."""
    (entry,) = await owner_ws.ws("config_entries/get", domain="memory")
    voice = {
        "voice_recognition": True,
        "stt_engine": "whisper",
        "whisper_model": str(whisper_base_dir()),
        "whisper_language": "en",
    }
    await run_config_flow(owner_ws, entry["entry_id"], {"voice": voice}, flows="options/flow")

    async def registered(platform: str, domain: str) -> str:
        for _ in range(120):  # the entry reloads after the options are saved
            for found in await owner_ws.ws("config/entity_registry/list"):
                if found.get("platform") == platform and found["entity_id"].startswith(f"{domain}."):
                    states = {s["entity_id"]: s["state"] for s in await owner_ws.ws("get_states")}
                    if states.get(found["entity_id"], "unavailable") != "unavailable":
                        return str(found["entity_id"])
            await asyncio.sleep(0.5)
        raise AssertionError(f"no {domain} entity of {platform}")

    stt_entity = await registered("memory", "stt")
    agent = await registered("memory", "conversation")
    pipeline = await owner_ws.ws(
        "assist_pipeline/pipeline/create",
        name="Spoken (en)",
        language="en",
        conversation_engine=agent,
        conversation_language="en",
        stt_engine=stt_entity,
        stt_language="en",
        tts_engine=None,
        tts_language=None,
        tts_voice=None,
        wake_word_entity=None,
        wake_word_id=None,
    )
    devices = await owner_ws.ws("config/device_registry/list")
    kitchen = next(d["id"] for d in devices if d.get("area_id") == site.areas["kitchen"])
    pcm = speak("What should we cook for dinner tonight?", MEN[1], speed=140) + silence(1)
    transcript, _ = await owner_ws.run_voice_pipeline(pcm, pipeline_id=pipeline["id"], device_id=kitchen)
    assert "dinner" in transcript.lower()

    page = await open_panel(browser, site)
    await ready(page)
    await tab(page, "voice")
    table = page.locator(f"[data-testid=voice-recent-satellite][data-satellite='{kitchen}']")
    row = table.locator("[data-testid=voice-recognition]").first
    await expect(row).to_have_attribute("data-person", "")
    await expect(row.locator("[data-testid=voice-recognised]")).to_have_text("Unknown")
    await expect(row.locator("[data-testid=voice-score]")).to_have_text(
        re.compile(r"^\s*-?\d\.\d\d \(0\.\d\d\)\s*$")
    )
    await expect(row.locator("[data-testid=voice-strict]")).to_have_text("No")
    await expect(page.locator("[data-testid=voice-recent]")).not_to_contain_text("dinner")  # no words
    await page.context.close()
