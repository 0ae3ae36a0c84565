"""Shared fixtures: the README example and the brief's expected outputs.

The expected values are the brief's files (copied into tests/data/brief so a clone
works on its own), never values computed by the package.
"""

from __future__ import annotations

import json
from pathlib import Path

import os

import pytest
from hypothesis import settings

# CI runs the property tests on a fixed seed sequence, so a landed commit cannot fail later
# by chance; locally every run explores new examples.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

DATA = Path(__file__).parent / "data"


def load(name: str):
    return json.loads((DATA / name).read_text(encoding="utf-8"))


@pytest.fixture
def readme() -> dict:
    return load("brief/request.json")


@pytest.fixture
def brief_translated() -> list:
    return load("brief/translated.json")


@pytest.fixture
def brief_tools_schema() -> list:
    return load("brief/tools_schema.json")


@pytest.fixture(autouse=True)
def _each_test_starts_in_the_default_language():
    """The language is process state (use_language) and context state (the server's per-request
    choice, use_language_here): a test that sets either must not speak for the next test."""
    from tutorial import words

    chosen = words.chosen()
    words._inside.set(None)
    yield
    words._chosen = chosen
    words._inside.set(None)
