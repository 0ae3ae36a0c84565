"""Moved to `tutorial.words` (issue 37: language in one room). These names stay importable from
here while callers move (tutorial/peers, scripts/workshop.py, a few tests); new code imports
`tutorial.words`."""

from __future__ import annotations

from typing import Optional

from ..words import (  # noqa: F401  (re-exported)
    JSON_MESSAGES,
    JSON_OTHER,
    LANGUAGES,
    OS_ERRORS_ZH,
    check as _check,
    chosen,
    columns,
    current,
    from_accept_language,
    from_locale,
    pad,
    use_language,
    using,
)


def resolve(lang: Optional[str]) -> str:
    """`lang` itself when it names a language, the current one when it is None."""
    return current() if lang is None else _check(lang)
