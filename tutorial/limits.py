"""The limits of a request, beyond its shape: plain JSON, not too deep, not too big.

The contract (`contract/`) spells out a request field by field, but it leaves some values
free: a tool call's `input`, a tool's `input_schema`, and every field it does not name
(`cache_control`, `citations`, `metadata`, the fields of a block type it does not know).
Every later step treats such a value as JSON — the "openai" target writes tool inputs as
JSON text, a chat template dumps them, the way back copies them — so each must really be
one, and small enough that those steps cannot run out of stack or time:

- plain JSON: objects with string keys, arrays, strings, finite numbers, true, false, null.
  Not a tuple, a set, bytes or any other Python object, and nothing that contains itself;
- at most MAX_DEPTH = 64 levels of objects and arrays in anything an entry point is given.
  The request's own shapes take up to 10 of them (body, messages, a message, its content, a
  tool_result, its content, a search_result, its content, a text block, a field), so a free
  value may nest FREE_DEPTH = 54 levels wherever it sits;
- integers of at most MAX_INT_DIGITS = 4300 digits: Python's own default for writing an
  integer as text (`json.dumps` cannot write a longer one, `json.loads` reads none);
- at most MAX_VALUES = 1,000,000 values in one free value, counted as its JSON text would
  write them (an object used in two places counts twice), so that no step takes forever;
- JSON text of at most MAX_TEXT_BYTES = 32 MB, the Messages API's own request limit
  (https://platform.claude.com/docs/en/api/errors, "Request size limits").

`check_json` enforces the first four on one value, iteratively (a walk that cannot itself
run out of stack), and raises a located `RequestError` at the first problem in document
order. The contract checks every free value while it checks a body (a shallow one within
pydantic-core, a deeper one with `check_json`), before anything recursive sees the body;
the way back and the renderer check what they are given. `read_json` turns JSON text into
a value with located errors for what Python's own reader cannot take.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Optional, Union

from .errors import Location, Problem, RequestError

MAX_DEPTH = 64
STRUCTURE_DEPTH = 10  # the deepest place the contract's own shapes put a free value
FREE_DEPTH = MAX_DEPTH - STRUCTURE_DEPTH
MAX_INT_DIGITS = 4300
MAX_VALUES = 1_000_000
MAX_TEXT_BYTES = 32 * 1024 * 1024

_INT_BOUND = 10**MAX_INT_DIGITS
_SCALARS = (str, bool, type(None))


def check_json(value: Any, location: Location = (), max_depth: int = FREE_DEPTH) -> None:
    """Raise `RequestError` unless `value` is plain JSON within the limits above.

    `location` is where `value` sits in what the caller was given; errors extend it. Depth
    counts objects and arrays: `{}` is 1 level, `{"a": [1]}` 2.
    """
    if not isinstance(value, (dict, list)):
        problem = _scalar_problem(value)
        if problem:
            raise RequestError(location, problem)
        return
    if max_depth < 1:
        raise RequestError(location, _too_deep(max_depth))
    # One entry per open container: (its remaining items, is it an object, its location, it).
    stack = [_open(value, location)]
    count = 0
    while stack:
        items, is_object, where, _container = stack[-1]
        for key, item in items:
            count += 1
            if is_object and not isinstance(key, str):
                raise RequestError(where, "has a key of type {got}: JSON object keys are strings", got=type(key).__name__)
            if type(item) is str:
                continue
            if count > MAX_VALUES:
                raise RequestError(where, "holds more than {n:,} values (counted as its JSON text would write them)", n=MAX_VALUES)
            if isinstance(item, (dict, list)):
                inner = where + (key,)
                if len(stack) >= max_depth:
                    raise RequestError(*_deep_or_cyclic(stack, item, inner, max_depth))
                stack.append(_open(item, inner))
                break  # go down first: problems are found in document order
            problem = _scalar_problem(item)
            if problem:
                raise RequestError(where + (key,), problem)
        else:
            stack.pop()


def check_fields(value: dict, location: Location, max_depth: int = FREE_DEPTH) -> None:
    """`check_json` for each field of an object whose shape is known only in part (a
    block): the keys are strings, and each field's value is one free value."""
    for key, field in value.items():
        if not isinstance(key, str):
            raise RequestError(location, "has a key of type {got}: JSON object keys are strings", got=type(key).__name__)
        if type(field) is not str:
            check_json(field, location + (key,), max_depth)


def _open(container: Union[dict, list], location: Location) -> tuple:
    if isinstance(container, dict):
        return iter(container.items()), True, location, container
    return enumerate(container), False, location, container


def _scalar_problem(value: Any) -> Optional[Problem]:
    if isinstance(value, _SCALARS):
        return None
    if isinstance(value, int):
        if -_INT_BOUND < value < _INT_BOUND:
            return None
        return Problem("is an integer of more than {n} digits, longer than Python writes as JSON text", n=MAX_INT_DIGITS)
    if isinstance(value, float):
        if math.isfinite(value):
            return None
        return Problem("must be a finite number: JSON has no NaN or Infinity")
    return Problem("must be a JSON value (object, array, string, number, true, false or null), got {got}",
                   got=type(value).__name__)


def _too_deep(max_depth: int) -> Problem:
    return Problem("nests deeper than {n} levels of objects and arrays, the limit here", n=max_depth)


CYCLE = "contains itself (a cycle): a JSON value cannot refer back to itself"


def _deep_or_cyclic(stack: list, item: Any, inner: Location, max_depth: int) -> tuple[Location, Problem]:
    """The error for a container one level too deep: where a cycle closes, if it is one."""
    containers = [entry[3] for entry in stack]
    for number, (_, _, where, container) in enumerate(stack):
        if any(container is earlier for earlier in containers[:number]):
            return where, Problem(CYCLE)
    if any(item is container for container in containers):
        return inner, Problem(CYCLE)
    return inner, _too_deep(max_depth)


# ---------------------------------------------------------------------------
# JSON text


def read_json(text: Union[str, bytes], name: str = "the JSON text", location: Location = ()) -> Any:
    """JSON text (str, or UTF-8 bytes; a leading BOM is skipped) -> the value it holds.

    Bad text raises `RequestError` at `location` (by default the body itself), naming the
    text and the place in it: not JSON, nested too deeply for Python's reader, an integer
    literal too long, too big. The value itself is not checked: see `check_json`.
    """
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_TEXT_BYTES:
            raise RequestError(location, _too_big(name, len(text)))
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise RequestError(location, "{name} is not UTF-8: {why} at byte {at}", name=name, why=error.reason, at=error.start) from None
    if len(text) > MAX_TEXT_BYTES:  # characters: at least as many bytes
        raise RequestError(location, _too_big(name, len(text)))
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RequestError(location, "{name} is not valid JSON: {json} at line {line}, column {column}",
                           name=name, json=error.msg, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise RequestError(location, _text_too_deep(name, text)) from None
    except ValueError as error:  # Python's limit on the digits of an integer literal
        raise RequestError(location, _long_integer(name, text, error)) from None


def _too_big(name: str, size: int) -> Problem:
    return Problem("{name} is larger than {mb} MB ({size:,} bytes), the Messages API's request limit",
                   name=name, mb=MAX_TEXT_BYTES // (1024 * 1024), size=size)


# Strings (skipped, even unfinished ones), brackets and integer literals: enough to find a
# place in JSON text, also in text that is still being typed.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]|-?\d+', re.DOTALL)


def line_column(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and column of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def deep_bracket(text: str, limit: int = MAX_DEPTH) -> Optional[int]:
    """The offset of the first bracket nested deeper than `limit` (brackets inside strings do
    not count), or None. Cheap when the text has few brackets: then it cannot be too deep."""
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    for token in _TOKENS.finditer(text):
        kind = token.group()[0]
        if kind in "[{":
            depth += 1
            if depth > limit:
                return token.start()
        elif kind in "]}":
            depth -= 1
    return None


def long_integer(text: str, limit: int = MAX_INT_DIGITS) -> Optional[tuple[int, int]]:
    """(offset, digits) of the first integer literal outside strings with more than `limit` digits."""
    for token in _TOKENS.finditer(text):
        digits = len(token.group().lstrip("-"))
        if token.group()[0] not in '"[]{}' and digits > limit:
            return token.start(), digits
    return None


def _text_too_deep(name: str, text: str) -> Problem:
    offset = deep_bracket(text)
    if offset is None:
        return Problem("{name} nests too deeply for Python's JSON reader", name=name)
    line, column = line_column(text, offset)
    return Problem("{name} nests deeper than {n} levels of objects and arrays (at line {line}, column {column})",
                   name=name, n=MAX_DEPTH, line=line, column=column)


def _long_integer(name: str, text: str, error: ValueError) -> Problem:
    found = long_integer(text)
    if found is None:
        return Problem("{name} is not valid JSON: {why}", name=name, why=str(error)[:200])
    line, column = line_column(text, found[0])
    return Problem("{name} has an integer of more than {n} digits (at line {line}, column {column})",
                   name=name, n=MAX_INT_DIGITS, line=line, column=column)


# ---------------------------------------------------------------------------
# Showing a value in an error message without trusting it


def shown(value: Any, limit: int = 60) -> str:
    """A short, one-line, safe description of any value for an error message: the repr of a
    short string, bool, None or small number; else its type (never a huge repr, never one
    that raises)."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int) and -(10**limit) < value < 10**limit:
        return repr(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        text = repr(value[:limit])
        return text if len(value) <= limit else text[:-1] + "…" + text[-1]
    return type(value).__name__
