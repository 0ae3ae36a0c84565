#!/usr/bin/env python3
"""git's clean filter for notebooks: a notebook whose only change is this machine's kernel
description is not a change.

    git config filter.notebook-kernel.clean "PYTHON scripts/git_notebook_filter.py %f"
    .gitattributes:  *.ipynb filter=notebook-kernel

JupyterLab marks a notebook modified when its stored `language_info` (the Python version
included) differs from what the running kernel reports, and then saves it so. So that chapters
open unmodified on every Python the README names, `tasks.py lab` writes this machine's
`language_info` into them before JupyterLab starts; this filter keeps that from showing up in
`git status`, `git diff` or a commit.

git hands the working-tree file on stdin; this prints, unchanged, either that file or the
version git already has (the index's). The index's version is printed only when the two
notebooks are equal once `metadata.language_info` and `metadata.kernelspec` are set aside;
any other difference (a cell, an output, other metadata) passes through untouched, with the
kernel description it came with. Nothing here writes a file. Standard library only, so it runs
with any Python 3.
"""

from __future__ import annotations

import json
import subprocess
import sys

MACHINE_LOCAL = ("language_info", "kernelspec")
"""Notebook metadata that describes the machine's kernel, not the chapter."""


def without_machine_local(notebook: object) -> object:
    if not isinstance(notebook, dict) or not isinstance(notebook.get("metadata"), dict):
        return notebook
    metadata = {key: value for key, value in notebook["metadata"].items() if key not in MACHINE_LOCAL}
    return {**notebook, "metadata": metadata}


def indexed(path: str) -> bytes | None:
    """The index's version of `path`, or None when git has none."""
    try:
        result = subprocess.run(["git", "cat-file", "blob", f":{path}"], capture_output=True)
    except OSError:
        return None
    return result.stdout if result.returncode == 0 else None


def clean(working: bytes, index: bytes | None) -> bytes:
    if index is None or index == working:
        return working
    try:
        ours, theirs = json.loads(working), json.loads(index)
    except ValueError:  # not JSON (a merge in progress, say): git sees it as it is
        return working
    return index if without_machine_local(ours) == without_machine_local(theirs) else working


def main(arguments: list[str]) -> int:
    working = sys.stdin.buffer.read()
    result = clean(working, indexed(arguments[0]) if arguments else None)
    sys.stdout.buffer.write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
