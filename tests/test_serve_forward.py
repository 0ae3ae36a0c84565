"""--forward: the server passes the "openai" target's translation to an OpenAI-compatible
engine and brings its answer back through the way back. The engine here is a tiny
Starlette app this test starts on loopback; its `model` name picks how it behaves."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import pytest

anthropic = pytest.importorskip("anthropic")
httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")

from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse, PlainTextResponse, StreamingResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

import tutorial  # noqa: E402
from tutorial import serve  # noqa: E402
from tutorial.serve.forward import chat_completions_url, tool_choice  # noqa: E402

SECRET = "sk-ant-api03-SECRET-for-anthropic-only-987"
ENGINE_KEY = "engine-key-not-for-captures-555"
TIMEOUT = 1.0  # the forwarder's; the slow engine takes longer

# ---------------------------------------------------------------------------
# The fake engine

ANSWERS = {
    "text": {"message": {"role": "assistant", "content": "你好，这里是引擎。"}, "finish_reason": "stop"},
    "tool": {
        "message": {
            "role": "assistant",
            "content": "I will read it.",
            "tool_calls": [{"id": "call_7", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "README.md"}'}}],
        },
        "finish_reason": "tool_calls",
    },
    "think": {"message": {"role": "assistant", "content": "42", "reasoning_content": "6 times 7"}, "finish_reason": "stop"},
    "stop-sequence": {"message": {"role": "assistant", "content": "up to"}, "finish_reason": "stop", "stop_reason": "END"},
    "length": {"message": {"role": "assistant", "content": "cut sh"}, "finish_reason": "length"},
    "bad-arguments": {
        "message": {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{not json"}}],
        },
        "finish_reason": "tool_calls",
    },
}
USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


class Engine:
    def __init__(self):
        self.received: list[tuple[dict, dict]] = []  # (headers, body)
        self.app = Starlette(routes=[Route("/v1/chat/completions", self.complete, methods=["POST"])])

    async def complete(self, request: Request):
        body = await request.json()
        self.received.append((dict(request.headers), body))
        model = body["model"]
        if model == "error":
            return JSONResponse({"error": {"message": "engine exploded", "type": "server_error"}}, status_code=500)
        if model == "busy":
            return JSONResponse({"error": {"message": "too many requests in flight"}}, status_code=503)
        if model == "refuse":
            return JSONResponse({"error": {"message": "This model's maximum context length is 8192 tokens"}}, status_code=400)
        if model == "garbage":
            return PlainTextResponse("<html>oops</html>")
        if model == "silent-stream":
            return PlainTextResponse("", media_type="text/event-stream")
        if model == "never-streams":  # answers whole, stream or not
            return JSONResponse({"choices": [{"index": 0, **ANSWERS["text"]}], "usage": USAGE})
        if model == "slow":
            await asyncio.sleep(3 * TIMEOUT)
            model = "text"
        answer = {"index": 0, **ANSWERS[model if model in ANSWERS else "text"]}
        if body.get("stream"):
            return StreamingResponse(self.chunks(answer, body, broken=model == "stream-error"), media_type="text/event-stream")
        return JSONResponse({"id": "chatcmpl-1", "object": "chat.completion", "model": model, "choices": [answer], "usage": USAGE})

    async def chunks(self, answer: dict, body: dict, broken: bool):
        """The answer cut into small deltas, as an engine streams it."""
        message = answer["message"]
        deltas = [{"role": "assistant"}]
        deltas += [{"reasoning_content": part} for part in pieces(message.get("reasoning_content"))]
        deltas += [{"content": part} for part in pieces(message.get("content"))]
        for index, call in enumerate(message.get("tool_calls") or []):
            function = call["function"]
            opening = {"index": index, "id": call["id"], "type": "function", "function": {"name": function["name"], "arguments": ""}}
            deltas.append({"tool_calls": [opening]})
            for part in pieces(function["arguments"]):
                deltas.append({"tool_calls": [{"index": index, "function": {"arguments": part}}]})
        for number, delta in enumerate(deltas):
            if broken and number == 2:
                yield f"data: {json.dumps({'error': {'message': 'died mid-stream'}})}\n\n"
                return
            yield f"data: {json.dumps({'choices': [{'index': 0, 'delta': delta, 'finish_reason': None}]})}\n\n"
        last = {"index": 0, "delta": {}, "finish_reason": answer["finish_reason"]}
        if "stop_reason" in answer:
            last["stop_reason"] = answer["stop_reason"]
        yield f"data: {json.dumps({'choices': [last]})}\n\n"
        if (body.get("stream_options") or {}).get("include_usage"):
            yield f"data: {json.dumps({'choices': [], 'usage': USAGE})}\n\n"
        yield "data: [DONE]\n\n"


def pieces(text, size=3):
    return [text[i : i + size] for i in range(0, len(text or ""), size)]


@pytest.fixture(scope="module")
def engine():
    fake = Engine()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(fake.app, log_config=None, access_log=False, lifespan="off", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    fake.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    yield fake
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def bridge(engine):
    forwarder = serve.Forwarder(engine.url, timeout=TIMEOUT, api_key=ENGINE_KEY)
    with serve.start(forward=forwarder) as running:
        yield running


@pytest.fixture
def client(bridge):
    return anthropic.Anthropic(base_url=bridge.url, api_key=SECRET, max_retries=0)


def body(model: str = "text", **extra) -> dict:
    return {"model": model, **tutorial.readme_request(), **extra}


def without_tool_ids(message) -> dict:
    dumped = message.model_dump(exclude={"id"})
    for block in dumped["content"]:
        if block["type"] == "tool_use":
            block["id"] = "toolu_?"  # build_reply mints a fresh id for every reply
    return dumped


# ---------------------------------------------------------------------------
# The answer comes back


def test_the_engine_gets_the_openai_translation_and_the_sampling_parameters(engine, client, bridge):
    sampling = {"temperature": 0.2, "top_p": 0.9, "top_k": 40}  # this SDK version sends them only as extra_body
    sent = body(stop_sequences=["END"], tool_choice={"type": "any"}, metadata={"user_id": "u"})
    reply = client.messages.create(**sent, extra_body=sampling)
    assert text_of(reply) == "你好，这里是引擎。" and reply.stop_reason == "end_turn"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (11, 7)  # the engine's own count
    headers, request = engine.received[-1]
    messages, tools = tutorial.translate(sent, target="openai")
    assert request == {
        "model": "text",
        "messages": messages,
        "tools": tools,
        "tool_choice": "required",
        "max_tokens": 128,
        "temperature": 0.2,
        "top_p": 0.9,
        "top_k": 40,
        # stop sequences stay with the bridge, which watches the engine's stream for them
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    assert headers["authorization"] == f"Bearer {ENGINE_KEY}"  # the engine's key, never the client's
    assert SECRET not in json.dumps(headers)
    capture = bridge.captures()[-1]
    assert capture["forward"]["request"] == request and capture["forward"]["status"] == 200
    assert capture["forward"]["left_behind"] == ["metadata"]
    assert capture["reply_as_chat_message"] == {"role": "assistant", "content": "你好，这里是引擎。"}
    assert ENGINE_KEY not in json.dumps(bridge.captures()) and SECRET not in json.dumps(bridge.captures())


@pytest.mark.parametrize("model", ["text", "tool", "think", "stop-sequence", "length"])
def test_streamed_and_not_the_client_gets_the_same_message(engine, client, model):
    created = client.messages.create(**body(model))
    with client.messages.stream(**body(model)) as stream:
        final = stream.get_final_message()
    assert without_tool_ids(final) == without_tool_ids(created)
    streamed_request = engine.received[-1][1]
    assert streamed_request["stream"] is True and streamed_request["stream_options"] == {"include_usage": True}


def test_an_engine_that_does_not_stream_still_answers_a_stream(client):
    with client.messages.stream(**body("never-streams")) as stream:
        final = stream.get_final_message()
    assert text_of(final) == "你好，这里是引擎。" and final.usage.output_tokens == 7


def test_a_tool_call_comes_back_as_a_tool_use_block(client):
    reply = client.messages.create(**body("tool"))
    assert reply.stop_reason == "tool_use"
    assert [block.type for block in reply.content] == ["text", "tool_use"]
    use = reply.content[1]
    assert (use.name, use.input) == ("read_file", {"path": "README.md"}) and use.id.startswith("toolu_")


def test_reasoning_comes_back_as_a_thinking_block(client):
    reply = client.messages.create(**body("think"))
    assert [block.type for block in reply.content] == ["thinking", "text"]
    assert reply.content[0].thinking == "6 times 7" and reply.content[1].text == "42"


def test_stop_reasons_follow_the_engine(client):
    stopped = client.messages.create(**body("stop-sequence"))
    assert (stopped.stop_reason, stopped.stop_sequence) == ("stop_sequence", "END")
    assert client.messages.create(**body("length")).stop_reason == "max_tokens"


# ---------------------------------------------------------------------------
# When the engine fails: an envelope, never a hang


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "model, status, kind, words",
    [
        ("error", 502, "api_error", "the engine answered HTTP 500: engine exploded"),
        ("busy", 502, "overloaded_error", "the engine is busy (HTTP 503): too many requests in flight"),
        ("refuse", 400, "invalid_request_error", "the engine refused the request (HTTP 400): This model's maximum context length"),
        ("slow", 504, "timeout_error", f"did not answer within {TIMEOUT:g} s"),
    ],
)
def test_engine_failures_become_envelopes(client, bridge, model, status, kind, words, stream):
    """A refusal comes within the bridge's accept window, so even a stream gets its status;
    an engine that is only late has had message_start sent for it, so a stream gets an
    `error` event of the same type, after a 200."""
    late_stream = stream and model == "slow"
    before = len(bridge.captures())
    started = time.monotonic()
    with pytest.raises(anthropic.APIStatusError) as raised:
        list(client.messages.create(**body(model), stream=stream)) if stream else client.messages.create(**body(model))
    assert time.monotonic() - started < TIMEOUT + 5
    assert raised.value.status_code == (200 if late_stream else status)
    assert raised.value.body["type"] == "error" and raised.value.body["error"]["type"] == kind
    assert words in raised.value.body["error"]["message"]
    deadline = time.monotonic() + 10
    while len(bridge.captures()) == before:  # a relayed stream's capture is kept once the stream has ended
        assert time.monotonic() < deadline, "the capture was never kept"
        time.sleep(0.01)
    assert bridge.captures()[-1]["status"] == (200 if late_stream else status)


@pytest.mark.parametrize(
    "model, stream, words",
    [
        ("garbage", False, "the engine's answer is not JSON"),
        ("bad-arguments", False, "choices[0].message.tool_calls[0].function.arguments: is not valid JSON"),
        ("bad-arguments", True, "choices[0].message.tool_calls[0].function.arguments: is not valid JSON"),
        ("stream-error", True, "the engine failed while streaming: died mid-stream"),
        ("silent-stream", True, "the engine's stream ended without a single chunk"),
    ],
)
def test_an_answer_that_is_no_chat_completion_is_a_502(client, model, stream, words):
    if not stream:
        with pytest.raises(anthropic.InternalServerError) as raised:
            client.messages.create(**body(model))
        assert raised.value.status_code == 502 and raised.value.response.headers["x-should-retry"] == "false"
    else:  # the stream has begun (message_start went out at once): the failure is an `error` event
        with pytest.raises(anthropic.APIStatusError) as raised:
            list(client.messages.create(**body(model), stream=True))
    assert raised.value.body["type"] == "error" and raised.value.body["error"]["type"] == "api_error"
    assert words in raised.value.body["error"]["message"]


def test_an_engine_that_is_not_there_is_a_502():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with serve.start(forward=f"http://127.0.0.1:{port}") as running:
        client = anthropic.Anthropic(base_url=running.url, api_key=SECRET, max_retries=0)
        with pytest.raises(anthropic.InternalServerError) as raised:
            client.messages.create(**body())
    assert raised.value.status_code == 502
    where = f"http://127.0.0.1:{port}/v1/chat/completions"
    assert raised.value.body["error"]["message"].startswith(f"cannot reach the engine at {where}")


def test_what_the_openai_target_refuses_never_reaches_the_engine(engine, client):
    before = len(engine.received)
    document = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0="}}
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(model="text", max_tokens=16, messages=[{"role": "user", "content": [document]}])
    assert raised.value.body["error"]["message"].startswith("messages[0].content[0].type: a block of type 'document'")
    assert len(engine.received) == before


# ---------------------------------------------------------------------------
# The pieces


def test_the_engine_url_gets_its_path():
    assert chat_completions_url("http://h:8000") == "http://h:8000/v1/chat/completions"
    assert chat_completions_url("http://h:8000/") == "http://h:8000/v1/chat/completions"
    assert chat_completions_url("http://h:8000/v1") == "http://h:8000/v1/chat/completions"
    assert chat_completions_url("http://h/api/chat/completions") == "http://h/api/chat/completions"


def test_tool_choice_maps_to_chat_completions():
    assert tool_choice({"type": "auto"}) == {"tool_choice": "auto"}
    assert tool_choice({"type": "any", "disable_parallel_tool_use": True}) == {"tool_choice": "required", "parallel_tool_calls": False}
    assert tool_choice({"type": "tool", "name": "f"}) == {"tool_choice": {"type": "function", "function": {"name": "f"}}}
    assert tool_choice({"type": "none"}) == {"tool_choice": "none"}
    assert tool_choice(None) is None


def text_of(message) -> str:
    return "".join(block.text for block in message.content if block.type == "text")


# ---------------------------------------------------------------------------
# In Chinese: the bridge's own words are Chinese, the engine's stay as it wrote them (data)

ZH = {"accept-language": "zh-CN,zh;q=0.9"}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    "model, status, words",
    [
        ("error", 502, "引擎返回了 HTTP 500：engine exploded"),
        ("busy", 502, "引擎正忙（HTTP 503）：too many requests in flight"),
        ("refuse", 400, "引擎拒绝了这个请求（HTTP 400）：This model's maximum context length is 8192 tokens"),
        ("slow", 504, f"上的引擎没有在 {TIMEOUT:g} 秒内回答"),
    ],
)
def test_engine_failures_in_chinese(bridge, model, status, words, stream):
    client = anthropic.Anthropic(base_url=bridge.url, api_key=SECRET, max_retries=0, default_headers=ZH)
    late_stream = stream and model == "slow"  # message_start went out: the failure is an error event
    before = len(bridge.captures())
    with pytest.raises(anthropic.APIStatusError) as raised:
        list(client.messages.create(**body(model), stream=stream)) if stream else client.messages.create(**body(model))
    assert raised.value.status_code == (200 if late_stream else status) and raised.value.body["type"] == "error"
    assert words in raised.value.body["error"]["message"]
    deadline = time.monotonic() + 10
    while len(bridge.captures()) == before:
        assert time.monotonic() < deadline, "the capture was never kept"
        time.sleep(0.01)
    lead = "流式传输中途出错，" if late_stream else ""
    assert bridge.captures()[-1]["summary"].startswith(lead + raised.value.body["error"]["type"] + "：")


@pytest.mark.parametrize(
    "model, words",
    [("stream-error", "引擎在流式传输中出错：died mid-stream"), ("silent-stream", "引擎的流没有发来任何数据块就结束了"),
     ("bad-arguments", "引擎的回答无法变成回复，choices[0].message.tool_calls[0].function.arguments 不是有效的 JSON")],
)  # fmt: skip
def test_a_stream_that_fails_midway_says_so_in_chinese(bridge, model, words):
    """The failure after message_start is an `error` event; it, and the capture, speak the request's language."""
    client = anthropic.Anthropic(base_url=bridge.url, api_key=SECRET, max_retries=0, default_headers=ZH)
    before = len(bridge.captures())
    with pytest.raises(anthropic.APIStatusError) as raised:
        list(client.messages.create(**body(model), stream=True))
    assert words in raised.value.body["error"]["message"]
    deadline = time.monotonic() + 10
    while len(bridge.captures()) == before:  # a relayed stream's capture is kept once the stream has ended
        assert time.monotonic() < deadline, "the stream's capture was never kept"
        time.sleep(0.01)
    assert bridge.captures()[-1]["summary"].startswith("流式传输中途出错，api_error：")


def test_the_bridge_answers_in_chinese_and_the_engine_text_stays_as_it_is(bridge):
    client = anthropic.Anthropic(base_url=bridge.url, api_key=SECRET, max_retries=0, default_headers=ZH)
    reply = client.messages.create(**body("text"))
    assert text_of(reply) == "你好，这里是引擎。"
    assert bridge.captures()[-1]["summary"] == "3 条消息，1 个工具 → 5 条聊天消息；非流式，end_turn"
