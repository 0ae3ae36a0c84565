"""The README example of the walk-through: the request and the two results it must give.

The values come from the material unchanged; notebooks and tests compare against them.
Each call returns a fresh copy, so a reader may edit what they get.
"""

from __future__ import annotations

import json
from importlib import resources


def _load(name: str):
    return json.loads(resources.files(__package__).joinpath("readme", name).read_text("utf-8"))


def readme_request() -> dict:
    """The request body: a system block, a user question, a read_file call and its result."""
    return _load("request.json")


def readme_translated() -> list[dict]:
    """The five messages the material says `translate_messages` returns."""
    return _load("translated.json")


def readme_tools_schema() -> list[dict]:
    """The one function tool the material says `tools_to_chat_tools` returns."""
    return _load("tools_schema.json")


def claude_code_session() -> dict:
    """A real agent's two requests: Claude Code 2.1.332 against a local endpoint, recorded
    and redacted as `examples/claude_code/README.md` describes (requests, replies, stdout)."""
    return json.loads(resources.files(__package__).joinpath("claude_code", "session.json").read_text("utf-8"))


def agent_request(turns: int = 400, tools: int = 30) -> dict:
    """A long, made-up agent session for the benchmarks and the long-request pictures:
    `turns` messages after the first; each turn thinks,
    says a line, calls a tool and reads its result (the shape of a real agent request)."""
    filler = "这是一段代码说明，包含函数、变量与注释。The quick brown fox jumps over the lazy dog. "
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": "请修复测试失败的问题。" + filler}]}]
    for turn in range(turns // 2):
        call_id = f"toolu_{turn:016x}"
        messages.append({
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": f"第 {turn} 步：先看文件。" + filler, "signature": "c2ln" * 20},
                {"type": "text", "text": f"Reading file {turn}."},
                {"type": "tool_use", "id": call_id, "name": f"tool_{turn % tools}", "input": {"path": f"src/m{turn}.py", "limit": 200}},
            ],
        })  # fmt: skip
        messages.append({
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": call_id, "content": [{"type": "text", "text": filler * 16}]},
                {"type": "text", "text": "继续。"},
            ],
        })  # fmt: skip
    return {
        "model": "local",
        "max_tokens": 4096,
        "system": [{"type": "text", "text": "你是代码助手。" + filler, "cache_control": {"type": "ephemeral"}}],
        "messages": messages,
        "tools": [
            {
                "name": f"tool_{i}",
                "description": f"Tool number {i}: reads or writes files. " * 3,
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["path"]},
            }
            for i in range(tools)
        ],
    }


def claude_code_request(turns: int = 155, extra_tools: int = 8) -> dict:
    """A long, made-up Claude Code session for the benchmarks, built on the recorded one
    (`claude_code_session()`): its system prompt blocks (with cache_control), its mid-list
    system message, its tools (long descriptions, schemas up to seven levels deep) plus
    `extra_tools` MCP-style ones (eleven levels deep), then `turns` rounds of thinking, a
    line of text and a Read, Bash, Grep or Edit call, answered by a tool_result of numbered
    file lines. About 0.55 MB of JSON as it stands."""
    recorded = claude_code_session()["requests"][1]["body"]
    body = {key: value for key, value in recorded.items() if key not in ("messages", "tools")}
    first_user, environment = recorded["messages"][0], recorded["messages"][1]  # the second is a system message
    tools = list(recorded["tools"])
    for i in range(extra_tools):
        leaf = {"type": "object", "properties": {"value": {"type": "string", "description": "The value to set."}}}
        for level in range(3):  # deep schemas (eleven levels), as MCP servers generate them
            leaf = {"type": "object", "description": f"Level {level} of the options.", "properties": {f"options_{level}": leaf}}
        tools.append({
            "name": f"mcp__workspace__tool_{i}",
            "description": f"Workspace tool {i} from an MCP server. " + "It reads, searches or edits the project as the options say. " * 12,
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}, "options": leaf}, "required": ["path"]},
        })  # fmt: skip
    source = "".join(f"{n}\tdef function_{n}(value):  # 注释：返回处理后的值\n" for n in range(1, 41))
    calls = [
        ("Read", lambda t: {"file_path": f"/tmp/project/src/module_{t}.py"}),
        ("Bash", lambda t: {"command": f"python -m pytest tests/test_{t}.py -q", "description": "Run the module's tests"}),
        ("Grep", lambda t: {"pattern": f"function_{t}", "path": "/tmp/project/src", "output_mode": "content"}),
        ("Edit", lambda t: {"file_path": f"/tmp/project/src/module_{t}.py", "old_string": "return value", "new_string": "return value + 1"}),
    ]  # fmt: skip
    messages = [first_user, environment]
    for turn in range(turns):
        name, arguments = calls[turn % len(calls)]
        call_id = f"toolu_{turn:024x}"
        messages.append({"role": "assistant", "content": [
            {"type": "thinking", "thinking": f"Step {turn}: the failing test points at module {turn}; look there first.", "signature": "RXVk" * 40},
            {"type": "text", "text": f"Let me look at module {turn}."},
            {"type": "tool_use", "id": call_id, "name": name, "input": arguments(turn)},
        ]})  # fmt: skip
        result: dict = {"type": "tool_result", "tool_use_id": call_id, "content": source}
        content = [result]
        if turn % 10 == 9:
            reminder = "<system-reminder>\nThe task list is unchanged.\n</system-reminder>"
            content.append({"type": "text", "text": reminder})
        messages.append({"role": "user", "content": content})
    messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    return {**body, "messages": messages, "tools": tools}
