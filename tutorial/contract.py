"""The request contract: which Anthropic Messages bodies the translation accepts.

The models are pydantic TypedDicts. They only *check* a body; the translation itself
works on the plain dicts the caller passed in, so the validated copy is thrown away
(except in `read_body`, where the copy pydantic-core builds from JSON text is the body).
(TypedDicts rather than BaseModels: validating into dicts is several times cheaper than
building model objects, and the helpers want plain JSON values anyway.)

Where the contract leaves a value free (a tool call's `input`, a tool's `input_schema`,
the fields it does not name), the value must still be plain JSON within the limits of
`limits.py` (at most 54 levels deep, no cycle, integers of at most 4300 digits, finite
numbers). That is checked here too, in the same pass, before anything recursive sees
the body: nothing after the contract can then run out of stack on a request.

A failed check becomes one `RequestError`: the first problem in body order, located
like `messages[2].content[0].tool_use_id`.
"""

from __future__ import annotations

import copy
import functools
import sys
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import AfterValidator, Discriminator, Field, Tag, TypeAdapter, ValidationError
from pydantic_core import PydanticCustomError, SchemaValidator, core_schema
from typing_extensions import NotRequired, TypedDict

from . import limits
from .errors import Location, RequestError

# ---------------------------------------------------------------------------
# Free values: what the contract does not spell out is plain JSON within the limits.
#
# Most such values are small and shallow (`{"path": "README.md"}`): pydantic-core checks
# those itself, without calling Python. Anything deeper goes to `limits.check_json`, which
# also says where a problem is. (A Python call for every tool input cost a sixth of the
# whole translation.)


def _free(value: Any) -> Any:
    try:
        limits.check_json(value)
    except RequestError as error:  # carried out of pydantic with its place inside the value
        raise PydanticCustomError("free_value", "{problem}", {"problem": error.problem, "inside": error.location}) from None
    return value


def _shallow_json(levels: int) -> core_schema.CoreSchema:
    """JSON at most `levels` deep, checked in Rust: a union chosen by the value's Python
    type (`type` is the discriminator, called in C), so no member is tried in vain. Each
    level holds the one below twice, so this stays small."""
    bound = 10**limits.MAX_INT_DIGITS
    choices: dict[Any, core_schema.CoreSchema] = {
        str: core_schema.str_schema(strict=True),
        bool: core_schema.bool_schema(strict=True),
        int: core_schema.int_schema(strict=True, gt=-bound, lt=bound),
        float: core_schema.float_schema(strict=True, allow_inf_nan=False),
        type(None): core_schema.none_schema(),
    }
    if levels > 0:
        inner = _shallow_json(levels - 1)
        choices[list] = core_schema.list_schema(inner, strict=True)
        choices[dict] = core_schema.dict_schema(core_schema.str_schema(strict=True), inner, strict=True)
    return core_schema.tagged_union_schema(choices, discriminator=type)


def _shallow_json_text(levels: int) -> core_schema.CoreSchema:
    """The same check when the value is still JSON text (`read_body`): the members are tried
    in turn (JSON's types never overlap, and an int is tried before a float so that 2 stays
    2), as calling `type` would first turn the whole value into Python objects. The reader
    already refuses integers of more than 4300 digits."""
    members = [
        core_schema.str_schema(strict=True),
        core_schema.int_schema(strict=True),
        core_schema.float_schema(strict=True, allow_inf_nan=False),
        core_schema.bool_schema(strict=True),
        core_schema.none_schema(),
    ]
    if levels > 0:
        inner = _shallow_json_text(levels - 1)
        members[1:1] = [
            core_schema.dict_schema(core_schema.str_schema(strict=True), inner, strict=True),
            core_schema.list_schema(inner, strict=True),
        ]
    return core_schema.union_schema(members, mode="left_to_right")


class _FreeValue:
    """A free value of any JSON type: pydantic-core first, `_free` when that is not enough."""

    levels = 4
    python_type: Any = Any

    @classmethod
    def __get_pydantic_core_schema__(cls, _source: Any, handler: Any) -> core_schema.CoreSchema:
        slow = core_schema.no_info_after_validator_function(_free, handler.generate_schema(cls.python_type))
        return core_schema.json_or_python_schema(
            json_schema=cls._fast_or_slow(cls._fast(_shallow_json_text), slow),
            python_schema=cls._fast_or_slow(cls._fast(_shallow_json), slow),
        )

    @staticmethod
    def _fast_or_slow(fast: core_schema.CoreSchema, slow: core_schema.CoreSchema) -> core_schema.CoreSchema:
        fast = core_schema.custom_error_schema(fast, "free_fast", custom_error_message="not shallow JSON")  # a detour only
        return core_schema.union_schema([fast, slow], mode="left_to_right")

    @classmethod
    def _fast(cls, shallow: Any) -> core_schema.CoreSchema:
        return shallow(cls.levels)


class _FreeObject(_FreeValue):
    """A free value that must be a JSON object: a tool's input, an input_schema."""

    python_type = dict[str, Any]

    @classmethod
    def _fast(cls, shallow: Any) -> core_schema.CoreSchema:
        return core_schema.dict_schema(core_schema.str_schema(strict=True), shallow(cls.levels - 1), strict=True)


Free = Annotated[Any, _FreeValue]  # a field the contract does not name, too
FreeObject = Annotated[dict[str, Any], _FreeObject]


class _InJsonText:
    """A union whose member a small Python function picks (below) picks it without Python
    when the value is still JSON text (`read_body`): members tried in turn, or a tagged
    union on the `type` string. Calling the function there would first turn the value
    into Python objects, which made checking JSON text slower than reading it and then
    checking. A failure needs no good message: `read_body` then checks the read value."""

    def __init__(self, *members: Any, tagged: Optional[dict] = None):
        self.members, self.tagged = members, tagged

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> core_schema.CoreSchema:
        if self.tagged:
            choices = {tag: handler.generate_schema(member) for tag, member in self.tagged.items()}
            in_json = core_schema.tagged_union_schema(choices, discriminator="type")
        else:
            members = [handler.generate_schema(member) for member in self.members]
            in_json = core_schema.union_schema(members, mode="left_to_right")
        return core_schema.json_or_python_schema(json_schema=in_json, python_schema=handler(source))

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
    _InJsonText(tagged={"base64": Base64Source, "url": UrlSource, "file": FileSource}),
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
    _InJsonText(list[NestedItem], str, None),
]

_KNOWN_BLOCKS = frozenset(("text", "image", "thinking", "tool_use", "tool_result", "search_result"))
_KNOWN_INSIDE = _KNOWN_BLOCKS - {"tool_result"}


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
    _InJsonText(list[Block], str),
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
    _InJsonText(CustomTool, Annotated[DefinedTool, AfterValidator(_not_custom)]),
]


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
    _InJsonText(list[TextBlock], str, None),
]


class Body(TypedDict, extra_items=Free):
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
    "recursion_loop": "contains itself (a cycle): a JSON value cannot refer back to itself",
}

# Errors that only say "the other member of a union did not match either".
_BRANCH_NOISE = {"known_block", "model_attributes_type", "union_tag_invalid", "free_fast"}

_HINTS = {
    "tool_use_id": "a tool_result names the tool_use it answers",
    "role": "inside messages, 'system' is accepted too",
    "source": "an image needs a base64, url or file source",
    "input": "a tool_use's input is a JSON object",
    "input_schema": "a tool's input_schema is a JSON Schema object",
}


def _problem(error: dict) -> str:
    kind = error["type"]
    if kind == "literal_error":
        problem = f"must be {error['ctx']['expected']}, got {limits.shown(error['input'])}"
    elif kind == "union_tag_invalid":  # e.g. an image source of an unknown type
        problem = f"has unknown type {limits.shown(error['ctx']['tag'])} (expected {error['ctx']['expected_tags']})"
    elif kind == "free_value":  # limits.check_json's own words
        return error["ctx"]["problem"]
    elif kind == "invalid_key":
        return f"has a key of type {type(error['input']).__name__}: JSON object keys are strings"
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
        location = prefix + _body_location(error["loc"], value, error["type"] == "missing")
        if error["type"] == "union_tag_not_found":  # no usable `type` on a block
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
    hint = _HINTS.get(location[-1]) if location and isinstance(location[-1], str) and error["type"] not in ("free_value", "invalid_key") else None
    raise RequestError(location, f"{problem} ({hint})" if hint else problem) from None


@functools.cache
def _json_validator() -> SchemaValidator:
    """The body's validator once more, for `read_body`, whose copy is translated. Fields the
    contract does not name are kept where the translation may read one (a thinking or
    tool_use block in a user turn is flattened: `flatten_content` looks for a `content` or
    a `text`), and where the contract checks them anyway (`extra_items`). On messages,
    text and tool_result blocks the translation reads only the named fields, so the copy
    leaves theirs out: keeping them cost 0.1× `json.loads` on the benchmark's body."""
    schema = copy.deepcopy(_adapter("body").core_schema)
    stack = [schema]
    while stack:
        part = stack.pop()
        if isinstance(part, dict):
            if part.get("type") == "typed-dict" and part.get("cls") in (ThinkingBlock, ToolUseBlock):
                part["extra_behavior"] = "allow"
            stack.extend(part.values())
        elif isinstance(part, list):
            stack.extend(part)
    return SchemaValidator(schema)


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
        raise RequestError((), f"the request body must be a JSON object, got {type(body).__name__}")
    _check("body", body, (), body)


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
        _adapter(kind).validate_python(value, strict=True)  # strict: JSON values, no coercion
    except ValidationError as errors:
        _raise_first(errors, value, prefix, root)
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
            raise RequestError(where, f"has a key of type {type(key).__name__}: JSON object keys are strings")
        if key not in _NAMED[kind]:
            limits.check_json(value[key], where + (key,))
