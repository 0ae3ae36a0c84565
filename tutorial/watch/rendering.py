"""Action 3, first half: the chat messages and tool schema become the prompt text.

    translated, tools_schema = translate(body)          # Action 2
    prompt = render(translated, tools_schema)           # what the model will read

In the adapter this step is `_render_token_ids(translated, tokenizer, tools=tools_schema)`:
the tokenizer's chat template (a Jinja template shipped with the model) turns the
messages into text, and the tokenizer turns the text into ids. The ids depend on the
model's tokenizer, so this package stops at the text — which is where the interesting
decisions are anyway: where the tools go, how a tool call and a tool result are marked,
and what a template silently leaves out.

Two templates ship with the package, both written for it (neither is a real model's):
- "chatml": ChatML turns with tools, tool calls, tool results, reasoning and parts;
- "glm_style": a small illustration of one model family's assumption — a tool_reference
  is expanded only when it is the first part of a tool message — which is why the
  "openai" target splits a mixed tool result into several tool messages.

How a template is chosen (`template=`):
- a shipped name: "chatml" or "glm_style" (see `shipped_templates()`);
- a `pathlib.Path` (any os.PathLike): the file is read as UTF-8 template text;
- any other string must contain Jinja markup ("{{", "{%" or "{#") and is used as the
  template text itself, as `tokenizer.chat_template` is. A string that is neither a
  shipped name nor template text is refused with the list of names, so that a typo in a
  name never renders the typo as a one-line "template".

The environment follows the conventions of Hugging Face chat templates, so that a real
model's template renders here as it would there:
- jinja2's *sandboxed*, immutable environment: a template can read the messages and the
  tools but cannot reach Python internals (`''.__class__`) nor change the caller's lists
  and dicts (`messages.append(...)`); either fails with `RenderError`;
- `trim_blocks=True` and `lstrip_blocks=True` (a block tag's own line leaves no blank line);
- a `tojson` filter with HF's keywords (`ensure_ascii=False`, `indent`, `separators`,
  `sort_keys`): Chinese stays readable, and unlike jinja2's built-in `tojson` it does not
  HTML-escape `<`, `>`, `&` and `'`;
- a `raise_exception(message)` global, with which a template refuses messages it cannot
  render (e.g. an unknown role); it surfaces as `RenderError`;
- the variables `messages`, `tools` and `add_generation_prompt`; the loop-control
  extension (`break`, `continue`). Anything else a template reads (`bos_token`, ...) is
  undefined and renders as "".

Message content is data, never template: a message that contains `{{ 7 * 7 }}` renders as
those characters. The template is compiled once; the messages are only values it prints.

What the sandbox does not do: limit time or memory. It caps `range()` at 100 000 items,
but `{{ 10 ** 10 ** 8 }}` written in a *template* would still run for a long time. Render
only templates you would be willing to run; messages, on the other hand, may hold anything.

jinja2 is imported here only; `import tutorial` does not load this module.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Optional, Union

import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

__all__ = ["RenderError", "render", "shipped_templates", "template_source", "tojson"]

TEMPLATE_SUFFIX = ".jinja"


class RenderError(ValueError):
    """A template that cannot render these messages, or that broke the sandbox's rules.

    `str(error)` names the template first ("chat template 'chatml': ..."); the attributes
    `template` (that name) and `problem` (what went wrong) hold the two parts. The jinja2
    exception behind it, if any, is the `__cause__`.
    """

    def __init__(self, template: str, problem: str):
        self.template = template
        self.problem = problem
        super().__init__(f"chat template {template}: {problem}")


class _Refused(jinja2.TemplateError):
    """Raised by `raise_exception` inside a template; `render` turns it into RenderError."""


# ---------------------------------------------------------------------------
# The environment


def tojson(value: Any, ensure_ascii: bool = False, indent: Optional[int] = None,
           separators: Optional[tuple] = None, sort_keys: bool = False) -> str:  # fmt: skip
    """The `tojson` filter of HF chat templates: plain `json.dumps`, non-ASCII kept readable.

    `{{ tool | tojson }}`, `{{ tool | tojson(indent=4) }}`, `{{ x | tojson(sort_keys=true) }}`.
    """
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def raise_exception(message: Any) -> None:
    """`{{ raise_exception("...") }}`: a template refuses the messages it was given."""
    raise _Refused(str(message))


class _Sandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox, failing *at once* on an unsafe attribute.

    The stock sandbox returns an undefined value for `''.__class__`, which raises only
    when used further (`''.__class__.__mro__`) and prints as "" otherwise — a template
    that tries would then render quietly. Here the attempt itself is the error.
    """

    def unsafe_undefined(self, obj: Any, attribute: str) -> Any:
        raise SecurityError(f"access to attribute {attribute!r} of {type(obj).__name__!r} object is unsafe")


@lru_cache(maxsize=None)
def _environment() -> _Sandbox:
    env = _Sandbox(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    return env


@lru_cache(maxsize=64)
def _compile(source: str) -> jinja2.Template:
    return _environment().from_string(source)


# ---------------------------------------------------------------------------
# The shipped templates


def _templates_dir():
    return resources.files(__package__).joinpath("templates")


def shipped_templates() -> list[str]:
    """The names of the templates in `tutorial/templates/` (e.g. ["chatml", "glm_style"])."""
    names = (entry.name for entry in _templates_dir().iterdir())
    return sorted(name[: -len(TEMPLATE_SUFFIX)] for name in names if name.endswith(TEMPLATE_SUFFIX))


def template_source(name: str) -> str:
    """The text of a shipped template, to read beside what it renders."""
    if name not in shipped_templates():
        raise ValueError(f"no shipped chat template {name!r}; shipped: {', '.join(shipped_templates())}")
    return _templates_dir().joinpath(name + TEMPLATE_SUFFIX).read_text("utf-8")


TemplateChoice = Union[str, "os.PathLike[str]"]


def _resolve(template: TemplateChoice) -> tuple[str, str]:
    """`template` -> (a label naming it in errors, the template text)."""
    if isinstance(template, os.PathLike):
        path = Path(template)
        return f"file {str(path)!r}", path.read_text("utf-8")
    if not isinstance(template, str):
        raise TypeError(f"template must be a shipped name, a path or template text, got {type(template).__name__}")
    if template in shipped_templates():
        return repr(template), template_source(template)
    if any(mark in template for mark in ("{{", "{%", "{#")):
        return "given as text", template
    raise ValueError(
        f"unknown chat template {template!r}: shipped templates are {', '.join(shipped_templates())}; "
        "pass a pathlib.Path to render a file, or template text containing Jinja tags"
    )


# ---------------------------------------------------------------------------
# Rendering


def render(
    messages: list[dict],
    tools: Optional[list[dict]] = None,
    *,
    template: TemplateChoice = "chatml",
    add_generation_prompt: bool = True,
) -> str:
    """The prompt text for `messages` (and the available `tools`), through a chat template.

    `messages` and `tools` are what `translate(body, target=...)` returns, for either
    target. With `add_generation_prompt` the text ends with the opening of an assistant
    turn, which is where the model starts writing. Nothing given is changed.

    Raises `RenderError` (naming the template) when the template has a syntax error,
    breaks the sandbox's rules, or refuses the messages through `raise_exception`.
    """
    if not isinstance(messages, list):
        raise TypeError(f"messages must be a list of message dicts, got {type(messages).__name__}")
    label, source = _resolve(template)
    try:
        compiled = _compile(source)
        return compiled.render(messages=messages, tools=tools, add_generation_prompt=add_generation_prompt)
    except _Refused as error:
        raise RenderError(label, f"refused the messages: {error}") from error
    except SecurityError as error:
        raise RenderError(
            label,
            f"the sandbox stopped it: {error}. A chat template may read the messages and tools, "
            "not Python internals, and may not change them",
        ) from error
    except jinja2.TemplateSyntaxError as error:
        raise RenderError(label, f"syntax error on line {error.lineno}: {error.message}") from error
    except jinja2.TemplateError as error:
        raise RenderError(label, f"{type(error).__name__}: {error}") from error
    except OverflowError as error:  # the sandbox's cap on range()
        raise RenderError(label, f"the sandbox stopped it: {error}") from error
