"""The "Memory" sidebar panel: registered for administrators with the integration, its built file
served as committed (to a browser without a token, as a <script type="module"> loads it), and
gone again when the entry unloads."""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant

from custom_components.memory.panel import (
    PANEL_ELEMENT,
    PANEL_FILE,
    PANEL_ICON,
    PANEL_TITLE,
    PANEL_URL_PATH,
    STATIC_URL,
    panel_version,
)


async def _panels(hass: HomeAssistant, hass_ws_client: Any, token: str | None = None) -> dict[str, Any]:
    """The sidebar panels the frontend shows the token's user (HA's own get_panels command)."""
    client = await hass_ws_client(hass, token) if token else await hass_ws_client(hass)
    await client.send_json_auto_id({"type": "get_panels"})
    msg = await client.receive_json()
    assert msg["success"], msg
    return msg["result"]


async def test_panel_in_the_sidebar_for_administrators_only(
    household: HomeAssistant, memory_entry: Any, hass_ws_client: Any, hass_read_only_access_token: str
) -> None:
    panel = (await _panels(household, hass_ws_client))[PANEL_URL_PATH]
    assert panel["require_admin"] is True
    assert panel["title"] == PANEL_TITLE
    assert panel["icon"] == PANEL_ICON
    assert panel["component_name"] == "custom"
    custom = panel["config"]["_panel_custom"]
    assert custom["name"] == PANEL_ELEMENT
    # the committed file's hash busts the browser's cache of an older build
    assert custom["module_url"] == f"{STATIC_URL}?v={panel_version()}"
    assert custom["embed_iframe"] is False

    assert PANEL_URL_PATH not in await _panels(household, hass_ws_client, hass_read_only_access_token)


async def test_panel_file_served_as_committed(
    household: HomeAssistant,
    memory_entry: Any,
    hass_ws_client: Any,
    hass_client: Any,
    hass_client_no_auth: Any,
) -> None:
    panel = (await _panels(household, hass_ws_client))[PANEL_URL_PATH]
    module_url = panel["config"]["_panel_custom"]["module_url"]
    committed = PANEL_FILE.read_bytes()
    assert f'"{PANEL_ELEMENT}"'.encode() in committed  # the element the registration names

    for client in (await hass_client(), await hass_client_no_auth()):
        response = await client.get(module_url)
        assert response.status == 200
        assert "javascript" in response.headers["Content-Type"]
        assert await response.read() == committed


async def test_panel_removed_on_unload_and_back_on_reload(
    household: HomeAssistant, memory_entry: Any, hass_ws_client: Any, hass_client_no_auth: Any
) -> None:
    assert await household.config_entries.async_unload(memory_entry.entry_id)
    assert memory_entry.state is ConfigEntryState.NOT_LOADED
    assert PANEL_URL_PATH not in await _panels(household, hass_ws_client)

    # set up again in the same run: the static path (registered once per run) is still there
    assert await household.config_entries.async_setup(memory_entry.entry_id)
    await household.async_block_till_done()
    assert (await _panels(household, hass_ws_client))[PANEL_URL_PATH]["require_admin"] is True
    client = await hass_client_no_auth()
    response = await client.get(STATIC_URL)
    assert response.status == 200
    assert await response.read() == PANEL_FILE.read_bytes()
