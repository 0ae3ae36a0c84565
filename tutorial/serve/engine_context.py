"""How many tokens an OpenAI-compatible engine can hold, when it says: asked of llama.cpp's
server (GET /props) and of vLLM and SGLang (GET /v1/models, `max_model_len`).

    await context_size(client, "http://127.0.0.1:8080/v1/chat/completions")   # 32768, or None

The bridge (forward.py) lowers a request's max_tokens to it: nothing past the context can be
generated, and agent CLIs ask for more than a small engine holds.

It is learnt in the background (`EngineContext`): asked when the bridge starts, and again every
RETRY_SECONDS while the engine does not answer, each question limited to PROBE_SECONDS. A
request never waits for it: an engine that is frozen or not up yet would hold the client's
first event for the whole probe (5 s on a fresh bridge, measured before this rule). Until the
size is known, max_tokens goes to the engine as asked, and the capture says so.
"""

from __future__ import annotations

import asyncio
from typing import Any, Optional

import httpx

PROBE_SECONDS = 5.0  # an engine that does not answer this quickly is taken not to say
RETRY_SECONDS = 2.0  # between questions while the engine does not answer (not up yet, or frozen)
NOT_YET = "not yet known"  # what the capture says while the question is still out
NOT_SAID = "not said by the engine"  # the engine answered without saying its context

UNANSWERED = object()  # neither address answered at all: the engine may not be up yet


async def context_size(client: httpx.AsyncClient, chat_url: str) -> Any:
    """The engine's context in tokens; None when it answers but does not say; UNANSWERED
    when it did not answer (so the caller may ask again later)."""
    root = chat_url[: -len("/chat/completions")] if chat_url.endswith("/chat/completions") else chat_url  # .../v1
    base = root[: -len("/v1")] if root.endswith("/v1") else root
    answered, late = False, False
    for url, read in ((base + "/props", props_context), (root + "/models", models_context)):
        try:
            response = await client.get(url, timeout=PROBE_SECONDS)
        except httpx.TimeoutException:
            late = True  # a frozen or busy engine: its answer may still say it
            continue
        except httpx.HTTPError:
            continue
        answered = True
        try:
            context = read(response.json()) if response.status_code == 200 else None
        except ValueError:
            context = None
        if context is not None:
            return context
    return None if answered and not late else UNANSWERED


def props_context(answer: Any) -> Optional[int]:
    """llama.cpp's GET /props: the context of one slot."""
    if not isinstance(answer, dict):
        return None
    settings = answer.get("default_generation_settings")
    for value in ((settings if isinstance(settings, dict) else {}).get("n_ctx"), answer.get("n_ctx")):
        if _positive(value):
            return value
    return None


def models_context(answer: Any) -> Optional[int]:
    """An OpenAI-style GET /v1/models whose first model says max_model_len (vLLM, SGLang)."""
    models = answer.get("data") if isinstance(answer, dict) else None
    if isinstance(models, list) and models and isinstance(models[0], dict) and _positive(models[0].get("max_model_len")):
        return models[0]["max_model_len"]
    return None


def _positive(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


class EngineContext:
    """The engine's context size, learnt in the background (see the module's docstring).

    `size` is an int once the engine has said it; NOT_YET while nobody knows; NOT_SAID when
    the engine answered without saying. Reading it never waits."""

    def __init__(self, chat_url: str):
        self.chat_url = chat_url
        self.size: Any = NOT_YET
        self._task: Optional[asyncio.Task] = None

    def start(self, client: httpx.AsyncClient) -> None:
        """Begin asking, inside the server's event loop."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._learn(client))

    async def _learn(self, client: httpx.AsyncClient) -> None:
        while True:
            answer = await context_size(client, self.chat_url)
            if answer is not UNANSWERED:
                self.size = NOT_SAID if answer is None else answer
                return
            await asyncio.sleep(RETRY_SECONDS)

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            await asyncio.wait({self._task})
        self._task = None
