"""The language the apparatus writes its prose in: "en" (the default) or "zh".

Captions, playground labels, verdicts and hints can be written in either language; the
lesson's own error messages stay English (they are part of the contract). A function
that writes prose takes `lang=None`, meaning "the current language": the `TUTORIAL_LANG`
environment variable when it is set, else "zh" for a notebook opened from `notebooks/zh/`
(Jupyter starts its kernel in the notebook's folder), else "en". So the Chinese edition's
code cells are the English ones, byte for byte, and still speak Chinese.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

LANGUAGES = ("en", "zh")


def current() -> str:
    chosen = os.environ.get("TUTORIAL_LANG", "")
    if chosen in LANGUAGES:
        return chosen
    try:
        return "zh" if Path.cwd().name == "zh" else "en"
    except OSError:  # the working folder was removed
        return "en"


def resolve(lang: Optional[str]) -> str:
    """`lang` itself when it names a language, the current one when it is None."""
    if lang is None:
        return current()
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    return lang
