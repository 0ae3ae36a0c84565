"""The README example of the walk-through: the request and the two results it must give.

The values come from the material unchanged; notebooks and tests compare against them.
Each call returns a fresh copy, so a reader may edit what they get.
"""

from __future__ import annotations

import json
from importlib import resources


def _load(name: str):
    return json.loads(resources.files(__package__).joinpath("examples", "readme", name).read_text("utf-8"))


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
    return json.loads(resources.files(__package__).joinpath("examples", "claude_code", "session.json").read_text("utf-8"))
