"""Added latency of one Assist turn through the memory agent (pytest-driven: HA's test harness).

Run by recall_latency.py as
  BENCH_TURN_WORK=work.json BENCH_TURN_OUT=out.json python -m pytest -p no:sugar bench/ha_turn.py
work.json: {"db": path of a store copy, "sentences": [[text, language], ...], "repeats": int}

A real Home Assistant (pytest-homeassistant-custom-component's `hass`) with person, conversation,
intent and assist_pipeline; Julian (a person with a user) speaks at a satellite in the Kitchen;
the memory integration is set up through its config flow on the prebuilt store. Each sentence
goes once through the memory agent and once straight to HA's default agent, interleaved (the
order alternates every repetition); one untimed warm-up round first.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from homeassistant.components import conversation  # noqa: E402
from homeassistant.helpers import entity_registry as er  # noqa: E402

import custom_components  # noqa: E402, F401 - pin the repo's package before HA's testing config can shadow it
from tests.conftest import TEST_DB, _resident, _room, async_set_up_household, setup_memory  # noqa: E402

MEMORY_AGENT = "conversation.household_memory_memory_assistant"


def _timed(store: dict[str, list[int]], name: str, func: Any) -> Any:
    """func wrapped to add its duration (ns) to store[name]; async functions stay async."""
    import inspect  # noqa: PLC0415

    if inspect.iscoroutinefunction(func):

        async def wrapper_async(*args: Any, **kwargs: Any) -> Any:
            s = time.perf_counter_ns()
            try:
                return await func(*args, **kwargs)
            finally:
                store.setdefault(name, []).append(time.perf_counter_ns() - s)

        return wrapper_async

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        s = time.perf_counter_ns()
        try:
            return func(*args, **kwargs)
        finally:
            store.setdefault(name, []).append(time.perf_counter_ns() - s)

    return wrapper


async def test_turn_latency(
    hass: Any, tmp_path: Path, enable_custom_integrations: Any, monkeypatch: Any
) -> None:
    work = json.loads(Path(os.environ["BENCH_TURN_WORK"]).read_text())  # noqa: ASYNC240 - bench set-up
    await async_set_up_household(hass, tmp_path)
    julian = await _resident(hass, "Julian")
    kitchen = await _room(hass, "Kitchen")
    shutil.copyfile(work["db"], tmp_path / TEST_DB)

    started = time.perf_counter()
    entry = await setup_memory(hass)
    setup_s = time.perf_counter() - started
    rows = (await hass.async_add_executor_job(entry.runtime_data.engine.stats)).memories

    agent = er.async_get(hass).async_get_entity_id("conversation", "memory", entry.entry_id)
    assert agent == MEMORY_AGENT, agent

    async def turn(agent_id: str, text: str, language: str) -> tuple[int, str]:
        s = time.perf_counter_ns()
        result = await conversation.async_converse(
            hass, text, None, julian.context, language, agent_id=agent_id, device_id=kitchen.device_id
        )
        elapsed = time.perf_counter_ns() - s
        return elapsed, str(result.response.response_type.value)

    memory_ns: list[int] = []
    default_ns: list[int] = []
    outcomes: dict[str, dict[str, int]] = {"memory": {}, "default": {}}
    for rep in range(work["repeats"] + 1):
        for i, (text, language) in enumerate(work["sentences"]):
            order = [
                (MEMORY_AGENT, memory_ns, "memory"),
                (conversation.HOME_ASSISTANT_AGENT, default_ns, "default"),
            ]
            if (rep + i) % 2:
                order.reverse()
            for agent_id, samples, name in order:
                elapsed, kind = await turn(agent_id, text, language)
                if rep:
                    samples.append(elapsed)
                    outcomes[name][kind] = outcomes[name].get(kind, 0) + 1

    # second pass: the same turns through the memory agent with timing wrappers around its steps
    from custom_components.memory import conversation as agent_mod  # noqa: PLC0415

    engine = entry.runtime_data.engine
    steps: dict[str, list[int]] = {}
    for attr, name in (
        ("async_get_sentences", "memory sentences loaded (cached)"),
        ("match_sentence", "memory sentence matching (hassil)"),
        ("start_turn", "speaker resolution"),
        ("async_recall_once", "recall incl. executor hop"),
        ("async_strict_intent", "HA's exact intent match (without an LLM, before recall)"),
        ("turn_block", "memory block formatting"),
    ):
        monkeypatch.setattr(agent_mod, attr, _timed(steps, name, getattr(agent_mod, attr)))
    monkeypatch.setattr(engine, "recall", _timed(steps, "  engine.recall (in the executor)", engine.recall))
    monkeypatch.setattr(engine.embedder, "embed", _timed(steps, "    query embedding", engine.embedder.embed))
    for _ in range(max(1, work["repeats"] // 2)):
        for text, language in work["sentences"]:
            await turn(MEMORY_AGENT, text, language)
    parts = {k: round(sorted(v)[len(v) // 2] / 1e6, 2) for k, v in steps.items()}

    Path(os.environ["BENCH_TURN_OUT"]).write_text(  # noqa: ASYNC240 - after the timed part
        json.dumps(
            {
                "rows": rows,
                "parts": parts,
                "setup_s": round(setup_s, 2),
                "memory_ns": memory_ns,
                "default_ns": default_ns,
                "outcomes": outcomes,
                "sentences": len(work["sentences"]),
                "repeats": work["repeats"],
            }
        )
    )
