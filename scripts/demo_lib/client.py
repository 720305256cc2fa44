"""A small Home Assistant client: REST and WebSocket, as the frontend or a satellite uses them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any

import aiohttp

CALL_TIMEOUT = 120  # seconds for one WebSocket command or REST call (first recall loads the encoder)


class HAError(Exception):
    """Home Assistant answered with an error."""


class HAClient:
    """One user's connection: bearer token for REST, one authenticated WebSocket."""

    def __init__(self, session: aiohttp.ClientSession, base_url: str, token: str, name: str) -> None:
        self.name = name
        self._session = session
        self._base = base_url
        self._token = token
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._ids = itertools.count(1)

    def another(self, name: str) -> HAClient:
        """A second, not yet connected client with the same user's token."""
        return HAClient(self._session, self._base, self._token, name)

    # --- REST -------------------------------------------------------------
    async def rest(self, method: str, path: str, payload: Any = None) -> Any:
        """JSON in, JSON out; raises HAError on a status >= 400."""
        async with self._session.request(
            method,
            self._base + path,
            json=payload,
            headers={"Authorization": f"Bearer {self._token}"},
            timeout=aiohttp.ClientTimeout(total=CALL_TIMEOUT),
        ) as resp:
            body = await resp.text()
            if resp.status >= 400:
                raise HAError(f"{method} {path} -> {resp.status}: {body[:500]}")
            return await resp.json(content_type=None) if body else None

    # --- WebSocket --------------------------------------------------------
    async def connect(self) -> None:
        """Open the WebSocket and authenticate."""
        self._ws = await self._session.ws_connect(self._base + "/api/websocket", max_msg_size=0)
        hello = await self._ws.receive_json()
        assert hello["type"] == "auth_required", hello
        await self._ws.send_json({"type": "auth", "access_token": self._token})
        reply = await self._ws.receive_json()
        if reply["type"] != "auth_ok":
            raise HAError(f"WebSocket auth failed for {self.name}: {reply}")

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
            self._ws = None

    async def _send(self, msg_type: str, **fields: Any) -> int:
        assert self._ws is not None, "connect() first"
        msg_id = next(self._ids)
        try:
            await self._ws.send_json({"id": msg_id, "type": msg_type, **fields})
        except ConnectionError:
            # HA closes a WebSocket that did not answer its heartbeat pings (autoping only
            # answers while someone reads): after a long unread wait, log in again and resend.
            await self.close()
            await self.connect()
            await self._ws.send_json({"id": msg_id, "type": msg_type, **fields})
        return msg_id

    async def _receive(self, msg_id: int) -> dict[str, Any]:
        assert self._ws is not None
        while True:
            msg = await asyncio.wait_for(self._ws.receive_json(), CALL_TIMEOUT)
            if msg.get("id") == msg_id:
                return msg

    async def ws(self, msg_type: str, **fields: Any) -> Any:
        """One WebSocket command; returns its result, raises HAError on failure."""
        msg_id = await self._send(msg_type, **fields)
        msg = await self._receive(msg_id)
        if not msg.get("success", False):
            raise HAError(f"{msg_type} failed: {msg.get('error')}")
        return msg.get("result")

    async def first_event(self, msg_type: str, **fields: Any) -> dict[str, Any]:
        """Subscribe with `msg_type`, return the subscription's first event (e.g. HA's
        `conversation/chat_log/subscribe` initial state), then unsubscribe."""
        msg_id = await self._send(msg_type, **fields)
        reply = await self._receive(msg_id)
        if not reply.get("success", False):
            raise HAError(f"{msg_type} failed: {reply.get('error')}")
        try:
            event: dict[str, Any] = (await self._receive(msg_id)).get("event") or {}
        finally:
            with contextlib.suppress(HAError):  # gone already (a deleted chat log ends it)
                await self.ws("unsubscribe_events", subscription=msg_id)
        return event

    async def run_pipeline(
        self,
        text: str,
        *,
        pipeline_id: str,
        device_id: str | None,
        conversation_id: str | None = None,
    ) -> dict[str, Any]:
        """A text turn through an Assist pipeline (intent stage only), as a satellite sends it.

        Returns the intent-end event's `intent_output` (a ConversationResult as dict:
        response.speech.plain.speech, response.response_type, conversation_id,
        continue_conversation). Raises HAError on a pipeline error event.
        """
        fields: dict[str, Any] = {"start_stage": "intent", "input": {"text": text}}
        if conversation_id:
            fields["conversation_id"] = conversation_id
        _, output = await self._run(fields, pipeline_id=pipeline_id, device_id=device_id)
        return output

    async def run_voice_pipeline(
        self, pcm: bytes, *, pipeline_id: str, device_id: str | None, chunk: int = 1024
    ) -> tuple[str, dict[str, Any]]:
        """A spoken turn through an Assist pipeline from the speech-to-text stage, as a satellite
        streams it: 16-bit mono 16 kHz `pcm` sent as binary WebSocket frames (the run's
        stt_binary_handler_id byte, then the audio; an empty frame ends it).

        Returns (the transcript, the intent-end event's `intent_output`). Raises HAError on a
        pipeline error event.
        """
        fields = {"start_stage": "stt", "input": {"sample_rate": 16000}}
        return await self._run(fields, pipeline_id=pipeline_id, device_id=device_id, pcm=pcm, chunk=chunk)

    async def _run(
        self,
        fields: dict[str, Any],
        *,
        pipeline_id: str,
        device_id: str | None,
        pcm: bytes | None = None,
        chunk: int = 1024,
    ) -> tuple[str, dict[str, Any]]:
        """One assist_pipeline/run up to the intent stage; `pcm` is streamed when the run starts.
        Returns (the transcript, or "" without speech-to-text; the intent output)."""
        msg_id = await self._send(
            "assist_pipeline/run", end_stage="intent", pipeline=pipeline_id, device_id=device_id, **fields
        )
        first = await self._receive(msg_id)
        if not first.get("success", False):
            raise HAError(f"assist_pipeline/run failed: {first.get('error')}")
        transcript, output = "", None
        while True:
            event = (await self._receive(msg_id)).get("event", {})
            kind, data = event.get("type"), event.get("data") or {}
            if kind == "run-start" and pcm is not None:
                assert self._ws is not None
                handler = bytes([data["runner_data"]["stt_binary_handler_id"]])
                for start in range(0, len(pcm), chunk):
                    await self._ws.send_bytes(handler + pcm[start : start + chunk])
                await self._ws.send_bytes(handler)
            elif kind == "stt-end":
                transcript = str((data.get("stt_output") or {}).get("text") or "")
            elif kind == "intent-end":
                output = data.get("intent_output") or {}
            elif kind == "error":
                raise HAError(f"pipeline error {data.get('code')}: {data.get('message')}")
            elif kind == "run-end":
                if output is None:
                    raise HAError("pipeline ended without an intent-end event")
                return transcript, output


def speech_of(intent_output: dict[str, Any]) -> str:
    """The spoken answer of a ConversationResult dict ('' when there is none)."""
    speech = (intent_output.get("response") or {}).get("speech") or {}
    return str((speech.get("plain") or {}).get("speech") or "")


class EventListener:
    """A WebSocket of its own subscribed to one event type (so command replies on the other
    connections never swallow an event); keeps every event's data, in order."""

    def __init__(self, client: HAClient, event_type: str) -> None:
        self.events: list[dict[str, Any]] = []
        self._client = client
        self._event_type = event_type
        self._arrived = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._client.connect()
        await self._client.ws("subscribe_events", event_type=self._event_type)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        ws = self._client._ws
        assert ws is not None
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            data = msg.json()
            if data.get("type") == "event":
                self.events.append((data.get("event") or {}).get("data") or {})
                self._arrived.set()

    async def wait_for(self, conversation_ids: set[str], seconds: float) -> dict[str, dict[str, Any]]:
        """The event data for each of `conversation_ids` (by conversation_id), waiting up to
        `seconds` for all of them; returns what arrived (possibly fewer)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while True:
            found = {
                e["conversation_id"]: e for e in self.events if e.get("conversation_id") in conversation_ids
            }
            left = deadline - loop.time()
            if len(found) == len(conversation_ids) or left <= 0:
                return found
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        await self._client.close()
