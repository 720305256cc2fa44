"""The loaded GGUF model of one config entry: blocking calls, to be run in the executor.

llama_cpp is imported only here and only when a model is loaded, so Home Assistant can import
the integration without it; a missing package or model file raises ModelUnavailable with a
message saying how to get it. One Llama instance is not thread-safe: a lock serialises calls.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from homeassistant.components import conversation

from .const import CONTEXT_TOKENS, MAX_ANSWER_TOKENS, SEED


class ModelUnavailable(Exception):
    """llama-cpp-python is not installed or the model file is missing or unreadable."""


class LocalModel:
    """A llama.cpp chat model. Every method blocks (seconds): call it via the executor."""

    def __init__(self, model_path: str, threads: int) -> None:
        """Load the model (about a second for the 1.5B from the page cache, ~2 GB RSS)."""
        if not Path(model_path).is_file():
            raise ModelUnavailable(
                f"model file {model_path} not found: run scripts/python scripts/local_llm_model.py"
            )
        try:
            from llama_cpp import Llama  # noqa: PLC0415  # optional, development-only
        except ImportError as err:
            raise ModelUnavailable(
                "llama-cpp-python is not installed: run scripts/test-llm once, or "
                "pip install -r requirements/llm.txt"
            ) from err
        try:
            self._llm: Any = Llama(
                model_path=model_path, n_ctx=CONTEXT_TOKENS, n_threads=threads, seed=SEED, verbose=False
            )
        except (ValueError, RuntimeError) as err:  # llama_cpp raises ValueError on a bad file
            raise ModelUnavailable(f"could not load {model_path}: {err}") from err
        self._lock = threading.Lock()

    def chat(self, messages: list[dict[str, str]], schema: dict[str, Any] | None = None) -> str:
        """The assistant's reply to OpenAI-style `messages` (temperature 0). With `schema` (a JSON
        schema) the reply is constrained by a grammar to JSON matching it."""
        kwargs: dict[str, Any] = {"temperature": 0.0, "max_tokens": MAX_ANSWER_TOKENS}
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        with self._lock:
            answer = self._llm.create_chat_completion(messages=messages, **kwargs)
        return str(answer["choices"][0]["message"]["content"] or "")

    def close(self) -> None:
        """Free the model's memory (unload)."""
        with self._lock:
            self._llm.close()


def chat_log_messages(
    chat_log: conversation.ChatLog, schema: dict[str, Any] | None = None
) -> list[dict[str, str]]:
    """The chat log as OpenAI-style messages (system, user, assistant; tool turns left out).

    With `schema`, the system prompt also states it: small models follow the grammar better when
    they are told what the fields mean (descriptions, enums)."""
    messages: list[dict[str, str]] = []
    for content in chat_log.content:
        if isinstance(content, conversation.SystemContent | conversation.UserContent):
            messages.append({"role": content.role, "content": content.content})
        elif isinstance(content, conversation.AssistantContent) and content.content:
            messages.append({"role": "assistant", "content": content.content})
    if schema is not None:
        hint = "Answer with JSON only, matching this JSON schema:\n" + json.dumps(schema, ensure_ascii=False)
        if messages and messages[0]["role"] == "system":
            messages[0] = {"role": "system", "content": f"{messages[0]['content']}\n\n{hint}"}
        else:
            messages.insert(0, {"role": "system", "content": hint})
    return messages
