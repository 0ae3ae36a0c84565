"""Where two JSON values differ: the one comparison that the conformance test, the
way-back diagrams and the notebooks share."""

from __future__ import annotations

from typing import Any

from ..words import current

# What ABSENT reads as, per language (tutorial.words picks which).
ABSENT_TEXT = {"en": "(absent)", "zh": "（没有这个键）"}


class _Absent(str):
    """Stands for a key that one side has and the other does not. A string, so that it
    can be shown as JSON like any other value; `shown` writes it in the reader's language."""

    def __repr__(self) -> str:
        return "(absent)"

    def text(self) -> str:
        """"(absent)" in English, "（没有这个键）" in Chinese: in the current language."""
        return ABSENT_TEXT[current()]


ABSENT = _Absent("(absent)")


def shown(value: Any) -> Any:
    """`value` with every ABSENT in it (at any depth) written in the current language, for display.

    `differences` always gives the one ABSENT object, so that code can test `value is ABSENT`
    in either language; a display shows what it found through `shown`. Under English the
    value comes back unchanged (the same object)."""
    if current() == "en":
        return value
    if value is ABSENT:
        return ABSENT.text()
    if isinstance(value, dict):
        return {key: shown(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(shown(item) for item in value)
    return value


def differences(left: Any, right: Any, location: tuple = ()) -> list[tuple[tuple, Any, Any]]:
    """Every place where two JSON values differ, as (location, left value, right value).

    Keys are visited in order of appearance (the left's first); a key on one side only
    gives ABSENT on the other; lists of different lengths are one difference; and values
    of different types differ even when Python calls them equal (1 and 1.0, 1 and True).
    """
    if isinstance(left, dict) and isinstance(right, dict):
        found = []
        for key in {**left, **right}:
            found += differences(left.get(key, ABSENT), right.get(key, ABSENT), location + (key,))
        return found
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        return [d for index, (a, b) in enumerate(zip(left, right)) for d in differences(a, b, location + (index,))]
    return [] if _same(left, right) else [(location, left, right)]


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    return a == b
