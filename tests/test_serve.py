"""The local /v1/messages endpoint (tutorial.serve), driven over loopback by the real
`anthropic` SDK: replies streamed and not, a tool conversation echoed back, errors as
envelopes, captures, secrets, the body limit and many clients at once."""

from __future__ import annotations

import copy
import json
import logging
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

anthropic = pytest.importorskip("anthropic")
httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import tutorial  # noqa: E402
from tutorial import serve  # noqa: E402
from tutorial.serve.captures import CaptureStore, visible_headers, visible_path  # noqa: E402
from tutorial.serve.running import is_loopback, warn_unless_loopback  # noqa: E402
from tutorial.words import using  # noqa: E402

SECRET = "sk-ant-api03-SECRET-do-not-store-0123456789"
CLIENT_LOGGERS = ("httpx", "httpcore", "anthropic")  # the test's own clients log the URLs they call
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def server_log():
    return []


@pytest.fixture(scope="module")
def server(server_log):
    with serve.start(max_captures=2000, log=server_log.append) as running:
        yield running


@pytest.fixture
def client(server):
    return anthropic.Anthropic(base_url=server.url, api_key=SECRET, max_retries=0)


def readme_body() -> dict:
    return {"model": "local-model", **tutorial.readme_request()}


def capture_of(server, message_id: str) -> dict:
    """The capture behind a reply: the message id is "msg_" + the capture's id."""
    assert message_id.startswith("msg_cap_")
    return server.capture(message_id.removeprefix("msg_"))


def text_of(message) -> str:
    return "".join(block.text for block in message.content if block.type == "text")


# ---------------------------------------------------------------------------
# Replies


def test_binds_loopback_on_a_free_port_by_default(server):
    assert server.host == "127.0.0.1" and server.port > 0
    assert server.url == f"http://127.0.0.1:{server.port}"
    assert server.running


def test_create_returns_a_message_telling_what_the_translation_made(server, client):
    reply = client.messages.create(**readme_body())
    assert (reply.type, reply.role, reply.model, reply.stop_reason) == ("message", "assistant", "local-model", "end_turn")
    text = text_of(reply)
    assert "chat_template target: 5 messages (1 system, 2 user, 1 assistant, 1 tool) and 1 tool." in text
    assert "messages[1].content[1].id" in text  # what stays behind, by place
    assert reply.usage.input_tokens > 0 and reply.usage.output_tokens > 0

    capture = capture_of(server, reply.id)
    assert capture["status"] == 200 and capture["method"] == "POST" and capture["path"] == "/v1/messages"
    assert capture["body"] == readme_body()
    ours = capture["translated"]["chat_template"]
    assert ours == {"translated": tutorial.readme_translated(), "tools_schema": tutorial.readme_tools_schema()}
    messages, tools = tutorial.translate(readme_body(), target="openai")
    assert capture["translated"]["openai"] == {"translated": messages, "tools_schema": tools}
    assert {"path": "messages[1].content[1].id", "value": "toolu_demo"} in [
        {key: loss[key] for key in ("path", "value")} for loss in capture["losses"]["chat_template"]
    ]
    assert capture["reply"]["content"] == [block.model_dump(exclude_none=True) for block in reply.content]


def test_the_teaching_reply_is_deterministic(client):
    first, second = client.messages.create(**readme_body()), client.messages.create(**readme_body())
    assert first.content == second.content and first.usage == second.usage
    assert first.id != second.id  # one capture each


def test_create_stream_true_sends_the_api_event_sequence(client):
    events = list(client.messages.create(**readme_body(), stream=True))
    assert [event.type for event in events] == [
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert events[-2].delta.stop_reason == "end_turn"


def test_the_raw_stream_has_a_ping_after_message_start(server):
    response = httpx.post(f"{server.url}/v1/messages", json={**readme_body(), "stream": True}, timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    records = [record for record in response.text.split("\n\n") if record]
    names = [record.split("\n")[0].removeprefix("event: ") for record in records]
    assert names[:2] == ["message_start", "ping"] and names[-1] == "message_stop"
    for record, name in zip(records, names):
        event_line, data_line = record.split("\n")
        assert event_line == f"event: {name}" and json.loads(data_line.removeprefix("data: "))["type"] == name


def test_the_streamed_final_message_equals_the_unstreamed_one(server, client):
    created = client.messages.create(**readme_body())
    with client.messages.stream(**readme_body()) as stream:
        final = stream.get_final_message()
    assert final.model_dump(exclude={"id"}) == created.model_dump(exclude={"id"})
    assert capture_of(server, final.id)["reply"] == {**capture_of(server, created.id)["reply"], "id": final.id}


def test_the_beta_path_and_headers_are_accepted_and_kept(server, client):
    reply = client.beta.messages.create(
        **readme_body(),
        betas=["interleaved-thinking-2025-05-14"],
        thinking={"type": "enabled", "budget_tokens": 1024},
        extra_query={"beta": "true"},  # what the TypeScript SDK (and so Claude Code) adds to the path
    )
    capture = capture_of(server, reply.id)
    assert capture["path"] == "/v1/messages?beta=true"
    assert capture["headers"]["anthropic-beta"] == "interleaved-thinking-2025-05-14"
    assert "anthropic-version" in capture["headers"] and "user-agent" in capture["headers"]
    assert {"path": "thinking", "value": {"type": "enabled", "budget_tokens": 1024}} in [
        {key: loss[key] for key in ("path", "value")} for loss in capture["losses"]["chat_template"]
    ]


def test_count_tokens_gives_a_rough_count(server, client):
    counted = client.messages.count_tokens(**{k: v for k, v in readme_body().items() if k != "max_tokens"})
    assert 50 < counted.input_tokens < 1000
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.count_tokens(model="m", messages=[{"role": "robot", "content": "hi"}])
    assert raised.value.body["error"]["message"].startswith("messages[0].role: ")


# ---------------------------------------------------------------------------
# A three-turn tool conversation, the SDK's own objects echoed back


@pytest.fixture
def tool_server():
    responder = serve.tool_then_text("read_file", {"path": "README.md"})
    with serve.start(responder=responder) as running:
        yield running


def test_a_three_turn_tool_conversation_echoes_the_sdk_objects(tool_server):
    client = anthropic.Anthropic(base_url=tool_server.url, api_key=SECRET, max_retries=0)
    readme = tutorial.readme_request()
    ask = {"model": "local", "max_tokens": 256, "system": readme["system"], "tools": readme["tools"]}
    messages = [{"role": "user", "content": "读取 README.md 并概括内容。"}]

    first = client.messages.create(**ask, messages=messages)
    assert first.stop_reason == "tool_use"
    [use] = [block for block in first.content if block.type == "tool_use"]
    assert (use.name, use.input) == ("read_file", {"path": "README.md"})
    messages.append({"role": "assistant", "content": first.content})  # the SDK's objects, as agents do
    messages.append(
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "# Demo\n这是一个学习项目。"}]}
    )

    second = client.messages.create(**ask, messages=messages)
    assert second.stop_reason == "end_turn" and "这是一个学习项目" in text_of(second)
    messages.append({"role": "assistant", "content": second.content})
    messages.append({"role": "user", "content": "请用一句话概括。"})

    third = client.messages.create(**ask, messages=messages)
    assert third.stop_reason == "end_turn" and "chat_template target: 6 messages" in text_of(third)

    one, two, three = (capture_of(tool_server, reply.id) for reply in (first, second, third))
    # The reply came back word for word as history...
    assert two["body"]["messages"][1]["content"] == one["reply"]["content"]
    assert three["body"]["messages"][3]["content"] == two["reply"]["content"]
    # ...and the echo translates, on the openai target, to the chat message the reply was.
    assert two["translated"]["openai"]["translated"][2] == one["reply_as_chat_message"]
    assert three["translated"]["openai"]["translated"][4] == two["reply_as_chat_message"]
    # On the default target, the echoed call is the id-less call build_reply promised.
    assert two["translated"]["chat_template"]["translated"][2] == {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"type": "function", "function": {"name": "read_file", "arguments": {"path": "README.md"}}}],
    }


def test_tool_then_text_falls_back_when_the_tool_is_not_offered():
    responder = serve.tool_then_text("Read", {"file_path": "/etc/hostname"})
    side_request = {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "a title for this chat?"}]}
    assert responder(side_request) == serve.teaching_responder(side_request)  # no tools offered
    offered_other = {**side_request, "tools": tutorial.readme_request()["tools"]}
    assert responder(offered_other) == serve.teaching_responder(offered_other)  # read_file, not Read
    blocks, stop_reason = responder({**side_request, "tools": [{"name": "Read", "input_schema": {"type": "object"}}]})
    assert stop_reason == "tool_use" and blocks == [
        {"type": "tool_use", "id": "toolu_tutorial_1_0", "name": "Read", "input": {"file_path": "/etc/hostname"}}
    ]


# ---------------------------------------------------------------------------
# Errors: always an envelope, with the status the API uses

BAD_BODIES = [
    ([{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}], "messages[0].content[0].tool_use_id: "),
    ([{"role": "robot", "content": "hi"}], "messages[0].role: "),
    (
        [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "tool_use", "name": "f"}]}],
        "messages[1].content[0].",
    ),
    ([{"role": "user", "content": 42}], "messages[0].content: "),
]


@pytest.mark.parametrize("messages, location", BAD_BODIES)
def test_a_bad_body_is_a_400_located_as_translate_locates_it(client, server, messages, location):
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(model="m", max_tokens=16, messages=messages)
    error = raised.value
    assert error.status_code == 400
    assert error.body["type"] == "error" and error.body["error"]["type"] == "invalid_request_error"
    message = error.body["error"]["message"]
    assert message.startswith(location)
    with pytest.raises(tutorial.RequestError) as expected:
        tutorial.translate({"model": "m", "max_tokens": 16, "messages": messages})
    assert message == str(expected.value)
    assert server.captures()[-1]["status"] == 400 and server.captures()[-1]["reply"] == error.body


@pytest.mark.parametrize(
    "body, message",
    [
        ({"max_tokens": 0}, "max_tokens: must be a positive integer, got 0"),
        ({"stream": "yes"}, "stream: must be true or false, got str"),
        ({"model": 7}, "model: must be a string, got int"),
    ],
)
def test_the_parameters_the_server_reads_are_checked(server, body, message):
    response = httpx.post(f"{server.url}/v1/messages", json={**readme_body(), **body}, timeout=30)
    assert response.status_code == 400
    assert response.json() == {"type": "error", "error": {"type": "invalid_request_error", "message": message}}


@pytest.mark.parametrize(
    "content, start",
    [(b"{not json", "body: the request body is not valid JSON: Expecting property name"),
     (b"", "body: the request body is empty: no JSON to read"),
     (b"[1, 2]", "body: the request body must be a JSON object, got list"), (b"\xff\xfe\x00", "body: the request body is not UTF-8"),
     (b"[" * 100_000 + b"]" * 100_000, "body: the request body "), (b'{"n": ' + b"9" * 5000 + b"}", "body: the request body ")],
)
def test_malformed_json_is_a_400_envelope(server, content, start):
    response = httpx.post(f"{server.url}/v1/messages", content=content, headers={"content-type": "application/json"})
    assert response.status_code == 400
    envelope = response.json()
    assert envelope["type"] == "error" and envelope["error"]["type"] == "invalid_request_error"
    assert envelope["error"]["message"].startswith(start)
    assert "Traceback" not in response.text


def test_an_unknown_route_is_a_404_envelope(server, client):
    with pytest.raises(anthropic.NotFoundError) as raised:
        client.models.list()  # GET /v1/models: the API has it, this server does not
    assert raised.value.body["error"]["type"] == "not_found_error"
    assert server.captures()[-1]["path"].startswith("/v1/models") and server.captures()[-1]["status"] == 404
    response = httpx.get(f"{server.url}/nowhere")
    assert response.status_code == 404 and response.json()["error"]["message"] == "GET /nowhere: no such route here (see GET /)"
    wrong_method = httpx.get(f"{server.url}/v1/messages")
    assert wrong_method.status_code == 405 and wrong_method.json()["type"] == "error"


def test_a_failing_responder_is_a_500_envelope_without_traceback():
    def broken(body):
        raise KeyError("something inside the responder")

    with serve.start(responder=broken) as running:
        client = anthropic.Anthropic(base_url=running.url, api_key=SECRET, max_retries=0)
        with pytest.raises(anthropic.InternalServerError) as raised:
            client.messages.create(**readme_body())
        assert raised.value.status_code == 500
        assert raised.value.body["error"] == {
            "type": "api_error",
            "message": "the responder failed: KeyError: 'something inside the responder'",
        }
        assert running.captures()[-1]["status"] == 500


# ---------------------------------------------------------------------------
# The body limit


@pytest.fixture(scope="module")
def small_server():
    with serve.start(max_body_bytes=20_000) as running:
        yield running


def test_a_body_over_the_limit_is_a_413_envelope(small_server):
    client = anthropic.Anthropic(base_url=small_server.url, api_key=SECRET, max_retries=0)
    with pytest.raises(anthropic.APIStatusError) as raised:
        client.messages.create(model="m", max_tokens=16, messages=[{"role": "user", "content": "x" * 30_000}])
    assert raised.value.status_code == 413
    assert raised.value.body["error"]["type"] == "request_too_large"
    assert "over this server's limit of 20000 bytes" in raised.value.body["error"]["message"]
    capture = small_server.captures()[-1]
    assert capture["status"] == 413 and capture["body"] is None


def test_the_limit_holds_without_a_content_length(small_server):
    def chunked():  # a generator body goes out chunked, with no Content-Length to check first
        yield b'{"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "'
        for _ in range(30):
            yield b"x" * 1000
        yield b'"}]}'

    response = httpx.post(f"{small_server.url}/v1/messages", content=chunked(), timeout=30)
    assert response.status_code == 413 and response.json()["error"]["type"] == "request_too_large"
    assert "more than" in response.json()["error"]["message"]
    fits = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "x" * 19_000}]}
    just_under = httpx.post(f"{small_server.url}/v1/messages", json=fits)
    assert just_under.status_code == 200


# ---------------------------------------------------------------------------
# Captures over HTTP, the status page


def test_get_captures_lists_them_and_returns_one(server, client):
    reply = client.messages.create(**readme_body())
    listing = httpx.get(f"{server.url}/captures").json()
    assert listing["has_more"] is False and listing["last_id"] == listing["data"][-1]["id"]
    entry = next(item for item in listing["data"] if item["id"] == reply.id.removeprefix("msg_"))
    assert set(entry) == {"id", "time", "method", "path", "status", "summary"}
    assert entry["summary"] == "3 messages, 1 tool -> 5 chat messages; json, end_turn"
    one = httpx.get(f"{server.url}/captures/{entry['id']}").json()
    assert one["body"] == readme_body() and one["reply"]["id"] == reply.id
    missing = httpx.get(f"{server.url}/captures/cap_9999999")
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "not_found_error"
    assert [c["id"] for c in server.captures()] == sorted(c["id"] for c in server.captures())  # oldest first


def test_the_status_page_answers_get_and_head(server):
    status = httpx.get(f"{server.url}/")
    assert status.status_code == 200 and status.json()["status"] == "ok"
    assert status.json()["answers_with"] == "teaching_responder"
    head = httpx.head(f"{server.url}/")
    assert head.status_code == 200 and head.content == b""
    assert httpx.get(f"{server.url}/captures").json()["data"][-1]["path"] != "/"  # its own pages are not captured


def test_the_store_keeps_the_newest(tmp_path):
    store = CaptureStore(max_captures=3)
    for number in range(5):
        capture = store.begin("POST", "/v1/messages", "", [])
        capture["number"] = number
        store.add(capture)
    assert [c["number"] for c in store.all()] == [2, 3, 4]
    assert store.get("cap_0001") is None and store.get("cap_0005")["number"] == 4


# ---------------------------------------------------------------------------
# Secrets


def test_secret_headers_and_query_values_are_withheld():
    kept, withheld = visible_headers(
        [("X-Api-Key", SECRET), ("Authorization", f"Bearer {SECRET}"), ("Cookie", "a=b"), ("x-goog-api-key", SECRET),
         ("anthropic-version", "2023-06-01"), ("anthropic-beta", "a"), ("anthropic-beta", "b"), ("user-agent", "cli/1")]
    )  # fmt: skip
    assert kept == {"anthropic-version": "2023-06-01", "anthropic-beta": "a, b", "user-agent": "cli/1"}
    assert withheld == ["x-api-key", "authorization", "cookie", "x-goog-api-key"]
    assert visible_path("/v1/messages", "beta=true") == "/v1/messages?beta=true"
    assert visible_path("/v1/messages", f"beta=true&key={SECRET}") == "/v1/messages?beta=true&key=%5Bwithheld%5D"


def test_secrets_never_reach_captures_saved_file_or_log(tmp_path, caplog, capfd):
    saved = tmp_path / "captures.jsonl"
    lines: list[str] = []
    caplog.set_level(logging.DEBUG)  # uvicorn's and Starlette's own loggers too
    with serve.start(save=saved, log=lines.append) as running:
        client = anthropic.Anthropic(
            base_url=running.url,
            api_key=SECRET,
            max_retries=0,
            default_headers={"x-api-key": SECRET, "Cookie": f"session={SECRET}", "anthropic-beta": "tools-2024-04-04"},
        )
        client.messages.create(**readme_body())
        with client.messages.stream(**readme_body()) as stream:
            stream.get_final_message()
        with pytest.raises(anthropic.BadRequestError):
            client.messages.create(model="m", max_tokens=8, messages=[{"role": "robot", "content": "x"}])
        httpx.post(f"{running.url}/v1/messages?beta=true&api_key={SECRET}", json=readme_body(), headers={"x-api-key": SECRET})
        httpx.get(f"{running.url}/v1/secret-route?token={SECRET}", headers={"authorization": f"Bearer {SECRET}"})
        captures = running.captures()
        served = httpx.get(f"{running.url}/captures").text + "".join(
            httpx.get(f"{running.url}/captures/{c['id']}").text for c in captures
        )
    assert len(captures) == 5
    assert captures[0]["headers"]["anthropic-beta"] == "tools-2024-04-04" and "anthropic-version" in captures[0]["headers"]
    assert {"x-api-key", "cookie"} <= set(captures[0]["headers_withheld"])
    assert captures[3]["path"] == "/v1/messages?beta=true&api_key=%5Bwithheld%5D"
    out, err = capfd.readouterr()
    for where, text in {
        "captures": json.dumps(captures),
        "GET /captures": served,
        "saved file": saved.read_text(encoding="utf-8"),
        "server log": "\n".join(lines),
        "server-side logging": "\n".join(r.getMessage() for r in caplog.records if not r.name.startswith(CLIENT_LOGGERS)),
        "stdout/stderr": out + err,
    }.items():
        assert SECRET not in text, f"the secret leaked into {where}"
    assert len(saved.read_text(encoding="utf-8").splitlines()) == 5
    assert [json.loads(line)["id"] for line in saved.read_text(encoding="utf-8").splitlines()] == [c["id"] for c in captures]
    assert len(lines) == 5 and lines[0].startswith("cap_0001 POST /v1/messages -> 200")


# ---------------------------------------------------------------------------
# Many clients at once


def test_twenty_clients_times_twenty_requests_all_captured_intact():
    clients, requests = 20, 20
    failures: list[BaseException] = []
    replies: dict[tuple[int, int], str] = {}

    def one_client(number: int) -> None:
        client = anthropic.Anthropic(base_url=running.url, api_key=SECRET, max_retries=0)
        try:
            for turn in range(requests):
                body = copy.deepcopy(readme_body())
                body["messages"][-1]["content"][-1]["text"] = f"client {number} request {turn}"
                if turn % 2:
                    with client.messages.stream(**body) as stream:
                        replies[number, turn] = stream.get_final_message().id
                else:
                    replies[number, turn] = client.messages.create(**body).id
        except BaseException as error:  # noqa: BLE001 (reported below, in the main thread)
            failures.append(error)

    with serve.start(max_captures=clients * requests) as running:
        threads = [threading.Thread(target=one_client, args=(n,)) for n in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        captures = running.captures()
    assert not failures, failures[:3]
    assert len(replies) == clients * requests == len(captures)
    assert [c["id"] for c in captures] == [f"cap_{n:04d}" for n in range(1, clients * requests + 1)]
    by_id = {c["id"]: c for c in captures}
    for (number, turn), message_id in replies.items():
        capture = by_id[message_id.removeprefix("msg_")]
        assert capture["status"] == 200 and capture["reply"]["id"] == message_id
        assert capture["body"]["messages"][-1]["content"][-1]["text"] == f"client {number} request {turn}"
        assert capture["body"].get("stream", False) == bool(turn % 2)
        last = capture["translated"]["chat_template"]["translated"][-1]
        assert last == {"role": "user", "content": f"client {number} request {turn}"}


# ---------------------------------------------------------------------------
# Binding, and the command line


def test_only_loopback_binds_quietly(capsys):
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    warn_unless_loopback("127.0.0.1")
    assert capsys.readouterr().err == ""
    warn_unless_loopback("0.0.0.0")
    assert "warning: the tutorial server is binding 0.0.0.0" in capsys.readouterr().err


def test_create_app_refuses_a_responder_and_a_forward_together():
    with pytest.raises(ValueError, match="not both"):
        serve.create_app(responder=serve.teaching_responder, forward="http://127.0.0.1:1")


@pytest.mark.skipif(os.name == "nt", reason="Ctrl-C cannot be sent to a child process this way on Windows")
def test_the_command_line_serves_until_interrupted(tmp_path):
    saved = tmp_path / "c.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TUTORIAL_LANG": "en"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tutorial.serve", "--port", "0", "--save", str(saved)],
        stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    try:
        banner = process.stderr.readline()
        url = re.search(r"listening on (http://127\.0\.0\.1:\d+)", banner).group(1)
        client = anthropic.Anthropic(base_url=url, api_key=SECRET, max_retries=0)
        assert client.messages.create(**readme_body()).stop_reason == "end_turn"
    finally:
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=30)
    assert process.returncode == 0
    assert re.search(r"cap_0001 POST /v1/messages -> 200", rest) and SECRET not in banner + rest
    assert json.loads(saved.read_text(encoding="utf-8"))["id"] == "cap_0001"


def test_the_command_line_explains_its_mistakes(capsys):
    from tutorial.serve.cli import main

    assert main(["--model", "x"]) == 2
    assert "--model, --timeout and --tokens only apply with --forward or --engine" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Counting, and the server in Chinese: Accept-Language, start(lang=...), serve --lang zh

CJK = re.compile(r"[\u3400-\u9fff]")
ZH = {"accept-language": "zh-CN,zh;q=0.9,en;q=0.8"}
# Not a sentence: code spans, quoted values, URLs, and words with a path or code character in them.
NOT_PROSE = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|\{[^}]*\}|\[[^\]]*\]|https?://\S+|\S*[/_=.\-]\S*")
FUNCTION_WORDS = {"a", "an", "the", "is", "are", "be", "of", "to", "in", "on", "for", "with", "and", "or", "not", "no",
                  "by", "it", "this", "that", "as", "at", "from", "your", "you", "can", "cannot", "must", "here", "every"}


def english_sentences(text: str) -> list[str]:
    """Runs of three or more English words with a function word among them."""
    runs = re.findall(r"\b[A-Za-z]+(?:,? [A-Za-z]+){2,}\b", NOT_PROSE.sub(" ", text))
    return [run for run in runs if FUNCTION_WORDS & set(run.lower().replace(",", "").split())]


def tool(name: str) -> dict:
    return {"name": name, "description": f"the {name} tool", "input_schema": {"type": "object", "properties": {}}}


@pytest.mark.parametrize(
    "extra, line, summary, zh_line, zh_summary",
    [
        ({}, "1 message (1 user) and 0 tools.", "1 message, 0 tools -> 1 chat message; json, end_turn",
         "1 条消息（1 条 user），0 个工具。", "1 条消息，0 个工具 → 1 条聊天消息；非流式，end_turn"),
        ({"tools": [tool("a")]}, "1 message (1 user) and 1 tool.", "1 message, 1 tool -> 1 chat message; json, end_turn",
         "1 条消息（1 条 user），1 个工具。", "1 条消息，1 个工具 → 1 条聊天消息；非流式，end_turn"),
        ({"tools": [tool("a"), tool("b")], "system": "s"}, "2 messages (1 system, 1 user) and 2 tools.",
         "1 message, 2 tools -> 2 chat messages; json, end_turn",
         "2 条消息（1 条 system、1 条 user），2 个工具。", "1 条消息，2 个工具 → 2 条聊天消息；非流式，end_turn"),
    ],
)  # fmt: skip
def test_one_tool_is_one_tool_in_both_languages(server, extra, line, summary, zh_line, zh_summary):
    body = {"model": "m", "max_tokens": 8, "messages": [{"role": "user", "content": "hi"}], **extra}
    for headers, want_line, want_summary in (({}, line, summary), (ZH, zh_line, zh_summary)):
        reply = httpx.post(f"{server.url}/v1/messages", json=body, headers=headers, timeout=30).json()
        assert want_line in reply["content"][0]["text"]
        assert capture_of(server, reply["id"])["summary"] == want_summary
    assert "1 tools" not in json.dumps([c["summary"] for c in server.captures()])


def test_the_teaching_reply_and_the_summary_follow_accept_language(server):
    """The real SDK, asking for Chinese: the reply, streamed or not, and the capture speak Chinese;
    places, targets and roles stay as code writes them. A client that does not ask gets English."""
    client = anthropic.Anthropic(base_url=server.url, api_key=SECRET, max_retries=0, default_headers=ZH)
    reply = client.messages.create(**readme_body())
    text = text_of(reply)
    assert text.startswith("这是教程服务器，这里没有模型。翻译把你的请求变成了这样：")
    assert "- chat_template 目标格式：5 条消息（1 条 system、2 条 user、1 条 assistant、1 条 tool），1 个工具。" in text
    assert "chat_template 目标格式未进入输出的内容（4 处）：" in text and "\n- messages[1].content[1].id：" in text
    assert "GET /captures 列出全部捕获" in text
    assert english_sentences(text) == [], text
    capture = capture_of(server, reply.id)
    assert capture["summary"] == "3 条消息，1 个工具 → 5 条聊天消息；非流式，end_turn"
    assert capture["headers"]["accept-language"] == ZH["accept-language"]
    assert all(CJK.search(loss["reason"]) for loss in capture["losses"]["chat_template"])  # the capture's reasons too
    with client.messages.stream(**readme_body()) as stream:
        final = stream.get_final_message()
    assert text_of(final) == text and capture_of(server, final.id)["summary"].endswith("；流式，end_turn")
    english = anthropic.Anthropic(base_url=server.url, api_key=SECRET, max_retries=0).messages.create(**readme_body())
    assert text_of(english).startswith("Tutorial server, no model here.") and not CJK.search(text_of(english).split("\n- ")[1])


def test_a_server_started_in_chinese_answers_in_chinese_unless_a_client_asks_for_english():
    with serve.start(lang="zh") as running:
        plain = anthropic.Anthropic(base_url=running.url, api_key=SECRET, max_retries=0)
        assert text_of(plain.messages.create(**readme_body())).startswith("这是教程服务器")
        english = anthropic.Anthropic(base_url=running.url, api_key=SECRET, max_retries=0, default_headers={"accept-language": "en-GB"})
        assert text_of(english.messages.create(**readme_body())).startswith("Tutorial server")
        assert [c["summary"][:1] for c in running.captures()] == ["3", "3"]
        assert CJK.search(running.captures()[0]["summary"]) and not CJK.search(running.captures()[1]["summary"])


def test_error_envelopes_in_chinese_keep_their_shape(server, small_server):
    """The envelope's shape and type are the API's; its message is Chinese, and the lesson's
    located error keeps its location, its reason in Chinese, inside a Chinese frame."""
    client = anthropic.Anthropic(base_url=server.url, api_key=SECRET, max_retries=0, default_headers=ZH)
    messages = [{"role": "robot", "content": "hi"}]
    with pytest.raises(anthropic.BadRequestError) as raised:
        client.messages.create(model="m", max_tokens=16, messages=messages)
    with pytest.raises(tutorial.RequestError) as expected:
        tutorial.translate({"messages": messages})
    with tutorial.words.using("zh"):
        located = tutorial.words.located(expected.value)
    assert located.startswith("messages[0].role 必须是 'user'、'assistant' 或 'system'")  # the place the subject, one colon
    assert raised.value.body == {"type": "error", "error": {"type": "invalid_request_error", "message": f"请求无效：{located}"}}
    assert server.captures()[-1]["summary"] == f"invalid_request_error：请求无效：{located}"
    answers = {
        "max_tokens": httpx.post(f"{server.url}/v1/messages", json={**readme_body(), "max_tokens": 0}, headers=ZH),
        "not json": httpx.post(f"{server.url}/v1/messages", content=b"{not json", headers={**ZH, "content-type": "application/json"}),
        "not an object": httpx.post(f"{server.url}/v1/messages", json=[1, 2], headers=ZH),
        "route": httpx.get(f"{server.url}/nowhere", headers=ZH),
        "capture": httpx.get(f"{server.url}/captures/cap_9999999", headers=ZH),
        "too large": httpx.post(f"{small_server.url}/v1/messages", json={"messages": [{"role": "user", "content": "x" * 30_000}]}, headers=ZH),
    }  # fmt: skip
    said = {name: response.json()["error"]["message"] for name, response in answers.items()}
    assert said["max_tokens"] == "请求无效：max_tokens 必须是正整数，收到的是 0"  # framed as the lesson's errors are
    assert said["not json"] == "请求无效：请求体不是有效的 JSON（第 1 行第 2 列），这里应该是用双引号括起来的键名"
    assert said["not an object"] == "请求无效：请求体必须是 JSON 对象，收到的是 list"
    assert said["route"] == "GET /nowhere：这里没有这个路由（见 GET /）"
    assert said["capture"].startswith("captures/cap_9999999：没有这条捕获记录")
    assert "20000 字节的上限" in said["too large"]
    for name, response in answers.items():
        assert response.json()["type"] == "error" and response.status_code in (400, 404, 413), name
        assert english_sentences(said[name]) == [], said[name]


def test_count_tokens_and_tool_then_text_in_chinese(server, tool_server):
    counted = httpx.post(f"{server.url}/v1/messages/count_tokens", json=readme_body(), headers=ZH).json()
    assert server.captures()[-1]["summary"] == f"count_tokens：约 {counted['input_tokens']} 个输入 token"
    client = anthropic.Anthropic(base_url=tool_server.url, api_key=SECRET, max_retries=0, default_headers=ZH)
    ask = {"model": "m", "max_tokens": 64, "tools": tutorial.readme_request()["tools"]}
    messages = [{"role": "user", "content": "读一下 README.md"}]
    first = client.messages.create(**ask, messages=messages)
    messages += [{"role": "assistant", "content": first.content},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first.content[0].id, "content": "# Demo"}]}]
    assert text_of(client.messages.create(**ask, messages=messages)) == "工具 read_file 返回了：\n# Demo"


@pytest.mark.skipif(os.name == "nt", reason="Ctrl-C cannot be sent to a child process this way on Windows")
@pytest.mark.parametrize("how", ["--lang zh", "LANG=zh_CN.UTF-8"])
def test_the_command_line_serves_in_chinese(tmp_path, how):
    """`serve --lang zh` (or a Chinese locale): the banner, the log, and every reply to a
    client that names no language are Chinese."""
    env = {k: v for k, v in os.environ.items() if k not in ("TUTORIAL_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(PYTHONPATH=str(ROOT), LANG="zh_CN.UTF-8" if how.startswith("LANG") else "C.UTF-8")
    flag = ["--lang", "zh"] if how == "--lang zh" else []
    process = subprocess.Popen([sys.executable, "-m", "tutorial", "serve", "--port", "0", *flag],
                               stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env, cwd=tmp_path)  # fmt: skip
    try:
        banner = [process.stderr.readline() for _ in range(4)]
        url = re.search(r"tutorial serve：正在监听 (http://127\.0\.0\.1:\d+)，由示范应答程序回答（背后没有模型）", banner[0]).group(1)
        assert banner[1:] == [f"  让客户端连接它：  ANTHROPIC_BASE_URL={url}\n", f"  捕获记录：        {url}/captures\n", "  按 Ctrl-C 停止\n"]
        client = anthropic.Anthropic(base_url=url, api_key=SECRET, max_retries=0)
        assert text_of(client.messages.create(**readme_body())).startswith("这是教程服务器")
        assert httpx.get(f"{url}/captures").json()["data"][0]["summary"].startswith("3 条消息，1 个工具")
    finally:
        process.send_signal(signal.SIGINT)
        _, rest = process.communicate(timeout=30)
    assert process.returncode == 0 and "cap_0001 POST /v1/messages -> 200" in rest
    assert "Traceback" not in rest and english_sentences("".join(banner) + rest) == [], "".join(banner) + rest


def test_warnings_about_binding_in_chinese(capsys):
    with using("zh"):
        warn_unless_loopback("0.0.0.0")
    err = capsys.readouterr().err
    assert err.startswith("警告：tutorial 服务器绑定在 0.0.0.0") and english_sentences(err) == []
