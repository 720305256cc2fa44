"""Config flow: model path and threads (UI, REST API or YAML import); one entry.

Options flow: the LLM APIs the conversation agent offers (`llm_hass_api`, a list of API ids), as
Home Assistant's own LLM integrations (ollama, openai_conversation) offer them: a multiple select
of every registered API (`llm.async_get_apis`), e.g. "Assist" and the memory integration's
"Memory". The model is chat-only: the APIs' prompts reach it, their tools are only offered.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import probatio as vol
from homeassistant.config_entries import ConfigEntry, ConfigFlow, ConfigFlowResult, OptionsFlow
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import llm
from homeassistant.helpers.selector import (
    SelectOptionDict,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
)

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

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> OptionsFlow:
        """The entry's *Configure* dialog: the conversation agent's LLM APIs."""
        return LocalLLMOptionsFlow()

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


def selected_llm_apis(hass: HomeAssistant, options: Mapping[str, Any]) -> list[str]:
    """The option's API ids that are registered now (an API whose integration is gone is
    dropped, as HA's LLM integrations do)."""
    registered = {api.id for api in llm.async_get_apis(hass)}
    return [api_id for api_id in options.get(CONF_LLM_HASS_API) or [] if api_id in registered]


def options_schema(hass: HomeAssistant, options: Mapping[str, Any]) -> vol.Schema:
    """The options form: every registered LLM API to tick, the current choice suggested."""
    return vol.Schema(
        {
            vol.Optional(
                CONF_LLM_HASS_API, description={"suggested_value": selected_llm_apis(hass, options)}
            ): SelectSelector(
                SelectSelectorConfig(
                    options=[
                        SelectOptionDict(label=api.name, value=api.id) for api in llm.async_get_apis(hass)
                    ],
                    multiple=True,
                    mode=SelectSelectorMode.LIST,
                )
            ),
        }
    )


class LocalLLMOptionsFlow(OptionsFlow):
    """The conversation agent's LLM APIs; read at every message (no reload needed)."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """One form: the LLM APIs; none ticked stores no API (plain chat)."""
        if user_input is not None:
            options = dict(user_input)
            if not options.get(CONF_LLM_HASS_API):
                options.pop(CONF_LLM_HASS_API, None)
            return self.async_create_entry(data=options)
        return self.async_show_form(
            step_id="init", data_schema=options_schema(self.hass, self.config_entry.options)
        )
