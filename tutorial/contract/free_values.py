"""Free values: what the contract does not spell out must still be plain JSON within the limits.

A tool call's `input`, a tool's `input_schema` and every field the contract does not name
are free values. Most are small and shallow (`{"path": "README.md"}`): pydantic-core checks
those itself, without calling Python. Anything deeper goes to `limits.check_json`, which
also says where a problem is. (A Python call for every tool input cost a sixth of the
whole translation.)

`InJsonText` is the other trick of this module: a union whose member a Python function
picks is picked without Python while the value is still JSON text (`read_body`).
"""

from __future__ import annotations

from typing import Annotated, Any, Optional

from pydantic_core import PydanticCustomError, core_schema

from .. import limits
from ..errors import RequestError


def _free(value: Any) -> Any:
    try:
        limits.check_json(value)
    except RequestError as error:  # carried out of pydantic with its place inside the value
        context = {"problem": error.problem, "key": error.key, "values": error.values, "inside": error.location}
        raise PydanticCustomError("free_value", "{problem}", context) from None
    return value


# A Python value can hold one object in many places: [[[x] * 1000] * 1000] * 1000 is small
# in memory and a billion values to walk. The shallow check in Rust does not count (check_json
# does), so each of its arrays and objects holds at most WIDTH items: WIDTH**LEVELS values at
# most, within limits.MAX_VALUES. A wider value takes the slow way, which counts.
LEVELS = 4
WIDTH = 31
assert WIDTH**LEVELS <= limits.MAX_VALUES


def _shallow_json(levels: int) -> core_schema.CoreSchema:
    """JSON at most `levels` deep and WIDTH wide, checked in Rust: a union chosen by the
    value's Python type (`type` is the discriminator, called in C), so no member is tried in
    vain. Each level holds the one below twice, so this stays small."""
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
        choices[list] = core_schema.list_schema(inner, strict=True, max_length=WIDTH)
        key = core_schema.str_schema(strict=True)
        choices[dict] = core_schema.dict_schema(key, inner, strict=True, max_length=WIDTH)
    return core_schema.tagged_union_schema(choices, discriminator=type)


def _shallow_json_text(levels: int) -> core_schema.CoreSchema:
    """The same check when the value is still JSON text (`read_body`): the members are tried
    in turn (JSON's types never overlap, and an int is tried before a float so that 2 stays
    2), as calling `type` would first turn the whole value into Python objects. The reader
    already refuses integers of more than 4300 digits."""
    return _json_text_members(_shallow_json_text(levels - 1) if levels > 0 else None)


def _json_text_members(inner: Optional[core_schema.CoreSchema]) -> core_schema.CoreSchema:
    members = [
        core_schema.str_schema(strict=True),
        core_schema.int_schema(strict=True),
        core_schema.float_schema(strict=True, allow_inf_nan=False),
        core_schema.bool_schema(strict=True),
        core_schema.none_schema(),
    ]
    if inner is not None:
        members[1:1] = [
            core_schema.dict_schema(core_schema.str_schema(strict=True), inner, strict=True),
            core_schema.list_schema(inner, strict=True),
        ]
    return core_schema.union_schema(members, mode="left_to_right")


JSON_TEXT_LEVELS = 12


def deepened_for_json_text(schema: core_schema.CoreSchema) -> core_schema.CoreSchema:
    """`schema` (a body's, changed in place) with the fast check of every free value in JSON
    text taken from 4 to `JSON_TEXT_LEVELS` levels, for `read_body`: then a deep tool schema
    (Claude Code's reach seven levels, MCP servers' more) is checked in Rust too, not turned
    into Python objects for `limits.check_json`. Deeper values still take that way.

    Done here, on the finished schema, because pydantic takes no shared definitions from a
    field's own schema. (pydantic-core still expands each level into the one above, so the
    validator doubles with every level: 12 levels are about 2 MB; building them from named
    levels is ten times quicker than from copies.) Only JSON text gets this: it cannot share
    an object between two places, so a walk in Rust is as long as the text, while a Python
    value can (`[x, x]` nested 40 times is 2**40 values), and there `check_json` counts."""
    levels = JSON_TEXT_LEVELS
    stack: list = [schema]
    while stack:
        part = stack.pop()
        if isinstance(part, dict):
            if part.get("type") == "json-or-python" and part["json_schema"].get("type") == "union":
                fast = part["json_schema"]["choices"][0]
                if isinstance(fast, dict) and fast.get("custom_error_type") == "free_fast":
                    whole = fast["schema"]["type"] == "dict"  # a free object: the levels below it
                    inner = core_schema.definition_reference_schema(f"free-json-text-{levels - 1 if whole else levels}")
                    key = core_schema.str_schema(strict=True)
                    fast["schema"] = core_schema.dict_schema(key, inner, strict=True) if whole else inner
                    continue
            stack.extend(part.values())
        elif isinstance(part, list):
            stack.extend(part)
    return core_schema.definitions_schema(schema, [_json_text_level(number) for number in range(levels + 1)])


def _json_text_level(number: int) -> core_schema.CoreSchema:
    """JSON text at most `number` levels deep, naming the level below instead of holding it."""
    inner = core_schema.definition_reference_schema(f"free-json-text-{number - 1}") if number else None
    return {**_json_text_members(inner), "ref": f"free-json-text-{number}"}


class _FreeValue:
    """A free value of any JSON type: pydantic-core first, `_free` when that is not enough."""

    levels = LEVELS
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
        wide = {"max_length": WIDTH} if shallow is _shallow_json else {}
        key = core_schema.str_schema(strict=True)
        return core_schema.dict_schema(key, shallow(cls.levels - 1), strict=True, **wide)


Free = Annotated[Any, _FreeValue]  # a field the contract does not name, too
FreeObject = Annotated[dict[str, Any], _FreeObject]


class InJsonText:
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


class ByType:
    """A union of a few JSON types (an array, a string, null), picked by the value's Python
    type in Rust (`type` is the discriminator, called in C) instead of by a Python function
    per value (about 0.05x `json.loads` on the agent session). In JSON text, where no
    Python type is known yet, the members are tried in the order given. A value of none
    of these types gets `error_type` with `message`."""

    def __init__(self, members: dict, error_type: str, message: str):
        self.members, self.error_type, self.message = members, error_type, message

    def __get_pydantic_core_schema__(self, _source: Any, handler: Any) -> core_schema.CoreSchema:
        schemas = {kind: handler.generate_schema(member) for kind, member in self.members.items()}
        by_type = core_schema.tagged_union_schema(
            schemas, discriminator=type, custom_error_type=self.error_type, custom_error_message=self.message
        )
        in_turn = core_schema.union_schema(list(schemas.values()), mode="left_to_right")
        return core_schema.json_or_python_schema(json_schema=in_turn, python_schema=by_type)
