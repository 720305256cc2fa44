"""Case C27 on the Home Assistant side: what is said after a memory sentence's words — leading
punctuation, quotes, line breaks and spacing included — is stored exactly as said, through the
memory agent and through memory.remember, and read back verbatim ("What do you know about …",
memory.recall). Only the LLM prompt puts a memory on one line (llm_api._quote), never the store.
Timings of odd input: bench/odd_input.py (no wall-clock asserts here)."""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from typing import Any

import pytest
from hassil import Intents
from homeassistant.core import HomeAssistant

from custom_components.memory.answers import reply
from custom_components.memory.engine.api import MAX_CONTENT_CHARS
from custom_components.memory.engine.models import Speaker
from custom_components.memory.intents import (
    INTENT_FORGET,
    INTENT_REMEMBER,
    INTENT_WHAT_DO_YOU_KNOW,
    _load_sentences,
    match_sentence,
)
from custom_components.memory.llm_api import format_memory_block
from tests.conftest import Resident, Room, async_call

from .helpers_conversation import async_all_memories, async_say, speech

DROP = "'); DROP TABLE memories;--"

# (language, what is said, what is stored)
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # man ZWJ woman ZWJ girl ZWJ boy
WAVE = "\U0001f44b\U0001f3fd"  # waving hand, medium skin tone
# black flag + tags "gbsct" + CANCEL TAG: the flag of Scotland
FLAG_SCOTLAND = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbsct") + "\U000e007f"
C27_REMEMBERED = [
    ("en", f"Remember: {DROP}", DROP),
    ("en", f"Remember {DROP}", DROP),
    ("en", "Remember that the wifi password is\nfoo bar", "the wifi password is\nfoo bar"),
    ("en", "Please remember:\n- eggs\n- milk  (2 litres)\n", "- eggs\n- milk  (2 litres)"),
    ("en", "Remember, my PIN hint: 'the year we met'!", "my PIN hint: 'the year we met'!"),
    ("de", f"Merk dir: {DROP}", DROP),
    ("de", "Merk dir, dass das WLAN-Passwort\nfoo bar ist.", "das WLAN-Passwort\nfoo bar ist."),
    ("de", "Bitte merk dir:\n- Eier\n- Milch  (2 Liter)\n", "- Eier\n- Milch  (2 Liter)"),
    ("fr", f"Retiens : {DROP}", DROP),
    ("it", f"Ricorda: {DROP}", DROP),
    ("es", f"Recuerda: {DROP}", DROP),
    # emoji sequences stay whole: joined with ZWJ, with a skin tone, a flag's tag sequence at the end
    ("en", f"Remember that our family emoji is {FAMILY}", f"our family emoji is {FAMILY}"),
    ("de", f"Merk dir, dass Oma {FLAG_SCOTLAND} mag", f"Oma {FLAG_SCOTLAND} mag"),
    ("en", f"Remember: {WAVE} means hello {FLAG_SCOTLAND}", f"{WAVE} means hello {FLAG_SCOTLAND}"),
]  # fmt: skip


@cache
def _sentences(language: str) -> Intents:
    intents = _load_sentences(language)
    assert intents is not None
    return intents


@pytest.mark.parametrize(("language", "said", "content"), C27_REMEMBERED)
def test_c27_remember_sentence_content_is_verbatim(language: str, said: str, content: str) -> None:
    match = match_sentence(_sentences(language), said)
    assert match is not None
    assert (match.intent_type, match.slots) == (INTENT_REMEMBER, {"content": content})


@pytest.mark.parametrize(
    ("language", "said", "intent_type", "slots"),
    [
        ("en", f"What do you know about {DROP}", INTENT_WHAT_DO_YOU_KNOW, {"query": DROP}),
        ("en", "Forget the wifi password\nplease", INTENT_FORGET, {"query": "the wifi password\nplease"}),
        ("de", "Was hast du dir über „Bruno“ gemerkt?", INTENT_WHAT_DO_YOU_KNOW, {"query": "„Bruno“"}),
        ("de", "Was weißt du über das WLAN-Passwort?", INTENT_WHAT_DO_YOU_KNOW,
         {"query": "das WLAN-Passwort?"}),
        ("es", "¿Qué sabes de «la llave»?", INTENT_WHAT_DO_YOU_KNOW, {"query": "«la llave»?"}),
        # a spoken separator goes, a sign that belongs to the content stays
        ("en", "Please remember that -5 °C is the freezer setting.", INTENT_REMEMBER,
         {"content": "-5 °C is the freezer setting."}),
        ("en", "Remember - the gate sticks.", INTENT_REMEMBER, {"content": "the gate sticks."}),
        ("fr", "Souviens-toi que j\u2019ai rendez-vous lundi.", INTENT_REMEMBER,
         {"content": "j\u2019ai rendez-vous lundi."}),
        # only invisible characters at the very ends are trimmed
        ("en", "Remember \u200bthe code is 4711\u200b ", INTENT_REMEMBER, {"content": "the code is 4711"}),
        # text typed decomposed (NFD) is found again and kept as typed
        ("en", unicodedata.normalize("NFD", "Remember: Zoë's key is blue."), INTENT_REMEMBER,
         {"content": unicodedata.normalize("NFD", "Zoë's key is blue.")}),
    ],
)  # fmt: skip
def test_c27_sentence_slots_are_verbatim(
    language: str, said: str, intent_type: str, slots: dict[str, str]
) -> None:
    match = match_sentence(_sentences(language), said)
    assert match is not None
    assert (match.intent_type, match.slots) == (intent_type, slots)


@pytest.mark.parametrize(
    "unit", ["a", "a ", "HX-4471 ", "4711 ", "記憶", "the kitchen light code "], ids=repr
)  # fmt: skip
def test_c27_remember_sentence_at_the_cap(unit: str) -> None:
    """A remember sentence of MAX_CONTENT_CHARS characters of the worst shapes: the content is all
    the text after the sentence's words (a match at all is the bound: pytest-timeout)."""
    said = "Remember: " + (unit * MAX_CONTENT_CHARS)[: MAX_CONTENT_CHARS - len("Remember: ")]
    match = match_sentence(_sentences("en"), said)
    assert match is not None
    assert match.slots == {"content": said.removeprefix("Remember: ").strip()}


@pytest.mark.parametrize(("language", "said", "content"), C27_REMEMBERED)
async def test_c27_remembered_by_voice_verbatim(
    hass: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    kitchen: Room,
    *,
    language: str,
    said: str,
    content: str,
) -> None:
    result = await async_say(hass, memory_entry, said, language=language, who=julian, room=kitchen)
    assert speech(result) in {reply(language, "remembered_shared"), reply(language, "remembered_private")}
    assert [m.content for m in await async_all_memories(hass, memory_entry)] == [content]


@pytest.mark.parametrize(
    ("language", "said", "content", "question"),
    [
        ("en", f"Remember: {DROP}", DROP, "What do you know about DROP TABLE memories?"),
        ("en", "Remember that the shopping list is:\neggs\nmilk  (2 litres)",
         "the shopping list is:\neggs\nmilk  (2 litres)", "What do you know about the shopping list?"),
        ("de", f"Merk dir: {DROP}", DROP, "Was weißt du über DROP TABLE memories?"),
        ("de", "Merk dir, dass die Einkaufsliste so aussieht:\nEier\nMilch  (2 Liter)",
         "die Einkaufsliste so aussieht:\nEier\nMilch  (2 Liter)", "Was weißt du über die Einkaufsliste?"),
    ],
)  # fmt: skip
async def test_c27_read_back_verbatim(
    hass: HomeAssistant,
    memory_entry: Any,
    julian: Resident,
    kitchen: Room,
    *,
    language: str,
    said: str,
    content: str,
    question: str,
) -> None:
    await async_say(hass, memory_entry, said, language=language, who=julian, room=kitchen)
    asked = await async_say(hass, memory_entry, question, language=language, who=julian, room=kitchen)
    answer = speech(asked)
    assert answer == reply(language, "know_list", items=f'"{content}"')


@pytest.mark.parametrize(
    ("language", "given", "stored", "query"),
    [
        ("en", DROP, DROP, "DROP TABLE memories"),
        (
            "en",
            "\ufeff\u200bThe wifi password is\nfoo  bar\n",
            "The wifi password is\nfoo  bar",
            "wifi password",
        ),
        ("en", "Shopping list:\r\n\teggs\r\n\tmilk", "Shopping list:\r\n\teggs\r\n\tmilk", "shopping list"),
        ("de", DROP, DROP, "DROP TABLE memories"),
        ("de", "Das WLAN-Passwort ist\nfoo  bar", "Das WLAN-Passwort ist\nfoo  bar", "WLAN-Passwort"),
        ("en", f"\u200dOur family emoji: {FAMILY}\u200d", f"Our family emoji: {FAMILY}", "family emoji"),
        ("en", f"Grandma's flag is {FLAG_SCOTLAND}", f"Grandma's flag is {FLAG_SCOTLAND}", "Grandma's flag"),
    ],
)
async def test_c27_service_stores_verbatim(
    hass: HomeAssistant, memory_entry: Any, julian: Any, *, language: str, given: str, stored: str, query: str
) -> None:
    """memory.remember stores the content as given (docs/services.md: verbatim), only invisible
    characters at its ends trimmed; memory.recall returns it so; the LLM prompt quotes it on one line."""
    written = await async_call(hass, "remember", {"content": given, "language": language})
    assert written["memory"]["content"] == stored
    (memory,) = await async_all_memories(hass, memory_entry)
    assert memory.content == stored
    # recalled for a person: a password is sensitive, withheld from an unknown speaker
    recalled = await async_call(hass, "recall", {"query": query, "person": julian.person_id})
    assert [m["content"] for m in recalled["memories"]] == [stored]
    engine = memory_entry.runtime_data.engine
    hits = await hass.async_add_executor_job(engine.recall, query, Speaker(person_id=julian.person_id))
    block = format_memory_block(hits)
    assert block is not None
    (line,) = block.splitlines()[1:]
    assert line.startswith(f"- {json.dumps(' '.join(stored.split()), ensure_ascii=False)} (")
