"""The real chain: the anthropic SDK -> the bridge (`tutorial serve --forward`) -> llama.cpp's
`llama-server`, built from the sdist, running the hand-wired tiny model (tiny_model.py).

The model's answers are wired, so they can be expected exactly: with tools offered it calls
Read on notes.txt; otherwise (or once a tool result is in) it thinks, then says ANSWER. The
endless variant repeats its answer until max_tokens: it is what a disconnect interrupts.

Without the engine (`python3 tasks.py engine` builds it) every test here is skipped with that
reason, and fails under CI, where `tasks.py test` builds it first.
"""

from __future__ import annotations

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

