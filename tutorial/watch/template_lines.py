"""Which line of a chat template wrote the character at a given offset of its output.

    line_at("qwen3", messages, tools, True, 658)   # Line(46, "{{- '<|im_start|>' + message.role + ...")

The template is compiled as `render` compiles it (rendering.py's sandbox, globals and filters,
through an overlay of its environment), but by `_LineGenerator`, which puts a line mark before
every output node: jinja2 alone folds constant output (`{{ '</think>' }}`, literal text) into a
`yield` that carries no line of its own, so that text would be named by the statement before it.
The root function's generator is then stepped by hand; the Python line it is suspended at,
mapped back through jinja2's debug information, is the template line that yielded the piece.
A macro's text is named by the line that calls it, a literal spanning several lines by its first.
The drift table (drift.py) names with it the lines where two prompts part.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

import jinja2.nodes

from . import families
from .conventions import as_apply_chat_template_does
from .rendering import _environment, _Generator
from .template_budget import BUDGET, Budget

__all__ = ["Line", "line_at", "pieces"]


@dataclass(frozen=True)
class Line:
    """A line of the family's template: its number (1-based) and its text, stripped."""

    number: int
    source: str


def line_at(family: str, messages: list, tools: Optional[list], generation_prompt: bool, offset: int) -> Optional[Line]:
    """The line of `family`'s template that wrote character `offset` of its rendering of
    `messages` (None past the end)."""
    source = families.family(family).template_text
    for end, number in pieces(family, messages, tools, generation_prompt):
        if offset < end:
            text = source.splitlines()[number - 1].strip() if number else ""
            return Line(number, text[:160])
    return None


def pieces(family: str, messages: list, tools: Optional[list], generation_prompt: bool) -> list[tuple[int, int]]:
    """(end offset, template line) of each piece of text the template yields, in order.
    The date `strftime_now` reports is the caller's (`frozen_today`), as in `render`."""
    compiled = _compile(families.family(family).template_text)
    given = {"messages": as_apply_chat_template_does(messages), "tools": tools, "documents": None,
             "add_generation_prompt": generation_prompt, **families.family(family).special_tokens}  # fmt: skip
    found, end = [], 0
    budget = BUDGET.set(Budget())
    try:
        generator = compiled.root_render_func(compiled.new_context(given))
        for piece in generator:
            end += len(piece)
            found.append((end, compiled.get_corresponding_lineno(generator.gi_frame.f_lineno)))
    finally:
        BUDGET.reset(budget)
    return found


class _LineGenerator(_Generator):
    """Each output node written on its own, after a line mark for its first child."""

    def visit_Output(self, node: Any, frame: Any) -> None:
        if len(node.nodes) > 1:
            for child in node.nodes:
                self.visit_Output(jinja2.nodes.Output([child], lineno=child.lineno), frame)
            return
        if node.nodes:
            self.newline(node.nodes[0])
        super().visit_Output(node, frame)


@lru_cache(maxsize=None)
def _line_environment():
    """render's environment, sharing its filters and globals, with `_LineGenerator` as code generator."""
    environment = _environment().overlay()
    environment.code_generator_class = _LineGenerator
    return environment


@lru_cache(maxsize=32)
def _compile(source: str):
    return _line_environment().from_string(source)
