"""Conversation turns for the HA tests: say something at a satellite, as a person or a guest,
through HA's real conversation component and the memory agent.

`RecordingAgent` is plumbing, not behaviour: a conversation agent the memory agent can wrap
that records what it received (the extra system prompt, and — like an LLM agent with the
"Memory" API ticked — the API prompt HA builds for it) and answers "ok" or "not understood".
`ScriptedLLM` does what an LLM agent does with HA's chat log (provide the LLM data of its selected
APIs, call tools through the chat log as a `Model` would, answer), the model's choices scripted
per turn, recording each turn's system prompt and tools.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.const import MATCH_ALL
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import intent, llm
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.memory.const import CONF_AGENT, DOMAIN, LLM_API_ID
from custom_components.memory.conversation import chat_session
from custom_components.memory.engine.models import Memory, Speaker
from tests.conftest import Resident, Room


def memory_agent_id(hass: HomeAssistant, entry: Any) -> str:
    """The entity id of the entry's memory agent."""
    entity_id = er.async_get(hass).async_get_entity_id("conversation", DOMAIN, entry.entry_id)
    assert entity_id is not None
    return entity_id


async def async_say(
    hass: HomeAssistant,
    entry: Any,
    text: str,
    *,
    language: str = "en",
    who: Resident | None = None,
    room: Room | None = None,
    conversation_id: str | None = None,
) -> conversation.ConversationResult:
    """One turn to the memory agent: `who` None is an unknown speaker (voice turns carry no
    user), `room` the satellite it is said at."""
    return await conversation.async_converse(
        hass,
        text,
        conversation_id,
        who.context if who else Context(user_id=None),
        language,
        agent_id=memory_agent_id(hass, entry),
        device_id=room.device_id if room else None,
    )


def speech(result: conversation.ConversationResult) -> str:
    """The spoken answer of a turn."""
    return str(result.response.speech.get("plain", {}).get("speech", ""))


async def async_transcript(hass: HomeAssistant, engine: Any, conversation_id: str | None) -> list[Any]:
    """The stored turns of one conversation, once the turns queued to be recorded after their
    answers are written (transcripts.TranscriptRecorder runs as the entry's tasks)."""
    await hass.async_block_till_done()
    return await hass.async_add_executor_job(engine.conversation, conversation_id)


async def async_all_memories(hass: HomeAssistant, entry: Any) -> list[Memory]:
    """Every active memory (the admin view), for asserting stored rows."""
    engine = entry.runtime_data.engine
    return await hass.async_add_executor_job(
        lambda: engine.list_memories(Speaker.administrator(), limit=1000)
    )


@dataclass
class RecordingAgent(conversation.AbstractConversationAgent):
    """A wrapped agent that records its input. With `llm_api`, it asks HA for the LLM API
    instance exactly as an LLM agent does (chat_log.async_provide_llm_data) and records the
    prompt; `understood=False` answers like HA's agent does for an unknown sentence."""

    hass: HomeAssistant
    llm_api: list[str] | None = None
    understood: bool = True
    inputs: list[conversation.ConversationInput] = field(default_factory=list)
    api_prompts: list[str] = field(default_factory=list)
    platform: str = "test_llm"  # the LLM context's platform (integration domain)

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        return MATCH_ALL

    async def async_process(
        self, user_input: conversation.ConversationInput
    ) -> conversation.ConversationResult:
        self.inputs.append(user_input)
        with (
            chat_session(self.hass, user_input.conversation_id, user_input.context) as session,
            conversation.async_get_chat_log(self.hass, session, user_input) as chat_log,
        ):
            if self.llm_api:
                await chat_log.async_provide_llm_data(
                    user_input.as_llm_context(self.platform),
                    self.llm_api,
                    None,
                    user_input.extra_system_prompt,
                )
                assert chat_log.llm_api is not None
                self.api_prompts.append(chat_log.llm_api.api_prompt)
            response = intent.IntentResponse(language=user_input.language)
            if self.understood:
                response.async_set_speech("ok")
            else:
                response.async_set_error(intent.IntentResponseErrorCode.NO_INTENT_MATCH, "not understood")
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(agent_id="test_llm", content="ok")
            )
            return conversation.ConversationResult(response=response, conversation_id=session.conversation_id)

    @property
    def extra_prompts(self) -> list[str]:
        return [i.extra_system_prompt or "" for i in self.inputs]


class Model:
    """What a scripted model may do in one turn: see the tools offered and the chat so far, and
    call a tool through HA's chat log (which runs it and records its result)."""

    def __init__(self, chat_log: conversation.ChatLog) -> None:
        self._chat_log = chat_log

    @property
    def offered(self) -> list[str]:
        assert self._chat_log.llm_api is not None
        return [tool.name for tool in self._chat_log.llm_api.tools]

    def earlier_results(self, tool_name: str) -> list[llm.ToolResult]:
        """The results of `tool_name` calls in this conversation so far, oldest first."""
        return [
            c.result
            for c in self._chat_log.content
            if isinstance(c, conversation.ToolResultContent) and c.tool_name == tool_name
        ]

    async def call_memory(self, verb: str, **args: Any) -> llm.ToolResult:
        """Call the one memory tool of `verb` offered, whichever API offers it (recall on the
        Memory API alone, memory__recall, assist__memory__recall …)."""
        (name,) = [n for n in self.offered if n == verb or n.endswith(f"memory__{verb}")]
        return await self.call(name, **args)

    async def call(self, tool_name: str, **args: Any) -> llm.ToolResult:
        call = llm.ToolInput(tool_name=tool_name, tool_args=args)
        (result,) = [
            content
            async for content in self._chat_log.async_add_assistant_content(
                conversation.AssistantContent(agent_id="test_llm", content=None, tool_calls=[call])
            )
        ]
        return result.result


type Step = Callable[[Model], Awaitable[str]]


@dataclass
class ScriptedLLM(RecordingAgent):
    """An LLM agent with the APIs `llm_api` selected; each turn runs the next scripted step
    (none: "ok"), recording the system prompt and the tools offered."""

    script: deque[Step] = field(default_factory=deque)
    system_prompts: list[str] = field(default_factory=list)
    offered: list[list[str]] = field(default_factory=list)

    async def async_process(
        self, user_input: conversation.ConversationInput
    ) -> conversation.ConversationResult:
        with (
            chat_session(self.hass, user_input.conversation_id, user_input.context) as session,
            conversation.async_get_chat_log(self.hass, session, user_input) as chat_log,
        ):
            await chat_log.async_provide_llm_data(
                user_input.as_llm_context(self.platform), self.llm_api, None, user_input.extra_system_prompt
            )
            model = Model(chat_log)
            self.system_prompts.append(chat_log.content[0].content)
            self.offered.append(model.offered)
            answer = await self.script.popleft()(model) if self.script else "ok"
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(agent_id=self.platform, content=answer)
            )
        response = intent.IntentResponse(language=user_input.language)
        response.async_set_speech(answer)
        return conversation.ConversationResult(response=response, conversation_id=session.conversation_id)


async def async_scripted_llm(
    hass: HomeAssistant, apis: list[str], *, domain: str = "test_llm", wrapped_by: Any = None
) -> tuple[ScriptedLLM, str]:
    """A ScriptedLLM with the LLM APIs `apis` ticked, registered as the agent of a config entry of
    integration `domain` (a real one, e.g. "ollama", makes its manifest's iot_class decide cloud vs
    local); with `wrapped_by` (the memory entry) it becomes the memory agent's wrapped agent
    (options, reload). Returns (agent, agent id)."""
    agent_entry = MockConfigEntry(domain=domain, title="Scripted LLM")
    agent_entry.add_to_hass(hass)
    agent = ScriptedLLM(hass, llm_api=apis, platform=domain)
    conversation.async_set_agent(hass, agent_entry, agent)
    if wrapped_by is not None:
        hass.config_entries.async_update_entry(
            wrapped_by, options={**wrapped_by.options, CONF_AGENT: agent_entry.entry_id}
        )
        await hass.config_entries.async_reload(wrapped_by.entry_id)
        await hass.async_block_till_done()
    return agent, agent_entry.entry_id


async def async_wrap_recording_agent(
    hass: HomeAssistant,
    entry: Any,
    *,
    with_memory_api: bool = False,
    understood: bool = True,
    domain: str = "test_llm",
) -> RecordingAgent:
    """Register a RecordingAgent and make it the memory agent's wrapped agent (options, reload).

    domain: the integration the agent claims to belong to; a real one (e.g. "openai_conversation",
    "ollama") makes its manifest's iot_class decide cloud vs local."""
    agent_entry = MockConfigEntry(domain=domain, title="Recording agent")
    agent_entry.add_to_hass(hass)
    agent = RecordingAgent(
        hass, llm_api=[LLM_API_ID] if with_memory_api else None, understood=understood, platform=domain
    )
    conversation.async_set_agent(hass, agent_entry, agent)
    hass.config_entries.async_update_entry(entry, options={**entry.options, CONF_AGENT: agent_entry.entry_id})
    await hass.config_entries.async_reload(entry.entry_id)
    await hass.async_block_till_done()
    return agent


@dataclass
class PipelineTurn:
    """What a satellite gets back from an Assist pipeline run (intent stage)."""

    speech: str
    conversation_id: str | None
    continue_conversation: bool


async def async_pipeline_say(
    hass: HomeAssistant,
    entry: Any,
    text: str,
    *,
    language: str = "en",
    who: Resident | None = None,
    room: Room | None = None,
    conversation_id: str | None = None,
    agent_id: str | None = None,
) -> PipelineTurn:
    """One text turn through a real Assist pipeline whose agent is the memory agent (or
    `agent_id`), at `room`'s satellite device — the way a voice satellite's turn reaches the agent."""
    from homeassistant.components.assist_pipeline.pipeline import (  # noqa: PLC0415
        PipelineEventType,
        PipelineInput,
        PipelineRun,
        PipelineStage,
        async_get_pipeline,
        async_update_pipeline,
    )

    await async_update_pipeline(  # the preferred pipeline, made at assist_pipeline's set-up
        hass,
        async_get_pipeline(hass),
        conversation_engine=agent_id or memory_agent_id(hass, entry),
        conversation_language=language,
        language=language,
    )
    pipeline = async_get_pipeline(hass)
    events: list[Any] = []
    with chat_session(hass, conversation_id, who.context if who else Context(user_id=None)) as session:
        pipeline_input = PipelineInput(
            session=session,
            intent_input=text,
            device_id=room.device_id if room else None,
            run=PipelineRun(
                hass,
                context=who.context if who else Context(user_id=None),
                pipeline=pipeline,
                start_stage=PipelineStage.INTENT,
                end_stage=PipelineStage.INTENT,
                event_callback=events.append,
            ),
        )
        await pipeline_input.validate()
        await pipeline_input.execute()
    (end,) = [e for e in events if e.type is PipelineEventType.INTENT_END]
    output = end.data["intent_output"]
    return PipelineTurn(
        speech=output["response"]["speech"]["plain"]["speech"],
        conversation_id=output["conversation_id"],
        continue_conversation=output["continue_conversation"],
    )
