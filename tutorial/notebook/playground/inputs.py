"""What the reader gives the playground, turned into a body — or into one located line.

    parse(text)           json.loads, but text nested deeper than MAX_DEPTH, a number Python
                          will not read, anything else: a ValueError whose message starts with
                          "line L, column C: "; a bracket never closed is named with the line
                          and column where it was opened (not json's "Expecting ',' delimiter"),
                          a full-width “ ， ： by its own line and column (`words.full_width`)
    value_problem(value)  why a Python value cannot be a request's JSON text, starting with the
                          place ("messages[0].content: a value of type set is not JSON ..."; in
                          Chinese the place and a comma, `tutorial.words.located`), or None
    describe_error(error) one line for the error box, for any exception

Everything here walks with its own stack, never by recursion, so no input is too deep to check.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Optional

from ... import limits
from ...errors import RequestError
from ...limits import check_json
from ...words import brackets, full_width, located
from .labels import json_message, worded

MAX_DEPTH = limits.MAX_DEPTH
"""How deep request text or a value may nest (the body itself is level 1): the package's own
limit, checked here before json.loads so that text nested too deep for Python's reader gets
its line and column too."""


class Located(ValueError):
    """A problem found here, already worded with its place."""


def describe_error(error: Exception) -> str:
    """One line for the error box, starting with the place that is wrong (in the current language)."""
    if isinstance(error, json.JSONDecodeError):
        if not error.doc.strip(" \t\r\n"):  # nothing typed yet: say so, not "Expecting value"
            return worded("json_empty")
        typed = full_width.json_hint(error)  # “role”: the full-width character, its place, the ASCII one
        if typed is not None:
            return typed
        unclosed = unclosed_bracket(error.doc, error.pos)
        if unclosed is not None:
            return brackets.located(error.lineno, error.colno, unclosed)
        comma = full_width.trailing_comma(error.doc, error.pos, clause=True)  # `5,}`: JavaScript and Python allow that comma
        return worded("json_error", line=error.lineno, column=error.colno, message=json_message(error.msg) + comma)
    if isinstance(error, RequestError):  # in Chinese the place and a comma, as the command line says it
        return located(error)
    if isinstance(error, Located):
        return str(error)
    return worded("stopped", kind=type(error).__name__, error=error)


# ---------------------------------------------------------------------------
# Text -> body, with every failure located


def parse(text: str) -> Any:
    """json.loads, with every failure a located `ValueError` (a JSONDecodeError or one worded
    here): nesting deeper than MAX_DEPTH, numbers Python will not read, anything else."""
    deep = limits.deep_bracket(text, MAX_DEPTH)
    if deep is not None:
        line, column = limits.line_column(text, deep)
        raise Located(worded("json_deep", line=line, column=column, limit=MAX_DEPTH))
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError, MemoryError) as error:
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
        number = limits.long_integer(text, limit) if limit else None
        if number is not None:
            line, column = limits.line_column(text, number[0])
            raise Located(worded("json_number", line=line, column=column, digits=number[1], limit=limit)) from None
        raise Located(worded("json_unreadable", line=1, column=1, message=f"{type(error).__name__}: {error}")) from None


def unclosed_bracket(text: str, position: int) -> Optional[str]:
    """What json's "Expecting ',' delimiter" means when a bracket is missing, or None: the
    words room's one diagnosis (`tutorial.words.brackets`), which the command line uses too."""
    return brackets.unclosed(text, position)


# ---------------------------------------------------------------------------
# A Python value -> text, or the place where it is not JSON


def value_problem(value: Any) -> Optional[str]:
    """Why `value` cannot be a request's JSON text, starting with the place (the lesson's own
    check, `tutorial.limits.check_json`, with the whole depth a body may have); None if it can."""
    try:
        check_json(value, max_depth=MAX_DEPTH)
    except RequestError as error:
        return located(error)
    return None


def shown_as_text(value: Any) -> str:
    """What the editor shows for a value that is not JSON: its repr, when it has one."""
    try:
        return repr(value)[:100_000]
    except Exception:  # a repr that fails, or one too deep to write
        return ""
