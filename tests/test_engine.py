"""The real chain: the anthropic SDK -> the bridge (`tutorial serve --forward`) -> llama.cpp's
`llama-server`, built from the sdist, running the hand-wired tiny model (tiny_model.py).

The model's answers are wired, so they can be expected exactly: with tools offered it calls
Read on notes.txt; otherwise (or once a tool result is in) it thinks, then says ANSWER. The
endless variant repeats its answer until max_tokens: it is what a disconnect interrupts.

Without the engine (`python3 tasks.py engine` builds it) every test here is skipped with that
reason, and fails under CI, where `tasks.py test` builds it first.
"""

from __future__ import annotations

import json
import os
import time

import pytest

anthropic = pytest.importorskip("anthropic")
httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import tutorial  # noqa: E402
from tutorial import serve  # noqa: E402
from tutorial.llama_cpp import engine as llama  # noqa: E402

READ_TOOL = {
    "name": "Read",
    "description": "Read a file",
    "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"}}, "required": ["file_path"]},
}
REASONING = "No tool to call now, so I answer."
ANSWER = "Hello from a tiny model wired by hand!"
USER = {"role": "user", "content": "Read notes.txt and summarise it"}


def unavailable(reason: str) -> None:
    """A missing engine fails the test under CI and skips it elsewhere, with the reason."""
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"the real-engine tests cannot run under CI: {reason}")
    pytest.skip(reason)


def started(model: str):
    reason = llama.unavailable()
    if reason:
        unavailable(reason)
    return llama.start(model)


@pytest.fixture(scope="module")
def engine():
    with started("tiny") as running:
        yield running


@pytest.fixture(scope="module")
def endless():
    with started("tiny-endless") as running:
        yield running


@pytest.fixture(scope="module")
def bridge(engine):
    with serve.start(forward=serve.Forwarder(engine.url, model="tiny")) as running:
        yield running


@pytest.fixture(scope="module")
def endless_bridge(endless):
    with serve.start(forward=serve.Forwarder(endless.url, model="tiny-endless")) as running:
        yield running


@pytest.fixture
def client(bridge):
    return anthropic.Anthropic(base_url=bridge.url, api_key="unused", max_retries=0)


def kinds(message) -> list[str]:
    return [block.type for block in message.content]


# ---------------------------------------------------------------------------
# The SDK through the bridge to the engine


def test_without_tools_the_model_thinks_then_answers(client):
    reply = client.messages.create(model="tiny", max_tokens=100, messages=[USER])
    assert kinds(reply) == ["thinking", "text"], reply
    assert (reply.content[0].thinking.strip(), reply.content[1].text.strip()) == (REASONING, ANSWER)
    assert reply.stop_reason == "end_turn" and reply.usage.input_tokens > 5  # the engine's own count


def test_with_tools_the_model_calls_read(client):
    reply = client.messages.create(model="tiny", max_tokens=100, messages=[USER], tools=[READ_TOOL])
    assert reply.stop_reason == "tool_use", reply
    use = reply.content[-1]
    assert (use.type, use.name, use.input) == ("tool_use", "Read", {"file_path": "notes.txt"})


@pytest.mark.parametrize("tools", [[], [READ_TOOL]])
def test_streamed_and_not_the_same_message(client, tools):
    created = client.messages.create(model="tiny", max_tokens=100, messages=[USER], tools=tools)
    with client.messages.stream(model="tiny", max_tokens=100, messages=[USER], tools=tools) as stream:
        final = stream.get_final_message()
    dump = lambda m: [{k: v for k, v in b.model_dump().items() if k != "id"} for b in m.content]  # noqa: E731
    assert dump(final) == dump(created) and final.stop_reason == created.stop_reason


def test_the_tool_result_turn_gets_the_answer(client):
    first = client.messages.create(model="tiny", max_tokens=100, messages=[USER], tools=[READ_TOOL])
    use = first.content[-1]
    result = {"type": "tool_result", "tool_use_id": use.id, "content": "Meeting notes: ship it"}
    history = [USER, {"role": "assistant", "content": first.content}, {"role": "user", "content": [result]}]
    second = client.messages.create(model="tiny", max_tokens=100, messages=history, tools=[READ_TOOL])
    assert kinds(second) == ["thinking", "text"] and second.content[1].text.strip() == ANSWER


def test_count_tokens_answers(client):
    counted = client.messages.count_tokens(model="tiny", messages=[USER], tools=[READ_TOOL])
    assert counted.input_tokens > 0


def test_a_tool_call_cut_by_max_tokens_is_max_tokens(client):
    for stream in (False, True):
        kwargs = dict(model="tiny", max_tokens=12, messages=[USER], tools=[READ_TOOL])
        if stream:
            with client.messages.stream(**kwargs) as streamed:
                reply = streamed.get_final_message()
        else:
            reply = client.messages.create(**kwargs)
        assert reply.stop_reason == "max_tokens", reply


def test_the_bridge_cuts_at_a_stop_sequence(client):
    reply = client.messages.create(model="tiny", max_tokens=100, messages=[USER], stop_sequences=["tiny"])
    assert reply.content[-1].text.strip() == "Hello from a"
    assert (reply.stop_reason, reply.stop_sequence) == ("stop_sequence", "tiny")


# ---------------------------------------------------------------------------
# Streaming and disconnects, against the endless model


def stream_body(max_tokens: int) -> dict:
    return {"model": "tiny-endless", "max_tokens": max_tokens, "stream": True, "messages": [USER]}


def test_the_first_event_arrives_while_the_engine_is_still_generating(endless, endless_bridge):
    with httpx.stream("POST", endless_bridge.url + "/v1/messages", json=stream_body(4000), timeout=120) as response:
        lines = response.iter_lines()
        assert next(line for line in lines if line.startswith("event:")) == "event: message_start"
        assert endless.busy_slots() == 1  # the order: our first event, then the engine's end
        events = [line for line in lines if line.startswith("event:")]
    assert events[-1] == "event: message_stop" and events.count("event: content_block_delta") > 100
    assert endless.busy_slots() == 0


def test_a_client_that_goes_away_stops_the_engines_generation(endless, endless_bridge):
    predicted = metric(endless, "llamacpp:tokens_predicted_total")
    with httpx.stream("POST", endless_bridge.url + "/v1/messages", json=stream_body(30000), timeout=120) as response:
        deltas = 0
        for line in response.iter_lines():
            deltas += line == "event: content_block_delta"
            if deltas == 20:
                break  # leaving the block closes the connection
    deadline = time.monotonic() + 60
    while endless.busy_slots() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert endless.busy_slots() == 0, "the engine is still generating for a client that left"
    # it stopped far short of the 30,000 tokens it was asked for
    assert metric(endless, "llamacpp:tokens_predicted_total") - predicted < 15000


def metric(engine, name: str) -> float:
    text = httpx.get(engine.url + "/metrics", timeout=30).text
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} is not in the engine's /metrics")


# ---------------------------------------------------------------------------
# Two renderers and two tokenizers agree: the engine's and the package's


def test_the_engines_prompt_is_the_packages_qwen3_rendering(engine):
    """llama-server renders the openai target's messages with the template in the model's
    metadata (the real Qwen3 one); `tutorial.render(template="qwen3")` runs the same template
    file with jinja2 on the chat_template target's messages. Needs T's render (issue 21)."""
    body = tutorial.readme_request()
    openai_messages, openai_tools = tutorial.translate(body, target="openai")
    engine_prompt = engine.post("/apply-template", {"messages": openai_messages, "tools": openai_tools})["prompt"]
    messages, tools = tutorial.translate(body)
    assert engine_prompt == tutorial.render(messages, tools, template="qwen3")


def test_the_engines_token_ids_are_the_packages(engine):
    body = tutorial.readme_request()
    openai_messages, openai_tools = tutorial.translate(body, target="openai")
    prompt = engine.post("/apply-template", {"messages": openai_messages, "tools": openai_tools})["prompt"]
    engine_ids = engine.post("/tokenize", {"content": prompt, "add_special": False, "parse_special": True})["tokens"]
    messages, tools = tutorial.translate(body)
    assert engine_ids == tutorial.render(messages, tools, template="qwen3", tokenize=True)



# ---------------------------------------------------------------------------
# The bridge under faults, against the real engine (one slot: a second request queues)


def first_event_after(url: str, body: dict, opened: list) -> float:
    """Seconds from sending `body` to the stream's first `event:` line; the response is left open in `opened`."""
    started = time.monotonic()
    context = httpx.stream("POST", url + "/v1/messages", json=body, timeout=120)
    response = context.__enter__()
    lines = response.iter_lines()
    opened.append((context, lines))  # kept: a line iterator that is dropped closes its connection
    assert next(line for line in lines if line.startswith("event:")) == "event: message_start"
    return time.monotonic() - started


def test_a_request_queued_behind_a_busy_slot_gets_message_start_within_a_second(endless, endless_bridge):
    opened: list = []
    try:
        first_event_after(endless_bridge.url, stream_body(6000), opened)  # takes the engine's only slot
        deadline = time.monotonic() + 30
        while not endless.busy_slots() and time.monotonic() < deadline:  # message_start may come first
            time.sleep(0.05)
        assert endless.busy_slots() == 1
        waited = first_event_after(endless_bridge.url, stream_body(10), opened)  # waits for that slot
        assert waited < 1.0, f"the queued request's first event came after {waited:.2f} s"
        assert endless.busy_slots() == 1  # still the first request's: the second is queued
        assert metric(endless, "llamacpp:requests_deferred") == 1
    finally:
        for context, _lines in reversed(opened):
            context.__exit__(None, None, None)
    deadline = time.monotonic() + 60
    while endless.busy_slots() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert endless.busy_slots() == 0


def test_max_tokens_beyond_what_the_engine_takes_is_the_bridges_located_400(engine, bridge):
    prompted = metric(engine, "llamacpp:prompt_tokens_total")
    for wanted, words in [
        (10**12, "max_tokens: 1000000000000 is more than any engine reads (at most 2147483647)"),
        (2**31, "max_tokens: 2147483648 is more than any engine reads"),
    ]:
        for stream in (False, True):
            body = {"model": "tiny", "max_tokens": wanted, "stream": stream, "messages": [USER]}
            response = httpx.post(bridge.url + "/v1/messages", json=body, timeout=30)
            assert response.status_code == 400, response.text
            error = response.json()["error"]
            assert error["type"] == "invalid_request_error" and error["message"].startswith(words), error
            assert "-2147483648" not in error["message"]  # not the engine's own integer overflow
    assert metric(engine, "llamacpp:prompt_tokens_total") == prompted  # the engine never saw them


def test_max_tokens_above_the_engines_context_is_lowered_to_it(engine, bridge, client):
    """Nothing past the context can be generated, and agent CLIs ask for more than a tiny engine holds."""
    before = len(bridge.captures())
    with client.messages.stream(model="tiny", max_tokens=64000, messages=[USER]) as stream:  # the SDK wants one here
        reply = stream.get_final_message()
    assert kinds(reply) == ["thinking", "text"]
    deadline = time.monotonic() + 10
    while len(bridge.captures()) == before:  # a stream's capture is kept just after its last event
        assert time.monotonic() < deadline, "the stream's capture was never kept"
        time.sleep(0.01)
    record = bridge.captures()[-1]["forward"]
    assert record["max_tokens_lowered"] == {"asked": 64000, "sent": llama.CONTEXT}
    assert record["request"]["max_tokens"] == llama.CONTEXT


def test_a_stalled_body_is_dropped_within_the_stated_timeout(engine):
    import socket

    with serve.start(forward=serve.Forwarder(engine.url, model="tiny"), body_timeout=2.0) as running:
        stalled = []
        for _ in range(5):  # headers, a start of the body, then nothing
            sock = socket.create_connection((running.host, running.port), timeout=10)
            sock.sendall(b"POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\n"
                         b"content-length: 1000\r\n\r\n{\"model\": ")  # fmt: skip
            stalled.append(sock)
        started = time.monotonic()
        # a normal request is served meanwhile
        served = httpx.post(running.url + "/v1/messages", json={"model": "tiny", "max_tokens": 20, "messages": [USER]}, timeout=60)
        assert served.status_code == 200
        for sock in stalled:
            answer = b""
            while chunk := sock.recv(65536):  # until the bridge closes the connection
                answer += chunk
            dropped = time.monotonic() - started
            sock.close()
            assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
            assert b"it did not arrive within 2 s (10 bytes came)" in answer
            assert dropped < 2.0 + 1.5, f"a stalled body held its connection {dropped:.2f} s"


def test_stopping_the_bridge_mid_stream_sends_an_error_event_and_frees_the_engine(endless):
    import signal
    import subprocess
    import sys

    command = [sys.executable, "-m", "tutorial", "serve", "--port", "0", "--lang", "en", "--forward", endless.url, "--model", "tiny-endless"]
    bridge = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        banner = bridge.stderr.readline()
        url = banner.split("listening on ")[1].split(",")[0]
        deadline = time.monotonic() + 30
        while True:  # the banner comes once the port is bound, a moment before uvicorn listens
            try:
                httpx.get(url + "/", timeout=5)
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline and bridge.poll() is None, "the bridge did not start"
                time.sleep(0.05)
        with httpx.stream("POST", url + "/v1/messages", json=stream_body(30000), timeout=60) as response:
            lines = response.iter_lines()
            deltas = 0
            for line in lines:
                deltas += line == "event: content_block_delta"
                if deltas == 10:
                    break
            assert endless.busy_slots() == 1
            stopped = time.monotonic()
            bridge.send_signal(signal.SIGTERM)
            rest = list(lines)
        ended = time.monotonic() - stopped
        events = [line for line in rest if line.startswith("event:")]
        assert events[-1] == "event: error", rest[-5:]
        error = json.loads(rest[rest.index("event: error") + 1][len("data: "):])
        assert error["error"]["type"] == "overloaded_error" and "shutting down" in error["error"]["message"]
        assert bridge.wait(10) == 0
        assert ended < 2.0, f"the stream ended {ended:.2f} s after SIGTERM"  # far inside the 5 s grace
        log = bridge.stderr.read()
        assert "Traceback" not in log and "CancelledError" not in log, log
        assert "-> 200" in log and "then an error event mid-stream: overloaded_error" in log, log
    finally:
        if bridge.poll() is None:
            bridge.kill()
            bridge.wait()
    deadline = time.monotonic() + 30
    while endless.busy_slots() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert endless.busy_slots() == 0, "the engine is still generating for a bridge that stopped"


def test_ctrl_c_while_the_model_loads_stops_llama_server(monkeypatch):
    """The CI once found llama-server still running after one Ctrl-C to `python -m
    tutorial.llama_cpp.engine`: the signal came while start() was still waiting for /health."""
    if llama.unavailable():
        unavailable(llama.unavailable())
    asked = []

    def interrupted(self, path, timeout=30.0):
        asked.append(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(llama.RunningEngine, "get", interrupted)
    with pytest.raises(KeyboardInterrupt):
        llama.start("tiny")
    assert asked, "start() never asked the server whether it was ready"
    assert asked[0].process.poll() is not None, "llama-server outlived a Ctrl-C to the start() that launched it"


def test_serve_engine_starts_both_and_sigterm_stops_both():
    import signal
    import subprocess
    import sys

    if llama.unavailable():
        unavailable(llama.unavailable())
    command = [sys.executable, "-m", "tutorial", "serve", "--engine", "--port", "0", "--lang", "en"]
    both = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        started = both.stderr.readline()
        assert started.startswith("llama-server is running tiny.gguf at "), started
        engine_url = started.split(" at ")[1].split(" ")[0]
        url = both.stderr.readline().split("listening on ")[1].split(",")[0]
        deadline = time.monotonic() + 30
        while True:
            try:
                reply = httpx.post(url + "/v1/messages", json={"model": "x", "max_tokens": 50, "messages": [USER]}, timeout=60)
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline and both.poll() is None, "the bridge did not start"
                time.sleep(0.05)
        assert reply.status_code == 200 and reply.json()["content"][-1]["text"] == ANSWER
        both.send_signal(signal.SIGTERM)
        assert both.wait(20) == 0
        with pytest.raises(httpx.ConnectError):  # llama-server stopped with it
            httpx.get(engine_url + "/health", timeout=5)
        assert "Traceback" not in both.stderr.read()
    finally:
        if both.poll() is None:
            both.kill()
            both.wait()


def test_usage_says_whether_it_is_the_engines_or_an_estimate(bridge, client):
    """Cut at a stop sequence, the engine's last chunk (with its counts) never comes."""
    for stop_sequences, source in ((None, "engine"), (["Hello"], "estimated")):
        before = len(bridge.captures())
        extra = {"stop_sequences": stop_sequences} if stop_sequences else {}
        with client.messages.stream(model="tiny", max_tokens=100, messages=[USER], **extra) as stream:
            reply = stream.get_final_message()
        deadline = time.monotonic() + 10
        while len(bridge.captures()) == before:
            assert time.monotonic() < deadline, "the stream's capture was never kept"
            time.sleep(0.01)
        record = bridge.captures()[-1]["forward"]
        assert record["usage"] == source, record
        assert reply.usage.output_tokens > 0 and reply.usage.input_tokens > 0


def test_the_engine_threads_follow_what_is_free(monkeypatch):
    monkeypatch.setenv("TUTORIAL_ENGINE_THREADS", "3")
    assert llama.free_threads() == 3
    monkeypatch.delenv("TUTORIAL_ENGINE_THREADS")
    monkeypatch.setattr(os, "getloadavg", lambda: (5.0, 5.0, 5.0))  # every core busy
    assert llama.free_threads() == 1
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert llama.free_threads() == max(1, min(llama.MAX_THREADS, len(os.sched_getaffinity(0))))


def test_how_to_start_the_engine_and_the_bridge_is_printed():
    """What `python3 tasks.py engine` ends with; test_serve_engine_... runs the first command."""
    import subprocess
    import sys

    for lang, words in (("en", "Start the engine and the bridge"), ("zh", "在终端里启动引擎和桥接服务")):
        printed = subprocess.run([sys.executable, "-m", "tutorial.llama_cpp.engine", "how"], capture_output=True, text=True,
                                 env={**os.environ, "TUTORIAL_LANG": lang}, check=True).stdout  # fmt: skip
        assert printed.startswith(words)
        assert "-m tutorial serve --engine" in printed and "-m tutorial serve --forward http://127.0.0.1:8080" in printed
