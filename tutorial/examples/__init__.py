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
