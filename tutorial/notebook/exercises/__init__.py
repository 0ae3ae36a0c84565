"""Exercises a learner answers in a chapter, each with a verdict.

A chapter asks, the learner edits one line, and `check` answers in one line:

    my_answer = ...  # edit this line
    check("02.roles", my_answer)

gives "… not answered yet", "✗ not yet: <where it differs, or why that choice is tempting>",
or "✓ right: <the explanation>". The right answer is computed from the package whenever it
can be (`translate(...)` of the exercise's request), so an exercise cannot drift from the
code, and it is never printed by a wrong answer's verdict. Answers may be given by
reference (`body["messages"][0]["content"][0]["text"]`): the check sees the value.

Exercises live in one module per chapter (`ch02.py` holds the keys "02.…"), loaded on the
first check. In a notebook every exercise cell has the cell tag `exercise` and the key in
its metadata (`"exercise": "02.roles"`); a cell tagged `solution` calls `reveal(key)`.
`tests/test_exercises.py` runs every chapter with the right answer put in each exercise
cell, then with a wrong one, and requires every verdict to be ✓, then ✗.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Optional

from ...watch import language
from ...watch.jsondiff import differences


@dataclass(frozen=True)
class Verdict:
    """What a check found; shown in a notebook as its one line."""

    state: str  # "right", "wrong" or "unanswered"
    message: str

    @property
    def ok(self) -> bool:
        return self.state == "right"

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return {"right": "✓ ", "wrong": "✗ ", "unanswered": "… "}[self.state] + self.message


@dataclass(frozen=True)
class Exercise:
    key: str  # "<chapter>.<name>", e.g. "02.roles"
    question: str
    expected: Callable[[], Any]  # the right answer, computed when checked
    wrong: Any  # a tempting wrong answer (a real misconception): the proof's ✗ case
    hint: str  # shown with ✗, after the place where the answer differs
    explanation: str  # shown with ✓
    choices: dict[str, str] = field(default_factory=dict)  # letter -> option, for multiple choice
    feedback: dict[str, str] = field(default_factory=dict)  # letter -> why that option is tempting but wrong
    same: Optional[Callable[[Any, Any], bool]] = None  # equivalent answers; default: normalised equality
    form: str = ""  # the shape of an answer, said when none is given
    zh: dict = field(default_factory=dict)  # the same texts in Chinese: question, hint, explanation, form, choices, feedback

    def text(self, name: str, lang: Optional[str] = None):
        """A text of this exercise in `lang` (the current language by default), falling
        back to English where no translation is given."""
        english = getattr(self, name)
        if language.resolve(lang) != "zh" or name not in self.zh:
            return english
        if isinstance(english, dict):  # choices and feedback: translated per letter
            return {letter: self.zh[name].get(letter, value) for letter, value in english.items()}
        return self.zh[name]


MESSAGES = {
    "en": {
        "unanswered": "not answered yet: replace ... with your answer{form}",
        "right": "right: {explanation}",
        "choice": "not yet: ({letter}) {feedback}",
        "unknown_choice": "not yet: answer with one of {letters}",
        "differs": "not yet: your answer differs at {place}. {hint}",
        "wrong": "not yet. {hint}",
        "hidden": "set show=True in this cell to see the answer",
        "answer": "answer: ",
        "length": "its length ({count} items; count again)",
        "top": "the top",
    },
    "zh": {
        "unanswered": "尚未作答：把 ... 换成你的答案{form}",
        "right": "正确：{explanation}",
        "choice": "还不对：（{letter}）{feedback}",
        "unknown_choice": "还不对：请从 {letters} 中选一个",
        "differs": "还不对：你的答案在 {place} 处不同。{hint}",
        "wrong": "还不对。{hint}",
        "hidden": "把本单元格中的 show 改为 True 即可查看答案",
        "answer": "答案：",
        "length": "长度（{count} 项，请再数一遍）",
        "top": "最外层",
    },
}

_BANK: dict[str, Exercise] = {}
_language: Optional[str] = None  # None: follow tutorial.language.current()


def set_language(lang: Optional[str]) -> None:
    """The language of verdicts ("en" or "zh", None for the current one); exercise texts
    follow where they are translated."""
    global _language
    _language = None if lang is None else language.resolve(lang)


def _lang() -> str:
    return language.resolve(_language)


def add(exercise: Exercise) -> Exercise:
    """Register an exercise (chapter modules call this at import)."""
    if exercise.key in _BANK:
        raise ValueError(f"exercise {exercise.key!r} is defined twice")
    _BANK[exercise.key] = exercise
    return exercise


def get(key: str) -> Exercise:
    if key not in _BANK:
        chapter = key.split(".", 1)[0]
        try:
            importlib.import_module(f"{__name__}.ch{chapter}")
        except ModuleNotFoundError:
            pass
    if key not in _BANK:
        raise KeyError(f"no exercise called {key!r}")
    return _BANK[key]


def all_exercises() -> dict[str, Exercise]:
    """Every exercise of every chapter, by key."""
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("ch"):
            importlib.import_module(f"{__name__}.{module.name}")
    return dict(sorted(_BANK.items()))


def ask(key: str) -> None:
    """Print the question (and the options of a multiple-choice one)."""
    exercise = get(key)
    print(exercise.text("question"))
    for letter, text in exercise.text("choices").items():
        print(f"  ({letter}) {text}")


def check(key: str, answer: Any) -> Verdict:
    """The verdict on `answer` to exercise `key`."""
    exercise, text = get(key), MESSAGES[_lang()]
    if answer is Ellipsis:
        form = f" ({exercise.text('form')})" if exercise.form else ""
        return Verdict("unanswered", text["unanswered"].format(form=form))
    expected = exercise.expected()
    if exercise.choices:
        letter = _normal(answer)
        if letter == _normal(expected):
            return Verdict("right", text["right"].format(explanation=exercise.text("explanation")))
        if letter not in exercise.choices:
            return Verdict("wrong", text["unknown_choice"].format(letters=", ".join(exercise.choices)))
        feedback = exercise.text("feedback").get(letter, exercise.text("hint"))
        return Verdict("wrong", text["choice"].format(letter=letter, feedback=feedback))
    if (exercise.same or _same)(answer, expected):
        return Verdict("right", text["right"].format(explanation=exercise.text("explanation")))
    place = first_difference(answer, expected)
    if place:
        return Verdict("wrong", text["differs"].format(place=place, hint=exercise.text("hint")))
    return Verdict("wrong", text["wrong"].format(hint=exercise.text("hint")))


class Shown(str):
    """Text that a notebook shows as it is, without quotes or escaped newlines."""

    def __repr__(self) -> str:
        return str(self)


def reveal(key: str, show: bool = False) -> str:
    """For a cell tagged `solution`: the right answer and why, only when asked."""
    text = MESSAGES[_lang()]
    if not show:
        return Shown(text["hidden"])
    exercise = get(key)
    expected = exercise.expected()
    if exercise.choices:
        expected = f"({expected}) {exercise.text('choices')[expected]}"
    shown = expected if isinstance(expected, str) else json.dumps(expected, ensure_ascii=False, indent=1)
    return Shown(f"{text['answer']}{shown}\n\n{exercise.text('explanation')}")


def first_difference(answer: Any, expected: Any) -> str:
    """The first place where the answer differs, as a path (`[3]["role"]`), without the value
    expected there; "" when the answer is not the same kind of value at all."""
    if type(answer) is not type(expected) or not isinstance(expected, (dict, list)):
        return ""
    text = MESSAGES[_lang()]
    if isinstance(expected, list) and len(answer) != len(expected):
        return text["length"].format(count=len(answer))
    found = differences(answer, expected)
    if not found:
        return ""
    return "".join(f"[{part}]" if isinstance(part, int) else f'["{part}"]' for part in found[0][0]) or text["top"]


def _normal(value: Any) -> Any:
    # "_translate_messages" for "translate_messages", any case, surrounding spaces and brackets.
    if isinstance(value, str):
        return value.strip().strip("()").strip().lower().lstrip("_")
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        return {_normal(k): _normal(v) for k, v in value.items()}
    return value


def _same(answer: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(answer, bool):
        return type(answer) is type(expected) and answer == expected
    if isinstance(expected, str) and isinstance(answer, str):
        return _normal(answer) == _normal(expected) if len(expected) < 40 else answer == expected
    if isinstance(expected, tuple):
        expected = list(expected)
    if isinstance(answer, tuple):
        answer = list(answer)
    if isinstance(expected, list) and isinstance(answer, list):
        return len(answer) == len(expected) and all(map(_same, answer, expected))
    if isinstance(expected, dict) and isinstance(answer, dict):
        return answer.keys() == expected.keys() and all(_same(answer[k], expected[k]) for k in expected)
    return type(answer) is type(expected) and answer == expected


def solutions(chapter: str) -> dict[str, dict[str, str]]:
    """Cell sources that answer a chapter's code exercises rightly and wrongly (for the proof
    and for instructors): key -> {"right": source, "wrong": source}. Value exercises need
    none: their right and wrong answers are `expected()` and `wrong`."""
    path = resources.files(__package__).joinpath("solutions", f"ch{chapter}.json")
    return json.loads(path.read_text("utf-8")) if path.is_file() else {}


__all__ = ["Exercise", "Verdict", "add", "all_exercises", "ask", "check", "get", "reveal", "set_language", "solutions"]
