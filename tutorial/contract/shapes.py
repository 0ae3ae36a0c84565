"""The shapes of a request: pydantic TypedDicts for the body, its messages, blocks and tools.

They only *check* a body; the translation works on the plain dicts the caller passed in.
(TypedDicts rather than BaseModels: validating into dicts is several times cheaper than
building model objects, and the helpers want plain JSON values anyway.)
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import AfterValidator, Discriminator, Field, Tag, TypeAdapter
from pydantic_core import PydanticCustomError
from typing_extensions import NotRequired, TypedDict

from .free_values import ByType, Free, FreeObject, InJsonText

# ---------------------------------------------------------------------------
# Content blocks. Unknown block types are allowed (the protocol keeps adding them):
# they only need a string `type`.
#
# Fields the contract does not name are free values (`extra_items=Free`) on the body, the
# tools, sources, search results and blocks of unknown types: the translation reads or
# passes them on. On messages and the frequent blocks (text, thinking, tool_use,
# tool_result) it does neither, and checking them here would cost about a quarter of
# the validation; `check_unnamed_fields` checks them for `trace`, whose loss report
# hands them on.


class Base64Source(TypedDict, extra_items=Free):
    type: Literal["base64"]
    media_type: str
    data: str


class UrlSource(TypedDict, extra_items=Free):
    type: Literal["url"]
    url: str


class FileSource(TypedDict, extra_items=Free):
    """A file uploaded through Anthropic's Files API: only Anthropic can read it."""

    type: Literal["file"]
    file_id: str


_SOURCES = {"base64": "base64 source", "url": "url source", "file": "file source"}


def _source_kind(value: Any) -> Optional[str]:
    kind = value.get("type") if isinstance(value, dict) else None
    return _SOURCES.get(kind) if isinstance(kind, str) else None


ImageSource = Annotated[
    Union[
        Annotated[Base64Source, Tag("base64 source")],
        Annotated[UrlSource, Tag("url source")],
        Annotated[FileSource, Tag("file source")],
    ],
    Discriminator(
        _source_kind,
        custom_error_type="bad_source",
        custom_error_message="must be an object with type 'base64' (media_type, data), 'url' (url) or 'file' (file_id)",
    ),
    InJsonText(tagged={"base64": Base64Source, "url": UrlSource, "file": FileSource}),
]


class TextBlock(TypedDict):
    type: Literal["text"]
    text: str


class ImageBlock(TypedDict, extra_items=Free):
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
    input: FreeObject


def _only_unknown(kind: str) -> str:
    # The fallback takes only types the tagged union does not know; a known type that
    # failed there (a tool_result without tool_use_id) must stay an error.
    if kind in _KNOWN_BLOCKS:
        raise PydanticCustomError("known_block", "a known block type that failed its own checks")
    return kind


class OtherBlock(TypedDict, extra_items=Free):
    """Any block type this contract does not know: it only needs a string `type`."""

    type: Annotated[str, AfterValidator(_only_unknown)]


def _only_unknown_inside(kind: str) -> str:
    if kind in _KNOWN_INSIDE:
        raise PydanticCustomError("known_block", "a known block type that failed its own checks")
    return kind


class OtherInsideBlock(TypedDict, extra_items=Free):
    """Inside a tool_result, any other block — a tool_result too: its content is then a
    free value, so results cannot nest without end."""

    type: Annotated[str, AfterValidator(_only_unknown_inside)]


class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: str
    content: NotRequired["ToolResultContent"]
    is_error: NotRequired[Optional[bool]]


# Known blocks go through a tagged union on `type`, which pydantic-core resolves without
# calling Python; only a block it rejects is tried against the fallback. (Checking every
# block with a Python discriminator cost about a fifth of the whole translation.)
class SearchResultBlock(TypedDict, extra_items=Free):
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
# reads them). A tool_result inside one is not a known block there: the contract's own
# shapes never nest without end, so only the free values' limit bounds the depth.
KnownInsideBlock = Annotated[
    Union[TextBlock, ImageBlock, ThinkingBlock, ToolUseBlock, SearchResultBlock],
    Field(discriminator="type"),
]
NestedItem = Annotated[Union[str, KnownInsideBlock, OtherInsideBlock], Field(union_mode="left_to_right")]


ToolResultContent = Annotated[
    Union[None, str, list[NestedItem]],
    ByType(
        {list: list[NestedItem], str: str, type(None): None},
        "bad_content",
        "must be a string or a list of content blocks",
    ),
]

_KNOWN_BLOCKS = frozenset(("text", "image", "thinking", "tool_use", "tool_result", "search_result"))
_KNOWN_INSIDE = _KNOWN_BLOCKS - {"tool_result"}


Content = Annotated[
    Union[str, list[Block]],
    ByType({list: list[Block], str: str}, "bad_content", "must be a string or a list of content blocks"),
]


class Message(TypedDict):
    role: Literal["user", "assistant", "system"]
    content: Content


class CustomTool(TypedDict, extra_items=Free):
    """A tool the request defines itself (no `type`, or type "custom")."""

    name: str
    type: NotRequired[Literal["custom"]]
    description: NotRequired[Optional[str]]
    input_schema: NotRequired[Optional[FreeObject]]


class DefinedTool(TypedDict, extra_items=Free):
    """An Anthropic-defined tool, named by its type (`bash_20250124`, `web_search_20250305`);
    a toolset (`mcp_toolset`) has no name. See client_tools.py."""

    type: str
    name: NotRequired[str]


def _tool_kind(value: Any) -> str:
    defined = isinstance(value, dict) and value.get("type", "custom") != "custom"
    return "defined tool" if defined else "custom tool"


def _not_custom(tool: dict) -> dict:
    # In JSON text a tool is tried as a custom one first; one of type "custom" that failed
    # there must not pass as a defined one.
    if tool["type"] == "custom":
        raise PydanticCustomError("custom_tool", "a custom tool that failed its own checks")
    return tool


Tool = Annotated[
    Union[Annotated[CustomTool, Tag("custom tool")], Annotated[DefinedTool, Tag("defined tool")]],
    Discriminator(_tool_kind),
    InJsonText(CustomTool, Annotated[DefinedTool, AfterValidator(_not_custom)]),
]


System = Annotated[
    Union[None, str, list[TextBlock]],
    ByType(
        {list: list[TextBlock], str: str, type(None): None},
        "bad_system",
        "must be a string or a list of text blocks",
    ),
]


class Body(TypedDict, extra_items=Free):
    messages: list[Message]
    system: NotRequired[System]
    tools: NotRequired[Optional[list[Tool]]]


@functools.cache
def adapter(name: str) -> TypeAdapter:
    # Built on first use, not at import: building the validators is most of the cost of
    # importing this module, and `import tutorial` should stay quick.
    return TypeAdapter({"body": Body, "messages": list[Message], "system": System, "tools": Optional[list[Tool]]}[name])
