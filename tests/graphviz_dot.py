"""Running Graphviz's real `dot` in tests: found on PATH, required in CI."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def find_dot() -> str:
    found = shutil.which("dot")
    if found is None:
        message = "Graphviz's `dot` is not installed (apt-get install graphviz)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must render the diagrams")
        pytest.skip(message)
    return found


def run_dot(dot_program: str, source: str) -> str:
    """Render with the real program; any error or warning fails the test."""
    done = subprocess.run([dot_program, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert not done.stderr, done.stderr.decode("utf-8", "replace")
    return done.stdout.decode("utf-8")
