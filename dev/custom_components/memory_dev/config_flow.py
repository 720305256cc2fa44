"""Config flow: one entry, no questions (UI, REST API or YAML import)."""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import ConfigFlow, ConfigFlowResult

from .const import DOMAIN


class MemoryDevConfigFlow(ConfigFlow, domain=DOMAIN):
    """Creates the single "Development satellites" entry."""

    VERSION = 1

    async def async_step_user(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        """Create the entry straight away; a second one is refused."""
        await self.async_set_unique_id(DOMAIN)
        self._abort_if_unique_id_configured()
        return self.async_create_entry(title="Development satellites", data={})

    async def async_step_import(self, import_data: dict[str, Any]) -> ConfigFlowResult:
        """`memory_dev:` in configuration.yaml."""
        return await self.async_step_user(import_data)
