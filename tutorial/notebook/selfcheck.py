"""Chapter 06's verdicts under their first names, on top of the exercise framework.

Chapter 06 asks its questions through `tutorial.notebook.exercises` (keys "06.…", defined in
`exercises/ch06.py`). This module keeps the older calls working and gives the same verdicts:

    predict("image", my_list)          is  check("06.image", my_list)
    answer(2, "d")                     is  check("06.why_split", "d")
    answer(1, {"messages": ..., "tools": ..., "why": ...})   checks 06.paths and 06.why_apart
    answer(3, {"receiver": ..., "http_request": ...})        checks 06.receiver and 06.http

A verdict is an `exercises.Verdict`: "✓ right: …", "✗ not yet: …" or "… not answered yet".
"""

from __future__ import annotations

from typing import Any

from ..words import current
from .exercises import Verdict, check, get, reveal
from .exercises.ch06 import REQUESTS, requests

# The one sentence this module writes itself, per language; the rest comes from the exercises.
TEXT = {
    "en": {"dict": "not yet: answer with a dict holding {fields}", "and": ", "},
    "zh": {"dict": "还不对：请用一个字典作答，它的键是 {fields}。", "and": "、"},
}


# The walk-through's three questions -> the exercises that ask them, with the key of the
# learner's dict that answers each one (None: the whole answer).
QUESTIONS: dict[int, tuple[tuple[str, Any], ...]] = {
    1: (("06.paths", ("messages", "tools")), ("06.why_apart", "why")),
    2: (("06.why_split", None),),
    3: (("06.receiver", "receiver"), ("06.http", "http_request")),
}


def exercises() -> dict[str, dict]:
    """Name -> {"title", "request"} for the four "predict the output" exercises (titles in the
    current language)."""
    return {name: {"title": get(f"06.{name}").text("question"), "request": body} for name, body in requests().items()}


def exercise_request(name: str) -> dict:
    return requests()[name]


def predict(name: str, prediction: Any) -> Verdict:
    """Your predicted `translated` list for one of the four requests, judged."""
    return check(f"06.{name}", prediction)


def answer(number: int, response: Any) -> Verdict:
    """A verdict on your answer to one of the walk-through's three questions, in the current
    language."""
    parts = QUESTIONS[number]
    if response is Ellipsis:
        return check(parts[0][0], ...)
    if len(parts) == 1:
        return check(parts[0][0], response)
    if not isinstance(response, dict):
        text = TEXT[current()]
        fields = text["and"].join(repr(k) for _, field in parts for k in (field if isinstance(field, tuple) else (field,)))
        return Verdict("wrong", text["dict"].format(fields=fields))
    for key, field in parts:
        value = {k: response.get(k) for k in field} if isinstance(field, tuple) else response.get(field)
        verdict = check(key, value)
        if not verdict.ok:
            return verdict
    return verdict


def hint(key: Any) -> str:
    """The hint of a question (1, 2, 3) or of an exercise name ("image"), in the current language."""
    keys = [k for k, _ in QUESTIONS[key]] if key in QUESTIONS else [f"06.{key}"]
    return "\n".join(get(k).text("hint") for k in keys)


def solution(key: Any) -> str:
    """The answer and why, read from the exercise bank only when asked."""
    keys = [k for k, _ in QUESTIONS[key]] if key in QUESTIONS else [f"06.{key}"]
    return "\n\n".join(reveal(k, show=True) for k in keys)


__all__ = ["QUESTIONS", "REQUESTS", "answer", "exercise_request", "exercises", "hint", "predict", "solution"]
