"""One line instead of a traceback when the package is run by a Python that lacks its
requirements: `python3 -m tutorial doctor` with the system's python3, say, outside .venv/.

Standard library only: it runs before (and instead of) the package's own imports.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]  # a source checkout: tasks.py and .venv/ live here
PROJECT_PYTHON = Path(".venv", "Scripts", "python") if os.name == "nt" else Path(".venv", "bin", "python")

WORDS = {
    "en": {
        "lacks": "{python} cannot run the package ({missing}): it is not the project's Python.",
        "use": "Use .venv's: {command}",
        "setup": "First create it: python3 tasks.py setup (then: {command})",
    },
    "zh": {
        "lacks": "{python} 运行不了本包（{missing}），因为它不是本项目的 Python。",
        "use": "请改用 .venv 里的 Python 运行 {command}",
        "setup": "请先运行 python3 tasks.py setup 创建 .venv，然后运行 {command}",
    },
}


def chinese_wanted(argv: list[str], environ) -> bool:
    """--lang zh, else TUTORIAL_LANG, else a Chinese locale (the rule tutorial/cli/words.py applies)."""
    for index, item in enumerate(argv):
        if item == "--lang" and index + 1 < len(argv):
            return argv[index + 1] == "zh"
        if item.startswith("--lang="):
            return item.split("=", 1)[1] == "zh"
    if environ.get("TUTORIAL_LANG") in ("en", "zh"):
        return environ["TUTORIAL_LANG"] == "zh"
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        if environ.get(name):
            return environ[name].lower().startswith("zh")
    return False


def advice(missing: str, argv: list[str] | None, environ=os.environ) -> str:
    """What to type instead, in two short sentences on one line; `argv`: the command's arguments
    (None: not run as a command, so the advice names the project's python alone)."""
    words = WORDS["zh" if chinese_wanted(argv or [], environ) else "en"]
    here = Path.cwd().resolve() == ROOT
    python = PROJECT_PYTHON if here else ROOT / PROJECT_PYTHON  # relative where the README's commands run
    command = " ".join([str(python), *(["-m", "tutorial", *argv] if argv is not None else [])])
    have_venv = (ROOT / PROJECT_PYTHON).exists() or (ROOT / PROJECT_PYTHON).with_suffix(".exe").exists()
    then = words["use" if have_venv else "setup"].format(command=command)
    space = "" if words is WORDS["zh"] else " "
    return words["lacks"].format(python=sys.executable or "this Python", missing=missing) + space + then


def stop_if_run_as_a_command(error: ImportError) -> None:
    """Under `python -m tutorial ...` print the advice and exit 1; an `import tutorial` in a
    program gets the ImportError back, with the advice as its message."""
    missing = str(error)
    if sys.argv and sys.argv[0] == "-m":  # what runpy sets while it imports the package for -m
        print(advice(missing, sys.argv[1:]), file=sys.stderr)
        raise SystemExit(1)
    raise ImportError(advice(missing, None), name=error.name) from error
