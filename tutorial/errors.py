"""`RequestError`: bad input, reported at the place in the body where it is wrong."""

from __future__ import annotations

import json
from typing import Callable, Union

Location = tuple[Union[str, int], ...]


def format_location(location: Location) -> str:
    """("messages", 2, "content", 0, "tool_use_id") -> "messages[2].content[0].tool_use_id".

    The empty location is the body itself, written "body". A key with a line break in it,
    or one no UTF-8 text can carry (a lone surrogate), is written as a JSON string in
    brackets (`["a\\nb"]`, `["\\ud800"]`), so an error stays one line a console can print.
    """
    text = ""
    for part in location:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        elif isinstance(part, str) and not _plain_key(part):
            text += f"[{json.dumps(part)}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "body"


def _plain_key(key: str) -> bool:
    """Whether `key` can be written as it is: one line, and text UTF-8 can carry."""
    if "".join(key.splitlines()) != key:
        return False
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class RequestError(ValueError):
    """A request the translation cannot take, with the place that is wrong.

    `str(error)` starts with the location ("messages[2].content[0].tool_use_id: ...");
    `error.location` holds the same place as a tuple, and `error.problem` what is wrong
    there, in English, for programs.

    The lesson writes English. `wording` says a problem in the reader's language when
    `str(error)` is asked for: the apparatus (`tutorial.watch.error_words`) sets it, so a
    Chinese chapter prints `messages[0].content[0].tool_use_id: 是必填项（…）`; the
    location stays as it is, since it names JSON.
    """

    wording: Callable[[str], str] = staticmethod(lambda problem: problem)

    def __init__(self, location: Location, problem: str):
        self.location = tuple(location)
        self.problem = problem
        super().__init__(f"{format_location(self.location)}: {problem}")

    def __str__(self) -> str:
        return f"{format_location(self.location)}: {RequestError.wording(self.problem)}"
