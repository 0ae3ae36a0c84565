"""Check yourself: the material's three questions and "predict the output" exercises.

Each answer gets a deterministic verdict (a `Verdict`, shown as one line). Hints are
opt-in (`hint(...)`), and solutions live in `exercises/solutions.json`, read only when
you ask for one (`solution(...)`), so a notebook holds the unsolved starter.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .show import as_json
from ..translation import translate

QUESTIONS = {
    1: {
        "question": "Which function receives body['messages'] and which body['tools']? "
        "Why are historical tool_calls and available tool definitions kept apart?",
        "form": "{'messages': '<function name>', 'tools': '<function name>', 'why': 'a' | 'b' | 'c'}",
        "choices": {
            "a": "Because the tools path runs first and must finish before the messages are read.",
            "b": "Because they are different data: tool_calls record calls that already happened in the "
            "history; the tool definitions declare what the model may call next.",
            "c": "Because the chat template cannot hold both in one message list.",
        },
        "hint": "Look at the two lines of _translate: one call per path. Then compare a tool_calls entry "
        "(name + arguments of one past call) with a tools_schema entry (name + description + parameters).",
    },
    2: {
        "question": "Why does one user message carrying a tool result become two internal messages in the example?",
        "form": "'a' | 'b' | 'c'",
        "choices": {
            "a": "Because the text is too long for one message.",
            "b": "Because tool_use_id must be kept, and only a second message can carry it.",
            "c": "Because the chat shape has a separate `tool` role: the result becomes a tool message and "
            "the user's following text a user message, in the original order.",
        },
        "hint": "Look at the roles of translated[3] and translated[4], and at which block each came from (trace(...).produced).",
    },
    3: {
        "question": "Who receives translated and tools_schema in the end? Is another HTTP request made there?",
        "form": "{'receiver': '<Class._method>', 'http_request': True | False}",
        "choices": {},
        "hint": "_translate is a method of the adapter, called by the shared one-turn pipeline on the same object.",
    },
}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str

    def __repr__(self) -> str:
        return ("✓ " if self.ok else "✗ ") + self.message

    def __bool__(self) -> bool:
        return self.ok


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath("exercises", name).read_text("utf-8"))


def exercises() -> dict:
    """Name -> {title, request, hint} for the "predict the output" exercises."""
    return _load("exercises.json")


def exercise_request(name: str) -> dict:
    return exercises()[name]["request"]


def predict(name: str, prediction: Any) -> Verdict:
    """Compare your predicted `translated` list with what the translation gives."""
    if prediction is Ellipsis:
        return Verdict(False, "not answered yet: replace ... with your predicted list of messages")
    actual, _tools = translate(exercise_request(name))
    if prediction == actual:
        return Verdict(True, f"right: {len(actual)} messages, exactly as translate gives them")
    if not isinstance(prediction, list):
        return Verdict(False, "the messages path returns a list of message dicts")
    if len(prediction) != len(actual):
        return Verdict(False, f"translate gives {len(actual)} messages, your prediction has {len(prediction)}")
    for index, (mine, theirs) in enumerate(zip(prediction, actual)):
        if mine != theirs:
            return Verdict(False, f"message {index} differs; look at its role and content again")
    return Verdict(False, "not equal")  # unreachable for lists of equal length, kept for safety


def answer(number: int, response: Any) -> Verdict:
    """A verdict on your answer to one of the material's three questions."""
    if response is Ellipsis:
        return Verdict(False, f"not answered yet: replace ... with an answer of the form {QUESTIONS[number]['form']}")
    expected = _load("solutions.json")[f"question_{number}"]
    if isinstance(expected, dict):
        if not isinstance(response, dict):
            return Verdict(False, f"answer with a dict of the form {QUESTIONS[number]['form']}")
        wrong = [key for key in expected if _normal(response.get(key)) != _normal(expected[key])]
        if wrong:
            return Verdict(False, "not yet: look again at " + ", ".join(repr(key) for key in wrong))
        return Verdict(True, "right")
    return Verdict(True, "right") if _normal(response) == _normal(expected) else Verdict(False, "not yet: reread the choices")


def _normal(value: Any) -> Any:
    # Accept "_translate_messages" for "translate_messages", any case, extra spaces.
    return value.strip().lower().lstrip("_") if isinstance(value, str) else value


def hint(key: Any) -> str:
    """An opt-in hint for a question (1, 2, 3) or an exercise name."""
    return QUESTIONS[key]["hint"] if key in QUESTIONS else exercises()[key]["hint"]


def solution(key: Any) -> str:
    """The worked solution, read from the package's solutions file only when asked."""
    value = _load("solutions.json")[f"question_{key}" if key in QUESTIONS else key]
    return as_json(value)
