"""Chapter 06, check yourself: the walk-through's three questions and four "predict the output"
exercises on small variations of the README example.

The right answers are computed from the package (`translate`, the adapter's call chain as the
walk-through describes it); the requests live in `REQUESTS`, so a learner answers by reference
(`body["system"]`) instead of typing the Chinese strings again.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ...translation import translate
from . import Exercise, add

# ---------------------------------------------------------------------------
# The walk-through's three questions


def _function_name(value: Any) -> str:
    """'_translate_messages()' or 'tutorial.translate_messages' -> 'translate_messages'."""
    if not isinstance(value, str):
        return ""
    name = value.strip().rstrip("()").strip().rsplit(".", 1)[-1]
    return name.lower().lstrip("_")


# The default target's own implementations answer the question too: `translate_messages`
# hands the history to `chat_template_messages`, and the tools to `chat_template_tools`.
_MESSAGES_PATH = {"translate_messages", "chat_template_messages"}
_TOOLS_PATH = {"tools_to_chat_tools", "chat_template_tools"}


def _same_paths(answer: Any, expected: Any) -> bool:
    if not isinstance(answer, dict) or set(answer) != {"messages", "tools"}:
        return False
    return _function_name(answer["messages"]) in _MESSAGES_PATH and _function_name(answer["tools"]) in _TOOLS_PATH


add(
    Exercise(
        key="06.paths",
        question="Question 1a. Which function receives body['messages'] (with the system prompt), and which "
        "receives body['tools']?",
        expected=lambda: {"messages": "translate_messages", "tools": "tools_to_chat_tools"},
        wrong={"messages": "translate_messages", "tools": "tool_call_dict"},
        hint="_translate makes exactly two calls, one per path (chapter 02 opens with them). tool_call_dict is "
        "called inside the messages path, once per historical tool_use block.",
        explanation="_translate hands the history and the system prompt to translate_messages (the walk-through's "
        "_translate_messages) and the tool definitions to tools_to_chat_tools; the names with or without the "
        "leading underscore, and the default target's chat_template_messages / chat_template_tools, all count.",
        same=_same_paths,
        form="a dict {'messages': '<function name>', 'tools': '<function name>'}",
    )
)

add(
    Exercise(
        key="06.why_apart",
        question="Question 1b. Why are the historical tool_calls and the available tool definitions kept apart?",
        expected=lambda: "c",
        wrong="b",
        choices={
            "a": "The tools path has to run first, so the messages path cannot see the list of tools yet.",
            "b": "tool_calls travel as JSON text for the engine; the schema stays a dict for the template.",
            "c": "Different data: a tool_calls entry is a call already made; the schema is an offer.",
            "d": "A chat template cannot take tool calls and tool definitions in the same list of messages.",
        },
        feedback={
            "a": "the order is the other way round (messages first, then tools), and neither path reads the "
            "other's input: _translate could call them in any order.",
            "b": "in the default target both stay Python values: a call's arguments are a dict, like the schema. "
            "JSON text is the openai target's wire form (chapter 08), and it is not why the two are separate.",
            "d": "a tool call does sit inside the message list (on the assistant message), and the template "
            "receives the schema beside that list. The split follows what the data means, not a template limit.",
        },
        hint="Compare one entry of each: a tool_calls entry has a name and the arguments of a past call; a "
        "tools_schema entry has a name, a description and parameters.",
        explanation="a tool_calls entry records what the model did in the history (name + arguments of one "
        "call); a tools_schema entry declares what it may call next (name, description, parameters). One is "
        "history, the other an offer, so they travel separately.",
    )
)

add(
    Exercise(
        key="06.why_split",
        question="Question 2. Why does the user message that carries the tool result become two chat messages "
        "in the README example?",
        expected=lambda: "d",
        wrong="b",
        choices={
            "a": "The template needs strict user/assistant alternation, so the text has to move into a new turn.",
            "b": "The tool_use_id has to be kept, and only a message of its own can carry the pairing id.",
            "c": "flatten_content takes one block at a time, so every block needs a message of its own.",
            "d": "The chat shape has a `tool` role: the result and the user's text become two messages.",
        },
        feedback={
            "a": "look at the roles: assistant, tool, user. A tool message sits between the two, so the output "
            "does not alternate strictly, and the translation never tries to.",
            "b": "the default target drops tool_use_id (the loss report lists it); the tool message carries "
            "only the result's text.",
            "c": "flatten_content takes a whole list (it joins the text of every block). The split is decided "
            "by role, in chat_template_message, before any flattening.",
        },
        hint="Look at the roles of translated[3] and translated[4], and at which block of messages[2] each "
        "one came from.",
        explanation="a chat template has a separate `tool` role, so a tool_result cannot share a message with "
        "the user's text: it becomes a tool message, and the text after it a user message, in the original order.",
    )
)


def _method(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    name = value.strip().rstrip("()").strip()
    name = re.sub(r"^self\.", "", name)
    return name.lower()


# `_run_turn` is defined on BaseAdapter and inherited by AnthropicAdapter: every spelling of
# that one method is right.
_RUN_TURN = {"baseadapter._run_turn", "_run_turn", "run_turn", "anthropicadapter._run_turn", "baseadapter.run_turn"}

add(
    Exercise(
        key="06.receiver",
        question="Question 3a. Which method receives `translated` and `tools_schema` when _translate returns? "
        "(Write it as Class._method or just _method.)",
        expected=lambda: "BaseAdapter._run_turn",
        wrong="_render_token_ids",
        hint="_translate is a method of the adapter. Which method of the same object calls it and unpacks the "
        "tuple? Chapter 04 opens with that line.",
        explanation="the shared one-turn pipeline, BaseAdapter._run_turn, calls self._translate(body) and "
        "unpacks the tuple. AnthropicAdapter inherits _run_turn, so AnthropicAdapter._run_turn and plain "
        "_run_turn name the same method. Only later does _run_turn pass the two lists to _render_token_ids.",
        same=lambda answer, expected: _method(answer) in _RUN_TURN,
        form="a string such as 'Class._method'",
    )
)

add(
    Exercise(
        key="06.http",
        question="Question 3b. Is another HTTP request made to hand `translated` and `tools_schema` over? "
        "(True or False)",
        expected=lambda: False,
        wrong=True,
        hint="Where does _translate run, and where does the caller live? Both are methods of one adapter object. "
        "Which HTTP request brought the body in, and when is it answered?",
        explanation="the hand-over is an ordinary Python return value on the same object. The only HTTP request "
        "is the CLI's POST /v1/messages that brought the body in (Action 7), and it is answered after sampling "
        "(Action 3.5).",
        form="True or False",
    )
)

# ---------------------------------------------------------------------------
# Predict the output: small variations of the README example


REQUESTS: dict[str, dict] = {
    "string_system": {
        "system": "回答要简短。",
        "messages": [{"role": "user", "content": "你好"}],
    },
    "two_text_blocks": {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "第一段"}, {"type": "text", "text": "第二段"}]}],
    },
    "two_tool_calls": {
        "messages": [
            {"role": "user", "content": "比较两个文件"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a.py"}},
                    {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "b.py"}},
                ],
            },
        ],
    },
    "image": {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "这张图里有什么？"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                ],
            }
        ],
    },
}
"""The four requests of the exercises. Read them; `requests()` gives a fresh copy to edit."""


def requests() -> dict[str, dict]:
    return copy.deepcopy(REQUESTS)


def _translated(name: str) -> list[dict]:
    return translate(copy.deepcopy(REQUESTS[name]))[0]


_FORM = "a list of message dicts; take strings from the request, e.g. body['messages'][0]['content']"

add(
    Exercise(
        key="06.string_system",
        question="A system prompt given as a plain string: what list does translate(body)[0] give?",
        expected=lambda: _translated("string_system"),
        wrong=[{"role": "user", "content": "你好"}],
        hint="The system prompt is not left behind as a top-level field: it becomes the first chat message. "
        "A string needs no flattening.",
        explanation="a string system prompt becomes the content of the first message as it is; the user's "
        "string content is taken as it is too.",
        form=_FORM,
    )
)

add(
    Exercise(
        key="06.two_text_blocks",
        question="One user message with two text blocks: what list does translate(body)[0] give?",
        expected=lambda: _translated("two_text_blocks"),
        wrong=[{"role": "user", "content": "第一段\n第二段"}],
        hint="The default target does not join a user message's blocks: it gives one chat message per block "
        "and takes each text directly (only the system prompt and tool results are flattened).",
        explanation="a user message gives one chat message per block, so two text blocks become two consecutive "
        "user messages. (The openai target keeps them in one message as a list of parts: chapter 08.)",
        form=_FORM,
    )
)

add(
    Exercise(
        key="06.two_tool_calls",
        question="An assistant turn that calls two tools and says nothing: what list does translate(body)[0] give?",
        expected=lambda: _translated("two_tool_calls"),
        wrong=[
            {"role": "user", "content": "比较两个文件"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"id": "toolu_a", "type": "function", "function": {"name": "read_file", "arguments": {"path": "a.py"}}},
                    {"id": "toolu_b", "type": "function", "function": {"name": "read_file", "arguments": {"path": "b.py"}}},
                ],
            },
        ],
        hint="Each tool_use goes through tool_call_dict(name, input), in order. Which fields of the block does "
        "that helper take? No text block means content is the empty string.",
        explanation="both calls land in one assistant message's tool_calls, in order, each built by "
        "tool_call_dict from the name and the input (a dict): no id, and content is '' because there is no text.",
        form=_FORM,
    )
)

add(
    Exercise(
        key="06.image",
        question="A user message with a screenshot: what list does translate(body)[0] give?",
        expected=lambda: _translated("image"),
        wrong=[{"role": "user", "content": "这张图里有什么？"}],
        hint="Nothing is dropped without a trace: a text template cannot show pixels, so the image block "
        "becomes a user message holding a placeholder (and the loss report names the image).",
        explanation="one chat message per block: the text as it is, then '[image omitted]' for the image, and "
        "the loss report names messages[0].content[1].",
        form=_FORM,
    )
)
