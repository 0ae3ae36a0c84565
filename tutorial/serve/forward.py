"""The bridge to an OpenAI-compatible engine: `--forward URL`.

The body goes there as the "openai" target translates it — the messages and tools of
`tutorial.translate(body, target="openai")` — with the sampling parameters renamed to
the Chat Completions API's names. The engine's answer comes back through the way back:
its message (assembled from the chunks when streamed) becomes the `parsed` form
`tutorial.build_reply` takes, and build_reply makes the reply blocks and stop reason.

Whatever goes wrong on the engine's side becomes an `ApiError`, so the client always
gets an Anthropic error envelope, never a hang: the engine cannot be reached or breaks
the connection (502 api_error), it is busy (502 overloaded_error), it does not answer
within the timeout (504 overloaded_error), or its answer is not a chat completion (502
api_error). One exception, on purpose: when the engine refuses the request itself
(HTTP 400, 413 or 422 — a prompt longer than its context, say), the client gets a 400
invalid_request_error with the engine's words. A 5xx would make the SDKs and agent CLIs
send the same doomed request again and again.

Streaming is used on the engine's side when the client asked for a stream: the timeout
then bounds the wait for each chunk rather than for the whole answer, so a long
generation is not cut off. The reply is relayed once the engine has finished, because
the way back (`build_reply`, `sse_events`) works on a whole reply.
"""

from __future__ import annotations

import json
from typing import Any, Optional

import httpx

import tutorial

from .analysis import prompt_tokens, rough_token_count
from .responder import Reply
from .wire import ApiError

DEFAULT_TIMEOUT = 300.0  # seconds: a local engine can take minutes for a long answer

# Anthropic sampling parameters with the same meaning (and name) on the Chat Completions API.
SAME_NAME = ("max_tokens", "temperature", "top_p", "top_k")
# Read here (or by the translation) rather than left behind.
USED = {"model", "system", "messages", "tools", "stream", "stop_sequences", "tool_choice", *SAME_NAME}


def chat_completions_url(url: str) -> str:
    """`http://host:8000` -> `http://host:8000/v1/chat/completions`; a URL already ending
    in /chat/completions is kept, and one ending in /v1 gets /chat/completions."""
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


class Forwarder:
    """Sends requests to one engine. `model` replaces the request's model name (an engine
    serves its own model under its own name); `api_key` is sent to the engine as a bearer
    token and never kept in a capture."""

    def __init__(
        self, url: str, *, model: Optional[str] = None, timeout: float = DEFAULT_TIMEOUT, api_key: Optional[str] = None
    ):
        self.url = chat_completions_url(url)
        self.model = model
        self.timeout = timeout
        self._api_key = api_key
        self._client: Optional[httpx.AsyncClient] = None

    def __repr__(self) -> str:
        return f"Forwarder({self.url!r}, model={self.model!r}, timeout={self.timeout})"

    async def open(self) -> None:
        """Make the HTTP client inside the server's event loop (it belongs to that loop)."""
        headers = {"authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout), headers=headers, trust_env=False)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def engine_request(self, body: dict) -> dict:
        """The Chat Completions request for `body` (raises RequestError if the openai target refuses it):
        what the capture shows, so mid-list system messages are folded first, as `trace` does."""
        messages, tools = tutorial.translate(tutorial.preprocess(body), target="openai")
        request: dict = {"model": self.model or body.get("model") or "default", "messages": messages}
        if tools:
            request["tools"] = tools
            choice = tool_choice(body.get("tool_choice"))
            if choice is not None:
                request.update(choice)
        for name in SAME_NAME:
            if body.get(name) is not None:
                request[name] = body[name]
        if body.get("stop_sequences"):
            request["stop"] = body["stop_sequences"]
        if body.get("stream"):
            request["stream"] = True
            request["stream_options"] = {"include_usage": True}  # the usage comes in the last chunk
        return request

    async def reply(self, body: dict, request: dict, record: dict) -> Reply:
        """Send `request` and turn the engine's answer into a Reply. `record` (the
        capture's "forward" entry) is filled with what came back, even on failure."""
        if self._client is None:
            raise ApiError(500, "the forwarder is not open (the server's startup did not run)")
        try:
            if request.get("stream"):
                choice, usage = await self._streamed(request, record)
            else:
                choice, usage = await self._whole(request, record)
        except httpx.TimeoutException:
            late = f"the engine at {self.url} did not answer within {self.timeout:g} s"
            raise ApiError(504, late, kind="overloaded_error")
        except httpx.ConnectError as error:
            raise ApiError(502, f"cannot reach the engine at {self.url} ({_why(error)})")
        except httpx.HTTPError as error:  # the connection broke after it was made
            raise ApiError(502, f"the connection to the engine at {self.url} failed ({_why(error)})")
        record["answer"] = {"choice": choice, "usage": usage}
        return reply_from_choice(choice, usage, body)

    async def _whole(self, request: dict, record: dict) -> tuple[dict, Optional[dict]]:
        response = await self._client.post(self.url, json=request)
        record["status"] = response.status_code
        if response.status_code >= 300:
            raise engine_refusal(response.status_code, response.text)
        return whole_answer(response.text)

    async def _streamed(self, request: dict, record: dict) -> tuple[dict, Optional[dict]]:
        async with self._client.stream("POST", self.url, json=request) as response:
            record["status"] = response.status_code
            if response.status_code >= 300:
                raise engine_refusal(response.status_code, (await response.aread()).decode("utf-8", "replace"))
            if response.headers.get("content-type", "").startswith("application/json"):
                # An engine that does not stream answers the whole completion at once.
                return whole_answer((await response.aread()).decode("utf-8", "replace"))
            stream = ChunkAssembler()
            async for line in response.aiter_lines():
                if not stream.feed(line):
                    break
        record["chunks"] = stream.chunks
        if not stream.chunks:
            raise ApiError(502, "the engine's stream ended without a single chunk")
        return stream.choice(), stream.usage


def whole_answer(text: str) -> tuple[dict, Optional[dict]]:
    """A non-streamed chat completion's text -> (its first choice, its usage)."""
    try:
        answer = json.loads(text)
    except ValueError as error:
        raise ApiError(502, f"the engine's answer is not JSON ({error}): {text[:200]!r}")
    if not isinstance(answer, dict) or not isinstance(answer.get("choices"), list) or not answer["choices"]:
        raise ApiError(502, f"the engine's answer has no choices: {text[:200]!r}")
    choice = answer["choices"][0]
    if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
        raise ApiError(502, "the engine's answer has no choices[0].message")
    return choice, answer.get("usage")


def _why(error: Exception) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def tool_choice(choice: Any) -> Optional[dict]:
    """Anthropic's tool_choice as Chat Completions fields (None: leave the engine's default)."""
    if not isinstance(choice, dict):
        return None
    fields: dict = {}
    kind = choice.get("type")
    if kind == "auto":
        fields["tool_choice"] = "auto"
    elif kind == "any":
        fields["tool_choice"] = "required"
    elif kind == "none":
        fields["tool_choice"] = "none"
    elif kind == "tool" and isinstance(choice.get("name"), str):
        fields["tool_choice"] = {"type": "function", "function": {"name": choice["name"]}}
    if choice.get("disable_parallel_tool_use") is True:
        fields["parallel_tool_calls"] = False
    return fields or None


def left_behind(body: dict) -> list[str]:
    """The top-level fields of `body` the engine request does not carry (thinking, metadata, ...)."""
    return [key for key in body if key not in USED]


class ChunkAssembler:
    """Joins the chunks of a streamed chat completion into one choice, as if not streamed."""

    def __init__(self):
        self.text, self.reasoning = "", ""
        self.calls: dict[int, dict] = {}
        self.finish_reason: Optional[str] = None
        self.matched_stop: Any = None
        self.usage: Optional[dict] = None
        self.chunks = 0

    def feed(self, line: str) -> bool:
        """Read one line of the stream; False at its end ("data: [DONE]")."""
        if not line.startswith("data:"):
            return True  # blank separators, comments, event names
        data = line[5:].strip()
        if data == "[DONE]":
            return False
        try:
            chunk = json.loads(data)
        except ValueError:
            raise ApiError(502, f"the engine's stream sent a chunk that is not JSON: {data[:200]!r}")
        if not isinstance(chunk, dict):
            raise ApiError(502, f"the engine's stream sent a chunk that is not an object: {data[:200]!r}")
        if "error" in chunk:
            raise ApiError(502, f"the engine failed while streaming: {_error_text(chunk)}")
        self.chunks += 1
        self.usage = chunk.get("usage") or self.usage
        for choice in chunk.get("choices") or []:
            if isinstance(choice, dict) and choice.get("index", 0) == 0:
                self._add(choice)
        return True

    def _add(self, choice: dict) -> None:
        delta = choice.get("delta") or {}
        self.text += delta.get("content") or ""
        self.reasoning += delta.get("reasoning_content") or delta.get("reasoning") or ""
        for call in delta.get("tool_calls") or []:
            slot = self.calls.setdefault(call.get("index", len(self.calls)), {"id": None, "name": "", "arguments": ""})
            slot["id"] = call.get("id") or slot["id"]
            function = call.get("function") or {}
            slot["name"] += function.get("name") or ""
            slot["arguments"] += function.get("arguments") or ""
        self.finish_reason = choice.get("finish_reason") or self.finish_reason
        for name in ("matched_stop", "stop_reason"):
            if choice.get(name) is not None:
                self.matched_stop = choice[name]

    def choice(self) -> dict:
        message: dict = {"role": "assistant", "content": self.text}
        if self.reasoning:
            message["reasoning_content"] = self.reasoning
        if self.calls:
            message["tool_calls"] = [
                {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}
                for _, call in sorted(self.calls.items())
            ]
        return {"index": 0, "message": message, "finish_reason": self.finish_reason, "matched_stop": self.matched_stop}


def reply_from_choice(choice: dict, usage: Optional[dict], body: dict) -> Reply:
    """The engine's choice -> build_reply's `parsed` form -> the reply blocks."""
    try:
        parsed = parsed_from_message(choice["message"])
        parsed["matched_stop"] = _matched_stop(choice)
        blocks, stop_reason, _kept = tutorial.build_reply(parsed, choice.get("finish_reason"))
    except tutorial.RequestError as error:
        raise ApiError(502, f"the engine's answer cannot be turned into a reply: choices[0].{error}")
    stop_sequence = parsed["matched_stop"] if stop_reason == "stop_sequence" else None
    usage = usage if isinstance(usage, dict) else {}
    return Reply(
        blocks,
        stop_reason,
        stop_sequence,
        input_tokens=_count(usage.get("prompt_tokens"), lambda: prompt_tokens(body)),
        output_tokens=_count(usage.get("completion_tokens"), lambda: rough_token_count(blocks)),
    )


def parsed_from_message(message: dict) -> dict:
    """A Chat Completions message -> {"reasoning", "text", "tool_uses"}, the arguments'
    JSON text read back into objects (located errors if it is not JSON)."""
    content = message.get("content")
    if isinstance(content, list):  # some engines send content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    uses = []
    for i, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            raise tutorial.RequestError(("message", "tool_calls", i, "function"), "is required")
        if not isinstance(function.get("name"), str):
            raise tutorial.RequestError(("message", "tool_calls", i, "function", "name"), "must be a string")
        uses.append({"name": function["name"], "input": _arguments(function.get("arguments"), i)})
    return {"reasoning": message.get("reasoning_content") or message.get("reasoning"), "text": content, "tool_uses": uses}


def _arguments(arguments: Any, i: int) -> Any:
    if not isinstance(arguments, str):
        return arguments  # already an object (or None: a call without arguments)
    if not arguments.strip():
        return {}
    try:
        return json.loads(arguments)
    except ValueError as error:
        where = ("message", "tool_calls", i, "function", "arguments")
        raise tutorial.RequestError(where, f"is not valid JSON ({error})") from None


def _matched_stop(choice: dict) -> Any:
    # SGLang reports the stop that matched as `matched_stop`, vLLM as `stop_reason`:
    # a string for a stop sequence, an integer for a stop token.
    for name in ("matched_stop", "stop_reason"):
        value = choice.get(name)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return value
    return None


def _count(reported: Any, rough) -> int:
    return reported if isinstance(reported, int) and not isinstance(reported, bool) and reported >= 0 else rough()


def engine_refusal(status: int, text: str) -> ApiError:
    message = _error_text_from(text)
    if status in (400, 413, 422):
        return ApiError(400, f"the engine refused the request (HTTP {status}): {message}")
    if status in (429, 503, 529):
        return ApiError(502, f"the engine is busy (HTTP {status}): {message}", kind="overloaded_error")
    return ApiError(502, f"the engine answered HTTP {status}: {message}")


def _error_text_from(text: str) -> str:
    try:
        return _error_text(json.loads(text))
    except ValueError:
        return text[:500] or "(no body)"


def _error_text(answer: Any) -> str:
    """The message inside the error shapes engines use: OpenAI's {"error": {"message"}},
    FastAPI's {"detail"}, or a bare {"message"}."""
    if isinstance(answer, dict):
        error = answer.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return error["message"]
        for key in ("message", "detail", "error"):
            if isinstance(answer.get(key), str):
                return answer[key]
    return json.dumps(answer, ensure_ascii=False)[:500]
