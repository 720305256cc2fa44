"""The "Memory" sidebar panel: the built web component (frontend/memory-panel.js, committed, built
from the repository's frontend/ folder) served as a static file, shown to administrators only.

The static path is registered once per Home Assistant run (aiohttp cannot remove a route); the
panel itself comes and goes with the config entry.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from pathlib import Path

from homeassistant.components import frontend, panel_custom
from homeassistant.components.http import StaticPathConfig
from homeassistant.core import HomeAssistant
from homeassistant.util.hass_dict import HassKey

PANEL_URL_PATH = "memory"  # the panel's address: /memory
PANEL_ELEMENT = "household-memory-panel"  # the custom element frontend/src/memory-panel.ts defines
PANEL_TITLE = "Memory"  # sidebar titles of custom panels are not translated by HA
PANEL_ICON = "mdi:brain"
PANEL_FILE = Path(__file__).parent / "frontend" / "memory-panel.js"
STATIC_URL = "/memory_static/memory-panel.js"

# The file's version (hash) once its static path is registered in this run.
DATA_PANEL_VERSION: HassKey[str] = HassKey("memory_panel_version")


def panel_version(path: Path = PANEL_FILE) -> str:
    """The first 16 hex digits of the file's SHA-256: the module URL's ?v=, so a browser that
    cached an older build (the static path sends long cache headers) loads the new one. Blocking."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


async def async_register_panel(hass: HomeAssistant) -> Callable[[], None]:
    """Serve the panel's file (once per run) and add the admin-only sidebar panel; returns the
    callback that removes the panel again (for entry.async_on_unload). Raises OSError when the
    built file is missing (a broken install)."""
    version = hass.data.get(DATA_PANEL_VERSION)
    if version is None:
        version = await hass.async_add_executor_job(panel_version)
        await hass.http.async_register_static_paths(
            [StaticPathConfig(STATIC_URL, str(PANEL_FILE), cache_headers=True)]
        )
        hass.data[DATA_PANEL_VERSION] = version
    await panel_custom.async_register_panel(
        hass,
        frontend_url_path=PANEL_URL_PATH,
        webcomponent_name=PANEL_ELEMENT,
        sidebar_title=PANEL_TITLE,
        sidebar_icon=PANEL_ICON,
        module_url=f"{STATIC_URL}?v={version}",
        require_admin=True,
    )
    return partial(frontend.async_remove_panel, hass, PANEL_URL_PATH, warn_if_unknown=False)
