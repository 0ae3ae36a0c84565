"""The lesson's located errors in Chinese, keyed by the English template the lesson raises with.

The lesson writes `RequestError(location, "must be {what}, got {got}", what="a string", got="int")`;
the Chinese reader meets `必须是字符串，实际是 int`: the template below under the same key, its
values filled in. A value that is a phrase the lesson writes ("a string", "a user message") is
looked up in PHRASES under the same English; a value that is itself an error is told in Chinese
too; any other value (a type name, a quoted value, a number) stays as it is. Nothing is read back
from an English sentence. `tests/test_words.py` checks every template the lesson raises with has
its Chinese here, with the same placeholders.
"""

from __future__ import annotations

from typing import Any, Mapping

TEXTS: dict[str, str] = {}

PHRASES: dict[str, str] = {}

# While the lesson's raises move to keys (issue 37), watch/error_words.py reads the rest. Temporary.
FALLBACK = lambda problem: problem  # noqa: E731


def chinese(key: str, values: Mapping[str, Any]) -> str:
    """The error's problem in Chinese, formatted forward from its key and values."""
    template = TEXTS.get(key)
    if template is None:  # not keyed yet: the lesson's English as it is
        english = key.format(**{name: _english(value) for name, value in values.items()}) if values else key
        return FALLBACK(english)
    return template.format(**{name: _value(value) for name, value in values.items()}).replace("  ", " ")


def _value(value: Any) -> Any:
    if hasattr(value, "key") and hasattr(value, "values"):  # a problem inside a problem
        return chinese(value.key, value.values)
    if isinstance(value, str) and value in PHRASES:
        return PHRASES[value]
    return value


def _english(value: Any) -> Any:
    return value.problem if hasattr(value, "key") and hasattr(value, "values") else value
