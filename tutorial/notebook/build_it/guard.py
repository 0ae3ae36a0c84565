"""Running a learner's code without letting it take the caller down.

`call(function, args, seconds)` runs it in a thread of its own and gives up after
`seconds` (an endless loop must not hang `grade` or the server: the thread is left
behind as a daemon, which the process does not wait for). `where(error)` names the line of
the learner's code an exception came from, so no traceback is ever needed.
"""

from __future__ import annotations

import sys
import threading
import traceback
from pathlib import Path
from typing import Any, Callable, Optional

from ...words import current

# The few words this module writes, per language: where in the learner's code, and a time-out.
WORDS = {
    "en": {
        "line": "line {line}",
        "file_line": "{file}, line {line}",
        "in": "{place}, in {function}",
        "located": " ({where})",
        "timed_out": "{name} did not finish within {seconds:g} s (an endless loop?)",
        "the_function": "the function",
    },
    "zh": {
        "line": "第 {line} 行",
        "file_line": "{file} 第 {line} 行",
        "in": "{place}，在 {function} 中",
        "located": "（{where}）",
        "timed_out": "{name} 在 {seconds:g} 秒内没有结束，可能陷入了死循环",
        "the_function": "这个函数",
    },
}

SECONDS = 5.0
"""How long one call of the learner's function on one input may run: `check_stage`,
`check_trajectory_stage` and `grade` (its --timeout's default) give up after it."""

_PACKAGE = Path(__file__).resolve().parents[2]  # tutorial/
_PYTHON = tuple({str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)})


class TimedOut(Exception):
    """The learner's function did not return within the time given."""

    def __init__(self, name: str, seconds: float):
        super().__init__(WORDS[current()]["timed_out"].format(name=name, seconds=seconds))
        self.name = name
        self.seconds = seconds


def call(function: Callable, args: tuple, seconds: Optional[float]) -> Any:
    """`function(*args)`, raising what it raises, or `TimedOut` after `seconds` (None: no limit)."""
    if seconds is None:
        return function(*args)
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = function(*args)
        except BaseException as error:  # noqa: BLE001 - carried back to the caller's thread
            box["error"] = error

    worker = threading.Thread(target=run, name="tutorial-learner-code", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise TimedOut(getattr(function, "__name__", None) or WORDS[current()]["the_function"], seconds)
    if "error" in box:
        raise box["error"]
    return box["value"]


def is_learner_frame(filename: str) -> bool:
    """Code the learner wrote: not this package's, not Python's own."""
    if filename.startswith("<frozen"):
        return False  # the import system
    try:
        path = Path(filename).resolve()
    except (OSError, ValueError):
        return True  # "<string>", a notebook cell: the learner's
    text = str(path)
    if path.is_relative_to(_PACKAGE):
        return False
    return not any(text.startswith(prefix + "/lib") or text.startswith(prefix + "\\Lib") for prefix in _PYTHON)


def frame(error: BaseException) -> Optional[tuple[str, int, str]]:
    """(file name, line, function) of the last line of the learner's code the error passed
    through; the file name is "" for a notebook cell; None when it passed through none."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if is_learner_frame(frame.filename)]
    if not frames:
        return None
    last = frames[-1]
    name = Path(last.filename).name if not last.filename.startswith("<") and not _is_cell(last.filename) else ""
    return name, last.lineno, last.name


def line_of(file: str, line: int) -> str:
    """"my_translator.py, line 12", or "line 12" in a notebook cell (file ""), in the current language."""
    words = WORDS[current()]
    return words["file_line"].format(file=file, line=line) if file else words["line"].format(line=line)


def where(error: BaseException) -> str:
    """"my_translator.py, line 12, in assistant_message" for the last line of the learner's
    code the error passed through, or "" when it passed through none."""
    found = frame(error)
    if not found:
        return ""
    file, line, function = found
    return WORDS[current()]["in"].format(place=line_of(file, line), function=function)


def _is_cell(filename: str) -> bool:
    """IPython runs a cell from a temporary file named after the cell (ipykernel_*/NNN.py)."""
    return "ipykernel_" in filename or filename.startswith("<ipython-input")


def describe(error: BaseException) -> str:
    """One line: the exception's type and message, and where in the learner's code."""
    if isinstance(error, TimedOut):
        return str(error)
    message = str(error).splitlines()[0] if str(error) else ""
    located = where(error)
    shown = WORDS[current()]["located"].format(where=located) if located else ""
    return f"{type(error).__name__}{': ' + message if message else ''}" + shown
