"""What a Home Assistant log says against the integration: deprecation warnings and uses HA
reports, attributed to the `memory` integration (scripts/demo.py checks its hass log with it after
every run, tests/ha/test_ha_warnings.py a test hass's records and a real hass's log).

A record is about the integration when
- HA's frame helper reports it ("Detected that custom integration 'memory' …": a use HA deprecates
  or refuses, helpers/frame.py report_usage);
- HA's deprecation helpers name it ("The deprecated function x was called from memory. …",
  helpers/deprecation.py);
- one of the integration's own loggers (custom_components.memory…) warns of a deprecation
  ("… is deprecated", "will stop working", "report_usage": HA logs some of these in the name of the
  module that uses the API, e.g. deprecated entity members);
- Python warns (py.warnings, when hass runs with warnings shown: PYTHON_WARNINGS below) of a
  DeprecationWarning, PendingDeprecationWarning or FutureWarning raised at a line of the
  integration's files (a library deprecating what the integration calls points at the caller);
  one raised before HA set up its log is printed on hass's console instead
  (console_warnings_about_integration).

Other records are not: HA's own notice that every custom integration is untested ("We found a
custom integration memory which has not been tested …"), errors of components a demo venv lacks,
deprecations inside HA or a library that the integration did not call.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

DOMAIN = "memory"
# The environment to run hass with so that Python's deprecation warnings reach its log (by
# default Python shows a DeprecationWarning only when raised in __main__; HA logs warnings through
# logging.captureWarnings as the logger py.warnings).
PYTHON_WARNINGS = {
    "PYTHONWARNINGS": "default::DeprecationWarning,default::PendingDeprecationWarning,default::FutureWarning"
}

_FRAME = re.compile(rf"Detected that custom integration '{DOMAIN}'")
_DEPRECATED_HELPER = re.compile(rf"The deprecated .+ was \w+ from {DOMAIN}\.")
_OWN_LOGGER = re.compile(rf"custom_components\.{DOMAIN}(\.|$)")
_DEPRECATION_WORDS = re.compile(
    r"deprecat|report_usage|will stop working|stop working in Home Assistant", re.I
)
_PY_WARNING = re.compile(
    rf"custom_components/{DOMAIN}/\S+\.py:\d+: (Deprecation|PendingDeprecation|Future)Warning"
)
# a line of its own, as Python prints it: "/…/custom_components/memory/x.py:12: DeprecationWarning: …"
_CONSOLE_PY_WARNING = re.compile(
    rf"^\S*custom_components/{DOMAIN}/\S+\.py:\d+: (?:Deprecation|PendingDeprecation|Future)Warning: .*$",
    re.M,
)
# HA's log format, "%(asctime)s %(levelname)s (%(threadName)s) [%(name)s] %(message)s": the time is
# "2026-12-07 14:00:00.123" on 2026.10 and "2026-12-07 14:00:00.123+00:00" (with its UTC offset,
# util/logging.py HomeAssistantLogFormatter) from 2026.11.
_RECORD = re.compile(
    r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? "
    r"(?P<level>[A-Z]+) \((?P<thread>[^)]*)\) \[(?P<logger>[^\]]+)\] (?P<message>.*)$"
)


class UnknownLogFormat(ValueError):
    """A log with text in it but no record read from it: a format this module does not know (a
    check that found nothing there would be worth nothing)."""


@dataclass(frozen=True)
class Record:
    level: int
    logger: str
    message: str  # the record's text, continuation lines (a traceback) included


def about_integration(record: Record) -> bool:
    """Whether `record` is a warning (or worse) that HA or Python gives against the integration
    (module docstring)."""
    if record.level < logging.WARNING:
        return False
    if _FRAME.search(record.message) or _DEPRECATED_HELPER.search(record.message):
        return True
    if _OWN_LOGGER.match(record.logger) and _DEPRECATION_WORDS.search(record.message):
        return True
    return record.logger == "py.warnings" and bool(_PY_WARNING.search(record.message))


def records(text: str) -> list[Record]:
    """The records of a Home Assistant log file (HA's default format), each with its
    continuation lines."""
    found: list[Record] = []
    for line in text.splitlines():
        if match := _RECORD.match(line):
            level = logging.getLevelName(match["level"])
            found.append(
                Record(
                    level if isinstance(level, int) else logging.WARNING, match["logger"], match["message"]
                )
            )
        elif found:
            last = found[-1]
            found[-1] = Record(last.level, last.logger, f"{last.message}\n{line}")
    return found


def console_warnings_about_integration(text: str) -> list[str]:
    """Python's deprecation warnings at the integration's lines in hass's console output (stderr):
    where Python prints the warnings raised before HA has set up its log (imports at start-up);
    records of the log that the console repeats are left to warnings_about_integration."""
    return [match[0] for match in _CONSOLE_PY_WARNING.finditer(text)]


def warnings_about_integration(text: str) -> list[str]:
    """Every record of log `text` about the integration (about_integration), one string each:
    level, logger and message. Raises UnknownLogFormat when `text` holds lines but no record."""
    found = records(text)
    if not found and text.strip():
        raise UnknownLogFormat(f"no Home Assistant log record in {text.strip().splitlines()[0][:120]!r} …")
    return [
        f"{logging.getLevelName(r.level)} [{r.logger}] {r.message}" for r in found if about_integration(r)
    ]
