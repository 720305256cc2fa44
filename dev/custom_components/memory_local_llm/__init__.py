"""Development-only integration: an AI Task entity and a conversation agent on a local GGUF model.

Backed by llama-cpp-python (requirements/llm.txt, never a requirement of the shipped memory
integration). It gives the learning tests and the demo a real, offline model behind
`ai_task.generate_data` and Assist; it lives under dev/, so HACS never installs it.

The model is loaded once per config entry in the executor and freed on unload. Set up from the
UI (config flow: model path, threads; options: the conversation agent's LLM APIs, `llm_hass_api`)
or from YAML:

    memory_local_llm:
      model_path: /root/.cache/household-memory/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
      threads: 1
"""

from __future__ import annotations

import probatio as vol
from homeassistant.config_entries import SOURCE_IMPORT, ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ConfigEntryError
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.typing import ConfigType

from .const import CONF_MODEL_PATH, CONF_THREADS, DEFAULT_MODEL_PATH, DEFAULT_THREADS, DOMAIN, MAX_THREADS
from .model import LocalModel, ModelUnavailable

PLATFORMS = [Platform.AI_TASK, Platform.CONVERSATION]

type LocalLLMConfigEntry = ConfigEntry[LocalModel]

ENTRY_SCHEMA = vol.Schema(
    {
        vol.Optional(CONF_MODEL_PATH, default=DEFAULT_MODEL_PATH): cv.string,
        vol.Optional(CONF_THREADS, default=DEFAULT_THREADS): vol.All(
            vol.Coerce(int), vol.Range(min=1, max=MAX_THREADS)
        ),
    }
)
CONFIG_SCHEMA = vol.Schema({DOMAIN: ENTRY_SCHEMA}, extra=vol.ALLOW_EXTRA)


async def async_setup(hass: HomeAssistant, config: ConfigType) -> bool:
    """Create the config entry from YAML (`memory_local_llm:`) if there is none yet."""
    if DOMAIN in config and not hass.config_entries.async_entries(DOMAIN):
        hass.async_create_task(
            hass.config_entries.flow.async_init(
                DOMAIN, context={"source": SOURCE_IMPORT}, data=dict(config[DOMAIN])
            )
        )
    return True


async def async_setup_entry(hass: HomeAssistant, entry: LocalLLMConfigEntry) -> bool:
    """Load the model (executor), then the AI Task and conversation entities."""
    try:
        entry.runtime_data = await hass.async_add_executor_job(
            LocalModel,
            entry.data.get(CONF_MODEL_PATH, DEFAULT_MODEL_PATH),
            int(entry.data.get(CONF_THREADS, DEFAULT_THREADS)),
        )
    except ModelUnavailable as err:
        raise ConfigEntryError(str(err)) from err
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: LocalLLMConfigEntry) -> bool:
    """Unload the entities, then free the model."""
    if not await hass.config_entries.async_unload_platforms(entry, PLATFORMS):
        return False
    await hass.async_add_executor_job(entry.runtime_data.close)
    return True
