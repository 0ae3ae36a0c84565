"""Reading the exercise bank's texts in a chosen language, for the tests of exercises, hints
and answers in view (one place, so the three files agree on how a language is chosen)."""

from __future__ import annotations

from tutorial import words
from tutorial.words import using


def text_in(lang: str, exercise, name: str):
    """`exercise.text(name)` in `lang`."""
    with using(lang):
        return exercise.text(name)


def hint_in(lang: str, mistake) -> str:
    """A named mistake's hint in `lang`."""
    with using(lang):
        return mistake.text()


def set_language(lang):
    """The process's language for this test, as a chapter's use_language sets it (None: none
    chosen); tests/conftest.py puts the choice back after each test."""
    words._chosen = None if lang is None else words.check(lang)
