"""Chapter 02, the messages path: predictions and exercises."""

from __future__ import annotations

from ...examples import readme_request
from ...translation import translate
from . import Exercise, add


def _translated() -> list[dict]:
    return translate(readme_request())[0]


add(
    Exercise(
        key="02.count",
        question="The README example has a system prompt and 3 messages. How many chat messages does the messages path produce?",
        expected=lambda: len(_translated()),
        wrong=4,
        hint="Count the system prompt, then ask how many chat messages each input message gives: "
        "a user message gives one per block.",
        explanation="the system prompt gives one, messages[0] and messages[1] one each, and messages[2] two "
        "(a tool message for its tool_result, then a user message for its text).",
        form="a whole number",
    )
)
