"""Chapter 01, the request: what a body holds, the contract, preprocessing."""

from __future__ import annotations

import re
from typing import Any

from ...errors import RequestError, format_location
from ...examples import readme_request
from ...preprocess import preprocess
from ...translation import translate
from . import Exercise, add


def _error_place() -> str:
    broken = readme_request()
    del broken["messages"][2]["content"][0]["tool_use_id"]
    try:
        translate(broken)
    except RequestError as error:
        return format_location(error.location)
    raise AssertionError("the broken README example translated")


def _as_place(value: Any) -> Any:
    """A place written any usual way -> messages[2].content[0].tool_use_id."""
    if isinstance(value, (tuple, list)) and all(isinstance(part, (str, int)) for part in value):
        return format_location(tuple(value))
    if not isinstance(value, str):
        return value
    text = re.sub(r"""\[\s*["']([^"']+)["']\s*\]""", r".\1", value.strip().strip("'\""))  # ["content"] -> .content
    text = re.sub(r"\s+", "", text)
    return text[len("body") :].lstrip(".") if text.startswith("body") else text


add(
    Exercise(
        key="01.nowhere",
        question="Which top-level field of the README body ends up in neither translated nor tools_schema?",
        choices={
            "a": "system: it is a setting of the request, not a message",
            "b": "tools: read_file was already called, so it is history",
            "c": "max_tokens",
            "d": "none: every field lands in one of the two lists",
        },
        expected=lambda: "c",
        wrong="a",
        feedback={
            "a": "Anthropic keeps the system prompt outside the message list, but a chat template wants it as "
            "the first message, so Action 2 puts it there.",
            "b": "The call that happened is history (inside messages); tools says what may be called next, "
            "and it becomes tools_schema.",
            "d": "Action 2 translates the conversation and the tool offers. One field is about how long "
            "the answer may be, and that is not part of either.",
        },
        hint="Ask of each field: is it the conversation, a tool the model may call, or a setting for generating the answer?",
        explanation="max_tokens is a sampling limit. It stays in the body, and Action 3, which generates the "
        "answer, reads it from there.",
    )
)

add(
    Exercise(
        key="01.error_place",
        question="The tool_result in messages[2] has lost its tool_use_id. Where does translate say the problem is?",
        expected=_error_place,
        wrong="messages[2].content[0]",
        same=lambda answer, expected: _as_place(answer) == _as_place(expected),
        hint="The error names the place of the missing field itself, one step deeper than the block that lacks it.",
        explanation="the message starts with the exact place, written as you would index it, and "
        "error.location holds the same place as a tuple.",
        form='a place such as "messages[0].content", or a tuple such as ("messages", 0, "content")',
    )
)

add(
    Exercise(
        key="01.unknown_block",
        question='A user message holds a block of a type nobody has heard of: {"type": "hologram", "frames": 3}. '
        "What does translate(body) (the default target) make of it?",
        choices={
            "a": "it refuses the body with a RequestError: the type is unknown",
            "b": "it drops the block without a word",
            "c": 'a user message with the content "[hologram omitted]"',
            "d": "a user message holding the block's Python repr: \"{'type': 'hologram', 'frames': 3}\"",
        },
        expected=lambda: "c",
        wrong="a",
        feedback={
            "a": "The protocol keeps adding block types, so the contract lets an unknown type through as long "
            "as it has a string type. (The openai target does refuse what it cannot carry: chapter 08.)",
            "b": "Nothing leaves without a trace: the block still gives a message, and the loss report names it.",
            "d": "That is what Slime's adapter writes, data and all. The package writes a short placeholder instead.",
        },
        hint="Unknown is not the same as malformed.",
        explanation="a placeholder that names the type keeps the turn in its place without pasting the "
        "block's data into the prompt, and the loss report (chapter 04) says what was left out.",
    )
)

add(
    Exercise(
        key="01.preprocess_readme",
        question="Does preprocess change the README example? Answer with the value of preprocess(body) == body.",
        expected=lambda: preprocess(readme_request()) == readme_request(),
        wrong=False,
        hint="preprocess does one thing. Look for what it acts on in body['messages'].",
        explanation="preprocess only acts on a system message inside the message list, and the README example "
        "has none, so its output equals its input.",
        form="True or False",
    )
)

add(
    Exercise(
        key="01.fold",
        question="messages = [user, assistant, system]. What does preprocess do with the system message at index 2?",
        choices={
            "a": "nothing: it stays a system message where it stands",
            "b": "it merges its text into the system prompt at the top",
            "c": "it wraps its text in <system-reminder> tags and appends it to the nearest user message before it",
            "d": "it drops it: only the top-level system prompt counts",
        },
        expected=lambda: "c",
        wrong="b",
        feedback={
            "a": "That is what translate alone does with it. Many chat templates refuse a system turn after the "
            "first message, and preprocess exists to avoid exactly that.",
            "b": "SGLang and vLLM can merge like that, and so does the package's openai target (chapter 08). "
            "preprocess keeps the reminder at its place in the history instead.",
            "d": "Nothing is dropped: the reminder's text still reaches the model.",
        },
        hint="preprocess keeps the reminder's text at its place in the conversation, in a role that every template accepts.",
        explanation="the reminder keeps its place in the conversation and reaches the model as user text, which "
        "every template accepts.",
    )
)
