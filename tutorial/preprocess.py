"""The step before Action 2: fold `system` messages found inside the message list.

Agent CLIs sometimes send a reminder as `{"role": "system"}` in the middle of the
history. Most chat templates accept a system message only at the start, so the adapter
moves its text into a user message, marked as a reminder, before translating.
"""

from __future__ import annotations

from . import contract
from .translation import flatten_content


def preprocess(body: dict) -> dict:
    """Return a new body in which every system message at index > 0 is folded into a
    user message: the nearest one before it, else the next one after it, else it
    becomes a user message itself. The caller's body is not changed."""
    contract.check_body(body)
    messages: list[dict] = []
    waiting: list[dict] = []  # reminders that came before any user message
    waiting_at = 0
    for i, message in enumerate(body["messages"]):
        if i > 0 and message["role"] == "system":
            reminder = {"type": "text", "text": f"<system-reminder>\n{flatten_content(message['content'])}\n</system-reminder>\n"}
            users = [k for k, kept in enumerate(messages) if kept["role"] == "user"]
            if users:
                messages[users[-1]] = _with_blocks(messages[users[-1]], [reminder], at_end=True)
            else:
                waiting_at = waiting_at if waiting else len(messages)
                waiting.append(reminder)
            continue
        if waiting and message["role"] == "user":
            message, waiting = _with_blocks(message, waiting, at_end=False), []
        messages.append(message)
    if waiting:  # no user message at all: the reminders become one
        messages.insert(waiting_at, {"role": "user", "content": waiting})
    return {**body, "messages": messages}


def _with_blocks(message: dict, new: list[dict], *, at_end: bool) -> dict:
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    return {**message, "content": blocks + new if at_end else new + blocks}
