"""The audience of a request, built once at the door it arrives at (engine/audience.py rules).

Every door names who will read what the engine returns before it calls the engine: a person
(`for_person`: a no-LLM answer, a service response), the model answering them (`async_for_model`:
local or cloud, by the model's integration, cloud.py), a model working for the household with
nobody listening (`async_for_task`: the judge, extraction) or the panel's administrator
(`ADMIN`). The household's options come from the config entry here and nowhere else.
"""

from __future__ import annotations

from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er

from .cloud import async_is_cloud_domain
from .const import (
    CONF_CLOUD_PERSONAL,
    CONF_SENSITIVE_TO_UNKNOWN,
    DEFAULT_CLOUD_PERSONAL,
    DEFAULT_SENSITIVE_TO_UNKNOWN,
)
from .engine.audience import Audience, Reader
from .engine.models import Speaker
from .runtime import MemoryRuntimeData

ADMIN = Audience.administrator()
# An administrator's service run with no user (an automation): it sees every scope, is told no
# private memory and a sensitive one only as an unknown speaker would be (engine/audience.py).
UNATTENDED_ADMIN = Audience(Speaker.administrator(), Reader.AUTOMATION)


def for_person(
    data: MemoryRuntimeData, speaker: Speaker, reader: Reader = Reader.PERSON, *, cloud: bool = False
) -> Audience:
    """`speaker` reading the answer (or `reader` reading it for them), with the household's
    options (CONF_SENSITIVE_TO_UNKNOWN, CONF_CLOUD_PERSONAL)."""
    options = data.options
    return Audience(
        speaker,
        reader,
        cloud=cloud,
        sensitive_to_unknown=bool(options.get(CONF_SENSITIVE_TO_UNKNOWN, DEFAULT_SENSITIVE_TO_UNKNOWN)),
        personal_to_cloud=bool(options.get(CONF_CLOUD_PERSONAL, DEFAULT_CLOUD_PERSONAL)),
    )


async def async_for_model(
    hass: HomeAssistant, data: MemoryRuntimeData, speaker: Speaker, platform: str | None
) -> Audience:
    """The model of integration `platform` answering `speaker`: Reader.CLOUD_MODEL when it is a
    cloud service or unknown (an MCP client; cloud.async_is_cloud_domain), else LOCAL_MODEL."""
    cloud = await async_is_cloud_domain(hass, platform)
    return for_person(data, speaker, Reader.CLOUD_MODEL if cloud else Reader.LOCAL_MODEL, cloud=cloud)


async def async_for_task(hass: HomeAssistant, data: MemoryRuntimeData, entity_id: str) -> Audience:
    """The model behind AI Task entity `entity_id` working for the household (the judge,
    extraction): it sees every memory's scope (the administrator's visibility) and is told what
    Reader.TASK may be; cloud by its integration (an entity not registered counts as cloud)."""
    entity = er.async_get(hass).async_get(entity_id)
    cloud = await async_is_cloud_domain(hass, entity.platform if entity else None)
    return for_person(data, Speaker.administrator(), Reader.TASK, cloud=cloud)
