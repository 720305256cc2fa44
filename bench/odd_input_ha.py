"""The Home Assistant steps of bench/odd_input.py (pytest-driven: HA's test harness).

Run by odd_input.py as
  BENCH_ODD_WORK=work.json BENCH_ODD_OUT=out.json python -m pytest -p no:sugar bench/odd_input_ha.py
work.json: {"utterances": [{"shape", "said_as", "text"}, ...], "repeats": int, "fuzzy_unsafe": [shape, ...],
"area_word": str, "area_repeats": [int, ...], "recursion_probe": [text, ...]}

A real Home Assistant (pytest-homeassistant-custom-component's `hass`) with person, conversation,
intent and assist_pipeline; Julian (a person with a user) speaks at a satellite in the Kitchen, where
a light "Kitchen light" is on; the memory integration is set up through its config flow (empty
store, bundled encoder). Timed, each `repeats` times after one untimed run, HA's intent cache
cleared before every call (the same text again would be answered from it):
- HA's default agent `async_recognize_intent(…, strict_intents_only=True / False)` for the plain
  utterances (the only ones the memory agent hands over);
- one turn through the memory agent (`conversation.async_converse`) for every utterance;
  the plain utterances of a `fuzzy_unsafe` shape get the strict recognition only (HA's fuzzy
  matcher would not finish: see odd_input.HA_FUZZY_UNSAFE);
- non-strict recognition of `area_word` said k times (k in `area_repeats`), once each;
- HA's fuzzy matcher (the default agent's `_recognize_fuzzy`, in the executor like HA runs it) on
  each `recursion_probe` text, once each: where it raises, the innermost frame.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from homeassistant.components import conversation  # noqa: E402
from homeassistant.helpers import entity_registry as er  # noqa: E402

import custom_components  # noqa: E402, F401 - pin the repo's package before HA's testing config can shadow it
from tests.conftest import _resident, _room, async_set_up_household, setup_memory  # noqa: E402


def _where(err: BaseException) -> str:
    """file:line function of the innermost frame of err's traceback."""
    frame = traceback.extract_tb(err.__traceback__)[-1]
    return f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno} {frame.name}"


async def _timed(
    call: Callable[[], Awaitable[Any]], repeats: int, clear: Callable[[], None]
) -> dict[str, Any]:
    """p50/max ms of `repeats` calls after one untimed call (repeats 0: the one call, timed); the
    exception's name, innermost frame and time to raise if one raised."""
    samples = []
    for run in range(repeats + 1 if repeats else 1):
        clear()
        start = time.perf_counter()
        try:
            await call()
        except Exception as err:  # a benchmark records what broke
            ms = round((time.perf_counter() - start) * 1000, 2)
            return {"error": type(err).__name__, "where": _where(err), "ms": ms}
        if run or not repeats:
            samples.append((time.perf_counter() - start) * 1000)
    return {"p50": round(statistics.median(samples), 2), "max": round(max(samples), 2)}


async def test_odd_input(hass: Any, tmp_path: Path, enable_custom_integrations: Any) -> None:
    work = json.loads(Path(os.environ["BENCH_ODD_WORK"]).read_text(encoding="utf-8"))  # noqa: ASYNC240
    repeats = work["repeats"]
    await async_set_up_household(hass, tmp_path)
    julian = await _resident(hass, "Julian")
    kitchen = await _room(hass, "Kitchen")
    hass.states.async_set("light.kitchen_light", "on", {"friendly_name": "Kitchen light"})
    await hass.async_block_till_done()
    entry = await setup_memory(hass)
    agent = conversation.async_get_agent(hass, conversation.HOME_ASSISTANT_AGENT)
    assert agent is not None
    memory_agent = er.async_get(hass).async_get_entity_id("conversation", "memory", entry.entry_id)
    assert memory_agent is not None

    def clear() -> None:  # HA answers a text it has seen from its intent cache (private, no API)
        cache = getattr(agent, "_intent_cache", None)
        if cache is not None:
            cache.clear()

    def said(text: str) -> conversation.ConversationInput:
        return conversation.ConversationInput(
            text=text, context=julian.context, conversation_id=None, device_id=kitchen.device_id,
            satellite_id=None, language="en", agent_id=None,
        )  # fmt: skip

    async def turn(text: str) -> None:
        await conversation.async_converse(
            hass, text, None, julian.context, "en", agent_id=memory_agent, device_id=kitchen.device_id
        )

    rows = []
    for item in work["utterances"]:
        text = item["text"]
        steps: dict[str, Any] = {}
        unsafe = item["said_as"] == "plain" and item["shape"] in work["fuzzy_unsafe"]
        if item["said_as"] == "plain":
            steps["HA strict"] = await _timed(
                lambda text=text: agent.async_recognize_intent(said(text), strict_intents_only=True),
                repeats,
                clear,
            )
        if unsafe:
            steps["HA non-strict"] = steps["memory agent turn"] = {"skipped": "fuzzy matcher: 2^k readings"}
        else:
            if item["said_as"] == "plain":
                steps["HA non-strict"] = await _timed(
                    lambda text=text: agent.async_recognize_intent(said(text)), repeats, clear
                )
            steps["memory agent turn"] = await _timed(lambda text=text: turn(text), repeats, clear)
        rows.append({**{k: v for k, v in item.items() if k != "text"}, "chars": len(text), "steps": steps})
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)

    area = []
    for k in work["area_repeats"]:
        text = " ".join([work["area_word"]] * k)
        result = await _timed(lambda text=text: agent.async_recognize_intent(said(text)), 0, clear)
        area.append({"k": k, "chars": len(text), **result})
        print(json.dumps(area[-1]), flush=True)

    lang_intents = await agent.async_get_or_load_intents("en")
    probe = []
    for text in work["recursion_probe"]:
        result = await _timed(
            lambda text=text: hass.async_add_executor_job(agent._recognize_fuzzy, lang_intents, said(text)),
            0,
            clear,
        )
        probe.append({"chars": len(text), "words": len(text.split()), **result})
        print(json.dumps(probe[-1]), flush=True)

    out = {"rows": rows, "area": area, "recursion_probe": probe}
    Path(os.environ["BENCH_ODD_OUT"]).write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")  # noqa: ASYNC240
