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

from pydantic import Discriminator, Tag, TypeAdapter, ValidationError
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
    signature: NotRequired[str]


class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]


class OtherBlock(TypedDict):
    type: str


class UntypedBlock(TypedDict):
    # Chosen for an object whose `type` is missing or not a string, so that the
    # error points at `...content[j].type`.
    type: str


def _block_kind(value: Any) -> Optional[str]:
    if not isinstance(value, dict):
        return None  # reported as "not a content block"
    kind = value.get("type")
    if not isinstance(kind, str):
        return "untyped block"
    return _KNOWN_BLOCKS.get(kind, "other block")


class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: NotRequired["ToolResultContent"]
    is_error: NotRequired[bool]


def _nested_kind(value: Any) -> Optional[str]:
    if isinstance(value, dict):
        kind = value.get("type")
        return _KNOWN_BLOCKS.get(kind, "other block") if isinstance(kind, str) else "untyped block"
    return "string item" if isinstance(value, str) else None


_NOT_A_BLOCK = "must be a content block: an object with a string 'type'"

_BLOCK_CHOICES = (
    Annotated[TextBlock, Tag("text block")],
    Annotated[ImageBlock, Tag("image block")],
    Annotated[ThinkingBlock, Tag("thinking block")],
    Annotated[ToolUseBlock, Tag("tool_use block")],
    Annotated[ToolResultBlock, Tag("tool_result block")],
    Annotated[OtherBlock, Tag("other block")],
    Annotated[UntypedBlock, Tag("untyped block")],
)
Block = Annotated[
    Union[_BLOCK_CHOICES],
    Discriminator(_block_kind, custom_error_type="not_a_block", custom_error_message=_NOT_A_BLOCK),
]

# Inside a tool_result's content list plain strings are tolerated too (flatten_content
# reads them), so the nested union has one more member.
NestedItem = Annotated[
    Union[(Annotated[str, Tag("string item")], *_BLOCK_CHOICES)],
    Discriminator(_nested_kind, custom_error_type="not_a_block", custom_error_message=_NOT_A_BLOCK),
]


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

# The discriminators run once per block, so the tag lookup is a plain dict.
_KNOWN_BLOCKS = {kind: f"{kind} block" for kind in ("text", "image", "thinking", "tool_use", "tool_result")}


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


_TAGS = {
    "text block", "image block", "thinking block", "tool_use block", "tool_result block",
    "other block", "untyped block", "string item", "string content", "block list", "no system",
    "no content", "base64 source", "url source",
}  # fmt: skip


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
}

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


def _body_location(loc: tuple) -> Location:
    # pydantic puts union tags between the keys; the body never has them.
    return tuple(part for part in loc if part not in _TAGS)


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
        location = prefix + _body_location(error["loc"])
        located.append((_body_order(root, location), location, error))
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
