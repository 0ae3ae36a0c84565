"""A bracket never closed in JSON text: found once, said the same way by the playground and the
command line (json itself says only "Expecting ',' delimiter").

    unclosed(text, position)   what json's complaint at `position` means when a bracket is
                               missing, in the current language, or None

Standard library only, like the rest of this room.
"""

from __future__ import annotations

from typing import Optional

TEXTS = {
    "object": {"en": "object", "zh": "对象"},
    "array": {"en": "list", "zh": "列表"},
    "ends_open": {
        "en": "the text ends before the {kind} that begins at line {line}, column {column} is closed: "
        "its '{missing}' is missing{still}",
        "zh": "文本已经结束，但从第 {line} 行第 {column} 列开始的{kind}还缺一个 {missing}{still}",
    },
    "still_open": {
        "en": " ({count} brackets are still open; this is the innermost)",
        "zh": "（共有 {count} 个括号没闭合，这是最内层的一个）",
    },
    "wrong_closer": {
        "en": "this '{found}' cannot close the {kind} that begins at line {line}, column {column}: "
        "a '{missing}' is missing before it",
        "zh": "这个“{found}”不能闭合从第 {line} 行第 {column} 列开始的{kind}，前面缺少“{missing}”",
    },
    # the place, then the problem: the playground's error box and the command line's JSON error
    "located": {"en": "line {line}, column {column}: {problem}", "zh": "第 {line} 行第 {column} 列，{problem}"},
}

_CLOSER = {"{": "}", "[": "]"}


def unclosed(text: str, position: int) -> Optional[str]:
    """What json's "Expecting ',' delimiter" at `position` means when a bracket is missing, or None.

    Two cases: the text ends (at `position`, spaces aside) while an object or a list is still
    open; or a closing bracket at `position` does not match the one opened last. Either way
    the answer names the bracket that is missing and where its object (or list) began."""
    if not isinstance(text, str) or not 0 <= position <= len(text):
        return None
    opened: list[int] = []  # positions of the brackets still open, outermost first
    in_string = escaped = False
    for index in range(position):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in _CLOSER:
            opened.append(index)
        elif char in "}]" and opened:
            if _CLOSER[text[opened[-1]]] != char:
                return None  # json reports a mismatch before reaching `position`; leave it its own words
            opened.pop()
    if in_string or not opened:
        return None
    from . import text as said  # the room's lookup (this module is one of its tables)

    begun = opened[-1]
    line = text.count("\n", 0, begun) + 1
    column = begun - (text.rfind("\n", 0, begun) + 1) + 1
    kind = said("brackets.object" if text[begun] == "{" else "brackets.array")
    missing = _CLOSER[text[begun]]
    if not text[position:].strip():
        still = said("brackets.still_open", count=len(opened)) if len(opened) > 1 else ""
        return said("brackets.ends_open", kind=kind, line=line, column=column, missing=missing, still=still)
    found = text[position]
    if found in "}]" and found != missing:
        return said("brackets.wrong_closer", found=found, kind=kind, line=line, column=column, missing=missing)
    return None


def located(line: int, column: int, problem: str) -> str:
    """`problem` after its place in the text: "line 4, column 1: …" / "第 4 行第 1 列，…"."""
    from . import text as said

    return said("brackets.located", line=line, column=column, problem=problem)
