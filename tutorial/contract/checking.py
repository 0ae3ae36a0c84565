"""The contract's entry points: check a body (or its parts), or read and check JSON text.

A failed check becomes one `RequestError`: the first problem in body order, located like
`messages[2].content[0].tool_use_id` (see wording.py).
"""

from __future__ import annotations

import copy
import functools
import sys
from typing import Any, Optional, Union

from pydantic import ValidationError
from pydantic_core import SchemaValidator

from .. import limits
from ..errors import Location, RequestError
from .free_values import deepened_for_json_text
from .shapes import ThinkingBlock, ToolUseBlock, adapter
from .wording import raise_located

@functools.cache
def _json_validator() -> SchemaValidator:
    """The body's validator once more, for `read_body`, whose copy is translated. Fields the
    contract does not name are kept where the translation may read one (a thinking or
    tool_use block in a user turn is flattened: `flatten_content` looks for a `content` or
    a `text`), and where the contract checks them anyway (`extra_items`). On messages,
    text and tool_result blocks the translation reads only the named fields, so the copy
    leaves theirs out: keeping them cost 0.1× `json.loads` on the benchmark's body.
    Free values are checked in Rust all the way down (`deepened_for_json_text`)."""
    schema = copy.deepcopy(adapter("body").core_schema)
    stack = [schema]
    while stack:
        part = stack.pop()
        if isinstance(part, dict):
            if part.get("type") == "typed-dict" and part.get("cls") in (ThinkingBlock, ToolUseBlock):
                part["extra_behavior"] = "allow"
            stack.extend(part.values())
        elif isinstance(part, list):
            stack.extend(part)
    return SchemaValidator(deepened_for_json_text(schema))


def read_body(raw: Union[str, bytes, bytearray]) -> Optional[dict]:
    """JSON text -> the body it holds, read and checked in one pass by pydantic-core (about
    two thirds of the cost of reading it, then checking the value); None when the text is
    not a body that passes: the caller then reads and checks it again to say where and why.
    Its reader takes what `limits.read_json` takes, or less: less only costs the second reading.

    The copy pydantic-core builds is what is translated: see `_json_validator` for the
    fields it leaves out."""
    if len(raw) > limits.MAX_TEXT_BYTES:
        return None
    previous = sys.unraisablehook
    sys.unraisablehook = _quiet_unprintable(previous)
    try:
        body = _json_validator().validate_json(raw, strict=True)
    except ValidationError:
        return None
    finally:
        sys.unraisablehook = previous
    return body if isinstance(body, dict) else None


def check_body(body: Any) -> None:
    """Raise `RequestError` unless `body` is a structurally valid request."""
    if not isinstance(body, dict):
        raise RequestError((), "the request body must be a JSON object, got {got}", got=type(body).__name__)
    if not _passes_in_batches(body):
        _check("body", body, (), body)  # checked whole, to find its first problem in body order


BATCH = 32  # messages checked at a time by `_passes_in_batches`


def _passes_in_batches(body: dict) -> bool:
    """Whether `body` passes: checked without its messages, then its messages BATCH at a time.

    pydantic-core builds a checked copy of all it checks, and `check_body` throws it away.
    The copy of a whole body lives long enough for Python's cycle collector to walk it, and
    all the objects the process holds, again and again (about 0.5x `json.loads` on a 5 MB
    body); the copy of 32 messages is freed before the collector looks. The checks are the
    same (nothing in the contract relates two messages), so a body that passes here passes
    whole; one that does not is checked whole again, to say where."""
    messages = body.get("messages")
    if type(messages) is not list:
        return False
    return _passes("body", {**body, "messages": []}) and all(
        _passes("messages", messages[start : start + BATCH]) for start in range(0, len(messages), BATCH)
    )


def _passes(kind: str, value: Any) -> bool:
    previous = sys.unraisablehook
    sys.unraisablehook = _quiet_unprintable(previous)
    try:
        adapter(kind).validate_python(value, strict=True)
    except ValidationError:
        return False
    finally:
        sys.unraisablehook = previous
    return True


def check_messages(messages: Any, system: Any) -> None:
    """The same checks for `translate_messages`' two arguments, located as in a body."""
    root = {"system": system, "messages": messages}
    _check("system", system, ("system",), root)
    _check("messages", messages, ("messages",), root)


def check_tools(tools: Any) -> None:
    _check("tools", tools, ("tools",), {"tools": tools})


def _check(kind: str, value: Any, prefix: Location, root: Any) -> None:
    previous = sys.unraisablehook
    sys.unraisablehook = _quiet_unprintable(previous)
    try:
        adapter(kind).validate_python(value, strict=True)  # strict: JSON values, no coercion
    except ValidationError as errors:
        raise_located(errors, value, prefix, root)
    finally:
        sys.unraisablehook = previous


def _quiet_unprintable(previous: Any) -> Any:
    """pydantic-core names an unknown block type in its error with str(), and reports it
    through sys.unraisablehook when that fails — for an integer too long to write as text
    ({"type": 10**5000}) — though the error it raises is complete. That one report is
    dropped (the RequestError says what is wrong); any other goes on as before."""

    def hook(report: Any) -> None:
        if not (isinstance(report.object, int) and isinstance(report.exc_value, ValueError)):
            previous(report)

    return hook


# ---------------------------------------------------------------------------
# The fields the contract leaves alone on messages and the frequent blocks

_NAMED = {
    "message": frozenset(("role", "content")),
    "text": frozenset(("type", "text")),
    "thinking": frozenset(("type", "thinking", "signature")),
    "tool_use": frozenset(("type", "id", "name", "input")),
    "tool_result": frozenset(("type", "tool_use_id", "content", "is_error")),
}


def check_unnamed_fields(body: dict) -> None:
    """For a body that passed `check_body`: the fields `check_body` leaves alone (those it
    does not name on messages and on text, thinking, tool_use and tool_result blocks) are
    free values too. `trace` checks them, because its loss report hands them on."""
    system = body.get("system")
    for i, block in enumerate(system if isinstance(system, list) else ()):
        _unnamed(block, "text", ("system", i))
    for i, message in enumerate(body["messages"]):
        _unnamed(message, "message", ("messages", i))
        content = message["content"]
        for j, block in enumerate(content if isinstance(content, list) else ()):
            _unnamed_in_block(block, ("messages", i, "content", j), inside=False)


def _unnamed_in_block(block: Any, where: Location, inside: bool) -> None:
    if not isinstance(block, dict):
        return  # a plain string inside a tool_result
    kind = block["type"]
    if kind in _NAMED and not (inside and kind == "tool_result"):  # inside one, a tool_result is free already
        _unnamed(block, kind, where)
    holds_blocks = kind == "search_result" or (kind == "tool_result" and not inside)
    if holds_blocks:
        content = block.get("content")
        for k, item in enumerate(content if isinstance(content, list) else ()):
            _unnamed_in_block(item, where + ("content", k), inside=True)


def _unnamed(value: dict, kind: str, where: Location) -> None:
    if value.keys() <= _NAMED[kind]:
        return  # the common case, at C speed
    for key in value:
        if not isinstance(key, str):
            raise RequestError(where, "has a key of type {got}: JSON object keys are strings", got=type(key).__name__)
        if key not in _NAMED[kind]:
            limits.check_json(value[key], where + (key,))
