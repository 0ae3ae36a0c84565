"""What transformers' `apply_chat_template` adds around a chat template, so `render` gives the same text.

From transformers 5.x `utils/chat_template_utils.py` (`_compile_jinja_template`,
`_normalize_chat_messages`, `_alias_reasoning_fields`), written again here:
- globals `strftime_now` (today's date; gpt-oss and Mistral-Small print it), `dict`,
  `namespace` (refusing names that start with "_"), and the `{% generation %}` tag;
- before the template runs, each message loses its keys whose value is None, and a
  message's reasoning is given under both `thinking` and `reasoning_content`.

`frozen_today(when)` fixes the date `strftime_now` reports inside a block, so that a
chapter's stored output (and a stored expected prompt) stays true on another day.
rendering.py puts these into its sandbox; the sandbox's own bounds apply to them too.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime
from typing import Any, Optional

import jinja2.ext
import jinja2.nodes
import jinja2.utils
from jinja2.sandbox import SecurityError

from ..words import words_for

__all__ = ["as_apply_chat_template_does", "frozen_today", "globals_and_extensions", "strftime_now"]

# What these helpers say when a template misuses them, per language (tutorial.words picks which).
WORDS = {
    "en": {"format": "strftime_now takes a format string of at most 200 characters",
           "namespace": "a namespace may not hold a name starting with '_' ({name!r})"},
    "zh": {"format": "strftime_now 的格式字符串最多 200 个字符",
           "namespace": "namespace 里的名字不能以 '_' 开头（{name!r}）"},
}  # fmt: skip


_TODAY: contextvars.ContextVar[Optional[datetime.datetime]] = contextvars.ContextVar("render_today", default=None)


def strftime_now(format: str) -> str:  # noqa: A002 - the name templates call it with
    """`{{ strftime_now("%Y-%m-%d") }}`: today, as transformers gives it (gpt-oss and Mistral print the date)."""
    if not isinstance(format, str) or len(format) > 200:  # a format cannot build a long string
        raise ValueError(words_for(WORDS, "format"))
    return (_TODAY.get() or datetime.datetime.now()).strftime(format)


@contextlib.contextmanager
def frozen_today(when: datetime.datetime):
    """Within the block, `strftime_now` reports `when`: a chapter's stored output stays true tomorrow."""
    token = _TODAY.set(when)
    try:
        yield
    finally:
        _TODAY.reset(token)


class _TemplateDict:
    """`dict(...)` in a template, as transformers offers it (a call, and `fromkeys`)."""

    def __call__(self, *args: Any, **kwargs: Any) -> dict:
        return dict(*args, **kwargs)

    def fromkeys(self, *args: Any, **kwargs: Any) -> dict:
        return dict.fromkeys(*args, **kwargs)


class _Namespace(jinja2.utils.Namespace):
    """`namespace(...)` refusing names that start with "_", as transformers' does."""

    def __init__(*args: Any, **kwargs: Any) -> None:  # noqa: N805 - jinja2's own signature trick
        self, args = args[0], args[1:]
        attributes = dict(*args, **kwargs)
        for name in attributes:
            _Namespace._check_name(name)
        jinja2.utils.Namespace.__init__(self, attributes)

    def __setitem__(self, name: Any, value: Any) -> None:
        _Namespace._check_name(name)
        jinja2.utils.Namespace.__setitem__(self, name, value)

    @staticmethod
    def _check_name(name: Any) -> None:
        if isinstance(name, str) and name.startswith("_"):
            raise SecurityError(words_for(WORDS, "namespace", name=name))


class _Generation(jinja2.ext.Extension):
    """`{% generation %}...{% endgeneration %}`: transformers marks the assistant's own text
    with it (for training masks); rendering prints the body as it is."""

    tags = {"generation"}

    def parse(self, parser: Any) -> jinja2.nodes.CallBlock:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller: Any) -> str:
        return caller()


# Names a message's reasoning is passed under, as transformers reads them (the first is the standard one).
_REASONING_FIELDS = ("reasoning_content", "thinking", "reasoning")


def as_apply_chat_template_does(messages: list) -> list:
    """What `apply_chat_template` gives the template: None-valued keys dropped, reasoning under two names.

    New dicts; the caller's messages stay as they are. A non-dict entry is left for the
    template to meet (it is refused by `limits.check_json` before, if it is not JSON).
    """
    prepared = []
    for message in messages:
        if isinstance(message, dict):
            message = {key: value for key, value in message.items() if value is not None}
            reasoning = next((message[key] for key in _REASONING_FIELDS if message.get(key) is not None), None)
            if reasoning is not None:
                message = {"thinking": reasoning, **message, "reasoning_content": reasoning}
        prepared.append(message)
    return prepared




def globals_and_extensions() -> tuple[dict, list]:
    """The globals and extensions transformers' environment has beyond jinja2's."""
    return {"strftime_now": strftime_now, "dict": _TemplateDict(), "namespace": _Namespace}, [
        _Generation, "jinja2.ext.loopcontrols",
    ]  # fmt: skip
