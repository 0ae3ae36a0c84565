"""What one chat template may build in one render, checked before it is built.

A chat template is code from a model repository, run on the learner's machine. jinja2's
sandbox keeps it away from Python's internals, but not from building a string of a billion
characters (`"x" * 10**9`, `"{:>1000000000}".format(1)`, `center(10**9)`). `rendering.py`'s
sandbox calls the checks here before each such operation, and counts the calls and `range()`
items of the whole render; past a bound the render stops with `TooMuch`, which `render`
turns into a RenderError. The bounds themselves are listed in rendering.py's docstring.
"""

from __future__ import annotations

import contextvars
import re
from functools import update_wrapper
from string import Formatter
from typing import Any, Optional

from jinja2.sandbox import SecurityError, safe_range

from .. import limits
from ..words import words_for
from .rendering_words import WORDS

MAX_STRING = limits.MAX_TEXT_BYTES  # characters in one string a template builds (32 Mi)
MAX_ITEMS = 1_000_000  # items in one list a template builds
MAX_CALLS = 100_000  # calls of functions, methods and macros in one render
MAX_RANGE_ITEMS = 10_000_000  # items of all range() calls in one render


class TooMuch(SecurityError):
    """A template tried to build more than the sandbox allows; `render` turns it into RenderError."""


class Budget:
    """What one render has spent so far."""

    def __init__(self) -> None:
        self.calls = 0
        self.range_items = 0


BUDGET: contextvars.ContextVar[Optional[Budget]] = contextvars.ContextVar("render_budget", default=None)


def spend(what: str, amount: int, limit: int) -> None:
    budget = BUDGET.get()
    if budget is not None:
        spent = getattr(budget, what) + amount
        setattr(budget, what, spent)
        if spent > limit:
            raise TooMuch(words_for(WORDS, what, limit=limit))


def bounded_range(*args: Any) -> range:
    numbers = safe_range(*args)  # jinja2's cap on one range(): 100 000 items
    spend("range_items", len(numbers), MAX_RANGE_ITEMS)
    return numbers


def bound_string(length: int) -> None:
    if length > MAX_STRING:
        raise TooMuch(words_for(WORDS, "string", limit=MAX_STRING, length=length))


def bound_items(length: int) -> None:
    if length > MAX_ITEMS:
        raise TooMuch(words_for(WORDS, "list", limit=MAX_ITEMS, length=length))


def bound_integer(bits: int) -> None:
    if bits > limits.MAX_INT_DIGITS * 10 // 3:  # a little more than 3.32 bits per digit
        raise TooMuch(words_for(WORDS, "integer", limit=limits.MAX_INT_DIGITS))


def is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse, before it is built, a result larger than the sandbox allows."""
    if operator == "*":
        for sequence, count in ((left, right), (right, left)):
            if is_count(count) and isinstance(sequence, (str, list, tuple)):
                length = len(sequence) * max(count, 0)
                (bound_string if isinstance(sequence, str) else bound_items)(length)
        if is_count(left) and is_count(right):
            bound_integer(abs(left).bit_length() + abs(right).bit_length())
    elif operator == "**":
        if is_count(left) and is_count(right) and right > 0 and abs(left) > 1:
            bound_integer(abs(left).bit_length() * right)
    elif operator == "+":
        if isinstance(left, str) and isinstance(right, str):
            bound_string(len(left) + len(right))
        elif isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
            bound_items(len(left) + len(right))
    elif operator == "%" and isinstance(left, str):
        check_printf(left, right)


# printf-style conversions: '%-10.3f', '%*d', '%(name)s'
PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def check_printf(text: str, arguments: Any) -> None:
    for width, precision in PRINTF.findall(text):
        for number in (width, precision):
            if number == "*":
                values = arguments if isinstance(arguments, tuple) else (arguments,)
                for value in values:
                    if is_count(value):
                        bound_string(abs(value))
            elif number:
                bound_string(int(number[:12]))


def check_format_spec(text: str) -> None:
    """`'{0:>1000000000}'.format(1)`: the widths and precisions in a str.format string."""
    for _literal, _field, spec, _conversion in Formatter().parse(text):
        if spec:
            if "{" in spec:
                raise TooMuch(words_for(WORDS, "format width"))
            for number in re.findall(r"\d+", spec):
                bound_string(int(number[:12]))


PADDING_METHODS = {"ljust", "rjust", "center", "zfill"}  # first argument: the width


def check_str_method(function: Any, args: tuple) -> None:
    """String methods that can make a string much longer than their inputs."""
    text = getattr(function, "__self__", None)
    name = getattr(function, "__name__", "")
    if not isinstance(text, str):
        return
    if name in PADDING_METHODS and args and is_count(args[0]):
        bound_string(args[0])
    elif name == "expandtabs":
        tab = args[0] if args and is_count(args[0]) else 8
        bound_string(len(text) + text.count("\t") * max(tab, 0))
    elif name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        bound_string(len(text) + text.count(args[0]) * max(len(args[1]) - len(args[0]), 0))
    elif name == "join" and args and isinstance(args[0], (list, tuple)):
        bound_string(joined_length(args[0], text))


def joined_length(items: Any, separator: str) -> int:
    return sum(len(str(item)) for item in items) + len(separator) * max(len(items) - 1, 0)


def bounded_filters(filters: dict) -> dict:
    """The built-in filters that pad, repeat or join, with the same bounds."""
    center, indent, replace, join, wordwrap = (filters[name] for name in ("center", "indent", "replace", "join", "wordwrap"))

    def bounded_center(value: Any, width: int = 80) -> str:
        if is_count(width):
            bound_string(width)
        return center(value, width)

    def bounded_indent(value: Any, width: Any = 4, *args: Any, **kwargs: Any) -> str:
        text = str(value)
        step = len(width) if isinstance(width, str) else width if is_count(width) else 0
        bound_string(len(text) + (text.count("\n") + 1) * max(step, 0))
        return indent(value, width, *args, **kwargs)

    def bounded_format(value: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(value, str):
            check_printf(value, args or kwargs)
        return filters_format(value, *args, **kwargs)

    def bounded_replace(eval_ctx: Any, value: Any, old: Any, new: Any, count: Any = None) -> str:
        text, old, new = str(value), str(old), str(new)
        times = text.count(old) if count is None or not is_count(count) else min(text.count(old), max(count, 0))
        bound_string(len(text) + times * max(len(new) - len(old), 0))
        return replace(eval_ctx, value, old, new, count)

    def bounded_join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> str:
        if isinstance(value, (list, tuple)) and attribute is None:
            bound_string(joined_length(value, str(d)))
        return join(eval_ctx, value, d, attribute)

    def bounded_wordwrap(environment: Any, s: str, width: int = 79, break_long_words: bool = True,
                         wrapstring: Optional[str] = None, break_on_hyphens: bool = True) -> str:  # fmt: skip
        separator = wrapstring if isinstance(wrapstring, str) else "\n"
        bound_string(len(str(s)) * (1 + len(separator)))
        return wordwrap(environment, s, width, break_long_words, wrapstring, break_on_hyphens)

    filters_format = filters["format"]
    # Keep each filter's way of being called (with the eval context, the environment, ...).
    bounded_replace = update_wrapper(bounded_replace, replace)
    bounded_join = update_wrapper(bounded_join, join)
    bounded_wordwrap = update_wrapper(bounded_wordwrap, wordwrap)
    return {"center": bounded_center, "indent": bounded_indent, "format": bounded_format,
            "replace": bounded_replace, "join": bounded_join, "wordwrap": bounded_wordwrap}  # fmt: skip
