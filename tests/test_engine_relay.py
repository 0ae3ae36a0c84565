"""The streaming relay (tutorial/serve/relay.py) on its own and through the bridge, with an
engine this test starts: events leave as chunks arrive, a client that goes away closes the
engine's request, a cut tool call is max_tokens, stop sequences are the bridge's, failures say
whether to retry. tests/test_engine.py does the same against llama.cpp's real server."""

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
from starlette.responses import JSONResponse, StreamingResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from tutorial import serve  # noqa: E402
from tutorial.serve.relay import Relay, partial_json  # noqa: E402

# ---------------------------------------------------------------------------
# partial_json: JSON text that stopped half way


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"city":', {}),
        ('{"city": "Par', {}),
        ('{"city": "Paris", "days": 3', {"city": "Paris"}),
        ('{"city": "Paris", "days": 3}', {"city": "Paris", "days": 3}),
        ('{"a": [1, 2, {"b": tr', {"a": [1, 2, {}]}),
        ('{"a": {"b": "c"}, "d": ["e", "f', {"a": {"b": "c"}, "d": ["e"]}),
        ('{"q": "say \\"hi', {}),
        ("  ", None),
    ],
)
def test_partial_json_keeps_what_arrived_whole(text, value):
    assert partial_json(text) == value


@pytest.mark.parametrize("text", ['{"a" 1', "{1: 2}", '{"a": 1} x', "[1 2]"])
def test_partial_json_refuses_what_is_not_the_start_of_json(text):
    with pytest.raises(ValueError):
        partial_json(text)


# ---------------------------------------------------------------------------
# The relay, chunk by chunk


def chunk(finish=None, **delta) -> dict:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def relay(**extra) -> Relay:
    return Relay(message_id="msg_1", model="m", input_tokens=5, **extra)


def names(events: list[dict]) -> list[str]:
    return [event["event"] + (f":{event['data']['delta']['type']}" if "delta" in event["data"] and "type" in event["data"]["delta"] else "") for event in events]


def test_each_delta_leaves_as_it_arrives_in_anthropic_block_order():
    r = relay()
    assert names(r.opening()) == ["message_start", "ping"]
    assert names(r.feed(chunk(reasoning_content="6 times"))) == ["content_block_start", "content_block_delta:thinking_delta"]
    assert names(r.feed(chunk(reasoning_content=" 7"))) == ["content_block_delta:thinking_delta"]
    assert names(r.feed(chunk(content="42"))) == ["content_block_stop", "content_block_start", "content_block_delta:text_delta"]
    call = {"index": 0, "id": "c1", "type": "function", "function": {"name": "Read", "arguments": '{"file'}}
    assert names(r.feed(chunk(tool_calls=[call]))) == ["content_block_stop", "content_block_start", "content_block_delta:input_json_delta"]
    more = {"index": 0, "function": {"arguments": '_path": "a.txt"}'}}
    assert names(r.feed(chunk(tool_calls=[more]))) == ["content_block_delta:input_json_delta"]
    r.feed(chunk(finish="tool_calls"))
    assert names(r.closing())[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    reply = r.reply()
    assert [b["type"] for b in reply.blocks] == ["thinking", "text", "tool_use"]
    assert reply.blocks[0]["thinking"] == "6 times 7" and reply.blocks[2]["input"] == {"file_path": "a.txt"}
    assert reply.stop_reason == "tool_use"


def test_a_tool_call_cut_by_max_tokens_is_max_tokens_with_what_arrived_whole():
    r = relay()
    r.opening()
    call = {"index": 0, "id": "c1", "function": {"name": "get_weather", "arguments": '{"city": "Paris", "unit":'}}
    r.feed(chunk(tool_calls=[call]))
    r.feed(chunk(finish="length"))
    events = r.closing()
    assert events[-2]["data"]["delta"] == {"stop_reason": "max_tokens", "stop_sequence": None}
    assert r.reply().blocks[0]["input"] == {"city": "Paris"}


def test_a_stop_sequence_split_across_deltas_is_found_and_cut():
    r = relay(stop_sequences=["STOP", "never"])
    r.opening()
    sent = []
    for part in ["Hello wor", "ld ST", "OP and more"]:
        sent += [e["data"]["delta"]["text"] for e in r.feed(chunk(content=part)) if e["event"] == "content_block_delta"]
        if r.stopped:
            break
    assert "".join(sent) == "Hello world " and r.stopped == "STOP"
    assert r.closing()[-2]["data"]["delta"] == {"stop_reason": "stop_sequence", "stop_sequence": "STOP"}


def test_held_back_text_that_was_no_stop_sequence_is_sent_at_the_end():
    r = relay(stop_sequences=["STOP"])
    r.opening()
    r.feed(chunk(content="all ST"))
    r.feed(chunk(finish="stop"))
    texts = [e["data"]["delta"]["text"] for e in r.closing() if e["event"] == "content_block_delta"]
    assert texts == ["ST"] and r.reply().blocks == [{"type": "text", "text": "all ST"}]


def test_an_answer_with_nothing_in_it_is_one_empty_text_block():
    r = relay()
    r.opening()
    r.feed(chunk(finish="stop"))
    events = r.closing()
    assert [e["event"] for e in events][:3] == ["content_block_start", "content_block_stop", "message_delta"]
    assert r.reply().blocks == [{"type": "text", "text": ""}]


# ---------------------------------------------------------------------------
# Through the bridge, with an engine that streams on command


class Engine:
    """Streams "tick" chunks: `hold` waits for `release` after the first; `endless` never ends."""

    def __init__(self):
        self.app = Starlette(routes=[Route("/v1/chat/completions", self.complete, methods=["POST"])])
        self.release = threading.Event()
        self.finished = threading.Event()  # the engine sent its last chunk
        self.closed = threading.Event()  # the engine's stream stopped, finished or not
        self.sent = 0
        self.received: list[dict] = []

    async def complete(self, request: Request):
        body = await request.json()
        self.received.append(body)
        if body["model"] == "fails":
            return JSONResponse({"error": {"message": "image input is not supported"}}, status_code=500)
        self.release.clear(), self.finished.clear(), self.closed.clear()
        self.sent = 0
        return StreamingResponse(self.chunks(body["model"]), media_type="text/event-stream")

    async def chunks(self, model: str):
        try:
            text = ["Hello", " there", ", STOP", " and after"]
            for n in range(10**6 if model == "endless" else len(text)):
                yield f"data: {json.dumps(chunk(content=text[n % len(text)]))}\n\n"
                self.sent += 1
                if model == "hold" and n == 0:
                    while not self.release.is_set():
                        await asyncio.sleep(0.01)
                if model == "endless":
                    await asyncio.sleep(0.005)
            yield f"data: {json.dumps(chunk(finish='stop'))}\n\n"
            yield "data: [DONE]\n\n"
            self.finished.set()
        finally:
            self.closed.set()


@pytest.fixture(scope="module")
def engine():
    fake = Engine()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(fake.app, log_config=None, access_log=False, lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    fake.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    yield fake
    fake.release.set()
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def bridge(engine):
    with serve.start(forward=engine.url) as running:
        yield running


def request(model: str, **extra) -> dict:
    return {"model": model, "max_tokens": 64, "stream": True, "messages": [{"role": "user", "content": "hi"}], **extra}


def test_the_first_event_leaves_before_the_engine_finishes(engine, bridge):
    with httpx.stream("POST", bridge.url + "/v1/messages", json=request("hold"), timeout=30) as response:
        lines = response.iter_lines()
        first = next(line for line in lines if line.startswith("event:"))
        assert first == "event: message_start"
        assert not engine.finished.is_set()  # the order: our first event, then the engine's end
        engine.release.set()
        rest = [line for line in lines if line.startswith("event:")]
    assert rest[-1] == "event: message_stop" and engine.finished.is_set()


def wait_for(flag: threading.Event, seconds: float = 20.0) -> bool:
    return flag.wait(seconds)


def test_a_client_that_goes_away_closes_the_engines_stream(engine, bridge):
    before = len(bridge.captures())
    with httpx.stream("POST", bridge.url + "/v1/messages", json=request("endless"), timeout=30) as response:
        deltas = 0
        for line in response.iter_lines():
            deltas += line == "event: content_block_delta"
            if deltas == 3:
                break  # leaving the block closes the connection
    assert wait_for(engine.closed), "the engine kept streaming after the client left"
    assert not engine.finished.is_set()
    deadline = time.monotonic() + 20
    while len(bridge.captures()) == before and time.monotonic() < deadline:
        time.sleep(0.05)  # the capture is kept once the bridge has closed its side too
    captured = bridge.captures()[-1]
    assert captured["forward"]["closed_early"] is True and "went away" in captured["summary"]


def test_the_bridge_stops_the_engine_at_a_stop_sequence(engine, bridge):
    client = anthropic.Anthropic(base_url=bridge.url, api_key="unused", max_retries=0)
    for stream in (False, True):
        body = request("endless", stop_sequences=["STOP"])
        body.pop("stream")
        if stream:
            with client.messages.stream(**body) as streamed:
                reply = streamed.get_final_message()
        else:
            reply = client.messages.create(**body)
        assert reply.content[0].text == "Hello there, " and (reply.stop_reason, reply.stop_sequence) == ("stop_sequence", "STOP")
        assert "stop" not in engine.received[-1] and engine.received[-1]["stream"] is True
        assert wait_for(engine.closed) and not engine.finished.is_set()


def test_an_engine_500_is_not_worth_retrying(engine, bridge):
    for stream in (False, True):
        response = httpx.post(bridge.url + "/v1/messages", json={**request("fails"), "stream": stream}, timeout=30)
        assert response.status_code == 502 and response.headers["x-should-retry"] == "false"
        assert response.json()["error"]["message"] == "the engine answered HTTP 500: image input is not supported"


def test_a_failing_responder_is_not_worth_retrying():
    def broken(body):
        raise RuntimeError("no")

    with serve.start(responder=broken) as running:
        response = httpx.post(running.url + "/v1/messages", json={**request("x"), "stream": False}, timeout=30)
    assert response.status_code == 500 and response.headers["x-should-retry"] == "false"


def test_stopping_the_bridge_ends_waiting_requests_with_overloaded_error_at_once(engine, caplog):
    """A stream and a request waiting for a whole answer, both held by the engine, when the
    server stops: the stream gets an error event, the other a 529, the engine's streams are
    closed, and nothing is cancelled the hard way (no CancelledError in the log)."""
    results: dict = {}
    running = serve.start(forward=engine.url)

    def streamed():
        with httpx.stream("POST", running.url + "/v1/messages", json=request("hold"), timeout=30) as response:
            results["stream"] = [line for line in response.iter_lines() if line]

    def whole():
        response = httpx.post(running.url + "/v1/messages", json={**request("hold"), "stream": False}, timeout=30)
        results["whole"] = (response.status_code, response.json(), response.headers.get("x-should-retry"))

    clients = [threading.Thread(target=streamed), threading.Thread(target=whole)]
    for thread in clients:
        thread.start()
        deadline = time.monotonic() + 20
        while engine.sent == 0 and time.monotonic() < deadline:  # the engine holds it after its first chunk
            time.sleep(0.01)
        time.sleep(0.3)
    stopped = time.monotonic()
    running.stop()
    took = time.monotonic() - stopped
    for thread in clients:
        thread.join(20)
    engine.release.set()
    assert took < 2.0, f"stopping took {took:.2f} s"  # far inside the 5 s grace
    lines = results["stream"]
    assert lines[0] == "event: message_start" and lines[-2] == "event: error"
    assert json.loads(lines[-1][len("data: "):])["error"]["type"] == "overloaded_error"
    status, body, retry = results["whole"]
    assert (status, body["error"]["type"], retry) == (529, "overloaded_error", "true")
    assert "shutting down" in body["error"]["message"]
    assert wait_for(engine.closed)
    assert "CancelledError" not in caplog.text and "Cancel " not in caplog.text
