"""The presets: small requests that each show one rule of the translation, and one request
per recorded peer case ("peer: 04_image_base64_and_url") when tutorial/peers/data is present.

    presets()              name -> request body (a raw string for the half-typed JSON), fresh copies;
                           named and worded in the current language ("en" or "zh")
    name_in(name)          a preset's name in the current language, from its name in any language
    peer_results(case_id)  what each recorded peer built from that case, or None
    peer_versions()        peer -> the version it was recorded from
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Optional, Union

from ...examples import readme_request
from ...peers import DATA_DIR as PEER_DIR
from ...words import current
from ..show import as_json

README = "README example"
HALF_TYPED = "half-typed JSON"
PEER_PREFIX = "peer: "

# The peer each target follows most closely (see tutorial/peers/deviations.py).
CLOSEST_PEER = {"chat_template": "slime", "openai": "sglang"}

NAMES: dict[str, dict[str, str]] = {
    # English name -> the name in each other language (the English ones work in every language)
    "zh": {
        README: "README 示例",
        "string system": "字符串形式的 system",
        "two text blocks in one user message": "一条 user 消息里的两个文本块",
        "thinking with signatures": "带签名的 thinking",
        "parallel tool calls": "并行工具调用",
        "error result with an image": "带图片的出错结果",
        "mixed tool result with a tool reference": "带工具引用的混合工具结果",
        "mid-list system message": "列表中间的 system 消息",
        "server tool": "服务端工具",
        "unknown block type": "未知类型的内容块",
        HALF_TYPED: "写了一半的 JSON",
        "missing tool_use_id": "缺少 tool_use_id",
    },
}
PEER_PREFIXES = {"en": PEER_PREFIX, "zh": "真实系统："}


def _tool(name: str, description: str, **properties: str) -> dict:
    return {
        "name": name,
        "description": description,
        "input_schema": {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}},
    }


def _builtin_presets() -> dict[str, Union[dict, str]]:
    """The built-in presets, named and worded in the current language. The requests are
    teaching examples written here, so their prose (messages, tool descriptions) is in that
    language too; tool names, ids and keys stay. The README example is the same request in
    every language."""
    lang = current()

    def written(en: str, zh: str) -> str:
        """The text as written in this language."""
        return zh if lang == "zh" else en

    readme = readme_request()
    no_pairing_id = readme_request()
    del no_pairing_id["messages"][2]["content"][0]["tool_use_id"]
    readme_text = as_json(readme)
    read_file = written("Read a file", "读取文件")
    found = {
        README: readme,
        "string system": {
            "system": written("You are a terse assistant.", "你是一个言简意赅的助手。"),
            "messages": [{"role": "user", "content": written("What is 2 + 2?", "2 + 2 等于几？")}],
            "max_tokens": 64,
        },
        "two text blocks in one user message": {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": written("Here is my code:", "这是我的代码：")},
                        {"type": "text", "text": "print('hello')"},
                    ],
                }
            ],
            "max_tokens": 64,
        },
        "thinking with signatures": {
            "tools": [_tool("get_weather", written("Current weather for a city", "查询城市的当前天气"), city="string")],
            "messages": [
                {"role": "user", "content": written("Weather in Paris?", "巴黎天气怎么样？")},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": written("The user wants the weather; ", "用户想知道天气；"),
                         "signature": "EqQBCkYIBxgC"},
                        {"type": "thinking", "thinking": written("I should call the tool.", "应该调用工具。"),
                         "signature": "EqQBCkYIBxgD"},
                        {"type": "text", "text": written("Let me check.", "我查一下。")},
                        {"type": "tool_use", "id": "toolu_w1", "name": "get_weather", "input": {"city": written("Paris", "巴黎")}},
                    ],
                },
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_w1",
                                              "content": written("18°C, sunny", "18°C，晴")}]},
            ],
            "max_tokens": 256,
        },
        "parallel tool calls": {
            "tools": [_tool("read_file", read_file, path="string")],
            "messages": [
                {"role": "user", "content": written("Compare a.txt and b.txt.", "比较 a.txt 和 b.txt。")},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a.txt"}},
                        {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "b.txt"}},
                    ],
                },
                {
                    "role": "user",
                    "content": [
                        {"type": "tool_result", "tool_use_id": "toolu_a", "content": "alpha"},
                        {"type": "tool_result", "tool_use_id": "toolu_b", "content": "beta"},
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "error result with an image": {
            "tools": [_tool("screenshot", written("Capture the screen", "截取屏幕"))],
            "messages": [
                {"role": "user", "content": written("Take a screenshot.", "截个屏。")},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s", "name": "screenshot", "input": {}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_s",
                            "is_error": True,
                            "content": [
                                {"type": "text", "text": written("Only part of the screen was captured.", "只截到了屏幕的一部分。")},
                                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                            ],
                        }
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "mixed tool result with a tool reference": {
            "tools": [
                _tool("ToolSearch", written("Find a tool by what it does", "按用途查找工具"), query="string"),
                {**_tool("Bash", written("Run a shell command", "运行 shell 命令"), command="string"), "defer_loading": True},
            ],
            "messages": [
                {"role": "user", "content": written("I need a shell.", "我需要一个 shell。")},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_t", "name": "ToolSearch", "input": {"query": "shell"}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_t",
                            "content": [
                                {"type": "text", "text": written("Found one tool:", "找到一个工具：")},
                                {"type": "tool_reference", "tool_name": "Bash"},
                                {"type": "text", "text": written("It is loaded now.", "它已经加载好了。")},
                            ],
                        }
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "mid-list system message": {
            "system": written("You are a coding assistant.", "你是编程助手。"),
            "messages": [
                {"role": "user", "content": written("Fix the bug in main.py.", "修复 main.py 里的 bug。")},
                {"role": "assistant", "content": written("Which bug do you mean?", "你指的是哪个 bug？")},
                {"role": "system", "content": written("Reminder: the user prefers small patches.", "提醒：用户喜欢小补丁。")},
                {"role": "user", "content": written("The crash on start.", "启动时的崩溃。")},
            ],
            "max_tokens": 128,
        },
        "server tool": {
            "tools": [
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
                _tool("read_file", read_file, path="string"),
            ],
            "messages": [{"role": "user", "content": written("What is new in Python 3.13?", "Python 3.13 有什么新东西？")}],
            "max_tokens": 128,
        },
        "unknown block type": {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": written("Look at this:", "看看这个：")},
                        {"type": "hologram", "frames": 24},
                    ],
                }
            ],
            "max_tokens": 64,
        },
        # Raw text, cut in the middle of the README example: what the editor holds while typing.
        HALF_TYPED: readme_text[: readme_text.index('"read_file"') + len('"read_file"')] + ",\n",
        "missing tool_use_id": no_pairing_id,
    }
    names = NAMES.get(lang, {})
    return {names.get(name, name): body for name, body in found.items()}


def name_in(name: str) -> str:
    """A preset's name in the current language, given its name in any language ("server tool"
    and "服务端工具" are one preset); a name that is no preset's comes back as it is."""
    lang = current()
    if not isinstance(name, str):
        return name
    for prefix in PEER_PREFIXES.values():
        if name.startswith(prefix):
            return PEER_PREFIXES.get(lang, PEER_PREFIX) + name[len(prefix):]
    english = next((en for names in NAMES.values() for en, other in names.items() if other == name), name)
    return NAMES.get(lang, {}).get(english, english)


def peer_case_of(name: Optional[str]) -> Optional[str]:
    """The recorded case a peer preset stands for ("peer: 04_…" or "真实系统：04_…"), else None."""
    for prefix in PEER_PREFIXES.values():
        if isinstance(name, str) and name.startswith(prefix):
            return name[len(prefix):]
    return None


@functools.lru_cache(maxsize=1)
def _peer_files(directory: Path) -> tuple[list, Optional[dict]]:
    """cases.json (a list of {"id", "request"}) and outputs_requests.json (or None)."""
    cases = json.loads((directory / "cases.json").read_text(encoding="utf-8"))
    outputs = directory / "outputs_requests.json"
    return cases, (json.loads(outputs.read_text(encoding="utf-8")) if outputs.is_file() else None)


def _peer_data() -> tuple[list, Optional[dict]]:
    try:
        return _peer_files(PEER_DIR)
    except (OSError, ValueError):
        return [], None  # outside the repository (or unreadable): no peer presets


def presets() -> dict[str, Union[dict, str]]:
    """Every preset, name -> request body (a raw string for the half-typed JSON), in the
    current language.

    The built-in ones come first, then one per recorded peer case ("peer: 04_image_base64_and_url",
    in Chinese "真实系统：04_image_base64_and_url") when the recorded data (tutorial/peers/data)
    is present; a recorded case's request is data and stays as recorded. Each call returns
    fresh copies.
    """
    found = _builtin_presets()
    prefix = PEER_PREFIXES.get(current(), PEER_PREFIX)
    for case in _peer_data()[0]:
        found[prefix + case["id"]] = copy.deepcopy(case["request"])
    return found


def peer_results(case_id: str) -> Optional[dict]:
    """What each recorded peer built from case `case_id` ({"slime": {...}, ...}), or None."""
    outputs = _peer_data()[1]
    if not outputs:
        return None
    for case in outputs.get("cases", []):
        if case.get("id") == case_id:
            return case.get("results")
    return None


def peer_versions() -> dict[str, str]:
    outputs = _peer_data()[1] or {}
    return {peer: info.get("meta", {}).get("source", "") for peer, info in outputs.get("peers", {}).items()}
