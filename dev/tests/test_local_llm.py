"""The development LLM behind HA's real ai_task and conversation components, with the real model.

Extraction uses exactly what the memory integration sends (extraction_job.instructions and
EXTRACTION_STRUCTURE) and reads the answer with the engine's parse_candidates, so a pass means
learning works end to end with this model. Wording varies with the model: the tests assert
structure and keywords. Times are printed (run with -s; scripts/test-llm does) in real seconds
(os.times: the clock is pinned by conftest `_pinned_clock`, which also freezes time.perf_counter).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from custom_components.memory_local_llm.const import DOMAIN as LLM_DOMAIN
from homeassistant.components import ai_task, conversation
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import Context, HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import llm
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.memory.engine.extraction import MIN_CONFIDENCE, parse_candidates
from custom_components.memory.engine.models import Kind
from custom_components.memory.extraction_job import EXTRACTION_STRUCTURE, TASK_NAME, instructions

# C01's spare key, said in each language; every keyword group must appear in one memory.
SPARE_KEY = {
    "en": ("The spare key for the cellar is in the blue tin in the hall.", [("key",), ("tin",), ("blue",)]),
    "de": (
        "Der Ersatzschlüssel für den Keller ist in der blauen Dose im Flur.",
        [("schlüssel",), ("dose",), ("blau",)],
    ),
    "it": (
        "La chiave di riserva della cantina è nella scatola blu nell'ingresso.",
        [("chiave",), ("scatola",), ("blu",)],
    ),
}


def _entity_id(hass: HomeAssistant, domain: str, entry: MockConfigEntry, key: str) -> str:
    entity_id = er.async_get(hass).async_get_entity_id(domain, LLM_DOMAIN, f"{entry.entry_id}_{key}")
    assert entity_id is not None
    return entity_id


@pytest.mark.parametrize("language", sorted(SPARE_KEY))
async def test_extracts_spare_key(hass: HomeAssistant, llm_entry: Any, language: str) -> None:
    """The AI Task answers the memory integration's extraction task with a readable memory."""
    said, keywords = SPARE_KEY[language]
    started = os.times().elapsed
    answer = await ai_task.async_generate_data(
        hass,
        task_name=TASK_NAME,
        entity_id=_entity_id(hass, ai_task.DOMAIN, llm_entry, "ai_task"),
        instructions=instructions(said, language),
        structure=EXTRACTION_STRUCTURE,
    )
    print(f"\nextraction [{language}] {os.times().elapsed - started:.1f} s: {answer.data}")

    assert isinstance(answer.data, dict)  # parsed JSON, not text
    parsed = parse_candidates(answer.data)
    assert not parsed.failed, parsed.problems
    assert 1 <= len(parsed.candidates) <= 5
    assert all(c.kind is not Kind.EPISODE and 0 <= c.confidence <= 1 for c in parsed.candidates)
    matching = [
        c
        for c in parsed.candidates
        if c.confidence >= MIN_CONFIDENCE
        and all(any(word in c.content.lower() for word in group) for group in keywords)
    ]
    assert matching, parsed.candidates


async def test_conversation_agent_answers(hass: HomeAssistant, llm_entry: Any) -> None:
    """The conversation entity replies through HA's conversation component."""
    assert await async_setup_component(hass, conversation.DOMAIN, {})
    speech = await _ask(hass, llm_entry, "What is the capital of France? Answer with one word.")
    assert "paris" in speech.lower()


async def _ask(hass: HomeAssistant, llm_entry: Any, question: str) -> str:
    """`question` to the entry's conversation agent in a new conversation; its spoken answer
    (printed with how long it took)."""
    started = os.times().elapsed
    result = await conversation.async_converse(
        hass,
        question,
        None,
        Context(),
        language="en",
        agent_id=_entity_id(hass, conversation.DOMAIN, llm_entry, "conversation"),
    )
    speech: str = result.response.speech["plain"]["speech"]
    print(f"\n{question!r} {os.times().elapsed - started:.1f} s: {speech!r}")
    return speech


class _WordAPI(llm.API):
    """An LLM API whose prompt holds a fact the model cannot know otherwise."""

    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        return llm.APIInstance(
            api=self, api_prompt="The household's secret word is plum.", llm_context=llm_context, tools=[]
        )


async def test_options_tick_llm_apis_for_the_conversation_agent(hass: HomeAssistant, llm_entry: Any) -> None:
    """The options flow offers every registered LLM API (as HA's LLM integrations do) and keeps
    the ticked ones; the agent passes them to the chat log, so their prompt reaches the model."""
    assert await async_setup_component(hass, conversation.DOMAIN, {})
    llm.async_register_api(hass, _WordAPI(hass=hass, id="word", name="Word"))
    flow = await hass.config_entries.options.async_init(llm_entry.entry_id)
    assert flow["type"] is FlowResultType.FORM
    offered = flow["data_schema"].schema[CONF_LLM_HASS_API].config["options"]
    assert {"label": "Word", "value": "word"} in offered
    done = await hass.config_entries.options.async_configure(flow["flow_id"], {CONF_LLM_HASS_API: ["word"]})
    assert done["type"] is FlowResultType.CREATE_ENTRY
    assert llm_entry.options == {CONF_LLM_HASS_API: ["word"]}

    speech = await _ask(hass, llm_entry, "What is the household's secret word? Answer with one word.")
    assert "plum" in speech.lower()


async def test_missing_model_fails_setup_clearly(hass: HomeAssistant, tmp_path: Any) -> None:
    """A missing model file is a setup error naming the script that assembles it."""
    assert await async_setup_component(hass, "homeassistant", {})
    entry = MockConfigEntry(domain=LLM_DOMAIN, data={"model_path": str(tmp_path / "none.gguf"), "threads": 1})
    entry.add_to_hass(hass)
    assert not await hass.config_entries.async_setup(entry.entry_id)
    assert entry.state is ConfigEntryState.SETUP_ERROR
    assert "local_llm_model.py" in (entry.reason or "")
