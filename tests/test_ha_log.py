"""scripts/demo_lib/ha_log.py: which records of a Home Assistant log count against the integration
(the demo fails on them; tests/ha/test_ha_warnings.py checks a real hass's log with it)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1] / "scripts"))  # demo_lib

import pytest
from demo_lib.ha_log import (
    UnknownLogFormat,
    console_warnings_about_integration,
    records,
    warnings_about_integration,
)

T = "2026-12-07 14:00:00.123"  # 2026.10's time; 2026.11 adds the UTC offset (test_both_time_formats_are_read)


def _log(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def test_what_ha_and_python_say_against_the_integration_is_found() -> None:
    frame = (
        f"{T} WARNING (MainThread) [homeassistant.helpers.frame] Detected that custom integration "
        "'memory' calls async_show_form without passing a step_id at custom_components/memory/"
        "config_flow.py, line 3: return self.async_show_form(. This will stop working in Home "
        "Assistant 2027.5.0, please create a bug report"
    )
    helper = (
        f"{T} WARNING (MainThread) [homeassistant.helpers.chat_session] The deprecated function "
        "old was called from memory. It will be removed in HA Core 2027.5. Use new instead, please"
    )
    own = (
        f"{T} WARNING (MainThread) [custom_components.memory.stt] Detected code that reads the "
        "deprecated X.y, use z instead. This will stop working in Home Assistant 2027.1"
    )
    python = (
        f"{T} WARNING (MainThread) [py.warnings] /c/custom_components/memory/speaker.py:12: "
        "DeprecationWarning: utcnow() is deprecated"
    )
    log = _log(frame, "  File x, line 1", helper, own, python)
    found = warnings_about_integration(log)
    assert len(found) == 4
    assert "File x, line 1" in found[0]  # a record keeps its continuation lines


def test_other_records_are_not_the_integrations() -> None:
    log = _log(
        f"{T} WARNING (SyncWorker_0) [homeassistant.loader] We found a custom integration memory "
        "which has not been tested by Home Assistant. This component might cause stability problems",
        f"{T} WARNING (MainThread) [homeassistant.helpers.frame] Detected that custom integration "
        "'memory_dev' does something deprecated",
        f"{T} WARNING (MainThread) [homeassistant.helpers.deprecation] The deprecated function old "
        "was called from met. It will be removed in HA Core 2027.5.",
        f"{T} ERROR (MainThread) [homeassistant.setup] Setup failed for 'met': Requirements not found",
        f"{T} INFO (MainThread) [custom_components.memory] the deprecated option x was migrated",
        f"{T} WARNING (MainThread) [custom_components.memory] The memory store x is unreachable",
        f"{T} WARNING (MainThread) [py.warnings] /v/site-packages/numpy/x.py:3: DeprecationWarning: y",
    )
    assert warnings_about_integration(log) == []


def test_python_warnings_printed_before_the_log_are_found_on_the_console() -> None:
    console = _log(
        "/v/site-packages/backoff/_async.py:11: DeprecationWarning: 'iscoroutinefunction' is deprecated",
        "/c/custom_components/memory/engine/x.py:7: DeprecationWarning: old is deprecated",
        "  old()",
        f"{T} WARNING (MainThread) [custom_components.memory] /c/custom_components/memory/y.py:1: "
        "DeprecationWarning: a record the log has too",
    )
    assert console_warnings_about_integration(console) == [
        "/c/custom_components/memory/engine/x.py:7: DeprecationWarning: old is deprecated"
    ]


@pytest.mark.parametrize("time", ["2026-12-07 14:00:00.123", "2026-12-07 14:00:00.123+00:00"])
def test_both_time_formats_are_read(time: str) -> None:
    """2026.10 writes the time without and 2026.11 with its UTC offset: both logs are read."""
    log = _log(
        f"{time} WARNING (MainThread) [homeassistant.helpers.frame] Detected that custom integration "
        "'memory' does something. This will stop working in Home Assistant 2027.5",
        f"{time} INFO (MainThread) [homeassistant.setup] Setting up memory",
    )
    assert [record.logger for record in records(log)] == [
        "homeassistant.helpers.frame",
        "homeassistant.setup",
    ]
    assert len(warnings_about_integration(log)) == 1


def test_a_log_in_an_unknown_format_is_no_clean_log() -> None:
    with pytest.raises(UnknownLogFormat):
        warnings_about_integration("14:00:00 WARNING something else entirely\n")
    assert warnings_about_integration("") == []
