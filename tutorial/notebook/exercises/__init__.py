"""Exercises a learner answers in a chapter, each with a verdict.

Over 600 lines, kept as one idea that reads better whole: what an exercise is, how an answer is
checked, and how a wrong one is told where it parts from the right one.

A chapter asks, the learner edits one line, and `check` answers in one line:

    my_answer = ...  # edit this line
    check("02.count", my_answer)

gives "… not answered yet", "✗ not yet: <the hint that fits the mistake, or where it differs>",
or "✓ right: <the explanation>". The right answer is computed from the package whenever it
can be (`translate(...)` of the exercise's request), so an exercise cannot drift from the
code, and it is never printed by a wrong answer's verdict. Answers may be given by
reference (`body["messages"][0]["content"][0]["text"]`): the check sees the value.

Values are compared exactly, as JSON: the same types, the same characters ("\n" and letter
case count), dict keys in any order. Only names of functions and places may be spelt more
than one way, where an exercise says so (`same`). A wrong value is answered, in this order,
by the hint of the named mistake it makes (`Mistake`; what its hint says is right is checked
against the right answer first, `Mistake.right`), by a hint about its type ("an integer, not
a list"), by the form the answer should take when it has another (`Exercise.fits`), or by the
first place where it differs, found the way the exercise compares (a list whose order does
not matter is compared as a collection).

Exercises live in one module per chapter (`ch02.py` holds the keys "02.…"), loaded on the
first check. In a notebook every exercise cell has the cell tag `exercise` and the key in
its metadata (`"exercise": "02.count"`); a cell tagged `solution` calls `reveal(key)`.
`tests/test_exercises.py` proves every exercise: the right answer ✓ and every named mistake
✗ with its own hint, in both languages, and every chapter run with right and wrong answers.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import pprint
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Callable, Optional

from ...words import current
from .. import progress


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
class Mistake:
    """A common wrong answer with a hint of its own. `answer` is one example of it (the proof
    checks that it gets this hint); `matches`, when given, recognises every answer that makes
    the same mistake, otherwise an answer makes it when it equals `answer` exactly.

    `right` is what the hint says the answer has right ("The order is right", "Both messages
    are right"): each a key or a path of keys where the answer must agree with the right one,
    or a function (answer, right answer) -> bool. An answer that `matches` but does not have
    those parts right does not make this mistake, so a hint never praises what is wrong."""

    answer: Any
    hint: str
    zh: str  # the hint in Chinese
    matches: Optional[Callable[[Any], bool]] = None
    right: tuple = ()

    def made_by(self, answer: Any, expected: Any = None, spelling: Optional[Callable[[Any], Any]] = None) -> bool:
        """Whether `answer` makes this mistake; with `expected` (the right answer), also
        whether what the hint says is right is right."""
        try:
            made = bool(self.matches(answer)) if self.matches else same_json(answer, self.answer)
            return made and (expected is None or self.holds(answer, expected, spelling))
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            return False  # an answer of another shape does not make this mistake

    def holds(self, answer: Any, expected: Any, spelling: Optional[Callable[[Any], Any]] = None) -> bool:
        """Whether every part the hint calls right agrees with the right answer."""
        for claim in self.right:
            if callable(claim):
                if not claim(answer, expected):
                    return False
                continue
            path = claim if isinstance(claim, tuple) else (claim,)
            if not same_json(_spelt(_at(answer, path), spelling), _spelt(_at(expected, path), spelling)):
                return False
        return True

    def text(self) -> str:
        """The mistake's hint in the current language."""
        return self.zh if current() == "zh" else self.hint


@dataclass(frozen=True)
class Exercise:
    key: str  # "<chapter>.<name>", e.g. "02.count"
    question: str
    expected: Callable[[], Any]  # the right answer, computed when checked
    hint: str  # shown with ✗ when no named mistake fits, after the place where the answer differs
    explanation: str  # shown with ✓
    mistakes: tuple[Mistake, ...] = ()  # value exercises: common wrong answers, each with its own hint
    wrong: Any = None  # the proof's ✗ case in a chapter run; default: the first mistake's answer
    choices: dict[str, str] = field(default_factory=dict)  # letter -> option, for multiple choice
    feedback: dict[str, str] = field(default_factory=dict)  # letter -> the misconception behind that option
    spelling: Optional[Callable[[Any], Any]] = None  # names and places spelt several ways: each leaf -> one spelling
    same: Optional[Callable[[Any, Any], bool]] = None  # a whole answer judged otherwise (chapter 05's functions)
    any_order: bool = False  # a list whose order does not matter (compared as a collection)
    code: bool = False  # the answer is a function written in the cell (chapter 05)
    form: str = ""  # the shape of an answer, said when none is given
    # Whether an answer is written in the form asked (a file name; for a collection, whether an
    # item is: a place); one that is not is told the form. Place exercises: whether `place` reads it.
    fits: Optional[Callable[[Any], bool]] = None
    # A place written as the learner likes (`messages[2].content`, a JSON pointer, a tuple) ->
    # its steps, each with the learner's own text up to it; None when the answer is no place.
    # A wrong place is then answered with the first step where it parts from the right one.
    place: Optional[Callable[[Any], Optional[list[tuple[Any, str]]]]] = None
    zh: dict = field(default_factory=dict)  # the same texts in Chinese: question, hint, explanation, form, choices, feedback

    def __post_init__(self) -> None:
        if self.wrong is None and self.mistakes:
            object.__setattr__(self, "wrong", self.mistakes[0].answer)

    def text(self, name: str):
        """A text of this exercise in the current language, falling back to English where no
        translation is given."""
        english = getattr(self, name)
        if current() != "zh" or name not in self.zh:
            return english
        if isinstance(english, dict):  # choices and feedback: translated per letter
            return {letter: self.zh[name].get(letter, value) for letter, value in english.items()}
        return self.zh[name]

    def mistake_made(self, answer: Any) -> Optional[Mistake]:
        """The first named mistake `answer` makes, its hint's claims checked; None when none."""
        expected = self.expected()
        return next((mistake for mistake in self.mistakes if mistake.made_by(answer, expected, self.spelling)), None)

    def written_as_asked(self, answer: Any) -> bool:
        """Whether `answer` has the form the exercise asks for (True when it says none)."""
        try:
            if self.fits is not None:
                return bool(self.fits(answer))
            return self.place is None or self.place(answer) is not None
        except (KeyError, IndexError, TypeError, AttributeError, ValueError):
            return False

    def is_right(self, answer: Any) -> bool:
        expected = self.expected()
        if self.same is not None:
            return bool(self.same(answer, expected))
        if self.any_order:
            return _as_collection(answer, self.spelling) == _as_collection(expected, self.spelling)
        return _first_place(answer, expected, self.spelling) is None


MESSAGES = {
    "en": {
        "unanswered": "not answered yet: replace ... with your answer{form}",
        "form": " ({form})",
        "right": "right: {explanation}",
        "option": "({letter}) {text}",
        "choice": "not yet: ({letter}) {feedback}",
        "unknown_choice": "not yet: answer with one of the letters {letters}, as a string such as \"a\"",
        "letters": ", ",
        "mistake": "not yet. {hint}",
        "type": "not yet: answer with {kind}, not {given}. {hint}",
        "type_form": " ({form})",
        "form_wanted": "not yet: answer with {form}. {hint}",
        "differs": "not yet: your answer differs at {place}{detail}. {hint}",
        "where": "{place}",
        "key_there": "{place}",
        "item_there": "{place} (item {number})",
        "collection": "not yet: {sentence}. {hint}",
        "wrong": "not yet. {hint}",
        "hidden": "set show=True in this cell to see the answer",
        "answer": "answer: ",
        "top": "the top",
        "at_top": "the top",
        "kinds": {
            "bool": "True or False (a bool)",
            "int": "an integer, such as {example}",  # zh review 5, finding 1: never the answer (kind_text)
            "str": "a string (in quotes)",
            "list": "a list [...]",
            "dict": "a dict {...}",
            "none": "a Python value",
        },
        # What was given instead, when it is another kind of value.
        "given": {
            "bool": "True or False",
            "int": "an integer",
            "float": "a number with a decimal point",
            "str": "text",
            "list": "a list",
            "dict": "a dict",
            "none": "None",
            "other": "a value of another kind",
        },
        "value": "",
        "missing_key": " (the key {keys} is missing there)",  # zh review 4, finding 24: the key named
        "missing_keys": " (the keys {keys} are missing there)",
        "key_joiner": ", ",
        "key_last": " and ",
        "extra_key": " (a key that does not belong there)",
        "count": " ({count} items; count again)",
        "count_one": " ({count} item; count again)",
        "place_differs": "not yet: your place first parts from the right one at {written}. {hint}",
        "place_short": "not yet: your place {written} stops short: the right one goes deeper. {hint}",
        "place_long": "not yet: your place goes on past the right one after {written}. {hint}",
        "close": " (only letter case or spaces and newlines differ there, and those differences count too: the course compares exact characters)",
        "kind_there": " (a different kind of value)",
        "extra_item": "{item} is not one of them",
        "item_form": "{item} is not written in the form asked, {form}",
        "missing_item": "one is missing",
        "close_item": "{item} differs from a right one only in letter case or spaces and newlines, and those differences count too: the course compares exact characters",
        "twice": "{item} is there more than once",
    },
    "zh": {
        "unanswered": "尚未作答：把 ... 换成你的答案{form}。",
        "form": "（{form}）",
        "right": "正确：{explanation}",
        "option": "（{letter}）{text}",
        "choice": "还不对，你选的是（{letter}）。{feedback}",
        "unknown_choice": "还不对：请从 {letters} 中选一个字母，写成字符串作答，例如 \"a\"。",
        "letters": "、",
        "mistake": "还不对。{hint}",
        "type": "还不对：答案应当是{kind}，而你给的是{given}。{hint}",
        "type_form": "（{form}）",
        "form_wanted": "还不对：请按这个形式作答：{form}。{hint}",
        "differs": "还不对：答案{place}{detail}。{hint}",
        "where": "在 {place} 处",
        "key_there": "中 {key} 这一项",
        "item_there": "的第 {number} 项",
        "collection": "还不对：{sentence}。{hint}",
        "wrong": "还不对。{hint}",
        "hidden": "把本单元格中的 show 改为 True，即可查看答案。",
        "answer": "答案：",
        "top": "最外层",
        "at_top": "",
        "kinds": {
            "bool": "布尔值 True 或 False",
            "int": "一个整数，例如 {example}",
            "str": "一个字符串（带引号）",
            "list": "一个列表 [...]",
            "dict": "一个字典 {...}",
            "none": "一个 Python 值",
        },
        "given": {
            "bool": "布尔值",
            "int": "整数",
            "float": "带小数点的数",
            "str": "文本",
            "list": "列表",
            "dict": "字典",
            "none": "None",
            "other": "另一种类型的值",
        },
        "value": "不对",
        "missing_key": "缺了 {keys} 这个键",
        "missing_keys": "缺了 {keys} 这几个键",
        "key_joiner": "、",
        "key_last": "、",
        "extra_key": "是一个不该有的键",
        "count": "的项数不对，你写了 {count} 项，请再数一遍",
        "count_one": "的项数不对，你写了 {count} 项，请再数一遍",
        "place_differs": "还不对：你写的位置从 {written} 起与正确的位置不同。{hint}",
        "place_short": "还不对：你写的位置 {written} 停得太早，正确的位置还要更深。{hint}",
        "place_long": "还不对：你写的位置在 {written} 之后还多出几层，超过了正确的位置。{hint}",
        "close": "只差字母大小写或空格、换行，但本课程逐字符比较，大小写、空格、换行不同也算答错",
        "kind_there": "的值类型不对",
        "extra_item": "{item} 不是正确答案中的一项",
        "item_form": "{item} 的写法不对，应当是{form}",
        "missing_item": "还少一项",
        "close_item": "{item} 和某个正确项只差字母大小写或空格、换行，但本课程逐字符比较，大小写、空格、换行不同也算答错",
        "twice": "{item} 写了不止一次",
    },
}

_BANK: dict[str, Exercise] = {}


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
        raise NoExercise(key)
    return _BANK[key]


NO_EXERCISE = {
    "en": {
        "closest": "no exercise called {key!r}; did you mean {closest!r}?",
        "chapter": "no exercise called {key!r}; chapter {chapter}'s exercises are {keys}",
        "none": "no exercise called {key!r}; a key is written 'chapter.name', such as '02.count', "
        "and the chapters with exercises are {chapters}",
        "and": ", ",
    },
    "zh": {
        "closest": "没有名为 {key!r} 的练习，是不是想写 {closest!r}？",
        "chapter": "没有名为 {key!r} 的练习，第 {chapter} 章的练习有 {keys}",
        "none": "没有名为 {key!r} 的练习，练习的键写作“章号.名字”，例如 '02.count'，有练习的章是 {chapters}",
        "and": "、",
    },
}


class NoExercise(KeyError):
    """An exercise key no chapter has, said in the current language with the key meant (or the
    chapter's keys): a KeyError, as a lookup by key raises; its str is the sentence."""

    def __init__(self, key: Any):
        super().__init__(key)
        self.key = key

    def _render_traceback_(self) -> list[str]:  # IPython shows this one line, not a traceback, for a typo
        return [f"{type(self).__name__}: {self}"]

    def __str__(self) -> str:
        import difflib

        words = NO_EXERCISE[current()]
        keys = sorted(all_exercises())
        key = str(self.key)
        closest = difflib.get_close_matches(key, keys, n=1, cutoff=0.8)
        if closest:
            return words["closest"].format(key=self.key, closest=closest[0])
        chapter = key.split(".", 1)[0]
        mine = [repr(k) for k in keys if k.split(".", 1)[0] == chapter]
        if mine:
            return words["chapter"].format(key=self.key, chapter=chapter, keys=words["and"].join(mine))
        chapters = sorted({k.split(".", 1)[0] for k in keys})
        return words["none"].format(key=self.key, chapters=words["and"].join(chapters))


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
    option = MESSAGES[current()]["option"]
    for letter, text in sorted(exercise.text("choices").items()):
        print("  " + option.format(letter=letter, text=text))


def check(key: str, answer: Any) -> Verdict:
    """The verdict on `answer` to exercise `key` (on a class hub also sent to the instructor's
    page: tutorial/notebook/progress.py; elsewhere nothing is recorded or sent)."""
    verdict = _verdict(key, answer)
    mistake = None
    if verdict.state == "wrong" and progress.destination() is not None:  # only a hub wants it
        try:
            mistake = named_mistake(key, answer)
        except Exception:  # noqa: BLE001 - a learner's cell never fails for the instructor's page
            mistake = None
    progress.record(key, answer, verdict, mistake=mistake)
    return verdict


def named_mistake(exercise: str, answer: Any) -> Optional[str]:
    """Which common wrong answer this is: "mistake N: <its hint's opening words>" for an
    exercise's named mistakes, "chose (x)" for a multiple-choice one; None when none fits."""
    found = get(exercise)
    if found.choices:
        letter = letter_of(answer)
        return f"chose ({letter})" if letter in found.choices else "not one of the letters"
    mistake = found.mistake_made(answer)
    if mistake is not None:
        number = found.mistakes.index(mistake) + 1
        opening = mistake.hint.split(". ")[0]
        return f"mistake {number}: {opening[:80]}"
    return None


def _verdict(key: str, answer: Any) -> Verdict:
    exercise, text = get(key), MESSAGES[current()]
    if answer is Ellipsis:
        form = text["form"].format(form=exercise.text("form")) if exercise.form else ""
        return Verdict("unanswered", text["unanswered"].format(form=form))
    right = Verdict("right", text["right"].format(explanation=exercise.text("explanation")))
    if exercise.choices:
        letter = letter_of(answer)
        if letter == exercise.expected():
            return right
        if letter not in exercise.choices:
            return Verdict("wrong", text["unknown_choice"].format(letters=text["letters"].join(sorted(exercise.choices))))
        return Verdict("wrong", text["choice"].format(letter=letter, feedback=exercise.text("feedback")[letter]))
    if exercise.is_right(answer):
        return right
    mistake = exercise.mistake_made(answer)
    if mistake is not None:
        return Verdict("wrong", text["mistake"].format(hint=mistake.text()))
    hint = exercise.text("hint")
    if exercise.code:
        return Verdict("wrong", text["wrong"].format(hint=hint))
    expected = exercise.expected()
    steps = exercise.place(answer) if exercise.place else None
    if steps is not None:
        return Verdict("wrong", _place_verdict(steps, exercise.place(expected) or [], answer, text).replace("{hint}", hint))
    # A collection's spelling is its items' (04.losses: each item a place), not the whole answer's.
    slip = _type_slip(answer if exercise.any_order else _spelt(answer, exercise.spelling), expected)
    if slip:
        form = exercise.text("form") if exercise.form and slip in ("str", "list", "dict") else ""
        given = text["given"].get(_given_kind(answer), text["given"]["other"])
        # the form, when there is one, says the kind already ("a dict {'chat_template': <count>, ...}")
        return Verdict("wrong", text["type"].format(kind=form or kind_text(text, slip, expected), given=given, hint=hint))
    if exercise.any_order and isinstance(answer, (list, tuple, set)):
        odd = [item for item in answer if not exercise.written_as_asked(item)]
        if odd:
            sentence = text["item_form"].format(item=python_literal(odd[0]), form=exercise.text("form"))
            return Verdict("wrong", text["collection"].format(sentence=sentence, hint=hint))
    elif not exercise.written_as_asked(answer):
        return Verdict("wrong", text["form_wanted"].format(form=exercise.text("form"), hint=hint))
    if exercise.any_order:
        where = _collection_difference(answer, expected, exercise.spelling)
        if where:
            return Verdict("wrong", text["collection"].format(sentence=where, hint=hint))
    found = _first_place(answer, expected, exercise.spelling) if _has_places(answer, expected) else None
    if found:
        place, detail = _said(answer, *found, expected=expected)
        where = _where(found[0], place, text) if found[0] else text["at_top"]
        return Verdict("wrong", text["differs"].format(place=where, detail=detail, hint=hint))
    return Verdict("wrong", text["wrong"].format(hint=hint))


def _where(location: tuple, place: str, text: dict) -> str:
    """A place one step into the answer in human terms: the key by its name, an item by its
    number counted from 1 (a learner reads "[1]" as the first); deeper places as a path."""
    if len(location) == 1 and isinstance(location[0], int):
        return text["item_there"].format(place=place, number=location[0] + 1)
    if len(location) == 1 and isinstance(location[0], str):
        return text["key_there"].format(place=place, key=python_literal(location[0]))
    return text["where"].format(place=place)


def _place_verdict(steps: list[tuple[Any, str]], right: list[tuple[Any, str]], answer: Any, text: dict) -> str:
    """Where a wrong place parts from the right one, written as the learner wrote it; a
    template still holding {hint}."""
    for index, (step, written) in enumerate(steps):
        if index >= len(right):
            return text["place_long"].replace("{written}", steps[index - 1][1] if index else written)
        if step != right[index][0]:
            return text["place_differs"].replace("{written}", written)
    return text["place_short"].replace("{written}", steps[-1][1] if steps else python_literal(answer))


class Shown(str):
    """Text that a notebook shows as it is, without quotes or escaped newlines."""

    def __repr__(self) -> str:
        return str(self)


def python_literal(value: Any) -> str:
    """`value` as Python source a learner can type back (True, None, 'text'), not as JSON."""
    return pprint.pformat(value, width=100, sort_dicts=False)


def reveal(key: str, show: bool = False) -> str:
    """For a cell tagged `solution`: the right answer and why, only when asked."""
    text = MESSAGES[current()]
    if not show:
        return Shown(text["hidden"])
    exercise = get(key)
    expected = exercise.expected()
    if exercise.choices:
        option = text["option"].format(letter=expected, text=exercise.text("choices")[expected])
        shown = f"{expected!r}\n{option}"
    elif exercise.code:
        shown = "\n" + expected
    else:
        shown = python_literal(expected)
    return Shown(f"{text['answer']}{shown}\n\n{exercise.text('explanation')}")


# --- comparing --------------------------------------------------------------------------


def same_json(answer: Any, expected: Any) -> bool:
    """Equal as JSON values: the same types (True is not 1, 1 is not 1.0), the same characters,
    dict keys in any order; a tuple counts as a list."""
    if isinstance(expected, tuple):
        expected = list(expected)
    if isinstance(answer, tuple):
        answer = list(answer)
    if type(answer) is not type(expected):
        return False
    if isinstance(expected, dict):
        return answer.keys() == expected.keys() and all(same_json(answer[k], expected[k]) for k in expected)
    if isinstance(expected, list):
        return len(answer) == len(expected) and all(map(same_json, answer, expected))
    return answer == expected


def _kind(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def in_another_order(answer: Any, expected: Any) -> bool:
    """A hint's claim "every item is right, only the order is not": the answer holds the
    right answer's items, each as often."""
    return _as_collection(answer, None) == _as_collection(expected, None)


def _given_kind(value: Any) -> str:
    """The kind of value a learner gave, as the verdicts name it ("float" apart from "int")."""
    return "float" if isinstance(value, float) else _kind(value)


def kind_text(text: dict, kind: str, expected: Any) -> str:
    """The words for the kind of value wanted; an integer's example is never the answer
    (zh review 5, finding 1: "such as 3" handed 08.split's answer to whoever typed 三)."""
    example = 42 if expected != 42 else 24
    words = text["kinds"][kind]
    return words.format(example=example) if kind == "int" else words


def _type_slip(answer: Any, expected: Any) -> str:
    """The kind of value the answer should have been, when it is another kind altogether."""
    wanted = _kind(expected)
    if wanted in ("bool", "int", "str", "list", "dict") and _kind(answer) != wanted:
        return wanted
    return ""


def _close(answer: Any, expected: Any) -> bool:
    return isinstance(answer, str) and isinstance(expected, str) and answer.strip().casefold() == expected.strip().casefold()


def _first_place(answer: Any, expected: Any, spelling: Optional[Callable[[Any], Any]], at: tuple = ()) -> Optional[tuple]:
    """(location, why) of the first place where the answer differs, walking the expected value
    in its own order; None where they agree."""
    if isinstance(expected, tuple):
        expected = list(expected)
    if isinstance(expected, dict):
        if not isinstance(answer, dict):
            return at, "kind"
        for key in expected:
            if key not in answer:
                return at, "missing_key"
        for key in answer:
            if key not in expected:
                return at + (key,), "extra_key"
        for key in expected:
            found = _first_place(answer[key], expected[key], spelling, at + (key,))
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(answer, (list, tuple)):
            return at, "kind"
        for index, (mine, theirs) in enumerate(zip(answer, expected)):
            found = _first_place(mine, theirs, spelling, at + (index,))
            if found:
                return found
        return None if len(answer) == len(expected) else (at, "count")
    if same_json(_spelt(answer, spelling), _spelt(expected, spelling)):
        return None
    if _close(answer, expected):
        return at, "close"
    return at, "kind" if _kind(answer) != _kind(expected) else "value"


def _has_places(answer: Any, expected: Any) -> bool:
    """Whether a wrong answer has a place worth naming: inside a list or a dict, or a string
    that differs from the right one only in letter case or spaces."""
    return isinstance(expected, (dict, list, tuple)) or _close(answer, expected)


def _said(answer: Any, location: tuple, why: str, expected: Any = None) -> tuple[str, str]:
    """A place as a path (`[3]["role"]`) and a short note on how it differs there, in the
    verdicts' language, without the value expected there (a missing key is named: the
    question asks for it)."""
    text = MESSAGES[current()]
    place = "".join(f"[{part}]" if isinstance(part, int) else f'["{part}"]' for part in location)
    if why == "missing_key" and expected is not None:
        mine, theirs = _at(answer, location), _at(expected, location)
        keys = [repr(key) for key in theirs if key not in mine]
        if keys:
            named = text["key_joiner"].join(keys[:-1]) + text["key_last"] + keys[-1] if len(keys) > 1 else keys[0]
            return place, text["missing_keys" if len(keys) > 1 else "missing_key"].format(keys=named)
    if why == "count":
        count = len(_at(answer, location))
        return place, text["count_one" if count == 1 else "count"].format(count=count)
    detail = {"missing_key": "missing_key", "extra_key": "extra_key", "close": "close", "kind": "kind_there"}
    return place, text[detail.get(why, "value")]


def first_difference(answer: Any, expected: Any, spelling: Optional[Callable[[Any], Any]] = None) -> tuple[str, str]:
    """The first place where the answer differs, as a path (`[3]["role"]`, or the top) and a
    short note on how, without the value expected there; ("", "") when there is no place to name."""
    if not _has_places(answer, expected):
        return "", ""
    found = _first_place(answer, expected, spelling)
    if not found:
        return "", ""
    place, detail = _said(answer, *found, expected=expected)
    return place or MESSAGES[current()]["top"], detail


def _at(value: Any, location: tuple) -> Any:
    for part in location:
        value = value[part]
    return value


def _as_collection(value: Any, spelling: Optional[Callable[[Any], Any]]) -> Any:
    """A list as a sorted collection of its items' JSON texts (None when it is no list)."""
    if not isinstance(value, (list, tuple, set)):
        return None
    return sorted(_item_key(item, spelling) for item in value)


def _spelt(value: Any, spelling: Optional[Callable[[Any], Any]]) -> Any:
    return spelling(value) if spelling else value


def _item_key(item: Any, spelling: Optional[Callable[[Any], Any]]) -> str:
    return json.dumps(_spelt(item, spelling), ensure_ascii=False, sort_keys=True, default=repr)


def _collection_difference(answer: Any, expected: Any, spelling: Optional[Callable[[Any], Any]]) -> str:
    """How a list whose order does not matter differs: an item too many, a repeated one, one missing."""
    text = MESSAGES[current()]
    if not isinstance(answer, (list, tuple, set)):
        return ""
    wanted = {_item_key(item, spelling) for item in expected}
    seen: set[str] = set()
    for item in answer:
        key = _item_key(item, spelling)
        if key not in wanted:
            if any(_close(_spelt(item, spelling), _spelt(other, spelling)) for other in expected):
                return text["close_item"].format(item=python_literal(item))
            return text["extra_item"].format(item=python_literal(item))
        if key in seen:
            return text["twice"].format(item=python_literal(item))
        seen.add(key)
    return text["missing_item"] if seen != wanted else ""


# Letters typed with an input method: full-width letters become ASCII (NFKC), and brackets,
# quotes and punctuation around the letter are dropped: "（c）", "ｃ", "c。" and " C. " are "c".
_AROUND_A_LETTER = " \t\r\n()[]{}<>'\"`“”‘’「」『』【】〔〕《》〈〉.,;:!?。，、；：！？·…-_"


def letter_of(answer: Any) -> Optional[str]:
    """The letter an answer to a multiple-choice question names, or None."""
    if not isinstance(answer, str):
        return None
    letter = unicodedata.normalize("NFKC", answer).strip(_AROUND_A_LETTER).lower()
    return letter if len(letter) == 1 else None


def solutions(chapter: str) -> dict[str, dict[str, str]]:
    """Cell sources that answer a chapter's code exercises rightly and wrongly (for the proof
    and for instructors): key -> {"right": source, "wrong": source}. Value exercises need
    none: their right and wrong answers are `expected()` and `wrong`."""
    path = resources.files(__package__).joinpath("solutions", f"ch{chapter}.json")
    return json.loads(path.read_text("utf-8")) if path.is_file() else {}


from .understanding import recall  # noqa: E402  (it uses Shown and the language defined above)

__all__ = [
    "Exercise",
    "Mistake",
    "NoExercise",
    "Verdict",
    "add",
    "all_exercises",
    "ask",
    "check",
    "get",
    "in_another_order",
    "letter_of",
    "recall",
    "reveal",
    "solutions",
]
