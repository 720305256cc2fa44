"""The Home Assistant steps of bench/odd_input.py (pytest-driven: HA's test harness).

Run by odd_input.py as
  BENCH_ODD_WORK=work.json BENCH_ODD_OUT=out.json python -m pytest -p no:sugar bench/odd_input_ha.py
work.json: {"utterances": [{"shape", "said_as", "text"}, ...], "repeats": int, "area_word": str,
"area_repeats": [int, ...], "rows": bool, "invalid_repeats": int}

A real Home Assistant (pytest-homeassistant-custom-component's `hass`) with person, conversation,
intent and assist_pipeline; Julian (a person with a user) speaks at a satellite in the Kitchen, where
a light "Kitchen light" is on; the memory integration is set up through its config flow (empty
store, bundled encoder). Timed, each `repeats` times after one untimed run, HA's intent cache
cleared before every call (the same text again would be answered from it):
- HA's default agent `async_recognize_intent(…, strict_intents_only=True / False)` for the plain
  utterances (the only ones the memory agent hands over);
- one turn through the memory agent (`conversation.async_converse`) for every utterance;
- non-strict recognition of `area_word` said k times (k in `area_repeats`), once each
(all of these only when `rows`), and — when `invalid_repeats` — each hostile call of issue 26 through
the doors that many times after an untimed one (p50 / p99 / max ms and what it answered: the
translated error's key and field, HA's schema error, the tool's error, or the answer): the memory.*
services, the memory/... WebSocket commands (an administrator's client), the Memory LLM API's tools
(Julian's), a memory-agent turn.
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

import probatio  # noqa: E402
from homeassistant.components import conversation  # noqa: E402
from homeassistant.exceptions import HomeAssistantError  # noqa: E402
from homeassistant.helpers import entity_registry as er  # noqa: E402
from homeassistant.helpers import llm  # noqa: E402

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


async def test_odd_input(
    hass: Any, tmp_path: Path, enable_custom_integrations: Any, hass_ws_client: Any
) -> None:
    work = json.loads(Path(os.environ["BENCH_ODD_WORK"]).read_text(encoding="utf-8"))  # noqa: ASYNC240
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

    async def turn(text: str) -> Any:
        return await conversation.async_converse(
            hass, text, None, julian.context, "en", agent_id=memory_agent, device_id=kitchen.device_id
        )

    out: dict[str, Any] = {}
    if work["invalid_repeats"]:
        client = await hass_ws_client(hass)
        instance = await llm.async_get_api(hass, "memory", llm.LLMContext(
            platform="bench", context=julian.context, language="en", assistant="conversation", device_id=None))  # fmt: skip
        out["invalid"] = await _hostile(hass, client, instance, turn, work["invalid_repeats"])
    if work["rows"]:
        out.update(await _rows(work, agent, said, turn, clear))
    Path(os.environ["BENCH_ODD_OUT"]).write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")  # noqa: ASYNC240


async def _rows(work: dict[str, Any], agent: Any, said: Any, turn: Any, clear: Any) -> dict[str, Any]:
    """The rows' HA steps and the area probe (module docstring)."""
    repeats = work["repeats"]
    rows = []
    for item in work["utterances"]:
        text = item["text"]
        steps: dict[str, Any] = {}
        if item["said_as"] == "plain":
            steps["HA strict"] = await _timed(
                lambda text=text: agent.async_recognize_intent(said(text), strict_intents_only=True),
                repeats,
                clear,
            )
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

    return {"rows": rows, "area": area}


async def _answered(call: Callable[[], Awaitable[Any]]) -> tuple[float, str]:
    """(ms the call took, what it answered)."""
    start = time.perf_counter()
    try:
        result = await call()
    except probatio.Invalid as err:
        outcome = f"probatio.Invalid @ {'.'.join(str(p) for p in err.path)}"
    except HomeAssistantError as err:
        field = (err.translation_placeholders or {}).get("field")
        outcome = f"{type(err).__name__} {err.translation_key} ({field})"
    except Exception as err:  # a benchmark records what broke
        outcome = f"{type(err).__name__} at {_where(err)}"
    else:
        outcome = _summary(result)
    return (time.perf_counter() - start) * 1000, outcome


def _summary(result: Any) -> str:
    """What a door answered, briefly: a WebSocket error's code and key, a tool's error, what an
    import rejected, what the memory agent said, or 'ok'."""
    if isinstance(result, conversation.ConversationResult):
        return f"said {result.response.speech.get('plain', {}).get('speech', '')!r}"
    if isinstance(result, dict) and result.get("success") is False:
        error = result.get("error")
        if isinstance(error, dict):
            return (
                f"error {error.get('code')} {error.get('translation_key') or error.get('message', '')[:50]}"
            )
        return f"error {error}"
    if isinstance(result, dict) and "result" in result:
        result = result["result"]
    if isinstance(result, dict) and "rejected" in result:
        return "ok, rejected: " + ", ".join(f"{r['reason']} ({r['field']})" for r in result["rejected"])
    found = (
        next((len(v) for v in result.values() if isinstance(v, list)), None)
        if isinstance(result, dict)
        else None
    )
    return "ok" if found is None else f"ok, {found} listed"


async def _hostile(hass: Any, client: Any, instance: Any, turn: Any, repeats: int) -> list[dict[str, Any]]:
    """Issue 26's hostile calls through HA's doors, `repeats` times each after an untimed one."""
    from custom_components.memory.const import DOMAIN  # noqa: PLC0415

    megabyte, query = "x" * 1_000_000, "where is the spare key " * 52_200  # 1.2 MB

    def service(name: str, **data: Any) -> Callable[[], Awaitable[Any]]:
        supports = hass.services.supports_response(DOMAIN, name)
        return lambda: hass.services.async_call(DOMAIN, name, data, blocking=True,
                                                return_response=supports.value != "none")  # fmt: skip

    def ws(command: str, **data: Any) -> Callable[[], Awaitable[Any]]:
        async def call() -> Any:
            await client.send_json_auto_id({"type": f"memory/{command}", **data})
            return await client.receive_json()

        return call

    def tool(name: str, **args: Any) -> Callable[[], Awaitable[Any]]:
        return lambda: instance.async_call_tool(llm.ToolInput(tool_name=name, tool_args=args))

    written = await service("remember", content="The bins go out on Thursday.")()
    memory_id = written["memory"]["id"]
    cases = {
        ("service", "remember: 1.2 MB content"): service("remember", content="x" * 1_200_000),
        ("service", "remember: 1 MB language"): service("remember", content="A fact.", language=megabyte),
        ("service", "remember: 1 MB id in replaces"): service("remember", content="A fact.", replaces=[megabyte]),
        ("service", "remember: 1 MB person"): service("remember", content="A fact.", person=megabyte),
        ("service", "recall: 1.2 MB query"): service("recall", query=query),
        ("service", "recall: limit infinity"): service("recall", query="bins", limit=float("inf")),
        ("service", "recall: as_of before year 1 in UTC"): service("recall", query="bins",
                                                                  as_of="0001-01-01T00:00:00+05:00"),
        ("service", "find_to_forget: limit infinity"): service("find_to_forget", query="bins", limit=float("inf")),
        ("service", "find_to_forget: 1.2 MB query"): service("find_to_forget", query=query),
        ("WebSocket", "list: offset 2^63"): ws("list", offset=2**63),
        ("WebSocket", "search: 1.2 MB query"): ws("search", query=query),
        ("WebSocket", "update: 1.2 MB content"): ws("update", memory_id=memory_id, content="x" * 1_200_000),
        ("WebSocket", "import: 1 MB subject"): ws("import", data={
            "format": "household-memory/export", "version": 1,
            "memories": [{"content": "Leo likes green.", "scope": "shared", "subject": megabyte}]}),
        ("LLM tool", "recall: 1.2 MB query"): tool("recall", query=query),
        ("LLM tool", "find_to_forget: 1.2 MB query"): tool("find_to_forget", query=query),
        ("LLM tool", "remember: 1.2 MB content"): tool("remember", content="x" * 1_200_000),
        ("LLM tool", "forget: 1 MB id"): tool("forget", memory_id=megabyte, confirmation="x"),
        ("memory agent", "turn: 1.2 MB utterance"): lambda: turn(query),
    }  # fmt: skip
    rows = []
    for (door, case), call in cases.items():
        _, outcome = await _answered(call)
        samples = [(await _answered(call))[0] for _ in range(repeats)]
        p99 = statistics.quantiles(samples, n=100, method="inclusive")[98] if len(samples) > 1 else samples[0]
        rows.append({"door": door, "case": case, "outcome": outcome, "p50": round(statistics.median(samples), 2),
                     "p99": round(p99, 2), "max": round(max(samples), 2)})  # fmt: skip
        print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
    return rows
