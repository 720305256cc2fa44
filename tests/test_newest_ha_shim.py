"""Lane 3's shim (tests/newest_ha.py) mends nothing on the release the test plugin was made for (lane 1
runs there), and says in the run's header what runs with what."""

from __future__ import annotations

from importlib.metadata import requires

from homeassistant.const import __version__ as HA_VERSION

from tests import newest_ha


def test_the_shim_mends_nothing_on_the_plugins_own_release() -> None:
    made_for = [r.split("==")[1] for r in requires(newest_ha.PLUGIN) or [] if r.startswith("homeassistant==")]
    assert made_for == [HA_VERSION]  # lane 1 runs the release the plugin pins
    assert newest_ha.MENDED == []
    assert newest_ha._mend_moved_names() == []


def test_the_header_names_the_release_and_the_plugin() -> None:
    (line,) = newest_ha.pytest_report_header(None)  # type: ignore[arg-type]
    assert f"Home Assistant {HA_VERSION}" in line
    assert f"made for Home Assistant {HA_VERSION}" in line
    assert "mended: nothing" in line
