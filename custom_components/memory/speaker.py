"""Who is speaking, and in which room: HA concepts → the engine's Speaker (docs/design.md §5).

Person ids: the engine's owner_id/person_id is the person's ENTITY id (e.g. "person.julian")
everywhere — readable in services and diagnostics, and the same id the person registry removes.

Speaker sources, strongest first (`resolve_identity`, the one place that decides who speaks):
1. a voice match for this utterance: who the STT step of this pipeline run heard
   (recognition.heard_for: only for a turn whose text is that utterance's transcript), our own
   recogniser's match or the speaker the trusted speech-to-text engine named, put together by
   recognition.decide (Heard.who); an engine's name is mapped to a person by `person_for_named`;
2. the HA user of an authenticated context (`context.user_id` → the person with that `user_id`);
3. the options' device → person mapping for personal devices (CONF_DEVICE_PERSONS), only for a
   request no user signed (a satellite's or a device's own pipeline): the device id of a signed
   request is a field its sender fills in, so a user with no person naming Julian's phone stays
   unknown;
4. otherwise unknown (person_id None).
A recognised voice beats everything (someone else talking into Julian's phone is not Julian). A
voice that matched nobody is no evidence against the other sources: the logged-in user and a
personal device still apply (a personal phone is its owner's; a satellite carries neither).
Speaker.source says which source it was; prompts name it ("Julian, recognised by voice").
Destructive requests need a confirmed identity (Identity.confirmed): a voice only above the
strict threshold (voice.STRICT; an engine's identity only when our own recogniser heard the same
person that strictly), a signed-in user or a personal device always.
The area is the device's area, else the satellite entity's area (its own, else its device's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.components.person import ATTR_USER_ID
from homeassistant.components.person.const import DOMAIN as PERSON_DOMAIN
from homeassistant.core import Context, HomeAssistant, callback
from homeassistant.helpers import area_registry as ar
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.util import slugify

from .const import CONF_DEVICE_PERSONS, CONF_STT_SPEAKERS
from .engine.models import Memory, Speaker, SpeakerSource
from .engine.text import names_in, names_key
from .recognition import Heard


@callback
def is_person(hass: HomeAssistant, entity_id: str | None) -> bool:
    """True when entity_id is an existing person entity."""
    return (
        entity_id is not None
        and entity_id.startswith(f"{PERSON_DOMAIN}.")
        and hass.states.get(entity_id) is not None
    )


@callback
def person_for_user(hass: HomeAssistant, user_id: str | None) -> str | None:
    """The person entity id linked to an HA user, or None."""
    if user_id is None:
        return None
    for state in hass.states.async_all(PERSON_DOMAIN):
        if state.attributes.get(ATTR_USER_ID) == user_id:
            return state.entity_id
    return None


@callback
def persons_named(hass: HomeAssistant, text: str) -> dict[str, str]:
    """The persons `text` names, name as matched -> person entity id: a person's full name when
    no other person has the same, or its first word when that is nobody's full name and no other
    person's first word ("What does Julian play?" -> {"Julian": "person.julian"}); whole words up
    to case and diacritics, a genitive "s" (text.names_in). Recall ranks what concerns them
    first (RecallOptions.named_persons)."""
    full: dict[str, list[tuple[str, str]]] = {}  # names_in's form of a name -> (as written, person)
    first: dict[str, list[tuple[str, str]]] = {}
    for entity_id, name in person_names(hass).items():
        words = name.split()
        if words:
            full.setdefault(" ".join(names_key(name)), []).append((name, entity_id))
            first.setdefault(" ".join(names_key(words[0])), []).append((words[0], entity_id))
    unique = {said[0][0]: said[0][1] for key, said in full.items() if key and len(said) == 1}
    unique |= {
        said[0][0]: said[0][1] for key, said in first.items() if key and len(said) == 1 and key not in full
    }
    return names_in(text, unique)


@callback
def areas_named(hass: HomeAssistant, text: str) -> tuple[str, ...]:
    """The ids of the areas `text` names by their name or one of their aliases in the area
    registry ("What do you know about the kitchen window?" -> ("kitchen",)): whole words in any
    case, diacritics aside, a genitive "s" (text.names_in); a compound ("Küchenfenster") does not
    name the area. Recall may then show those areas' room memories (RecallOptions.named_areas)."""
    areas: dict[str, list[str]] = {}  # a name or alias as written -> the areas called so
    for area in ar.async_get(hass).async_list_areas():
        for name in (area.name, *area.aliases):
            areas.setdefault(name, []).append(area.id)
    said = names_in(text, {name: name for name in areas}, any_case=True)
    return tuple(dict.fromkeys(area_id for name in said for area_id in areas[name]))


@callback
def person_names(hass: HomeAssistant) -> dict[str, str]:
    """Person entity id -> the person's name, for every person."""
    return {state.entity_id: state.name for state in hass.states.async_all(PERSON_DOMAIN)}


@callback
def tellers(hass: HomeAssistant, speaker: Speaker) -> dict[str, str]:
    """Person entity id -> how a prompt names them as the teller of a memory: their name, and
    "you" for the speaker (a memory's "I" is whoever said it)."""
    names = person_names(hass)
    if speaker.person_id in names:
        names[speaker.person_id] = "you"
    return names


@callback
def other_tellers(hass: HomeAssistant, speaker: Speaker, memories: list[Memory]) -> list[str | None]:
    """For speech: per memory the name of the recognised person who told it when that is not
    the speaker ("Julian told me: …"), else None."""
    names = person_names(hass)
    return [
        names.get(m.speaker_id) if m.speaker_id and m.speaker_id != speaker.person_id else None
        for m in memories
    ]


@callback
def person_for_device(hass: HomeAssistant, device_id: str | None, options: Mapping[str, Any]) -> str | None:
    """The person a personal device is mapped to in the options, if that person still exists."""
    if device_id is None:
        return None
    for pair in options.get(CONF_DEVICE_PERSONS) or []:
        if pair.get("device_id") == device_id and is_person(hass, pair.get("person")):
            return str(pair["person"])
    return None


@callback
def person_for_named(hass: HomeAssistant, name: str, options: Mapping[str, Any]) -> str | None:
    """The person a speech-to-text engine's speaker name or id stands for: the voice options'
    mapping (CONF_STT_SPEAKERS, names compared case-insensitively) first; else, by default, the
    person whose entity id it is ("person.julian"), or the only person whose entity id, full
    name or first name it is up to case and punctuation (slugified: "julian", "Julian",
    "anna_lena" for Anna-Lena). None: no person, or more than one."""
    said = name.strip()
    for pair in options.get(CONF_STT_SPEAKERS) or []:
        if str(pair.get("name", "")).strip().casefold() == said.casefold():
            return str(pair["person"]) if is_person(hass, pair.get("person")) else None
    if is_person(hass, said):
        return said
    slug = slugify(said)
    if not slug:
        return None
    for key in ("object_id", "name", "first_name"):
        found = {
            entity_id
            for entity_id, person_name in person_names(hass).items()
            if slug == _slug_of(entity_id, person_name, key)
        }
        if found:
            return found.pop() if len(found) == 1 else None
    return None


def _slug_of(entity_id: str, name: str, key: str) -> str:
    """A person's entity object id, or the slug of their full or first name (person_for_named)."""
    if key == "object_id":
        return entity_id.split(".", 1)[1]
    words = name.split()
    return slugify(name if key == "name" else words[0] if words else "")


@callback
def area_of(hass: HomeAssistant, *, device_id: str | None, satellite_id: str | None) -> str | None:
    """The area of the device, else of the satellite entity (its own, else its device's)."""
    devices = dr.async_get(hass)
    if device_id and (device := devices.async_get(device_id)) and device.area_id:
        return device.area_id
    if satellite_id and (entry := er.async_get(hass).async_get(satellite_id)):
        if entry.area_id:
            return entry.area_id
        if entry.device_id and (device := devices.async_get(entry.device_id)):
            return device.area_id
    return None


def acting_as(
    hass: HomeAssistant, context: Context | None, person_id: str | None, area_id: str | None
) -> Speaker:
    """Who a service call or the panel acts as: `person_id` when the door named one (it checked
    the caller may act for them), else the person of the context's user (None: unknown — an
    automation, a guest); in `area_id` (None: no room)."""
    return Speaker(
        person_id=person_id or person_for_user(hass, context.user_id if context else None), area_id=area_id
    )


@dataclass(frozen=True, slots=True)
class Identity:
    """Who speaks, and how surely: `speaker` (Speaker.source: how they were recognised) and
    `confirmed`: sure enough for a destructive request ("forget everything about me") — a voice
    match above the strict threshold, a signed-in user or a personal device; never unknown."""

    speaker: Speaker
    confirmed: bool


@callback
def resolve_identity(
    hass: HomeAssistant,
    *,
    context: Context | None,
    device_id: str | None,
    satellite_id: str | None,
    options: Mapping[str, Any],
    heard: Heard | None = None,
    device_names_person: bool = True,
) -> Identity:
    """Who speaks and in which room (module docstring: the order of sources). `heard`: the
    utterance this pipeline run heard for the turn's text (recognition.heard_for); None: no voice
    source. `device_names_person` False: the device gives the room only, never a person (an MCP
    client names it in a field it fills in itself)."""
    area_id = area_of(hass, device_id=device_id, satellite_id=satellite_id)
    who = heard.who if heard is not None else None
    if who is not None and is_person(hass, person_id := who.person_id):
        return Identity(Speaker(person_id, area_id, source=SpeakerSource.VOICE), who.strict)
    if person_id := person_for_user(hass, context.user_id if context else None):
        return Identity(Speaker(person_id, area_id, source=SpeakerSource.USER), confirmed=True)
    signed = context is not None and context.user_id is not None
    if not signed and device_names_person and (person_id := person_for_device(hass, device_id, options)):
        return Identity(Speaker(person_id, area_id, source=SpeakerSource.DEVICE), confirmed=True)
    return Identity(Speaker(None, area_id), confirmed=False)
