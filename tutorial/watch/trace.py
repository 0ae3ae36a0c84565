"""`trace(body)`: run preprocess + translate and keep every stage's input and output.

The translation module never knows it is being watched. `trace` runs the *same*
functions, rebound to a private copy of their module's namespace in which the helpers
(`flatten_content`, `tool_call_dict`, ...) are wrapped by recorders. So the core stays
free of bookkeeping, costs nothing when no trace is taken, and what the trace shows is
what `translate` does — not a re-enactment of it.

Where an input came from (`messages[2].content[0].content`) is found by identity: the
helpers receive the very objects of the body, and an index maps each object to its path.
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

from .. import contract, targets
from ..errors import RequestError, format_location
from ..preprocess import preprocess
from . import losses


class Step(NamedTuple):
    """One call of a stage: `name` of the function, its `input` (a dict of the named
    arguments when it takes several), its `output`, and the `path` the input came from."""

    name: str
    input: Any
    output: Any
    location: tuple

    @property
    def path(self) -> str:
        return format_location(self.location)


class Produced(NamedTuple):
    """Which part of the body produced which translated messages, and through which helpers.
    An empty `via` means the text was taken directly."""

    location: tuple
    outputs: tuple[int, ...]
    via: tuple[str, ...]

    @property
    def source(self) -> str:
        return format_location(self.location)


@dataclass(frozen=True)
class Trace:
    target: str
    body: dict  # as given
    preprocessed: dict  # what translate saw; paths refer to it
    steps: list[Step]
    translated: list[dict]
    tools_schema: Optional[list[dict]]
    losses: list[losses.Loss]
    produced: list[Produced] = field(default_factory=list)

    def at(self, location: tuple) -> Any:
        """The value at `location` in the preprocessed body (() is the body itself)."""
        value: Any = self.preprocessed
        for key in location:
            value = value[key]
        return value

    def step(self, name: str, index: int = 0) -> Step:
        """The `index`-th step called `name` (a convenience for notebooks)."""
        return [s for s in self.steps if s.name == name][index]


class _Watched(NamedTuple):
    helpers: tuple[str, ...]  # recorded as steps
    units: tuple[str, ...]  # functions whose result messages are attributed to their input


# For each target, which of its module's functions the trace records. The paths
# themselves come from the targets table, the one place that knows them.
WATCHED = {
    "chat_template": _Watched(
        helpers=("flatten_content", "tool_call_dict"),
        units=("system_messages", "chat_template_message", "user_block_message"),
    ),
    "openai": _Watched(
        helpers=("system_text", "content_part", "tool_result_messages", "openai_tool_call"),
        units=("openai_system_messages", "openai_message", "tool_result_messages"),
    ),
}


def trace(body: dict, *, target: str = "chat_template") -> Trace:
    """Run `preprocess` and `translate` on `body`, recording every stage."""
    chosen = targets.get(target)
    folded = preprocess(body)  # checks the body first: errors point into it as given
    chosen.refuse(body)  # so do the target's own refusals

    recorder = _Recorder(folded)
    namespace = recorder.rebind(sys.modules[chosen.messages_path.__module__], WATCHED[target])
    messages, system, tools = folded["messages"], folded.get("system"), folded.get("tools")
    translated = namespace[chosen.messages_path.__name__](messages, system)
    recorder.steps.append(Step("translate_messages", {"messages": messages, "system": system}, translated, ()))
    tools_schema = namespace[chosen.tools_path.__name__](tools)
    recorder.steps.append(Step("tools_to_chat_tools", tools, tools_schema, ("tools",)))

    return Trace(
        target=target,
        body=body,
        preprocessed=folded,
        steps=recorder.steps,
        translated=translated,
        tools_schema=tools_schema,
        losses=_losses(body, folded, target),
        produced=recorder.produced(translated),
    )


def _losses(body: dict, folded: dict, target: str) -> list[losses.Loss]:
    """The loss report hands on fields the contract left alone, so it checks them; its
    paths refer to the preprocessed body, so a problem is located again in the body as
    given (only then: finding it costs a walk the common case does not need)."""
    try:
        return losses.report(folded, target)
    except RequestError:
        contract.check_unnamed_fields(body)
        raise


class _Recorder:
    def __init__(self, body: dict):
        self.body = body
        self.steps: list[Step] = []
        self._open: list[tuple[Any, tuple, list]] = []  # units being run: (input, location, helpers)
        self._units: list[tuple[tuple, list, tuple]] = []  # finished: (location, helpers, messages)
        self._depth = 0  # > 0 while a recorded helper runs: its inner helper calls are part of it
        self._messages_seen = 0
        self._indexes: dict[int, tuple[Any, dict[int, tuple]]] = {}  # id(unit) -> (unit, its index)

    def rebind(self, module: types.ModuleType, spec: _Watched) -> dict:
        """A copy of the target module's namespace whose functions call each other there,
        with the helpers and units replaced by recording wrappers."""
        namespace = dict(vars(module))
        for name, value in vars(module).items():
            if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
                copy = types.FunctionType(value.__code__, namespace, name, value.__defaults__, value.__closure__)
                copy.__kwdefaults__ = value.__kwdefaults__
                namespace[name] = copy
        for name in spec.helpers:
            namespace[name] = self._record_helper(name, namespace[name])
        for name in spec.units:  # a unit that is also a helper wraps the helper's recorder
            namespace[name] = self._record_unit(spec, name, namespace[name])
        return namespace

    def _record_helper(self, name: str, function: Callable) -> Callable:
        """Record each call as a Step, and name the helper in the unit it serves."""
        parameters = function.__code__.co_varnames[: function.__code__.co_argcount]
        steps, open_units = self.steps, self._open

        def recorded(*args):
            if self._depth:  # called by a recorded helper (flatten_content recursing): part of that step
                return function(*args)
            if len(args) == 1:
                location = self._locate(args[0])
            else:  # several values from one place (tool_call_dict's name and input): that place
                location = self._locate(next((a for a in args if isinstance(a, (dict, list))), args[0]))[:-1]
            self._depth = 1
            try:
                result = function(*args)
            finally:
                self._depth = 0
            steps.append(Step(name, args[0] if len(args) == 1 else dict(zip(parameters, args)), result, location))
            if open_units and name not in open_units[-1][2]:
                open_units[-1][2].append(name)
            return result

        return recorded

    def _record_unit(self, spec: _Watched, name: str, function: Callable) -> Callable:
        """Note which messages a unit returned, where its input was, and the helpers it used."""
        open_units, finished = self._open, self._units

        def recorded(*args):
            if name == spec.units[0]:
                location: tuple = ("system",)
            elif name == spec.units[1]:  # the per-message function runs once per message, in order
                location = ("messages", self._messages_seen)
                self._messages_seen += 1
            else:
                location = self._locate(args[0])
            open_units.append((args[0], location, []))
            try:
                result = function(*args)
            finally:
                via = open_units.pop()[2]
            # a snapshot: the caller may extend the very list a unit returned
            finished.append((location, via, tuple(result) if isinstance(result, list) else (result,)))
            return result

        return recorded

    def _locate(self, target: Any) -> tuple:
        """Where `target` sits in the innermost open unit's input (a message, a block or the
        system prompt), found by identity: the helpers get the body's own objects."""
        unit, location, _helpers = self._open[-1] if self._open else (self.body, (), None)
        found = self._find(unit, target)
        if found is None and isinstance(target, list) and len(target) == 1:
            found = self._find(unit, target[0])  # flatten_content([block]) for a single block
        return location + found if found is not None else location

    def _find(self, unit: Any, target: Any) -> Optional[tuple]:
        """The first of `_places(unit)` that is `target` itself. A small unit is searched; a
        big one (a message of 50 000 blocks, looked into once per block) gets an index by
        identity, made once, so that tracing it stays linear."""
        content = unit.get("content") if isinstance(unit, dict) else unit
        if not isinstance(content, list) or len(content) < 64:
            return _find(unit, target)
        cached = self._indexes.get(id(unit))
        if cached is None or cached[0] is not unit:
            index: dict[int, tuple] = {}
            for path, value in _places(unit):
                index.setdefault(id(value), path)  # the first place wins, as when searching
            cached = self._indexes[id(unit)] = (unit, index)
        return cached[1].get(id(target))

    def produced(self, translated: list[dict]) -> list[Produced]:
        """Attribute each translated message to the innermost unit that returned it."""
        owner: dict[int, int] = {}  # id(message) -> unit; inner units finish first, so they claim first
        for number, (_location, _via, messages) in enumerate(self._units):
            for message in messages:
                owner.setdefault(id(message), number)
        outputs: dict[int, list[int]] = {}
        for index, message in enumerate(translated):
            if id(message) in owner:
                outputs.setdefault(owner[id(message)], []).append(index)
        return [
            Produced(self._units[number][0], tuple(indexes), tuple(self._units[number][1]))
            for number, indexes in sorted(outputs.items(), key=lambda item: item[1][0])
        ]


def _places(unit: Any):
    """(path, value) for the unit itself, its fields (or items), its content blocks and
    their fields, in reading order: where a helper's input can come from."""
    yield (), unit
    if isinstance(unit, list):
        yield from (((index,), item) for index, item in enumerate(unit))
        return
    if not isinstance(unit, dict):
        return
    yield from (((key,), value) for key, value in unit.items())
    content = unit.get("content")
    for index, block in enumerate(content if isinstance(content, list) else ()):
        yield ("content", index), block
        if isinstance(block, dict):
            yield from ((("content", index, key), value) for key, value in block.items())


def _find(unit: Any, target: Any) -> Optional[tuple]:
    """The path from `unit` to the object `target`: the unit itself, one of its fields,
    one of its content blocks, or a field of one of those blocks (`_places`, searched)."""
    if unit is target:
        return ()
    if not isinstance(unit, dict):
        return next(((index,) for index, item in enumerate(unit) if item is target), None) if isinstance(unit, list) else None
    for key, value in unit.items():
        if value is target:
            return (key,)
    content = unit.get("content")
    for index, block in enumerate(content if isinstance(content, list) else ()):
        if block is target:
            return ("content", index)
        if isinstance(block, dict):
            for key, value in block.items():
                if value is target:
                    return ("content", index, key)
    return None
