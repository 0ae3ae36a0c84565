"""The exact request bodies the real `anthropic` SDK sends, captured without a network.

A client is built on an in-memory transport (`MockTransport`) whose handler records each
request — method, path with query, headers and JSON body — and answers with a minimal
valid Message (or, for a streamed call, a minimal SSE stream). A battery of ordinary calls
then exercises every request block kind, tool kind and option the installed SDK's types
offer (`anthropic/types/*_param.py`), plus the beta API.

    python -m tests.sdk_bodies        # rewrite tutorial/examples/sdk/bodies.json (name -> body)

`tests/test_sdk.py` runs every body of the fixture through the translation, and checks
that the fixture still matches what the installed SDK sends.

Helpers reused by the tests: `transport_module()` (the httpx flavour the SDK uses),
`sdk_client(handler)`, `sse_text(events)`, `message_json(...)`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, Optional

# Shipped with the package: `grade` and chapter 11 replay these bodies through a learner's translator.
FIXTURE = Path(__file__).resolve().parent.parent / "tutorial" / "examples" / "sdk" / "bodies.json"
BASE_URL = "http://sdk.test"
MODEL = "claude-test-model"  # any string: no SDK deprecation or thinking warning depends on it

# Headers that depend on the machine, the Python or the SDK build, not on the call.
UNSTABLE_HEADERS = ("user-agent", "x-stainless", "content-length", "x-api-key", "authorization")


# ---------------------------------------------------------------------------
# The client on a recording transport


def transport_module():
    """The httpx module the installed SDK is built on: `httpx2` for recent SDKs, else `httpx`."""
    import anthropic._base_client as base

    return getattr(base, "httpx2", None) or getattr(base, "httpx")


def sdk_client(handler: Callable, **options: Any):
    import anthropic

    httpx = transport_module()
    return anthropic.Anthropic(
        api_key="dummy",
        base_url=BASE_URL,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
        max_retries=0,
        **options,
    )


def message_json(content: Optional[list] = None, *, model: str = MODEL, stop_reason: str = "end_turn",
                 stop_sequence: Optional[str] = None, input_tokens: int = 3, output_tokens: int = 2) -> dict:  # fmt: skip
    """A minimal valid Message, as the API answers a non-streamed call."""
    return {
        "id": "msg_sdk_test",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": "ok"}] if content is None else content,
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


def minimal_stream_events(model: str = MODEL) -> list[dict]:
    """The events of a one-block streamed reply, each {"event": name, "data": {...}}."""
    start = {**message_json([], model=model, stop_reason=None), "usage": {"input_tokens": 3, "output_tokens": 0}}
    events = [
        ("message_start", {"message": start}),
        ("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
        ("content_block_stop", {"index": 0}),
        ("message_delta", {"delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 2}}),
        ("message_stop", {}),
    ]
    return [{"event": name, "data": {"type": name, **data}} for name, data in events]


def sse_text(events: list[dict]) -> str:
    """Events ({"event", "data"}) as the text of a text/event-stream response."""
    return "".join(f"event: {e['event']}\ndata: {json.dumps(e['data'], ensure_ascii=False)}\n\n" for e in events)


class Recorder:
    """The transport's handler: records every request, answers with a Message or a stream."""

    def __init__(self):
        self.requests: list[dict] = []

    def __call__(self, request):
        httpx = transport_module()
        raw = request.content.decode("utf-8") if request.content else ""
        body = json.loads(raw) if raw else None
        self.requests.append(
            {
                "method": request.method,
                "path": request.url.raw_path.decode("ascii"),
                "headers": dict(request.headers),
                "body": body,
            }
        )
        if isinstance(body, dict) and body.get("stream"):
            return httpx.Response(
                200, headers={"content-type": "text/event-stream"}, content=sse_text(minimal_stream_events()).encode()
            )
        if request.url.path.endswith("/count_tokens"):
            return httpx.Response(200, json={"input_tokens": 3})
        return httpx.Response(200, json=message_json())


# ---------------------------------------------------------------------------
# Building blocks of the battery

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
PDF = "JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCnRyYWlsZXIKPDwvUm9vdCAxIDAgUj4+CiUlRU9G"
EPHEMERAL = {"type": "ephemeral"}
EPHEMERAL_1H = {"type": "ephemeral", "ttl": "1h"}

IMAGE_BASE64 = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
IMAGE_URL = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
IMAGE_FILE = {"type": "image", "source": {"type": "file", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"}}

DOC_PDF = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF},
           "title": "report.pdf", "context": "quarterly", "citations": {"enabled": True}, "cache_control": EPHEMERAL}  # fmt: skip
DOC_TEXT = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "第一行\nline two"},
            "title": "notes.txt"}  # fmt: skip
DOC_CONTENT = {"type": "document", "source": {"type": "content", "content": [
    {"type": "text", "text": "chunk one"}, {"type": "text", "text": "chunk two"}, IMAGE_URL]}}  # fmt: skip
DOC_CONTENT_STRING = {"type": "document", "source": {"type": "content", "content": "a whole document as one string"}}
DOC_URL = {"type": "document", "source": {"type": "url", "url": "https://example.com/paper.pdf"}}
DOC_FILE = {"type": "document", "source": {"type": "file", "file_id": "file_011CPMxVD3fHLUhvTqtsQA5w"}}

SEARCH_RESULT = {"type": "search_result", "source": "https://example.com/wiki", "title": "Wiki",
                 "content": [{"type": "text", "text": "a fact"}], "citations": {"enabled": True},
                 "cache_control": EPHEMERAL}  # fmt: skip

CITATIONS = [
    {"type": "char_location", "cited_text": "a", "document_index": 0, "document_title": "d", "start_char_index": 0, "end_char_index": 1},
    {"type": "page_location", "cited_text": "b", "document_index": 0, "document_title": None, "start_page_number": 1, "end_page_number": 2},
    {"type": "content_block_location", "cited_text": "c", "document_index": 1, "document_title": "e", "start_block_index": 0, "end_block_index": 1},
    {"type": "web_search_result_location", "cited_text": "d", "encrypted_index": "Eo8B", "title": "t", "url": "https://example.com"},
    {"type": "search_result_location", "cited_text": "e", "search_result_index": 0, "source": "s", "title": "t", "start_block_index": 0, "end_block_index": 0},
]  # fmt: skip

SCHEMA = {"type": "object", "properties": {"path": {"type": "string", "description": "文件路径"}}, "required": ["path"]}
CUSTOM_TOOL = {"name": "read_file", "description": "读取文件", "input_schema": SCHEMA}


def user(content: Any) -> dict:
    return {"role": "user", "content": content}


def assistant(content: Any) -> dict:
    return {"role": "assistant", "content": content}


def tool_turn(result: dict, name: str = "read_file", tool_input: Optional[dict] = None) -> list[dict]:
    """A user question, an assistant tool_use and a user message carrying `result`."""
    use = {"type": "tool_use", "id": result["tool_use_id"], "name": name, "input": tool_input or {"path": "README.md"}}
    return [user("读取 README.md"), assistant([{"type": "text", "text": "我先读取文件。"}, use]), user([result])]


def server_turn(name: str, tool_input: dict, result: dict) -> list[dict]:
    """A user question, then an assistant turn with a server tool call, its result and text."""
    use = {"type": "server_tool_use", "id": result["tool_use_id"], "name": name, "input": tool_input}
    return [user("look it up"), assistant([use, result, {"type": "text", "text": "done"}]), user("thanks")]


# ---------------------------------------------------------------------------
# The battery: name -> a call made with the client (its body is what the SDK sends)

CALLS: dict[str, Callable] = {}


def call(name: str):
    def register(function: Callable) -> Callable:
        if name in CALLS:
            raise ValueError(f"two calls named {name!r}")
        CALLS[name] = function
        return function

    return register


def create(client, messages: list, **params: Any):
    return client.messages.create(model=MODEL, max_tokens=256, messages=messages, **params)


def beta_create(client, messages: list, betas: list, **params: Any):
    return client.beta.messages.create(model=MODEL, max_tokens=256, messages=messages, betas=betas, **params)


def simple(name: str, messages: list, **params: Any) -> None:
    call(name)(lambda client: create(client, messages, **params))


# --- plain text and system prompts --------------------------------------------------------

simple("text_string", [user("Hello, Claude")])
simple("text_unicode", [user("你好 🙂 é \"quotes\" \\backslash\\ \n\t<tag> & {{ 7 * 7 }}")])
simple("text_blocks_cache_control", [user([
    {"type": "text", "text": "long context", "cache_control": EPHEMERAL_1H},
    {"type": "text", "text": "question", "cache_control": EPHEMERAL},
])])  # fmt: skip
simple("text_empty_string_content", [user("")])
simple("text_multi_turn", [user("hi"), assistant("hello"), user("how are you?")])
simple("assistant_prefill", [user("write JSON"), assistant("{")])
simple("assistant_text_with_citations", [
    user([DOC_PDF, {"type": "text", "text": "summarise"}]),
    assistant([{"type": "text", "text": "It says a.", "citations": CITATIONS}]),
    user("and?"),
])  # fmt: skip
simple("system_string", [user("hi")], system="你是代码助手。")
simple("system_blocks_cache_control", [user("hi")], system=[
    {"type": "text", "text": "You are helpful.", "cache_control": EPHEMERAL},
    {"type": "text", "text": "Be brief."},
])  # fmt: skip
simple("system_empty_string", [user("hi")], system="")
simple("system_role_message_first", [{"role": "system", "content": "from messages[0]"}, user("hi")])
simple("system_role_messages_mid_list", [
    user("hi"), assistant("hello"), {"role": "system", "content": [{"type": "text", "text": "reminder"}]}, user("go on"),
])  # fmt: skip
simple("system_top_level_and_role_messages", [
    {"role": "system", "content": "SECOND: messages[0]"},
    user("hi"),
    assistant("hello"),
    {"role": "system", "content": "THIRD: later"},
    user("go on"),
], system="FIRST: top-level")  # fmt: skip

# --- images, documents, search results, container uploads -----------------------------------

simple("image_base64", [user([IMAGE_BASE64, {"type": "text", "text": "what is this?"}])])
simple("image_url", [user([IMAGE_URL, {"type": "text", "text": "what is this?"}])])
simple("image_file", [user([IMAGE_FILE, {"type": "text", "text": "what is this?"}])])
simple("image_cache_control", [user([{**IMAGE_BASE64, "cache_control": EPHEMERAL}, {"type": "text", "text": "?"}])])
simple("document_base64_pdf", [user([DOC_PDF, {"type": "text", "text": "summarise"}])])
simple("document_plain_text", [user([DOC_TEXT, {"type": "text", "text": "summarise"}])])
simple("document_content", [user([DOC_CONTENT, {"type": "text", "text": "summarise"}])])
simple("document_content_string", [user([DOC_CONTENT_STRING, {"type": "text", "text": "summarise"}])])
simple("document_url", [user([DOC_URL, {"type": "text", "text": "summarise"}])])
simple("document_file", [user([DOC_FILE, {"type": "text", "text": "summarise"}])])
simple("search_result", [user([SEARCH_RESULT, {"type": "text", "text": "answer from the result"}])])
simple("container_upload", [user([{"type": "container_upload", "file_id": "file_011CNha8iCJcU1wXNR6q4V8w"},
                                  {"type": "text", "text": "analyse the upload"}])],
       tools=[{"type": "code_execution_20250825", "name": "code_execution"}])  # fmt: skip

# --- client tools: tool_use and every shape of tool_result --------------------------------

RESULT = {"type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9"}
simple("tool_result_string", tool_turn({**RESULT, "content": "# Demo\n这是一个学习项目。"}), tools=[CUSTOM_TOOL])
simple("tool_result_text_blocks", tool_turn({**RESULT, "content": [
    {"type": "text", "text": "part one"}, {"type": "text", "text": "part two", "cache_control": EPHEMERAL}]}),
    tools=[CUSTOM_TOOL])  # fmt: skip
simple("tool_result_image", tool_turn({**RESULT, "content": [{"type": "text", "text": "a screenshot"}, IMAGE_BASE64]}),
       tools=[CUSTOM_TOOL])  # fmt: skip
simple("tool_result_document", tool_turn({**RESULT, "content": [DOC_TEXT]}), tools=[CUSTOM_TOOL])
simple("tool_result_search_result", tool_turn({**RESULT, "content": [SEARCH_RESULT]}), tools=[CUSTOM_TOOL])
simple("tool_result_is_error", tool_turn({**RESULT, "content": "file not found", "is_error": True}), tools=[CUSTOM_TOOL])
simple("tool_result_no_content", tool_turn(dict(RESULT)), tools=[CUSTOM_TOOL])
simple("tool_result_empty_string", tool_turn({**RESULT, "content": ""}), tools=[CUSTOM_TOOL])
simple("tool_result_empty_list", tool_turn({**RESULT, "content": []}), tools=[CUSTOM_TOOL])
simple("tool_result_cache_control", tool_turn({**RESULT, "content": "ok", "cache_control": EPHEMERAL}), tools=[CUSTOM_TOOL])
simple("tool_result_then_text", [
    *tool_turn({**RESULT, "content": "ok"})[:2],
    user([{**RESULT, "content": "ok"}, {"type": "text", "text": "请用一句话概括。"}]),
], tools=[CUSTOM_TOOL])  # fmt: skip
simple("tool_use_empty_input", tool_turn({**RESULT, "content": "now"}, name="clock", tool_input={}),
       tools=[{"name": "clock", "input_schema": {"type": "object", "properties": {}}}])  # fmt: skip
simple("tool_use_nested_input", tool_turn({**RESULT, "content": "ok"}, tool_input={
    "path": "a", "options": {"depth": [1, 2, {"deep": None}], "flag": True, "ratio": 0.5, "名字": "值"}}),
    tools=[CUSTOM_TOOL])  # fmt: skip
simple("tool_use_cache_control_caller", [
    user("go"),
    assistant([{"type": "tool_use", "id": "toolu_x", "name": "read_file", "input": {"path": "a"},
                "cache_control": EPHEMERAL, "caller": {"type": "direct"}}]),
    user([{**RESULT, "tool_use_id": "toolu_x", "content": "ok"}]),
], tools=[CUSTOM_TOOL])  # fmt: skip
simple("parallel_tool_uses", [
    user("read both"),
    assistant([{"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a"}},
               {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "b"}}]),
    user([{**RESULT, "tool_use_id": "toolu_a", "content": "A"}, {**RESULT, "tool_use_id": "toolu_b", "content": "B"}]),
], tools=[CUSTOM_TOOL])  # fmt: skip
simple("tool_result_tool_reference", [
    user("find a tool"),
    assistant([{"type": "server_tool_use", "id": "srvtoolu_ts", "name": "tool_search_tool_regex", "input": {"query": "weather"}},
               {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_ts", "content": {
                   "type": "tool_search_tool_search_result", "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
               {"type": "tool_use", "id": "toolu_w", "name": "get_weather", "input": {"city": "Paris"}}]),
    user([{**RESULT, "tool_use_id": "toolu_w", "content": [{"type": "tool_reference", "tool_name": "get_weather"},
                                                            {"type": "text", "text": "sunny"}]}]),
], tools=[{"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
          {"name": "get_weather", "description": "weather", "defer_loading": True,
           "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}])  # fmt: skip

# --- thinking ------------------------------------------------------------------------------

THINKING = {"type": "thinking", "thinking": "Let me think: 2 + 2 = 4.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"}
simple("thinking_signed_history", [
    user("2 + 2?"), assistant([THINKING, {"type": "text", "text": "4"}]), user("and 3 + 3?")],
    thinking={"type": "enabled", "budget_tokens": 1024})  # fmt: skip
simple("thinking_redacted_history", [
    user("2 + 2?"), assistant([REDACTED, THINKING, {"type": "text", "text": "4"}]), user("and 3 + 3?")],
    thinking={"type": "enabled", "budget_tokens": 2048, "display": "summarized"})  # fmt: skip
simple("thinking_with_tool_use", [
    user("read README"),
    assistant([THINKING, {"type": "tool_use", "id": "toolu_t", "name": "read_file", "input": {"path": "README.md"}}]),
    user([{**RESULT, "tool_use_id": "toolu_t", "content": "# Demo"}]),
], tools=[CUSTOM_TOOL], thinking={"type": "adaptive"})  # fmt: skip
simple("thinking_disabled", [user("hi")], thinking={"type": "disabled"})
simple("thinking_adaptive_omitted", [user("hi")], thinking={"type": "adaptive", "display": "omitted"})

# --- server tools and their results ----------------------------------------------------------

simple("web_search_history", server_turn("web_search", {"query": "weather in Paris"}, {
    "type": "web_search_tool_result", "tool_use_id": "srvtoolu_ws",
    "content": [{"type": "web_search_result", "url": "https://example.com", "title": "Weather", "encrypted_content": "EqgfCioIARgB", "page_age": "1 day"}],
}), tools=[{"type": "web_search_20250305", "name": "web_search", "max_uses": 3, "allowed_domains": ["example.com"],
            "user_location": {"type": "approximate", "city": "Paris", "country": "FR", "timezone": "Europe/Paris"}}])  # fmt: skip
simple("web_search_error_history", server_turn("web_search", {"query": "q"}, {
    "type": "web_search_tool_result", "tool_use_id": "srvtoolu_ws", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"},
}), tools=[{"type": "web_search_20250305", "name": "web_search"}])  # fmt: skip
simple("web_fetch_history", server_turn("web_fetch", {"url": "https://example.com"}, {
    "type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_wf",
    "content": {"type": "web_fetch_result", "url": "https://example.com", "retrieved_at": "2025-01-01T00:00:00Z",
                "content": {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "page"}, "title": "Example"}},
}), tools=[{"type": "web_fetch_20250910", "name": "web_fetch", "max_uses": 2, "citations": {"enabled": True}, "max_content_tokens": 1000}])  # fmt: skip
simple("code_execution_history", server_turn("code_execution", {"code": "print(1)"}, {
    "type": "code_execution_tool_result", "tool_use_id": "srvtoolu_ce",
    "content": {"type": "code_execution_result", "stdout": "1\n", "stderr": "", "return_code": 0, "content": []},
}), tools=[{"type": "code_execution_20250522", "name": "code_execution"}])  # fmt: skip
simple("bash_code_execution_history", server_turn("bash_code_execution", {"command": "ls"}, {
    "type": "bash_code_execution_tool_result", "tool_use_id": "srvtoolu_bce",
    "content": {"type": "bash_code_execution_result", "stdout": "a\n", "stderr": "", "return_code": 0, "content": []},
}), tools=[{"type": "code_execution_20250825", "name": "code_execution"}])  # fmt: skip
simple("text_editor_code_execution_history", server_turn("text_editor_code_execution", {"command": "view", "path": "/tmp/a"}, {
    "type": "text_editor_code_execution_tool_result", "tool_use_id": "srvtoolu_tce",
    "content": {"type": "text_editor_code_execution_view_result", "content": "hello", "file_type": "text", "num_lines": 1, "start_line": 1, "total_lines": 1},
}), tools=[{"type": "code_execution_20250825", "name": "code_execution"}])  # fmt: skip

# --- tools of every kind, tool_choice -----------------------------------------------------

TOOL_KINDS = {
    "custom_full": {"name": "read_file", "description": "读取文件", "input_schema": SCHEMA, "type": "custom",
                    "cache_control": EPHEMERAL, "strict": True, "defer_loading": False, "eager_input_streaming": True,
                    "input_examples": [{"path": "README.md"}], "allowed_callers": ["direct"]},
    "custom_no_description": {"name": "ping", "input_schema": {"type": "object", "properties": {}}},
    "bash_20250124": {"type": "bash_20250124", "name": "bash"},
    "text_editor_20250124": {"type": "text_editor_20250124", "name": "str_replace_editor"},
    "text_editor_20250429": {"type": "text_editor_20250429", "name": "str_replace_based_edit_tool"},
    "text_editor_20250728": {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool", "max_characters": 10000},
    "memory_20250818": {"type": "memory_20250818", "name": "memory"},
    "web_search_20250305": {"type": "web_search_20250305", "name": "web_search", "max_uses": 5, "blocked_domains": ["bad.example"]},
    "web_search_20260209": {"type": "web_search_20260209", "name": "web_search"},
    "web_fetch_20250910": {"type": "web_fetch_20250910", "name": "web_fetch", "allowed_domains": ["example.com"]},
    "code_execution_20250522": {"type": "code_execution_20250522", "name": "code_execution"},
    "code_execution_20250825": {"type": "code_execution_20250825", "name": "code_execution"},
    "tool_search_tool_bm25_20251119": {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"},
    "tool_search_tool_regex_20251119": {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"},
    "computer_toolset_20260801": {"type": "computer_toolset_20260801", "configs": {"zoom": {"enabled": False}}},
    "browser_toolset_20260801": {"type": "browser_toolset_20260801"},
}  # fmt: skip
for _kind, _tool in TOOL_KINDS.items():
    simple(f"tool_{_kind}", [user("use your tools")], tools=[_tool])
simple("tools_all_kinds", [user("use your tools")],
       tools=[t for k, t in TOOL_KINDS.items() if k not in ("text_editor_20250124", "text_editor_20250728", "code_execution_20250522", "web_search_20260209")])  # fmt: skip
simple("client_tools_used", [
    user("list files, then note it"),
    assistant([{"type": "tool_use", "id": "toolu_bash", "name": "bash", "input": {"command": "ls"}},
               {"type": "tool_use", "id": "toolu_edit", "name": "str_replace_based_edit_tool",
                "input": {"command": "view", "path": "/repo/README.md"}},
               {"type": "tool_use", "id": "toolu_mem", "name": "memory", "input": {"command": "view", "path": "/memories"}}]),
    user([{**RESULT, "tool_use_id": "toolu_bash", "content": "README.md"},
          {**RESULT, "tool_use_id": "toolu_edit", "content": "1\t# Demo"},
          {**RESULT, "tool_use_id": "toolu_mem", "content": "(empty)"}]),
], tools=[TOOL_KINDS["bash_20250124"], TOOL_KINDS["text_editor_20250728"], TOOL_KINDS["memory_20250818"]])  # fmt: skip
for _choice in ({"type": "auto"}, {"type": "auto", "disable_parallel_tool_use": True}, {"type": "any"},
                {"type": "tool", "name": "read_file"}, {"type": "none"}):  # fmt: skip
    simple("tool_choice_" + "_".join(str(v) for v in _choice.values()).lower(), [user("read it")],
           tools=[CUSTOM_TOOL], tool_choice=_choice)  # fmt: skip

# --- the other parameters --------------------------------------------------------------------

simple("metadata_stop_sequences", [user("count")], metadata={"user_id": "user-1234"}, stop_sequences=["\n\nHuman:", "STOP"])
simple("sampling_extra_body", [user("hi")], extra_body={"temperature": 0.7, "top_p": 0.9, "top_k": 40})
simple("output_config", [user("give JSON")], output_config={"effort": "high", "format": {
    "type": "json_schema", "schema": {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"], "additionalProperties": False}}})  # fmt: skip
simple("service_tier_and_cache_control", [user("hi")], service_tier="auto", cache_control=EPHEMERAL)


# --- streaming -------------------------------------------------------------------------------


@call("stream_create")
def _stream_create(client):
    stream = create(client, [user("stream please")], stream=True, tools=[CUSTOM_TOOL], system="sys")
    for _event in stream:
        pass


@call("stream_helper")
def _stream_helper(client):
    with client.messages.stream(model=MODEL, max_tokens=256, messages=[user("stream please")],
                                thinking={"type": "enabled", "budget_tokens": 1024}) as stream:  # fmt: skip
        stream.get_final_message()


@call("count_tokens")
def _count_tokens(client):
    client.messages.count_tokens(model=MODEL, messages=[user("how many tokens?")], tools=[CUSTOM_TOOL], system="sys")


# --- the beta API ------------------------------------------------------------------------------

MCP_SERVER = {"type": "url", "url": "https://mcp.example.com/sse", "name": "example-mcp", "authorization_token": "tok"}
BETA_TOOLS = {
    "computer_20250124": {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768, "display_number": 1},
    "computer_20251124": {"type": "computer_20251124", "name": "computer", "display_width_px": 1280, "display_height_px": 800, "enable_zoom": True},
    "bash_20241022": {"type": "bash_20241022", "name": "bash"},
    "text_editor_20241022": {"type": "text_editor_20241022", "name": "str_replace_editor"},
    "memory_20250818": {"type": "memory_20250818", "name": "memory"},
}  # fmt: skip
for _kind, _tool in BETA_TOOLS.items():
    call(f"beta_tool_{_kind}")(
        lambda client, _tool=_tool: beta_create(client, [user("use the tool")], ["computer-use-2025-01-24"], tools=[_tool])
    )


@call("beta_mcp_toolset")
def _beta_mcp(client):
    beta_create(
        client,
        [
            user("ask the MCP server"),
            assistant([
                {"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "echo", "server_name": "example-mcp", "input": {"text": "hi"}},
                {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "is_error": False, "content": [{"type": "text", "text": "hi"}]},
                {"type": "text", "text": "The server said hi."},
            ]),
            user("thanks"),
        ],
        ["mcp-client-2025-11-20"],
        mcp_servers=[MCP_SERVER],
        tools=[{"type": "mcp_toolset", "mcp_server_name": "example-mcp", "default_config": {"enabled": True},
                "configs": {"echo": {"enabled": True}}}, CUSTOM_TOOL],
    )  # fmt: skip


@call("beta_mcp_tool_result_string")
def _beta_mcp_string(client):
    beta_create(
        client,
        [user("ask"), assistant([
            {"type": "mcp_tool_use", "id": "mcptoolu_2", "name": "echo", "server_name": "example-mcp", "input": {}},
            {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_2", "content": "plain", "is_error": True}]), user("ok")],
        ["mcp-client-2025-04-04"],
        mcp_servers=[MCP_SERVER],
        tools=[{"type": "mcp_toolset", "mcp_server_name": "example-mcp"}],
    )  # fmt: skip


@call("beta_context_management_memory")
def _beta_context(client):
    beta_create(
        client,
        [*tool_turn({**RESULT, "content": "ok"}, name="memory", tool_input={"command": "view", "path": "/memories"})],
        ["context-management-2025-06-27"],
        tools=[BETA_TOOLS["memory_20250818"]],
        context_management={"edits": [{"type": "clear_tool_uses_20250919", "trigger": {"type": "input_tokens", "value": 30000},
                                       "keep": {"type": "tool_uses", "value": 3}, "clear_at_least": {"type": "input_tokens", "value": 5000},
                                       "exclude_tools": ["web_search"]}]},
    )  # fmt: skip


@call("beta_files_and_container_upload")
def _beta_files(client):
    beta_create(
        client,
        [user([IMAGE_FILE, DOC_FILE, {"type": "container_upload", "file_id": "file_abc"}, {"type": "text", "text": "look"}])],
        ["files-api-2025-04-14", "code-execution-2025-08-25"],
        tools=[{"type": "code_execution_20250825", "name": "code_execution"}],
    )


@call("beta_compaction_block")
def _beta_compaction(client):
    beta_create(
        client,
        [user("long chat"), assistant([{"type": "compaction", "content": "summary of earlier turns"}, {"type": "text", "text": "ok"}]), user("go on")],
        ["compact-2026-01-12"],
    )  # fmt: skip


@call("beta_stream")
def _beta_stream(client):
    with client.beta.messages.stream(model=MODEL, max_tokens=256, messages=[user("hi")], betas=["computer-use-2025-01-24"],
                                     tools=[BETA_TOOLS["computer_20250124"]]) as stream:  # fmt: skip
        stream.get_final_message()


# ---------------------------------------------------------------------------
# Capturing


def capture(names: Optional[list[str]] = None) -> dict[str, dict]:
    """Run the battery: name -> {"method", "path", "headers", "body"} of the one request it sent."""
    captured = {}
    for name in names or list(CALLS):
        recorder = Recorder()
        with sdk_client(recorder) as client:
            CALLS[name](client)
        if len(recorder.requests) != 1:
            raise AssertionError(f"{name}: expected one request, the SDK sent {len(recorder.requests)}")
        captured[name] = recorder.requests[0]
    return captured


def bodies() -> dict[str, Any]:
    """name -> the JSON body the installed SDK sends for that call."""
    return {name: request["body"] for name, request in capture().items()}


def fixture_text(captured_bodies: dict[str, Any]) -> str:
    return json.dumps(captured_bodies, ensure_ascii=False, indent=1) + "\n"


def load_fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def write_fixture(path: Path = FIXTURE) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(fixture_text(bodies()), encoding="utf-8")
    return path


def main() -> int:
    import anthropic

    path = write_fixture()
    print(f"wrote {len(CALLS)} bodies captured from anthropic {anthropic.__version__} to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
