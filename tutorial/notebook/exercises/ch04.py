"""Chapter 04, the hand-back: how the results travel, what stays behind, where the tools go."""

from __future__ import annotations

from typing import Any

from ...examples import readme_request
from . import Exercise, add


def _losses() -> list[str]:
    from ...watch.trace import trace

    return [loss.path for loss in trace(readme_request()).losses]


def _same_places(answer: Any, expected: list[str]) -> bool:
    """The same places in any order, written with or without spaces."""
    if not isinstance(answer, (list, tuple, set)) or not all(isinstance(item, str) for item in answer):
        return False
    return sorted(item.replace(" ", "") for item in answer) == sorted(expected)


add(
    Exercise(
        key="04.handoff",
        question="How do translated and tools_schema reach BaseAdapter._run_turn?",
        choices={
            "a": "in a second HTTP request, to the part of the adapter that samples",
            "b": "as the return value of self._translate(body), an ordinary Python call on the same object",
            "c": "written back into the body under new keys",
            "d": "through a queue that the sampling step reads from",
        },
        expected=lambda: "b",
        wrong="a",
        feedback={
            "a": "The only HTTP request in this turn is the CLI's POST /v1/messages, and its answer goes out "
            "after sampling. Everything in between runs inside one Python process.",
            "c": "No function in Action 2 changes the body it is given.",
            "d": "_run_turn calls _translate and continues with its result on the next line; nothing waits.",
        },
        hint="Find the line in _run_turn where the two names first appear.",
        explanation="AnthropicAdapter subclasses BaseAdapter, and the shared _run_turn calls self._translate(body) "
        "and unpacks the tuple: a function call and its return value.",
    )
)

add(
    Exercise(
        key="04.losses",
        question="Which places of the README body are carried by neither translated nor tools_schema? "
        "Write them as paths, the way errors write them.",
        expected=_losses,
        wrong=["messages[1].content[1].id", "messages[2].content[0].tool_use_id"],
        same=_same_places,
        hint="Both ids are there. Go through the top-level fields of the body once more.",
        explanation="the two ids are dropped on purpose (chapter 02), and max_tokens is a sampling setting "
        "that Action 3 reads from the body.",
        form='a list of paths such as ["messages[0].content"], in any order',
    )
)

add(
    Exercise(
        key="04.where_tools",
        question="The ChatML-style template below renders both lists into one prompt. Where does tools_schema appear?",
        choices={
            "a": "in the system turn, before any of the history",
            "b": "in the last user turn, just before the model answers",
            "c": "inside the assistant turn that called read_file",
            "d": "nowhere in the text: the tokenizer adds the tools later",
        },
        expected=lambda: "a",
        wrong="c",
        feedback={
            "b": "Some templates do put them there (Mistral-style ones, beside the last user message), "
            "but not this one.",
            "c": "That turn shows the call that happened, from tool_calls. The offers in tools_schema are "
            "a different list.",
            "d": "The template writes the prompt text, tools included; the tokenizer only turns text into ids.",
        },
        hint="The offers are about what the model may do next. This template says that once, up front.",
        explanation="this template lists the tools in the system turn, then the history, then an open assistant "
        "turn for the model to continue.",
    )
)
