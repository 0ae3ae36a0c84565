"""From pydantic's errors to one located `RequestError`, worded for a reader of the body.

pydantic reports every member of every union that did not match, located along its own
labels ("block list", "tagged-union[...]"). `raise_located` keeps the errors that matter,
reads their place along the body itself, picks the first one in body order, and says it
in a sentence, with a hint where one helps.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from .. import limits
from ..errors import Location, Problem, RequestError

_PROBLEMS = {
    "missing": "is required",
    "string_type": "must be a string, got {got}",
    "bool_type": "must be true or false, got {got}",
    "list_type": "must be a list, got {got}",
    "dict_type": "must be an object, got {got}",
    "typed_dict_type": "must be an object, got {got}",
    "bad_content": "must be a string or a list of content blocks, got {got}",
    "not_a_block": "must be a content block: an object with a string 'type', got {got}",
    "recursion_loop": "contains itself (a cycle): a JSON value cannot refer back to itself, got {got}",
}

# Errors that only say "the other member of a union did not match either".
_BRANCH_NOISE = {"known_block", "model_attributes_type", "union_tag_invalid", "free_fast"}

_HINTS = {
    "tool_use_id": "a tool_result names the tool_use it answers",
    "source": "an image needs a base64, url or file source",
    "input": "a tool_use's input is a JSON object",
    "input_schema": "a tool's input_schema is a JSON Schema object",
}


def _problem(error: dict) -> Problem:
    kind, context = error["type"], error.get("ctx", {})
    if kind == "literal_error":  # pydantic lists the values allowed: "'user' or 'assistant'"
        return Problem("must be {allowed}, got {got}", allowed=context["expected"], got=limits.shown(error["input"]))
    if kind == "union_tag_invalid":  # e.g. an image source of an unknown type
        return Problem("has unknown type {tag} (expected {expected})", tag=limits.shown(context["tag"]),
                       expected=context["expected_tags"])
    if kind == "free_value":  # limits.check_json's own words
        return Problem(context["key"], **context["values"])
    if kind == "invalid_key":
        return Problem("has a key of type {got}: JSON object keys are strings", got=type(error["input"]).__name__)
    if kind == "key_not_unicode":
        return Problem("is a key that is not valid Unicode: it holds a lone surrogate (half of a UTF-16 pair), "
                       "and the contract can only match keys that are text")
    if kind == "string_unicode":  # a value the contract compares (a role, a type), not free text
        return Problem("must be valid Unicode text, got {got}: it holds a lone surrogate (half of a UTF-16 pair)",
                       got=limits.shown(error["input"]))
    if kind in _PROBLEMS:
        return Problem(_PROBLEMS[kind], got=type(error["input"]).__name__)
    if error["msg"][:1].islower():  # the contract's own words (shapes.py's custom errors): a template
        return Problem(error["msg"])
    return Problem("{pydantic}", pydantic=error["msg"][:1].lower() + error["msg"][1:])  # pydantic's own words


def _at(value: Any, location: Location) -> Any:
    for part in location:
        value = value[part]
    return value


def _body_location(loc: tuple, value: Any, missing: bool) -> Location:
    """pydantic's error location, less the union labels it puts between the keys
    ("block list", "tagged-union[...]", "tool_result"): read along the body itself, a
    part is kept when it is an index or key that is there, or the missing last field."""
    location = []
    after_tagged_union = False
    for number, part in enumerate(loc):
        if after_tagged_union:  # the tag that chose the member (a block type), not a key
            after_tagged_union = False
        elif isinstance(part, str) and part.startswith("tagged-union["):
            after_tagged_union = True
        elif isinstance(value, list) and isinstance(part, int) and part < len(value):
            location.append(part)
            value = value[part]
        elif isinstance(value, dict) and part in value:
            location.append(part)
            value = value[part]
        elif missing and isinstance(value, dict) and number == len(loc) - 1:
            location.append(part)  # the missing field itself
    return tuple(location)


def _body_order(value: Any, location: Location) -> tuple:
    """A sort key: where `location` comes when reading the body from top to bottom."""
    key = []
    for part in location:
        if isinstance(value, dict):
            keys = list(value)
            key.append(keys.index(part) if part in keys else len(keys))
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int):
            key.append(part)
            value = value[part] if part < len(value) else None
        else:
            key.append(0)
    return tuple(key)


def raise_located(errors: ValidationError, value: Any, prefix: Location, root: Any) -> None:
    located = []
    reported = errors.errors(include_url=False)
    # A known block that failed its own checks is tried as an unknown one too; everything
    # that branch says about it (about its fields as free values, say) is beside the point.
    detours = {error["loc"][:-1] for error in reported if error["type"] == "known_block"}
    for error in reported:
        if error["type"] in _BRANCH_NOISE or (error["loc"][-1:] == ("str",) and isinstance(error["input"], dict)):
            continue  # another member of a union did not match either: the real error is beside it
        if any(error["loc"][: len(detour)] == detour for detour in detours):
            continue
        if error["loc"][-1:] == ("[key]",):  # a key that is not a string: located at its object
            error = {**error, "type": "invalid_key", "loc": error["loc"][:-2]}
        elif error["type"] == "invalid_key":
            error = {**error, "loc": error["loc"][:-1]}
        inside = _body_location(error["loc"], value, error["type"] == "missing")
        location = prefix + inside
        if error["type"] == "string_unicode":  # a lone surrogate where pydantic-core needs text
            holder = _at(value, inside)
            if isinstance(holder, dict) and isinstance(error["input"], str) and error["input"] in holder:
                location, error = location + (error["input"],), {**error, "type": "key_not_unicode"}  # the key itself
        elif error["type"] == "union_tag_not_found":  # no usable `type` on a block
            location, error = location + ("type",), {**error, "type": "missing"}
        elif error["loc"][-1:] in (("OtherBlock",), ("OtherInsideBlock",)):  # not even an object where a block goes
            error = {**error, "type": "not_a_block"}
        elif error["type"] == "free_value":  # the place inside the free value
            location += error["ctx"]["inside"]
        # At one place, "not a block" says more than the string member's "not a string".
        located.append(((_body_order(root, location), error["type"] != "not_a_block"), location, error))
    if not located:  # only union noise: should not happen, but say something located
        raise RequestError(prefix, "does not match the request contract") from None
    _, location, error = min(located, key=lambda item: item[0])
    problem = _problem(error)
    own_words = error["type"] in ("free_value", "invalid_key", "key_not_unicode")  # they say all there is
    hint = _HINTS.get(location[-1]) if location and isinstance(location[-1], str) and not own_words else None
    if hint:
        raise RequestError(location, "{problem} ({hint})", problem=problem, hint=hint) from None
    raise RequestError(location, problem) from None
