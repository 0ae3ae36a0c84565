"""`RequestError`: bad input, reported at the place in the body where it is wrong."""

from __future__ import annotations

import json
from typing import Union

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

    The lesson raises with its English template and the values apart:
    `RequestError(location, "must be {what}, got {got}", what="a string", got="int")`. The
    template is the error's `key` (the Chinese template in `tutorial/words/errors.py` has the
    same key), `values` its values; a value may itself be a RequestError (a problem inside a
    problem). `str(error)` gives the problem in the current language (`tutorial.use_language`),
    formatted forward from the key: a Chinese chapter prints
    `messages[0].content[0].tool_use_id: 是必填项（…）`. The location stays as it is: it names JSON.
    A reader meets it through `words.located(error)`, which in Chinese drops this colon: the place
    is the subject of a reason that opens with its predicate (「请求无效：messages[0].content[0].tool_use_id
    是必填项（…）」, the playground's error box the same without the frame), else a comma follows it.
    """

    def __init__(self, location: Location, template: "str | Problem", /, **values: object):
        if isinstance(template, Problem):
            template, values = template.key, template.values
        self.location = tuple(location)
        self.key = template
        self.values = values
        self.problem = english(template, values)
        super().__init__(f"{format_location(self.location)}: {self.problem}")

    def __str__(self) -> str:
        from . import words  # the words room, loaded only when an error is told

        return f"{format_location(self.location)}: {words.problem(self)}"

    @property
    def where(self) -> str:
        """The location as text: "messages[2].content[0].tool_use_id", "body" for the body itself."""
        return format_location(self.location)


class ArgumentError(ValueError):
    """A wrong argument from the caller's code (not bad input in a body): `translate(body,
    target="foo")`. Like a RequestError it keeps its English template (its `key`) and its
    values apart, so `str(error)` is said in the current language; it has no location."""

    def __init__(self, template: str, /, **values: object):
        self.key = template
        self.values = values
        self.problem = english(template, values)
        super().__init__(self.problem)

    def __str__(self) -> str:
        from . import words  # the words room, loaded only when an error is told

        return words.problem(self)


class Problem:
    """What is wrong, before it is placed: a template and its values, kept apart like a
    RequestError's, for a helper that works out the problem while its caller knows the place."""

    def __init__(self, key: str, /, **values: object):
        self.key = key
        self.values = values

    @property
    def problem(self) -> str:
        return english(self.key, self.values)


def english(key: str, values: dict) -> str:
    """The template filled with its values; a value that is itself a problem is said in English."""
    if not values:
        return key
    return key.format(**{name: _english(value) for name, value in values.items()})


def _english(value: object) -> object:
    if isinstance(value, tuple):  # alternatives: "a user message or a tool_result"
        return " or ".join(map(str, value))
    return getattr(value, "problem", value)
