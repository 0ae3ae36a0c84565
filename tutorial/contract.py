"""The request contract: which Anthropic Messages bodies the translation accepts.

The models are pydantic TypedDicts. They only *check* a body; the translation itself
works on the plain dicts the caller passed in, so the validated copy is thrown away.
(TypedDicts rather than BaseModels: validating into dicts is several times cheaper than
building model objects, and the helpers want plain JSON values anyway.)

A failed check becomes one `RequestError`: the first problem in body order, located
like `messages[2].content[0].tool_use_id`.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import AfterValidator, Discriminator, Field, Tag, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError
from typing_extensions import NotRequired, TypedDict

from .errors import Location, RequestError

# ---------------------------------------------------------------------------
# Content blocks. Unknown block types are allowed (the protocol keeps adding them):
# they only need a string `type`.


class Base64Source(TypedDict):
    type: Literal["base64"]
    media_type: str
    data: str


class UrlSource(TypedDict):
    type: Literal["url"]
    url: str


def _source_kind(value: Any) -> Optional[str]:
    kind = value.get("type") if isinstance(value, dict) else None
    return f"{kind} source" if kind in ("base64", "url") else None


ImageSource = Annotated[
    Union[Annotated[Base64Source, Tag("base64 source")], Annotated[UrlSource, Tag("url source")]],
    Discriminator(
        _source_kind,
        custom_error_type="bad_source",
        custom_error_message="must be an object with type 'base64' (media_type, data) or 'url' (url)",
    ),
]


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class ImageBlock(TypedDict):
    type: Literal["image"]
    source: "ImageSource"


class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: str
    signature: NotRequired[Optional[str]]  # some proxies send null; it is dropped anyway


class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


def _only_unknown(kind: str) -> str:
    # The fallback takes only types the tagged union does not know; a known type that
    # failed there (a tool_result without tool_use_id) must stay an error.
    if kind in _KNOWN_BLOCKS:
        raise PydanticCustomError("known_block", "a known block type that failed its own checks")
    return kind


class OtherBlock(TypedDict):
    """Any block type this contract does not know: it only needs a string `type`."""

    type: Annotated[str, AfterValidator(_only_unknown)]


class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: NotRequired["ToolResultContent"]
    is_error: NotRequired[Optional[bool]]


# Known blocks go through a tagged union on `type`, which pydantic-core resolves without
# calling Python; only a block it rejects is tried against the fallback. (Checking every
# block with a Python discriminator cost about a fifth of the whole translation.)
class SearchResultBlock(TypedDict):
    type: Literal["search_result"]
    content: list[TextBlock]
    title: NotRequired[str]
    source: NotRequired[str]


KnownBlock = Annotated[
    Union[TextBlock, ImageBlock, ThinkingBlock, ToolUseBlock, ToolResultBlock, SearchResultBlock],
    Field(discriminator="type"),
]
Block = Annotated[Union[KnownBlock, OtherBlock], Field(union_mode="left_to_right")]

# Inside a tool_result's content list plain strings are tolerated too (flatten_content
# reads them).
NestedItem = Annotated[Union[str, KnownBlock, OtherBlock], Field(union_mode="left_to_right")]


def _tool_result_content_kind(value: Any) -> Optional[str]:
    return "no content" if value is None else _content_kind(value)


ToolResultContent = Annotated[
    Union[
        Annotated[None, Tag("no content")],
        Annotated[str, Tag("string content")],
        Annotated[list[NestedItem], Tag("block list")],
    ],
    Discriminator(
        _tool_result_content_kind,
        custom_error_type="bad_content",
        custom_error_message="must be a string or a list of content blocks",
    ),
]

_KNOWN_BLOCKS = frozenset(("text", "image", "thinking", "tool_use", "tool_result", "search_result"))


def _content_kind(value: Any) -> Optional[str]:
    if isinstance(value, str):
        return "string content"
    if isinstance(value, list):
        return "block list"
    return None


Content = Annotated[
    Union[Annotated[str, Tag("string content")], Annotated[list[Block], Tag("block list")]],
    Discriminator(
        _content_kind,
        custom_error_type="bad_content",
        custom_error_message="must be a string or a list of content blocks",
    ),
]


class Message(TypedDict):
    role: Literal["user", "assistant", "system"]
    content: Content


class Tool(TypedDict):
    name: str
    type: NotRequired[str]
    description: NotRequired[Optional[str]]
    input_schema: NotRequired[Optional[dict[str, Any]]]


def _system_kind(value: Any) -> Optional[str]:
    if value is None:
        return "no system"
    return _content_kind(value)


System = Annotated[
    Union[
        Annotated[None, Tag("no system")],
        Annotated[str, Tag("string content")],
        Annotated[list[TextBlock], Tag("block list")],
    ],
    Discriminator(
        _system_kind,
        custom_error_type="bad_system",
        custom_error_message="must be a string or a list of text blocks",
    ),
]


class Body(TypedDict):
    messages: list[Message]
    system: NotRequired[System]
    tools: NotRequired[Optional[list[Tool]]]


@functools.cache
def _adapter(name: str) -> TypeAdapter:
    # Built on first use, not at import: building the validators is most of the cost of
    # importing this module, and `import tutorial` should stay quick.
    return TypeAdapter({"body": Body, "messages": list[Message], "system": System, "tools": Optional[list[Tool]]}[name])


# ---------------------------------------------------------------------------
# From pydantic's errors to one located RequestError.

_PROBLEMS = {
    "missing": "is required",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "typed_dict_type": "must be an object",
    "not_a_block": "must be a content block: an object with a string 'type'",
}

# Errors that only say "the other member of a union did not match either".
_BRANCH_NOISE = {"known_block", "model_attributes_type", "union_tag_invalid"}

_HINTS = {
    "tool_use_id": "a tool_result names the tool_use it answers",
    "role": "inside messages, 'system' is accepted too",
    "source": "an image needs a base64 or url source",
    "input": "a tool_use's input is a JSON object",
    "input_schema": "a tool's input_schema is a JSON Schema object",
}


def _problem(error: dict) -> str:
    kind = error["type"]
    if kind == "literal_error":
        problem = f"must be {error['ctx']['expected']}, got {error['input']!r}"
    elif kind == "union_tag_invalid":  # e.g. an image source of an unknown type
        problem = f"has unknown type {error['ctx']['tag']!r} (expected {error['ctx']['expected_tags']})"
    else:
        problem = _PROBLEMS.get(kind, error["msg"][:1].lower() + error["msg"][1:])
    if kind != "missing" and kind in _PROBLEMS:
        problem += f", got {type(error['input']).__name__}"
    return problem


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


def _raise_first(errors: ValidationError, value: Any, prefix: Location, root: Any) -> None:
    located = []
    for error in errors.errors(include_url=False):
        if error["type"] in _BRANCH_NOISE or (error["loc"][-1:] == ("str",) and isinstance(error["input"], dict)):
            continue  # another member of a union did not match either: the real error is beside it
        location = prefix + _body_location(error["loc"], value, error["type"] == "missing")
        if error["type"] == "union_tag_not_found":  # no usable `type` on a block
            location, error = location + ("type",), {**error, "type": "missing"}
        elif error["loc"][-1:] == ("OtherBlock",):  # not even an object where a block goes
            error = {**error, "type": "not_a_block"}
        # At one place, "not a block" says more than the string member's "not a string".
        located.append(((_body_order(root, location), error["type"] != "not_a_block"), location, error))
    _, location, error = min(located, key=lambda item: item[0])
    problem = _problem(error)
    hint = _HINTS.get(location[-1]) if location and isinstance(location[-1], str) else None
    raise RequestError(location, f"{problem} ({hint})" if hint else problem) from None


def check_body(body: Any) -> None:
    """Raise `RequestError` unless `body` is a structurally valid request."""
    if not isinstance(body, dict):
        raise RequestError((), f"the request body must be a JSON object, got {type(body).__name__}")
    try:
        _adapter("body").validate_python(body, strict=True)  # strict: JSON values, no coercion
    except ValidationError as errors:
        _raise_first(errors, body, (), body)


def check_messages(messages: Any, system: Any) -> None:
    """The same checks for `translate_messages`' two arguments, located as in a body."""
    root = {"system": system, "messages": messages}
    try:
        _adapter("system").validate_python(system, strict=True)
    except ValidationError as errors:
        _raise_first(errors, system, ("system",), root)
    try:
        _adapter("messages").validate_python(messages, strict=True)
    except ValidationError as errors:
        _raise_first(errors, messages, ("messages",), root)


def check_tools(tools: Any) -> None:
    try:
        _adapter("tools").validate_python(tools, strict=True)
    except ValidationError as errors:
        _raise_first(errors, tools, ("tools",), {"tools": tools})
