"""The prompt tab: the translated request through a real model family's chat template.

    families()                          the names `tutorial.template_families()` lists
    render_prompt(trace, "qwen3")       -> Prompt: the prompt text and its token count, or
                                        the template's own refusal, or one line on what is missing

This is Action 3's first half, as the rollout adapter runs it: `tutorial.render(translated,
tools_schema, template=family)` gives the text, `tokenize=True` the token ids of the family's
vocabulary. Rendering a real template loads transformers and can take a while on a long
request, so the view calls this off the keystroke path (see view.py); nothing here touches a
widget. Nothing raises out of `render_prompt`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Optional

from ...watch.trace import Trace
from .labels import worded

DEFAULT_FAMILY = "qwen3"
"""The family the tab starts on when it is listed (else the first listed)."""

FALLBACK_TEMPLATES = ("chatml",)
"""Where no real family can be listed (transformers missing), the project's own simplification."""


@dataclass(frozen=True)
class Prompt:
    """One family's rendering of one request.

    text: the prompt (None when it could not be rendered); tokens: how many token ids the
    family's vocabulary gives (None when it could not count them, `tokens_note` says why);
    refusal: the template's own message when it refused the messages (its raise_exception);
    failure: what else stopped the render (the sandbox, an error inside the template);
    missing: one line on how to get what rendering needs (the real templates, transformers)."""

    family: str
    text: Optional[str] = None
    tokens: Optional[int] = None
    tokens_note: Optional[str] = None
    refusal: Optional[str] = None
    failure: Optional[str] = None
    missing: Optional[str] = None


def _api():
    """`tutorial.render` and `tutorial.template_families` (None where this version has none)."""
    import tutorial

    return tutorial.render, getattr(tutorial, "template_families", None)


@functools.lru_cache(maxsize=1)
def families() -> tuple[str, ...]:
    """The families the picker offers: the real ones, else the project's own template."""
    _render, listed = _api()
    if listed is None:
        return FALLBACK_TEMPLATES
    try:
        names = tuple(str(name) for name in listed())
    except Exception:  # listing needs nothing fetched, but say nothing rather than break the tab
        return FALLBACK_TEMPLATES
    return names or FALLBACK_TEMPLATES


def default_family() -> str:
    names = families()
    return DEFAULT_FAMILY if DEFAULT_FAMILY in names else names[0]


def render_prompt(trace: Trace, family: str) -> Prompt:
    """The prompt `family`'s template makes of `trace`'s output, and its token count (what it
    says, in the current language)."""
    render, _listed = _api()
    messages, tools = trace.translated, trace.tools_schema
    try:
        text = render(messages, tools, template=family)
    except Exception as error:  # a refusal, or something the rendering needs and lacks
        missing = _missing(error)
        if missing is not None:
            return Prompt(family, missing=missing)
        refusal = getattr(error, "refusal", None)  # the template's own words (RenderError)
        if refusal is not None:
            return Prompt(family, refusal=refusal)
        return Prompt(family, failure=str(getattr(error, "problem", "") or "") or _one_line(error))
    try:
        ids = render(messages, tools, template=family, tokenize=True)
        tokens, note = len(ids), None
    except Exception as error:  # no vocabulary for this family, a tokenizer that failed, no tokenize= yet
        tokens = None
        if isinstance(error, TypeError) and "tokenize" in str(error):
            note = worded("prompt_no_tokenizer")
        else:
            note = _missing(error) or str(getattr(error, "problem", "") or "") or _one_line(error)
    return Prompt(family, text=text, tokens=tokens, tokens_note=note)


def _missing(error: BaseException) -> Optional[str]:
    """One line on how to fetch what is missing, when `error` says something is missing."""
    if isinstance(error, ImportError):
        return worded("prompt_needs_extra", module=getattr(error, "name", None) or _one_line(error))
    if type(error).__name__ == "SdistMissing":  # tutorial.llama_cpp.sdist: its message says how to fetch
        return _one_line(error)
    cause = error.__cause__ or error.__context__
    if cause is not None and cause is not error:
        return _missing(cause)
    return None


def _one_line(error: Any) -> str:
    try:
        text = str(error)
    except Exception:  # an error whose message cannot be made
        text = ""
    return " ".join(text.split())[:600] or type(error).__name__
