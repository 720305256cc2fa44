"""The memory agent: memory sentences first, then a memory answer or the wrapped agent.

Per turn (one `turn.Turn`: speaker, room and text worked out once, recall run once):
1. an utterance over the length limit gets a clear reply and nothing else happens;
2. a memory sentence ("remember …", "forget …", yes/no to a waiting question, …) is
   dispatched through HA's intent machinery (intents.py) and answered here; an answer that
   goes on to a request of its own ("No, turn on the kitchen light.") is two turns in one;
3. without an LLM (HA's own agent wrapped), a question that HA's agent does not match exactly
   and that a memory answers well (answer_similarity) is answered from memory;
4. otherwise the wrapped agent (options: agent_id, default HA's own agent) answers with the
   turn's memories as an extra system prompt; when it did not understand, a close memory
   answers, and without an LLM a statement is offered to be remembered (or noted, with
   learning on).

The agent implements `async_process` rather than `_async_handle_message`: the wrapped
agent opens (or, inside an Assist pipeline, reuses) the chat log of the same
conversation id, so this agent must not hold one open while delegating. Its own turns of one
conversation run one after another (turn.TurnQueue); a turn that finds the conversation held by
something else (HA 2026.11's ConversationBusyError) is answered "busy", not failed.
"""

from __future__ import annotations

import inspect
import logging
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from typing import Literal

from homeassistant.components import conversation
from homeassistant.const import MATCH_ALL
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import Unauthorized
from homeassistant.helpers import intent
from homeassistant.helpers.chat_session import ChatSession, async_get_chat_session
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .answers import quote_all, reply
from .audience import async_for_model
from .cloud import agent_domain
from .commands import async_strict_intent
from .const import (
    CONF_AGENT,
    CONF_ANSWER_SIMILARITY,
    DEFAULT_ANSWER_SIMILARITY,
    DOMAIN,
)
from .dialogue import Ask
from .engine.audience import needs_recognition
from .engine.models import Hit, Role
from .engine.recall import answer_hit
from .engine.sensitive import is_sensitive
from .entity import MemoryEntity
from .extraction_job import async_note_turn
from .intents import (
    INTENT_CONFIRM,
    INTENT_FORGET,
    INTENT_REMEMBER,
    SLOT_ANSWER,
    SLOT_CONTENT,
    SLOT_CONVERSATION_ID,
    SLOT_QUERY,
    SentenceMatch,
    async_get_sentences,
    match_sentence,
    said_on,
)
from .llm_api import WITHHELD_REPLY, speaker_line, turn_block
from .runtime import MemoryConfigEntry, MemoryRuntimeData
from .speaker import other_tellers
from .transcripts import learning_allowed, record_turn
from .turn import (
    Turn,
    TurnQueue,
    active,
    async_recall_once,
    current_turn,
    may_answer,
    question,
    start_turn,
    utterance_problem,
)
from .utterances import (
    answer_then,
    for_matching,
    is_filler,
    is_question,
    is_statement,
    names_something,
    yes_or_no,
)

_LOGGER = logging.getLogger(__name__)

# HA 2026.11 makes the user of a chat session's first context its owner and refuses another
# user's context (`context=` required from 2027.5); HA 2026.10.4 has no such parameter.
SESSIONS_HAVE_OWNERS = "context" in inspect.signature(async_get_chat_session).parameters


def chat_session(
    hass: HomeAssistant, conversation_id: str | None, context: Context | None
) -> AbstractContextManager[ChatSession]:
    """HA's chat session `conversation_id`, opened for the turn's `context` (its user owns a new
    session on HA 2026.11+; raises homeassistant.exceptions.Unauthorized there for another user's)."""
    if SESSIONS_HAVE_OWNERS:
        return async_get_chat_session(hass, conversation_id, context=context)  # type: ignore[call-arg]
    return async_get_chat_session(hass, conversation_id)


# HA 2026.11+: another turn holds the conversation's chat log (not one of this agent's: those
# wait in its TurnQueue). HA 2026.10 has no such error.
BUSY_ERRORS: tuple[type[Exception], ...] = tuple(
    error for error in (getattr(conversation, "ConversationBusyError", None),) if error is not None
)

# Wrapped-agent errors that mean "I could not make sense of that", where a memory may answer
# instead. UNKNOWN covers a sentence HA matched to an intent nobody handles ("What's the weather
# like?" → HassGetWeather without a weather integration).
NOT_UNDERSTOOD = frozenset(
    {
        intent.IntentResponseErrorCode.NO_INTENT_MATCH,
        intent.IntentResponseErrorCode.NO_VALID_TARGETS,
        intent.IntentResponseErrorCode.UNKNOWN,
    }
)


async def async_setup_entry(
    hass: HomeAssistant,
    entry: MemoryConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the memory agent of this entry."""
    async_add_entities([MemoryConversationEntity(entry)])


class MemoryConversationEntity(
    MemoryEntity, conversation.ConversationEntity, conversation.AbstractConversationAgent
):
    """The "Memory assistant" conversation agent."""

    _attr_translation_key = "memory_assistant"

    def __init__(self, entry: MemoryConfigEntry) -> None:
        super().__init__(entry)
        self._queue = TurnQueue()

    @property
    def supported_languages(self) -> list[str] | Literal["*"]:
        """Any language: unknown ones fall back to English replies and the wrapped agent."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Also register as the entry's agent (agent id = entry id), like core's LLM agents."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self._entry, self)

    async def async_will_remove_from_hass(self) -> None:
        conversation.async_unset_agent(self.hass, self._entry)
        await super().async_will_remove_from_hass()

    @property
    def _data(self) -> MemoryRuntimeData:
        return self._entry.runtime_data

    async def async_process(
        self, user_input: conversation.ConversationInput
    ) -> conversation.ConversationResult:
        """One turn: a memory sentence, a memory answer, or recall + the wrapped agent.

        The speaker and room are resolved once (turn.start_turn) and published to every door the
        turn passes. The user's words are recorded verbatim before anything interprets them, the
        reply after; an utterance over the length limit is answered and neither recorded nor
        interpreted. Another user's conversation (HA 2026.11+ gives a chat session to the user who
        started it) is answered that it is someone else's, and nothing else happens.
        """
        try:
            with chat_session(self.hass, user_input.conversation_id, user_input.context) as session:
                pass  # fixes the conversation id now (a new one when none was given) for the transcript
        except Unauthorized:  # HA 2026.11+: another user's conversation; nothing is read or done
            return _not_yours(user_input)
        user_input = replace(user_input, conversation_id=session.conversation_id)
        turn = start_turn(
            self.hass,
            self._data.options,
            conversation_id=session.conversation_id,
            text=user_input.text,
            language=user_input.language,
            context=user_input.context,
            device_id=user_input.device_id,
            satellite_id=user_input.satellite_id,
            recognizer=self._data.recognizer,
        )
        if (problem := utterance_problem(user_input.text)) is not None:
            return self._reply(turn, reply(turn.language, problem))
        # a turn of this conversation asking this agent again (a script, an agent wrapping it) is
        # part of that turn: it does not wait for it
        within = current_turn(turn.conversation_id) is not None
        with active(turn):
            async with nullcontext(True) if within else self._queue.turn(turn.conversation_id) as ours:
                self._record(turn, Role.USER, turn.text)  # in turn order: question, answer, question …
                result = await self._async_safe_turn(user_input, turn) if ours else self._busy(turn)
                self._record(turn, Role.ASSISTANT, _speech(result))
        async_note_turn(  # learning: the conversation ends later (idle or chat session end)
            self.hass,
            self._entry,
            session.conversation_id,
            speaker=turn.speaker,
            language=user_input.language,
            session=session,
        )
        return result

    async def _async_safe_turn(
        self, user_input: conversation.ConversationInput, turn: Turn
    ) -> conversation.ConversationResult:
        """_async_turn, with a reply whatever happens: "busy" when something else holds the
        conversation (BUSY_ERRORS), "something went wrong" on any other failure (logged)."""
        try:
            return await self._async_turn(user_input, turn)
        except BUSY_ERRORS:
            return self._busy(turn)
        except Exception:  # a turn always gets a reply; the cause goes to the log
            _LOGGER.exception("Memory agent failed on a turn")
            return self._reply(turn, reply(turn.language, "turn_failed"))

    def _busy(self, turn: Turn) -> conversation.ConversationResult:
        """The reply to a turn that came while another turn of its conversation still runs."""
        return self._reply(turn, reply(turn.language, "busy"))

    def _record(self, turn: Turn, role: Role, text: str) -> None:
        record_turn(
            self._entry,
            turn.conversation_id,
            role,
            text,
            speaker=turn.speaker,
            language=turn.language,
        )

    async def _async_turn(
        self, user_input: conversation.ConversationInput, turn: Turn
    ) -> conversation.ConversationResult:
        """The turn's answer: a memory sentence (_async_match), else _async_answer. An opening
        answer word set off by punctuation and followed by a request of its own ("No, turn on the
        kitchen light.", "Okay, what time is it?": answer_then, _async_goes_on) is two turns in
        one: a plain yes or no answers a waiting question (an acknowledgement drops it, as any
        other sentence does), then the request is answered (_async_go_on)."""
        opened = answer_then(turn.text, turn.language)
        goes_on = await self._async_goes_on(turn, opened.rest) if opened else None
        if opened is None or not goes_on:
            # a long "no" that only says more still declines ("No, forget it, I still need …")
            declined = opened is not None and goes_on is False and opened.answer == "no"
            if (match := await self._async_match(turn, declined=declined)) is not None:
                return await self._async_handle_sentence(user_input, turn, match)
            return await self._async_answer(user_input, turn)
        data = self._data
        answered = None
        if (pending := data.pending.get(turn.conversation_id)) is not None:
            if opened.plain:
                confirm = SentenceMatch(INTENT_CONFIRM, {SLOT_ANSWER: opened.answer})
                answered = await self._async_handle_sentence(user_input, turn, confirm)
            elif may_answer(turn, pending):  # an acknowledgement answers nothing: moved on
                _drop_pending(data, turn.conversation_id)
        return await self._async_go_on(user_input, turn, opened.rest, answered)

    async def _async_goes_on(self, turn: Turn, then: str) -> bool | None:
        """What `then`, said after an opening answer word, does. True: it asks for something of
        its own — a memory sentence that names something ("remember that the bins go out on
        Wednesday"; names_something), else what Home Assistant's agent matches exactly ("turn on
        the kitchen light"). False: it only says more of the answer, a forget or remember that
        names nothing ("forget it, I still need that key", "merk dir das bitte nicht"). None:
        neither (how long it is decides nothing: "Yes? Sorry, what did you ask?" is no yes)."""
        intents = await async_get_sentences(self.hass, turn.language)
        match = match_sentence(intents, for_matching(then), skip=(INTENT_CONFIRM,)) if intents else None
        if match is not None:
            named = match.slots.get(SLOT_QUERY, match.slots.get(SLOT_CONTENT))
            return match.intent_type not in (INTENT_FORGET, INTENT_REMEMBER) or names_something(
                named, turn.language
            )
        hass = self.hass
        found = await async_strict_intent(
            hass, then, turn.language, device_id=turn.device_id, satellite_id=turn.satellite_id
        )
        return True if found is not None else None

    async def _async_match(self, turn: Turn, *, declined: bool = False) -> SentenceMatch | None:
        """The memory sentence of this turn. Yes/no only counts while a question waits: a short
        reply opening with yes or no answers it ("Yes, forget it.", "Nein, behalte es.",
        "No, forget that" to an offer to remember), and so does a longer "no" that only says
        more of it (`declined`: "No, forget it, I still need that key for the cellar."; a longer
        "yes" never does); any other sentence of the asker's — a memory sentence or not: a
        device command, a question — drops the question (someone else's, in the same
        conversation, leaves it to the asker)."""
        data = self._data
        pending = data.pending.get(turn.conversation_id)
        intents = await async_get_sentences(self.hass, turn.language)
        if intents is None:
            return None
        if pending is not None and (
            answer := yes_or_no(turn.text, turn.language) or ("no" if declined else None)
        ):
            return SentenceMatch(INTENT_CONFIRM, {SLOT_ANSWER: answer})
        skip = () if pending is not None else (INTENT_CONFIRM,)
        match = match_sentence(intents, for_matching(turn.text), skip=skip)
        if pending is None or (match is not None and match.intent_type == INTENT_CONFIRM):
            return match
        if (
            match is not None
            and pending.ask is Ask.REMEMBER
            and match.intent_type == INTENT_FORGET
            and is_filler(match.slots.get(SLOT_QUERY), turn.language)
        ):
            return SentenceMatch(INTENT_CONFIRM, {SLOT_ANSWER: "no"})
        if may_answer(turn, pending):  # the asker moved on: nothing is done
            _drop_pending(data, turn.conversation_id)
        return match

    async def _async_handle_sentence(
        self, user_input: conversation.ConversationInput, turn: Turn, match: SentenceMatch
    ) -> conversation.ConversationResult:
        """Dispatch a memory sentence through HA's intents and log the turn in the chat log."""
        hass = self.hass
        with (
            chat_session(hass, turn.conversation_id, user_input.context) as session,
            conversation.async_get_chat_log(hass, session, user_input) as chat_log,
        ):
            slots = {name: {"value": value} for name, value in match.slots.items()}
            slots[SLOT_CONVERSATION_ID] = {"value": turn.conversation_id}
            try:
                response = await intent.async_handle(
                    hass,
                    DOMAIN,
                    match.intent_type,
                    slots,
                    text_input=turn.text,
                    context=user_input.context,
                    language=user_input.language,
                    assistant=conversation.DOMAIN,
                    device_id=user_input.device_id,
                    satellite_id=user_input.satellite_id,
                    conversation_agent_id=self.entity_id,
                )
            except intent.IntentError:
                _LOGGER.exception("Memory intent %s failed", match.intent_type)
                response = intent.IntentResponse(language=user_input.language)
                response.async_set_error(
                    intent.IntentResponseErrorCode.FAILED_TO_HANDLE,
                    reply(user_input.language, "store_unavailable"),
                )
            speech = response.speech.get("plain", {}).get("speech", "")
            chat_log.async_add_assistant_content_without_tools(
                conversation.AssistantContent(
                    agent_id=self.entity_id or DOMAIN, content=await self._async_for_model(turn, speech)
                )
            )
        return self._result(turn, response)

    async def _async_for_model(self, turn: Turn, speech: str) -> str:
        """A memory reply as the chat log keeps it for the wrapped agent's model, which reads the
        conversation's history at its next turn: what the speaker heard, unless it reads out
        something this model may not be told (a sensitive memory to a cloud model: the audience's
        rule, engine/audience.py), then WITHHELD_REPLY."""
        hass = self.hass
        audience = await async_for_model(
            hass, self._data, turn.speaker, agent_domain(hass, self._wrapped_agent_id())
        )
        if audience.withholds_text(sensitive=True, personal=False) is None or not is_sensitive(speech):
            return speech  # this model may hear it (classified only when it could not)
        return WITHHELD_REPLY

    async def _async_go_on(
        self,
        user_input: conversation.ConversationInput,
        turn: Turn,
        then: str,
        answered: conversation.ConversationResult | None,
    ) -> conversation.ConversationResult:
        """`then`, the request said after an opening answer word, answered as a turn of its own
        (a memory sentence, else _async_answer); one reply speaks the question's answer first
        ("Okay, I won't remember it. Turned on the light."). What was answered stays said when
        the request fails, and the conversation stays open while a question still waits
        (someone else's, which this turn could not answer)."""
        rest = replace(turn, text=then, hits=None)
        try:
            with active(rest):
                result = await self._async_turn(replace(user_input, text=then), rest)
        except Exception:  # the question's answer is done and must be told
            if answered is None:
                raise
            _LOGGER.exception("Memory agent failed on a turn")
            result = self._reply(rest, reply(turn.language, "turn_failed"))
        if answered is not None:
            said = [_speech(answered), _speech(result)]
            result.response.async_set_speech(" ".join(s for s in said if s))
        if turn.conversation_id in self._data.pending and not result.continue_conversation:
            result = self._result(turn, result.response)
        return result

    async def _async_answer(
        self, user_input: conversation.ConversationInput, turn: Turn
    ) -> conversation.ConversationResult:
        """Not a memory sentence: with an LLM, the wrapped agent answers with the turn's memories
        in its prompt (a close memory steps in when it did not understand); without one,
        `_async_answer_without_llm` decides who answers."""
        agent_id = self._wrapped_agent_id()
        if agent_id == conversation.HOME_ASSISTANT_AGENT:
            return await self._async_answer_without_llm(user_input, turn)
        hits = await async_recall_once(self.hass, self._data, turn)
        return await self._async_agent_or_memory_answer(user_input, turn, agent_id, hits)

    async def _async_answer_without_llm(
        self, user_input: conversation.ConversationInput, turn: Turn
    ) -> conversation.ConversationResult:
        """Home Assistant's own agent answers what it matches exactly (its sentence templates
        with every entity found, or an automation's sentence trigger: "What time is it?", "Turn
        on the kitchen light"); that is decided before recall, as its agent reads no memory
        block: such a turn recalls nothing and counts no memory as used. Otherwise a question is
        answered from memory when a memory answers it (by meaning, or the top memory sharing its
        words: "Where is the drill?"), a statement is offered to be remembered (or noted, with
        learning on), and the rest (loosely phrased commands, fragments, questions no memory
        answers) goes to HA's agent."""
        hass = self.hass
        agent_id = conversation.HOME_ASSISTANT_AGENT
        if await async_strict_intent(
            hass, turn.text, turn.language, device_id=turn.device_id, satellite_id=turn.satellite_id
        ):
            return await self._async_delegate(user_input, turn, agent_id, [])
        hits = await async_recall_once(hass, self._data, turn)
        if is_question(turn.text, turn.language):
            if (answer := self._memory_answer(hits, turn, by_words=True)) is not None:
                return self._reply(turn, answer)
        elif is_statement(turn.text, turn.language):
            return self._offer_to_remember(turn)
        return await self._async_agent_or_memory_answer(user_input, turn, agent_id, hits)

    async def _async_agent_or_memory_answer(
        self, user_input: conversation.ConversationInput, turn: Turn, agent_id: str, hits: list[Hit]
    ) -> conversation.ConversationResult:
        """The wrapped agent's answer (_async_delegate), or a memory at least answer_similarity
        close when the agent did not understand the turn (NOT_UNDERSTOOD) — and when none is, an
        unknown speaker's question about themself hears that private memories need a recognised
        voice or a personal device (engine/audience.needs_recognition: the same whether or not
        anyone has such a memory)."""
        result = await self._async_delegate(user_input, turn, agent_id, hits)
        if _understood(result):
            return result
        if (answer := self._memory_answer(hits, turn)) is not None:
            return self._reply(turn, answer)
        text, language = turn.text, turn.language
        if is_question(text, language) and needs_recognition(turn.speaker, text, language):
            return self._reply(turn, reply(language, "needs_recognition"))
        return result

    async def _async_delegate(
        self, user_input: conversation.ConversationInput, turn: Turn, agent_id: str, hits: list[Hit]
    ) -> conversation.ConversationResult:
        """Hand the turn to the wrapped agent with who speaks (llm_api.speaker_line) and one memory
        block in its system prompt (a Memory LLM API of that agent reads the same turn and adds no
        second block)."""
        hass = self.hass
        # the turn's hits re-told for the agent's model (a cloud model is told less than the person)
        audience = await async_for_model(hass, self._data, turn.speaker, agent_domain(hass, agent_id))
        block = turn_block(hass, self._data, hits, audience)
        said_by = speaker_line(hass, turn.speaker)
        extra_prompt = "\n\n".join(p for p in (said_by, block, user_input.extra_system_prompt) if p)
        result = await conversation.async_converse(
            hass,
            user_input.text,
            turn.conversation_id,
            user_input.context,
            user_input.language,
            agent_id=agent_id,
            device_id=user_input.device_id,
            satellite_id=user_input.satellite_id,
            extra_system_prompt=extra_prompt,
        )
        for busy in BUSY_ERRORS:
            if _found(error := busy(turn.conversation_id), result):  # answered "busy" (_async_safe_turn)
                raise error
        return result

    def _offer_to_remember(self, turn: Turn) -> conversation.ConversationResult:
        """A statement no agent understood: "Okay, noted." when learning will read this
        conversation, else "Should I remember that?" waiting for yes/no."""
        data = self._data
        if learning_allowed(data.options, turn.speaker.area_id):
            return self._reply(turn, reply(turn.language, "noted"))
        data.pending[turn.conversation_id] = question(
            turn, Ask.REMEMBER, content=turn.text, language=turn.language
        )
        return self._reply(turn, reply(turn.language, "remember_offer"))

    def _reply(self, turn: Turn, speech: str) -> conversation.ConversationResult:
        response = intent.IntentResponse(language=turn.language)
        response.async_set_speech(speech)
        return self._result(turn, response)

    def _result(self, turn: Turn, response: intent.IntentResponse) -> conversation.ConversationResult:
        """The turn's result; while a question waits for yes/no the conversation stays open, and
        the question is dropped when the chat session ends."""
        data = self._data
        conversation_id = turn.conversation_id
        waiting = conversation_id in data.pending
        if waiting:
            with chat_session(self.hass, conversation_id, turn.context) as session:
                session.async_on_cleanup(lambda: _drop_pending(data, conversation_id))
        return conversation.ConversationResult(
            response=response, conversation_id=conversation_id, continue_conversation=waiting
        )

    def _wrapped_agent_id(self) -> str:
        """The configured agent, or HA's default agent when unset, missing or this agent itself."""
        agent_id = self._data.options.get(CONF_AGENT) or conversation.HOME_ASSISTANT_AGENT
        if agent_id in (self.entity_id, self._entry.entry_id):
            return conversation.HOME_ASSISTANT_AGENT
        if conversation.async_get_agent(self.hass, agent_id) is None:
            _LOGGER.warning("Wrapped conversation agent %s not found, using Home Assistant's", agent_id)
            return conversation.HOME_ASSISTANT_AGENT
        return agent_id

    def _memory_answer(self, hits: list[Hit], turn: Turn, *, by_words: bool = False) -> str | None:
        """The spoken answer from the memory closest in meaning, when it is close enough
        (answer_similarity) — or, with `by_words`, else from the top-ranked memory when it shares
        a rare word or identifier with the question (the lexical leg: "Where is the drill?" ->
        "the drill is on the left shelf …", whose cosine alone is low). It names another teller
        ("Julian told me: …": its "I" is Julian) and the day it was said when not today; never a
        memory a newer one in `hits` likely replaces (Hit.outdated_by): that newer one instead; a
        sensitive one an unknown speaker may not hear is said to be withheld. None when no memory
        answers."""
        threshold = float(self._data.options.get(CONF_ANSWER_SIMILARITY, DEFAULT_ANSWER_SIMILARITY))
        # by meaning, not by rank: shared words lift a memory in the question's language above
        # the answer told in another one ("our dog?" -> "Der Hund heißt Bruno.")
        best = max(hits, key=lambda h: h.similarity, default=None)
        if best is None:
            return None
        if best.similarity < threshold:
            top = hits[0]
            if not (by_words and top.factors.get("lexical", 0.0) > 0 and "about_speaker" not in top.factors):
                return None
            best = top
        # a newer memory of the slate that likely replaces it is what holds now
        memory = answer_hit(best, hits).memory
        language = turn.language
        if memory.withheld is not None:  # the turn's recall decided it (turn.async_recall_once)
            return reply(language, "withheld")
        items = quote_all([memory.content])
        (name,) = other_tellers(self.hass, turn.speaker, [memory])
        day = said_on(memory, language)
        key = "from_memory" + ("_by" if name else "") + ("_dated" if day else "")
        return reply(language, key, name=name, items=items, date=day)


def _not_yours(user_input: conversation.ConversationInput) -> conversation.ConversationResult:
    """The answer to a turn in another user's conversation: no conversation to go on with."""
    response = intent.IntentResponse(language=user_input.language)
    response.async_set_speech(reply(user_input.language, "not_your_conversation"))
    return conversation.ConversationResult(response=response, conversation_id=None)


def _speech(result: conversation.ConversationResult) -> str:
    """The plain speech of a result ("" when it has none)."""
    return str(result.response.speech.get("plain", {}).get("speech", ""))


def _found(error: Exception, result: conversation.ConversationResult) -> bool:
    """Whether `result` is HA's agent manager handing on `error` of the wrapped agent (an UNKNOWN
    error with the error's text): how a ConversationBusyError comes back from async_converse."""
    response = result.response
    return response.error_code is intent.IntentResponseErrorCode.UNKNOWN and _speech(result) == str(error)


def _understood(result: conversation.ConversationResult) -> bool:
    """False when the agent could not make sense of the turn (NOT_UNDERSTOOD)."""
    response = result.response
    return (
        response.response_type != intent.IntentResponseType.ERROR or response.error_code not in NOT_UNDERSTOOD
    )


def _drop_pending(data: MemoryRuntimeData, conversation_id: str) -> None:
    data.pending.pop(conversation_id, None)
