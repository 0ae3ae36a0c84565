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

import types
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Optional

from . import losses, openai_target
from . import translation as chat_template
from .errors import format_location
from .preprocess import preprocess


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


@dataclass(frozen=True)
class _Target:
    module: types.ModuleType
    messages: str  # the messages path
    tools: str  # the tools path
    helpers: tuple[str, ...]  # recorded as steps
    units: tuple[str, ...]  # functions whose result messages are attributed to their input


TARGETS = {
    "chat_template": _Target(
        chat_template,
        "chat_template_messages",
        "chat_template_tools",
        helpers=("flatten_content", "tool_call_dict"),
        units=("system_messages", "chat_template_message", "user_block_message"),
    ),
    "openai": _Target(
        openai_target,
        "openai_messages",
        "openai_tools",
        helpers=("system_text", "content_part", "tool_result_messages", "openai_tool_call"),
        units=("openai_system_messages", "openai_message", "tool_result_messages"),
    ),
}


def trace(body: dict, *, target: str = "chat_template") -> Trace:
    """Run `preprocess` and `translate` on `body`, recording every stage."""
    if target not in TARGETS:
        raise ValueError(f"target must be one of {tuple(TARGETS)}, got {target!r}")
    spec = TARGETS[target]
    folded = preprocess(body)  # checks the body first: errors point into it as given
    if target == "openai":
        openai_target.reject_uncarriable(folded)

    recorder = _Recorder(folded)
    namespace = recorder.rebind(spec)
    messages, system, tools = folded["messages"], folded.get("system"), folded.get("tools")
    translated = namespace[spec.messages](messages, system)
    recorder.steps.append(Step("translate_messages", {"messages": messages, "system": system}, translated, ()))
    tools_schema = namespace[spec.tools](tools)
    recorder.steps.append(Step("tools_to_chat_tools", tools, tools_schema, ("tools",)))

    return Trace(
        target=target,
        body=body,
        preprocessed=folded,
        steps=recorder.steps,
        translated=translated,
        tools_schema=tools_schema,
        losses=losses.report(folded, target),
        produced=recorder.produced(translated),
    )


class _Recorder:
    def __init__(self, body: dict):
        self.body = body
        self.steps: list[Step] = []
        self._open: list[tuple[Any, tuple, list]] = []  # units being run: (input, location, helpers)
        self._units: list[tuple[tuple, list, tuple]] = []  # finished: (location, helpers, messages)
        self._depth = 0  # > 0 while a recorded helper runs: its inner helper calls are part of it
        self._messages_seen = 0

    def rebind(self, spec: _Target) -> dict:
        """A copy of the target module's namespace whose functions call each other there,
        with the helpers and units replaced by recording wrappers."""
        namespace = dict(vars(spec.module))
        for name, value in vars(spec.module).items():
            if isinstance(value, types.FunctionType) and value.__module__ == spec.module.__name__:
                copy = types.FunctionType(value.__code__, namespace, name, value.__defaults__, value.__closure__)
                copy.__kwdefaults__ = value.__kwdefaults__
                namespace[name] = copy
        for name in set(spec.helpers) | set(spec.units):
            namespace[name] = self._wrap(spec, name, namespace[name])
        return namespace

    def _wrap(self, spec: _Target, name: str, function: Callable) -> Callable:
        parameters = function.__code__.co_varnames[: function.__code__.co_argcount]
        is_helper, is_unit = name in spec.helpers, name in spec.units
        starts_message, is_system = name == spec.units[1], name == spec.units[0]

        def recorded(*args):
            record = is_helper and self._depth == 0
            if is_system:
                location: tuple = ("system",)
            elif starts_message:  # called once per message, in order
                location = ("messages", self._messages_seen)
                self._messages_seen += 1
            else:
                location = self._locate(args[1] if name == "tool_call_dict" else args[0])
                if name == "tool_call_dict":
                    location = location[:-1]  # the arguments' block, where name and input live
            if is_unit:
                self._open.append((args[0], location, []))
            if record:
                self._depth += 1
            try:
                result = function(*args)
            finally:
                if record:
                    self._depth -= 1
            if record:
                value = args[0] if len(args) == 1 else dict(zip(parameters, args))
                self.steps.append(Step(name, value, result, location))
                if self._open and not is_unit and name not in self._open[-1][2]:
                    self._open[-1][2].append(name)  # the helper serves the innermost unit
            if is_unit:
                helpers = self._open.pop()[2]
                if is_helper:
                    helpers.insert(0, name)
                # a snapshot: the caller may extend the very list a unit returned
                self._units.append((location, helpers, tuple(result) if isinstance(result, list) else (result,)))
            return result

        return recorded

    def _locate(self, target: Any) -> tuple:
        """Find `target` by identity near the innermost open unit's input (at most three
        levels down: message -> content -> block -> field)."""
        unit, location, _helpers = self._open[-1] if self._open else (self.body, (), None)
        found = _find(unit, target, 3)
        if found is None and isinstance(target, list) and len(target) == 1:
            found = _find(unit, target[0], 3)  # flatten_content([block]) for a single block
        return location + found if found is not None else location

    def produced(self, translated: list[dict]) -> list[Produced]:
        """Attribute each translated message to the innermost unit that returned it."""
        position = {id(message): i for i, message in enumerate(translated)}
        claimed: set[int] = set()
        found = []
        for location, helpers, messages in self._units:  # inner units finish first
            ids = [key for key in map(id, messages) if key in position and key not in claimed]
            if ids:
                claimed.update(ids)
                found.append(Produced(location, tuple(position[key] for key in ids), tuple(helpers)))
        return sorted(found, key=lambda p: p.outputs)


def _find(value: Any, target: Any, depth: int) -> Optional[tuple]:
    """The path from `value` down to the object `target` (by identity), or None.
    At each level the children are checked before anything below them."""
    if value is target:
        return ()
    if isinstance(value, dict):
        pairs = list(value.items())
    elif isinstance(value, list):
        pairs = list(enumerate(value))
    else:
        return None
    for key, child in pairs:
        if child is target:
            return (key,)
    if depth > 1:
        for key, child in pairs:
            if isinstance(child, (dict, list)):
                found = _find(child, target, depth - 1)
                if found is not None:
                    return (key,) + found
    return None
