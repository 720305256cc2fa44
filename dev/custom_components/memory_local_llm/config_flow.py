"""Config flow: model path and threads (UI, REST API or YAML import); one entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import probatio as vol
from homeassistant.config_entries import ConfigFlow, ConfigFlowResult

from .const import CONF_MODEL_PATH, CONF_THREADS, DEFAULT_MODEL_PATH, DEFAULT_THREADS, DOMAIN, MAX_THREADS

USER_SCHEMA = vol.Schema(
    {
        vol.Required(CONF_MODEL_PATH, default=DEFAULT_MODEL_PATH): str,
        vol.Required(CONF_THREADS, default=DEFAULT_THREADS): vol.All(
            vol.Coerce(int), vol.Range(min=1, max=MAX_THREADS)
        ),
    }
)


class LocalLLMConfigFlow(ConfigFlow, domain=DOMAIN):
    """Creates the single "Local LLM" entry."""

    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Ask for the model file and threads; the file must exist."""
        await self.async_set_unique_id(DOMAIN)
        self._abort_if_unique_id_configured()
        errors: dict[str, str] = {}
        if user_input is not None:
            path = user_input[CONF_MODEL_PATH]
            if await self.hass.async_add_executor_job(Path(path).is_file):
                return self.async_create_entry(title=f"Local LLM ({Path(path).stem})", data=user_input)
            errors[CONF_MODEL_PATH] = "model_not_found"
        return self.async_show_form(
            step_id="user",
            data_schema=self.add_suggested_values_to_schema(USER_SCHEMA, user_input),
            errors=errors,
        )

    async def async_step_import(self, import_data: dict[str, Any]) -> ConfigFlowResult:
        """`memory_local_llm:` in configuration.yaml (already validated by CONFIG_SCHEMA)."""
        return await self.async_step_user(import_data)
