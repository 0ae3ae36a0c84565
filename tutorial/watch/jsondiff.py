"""Where two JSON values differ: the one comparison that the conformance test, the
way-back diagrams and the notebooks share."""

from __future__ import annotations

from typing import Any


class _Absent(str):
    """Stands for a key that one side has and the other does not. A string, so that it
    can be shown as JSON like any other value."""

    def __repr__(self) -> str:
        return "(absent)"


ABSENT = _Absent("(absent)")


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
