"""The Starlette app: the Messages API's routes, and the captures.

    POST /v1/messages                 a message, or its SSE stream when "stream": true
    POST /v1/messages/count_tokens    {"input_tokens": n}, a rough count (analysis.rough_token_count)
    GET  /captures                    the captures kept, oldest first: {"data": [...], ...}
    GET  /captures/{id}               one capture
    GET  /  (and HEAD)                a short status

Every request under /v1/ is captured, whatever its fate (the server's own pages are not;
a request to a route the server does not have is kept without its body).
Every failure is an Anthropic error envelope with the status the API would use: 400 for
a body that is not JSON or that the translation refuses (the message starts with the
place, `messages[2].content[0].tool_use_id: ...`), 404 for a route the API does not have,
408 (invalid_request_error) for a body that has not all arrived within `body_timeout`
seconds of the headers (DEFAULT_BODY_TIMEOUT; the connection is then closed), 413 past the
body limit, 500 when the responder fails, 502/504/529 when the engine does or the bridge
is shutting down (forward.py has the table).

Replies, summaries and error messages are written in the language each request asks for
(Accept-Language), else the server's (`create_app(lang=...)`), else the process's (words.py).
"""

from __future__ import annotations

import contextlib
import time
import traceback
from typing import TYPE_CHECKING, AsyncIterator, Callable, Optional, Union

import anyio
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

import tutorial
from tutorial.limits import read_json
from tutorial.words import check, current, located, use_language_here, words_for

from .analysis import analyse, prompt_tokens, refusal
from .captures import DEFAULT_MAX_CAPTURES, CaptureStore
from . import words
from .responder import Reply, Responder, describe, run_responder, teaching_reply, teaching_responder, text_reply, translator_line
from .wire import ApiError, bad_request, message_object, sse_text, stream_events
from .words import WORDS, count

if TYPE_CHECKING:
    from .forward import Forwarder  # imported for real only when forwarding: it needs httpx

# The Messages API's own limit on a request body.
DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024
DEFAULT_BODY_TIMEOUT = 30.0  # seconds from the headers to the body's last byte: a stalled upload holds nothing longer
MAX_TOKENS_LIMIT = 2**31 - 1  # llama.cpp reads max_tokens as an int32; nothing can generate more
DEFAULT_MODEL = "tutorial-teaching-responder"  # named in replies to a body without a model

Log = Callable[[str], None]


def create_app(
    *,
    responder: Optional[Responder] = None,
    forward: Union[str, "Forwarder", None] = None,
    save=None,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    max_captures: int = DEFAULT_MAX_CAPTURES,
    log: Optional[Log] = None,
    translator: Optional[Callable] = None,
    lang: Optional[str] = None,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
) -> Starlette:
    """The app. `responder` answers (default: the teaching responder) unless `forward`
    names an OpenAI-compatible engine (a URL or a `Forwarder`); `save` is a file to
    append every capture to as JSON Lines; `log` receives one line per request.
    `translator` is a learner's translate (`build_it.load_translator`): each request also
    goes through it, and its capture keeps where it differs from the package (`yours`).
    `lang` ("en" or "zh") is the language of replies, summaries and error messages for a
    request whose Accept-Language names neither (default: the process's current language).
    `body_timeout`: seconds a request's body may take to arrive after its headers."""
    if responder is not None and forward is not None:
        raise ValueError("give a responder or a forward URL, not both: the engine would answer every request")
    if isinstance(forward, str):
        from .forward import Forwarder

        forward = Forwarder(forward)
    endpoints = Endpoints(
        CaptureStore(max_captures, save), responder or teaching_responder, forward, max_body_bytes, log
    )
    endpoints.translator = translator
    endpoints.body_timeout = body_timeout
    endpoints.lang = None if lang is None else check(lang)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if forward is not None:
            await forward.open()  # its HTTP client lives in the server's event loop
        try:
            yield
        finally:
            if forward is not None:
                await forward.close()

    routes = [
        Route("/", endpoints.status, methods=["GET"]),  # HEAD comes with GET
        Route("/v1/messages", endpoints.messages, methods=["POST"]),
        Route("/v1/messages/count_tokens", endpoints.count_tokens, methods=["POST"]),
        Route("/captures", endpoints.list_captures, methods=["GET"]),
        Route("/captures/{capture_id}", endpoints.one_capture, methods=["GET"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: endpoints.http_error, Exception: endpoints.internal_error},
        lifespan=lifespan,
    )
    app.state.captures = endpoints.store
    app.state.endpoints = endpoints
    return app


class Endpoints:
    """The route handlers, sharing the server's settings and its capture store."""

    def __init__(self, store: CaptureStore, responder: Responder, forwarder, max_body_bytes: int, log: Optional[Log]):
        self.store = store
        self.responder = responder
        self.forwarder = forwarder
        self.max_body_bytes = max_body_bytes
        self.log = log
        self.translator: Optional[Callable] = None  # the learner's translate, compared on every request
        self.lang: Optional[str] = None  # the server's language; None: the process's current one
        self.body_timeout = DEFAULT_BODY_TIMEOUT

    def shut_down(self) -> None:
        """The server is stopping (running.BridgeServer calls this first): end what waits on the engine."""
        if self.forwarder is not None:
            self.forwarder.shut_down()

    def _speak(self, request: Request) -> str:
        """Answer `request` in the language it asks for (words.py), and return it."""
        lang = words.choose(request.headers.get("accept-language"), self.lang)
        use_language_here(lang)
        return lang

    # --- the Messages API ----------------------------------------------------

    async def messages(self, request: Request) -> Response:
        if getattr(self.forwarder, "renders_tokens", False):  # the token path keeps trajectories per session
            from .sessions import session_of

            session = session_of(request.headers)
            return await self._captured(request, lambda body, capture: self._answer_messages(body, capture, session))
        return await self._captured(request, self._answer_messages)

    async def count_tokens(self, request: Request) -> Response:
        return await self._captured(request, self._answer_count_tokens)

    async def _answer_messages(self, body: dict, capture: dict, session: Optional[str] = None) -> Response:
        analysis = await self._analyse(body, capture)
        check_parameters(body)
        if self.translator is not None:  # the learner's translation, beside the package's
            from tutorial.notebook.build_it.replay import compare_request

            capture["yours"] = await run_in_threadpool(compare_request, self.translator, body)  # the thread runs in this request's context
        message_id, model = f"msg_{capture['id']}", body.get("model") or DEFAULT_MODEL
        if session is not None:
            return await self._token_turn(body, analysis, capture, message_id, model, session)
        if self.forwarder is not None and body.get("stream"):  # relayed while the engine streams
            return await self._relayed(body, analysis, capture, message_id, model)
        if self.forwarder is not None:
            reply = await self._forwarded(body, analysis, capture)
        else:
            reply = await run_in_threadpool(self._respond, body, analysis, capture.get("yours"))
        message = self._record_reply(body, analysis, capture, reply, message_id, model)
        if not body.get("stream"):
            return JSONResponse(message)
        try:
            events = stream_events(reply, message_id=message_id, model=model)
        except tutorial.RequestError as error:
            raise ApiError(500, words_for(WORDS, "not_streamable", error=error))
        return StreamingResponse(_chunks(events), media_type="text/event-stream", headers={"cache-control": "no-cache"})

    def _record_reply(self, body: dict, analysis: dict, capture: dict, reply: Reply, message_id: str, model: str) -> dict:
        message = message_object(reply, message_id=message_id, model=model)
        capture["reply"] = message
        try:  # the way back's last step: the reply as the chat message a trajectory store keeps
            capture["reply_as_chat_message"] = tutorial.response_to_message(message)
        except tutorial.RequestError as error:
            raise ApiError(500, words_for(WORDS, "not_a_message", error=error))
        capture["summary"] = summary(body, analysis, reply)
        return message

    async def _answer_count_tokens(self, body: dict, capture: dict) -> Response:
        await self._analyse(body, capture)
        counted = {"input_tokens": prompt_tokens(body)}
        capture["reply"] = counted
        capture["summary"] = words_for(WORDS, "summary_count_tokens", tokens=count(counted["input_tokens"], "input token"))
        return JSONResponse(counted)

    async def _analyse(self, body: dict, capture: dict) -> dict:
        """Both targets' translations and losses into the capture; a 400 if the body is refused."""
        analysis = await run_in_threadpool(analyse, body)
        capture.update(analysis)
        refused = refusal(analysis, "chat_template")
        if refused:
            raise ApiError(400, words_for(WORDS, "invalid_request", message=refused))
        return analysis

    def _respond(self, body: dict, analysis: dict, yours: Optional[dict] = None) -> Reply:
        if self.responder is teaching_responder and yours is not None:  # and what the learner's made of it
            text = f"{describe(analysis)}\n\n{words_for(WORDS, 'yours', line=translator_line(yours))}"
            return run_responder(lambda _body: text_reply(text), body)
        if self.responder is teaching_responder:  # the same reply, without translating the body again
            return run_responder(lambda _body: teaching_reply(analysis), body)
        try:
            return run_responder(self.responder, body)
        except Exception as error:
            # A responder that fails on this body fails again on it: tell the client not to retry.
            raise ApiError(500, words_for(WORDS, "responder_failed", kind=type(error).__name__, error=error), retry=False) from error

    async def _forwarded(self, body: dict, analysis: dict, capture: dict) -> Reply:
        record = self._engine_record(body, analysis, capture)
        await self.forwarder.fit_max_tokens(record["request"], record)
        return await self.forwarder.reply(body, record["request"], record)

    def _engine_record(self, body: dict, analysis: dict, capture: dict) -> dict:
        from .forward import left_behind

        refused = refusal(analysis, "openai")
        if refused:  # the engine would get nothing sensible: refuse as its /v1/messages would
            raise ApiError(400, words_for(WORDS, "invalid_request", message=refused))
        record = capture["forward"] = {"url": self.forwarder.url, "left_behind": left_behind(body)}
        try:
            record["request"] = self.forwarder.engine_request(body)
        except tutorial.RequestError as error:
            raise bad_request(error)
        return record

    async def _relayed(self, body: dict, analysis: dict, capture: dict, message_id: str, model: str) -> Response:
        """The engine's stream relayed as it comes; the capture is kept when the stream ends."""
        record = self._engine_record(body, analysis, capture)
        await self.forwarder.fit_max_tokens(record["request"], record)
        stream = await self.forwarder.open_stream(body, record["request"], record, message_id=message_id, model=model)

        async def on_end(reply: Optional[Reply], failure: Optional[ApiError]) -> None:
            ending = ""  # the log line says how a stream that began with 200 really ended
            try:
                if reply is not None:
                    self._record_reply(body, analysis, capture, reply, message_id, model)
                elif failure is not None:
                    capture["reply"] = failure.envelope()
                    capture["summary"] = words_for(WORDS, "summary_mid_stream", kind=failure.kind, message=failure.message[:200])
                    ending = words_for(WORDS, "log_mid_stream", kind=failure.kind, message=failure.message[:200])
                else:
                    capture["summary"] = words_for(WORDS, "summary_gone")
                    ending = words_for(WORDS, "log_gone")
            except ApiError as error:
                capture["summary"] = words_for(WORDS, "summary_error", kind=error.kind, message=error.message[:200])
                ending = words_for(WORDS, "log_mid_stream", kind=error.kind, message=error.message[:200])
            await self._keep(capture, 200, response.started, ending)

        response = RelayedResponse(stream.sse(on_end), media_type="text/event-stream", headers={"cache-control": "no-cache"})
        return response

    async def _token_turn(self, body: dict, analysis: dict, capture: dict, message_id: str, model: str, session: str) -> Response:
        """The token path (token_path.py): render to ids, generate from them, parse, answer,
        then record the turn in the session's trajectory."""
        path = self.forwarder
        turn = await run_in_threadpool(path.prepare, body, session)
        capture["tokens"] = turn.record
        if not body.get("stream"):
            await path.generate(body, turn)
            message = self._record_reply(body, analysis, capture, turn.reply, message_id, model)
            path.keep(turn)
            return JSONResponse(message)

        async def on_end(done, failure: Optional[ApiError]) -> None:
            ending = ""
            if done is not None:
                self._record_reply(body, analysis, capture, done.reply, message_id, model)
                path.keep(done)  # sent whole: the turn joins the trajectory
            elif failure is not None:
                capture["reply"] = failure.envelope()
                capture["summary"] = words_for(WORDS, "summary_mid_stream", kind=failure.kind, message=failure.message[:200])
                ending = words_for(WORDS, "log_mid_stream", kind=failure.kind, message=failure.message[:200])
            else:
                capture["summary"] = words_for(WORDS, "summary_gone")
                ending = words_for(WORDS, "log_gone")
            await self._keep(capture, 200, response.started, ending)

        events = path.sse(body, turn, message_id=message_id, model=model, on_end=on_end)
        response = RelayedResponse(events, media_type="text/event-stream", headers={"cache-control": "no-cache"})
        return response

    # --- the capture around every API call -------------------------------------

    async def _captured(self, request: Request, answer) -> Response:
        started = time.perf_counter()
        self._speak(request)
        capture = self.store.begin(request.method, request.url.path, request.url.query, request.headers.items())
        try:
            body = await self._read_json(request, capture)
            response = await answer(body, capture)
        except ApiError as error:
            response = self._failed(error, capture)
        except Exception as error:  # a bug here must still reach the client as an envelope
            self._log_exception(error)
            response = self._failed(ApiError(500, words_for(WORDS, "internal", kind=type(error).__name__)), capture)
        if isinstance(response, RelayedResponse):
            response.started = started  # its capture is kept when the stream ends
            return response
        await self._keep(capture, response.status_code, started)
        return response

    async def _read_json(self, request: Request, capture: dict) -> dict:
        raw = await read_limited(request, self.max_body_bytes, self.body_timeout)
        try:
            body = read_json(raw, "the request body")  # not UTF-8, not JSON, too deep: located
        except tutorial.RequestError as error:
            capture["body_text"] = raw[:4096].decode("utf-8", "replace")
            from tutorial.cli.words import text_problem  # about the text, as the command line says it

            if current() == "zh":
                problem = text_problem(raw, "请求体")
                raise ApiError(400, words_for(WORDS, "invalid_request", message=problem or located(error)))
            problem = text_problem(raw, "the request body")  # a full-width quote is named, in English too
            raise ApiError(400, f"body: {problem}" if problem else str(error))
        capture["body"] = body
        if not isinstance(body, dict):
            raise ApiError(400, words_for(WORDS, "not_an_object", kind=type(body).__name__))
        return body

    def _failed(self, error: ApiError, capture: dict) -> Response:
        capture["reply"] = error.envelope()
        capture.setdefault("summary", words_for(WORDS, "summary_error", kind=error.kind, message=error.message[:200]))
        return JSONResponse(error.envelope(), status_code=error.status, headers=error.headers())

    async def _keep(self, capture: dict, status: int, started: float, ending: str = "") -> None:
        capture["status"] = status
        capture["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
        await run_in_threadpool(self.store.add, capture)  # may append to the --save file
        if self.log:
            self.log(f"{capture['id']} {capture['method']} {capture['path']} -> {status} ({capture['duration_ms']:.0f} ms){ending}")
            if "yours" in capture:
                self.log(words_for(WORDS, "log_yours", line=translator_line(capture["yours"])))

    def _log_exception(self, error: BaseException) -> None:
        if self.log:
            self.log("".join(traceback.format_exception(error)).rstrip())

    # --- the server's own pages -------------------------------------------------

    async def status(self, request: Request) -> Response:
        return JSONResponse(
            {
                "server": "tutorial serve",
                "status": "ok",
                "answers_with": self.forwarder.url if self.forwarder is not None else _name(self.responder),
                "translator": getattr(self.translator, "origin", None) if self.translator is not None else None,
                "captures": len(self.store),
                "max_captures": self.store.max_captures,
                "routes": ["POST /v1/messages", "POST /v1/messages/count_tokens", "GET /captures", "GET /captures/{id}"],
            }
        )

    async def list_captures(self, request: Request) -> Response:
        listing = self.store.listing()
        return JSONResponse(
            {
                "data": listing,
                "has_more": False,
                "first_id": listing[0]["id"] if listing else None,
                "last_id": listing[-1]["id"] if listing else None,
            }
        )

    async def one_capture(self, request: Request) -> Response:
        capture_id = request.path_params["capture_id"]
        capture = self.store.get(capture_id)
        if capture is None:
            self._speak(request)
            error = ApiError(404, words_for(WORDS, "no_capture", id=capture_id, kept=self.store.max_captures))
            return JSONResponse(error.envelope(), status_code=404, headers=error.headers())
        return JSONResponse(capture)

    # --- everything else ----------------------------------------------------------

    async def http_error(self, request: Request, error: HTTPException) -> Response:
        """Starlette's own 404 (no such route) and 405 (wrong method), as envelopes."""
        self._speak(request)
        if error.status_code == 404:
            api_error = ApiError(404, words_for(WORDS, "no_route", method=request.method, path=request.url.path))
        elif error.status_code == 405:
            api_error = ApiError(405, words_for(WORDS, "no_method", method=request.method, path=request.url.path))
        else:
            api_error = ApiError(error.status_code, str(error.detail))
        if request.url.path.startswith("/v1/"):
            capture = self.store.begin(request.method, request.url.path, request.url.query, request.headers.items())
            self._failed(api_error, capture)
            await self._keep(capture, api_error.status, time.perf_counter())
        headers = error.headers or api_error.headers()  # a 405 keeps its Allow header
        return JSONResponse(api_error.envelope(), status_code=api_error.status, headers=headers)

    async def internal_error(self, request: Request, error: Exception) -> Response:
        self._log_exception(error)
        self._speak(request)
        envelope = ApiError(500, words_for(WORDS, "internal", kind=type(error).__name__)).envelope()
        return JSONResponse(envelope, status_code=500)


class RelayedResponse(StreamingResponse):
    """An engine's stream on its way to the client; its capture is kept when it ends."""

    started = 0.0


async def read_limited(request: Request, limit: int, timeout: float = DEFAULT_BODY_TIMEOUT) -> bytes:
    """The body, or a 413 as soon as it is known to be too big: from Content-Length before
    reading, else from the bytes counted as they arrive (a chunked upload has no length).
    A 408 when it has not all arrived within `timeout` seconds; the connection is closed then,
    since the rest of a body that stalled cannot be told from the next request."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large(int(declared), limit)
    chunks, size = [], 0
    with anyio.move_on_after(timeout) as deadline:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise too_large(size, limit, at_least=True)
            chunks.append(chunk)
    if deadline.cancelled_caught:
        raise ApiError(408, words_for(WORDS, "body_timeout", seconds=timeout, size=size), retry=False, close=True)
    return b"".join(chunks)


def too_large(size: int, limit: int, at_least: bool = False) -> ApiError:
    return ApiError(413, words_for(WORDS, "too_large_at_least" if at_least else "too_large", size=size, limit=limit))


def check_parameters(body: dict) -> None:
    """The top-level fields the server itself reads, checked where the contract does not."""
    if "model" in body and not isinstance(body["model"], str):
        raise ApiError(400, words_for(WORDS, "model_type", kind=type(body["model"]).__name__))
    if "stream" in body and not isinstance(body["stream"], bool):
        raise ApiError(400, words_for(WORDS, "stream_type", kind=type(body["stream"]).__name__))
    tokens = body.get("max_tokens")
    if "max_tokens" in body and (isinstance(tokens, bool) or not isinstance(tokens, int) or tokens < 1):
        raise ApiError(400, words_for(WORDS, "max_tokens_type", value=repr(tokens)))
    if isinstance(tokens, int) and tokens > MAX_TOKENS_LIMIT:
        raise ApiError(400, words_for(WORDS, "max_tokens_too_big", value=tokens, limit=MAX_TOKENS_LIMIT))
    stops = body.get("stop_sequences")
    if stops is not None and not (isinstance(stops, list) and all(isinstance(s, str) for s in stops)):
        raise ApiError(400, words_for(WORDS, "stop_sequences_type"))


def summary(body: dict, analysis: dict, reply: Reply) -> str:
    """One line for GET /captures: "3 messages, 1 tool -> 5 chat messages; json, end_turn"."""
    result = analysis["translated"]["chat_template"]
    return words_for(WORDS, 
        "summary",
        messages=count(len(body["messages"]), "message"),
        tools=count(len(result["tools_schema"] or []), "tool"),
        chat=count(len(result["translated"]), "chat message"),
        how=words_for(WORDS, "streamed" if body.get("stream") else "not_streamed"),
        stop_reason=reply.stop_reason,
    )


async def _chunks(events: list[dict]) -> AsyncIterator[str]:
    for text in sse_text(events):
        yield text


def _name(responder) -> str:
    return getattr(responder, "__name__", type(responder).__name__)
