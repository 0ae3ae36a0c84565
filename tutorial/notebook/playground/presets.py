"""The presets: small requests that each show one rule of the translation, and one request
per recorded peer case ("peer: 04_image_base64_and_url") when tutorial/peers/data is present.

    presets()              name -> request body (a raw string for the half-typed JSON), fresh copies
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
from ..show import as_json

README = "README example"
HALF_TYPED = "half-typed JSON"
PEER_PREFIX = "peer: "

# The peer each target follows most closely (see tutorial/peers/deviations.py).
CLOSEST_PEER = {"chat_template": "slime", "openai": "sglang"}


def _tool(name: str, description: str, **properties: str) -> dict:
    return {
        "name": name,
        "description": description,
        "input_schema": {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}},
    }


def _builtin_presets() -> dict[str, Union[dict, str]]:
    readme = readme_request()
    no_pairing_id = readme_request()
    del no_pairing_id["messages"][2]["content"][0]["tool_use_id"]
    readme_text = as_json(readme)
    return {
        README: readme,
        "string system": {
            "system": "You are a terse assistant.",
            "messages": [{"role": "user", "content": "What is 2 + 2?"}],
            "max_tokens": 64,
        },
        "two text blocks in one user message": {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Here is my code:"},
                        {"type": "text", "text": "print('hello')"},
                    ],
                }
            ],
            "max_tokens": 64,
        },
        "thinking with signatures": {
            "tools": [_tool("get_weather", "Current weather for a city", city="string")],
            "messages": [
                {"role": "user", "content": "Weather in Paris?"},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": "The user wants the weather; ", "signature": "EqQBCkYIBxgC"},
                        {"type": "thinking", "thinking": "I should call the tool.", "signature": "EqQBCkYIBxgD"},
                        {"type": "text", "text": "Let me check."},
                        {"type": "tool_use", "id": "toolu_w1", "name": "get_weather", "input": {"city": "Paris"}},
                    ],
                },
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_w1", "content": "18°C, sunny"}]},
            ],
            "max_tokens": 256,
        },
        "parallel tool calls": {
            "tools": [_tool("read_file", "Read a file", path="string")],
            "messages": [
                {"role": "user", "content": "Compare a.txt and b.txt."},
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
            "tools": [_tool("screenshot", "Capture the screen")],
            "messages": [
                {"role": "user", "content": "Take a screenshot."},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_s", "name": "screenshot", "input": {}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_s",
                            "is_error": True,
                            "content": [
                                {"type": "text", "text": "Only part of the screen was captured."},
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
                _tool("ToolSearch", "Find a tool by what it does", query="string"),
                {**_tool("Bash", "Run a shell command", command="string"), "defer_loading": True},
            ],
            "messages": [
                {"role": "user", "content": "I need a shell."},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_t", "name": "ToolSearch", "input": {"query": "shell"}}]},
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "toolu_t",
                            "content": [
                                {"type": "text", "text": "Found one tool:"},
                                {"type": "tool_reference", "tool_name": "Bash"},
                                {"type": "text", "text": "It is loaded now."},
                            ],
                        }
                    ],
                },
            ],
            "max_tokens": 128,
        },
        "mid-list system message": {
            "system": "You are a coding assistant.",
            "messages": [
                {"role": "user", "content": "Fix the bug in main.py."},
                {"role": "assistant", "content": "Which bug do you mean?"},
                {"role": "system", "content": "Reminder: the user prefers small patches."},
                {"role": "user", "content": "The crash on start."},
            ],
            "max_tokens": 128,
        },
        "server tool": {
            "tools": [
                {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
                _tool("read_file", "Read a file", path="string"),
            ],
            "messages": [{"role": "user", "content": "What is new in Python 3.13?"}],
            "max_tokens": 128,
        },
        "unknown block type": {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Look at this:"},
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
    """Every preset, name -> request body (a raw string for the half-typed JSON).

    The built-in ones come first, then one per recorded peer case ("peer: 04_image_base64_and_url")
    when the recorded data (tutorial/peers/data) is present. Each call returns fresh copies.
    """
    found = _builtin_presets()
    for case in _peer_data()[0]:
        found[PEER_PREFIX + case["id"]] = copy.deepcopy(case["request"])
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
