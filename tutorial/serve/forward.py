"""The bridge to an OpenAI-compatible engine: `--forward URL`.

The body goes there as the "openai" target translates it — the messages and tools of
`tutorial.translate(body, target="openai")` — with the sampling parameters renamed to
the Chat Completions API's names. The engine's answer comes back through the way back:
its message (assembled from the chunks when streamed) becomes the `parsed` form
`tutorial.build_reply` takes, and build_reply makes the reply blocks and stop reason.

Whatever goes wrong on the engine's side becomes an `ApiError`, so the client always
gets an Anthropic error envelope, never a hang, and an `x-should-retry` header that says
whether the same request can succeed later (the SDKs and agent CLIs obey it). One failure,
one type, from the types Anthropic's API documents (invalid_request_error, api_error,
overloaded_error, timeout_error):

    the engine refuses the request (HTTP 400, 413, 422)   400 invalid_request_error   no retry
    max_tokens above 2**31 - 1 (app.check_parameters)     400 invalid_request_error   no retry
    the engine fails on it (HTTP 500, 501, other 4xx)     502 api_error                no retry
    the engine is busy (HTTP 429, 503, 529)                502 overloaded_error         retry
    it cannot be reached, breaks the connection, or
      answers 502/504 itself                               502 api_error                retry
    it does not answer within the timeout                  504 timeout_error            retry
    its answer is not a chat completion                    502 api_error                no retry
    the bridge is shutting down                            529 overloaded_error         retry

An engine's 500 is usually its own code refusing this very request ("image input is not
supported"), so sending it again only fails again. A timeout is Anthropic's `timeout_error`
(HTTP 504, "the request timed out while processing"): the engine is neither overloaded nor
broken as far as the bridge can tell, it is only late.

In a stream the same failures arrive as an `error` event with the same type, once the
stream has begun (its 200 status is already sent).

Streaming is used on the engine's side when the client asked for a stream, and then the
answer is relayed as it comes (`relay.py`). The client never waits in silence: an engine
that refuses the request within ACCEPT_SECONDS gets its refusal's status (a 400 stays a 400),
and otherwise message_start and a ping leave at ACCEPT_SECONDS whatever the engine is doing
(llama.cpp's server sends no headers while a request waits for a busy slot), then a ping
whenever the engine is silent for PING_SECONDS, and every thinking, text and tool-argument
delta as the engine sends it. The timeout bounds the wait for the engine's headers and then
for each chunk, not the whole answer. A later failure is an `error` event, as Anthropic's
API sends one. When the client goes away, the engine's request is closed, which stops its
generation (llama.cpp's server, vLLM and SGLang all abort a request whose connection closes).

Shutting down (`Forwarder.shut_down`, which the server calls on SIGINT/SIGTERM before it
waits for its connections): every open stream gets an `overloaded_error` event at once and
its engine request is closed; a request waiting for a whole answer gets a 529. So the
server's graceful period (running.SHUTDOWN_GRACE_SECONDS) is never used up by the bridge.

`usage`: the engine's own counts when it sends them (the last chunk, with
`stream_options.include_usage`). When the bridge closes the engine's stream early at a stop
sequence, that last chunk never comes, and the figures are the bridge's estimates (input:
`analysis.prompt_tokens`, 4 ASCII characters a token of the JSON text; output: the chunks received, one token
each on llama.cpp, vLLM and SGLang); the capture's `forward.usage` says which ("engine" or
"estimated").

`max_tokens` is checked before the engine sees it: more than 2**31 - 1 (what llama.cpp reads
into an int32) is the server's own located 400 (app.check_parameters), never the engine's
overflow. Above the engine's context, when the engine says it (llama.cpp's GET /props, vLLM's
GET /v1/models), the engine is sent its context instead: it could not generate more, and
agent CLIs ask for more than a small engine holds (Claude Code asks for 64000); the capture
keeps both numbers (`forward.max_tokens_lowered`). The context is learnt in the background
(engine_context.EngineContext), never while a request waits, so that message_start still leaves
at ACCEPT_SECONDS; until it is known, max_tokens goes as asked (`forward.max_tokens_as_asked`).

Stop sequences are applied by the bridge (see `relay.py`): they are not sent to the engine,
and a request with stop sequences is streamed from the engine even when the client did not
ask for a stream, so the bridge can close it at the match.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator, Awaitable, Callable, Optional

import anyio
import httpx

import tutorial
from tutorial.words import located, words_for

from . import engine_context
from .analysis import prompt_tokens, rough_token_count
from .relay import Relay, partial_json
from .responder import Reply
from .wire import ApiError, sse_text
from .words import WORDS

DEFAULT_TIMEOUT = 300.0  # seconds: a local engine can take minutes for a long answer
PING_SECONDS = 5.0  # a silent engine still gets a ping to the client this often
ACCEPT_SECONDS = 0.25  # an engine's refusal comes within this (its own status); after it, message_start goes

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
        self._streams: set["EngineStream"] = set()  # open streams, told when the server shuts down
        self._closing: Optional[asyncio.Event] = None
        self.context = engine_context.EngineContext(self.url)  # learnt in the background from open()

    def __repr__(self) -> str:
        return f"Forwarder({self.url!r}, model={self.model!r}, timeout={self.timeout})"

    async def open(self) -> None:
        """Make the HTTP client inside the server's event loop (it belongs to that loop)."""
        headers = {"authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.timeout), headers=headers, trust_env=False)
        self._closing = asyncio.Event()
        self.context.start(self._client)

    def shut_down(self) -> None:
        """The server is stopping: open streams end with an error event and close their
        engine requests, waiting requests get a 529 (see the module's docstring)."""
        if self._closing is not None:
            self._closing.set()
        for stream in list(self._streams):
            stream.lines.put_nowait(SHUTTING_DOWN)

    async def close(self) -> None:
        self.shut_down()
        await self.context.stop()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def fit_max_tokens(self, request: dict, record: dict) -> None:
        """Lower the engine request's max_tokens to the engine's context when it asks for more
        (when the engine has said its context): nothing past it can be generated, and some engines
        refuse the larger number. The capture's `forward.max_tokens_lowered` keeps both. Never
        waits: while the context is not known, max_tokens goes as asked (`forward.max_tokens_as_asked`)."""
        wanted = request.get("max_tokens")
        if not isinstance(wanted, int) or isinstance(wanted, bool):
            return
        context = self.context.size
        if not isinstance(context, int):
            record["max_tokens_as_asked"] = {"sent": wanted, "context": context}
        elif wanted > context:
            request["max_tokens"] = context
            record["max_tokens_lowered"] = {"asked": wanted, "sent": context}

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
        if body.get("stream") or body.get("stop_sequences"):  # stop sequences: the bridge closes the stream at one
            request["stream"] = True
            request["stream_options"] = {"include_usage": True}  # the usage comes in the last chunk
        return request

    async def reply(self, body: dict, request: dict, record: dict) -> Reply:
        """Send `request` and turn the engine's whole answer into a Reply. `record` (the
        capture's "forward" entry) is filled with what came back, even on failure. A server
        that shuts down meanwhile closes the engine's request and answers 529."""
        work = asyncio.ensure_future(self._reply(body, request, record))
        closing = asyncio.ensure_future(self._closing.wait() if self._closing else asyncio.Event().wait())
        try:
            await asyncio.wait({work, closing}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            closing.cancel()
            if not work.done():
                work.cancel()
                with anyio.CancelScope(shield=True):
                    await asyncio.wait({work})
        if work.cancelled():
            raise shutting_down()
        return work.result()

    async def _reply(self, body: dict, request: dict, record: dict) -> Reply:
        if request.get("stream"):  # the client wants one reply, but the bridge must watch the text
            stream = await self.open_stream(body, request, record)
            return await stream.collect()
        async with engine_errors(self):
            response = await self._require_client().post(self.url, json=request)
            record["status"] = response.status_code
            if response.status_code >= 300:
                raise engine_refusal(response.status_code, response.text)
            choice, usage = whole_answer(response.text)
        record["answer"] = {"choice": choice, "usage": usage}
        return reply_from_choice(choice, usage, body)

    async def open_stream(
        self, body: dict, request: dict, record: dict, *, message_id: str = "", model: str = "",
        accept_seconds: float = ACCEPT_SECONDS,
    ) -> "EngineStream":  # fmt: skip
        """Send the streamed `request` and give the engine `accept_seconds` to answer with its
        status: a refusal within them raises ApiError here, before the client has been sent
        anything. A request the engine has not answered by then (queued, or slow) goes on
        in the background, and the stream's events begin without it."""
        client = self._require_client()
        sending = asyncio.ensure_future(self._send(client, request, record))
        try:
            await asyncio.wait({sending}, timeout=accept_seconds)
            if sending.done():
                sending.result()  # raises the refusal
        except BaseException:
            await _cancel(sending)
            raise
        relay = Relay(
            message_id=message_id,
            model=model,
            input_tokens=prompt_tokens(body),
            stop_sequences=body.get("stop_sequences"),
        )
        return EngineStream(self, sending, relay, record)

    async def _send(self, client: httpx.AsyncClient, request: dict, record: dict) -> httpx.Response:
        """The engine's response, once its status and headers are in (ApiError for a refusal)."""
        async with engine_errors(self):
            response = await client.send(client.build_request("POST", self.url, json=request), stream=True)
        record["status"] = response.status_code
        try:
            if response.status_code >= 300:
                async with engine_errors(self):
                    text = (await response.aread()).decode("utf-8", "replace")
                raise engine_refusal(response.status_code, text)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await response.aclose()
            raise
        return response

    def _require_client(self) -> httpx.AsyncClient:
        if self._client is None:
            raise ApiError(500, words_for(WORDS, "not_open"))
        return self._client


class engine_errors:
    """Inside it, httpx's failures become ApiErrors that say whether to retry."""

    def __init__(self, forwarder: Forwarder):
        self.forwarder = forwarder

    async def __aenter__(self):
        return self

    async def __aexit__(self, kind, error, traceback):
        if error is None or not isinstance(error, httpx.HTTPError):
            return False
        url = self.forwarder.url
        if isinstance(error, httpx.TimeoutException):
            raise ApiError(504, words_for(WORDS, "engine_late", url=url, seconds=self.forwarder.timeout), retry=True) from None
        if isinstance(error, httpx.ConnectError):
            raise ApiError(502, words_for(WORDS, "engine_unreachable", url=url, why=_why(error)), retry=True) from None
        # the connection broke after it was made
        raise ApiError(502, words_for(WORDS, "engine_broke", url=url, why=_why(error)), retry=True) from None


class EngineStream:
    """A streamed request: the engine's chunks, turned into Anthropic events by a Relay.
    `sending` is the engine's response still on its way (or already in)."""

    def __init__(self, forwarder: Forwarder, sending: "asyncio.Future[httpx.Response]", relay: Relay, record: dict):
        self.forwarder, self.sending, self.relay, self.record = forwarder, sending, relay, record
        self.response: Optional[httpx.Response] = None
        self.lines: asyncio.Queue = asyncio.Queue()  # the engine's lines, a failure, WHOLE, SHUTTING_DOWN or None (the end)
        self.whole: Optional[tuple[dict, Optional[dict]]] = None  # an engine that answered without streaming

    async def events(self, ping_seconds: float = PING_SECONDS) -> AsyncIterator[dict]:
        """Every Anthropic event, as soon as it can be sent: message_start first, whatever
        the engine is doing, then a ping whenever it is silent. The engine's request is
        closed when this ends for any reason (the answer is complete, the client went away,
        a stop sequence matched, the server is shutting down)."""
        reader = asyncio.ensure_future(self._read())
        self.forwarder._streams.add(self)
        try:
            if self.forwarder._closing is not None and self.forwarder._closing.is_set():
                raise shutting_down()
            for event in self.relay.opening():
                yield event
            while True:
                try:
                    line = await asyncio.wait_for(self.lines.get(), ping_seconds)
                except asyncio.TimeoutError:
                    yield {"event": "ping", "data": {"type": "ping"}}
                    continue
                if line is SHUTTING_DOWN:
                    raise shutting_down()
                if isinstance(line, BaseException):
                    raise line
                if isinstance(line, tuple):  # an engine that does not stream: the whole completion at once
                    for event in self._replay(line[1]):
                        yield event
                    return
                if line is None:  # the stream ended
                    break
                chunk = read_chunk(line)
                if chunk is DONE:
                    break
                if chunk is None:
                    continue
                for event in self.relay.feed(chunk):
                    yield event
                if self.relay.stopped:  # the bridge matched a stop sequence: the rest is not wanted
                    break
            self.record["chunks"] = self.relay.chunks
            if not self.relay.chunks:
                raise ApiError(502, words_for(WORDS, "engine_silent"), retry=False)
            for event in self.relay.closing():
                yield event
        finally:
            self.forwarder._streams.discard(self)
            with anyio.CancelScope(shield=True):  # even when the client's disconnect cancelled us
                await _cancel(reader)
                await _cancel(self.sending)
                if self.response is not None:
                    await self.response.aclose()
                self.record["closed_early"] = self.relay.finish_reason is None and self.whole is None
                self.record["usage"] = "engine" if self.relay.usage or self.whole else "estimated"

    async def _read(self) -> None:
        try:
            async with engine_errors(self.forwarder):
                self.response = await self.sending
                if self.response.headers.get("content-type", "").startswith("application/json"):
                    await self.lines.put((WHOLE, (await self.response.aread()).decode("utf-8", "replace")))
                    return
                async for line in self.response.aiter_lines():
                    await self.lines.put(line)
            await self.lines.put(None)
        except (ApiError, httpx.HTTPError) as error:
            await self.lines.put(error)

    def _replay(self, text: str) -> list[dict]:
        """A whole answer, relayed as if it had been streamed in one chunk."""
        choice, usage = whole_answer(text)
        self.whole = (choice, usage)
        message = choice["message"]
        delta = {key: message.get(key) for key in ("content", "reasoning_content", "reasoning") if message.get(key)}
        calls = [
            {"index": i, "id": call.get("id"), "function": call.get("function") or {}}
            for i, call in enumerate(message.get("tool_calls") or [])
            if isinstance(call, dict)
        ]
        for call in calls:
            if not isinstance(call["function"].get("arguments"), str):
                call["function"] = {**call["function"], "arguments": json.dumps(call["function"].get("arguments") or {})}
        if calls:
            delta["tool_calls"] = calls
        chunk = {"choices": [{"index": 0, "delta": delta, "finish_reason": choice.get("finish_reason")}], "usage": usage}
        for name in ("matched_stop", "stop_reason"):
            if name in choice:
                chunk["choices"][0][name] = choice[name]
        return self.relay.feed(chunk) + self.relay.closing()

    async def collect(self) -> Reply:
        """The whole reply, for a client that did not ask for a stream."""
        async for _event in self.events(ping_seconds=self.forwarder.timeout):
            pass
        return self.relay.reply()

    async def sse(self, on_end: Callable[[Optional[Reply], Optional[ApiError]], Awaitable[None]]) -> AsyncIterator[str]:
        """The events as SSE text; a failure after the first event is an `error` event.
        `on_end` gets the reply (or the error) once the stream is over, whatever ended it."""
        reply, failure = None, None
        try:
            async for event in self.events():
                for text in sse_text([event]):
                    yield text
            reply = self.relay.reply()
        except ApiError as error:
            failure = error
            for text in sse_text([{"event": "error", "data": error.envelope()}]):
                yield text
        finally:
            with anyio.CancelScope(shield=True):
                await on_end(reply, failure)


DONE = object()
WHOLE = "whole"  # tags the text of a whole (not streamed) answer in a stream's lines
SHUTTING_DOWN = object()


def shutting_down() -> ApiError:
    return ApiError(529, words_for(WORDS, "shutting_down"), kind="overloaded_error", retry=True)


async def _cancel(task: "asyncio.Future") -> None:
    """Cancel `task` and wait for it to end, whatever it ends with (its result is not wanted)."""
    if not task.done():
        task.cancel()
    await asyncio.wait({task})
    if not task.cancelled():
        task.exception()  # retrieved, so asyncio does not report it as never retrieved
        if task.exception() is None and isinstance(task.result(), httpx.Response):
            await task.result().aclose()


def read_chunk(line: str) -> Any:
    """One line of the engine's SSE stream -> a chunk (dict), DONE, or None (not data)."""
    if not line.startswith("data:"):
        return None  # blank separators, comments, event names
    data = line[5:].strip()
    if data == "[DONE]":
        return DONE
    try:
        chunk = json.loads(data)
    except ValueError:
        raise ApiError(502, words_for(WORDS, "chunk_not_json", data=repr(data[:200])), retry=False)
    if not isinstance(chunk, dict):
        raise ApiError(502, words_for(WORDS, "chunk_not_object", data=repr(data[:200])), retry=False)
    if "error" in chunk:
        raise ApiError(502, words_for(WORDS, "engine_failed_streaming", message=_error_text(chunk)), retry=False)
    return chunk


def whole_answer(text: str) -> tuple[dict, Optional[dict]]:
    """A non-streamed chat completion's text -> (its first choice, its usage)."""
    try:
        answer = json.loads(text)
    except ValueError as error:
        raise ApiError(502, words_for(WORDS, "answer_not_json", error=error, text=repr(text[:200])), retry=False)
    if not isinstance(answer, dict) or not isinstance(answer.get("choices"), list) or not answer["choices"]:
        raise ApiError(502, words_for(WORDS, "answer_no_choices", text=repr(text[:200])), retry=False)
    choice = answer["choices"][0]
    if not isinstance(choice, dict) or not isinstance(choice.get("message"), dict):
        raise ApiError(502, words_for(WORDS, "answer_no_message"), retry=False)
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


def reply_from_choice(choice: dict, usage: Optional[dict], body: dict) -> Reply:
    """The engine's choice -> build_reply's `parsed` form -> the reply blocks."""
    try:
        parsed = parsed_from_message(choice["message"], cut=choice.get("finish_reason") == "length")
        parsed["matched_stop"] = _matched_stop(choice)
        blocks, stop_reason, _kept = tutorial.build_reply(parsed, choice.get("finish_reason"))
    except tutorial.RequestError as error:
        raise ApiError(502, words_for(WORDS, "no_reply_located", error=located(error)), retry=False)
    if choice.get("finish_reason") == "length":  # even with a tool call in it: the call was cut
        stop_reason = "max_tokens"
    stop_sequence = parsed["matched_stop"] if stop_reason == "stop_sequence" else None
    usage = usage if isinstance(usage, dict) else {}
    return Reply(
        blocks,
        stop_reason,
        stop_sequence,
        input_tokens=_count(usage.get("prompt_tokens"), lambda: prompt_tokens(body)),
        output_tokens=_count(usage.get("completion_tokens"), lambda: rough_token_count(blocks)),
    )


def parsed_from_message(message: dict, *, cut: bool = False) -> dict:
    """A Chat Completions message -> {"reasoning", "text", "tool_uses"}, the arguments'
    JSON text read back into objects (located errors if it is not JSON). `cut`: the answer
    was cut by max_tokens, so a call's arguments keep the members that arrived whole."""
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
        uses.append({"name": function["name"], "input": _arguments(function.get("arguments"), i, cut)})
    return {"reasoning": message.get("reasoning_content") or message.get("reasoning"), "text": content, "tool_uses": uses}


def _arguments(arguments: Any, i: int, cut: bool = False) -> Any:
    if not isinstance(arguments, str):
        return arguments  # already an object (or None: a call without arguments)
    if not arguments.strip():
        return {}
    where = ("message", "tool_calls", i, "function", "arguments")
    try:
        return json.loads(arguments)
    except ValueError as error:
        if not cut:
            raise tutorial.RequestError(where, "is not valid JSON ({why})", why=str(error)) from None
    try:
        return partial_json(arguments) or {}
    except ValueError as error:
        raise tutorial.RequestError(where, "is not the start of a JSON object ({why})", why=str(error)) from None


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
    """The engine's failure status -> the client's, and whether trying again can help."""
    message = _error_text_from(text)
    if status in (400, 413, 422):
        return ApiError(400, words_for(WORDS, "engine_refused", status=status, message=message), retry=False)
    if status in (429, 503, 529):
        return ApiError(502, words_for(WORDS, "engine_busy", status=status, message=message), kind="overloaded_error", retry=True)
    if status in (502, 504):  # a proxy in front of the engine could not reach it: that may pass
        return ApiError(502, words_for(WORDS, "engine_status", status=status, message=message), retry=True)
    return ApiError(502, words_for(WORDS, "engine_status", status=status, message=message), retry=False)


def _error_text_from(text: str) -> str:
    try:
        return _error_text(json.loads(text))
    except ValueError:
        return text[:500] or words_for(WORDS, "engine_no_body")


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
