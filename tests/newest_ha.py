"""Lane 3's shim: the test plugin on the newest Home Assistant release.

The test plugin (pytest-homeassistant-custom-component, pinned in requirements/dev.txt) is HA
core's test helpers (tests/common.py, tests/conftest.py, …) copied from the release of
requirements/ha.txt. Lane 3 (`scripts/test --newest-ha`) runs it on the release of
requirements/ha-newest.txt, installed without its Home Assistant pin (scripts/lib.sh,
`_newest_ha_test_plugin`). `scripts/test --newest-ha` loads this module with `-p tests.newest_ha`,
so it is imported before the plugin (a `pytest11` entry point) and can mend, before the plugin's
first import, what the plugin's copies get wrong about the newer release.

Each mend applies only when the running release needs it — found out by what the release offers,
never by its version number — so moving the lane to the next release (one line,
requirements/ha-newest.txt) changes nothing here, and on the plugin's own release every mend is a
no-op. A mend no release needs any more can go. Only the plugin is mended here: a test that fails
on the newer release because of the integration or of the test itself stays failing.

Mends (Home Assistant 2026.11.0 with the plugin for 2026.10.4):

- **Home Assistant first.** From 2026.11 `import homeassistant` aliases `httpx` to `httpx2` (and
  `voluptuous` to `probatio`) and refuses when `httpx` was imported before; the plugin imports
  `respx`, and with it `httpx`, before its first Home Assistant import. Imported here, Home
  Assistant comes first, as in HA core's own test set-up.
- **`logger._clear_logger_overwrites`.** The plugin's common.py imports it from
  `homeassistant.components.logger`; from 2026.11 it lives in `logger.helpers` only.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, requires, version

import homeassistant  # noqa: F401  (first: see the module docstring)
import pytest
from homeassistant.const import __version__ as HA_VERSION

PLUGIN = "pytest-homeassistant-custom-component"

# (module the plugin imports a name from, the name, the module that has it on newer releases)
MOVED_NAMES = (
    (
        "homeassistant.components.logger",
        "_clear_logger_overwrites",
        "homeassistant.components.logger.helpers",
    ),
)


def _mend_moved_names() -> list[str]:
    """Puts each name the plugin imports back where the plugin looks for it, when it moved; returns
    what was mended."""
    mended = []
    for module_name, name, newer_home in MOVED_NAMES:
        module = import_module(module_name)
        if not hasattr(module, name):
            setattr(module, name, getattr(import_module(newer_home), name))
            mended.append(f"{module_name}.{name}")
    return mended


MENDED = _mend_moved_names()


def _plugin_release() -> str:
    """The plugin's version and the Home Assistant release it was made for (its homeassistant pin)."""
    try:
        pins = [r.split("==")[1] for r in requires(PLUGIN) or [] if r.startswith("homeassistant==")]
        return f"{PLUGIN} {version(PLUGIN)}, made for Home Assistant {pins[0] if pins else '?'}"
    except PackageNotFoundError:
        return f"{PLUGIN} not installed"


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Says in the run's header which release runs under which plugin, and what was mended."""
    return [
        f"newest-HA lane: Home Assistant {HA_VERSION}; {_plugin_release()}; "
        f"mended: {', '.join(MENDED) or 'nothing (the plugin fits this release)'}"
    ]
