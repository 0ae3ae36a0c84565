"""What the real `anthropic` SDK sends goes through, and what we send back the SDK reads.

The request bodies come from `tutorial/examples/sdk/bodies.json`, captured from the installed SDK by
`tests/sdk_bodies.py` (`python -m tests.sdk_bodies` rewrites it); one test checks the fixture
still matches what the installed SDK sends. Every body must translate for the default
target; the "openai" target may refuse a body only with a located `RequestError` about a
*message block* it cannot carry — never about a tool entry (issue 12: tool entries without a
name, Files-API sources and Anthropic-defined client tools are accepted by both targets).

The way back is checked against the SDK's own models and its own stream parser: the blocks
`build_reply` makes must carry every field the SDK's response models require, the events of
`sse_events` must parse with the SDK's `messages.stream()` into the same message as the
non-streamed reply, and `to_anthropic` must give a request the API would take.
"""

from __future__ import annotations

import copy
import json
import re
import typing
from functools import lru_cache

import pytest

from tutorial import RequestError, build_reply, counting_ids, response_to_message, sse_events, to_anthropic, trace, translate

import sdk_bodies

BODIES: dict = sdk_bodies.load_fixture()
TARGETS = ("chat_template", "openai")


def anthropic_sdk():
    return pytest.importorskip("anthropic")


def format_location(location) -> str:
    text = ""
    for part in location:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "body"


def outcome(function, *args, **kwargs):
    """("ok", result) or ("refused", RequestError); anything else fails the test, briefly."""
    try:
        return "ok", function(*args, **kwargs)
    except RequestError as error:
        return "refused", error
    except Exception as error:  # noqa: BLE001 - the point of the test
        problem = f"{type(error).__name__}: {str(error)[:300]}"
    pytest.fail(f"{getattr(function, '__name__', function)} raised {problem} (only RequestError may escape)", pytrace=False)


def check_located(error: RequestError, body) -> None:
    """One line, starting with its location, which is a real path into `body`."""
    text = str(error)
    assert "\n" not in text, f"the message is not one line: {text[:300]!r}"
    assert text.startswith(format_location(error.location) + ": "), f"the message does not start with its location: {text[:300]}"
    value = body
    for number, part in enumerate(error.location):
        last = number == len(error.location) - 1
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        elif last and isinstance(value, dict):  # a required field that is missing
            break
        else:
            pytest.fail(f"the location {format_location(error.location)} is not a path into the body: {text[:300]}", pytrace=False)


# ---------------------------------------------------------------------------
# The fixture


def test_the_fixture_matches_what_the_installed_sdk_sends():
    anthropic = anthropic_sdk()
    now = sdk_bodies.bodies()
    assert set(now) == set(BODIES), "the battery changed: run `python -m tests.sdk_bodies`"
    stale = [name for name in now if json.dumps(now[name]) != json.dumps(BODIES[name])]  # key order matters too
    assert not stale, (
        f"anthropic {anthropic.__version__} sends other bodies for {stale}: run `python -m tests.sdk_bodies` and review the diff"
    )
    assert sdk_bodies.fixture_text(now) == sdk_bodies.FIXTURE.read_text(encoding="utf-8")


def test_the_capture_records_method_path_headers_and_body():
    anthropic_sdk()
    captured = sdk_bodies.capture(["text_string", "beta_mcp_toolset", "stream_create", "count_tokens"])
    for name, request in captured.items():
        assert request["method"] == "POST", name
        assert request["path"].startswith("/v1/messages"), (name, request["path"])
        assert request["headers"].get("content-type", "").startswith("application/json"), name
        assert "anthropic-version" in request["headers"], name
    assert "mcp-client" in captured["beta_mcp_toolset"]["headers"].get("anthropic-beta", ""), captured["beta_mcp_toolset"]["headers"]
    assert captured["stream_create"]["body"]["stream"] is True
    assert captured["count_tokens"]["path"].startswith("/v1/messages/count_tokens")
    assert captured["text_string"]["body"] == BODIES["text_string"]


def test_the_battery_covers_every_request_block_and_tool_kind_of_the_sdk():
    """Every `type` literal of the SDK's request content blocks and (non-beta) tools appears in
    some captured body, so a new kind in a new SDK shows up here first."""
    anthropic_sdk()
    from anthropic.types import ContentBlockParam, ToolUnionParam

    def literals(annotation) -> set:
        if typing.get_origin(annotation) is typing.Literal:
            return {a for a in typing.get_args(annotation) if isinstance(a, str)}
        return set().union(*(literals(a) for a in typing.get_args(annotation)))

    def literal_types(union) -> set:
        kinds = set()
        for member in typing.get_args(union):
            kinds |= literals(typing.get_type_hints(member, include_extras=True).get("type"))
        return kinds

    def family(kind: str) -> str:
        return re.sub(r"_\d{8}$", "", kind)

    seen_blocks, seen_tools = set(), set()

    def walk(value):
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                if isinstance(item.get("type"), str):
                    seen_blocks.add(item["type"])
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)

    for body in BODIES.values():
        walk(body.get("messages"))
        for tool in body.get("tools") or []:
            seen_tools.add(tool.get("type", "custom"))
    missing_blocks = literal_types(ContentBlockParam) - seen_blocks
    missing_tools = literal_types(ToolUnionParam) - seen_tools - {"custom"}
    # Dated variants of one family count once; the families must all be there.
    missing_tools = {family(t) for t in missing_tools} - {family(t) for t in seen_tools}
    assert not missing_blocks, f"no captured body has these request block types: {sorted(missing_blocks)}"
    assert not missing_tools, f"no captured body has a tool of these families: {sorted(missing_tools)}"


# ---------------------------------------------------------------------------
# Every body, both targets, and the trace

# Bodies the "openai" target must take whole (issue 12): nameless tool entries (toolsets),
# Files-API image sources, Anthropic-defined client tools, system messages in order.
OPENAI_MUST_ACCEPT = [
    "image_file",
    "system_role_message_first",
    "system_role_messages_mid_list",
    "system_top_level_and_role_messages",
    "tool_computer_toolset_20260801",
    "tool_browser_toolset_20260801",
    "tools_all_kinds",
    "client_tools_used",
    "tool_bash_20250124",
    "tool_text_editor_20250124",
    "tool_text_editor_20250429",
    "tool_text_editor_20250728",
    "tool_memory_20250818",
    "beta_tool_computer_20250124",
    "beta_tool_computer_20251124",
    "beta_tool_bash_20241022",
    "beta_tool_text_editor_20241022",
    "beta_tool_memory_20250818",
    "beta_context_management_memory",
]


@pytest.mark.parametrize("name", list(BODIES))
def test_the_default_target_takes_every_sdk_body(name):
    body = BODIES[name]
    before = json.dumps(body)
    status, result = outcome(translate, body)
    assert status == "ok", f"{name}: refused by the default target: {result}"
    status, traced = outcome(trace, body)
    assert status == "ok", f"{name}: refused by trace: {traced}"
    if not any(m.get("role") == "system" for m in body["messages"][1:]):  # else trace folds them first
        assert traced.translated == result[0], f"{name}: trace and translate disagree"
    assert json.dumps(body) == before, f"{name}: the body was changed"


@pytest.mark.parametrize("name", list(BODIES))
def test_the_openai_target_takes_every_sdk_body_or_refuses_a_message_block(name):
    body = BODIES[name]
    before = json.dumps(body)
    status, result = outcome(translate, body, target="openai")
    traced_status, traced = outcome(trace, body, target="openai")
    assert json.dumps(body) == before, f"{name}: the body was changed"
    if name in OPENAI_MUST_ACCEPT:
        assert status == "ok", f"{name}: the openai target must take this body (issue 12), but: {result}"
    if status == "refused":
        check_located(result, body)
        assert result.location[:1] == ("messages",), f"{name}: a tool entry was refused: {result}"
        assert traced_status == "refused" and traced.location == result.location, f"{name}: trace differs: {traced}"
    else:
        assert traced_status == "ok", f"{name}: translate took it, trace refused: {traced}"


# The documented input of each Anthropic-defined client tool: the properties any schema for
# it must name (the tool's docs give the full schema; these fields are in every version).
CLIENT_TOOL_PROPERTIES = {
    "bash": {"command"},
    "str_replace_editor": {"command", "path"},
    "str_replace_based_edit_tool": {"command", "path"},
    "memory": {"command", "path"},
    "computer": {"action"},
}
CLIENT_TOOL_BODIES = [n for n in OPENAI_MUST_ACCEPT if n.startswith(("tool_bash", "tool_text_editor", "tool_memory", "beta_tool_"))] + [
    "client_tools_used"
]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", CLIENT_TOOL_BODIES)
def test_anthropic_defined_client_tools_are_offered_as_function_tools_with_their_schema(name, target):
    body = BODIES[name]
    status, result = outcome(translate, body, target=target)
    assert status == "ok", f"{name}: refused: {result}"
    offered = {}
    for tool in result[1] or []:
        function = tool.get("function") or {}
        offered[function.get("name")] = function
    for tool in body["tools"]:
        wanted = CLIENT_TOOL_PROPERTIES[tool["name"]]
        assert tool["name"] in offered, f"{name} ({target}): {tool['type']} is not offered as a function tool; offered: {sorted(offered, key=str)}"
        parameters = offered[tool["name"]].get("parameters")
        assert isinstance(parameters, dict) and parameters.get("type") == "object", f"{name}: parameters {parameters!r}"
        properties = parameters.get("properties") or {}
        assert wanted <= set(properties), (
            f"{name} ({target}): {tool['type']}'s function has properties {sorted(properties)}, "
            f"not the documented input ({sorted(wanted)} at least)"
        )


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", ["tool_computer_toolset_20260801", "tool_browser_toolset_20260801", "beta_mcp_toolset", "beta_mcp_tool_result_string"])
def test_tool_entries_without_a_name_are_accepted(name, target):
    status, result = outcome(translate, BODIES[name], target=target)
    if status == "refused":
        assert result.location[:1] != ("tools",), f"{name} ({target}): a nameless tool entry was refused: {result}"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", ["image_file", "document_file", "beta_files_and_container_upload"])
def test_files_api_sources_are_accepted(name, target):
    body = BODIES[name]
    status, result = outcome(translate, body, target=target)
    if target == "chat_template" or name == "image_file":
        assert status == "ok", f"{name} ({target}): a Files-API source was refused: {result}"
    elif status == "refused":  # a document or a container upload: the openai target carries neither
        assert result.location[-1:] == ("type",), f"{name} ({target}): refused for its source, not its type: {result}"


def test_the_openai_target_merges_system_prompts_in_order():
    body = BODIES["system_top_level_and_role_messages"]
    status, result = outcome(translate, body, target="openai")
    assert status == "ok", result
    messages = result[0]
    systems = [i for i, m in enumerate(messages) if m["role"] == "system"]
    assert systems == [0], f"one leading system message expected, got system messages at {systems}: {messages}"
    text = messages[0]["content"]
    assert isinstance(text, str), text
    positions = [text.find(word) for word in ("FIRST", "SECOND", "THIRD")]
    assert -1 not in positions and positions == sorted(positions), (
        f"top-level system, then messages[0]'s, then the later one, in order; got {text!r}"
    )


def test_the_default_target_keeps_system_prompts_in_order():
    body = BODIES["system_top_level_and_role_messages"]
    _, result = outcome(translate, body)
    text = json.dumps(result[0], ensure_ascii=False)
    positions = [text.find(word) for word in ("FIRST", "SECOND", "THIRD")]
    assert -1 not in positions and positions == sorted(positions), text


# ---------------------------------------------------------------------------
# The way back, read by the SDK

REPLIES = {
    "text": ({"text": "你好！"}, "stop"),
    "empty": ({}, "stop"),
    "reasoning_and_text": ({"reasoning": "先想一想。", "text": "答案是 4。"}, "stop"),
    "tool_use": ({"text": "我先读取文件。", "tool_uses": [{"name": "read_file", "input": {"path": "README.md"}}]}, "tool_calls"),
    "reasoning_and_tools": (
        {"reasoning": "two files", "tool_uses": [{"name": "read_file", "input": {"path": "a", "opts": {"n": [1, 2.5, None, True]}}},
                                                 {"name": "clock", "input": None}]},
        "tool_calls",
    ),  # fmt: skip
    "stop_sequence": ({"text": "done", "matched_stop": "STOP"}, "stop"),
    "stop_token": ({"text": "done", "matched_stop": 151643}, "stop"),
    "max_tokens": ({"reasoning": "long", "text": "cut"}, "length"),
}


def block_models() -> dict:
    """Response block type -> the SDK model class for it (TextBlock, ThinkingBlock, ...)."""
    anthropic = anthropic_sdk()
    return _models(anthropic.types.ContentBlock)


def event_models() -> dict:
    anthropic = anthropic_sdk()
    return _models(anthropic.types.RawMessageStreamEvent)


@lru_cache(maxsize=None)
def _models(union) -> dict:
    while typing.get_origin(union) is typing.Annotated:
        union = typing.get_args(union)[0]
    models = {}
    for member in typing.get_args(union):
        while typing.get_origin(member) is typing.Annotated:
            member = typing.get_args(member)[0]
        for kind in typing.get_args(member.model_fields["type"].annotation):
            models[kind] = member
    return models


def check_block(block: dict, where: str) -> None:
    """Every field the SDK's model requires is present, and the block validates strictly."""
    models = block_models()
    assert block.get("type") in models, f"{where}: {block.get('type')!r} is not a response block type of the SDK"
    model = models[block["type"]]
    required = {name for name, field in model.model_fields.items() if field.is_required()}
    missing = required - set(block)
    assert not missing, f"{where}: a {block['type']} block lacks {sorted(missing)}, which {model.__name__} requires: {block}"
    model.model_validate(block, strict=True)


@pytest.mark.parametrize("reply", list(REPLIES))
def test_build_reply_blocks_carry_every_field_the_sdk_requires(reply):
    anthropic = anthropic_sdk()
    parsed, finish = REPLIES[reply]
    blocks, stop_reason, _ = build_reply(copy.deepcopy(parsed), finish, new_id=counting_ids())
    for index, block in enumerate(blocks):
        check_block(block, f"{reply}: blocks[{index}]")
    message = sdk_bodies.message_json(blocks, stop_reason=stop_reason, stop_sequence=parsed.get("matched_stop") if stop_reason == "stop_sequence" else None)
    anthropic.types.Message.model_validate(message, strict=True)


@pytest.mark.parametrize("reply", list(REPLIES))
def test_sse_events_validate_against_the_sdk_event_models(reply):
    parsed, finish = REPLIES[reply]
    blocks, stop_reason, _ = build_reply(copy.deepcopy(parsed), finish, new_id=counting_ids())
    stop_sequence = parsed.get("matched_stop") if stop_reason == "stop_sequence" else None
    events = sse_events(blocks, stop_reason, message_id="msg_1", model="m", input_tokens=5, output_tokens=7, stop_sequence=stop_sequence)
    models = event_models()
    for number, event in enumerate(events):
        data = event["data"]
        assert event["event"] == data["type"] and data["type"] in models, f"event {number}: {event}"
        model = models[data["type"]]
        required = {name for name, field in model.model_fields.items() if field.is_required()}
        assert not required - set(data), f"event {number} ({data['type']}) lacks {sorted(required - set(data))}"
        if data["type"] == "content_block_start":
            check_block(data["content_block"], f"{reply}: event {number} content_block_start")
        model.model_validate(data, strict=True)


def _final_messages(blocks, stop_reason, stop_sequence):
    """The same reply read by the SDK twice: streamed (our SSE through `messages.stream()`)
    and not streamed (the Message JSON through `messages.create()`)."""
    httpx = sdk_bodies.transport_module()
    events = sse_events(blocks, stop_reason, message_id="msg_1", model="m", input_tokens=5, output_tokens=7, stop_sequence=stop_sequence)
    text = sdk_bodies.sse_text(events)
    message = {**sdk_bodies.message_json(blocks, model="m", stop_reason=stop_reason, stop_sequence=stop_sequence,
                                         input_tokens=5, output_tokens=7), "id": "msg_1"}  # fmt: skip
    request = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}
    streamed_handler = lambda _request: httpx.Response(200, headers={"content-type": "text/event-stream"}, content=text.encode("utf-8"))  # noqa: E731
    with sdk_bodies.sdk_client(streamed_handler) as client, client.messages.stream(**request) as stream:
        streamed = stream.get_final_message()
    with sdk_bodies.sdk_client(lambda _request: httpx.Response(200, json=message)) as client:
        plain = client.messages.create(**request)
    return streamed, plain


def _comparable(message) -> dict:
    data = message.to_dict(exclude_none=True)
    for block in data.get("content", []):
        block.pop("parsed_output", None)
    return data


@pytest.mark.parametrize("reply", list(REPLIES))
def test_the_sdk_stream_parser_rebuilds_the_reply_from_sse_events(reply):
    anthropic_sdk()
    parsed, finish = REPLIES[reply]
    blocks, stop_reason, _ = build_reply(copy.deepcopy(parsed), finish, new_id=counting_ids())
    stop_sequence = parsed.get("matched_stop") if stop_reason == "stop_sequence" else None
    streamed, plain = _final_messages(blocks, stop_reason, stop_sequence)
    assert _comparable(streamed) == _comparable(plain)
    assert [b.type for b in streamed.content] == [b["type"] for b in blocks]


def test_a_signed_thinking_block_streams_its_signature_to_the_sdk():
    anthropic_sdk()
    blocks = [{"type": "thinking", "thinking": "hmm", "signature": "EqQBCgIYAhIM"}, {"type": "text", "text": "ok"}]
    streamed, plain = _final_messages(blocks, "end_turn", None)
    assert _comparable(streamed) == _comparable(plain)
    assert streamed.content[0].signature == "EqQBCgIYAhIM"


def _tool_results(request: dict) -> list:
    return [b for m in request.get("messages", []) if isinstance(m.get("content"), list) for b in m["content"] if b.get("type") == "tool_result"]


def _system_problems(request: dict) -> list[str]:
    if "system" in request and not isinstance(request["system"], (str, list)):
        return [f'"system" must be left out when there is no system prompt, not {request["system"]!r}']
    return []


def _tool_result_problems(request: dict) -> list[str]:
    return [
        f'a tool_result with no content must leave "content" out, not send {result["content"]!r}'
        for result in _tool_results(request)
        if result.get("content", None) == ""
    ]


def _check_wire_request(request: dict, where: str) -> None:
    problems = _system_problems(request) + _tool_result_problems(request)
    try:
        json.dumps(request, allow_nan=False)
    except (TypeError, ValueError) as error:
        problems.append(f"not JSON: {error}")
    assert not problems, f"{where}: " + "; ".join(problems)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", [n for n in BODIES if n.startswith(("tool_result", "text_", "system_", "parallel", "client_tools"))])
def test_to_anthropic_gives_a_request_the_api_takes(name, target):
    body = BODIES[name]
    status, result = outcome(translate, body, target=target)
    if status != "ok":
        pytest.skip(f"not translatable for {target}: {result}")
    messages, tools = result
    status, request = outcome(to_anthropic, messages, tools)
    assert status == "ok", f"{name} ({target}): to_anthropic refused what translate gave: {request}"
    _check_wire_request(request, f"{name} ({target})")
    # What the SDK would put on the wire for it.
    anthropic_sdk()
    recorder = sdk_bodies.Recorder()
    with sdk_bodies.sdk_client(recorder) as client:
        client.messages.create(model=sdk_bodies.MODEL, max_tokens=16, **request)
    _check_wire_request(recorder.requests[0]["body"], f"{name} ({target}) as sent by the SDK")


@pytest.mark.parametrize("content", [None, "", []], ids=["none", "empty-string", "empty-list"])
def test_to_anthropic_leaves_out_empty_tool_result_content(content):
    messages = [
        {"role": "user", "content": "run it"},
        {"role": "assistant", "content": "", "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "run", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "toolu_1", "content": content},
    ]
    status, request = outcome(to_anthropic, messages)
    assert status == "ok", request
    assert not _tool_result_problems(request), _tool_result_problems(request)


def test_to_anthropic_without_system_messages_has_no_system_key():
    status, request = outcome(to_anthropic, [{"role": "user", "content": "hi"}])
    assert status == "ok", request
    assert not _system_problems(request), _system_problems(request)


RESPONSES = {
    "text_with_citations": [{"type": "text", "text": "It says a.", "citations": [sdk_bodies.CITATIONS[0]]}],
    "thinking_text_tool": [
        {"type": "thinking", "thinking": "plan", "signature": "EqQBCgIYAhIM"},
        {"type": "text", "text": "reading"},
        {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "README.md"}},
    ],
    "redacted": [{"type": "redacted_thinking", "data": "EmwKAhgB"}, {"type": "text", "text": "ok"}],
    "server_tools": [
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "q"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1",
         "content": [{"type": "web_search_result", "url": "https://example.com", "title": "t", "encrypted_content": "Eq", "page_age": None}]},
        {"type": "text", "text": "found"},
    ],  # fmt: skip
    "empty_text": [{"type": "text", "text": ""}],
}


@pytest.mark.parametrize("name", list(RESPONSES))
def test_response_to_message_reads_what_the_sdk_returns(name):
    anthropic = anthropic_sdk()
    raw = {**sdk_bodies.message_json(RESPONSES[name], stop_reason="tool_use" if name == "thinking_text_tool" else "end_turn")}
    httpx = sdk_bodies.transport_module()
    with sdk_bodies.sdk_client(lambda _request: httpx.Response(200, json=raw)) as client:
        message = client.messages.create(model=sdk_bodies.MODEL, max_tokens=16, messages=[{"role": "user", "content": "hi"}])
    assert isinstance(message, anthropic.types.Message)
    response = message.to_dict()
    status, chat = outcome(response_to_message, response)
    assert status == "ok", chat
    status, request = outcome(to_anthropic, [{"role": "user", "content": "hi"}, chat])
    assert status == "ok", request
    _check_wire_request(request, name)
    if any(b["type"] not in ("text", "tool_use") for b in RESPONSES[name]):
        assert request["messages"][1]["content"] == response["content"], "the blocks must go back word for word"
