"""Which conversation agents and LLM platforms are cloud services, decided by manifest.

Whether a model is "cloud" comes from its integration's manifest `iot_class` (cloud_polling /
cloud_push); what a cloud model may be told is decided by engine/audience.py for the audience
audience.py builds from this.
"""

from __future__ import annotations

from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.loader import IntegrationNotFound, async_get_integration

# HA's own agent and the conversation component run in-process.
LOCAL_DOMAINS = frozenset({conversation.DOMAIN, "homeassistant"})
# Doors that serve a client outside Home Assistant: HA's MCP server (the LLM context's platform
# of its tool calls). The model behind the client is unknown, so it counts as cloud.
CLIENT_DOMAINS = frozenset({"mcp_server"})


async def async_is_cloud_domain(hass: HomeAssistant, domain: str | None) -> bool:
    """True when integration `domain` reaches a cloud service (manifest iot_class cloud_*).

    Unknown integrations, custom ones that declare no iot_class, and an MCP client
    (CLIENT_DOMAINS) count as cloud: when in doubt a secret stays home.
    """
    if not domain or domain in CLIENT_DOMAINS:
        return True
    if domain in LOCAL_DOMAINS:
        return False
    try:
        integration = await async_get_integration(hass, domain)
    except IntegrationNotFound:
        return True
    iot_class = integration.iot_class
    if iot_class is None:
        return not integration.is_built_in
    return iot_class.startswith("cloud")


def agent_domain(hass: HomeAssistant, agent_id: str) -> str | None:
    """The integration behind a conversation agent id (an entity id or a config entry id)."""
    if agent_id == conversation.HOME_ASSISTANT_AGENT:
        return conversation.DOMAIN
    if (entity := er.async_get(hass).async_get(agent_id)) is not None:
        return entity.platform
    if (entry := hass.config_entries.async_get_entry(agent_id)) is not None:
        return entry.domain
    return None
