"""Case C39, one audience per request (issue 41): "The code for the garden gate is 4711." is stored;
a guest account (an HA user linked to no person, not an administrator), an automation (a call
without a user), another household member (for Julian's private memory) and a cloud model (an
LLM context of a cloud integration, and HA's MCP server) ask through every door — the services
(recall, find_to_forget, the conflicts a new code reports, history, list_pending, consolidate),
the memory agent's own answers, the panel (refused to a non-administrator), the LLM API's prompt
and tools — and none of them gets the text (a count at most). The household member, the local
model talking to a member and an administrator in the panel do.

Every answer is serialised whole (json.dumps) before looking for the text, so a door that leaks
it in any field (content, a conflict, a history entry, an error message) fails.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import pytest
from homeassistant.components import conversation
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError, Unauthorized
from homeassistant.helpers import llm
from pytest_homeassistant_custom_component.common import MockUser
from pytest_homeassistant_custom_component.typing import MockHAClientWebSocket, WebSocketGenerator

from custom_components.memory.const import LLM_API_ID
from custom_components.memory.engine.api import MemoryDraft
from custom_components.memory.engine.models import Scope, Speaker, Status
from tests.conftest import Resident, async_access_token, async_call, both_stores

from .helpers_conversation import async_say, async_scripted_llm, memory_agent_id, speech

pytestmark = both_stores  # what is told is decided in the engine over each store's rows

GATE = "The code for the garden gate is 4711."
# The code's digits as text says them, not inside a random id or token ("…c47118…", hex) or a
# rounded score ("0.4711"): those would make the test fail by chance.
CODE = re.compile(r"(?<![\w.])4711(?!\w)")
SHED = "The bike lock combination is 4711."  # awaiting review (PENDING), sensitive
PRIVATE = "My dentist is Dr. Weber."  # Julian's private memory: another member never sees it
PRIVATE_TEXT = "Weber"
ASKED = "What is the code for the garden gate?"
CLOUD = "openai_conversation"  # a real integration whose manifest says cloud_polling
MCP = "mcp_server"  # HA's MCP server: the model behind the client is unknown, so cloud
LOCAL = "conversation"  # HA's own conversation integration: local


@dataclass(frozen=True)
class Stored:
    code_id: str
    private_id: str
    pending_id: str


def _dump(answer: Any) -> str:
    """A whole answer as JSON text (a tool result's data, a service response, a WebSocket reply)."""
    if isinstance(answer, llm.ToolResult):
        answer = {"data": answer.data, "error": answer.error}
    return json.dumps(answer, ensure_ascii=False, default=str)


def _tells(text: str) -> bool:
    """True when `text` (an answer, serialised) tells the code."""
    return CODE.search(text) is not None


async def _store(hass: HomeAssistant, entry: Any, julian: Resident) -> Stored:
    """Julian tells the gate code (shared, flagged sensitive) and his private dentist; a shared
    memory with the code awaits review."""
    code = await async_call(hass, "remember", {"content": GATE}, context=julian.context)
    assert code["sensitive"] is True and code["memory"]["scope"] == "shared", code
    private = await async_call(
        hass, "remember", {"content": PRIVATE, "scope": "private"}, context=julian.context
    )
    engine = entry.runtime_data.engine
    pending = await hass.async_add_executor_job(
        engine.remember,
        MemoryDraft(
            SHED, speaker=Speaker(person_id=julian.person_id), scope=Scope.SHARED, status=Status.PENDING
        ),
    )
    assert pending.memory.status is Status.PENDING and pending.memory.sensitive
    return Stored(code["memory"]["id"], private["memory"]["id"], pending.memory.id)


async def _guest(hass: HomeAssistant) -> Context:
    """A guest account: an HA user linked to no person, not an administrator."""
    user = await hass.auth.async_create_user("Guest", group_ids=["system-users"])
    assert not user.is_admin
    return Context(user_id=user.id)


async def _ws(client: MockHAClientWebSocket, command: str, **data: Any) -> dict[str, Any]:
    await client.send_json_auto_id({"type": f"memory/{command}", **data})
    response: dict[str, Any] = await client.receive_json()
    return response


async def _tool(
    hass: HomeAssistant, platform: str, context: Context, name: str, **args: Any
) -> llm.ToolResult:
    """One call of the Memory API's tool `name` by a model of integration `platform` answering
    the user of `context`."""
    instance = await llm.async_get_api(
        hass,
        LLM_API_ID,
        llm.LLMContext(
            platform=platform, context=context, language="en", assistant=conversation.DOMAIN, device_id=None
        ),
    )
    return await instance.async_call_tool(llm.ToolInput(tool_name=name, tool_args=args))


async def _service_probes(hass: HomeAssistant, context: Context, stored: Stored, new_code: str) -> list[str]:
    """Every memory.* answer a caller gets about the code (serialised), asserting the counts and
    withheld markers the services promise."""
    recall = await async_call(hass, "recall", {"query": ASKED}, context=context)
    assert recall["withheld"] >= 1, recall
    forget = await async_call(hass, "find_to_forget", {"query": "the garden gate code"}, context=context)
    assert stored.code_id in [c["id"] for c in forget["candidates"]], forget  # may be forgotten, not read
    history = await async_call(hass, "history", {"memory_id": stored.code_id}, context=context)
    assert [h["withheld"] for h in history["history"]] == ["sensitive_unknown_speaker"], history
    pending = await async_call(hass, "list_pending", {}, context=context)
    assert stored.pending_id in [m["id"] for m in pending["memories"]], pending
    remembered = await async_call(hass, "remember", {"content": new_code}, context=context)
    conflicts = {c["id"]: c for c in remembered["conflicts"]}
    assert stored.code_id in conflicts, remembered  # the old code is reported, without its text
    assert conflicts[stored.code_id]["content"] is None
    assert conflicts[stored.code_id]["withheld"] == "sensitive_unknown_speaker"
    return [_dump(answer) for answer in (recall, forget, history, pending, remembered)]


async def test_a_guest_is_never_told_the_code(
    hass: HomeAssistant,
    memory_entry: Any,
    hass_ws_client: WebSocketGenerator,
    julian: Resident,
) -> None:
    stored = await _store(hass, memory_entry, julian)
    guest = await _guest(hass)

    answers = await _service_probes(hass, guest, stored, "The code for the garden gate is now 9931.")
    with pytest.raises(Unauthorized):  # memory.consolidate is for administrators
        await async_call(hass, "consolidate", {"dry_run": True}, context=guest)
    with pytest.raises(HomeAssistantError) as refused:  # nor may a guest ask as Julian
        await async_call(hass, "recall", {"query": ASKED, "person": julian.person_id}, context=guest)
    answers.append(str(refused.value))
    # the memory agent's own (no-LLM) answers to the guest typing in the Assist dialog
    for said in (ASKED, "Forget the code for the garden gate"):
        result = await conversation.async_converse(
            hass, said, None, guest, "en", agent_id=memory_agent_id(hass, memory_entry)
        )
        answers.append(speech(result))
    # the panel refuses a non-administrator every command (and so every list and the export)
    client = await hass_ws_client(hass, await async_access_token(hass, guest.user_id, "guest's browser"))
    for command, data in (
        ("search", {"query": ASKED}),
        ("list", {}),
        ("get", {"memory_id": stored.code_id}),
        ("pending", {}),
        ("export", {}),
    ):
        refused = await _ws(client, command, **data)
        assert not refused["success"] and refused["error"]["code"] == "unauthorized", refused
        answers.append(_dump(refused))

    # last: the guest forgets the code (a shared memory) and is not read it back
    forgotten = await async_call(hass, "forget", {"memory_id": stored.code_id}, context=guest)
    assert forgotten["forgotten"]["withheld"] == "sensitive_unknown_speaker", forgotten
    answers.append(_dump(forgotten))

    for answer in answers:
        assert not _tells(answer) and PRIVATE_TEXT not in answer, answer


async def test_an_automation_is_never_told_the_code(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    stored = await _store(hass, memory_entry, julian)
    automation = Context()  # an automation or script: no user, no person

    answers = await _service_probes(hass, automation, stored, "The code for the garden gate is now 5520.")
    # an automation may run memory.consolidate; its report is nobody's to read in full
    report = await async_call(hass, "consolidate", {"dry_run": True}, context=automation)
    briefs = [side for c in report["conflicts"] for side in (c["older"], c["newer"])]
    assert {"id": stored.code_id, "content": None} in briefs, report  # the two codes, untold
    answers.append(_dump(report))
    # a voice turn nobody is recognised in (no user) at the memory agent
    for said in (ASKED, "Forget the code for the garden gate"):
        answers.append(speech(await async_say(hass, memory_entry, said)))

    for answer in answers:
        assert not _tells(answer) and PRIVATE_TEXT not in answer, answer


async def test_another_member_never_sees_julians_private_memory(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, anna: Resident
) -> None:
    stored = await _store(hass, memory_entry, julian)
    answers = [
        await async_call(hass, "recall", {"query": "Who is the dentist?"}, context=anna.context),
        await async_call(hass, "find_to_forget", {"query": "the dentist"}, context=anna.context),
        await async_call(hass, "list_pending", {}, context=anna.context),
        await async_call(hass, "remember", {"content": "My dentist is Dr. Brandt."}, context=anna.context),
    ]
    with pytest.raises(HomeAssistantError) as refused:  # not hers: as if it did not exist
        await async_call(hass, "history", {"memory_id": stored.private_id}, context=anna.context)
    answers.append(str(refused.value))
    for platform in (LOCAL, CLOUD, MCP):
        answers.append(await _tool(hass, platform, anna.context, "recall", query="Who is the dentist?"))
        answers.append(await _tool(hass, platform, anna.context, "find_to_forget", query="the dentist"))
    for said in ("Who is the dentist?", "Forget the dentist"):
        answers.append(speech(await async_say(hass, memory_entry, said, who=anna)))
    for answer in answers:
        assert PRIVATE_TEXT not in _dump(answer), answer
        assert stored.private_id not in _dump(answer), answer

    # a household member is told the shared code: Anna is recognised
    told = await async_call(hass, "recall", {"query": ASKED}, context=anna.context)
    assert _tells(_dump(told["memories"])) and told["withheld"] == 0, told


@pytest.mark.parametrize("platform", [CLOUD, MCP])
async def test_a_cloud_model_is_never_told_the_code(
    hass: HomeAssistant, memory_entry: Any, julian: Resident, platform: str
) -> None:
    stored = await _store(hass, memory_entry, julian)
    guest = await _guest(hass)
    answers: list[str] = []
    for context in (julian.context, guest, Context()):  # answering Julian, a guest, nobody signed in
        recall = await _tool(hass, platform, context, "recall", query=ASKED)
        assert not recall.error and recall.data["withheld"] >= 1, recall
        found = await _tool(hass, platform, context, "find_to_forget", query="the garden gate code")
        assert not found.error, found
        (candidate,) = [c for c in found.data["candidates"] if c["id"] == stored.code_id]
        assert candidate["content"] is None and candidate["withheld"], found
        answers += [_dump(recall), _dump(found)]
    # Julian tells the cloud model a new code: the old one is a conflict it may not read
    remembered = await _tool(
        hass, platform, julian.context, "remember", content="The code for the garden gate is now 9931."
    )
    assert not remembered.error and remembered.data["withheld"] >= 1, remembered
    answers.append(_dump(remembered))
    # forgetting it through the cloud model: done, its text not read back
    found = await _tool(hass, platform, julian.context, "find_to_forget", query="the garden gate code 4711")
    (candidate,) = [c for c in found.data["candidates"] if c["id"] == stored.code_id]
    forgotten = await _tool(
        hass,
        platform,
        julian.context,
        "forget",
        memory_id=stored.code_id,
        confirmation=candidate["confirmation"],
    )
    assert not forgotten.error, forgotten
    answers += [_dump(found), _dump(forgotten)]

    for answer in answers:
        assert not _tells(answer), answer


async def test_a_cloud_llm_agent_prompt_withholds_the_code(
    hass: HomeAssistant, memory_entry: Any, julian: Resident
) -> None:
    """The Memory API's prompt block for a cloud agent Julian talks to: the code counted, not told;
    the recall tool it calls in the same turn neither."""
    await _store(hass, memory_entry, julian)
    agent, agent_id = await async_scripted_llm(hass, [LLM_API_ID], domain=CLOUD)
    results: list[llm.ToolResult] = []

    async def ask(model: Any) -> str:
        results.append(await model.call_memory("recall", query=ASKED))
        return "I cannot share that here."

    agent.script.append(ask)
    await conversation.async_converse(hass, ASKED, None, julian.context, "en", agent_id=agent_id)
    (prompt,) = agent.system_prompts
    assert not _tells(prompt) and "more stored memories matched but are sensitive" in prompt, prompt
    (result,) = results
    assert not _tells(_dump(result)) and result.data["withheld"] >= 1, result


async def test_the_member_a_local_model_and_the_administrator_are_told(
    hass: HomeAssistant,
    memory_entry: Any,
    hass_ws_client: WebSocketGenerator,
    hass_admin_user: MockUser,
    julian: Resident,
) -> None:
    stored = await _store(hass, memory_entry, julian)
    me = julian.context

    # Julian through the services
    recall = await async_call(hass, "recall", {"query": ASKED}, context=me)
    assert stored.code_id in [m["id"] for m in recall["memories"]] and recall["withheld"] == 0, recall
    private = await async_call(hass, "recall", {"query": "Who is my dentist?"}, context=me)
    assert PRIVATE_TEXT in _dump(private), private
    for answer in (
        recall,
        await async_call(hass, "find_to_forget", {"query": "the garden gate code"}, context=me),
        await async_call(hass, "history", {"memory_id": stored.code_id}, context=me),
        await async_call(hass, "list_pending", {}, context=me),
    ):
        assert _tells(_dump(answer)), answer
    remembered = await async_call(
        hass, "remember", {"content": "The code for the garden gate is now 9931."}, context=me
    )
    (conflict,) = [c for c in remembered["conflicts"] if c["id"] == stored.code_id]
    assert conflict["content"] == GATE and conflict["withheld"] is None, remembered
    # an administrator runs memory.consolidate: the report names both codes
    report = await async_call(
        hass, "consolidate", {"dry_run": True}, context=Context(user_id=hass_admin_user.id)
    )
    briefs = [side for c in report["conflicts"] for side in (c["older"], c["newer"])]
    assert {"id": stored.code_id, "content": GATE} in briefs, report
    # the memory agent answering Julian himself
    assert _tells(speech(await async_say(hass, memory_entry, ASKED, who=julian)))

    # a local model answering Julian
    told = await _tool(hass, LOCAL, me, "recall", query=ASKED)
    assert _tells(_dump(told)) and "withheld" not in told.data, told
    found = await _tool(hass, LOCAL, me, "find_to_forget", query="the garden gate code")
    assert _tells(_dump(found)), found

    # the administrator in the panel
    admin = await hass_ws_client(hass)

    async def ws(command: str, **data: Any) -> Any:
        response = await _ws(admin, command, **data)
        assert response["success"], response
        return response["result"]

    searched = await ws("search", query=ASKED)  # as an unknown speaker would be answered
    assert stored.code_id not in [h["memory"]["id"] for h in searched["hits"]], searched
    (kept,) = [h for h in searched["withheld"] if h["memory"]["id"] == stored.code_id]
    assert _tells(_dump(kept)), searched  # the administrator reads what the speaker would not hear
    assert not _tells(_dump(searched["hits"])), searched
    got = await ws("get", memory_id=stored.code_id)
    assert _tells(_dump(got["memory"])), got
    listed = await ws("list")
    assert _tells(_dump(listed)) and PRIVATE_TEXT in _dump(listed), listed
    assert SHED in _dump(await ws("pending"))
    exported = _dump(await ws("export"))
    assert GATE in exported and PRIVATE in exported and SHED in exported
