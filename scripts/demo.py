"""Household Memory demo: a real Home Assistant, a household, and the cases played through
HA's own APIs (run by scripts/demo, which sets up the venv and the local LLM first).

After the cases, the voice part: the memory options' voice section (speaker recognition, the
memory STT entity with faster-whisper in process on the Whisper base model) is set through the
options flow, an Assist pipeline hears with that entity, Julian and Anna enrol their espeak-ng
voices with memory.enroll_voice (WAV clips in the media folder), and VOICE_CASES are spoken at
the kitchen satellite: audio streamed through assist_pipeline/run from the speech-to-text stage
over the satellite's own connection (a user linked to no person).

After the cases, the learning part: the development-only local LLM (memory_local_llm, linked
into the demo's config, model from $LOCAL_LLM_MODEL, $LOCAL_LLM_THREADS threads) is set up
through its config flow and chosen as the memory's extraction AI Task in the options; Julian
mentions things in passing, the conversations end after the idle time, and the memory_learned
events (WebSocket) and recall show what was learned and that a forgotten code stays forgotten.

Last, C38 memory on every turn (LLM_AGENT_CASES): the local LLM's conversation agent gets the
Memory LLM API ticked through its options flow, a text-only pipeline is answered by it, three
shared memories are told to the memory agent, and three questions are asked in ONE conversation
at the kitchen satellite by its own user (no person: the same user and device every turn, so Home
Assistant 2026.11 would keep the first turn's prompt). After each turn the conversation's system
prompt is read through conversation/chat_log/subscribe: it must hold that question's memory, and
from the second turn on memories other than the previous turn's; the answer must name the memory.
Whether each user turn was recorded is not checked here: no API shows the transcripts (the panel's
WebSocket API, diagnostics and export hold none); tests/ha/test_c38_every_turn.py checks it.

Exit status: 0 when every check holds, 1 when one fails, 2 when the demo itself could not run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # tests.speech, for demo_lib.voice

from demo_lib import ha_log, voice
from demo_lib.cases import (
    CASES,
    LEARNING_CASES,
    LLM_AGENT_CASES,
    VOICE_CASES,
    Case,
    Diagnostics,
    Learned,
    Recall,
    Say,
    Speak,
    SystemPrompt,
)
from demo_lib.client import EventListener, HAError, speech_of
from demo_lib.household import (
    LLM_API,
    LLM_PIPELINE,
    SATELLITE,
    Household,
    provision,
    set_up_learning,
    set_up_llm_agent,
    set_up_voice,
)
from demo_lib.server import HassProcess, free_port, media_dir, write_config

ROOT = Path(__file__).resolve().parent.parent
TTY = sys.stdout.isatty()
# Idle option (1 min) + the idle check's interval (1 min) + two extractions of ~10 s each on one
# thread, with room for a busy machine.
LEARNED_TIMEOUT = 300  # seconds
# The Memory LLM API's block in a system prompt starts with this (custom_components/memory/
# llm_api.py MEMORY_BLOCK_HEADER); each memory is a line "- ..." after it.
MEMORY_BLOCK = "Household memory:"


def _c(code: str, text: str) -> str:
    return f"\033[{code}m{text}\033[0m" if TTY else text


OK, BAD = _c("32", "PASS"), _c("31", "FAIL")


def say(text: str) -> None:
    print(f"  {_c('2', '·')} {text}", flush=True)


class Results:
    """Every check's outcome, for the summary and the exit status."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed: list[str] = []

    def record(self, label: str, ok: bool, what: str) -> None:
        print(f"      {OK if ok else BAD} {what}", flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed.append(f"{label}: {what}")


def _rows(response: Any) -> list[dict[str, Any]]:
    """Every dict with a `content` key anywhere in a service response."""
    if isinstance(response, dict):
        found = [response] if "content" in response else []
        for value in response.values():
            found += _rows(value)
        return found
    if isinstance(response, list):
        return [row for item in response for row in _rows(item)]
    return []


async def play(
    household: Household,
    results: Results,
    cases: tuple[Case, ...],
    listener: EventListener | None = None,
    speech: dict[tuple[str, str], bytes] | None = None,
) -> None:
    """Play every case; a failing call fails its step's checks and the demo goes on.
    `listener` (memory_learned events) is needed by Learned steps, `speech` (voice.synthesise)
    by Speak steps."""
    tagged: dict[str, str | None] = {}  # Say.tag -> conversation id
    for case in cases:
        print(f"\n{_c('1', case.case_id)} {case.title}", flush=True)
        conversation_id: str | None = None
        memories: list[str] | None = None  # the previous SystemPrompt step's memory lines
        for step in case.steps:
            if isinstance(step, Say):
                label = f"{case.case_id} {step.text!r}"
                conversation_id = await _say(household, step, label, conversation_id, results)
                if step.tag:
                    tagged[step.tag] = conversation_id
            elif isinstance(step, Speak):
                label = f"{case.case_id} {step.voice}'s voice {step.text!r}"
                await _speak(household, step, (speech or {}).get((step.voice, step.text)), label, results)
            elif isinstance(step, Recall):
                await _recall(household, step, f"{case.case_id} memory.recall {step.query!r}", results)
            elif isinstance(step, Learned):
                label = f"{case.case_id} memory_learned ({step.tag})"
                await _learned(listener, step, tagged.get(step.tag), label, results)
            elif isinstance(step, SystemPrompt):
                label = f"{case.case_id} system prompt"
                memories = await _system_prompt(
                    household, step, conversation_id, memories, label=label, results=results
                )
            else:
                await _diagnostics(household, step, f"{case.case_id} diagnostics", results)


async def _learned(
    listener: EventListener | None,
    step: Learned,
    conversation_id: str | None,
    label: str,
    results: Results,
) -> None:
    """Wait for the tagged conversation's memory_learned event and check its counts."""
    print(
        f"  {_c('36', 'event')} memory_learned for conversation {conversation_id} "
        f"(ends after the idle time; waiting up to {LEARNED_TIMEOUT}s)",
        flush=True,
    )
    started = time.monotonic()
    event = None
    if listener is not None and conversation_id:
        event = (await listener.wait_for({conversation_id}, LEARNED_TIMEOUT)).get(conversation_id)
    if event is None:
        print(
            f"      {_c('31', 'error')}: no memory_learned event within {LEARNED_TIMEOUT}s — the "
            "conversation did not end, extraction failed or nothing was sent (see the hass log)",
            flush=True,
        )
        for key, least in step.counts:
            results.record(label, False, f"{key} >= {least}")
        return
    counts = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("conversation_id", "memory_ids"))
    print(f"    {_c('33', '<')} after {time.monotonic() - started:.0f}s: {counts}", flush=True)
    for key, least in step.counts:
        value = event.get(key)
        results.record(label, isinstance(value, int) and value >= least, f"{key} >= {least}")


async def _say(
    household: Household, step: Say, label: str, conversation_id: str | None, results: Results
) -> str | None:
    """One turn at a satellite; returns the conversation id for a follow-up turn."""
    via = f" via {step.pipeline}" if step.pipeline else ""
    print(f"  {_c('36', f'{step.who} @ {step.where} [{step.lang}{via}]')} > {step.text}", flush=True)
    try:
        output = await household.clients[step.who].run_pipeline(
            step.text,
            pipeline_id=household.pipelines[step.pipeline or step.lang],
            device_id=household.devices[step.where],
            conversation_id=conversation_id if step.follow_up else None,
        )
    except (HAError, TimeoutError) as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        for check in step.checks:
            results.record(label, False, str(check))
        return None
    answer = speech_of(output)
    response = output.get("response") or {}
    response_type = str(response.get("response_type", ""))
    more = " (asks back)" if output.get("continue_conversation") else ""
    if response_type == "error":
        more += f" (error response: {(response.get('data') or {}).get('code')})"
    print(f"    {_c('33', '<')} {answer or '(no speech)'}{_c('2', more)}", flush=True)
    for check in step.checks:
        results.record(label, check.holds(answer, response_type), str(check))
    return output.get("conversation_id")


def memory_lines(prompt: str) -> list[str]:
    """The memory lines of the Memory API's block in a system prompt (none without a block)."""
    start = prompt.find(MEMORY_BLOCK)
    if start < 0:
        return []
    return [line for line in prompt[start:].splitlines() if line.startswith("- ")]


async def _system_prompt(
    household: Household,
    step: SystemPrompt,
    conversation_id: str | None,
    previous: list[str] | None,
    *,
    label: str,
    results: Results,
) -> list[str] | None:
    """Read the conversation's system prompt (HA's chat log subscription, its initial state) as
    the owner, show its memory lines and check them; returns them for the next step."""
    print(
        f"  {_c('36', 'websocket')} conversation/chat_log/subscribe conversation_id={conversation_id}",
        flush=True,
    )
    wanted = [f"holds {text!r}" for text in step.holds]
    renewed = "memories recalled anew (not the previous turn's)"
    try:
        if not conversation_id:
            raise HAError("no conversation (the turn before failed)")
        event = await household.owner.first_event(
            "conversation/chat_log/subscribe", conversation_id=conversation_id
        )
    except (HAError, TimeoutError) as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        for what in (*wanted, *([renewed] if step.renewed else [])):
            results.record(label, False, what)
        return None
    content = (event.get("data") or {}).get("content") or []
    first = content[0] if content else {}
    prompt = str(first.get("content") or "") if first.get("role") == "system" else ""
    lines = memory_lines(prompt)
    users = sum(1 for c in content if c.get("role") == "user")
    print(
        f"    {_c('33', '<')} {event.get('event_type')}: {users} user turn(s); system prompt of "
        f"{len(prompt)} characters, {len(lines)} {'memory' if len(lines) == 1 else 'memories'} recalled:",
        flush=True,
    )
    for line in lines:
        print(f"        {_c('2', line)}", flush=True)
    for text, what in zip(step.holds, wanted, strict=True):
        results.record(label, text.casefold() in prompt.casefold(), what)
    if step.renewed:
        results.record(label, previous is not None and bool(lines) and lines != previous, renewed)
    return lines


def _words(text: str) -> list[str]:
    """`text`'s words, case and punctuation aside (a transcript compared with what was said)."""
    return re.sub(r"[^\w\s]", " ", text).casefold().split()


async def _speak(household: Household, step: Speak, pcm: bytes | None, label: str, results: Results) -> None:
    """One spoken turn at a satellite: the audio through the spoken pipeline, from its STT stage."""
    heard_label = f"heard as said ({' '.join(_words(step.text))!r})"
    speaker = f"{step.voice}'s voice @ {step.where} (spoken)"
    print(f"  {_c('36', speaker)} > {step.text}", flush=True)
    try:
        if pcm is None or household.voice_pipeline is None:
            raise HAError("no speech or no spoken pipeline (see the voice set-up above)")
        transcript, output = await household.clients[SATELLITE].run_voice_pipeline(
            pcm, pipeline_id=household.voice_pipeline, device_id=household.devices[step.where]
        )
    except (HAError, TimeoutError) as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        for what in (heard_label, *map(str, step.checks)):
            results.record(label, False, what)
        return
    answer = speech_of(output)
    response_type = str((output.get("response") or {}).get("response_type", ""))
    print(f"    {_c('35', 'heard')} {transcript!r} ({len(pcm) / 32000:.1f} s of audio)", flush=True)
    print(f"    {_c('33', '<')} {answer or '(no speech)'}", flush=True)
    results.record(label, _words(transcript) == _words(step.text), heard_label)
    for check in step.checks:
        results.record(label, check.holds(answer, response_type), str(check))


async def _recall(household: Household, step: Recall, label: str, results: Results) -> None:
    caller = household.owner if step.who == "owner" else household.clients[step.who]
    as_whom = "no speaker" if step.who == "owner" else f"as {step.who}"
    print(f"  {_c('36', 'service')} memory.recall query={step.query!r} ({as_whom})", flush=True)
    try:
        reply = await caller.rest(
            "POST", "/api/services/memory/recall?return_response", {"query": step.query}
        )
    except (HAError, TimeoutError) as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        for check in step.checks:
            results.record(label, False, str(check))
        return
    rows = _rows((reply or {}).get("service_response"))
    for row in rows:
        fields = ", ".join(
            f"{k}={row.get(k)}"
            for k in ("kind", "scope", "provenance", "language", "person", "said_by")
            if row.get(k) is not None
        )
        print(f"    {_c('33', '<')} {row.get('content')!r} [{fields}]", flush=True)
    if not rows:
        print(f"    {_c('33', '<')} (no rows) {reply}", flush=True)
    for check in step.checks:
        results.record(label, check.holds(rows), str(check))


async def _diagnostics(household: Household, step: Diagnostics, label: str, results: Results) -> None:
    print(f"  {_c('36', 'diagnostics')} of the memory config entry", flush=True)
    try:
        if household.memory_entry is None:
            raise HAError("no memory config entry")
        entry_id = household.memory_entry["entry_id"]
        reply = await household.owner.rest("GET", f"/api/diagnostics/config_entry/{entry_id}")
    except (HAError, TimeoutError) as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        for key, least in step.min_counts:
            results.record(label, False, f"{key} >= {least}")
        results.record(label, False, "no memory text")
        return
    engine = ((reply or {}).get("data") or {}).get("engine") or {}
    counts = ", ".join(f"{k}={engine.get(k)}" for k in ("memories", "active", "tombstones", "by_scope"))
    print(f"    {_c('33', '<')} engine: {counts}", flush=True)
    for key, least in step.min_counts:
        value = engine.get(key)
        results.record(label, isinstance(value, int) and value >= least, f"{key} >= {least}")
    dump = json.dumps(reply, ensure_ascii=False).casefold()
    leaked = [text for text in step.absent if text.casefold() in dump]
    results.record(label, not leaked, "no memory text" + (f" (found {leaked})" if leaked else ""))


async def voice_part(
    session: aiohttp.ClientSession, household: Household, results: Results, media: Path
) -> None:
    """Set up the voice part, enrol Julian and Anna, then play VOICE_CASES (module docstring)."""
    print(
        f"\n{_c('1', 'Voice')} spoken at the kitchen satellite (espeak-ng voices, Whisper base)", flush=True
    )
    turns = [
        (step.voice, step.text) for case in VOICE_CASES for step in case.steps if isinstance(step, Speak)
    ]
    try:
        speech = await asyncio.to_thread(voice.synthesise, turns)
        model = await asyncio.to_thread(voice.whisper_model)
    except voice.SpeechFailed as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        results.record("voice", False, "speech synthesised and the Whisper model found")
        return
    say(
        f"{len(speech)} utterances synthesised by espeak-ng ("
        + ", ".join(f"{who}: {name}" for who, name in voice.VOICES.items())
        + ")"
    )
    try:
        stt_entity = await set_up_voice(session, household, model)
    except (HAError, TimeoutError) as err:
        results.record("voice", False, f"voice options, spoken pipeline and satellite user set up ({err})")
        return
    say(
        "memory options, voice section: speaker recognition on, speech-to-text by faster-whisper "
        f"in process, model {model}, language en; entity {stt_entity}"
    )
    say(
        f"Assist pipeline {household.voice_pipeline}: {stt_entity} -> {household.agent_id}; "
        "the kitchen satellite streams as user 'Kitchen satellite' (linked to no person)"
    )
    await _enrol(household, results, media, speech)
    await play(household, results, VOICE_CASES, speech=speech)


async def _enrol(
    household: Household, results: Results, media: Path, speech: dict[tuple[str, str], bytes]
) -> None:
    """memory.enroll_voice for each enrolled person from WAV clips in the media folder, then
    memory.voice_status."""
    for who in voice.ENROLLED:
        person = f"person.{who}"
        clips = voice.write_clips(media, who, speech)
        print(f"  {_c('36', 'service')} memory.enroll_voice person={person} clips={clips}", flush=True)
        label = f"enrol {who}"
        try:
            reply = await household.owner.rest(
                "POST",
                "/api/services/memory/enroll_voice?return_response",
                {"person": person, "clips": clips},
            )
        except (HAError, TimeoutError) as err:
            print(f"      {_c('31', 'error')}: {err}", flush=True)
            results.record(label, False, f"{person} enrolled from {len(clips)} clips")
            continue
        response = (reply or {}).get("service_response") or {}
        print(f"    {_c('33', '<')} {response}", flush=True)
        ok = response.get("person") == person and response.get("clips") == len(clips)
        results.record(label, ok, f"{person} enrolled from {len(clips)} clips")
    print(f"  {_c('36', 'service')} memory.voice_status", flush=True)
    try:
        reply = await household.owner.rest("POST", "/api/services/memory/voice_status?return_response", {})
    except (HAError, TimeoutError) as err:
        print(f"      {_c('31', 'error')}: {err}", flush=True)
        reply = {}
    status = (reply or {}).get("service_response") or {}
    voices = {v.get("person"): v for v in status.get("voices") or []}
    for person, row in voices.items():
        print(
            f"    {_c('33', '<')} {person}: enrolled={row.get('enrolled')}, clips={row.get('clips')}",
            flush=True,
        )
    enrolled = sorted(p for p, row in voices.items() if row.get("enrolled"))
    wanted = sorted(f"person.{who}" for who in voice.ENROLLED)
    results.record(
        "voice_status",
        status.get("recognition") is True and enrolled == wanted,
        f"recognition on; enrolled: {', '.join(wanted)} (no one else)",
    )


async def llm_agent_part(session: aiohttp.ClientSession, household: Household, results: Results) -> None:
    """C38: the Memory API ticked on the local LLM's conversation agent, then LLM_AGENT_CASES
    (module docstring)."""
    print(f"\n{_c('1', 'Memory API')} on the local LLM's conversation agent", flush=True)
    try:
        entity_id = await set_up_llm_agent(session, household)
    except (HAError, TimeoutError) as err:
        results.record("C38", False, f"Memory API ticked on the local LLM agent, its pipeline set up ({err})")
        return
    say(f"{entity_id}: its options flow (the Configure dialog, over REST) ticks the LLM API {LLM_API!r}")
    say(
        f"Assist pipeline {household.pipelines[LLM_PIPELINE]} (text only) -> {entity_id}; asked by the "
        "kitchen satellite's own user (linked to no person)"
    )
    await play(household, results, LLM_AGENT_CASES)


async def learning(session: aiohttp.ClientSession, household: Household, results: Results) -> None:
    """Turn learning on with the local LLM, then play LEARNING_CASES (module docstring)."""
    model = os.environ.get("LOCAL_LLM_MODEL")
    threads = int(os.environ.get("LOCAL_LLM_THREADS", "1"))
    print(f"\n{_c('1', 'Learning')} with the local LLM (development only)", flush=True)
    if not model:
        results.record("learning", False, "LOCAL_LLM_MODEL is set (scripts/demo assembles the model)")
        return
    try:
        entity_id = await set_up_learning(household, model, threads)
    except (HAError, TimeoutError) as err:
        results.record("learning", False, f"local LLM and learning options set up ({err})")
        return
    say(
        f"memory_local_llm set up through its config flow ({Path(model).name}, {threads} thread(s)); "
        f"memory options: learning on, extraction by {entity_id}, review off, idle 1 minute"
    )
    listener = EventListener(household.owner.another("events"), "memory_learned")
    await listener.start()
    say("subscribed to memory_learned over the WebSocket")
    try:
        await play(household, results, LEARNING_CASES, listener)
    finally:
        await listener.close()
    await llm_agent_part(session, household, results)


async def main_async(hass: HassProcess, *, learn: bool) -> int:
    started = time.monotonic()
    print(
        _c("1", "Household Memory demo"), f"— hass at {hass.base_url}, config {hass.config_dir}", flush=True
    )
    hass.start()
    await hass.wait_ready()
    say(f"hass answers after {time.monotonic() - started:.0f}s")
    results = Results()
    async with aiohttp.ClientSession() as session:
        household = await provision(session, hass.base_url, say)
        try:
            for problem in household.setup_problems:
                results.record("setup", False, problem)
            await play(household, results, CASES)
            await voice_part(session, household, results, media_dir(hass.config_dir))
            if learn:
                await learning(session, household, results)
        finally:
            await household.close()
    total = results.passed + len(results.failed)
    print(
        f"\n{_c('1', 'Summary')}: {results.passed}/{total} checks passed "
        f"in {time.monotonic() - started:.0f}s",
        flush=True,
    )
    for failure in results.failed:
        print(f"  {BAD} {failure}")
    return 1 if results.failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--config-dir",
        type=Path,
        default=ROOT / ".demo" / "config",
        help="wiped and recreated on every run (default: .demo/config)",
    )
    parser.add_argument("--port", type=int, default=0, help="HTTP port (default: a free one)")
    parser.add_argument(
        "--no-learning", action="store_true", help="skip the learning part (no local LLM, ~3 minutes less)"
    )
    args = parser.parse_args()

    port = args.port or free_port()
    write_config(args.config_dir, ROOT, port, fresh=True, llm=not args.no_learning)
    # the venv running the demo; Python's deprecation warnings shown, so the log check sees them
    hass = HassProcess(Path(sys.prefix), args.config_dir.resolve(), port, env=ha_log.PYTHON_WARNINGS)
    from homeassistant.const import __version__ as ha_version  # noqa: PLC0415 - the venv's, to say it

    print(f"Home Assistant {ha_version} on Python {sys.version.split()[0]} ({sys.prefix})", flush=True)
    # SIGTERM (e.g. from CI) takes the same path as Ctrl-C: stop hass, then exit.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    status = 2
    try:
        status = asyncio.run(main_async(hass, learn=not args.no_learning))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        status = 130
    except Exception as err:
        print(f"\n{_c('31', 'demo could not run')}: {type(err).__name__}: {err}", file=sys.stderr)
    finally:
        print("stopping hass …", flush=True)
        hass.stop()
        print(f"hass log: {hass.log_file}\nhass console: {hass.console_file}", flush=True)
    if status in (0, 1) and not log_is_clean(hass.log_file, hass.console_file):
        status = 1
    return status


def log_is_clean(log_file: Path, console_file: Path) -> bool:
    """After hass stopped: its log holds no deprecation warning or reported use against the
    integration (demo_lib.ha_log: HA's frame and deprecation helpers, the integration's own loggers,
    Python's warnings at its lines), nor its console a Python warning at its lines printed before
    the log was set up. Says what it found."""
    try:
        text = log_file.read_text(encoding="utf-8", errors="replace")
        console = console_file.read_text(encoding="utf-8", errors="replace") if console_file.exists() else ""
        found = ha_log.warnings_about_integration(text) + ha_log.console_warnings_about_integration(console)
    except (OSError, ha_log.UnknownLogFormat) as err:
        print(f"      {BAD} the hass log could not be read: {err}", flush=True)
        return False
    read = len(ha_log.records(text))
    what = f"the hass log ({read} records) holds no deprecation warning about the {ha_log.DOMAIN} integration"
    print(f"      {BAD if found else OK} {what}", flush=True)
    for line in found:
        print(f"        {line}", flush=True)
    return not found


if __name__ == "__main__":
    sys.exit(main())
