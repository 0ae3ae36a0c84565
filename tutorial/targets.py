"""The targets Action 2 can translate to, in one small table.

A target is a name and three functions: the messages path (history and system prompt
-> chat messages), the tools path (tool definitions -> function-tool schema) and what it
refuses (a check that raises a located `RequestError` for what its shape cannot carry).
Each target module adds its own row when it is imported, so no target imports another,
and `translate` looks its paths up here by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from .errors import ArgumentError
from .limits import shown


@dataclass(frozen=True)
class Target:
    name: str
    messages_path: Callable[[list, Any], list[dict]]
    tools_path: Callable[[Optional[list]], Optional[list[dict]]]
    refuse: Callable[[dict], None]  # raises RequestError for the first thing it cannot carry


_TARGETS: dict[str, Target] = {}


def register(target: Target) -> Target:
    _TARGETS[target.name] = target
    return target


def names() -> tuple[str, ...]:
    """The registered targets, the default ("chat_template") first."""
    return tuple(_TARGETS)


def get(name: str) -> Target:
    """The target called `name`; a clear ValueError (`ArgumentError`, said in the current
    language) when there is none: a wrong argument from the caller's code, not bad input."""
    try:
        return _TARGETS[name]
    except (KeyError, TypeError):
        raise ArgumentError("target must be one of {names}, got {got}",
                            names=tuple(repr(known) for known in names()), got=shown(name)) from None


def check_target(name: str) -> str:
    """`name` itself when it names a target; the same ValueError as `get` otherwise."""
    return get(name).name


def refuses_nothing(body: dict) -> None:
    """For a target that carries everything the contract accepts."""
