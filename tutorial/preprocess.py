"""The step before Action 2: fold `system` messages found inside the message list.

Agent CLIs sometimes send a reminder as `{"role": "system"}` in the middle of the
history. Many chat templates accept a system message only at the start, so the adapter
moves its text into a user message, marked as a reminder, before translating.
"""

from __future__ import annotations

import bisect

from . import contract
from .translation import flatten_content


def preprocess(body: dict) -> dict:
    """Return a new body in which every system message at index > 0 is folded into a
    user message: appended to the nearest one before it, else put first in the next one
    after it, else it becomes a user message itself, where it stood. The caller's body is
    not changed."""
    contract.check_body(body)
    messages = body["messages"]
    users = [i for i, message in enumerate(messages) if message["role"] == "user"]
    appended: dict[int, list] = {}  # user message index -> reminders to add at its end
    prepended: dict[int, list] = {}  # ... or at its start
    for i, message in enumerate(messages):
        if i == 0 or message["role"] != "system":
            continue
        reminder = {"type": "text", "text": f"<system-reminder>\n{flatten_content(message['content'])}\n</system-reminder>\n"}
        before = bisect.bisect_left(users, i)  # how many user messages come before i
        if before:
            appended.setdefault(users[before - 1], []).append(reminder)
        elif users:
            prepended.setdefault(users[0], []).append(reminder)
        else:
            prepended.setdefault(i, []).append(reminder)  # becomes a user message in place
    folded = []
    for i, message in enumerate(messages):
        if i > 0 and message["role"] == "system":
            if i in prepended:  # no user message anywhere: the reminder stands alone
                folded.append({"role": "user", "content": prepended[i]})
            continue
        if i in appended or i in prepended:
            message = _with_blocks(message, prepended.get(i, []), appended.get(i, []))
        folded.append(message)
    return {**body, "messages": folded}


def _with_blocks(message: dict, first: list[dict], last: list[dict]) -> dict:
    content = message["content"]
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
    return {**message, "content": first + blocks + last}
