"""Request text made short and visible for a label, whatever the request says.

A label shows a value the way the notebooks print it — JSON with Chinese kept as Chinese —
cut to a few lines of a few columns. Everything here is bounded: a 10 MB string, a
5,000-digit integer or a list nested 100,000 deep costs the same few microseconds as
"hi", and nothing here raises for any JSON value.

    visible(text)               hidden characters (controls, zero-width, lone surrogates ...)
                                written as \\uXXXX, so a label never changes the layout
    wrap(text, width, lines)    at most `lines` lines of `width` columns, "…" marks a cut
    preview(value, width, lines)  a value's JSON, wrapped
    one(value, width)           the same on one line
    bare(text, width)           a name (block type, tool name) without JSON quotes
    prose(text, width, lines)   a sentence wrapped at spaces
    where(location)             a body path such as messages[2].content[0]

Escaping for DOT is not done here: the graph writer (`dot.py`) escapes every label it
writes. A Chinese character takes two columns.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Iterator

from ..errors import format_location
from ..words import columns as cells  # display width: CJK takes two columns
from ..words import wrap as wrap_words

WIDTH = 30  # columns of one label line in most pictures

# Characters a picture cannot show, or that would change the layout (controls, format
# characters such as zero-width joiners, line/paragraph separators, lone surrogates,
# private-use and unassigned code points).
HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_SCAN = 64  # characters looked at beyond what a label could show (zero-width marks)


def _escape_hidden(char: str) -> str:
    return f"\\u{ord(char):04x}" if unicodedata.category(char) in HIDDEN else char


def visible(text: str) -> str:
    """`text` with every hidden character written as a \\uXXXX escape."""
    if text.isprintable():  # the common case: nothing to replace
        return text
    return "".join(_escape_hidden(char) for char in text)


def _tokens(text: str) -> Iterator[str]:
    """Display tokens: a hidden character becomes one escape token, so a line is never
    broken in the middle of an escape."""
    for char in text:
        yield _escape_hidden(char)


def wrap(text: str, width: int = WIDTH, lines: int = 2, more: bool = False) -> list[str]:
    """At most `lines` lines of at most `width` columns; an ellipsis marks a cut. `more`
    says the text was already cut before it got here (so it ends in an ellipsis too)."""
    limit = width * lines + _SCAN
    if len(text) > limit:
        text, more = text[:limit], True
    out: list[list[str]] = [[]]
    used = 0
    cut = False
    for token in _tokens(text):
        size = cells(token)
        if used + size > width and out[-1]:
            if len(out) == lines:
                cut = True
                break
            out.append([])
            used = 0
        out[-1].append(token)
        used += size
    if cut or more:
        last = out[-1]
        while last and used + 1 > width:
            used -= cells(last.pop())
        last.append("…")
    return ["".join(line) for line in out]


def fit(text: str, width: int = WIDTH) -> str:
    """`text` on one line of at most `width` columns."""
    return wrap(text, width, 1)[0]


# ---------------------------------------------------------------------------
# A value's JSON, written only as far as a label can show it


class _Raw:
    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


_OPEN_LIST, _CLOSE_LIST, _OPEN_DICT, _CLOSE_DICT = _Raw("["), _Raw("]"), _Raw("{"), _Raw("}")
_COMMA, _COLON = _Raw(", "), _Raw(": ")


def _list_items(items) -> Iterator:
    yield _OPEN_LIST
    for n, item in enumerate(items):
        if n:
            yield _COMMA
        yield item
    yield _CLOSE_LIST


def _dict_items(mapping: dict) -> Iterator:
    yield _OPEN_DICT
    for n, (key, item) in enumerate(mapping.items()):
        if n:
            yield _COMMA
        yield key if isinstance(key, str) else _Raw(json.dumps(_scalar(key)))
        yield _COLON
        yield item
    yield _CLOSE_DICT


def _scalar(value: Any) -> str:
    """A non-string dict key as json.dumps writes it (it turns keys into strings)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return _number(value)


def _number(value: Any) -> str:
    if isinstance(value, int):
        try:
            return int.__repr__(value)
        except ValueError:  # more digits than Python will convert (int_max_str_digits)
            return f"<int of about {int(value.bit_length() * 0.30103) + 1} digits>"
    return float.__repr__(value) if value == value and value not in (float("inf"), float("-inf")) else json.dumps(value)


def _pieces(value: Any) -> Iterator[str]:
    """The JSON text of `value` (as json.dumps(value, ensure_ascii=False) writes it), in
    pieces, produced lazily and without recursion."""
    stack: list[Iterator] = [iter((value,))]
    while stack:
        try:
            item = next(stack[-1])
        except StopIteration:
            stack.pop()
            continue
        if type(item) is _Raw:
            yield item.text
        elif isinstance(item, str):
            yield '"'
            for start in range(0, len(item), 256):
                yield json.dumps(item[start : start + 256], ensure_ascii=False)[1:-1]
            yield '"'
        elif item is None or isinstance(item, bool):
            yield "null" if item is None else "true" if item else "false"
        elif isinstance(item, (int, float)):
            yield _number(item)
        elif isinstance(item, dict):
            stack.append(_dict_items(item))
        elif isinstance(item, (list, tuple)):
            stack.append(_list_items(item))
        else:
            yield f"<{type(item).__name__}>"


def json_prefix(value: Any, limit: int) -> tuple[str, bool]:
    """The first `limit` characters of `value`'s JSON, and whether there was more."""
    parts, size = [], 0
    for piece in _pieces(value):
        parts.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(parts)[:limit], True
    return "".join(parts), False


def preview(value: Any, width: int = WIDTH, lines: int = 2) -> list[str]:
    """`value` as JSON (strings quoted and escaped as a reader sees them in the notebooks'
    JSON), in at most `lines` lines of `width` columns."""
    text, more = json_prefix(value, width * lines + _SCAN)
    return wrap(text, width, lines, more)


def one(value: Any, width: int = WIDTH) -> str:
    return preview(value, width, 1)[0]


def bare(text: Any, width: int = 24) -> str:
    """A name from the request (a block type, a role, a tool name) shown without quotes;
    anything but a string is shown as JSON."""
    return fit(text, width) if isinstance(text, str) else one(text, width)


def prose(text: str, width: int = 40, lines: int = 3) -> list[str]:
    """A sentence (a loss report's reason) in at most `lines` lines of `width` columns, wrapped
    as the words room wraps (at spaces or between Chinese characters; a CJK character takes two
    columns), an ellipsis marking a cut."""
    wrapped = wrap_words(visible(text[: width * lines + _SCAN]), width, break_long=True) or [""]
    if len(wrapped) <= lines:
        return wrapped
    return wrapped[: lines - 1] + [_cut(wrapped[lines - 1] + " " + wrapped[lines], width)]


def _cut(line: str, width: int) -> str:
    """`line` ending in an ellipsis within `width` columns, cut between words where it is cut."""
    kept = line.rstrip()
    while kept and cells(kept) + 2 > width:
        kept = kept[:-1]
    pair = kept[-1:] + line[len(kept) : len(kept) + 1]  # the characters either side of the cut
    if len(pair) == 2 and pair.isascii() and pair.isalnum():  # inside a word: cut before it
        whole = kept.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        kept = whole if whole.strip() else kept
    kept = kept.rstrip().rstrip("（(《「“")
    return kept + " …" if kept[-1:].isascii() else kept + "…"


def where(location: tuple, width: int = 48) -> str:
    """A body path for a label. Keys come from the request (a top-level parameter, a
    tool's extra field), so they are shortened and made visible like any request text."""
    short = tuple(part if not isinstance(part, str) else part[: width + _SCAN] for part in location)
    return fit(format_location(short), width)


def plural(count: int, one_word: str, many: str | None = None) -> str:
    """'1 message', '5 messages' (English captions only)."""
    return f"{count} {one_word if count == 1 else many or one_word + 's'}"
