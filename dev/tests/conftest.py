"""Fixtures for the local-LLM tests (run by scripts/test-llm, not by scripts/test).

- `model_path` (session): the verified GGUF file: $LOCAL_LLM_MODEL if set (scripts/test-llm sets
  it), else assembled by scripts/local_llm_model.py from the installed part packages.
- `llm_entry` (hass): the memory_local_llm config entry, LOADED, with $LOCAL_LLM_THREADS threads
  (default 1, as in CI).
- `_pinned_clock` (autouse): every test starts at PINNED_NOW. HA writes the current time into the
  AI Task's and the conversation agent's system prompt; a fixed instant makes the prompt, and so
  the model's answer (temperature 0, llama.cpp on 1 thread), the same on every run.
- `household`, `julian`, `kitchen`, `use_model` (+ its autouse patch): the HA fixtures of
  tests/conftest.py, imported so the learning tests run the same household as lane 1.

dev/custom_components joins the repo's `custom_components` namespace package, so HA's loader finds
memory_local_llm beside memory.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT, ROOT / "dev"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import custom_components  # noqa: E402, F401  # the namespace now spans both folders
from tests.conftest import (  # noqa: E402, F401  # fixtures shared with tests/ha
    _shared_use_model,
    anna,
    household,
    julian,
    kitchen,
    use_model,
)

LLM_DOMAIN = "memory_local_llm"
PINNED_NOW = "2026-11-29 12:00:00+00:00"  # any fixed instant; a Sunday noon, UTC


@pytest.fixture(autouse=True)
def _pinned_clock(freezer: Any) -> None:
    """The frozen clock at PINNED_NOW before anything else starts (module docstring)."""
    freezer.move_to(PINNED_NOW)


@pytest.fixture(scope="session")
def model_path() -> str:
    """The model file (see module docstring)."""
    if path := os.environ.get("LOCAL_LLM_MODEL"):
        return path
    spec = importlib.util.spec_from_file_location("local_llm_model", ROOT / "scripts" / "local_llm_model.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there (Python 3.14)
    spec.loader.exec_module(module)
    return str(module.assemble())


@pytest.fixture(autouse=True)
def _custom_integrations(request: pytest.FixtureRequest, _pinned_clock: None) -> None:
    # after the clock is pinned: enable_custom_integrations starts hass
    if "hass" in request.fixturenames:
        request.getfixturevalue("enable_custom_integrations")


@pytest.fixture
async def llm_entry(hass: Any, model_path: str) -> Any:
    """The local LLM's config entry, set up (model loaded); unloaded (model freed) afterwards."""
    from homeassistant.config_entries import ConfigEntryState  # noqa: PLC0415
    from homeassistant.setup import async_setup_component  # noqa: PLC0415
    from pytest_homeassistant_custom_component.common import MockConfigEntry  # noqa: PLC0415

    assert await async_setup_component(hass, "homeassistant", {})
    threads = int(os.environ.get("LOCAL_LLM_THREADS", "1"))
    entry = MockConfigEntry(domain=LLM_DOMAIN, data={"model_path": model_path, "threads": threads})
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    assert entry.state is ConfigEntryState.LOADED
    yield entry
    assert await hass.config_entries.async_unload(entry.entry_id)
