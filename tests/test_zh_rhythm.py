"""The Chinese edition's rhythm (issue 32): scripts/zh_rhythm.py measures full-width colons,
semicolons and 它 per 1,000 Chinese characters of prose; the files in CHECKED must meet the
targets (colons ≤ 6, semicolons ≤ 2, 它 ≤ 5).

Every file the script measures is held to them (CHECKED = "all"): the rewrite for rhythm has
landed on every chapter, both READMEs and the glossary.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("zh_rhythm", ROOT / "scripts" / "zh_rhythm.py")
zh_rhythm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zh_rhythm)

# The files held to the targets, relative to the repository ("all": every file the script measures).
CHECKED: "list[str] | str" = "all"


def checked() -> list[Path]:
    if CHECKED == "all":
        return zh_rhythm.files()
    return [ROOT / name for name in CHECKED]


def test_the_measure_counts_prose_only():
    text = "短句。它在这里：一个冒号；一个分号。`代码：；它` [链接](https://例子.com/：) ```\n它：；\n```"
    rhythm = zh_rhythm.measure(zh_rhythm._CODE.sub(" ", text))
    characters = len("短句它在这里一个冒号一个分号链接")
    assert rhythm.characters == characters
    assert rhythm.colons == pytest.approx(1000 / characters)
    assert rhythm.semicolons == pytest.approx(1000 / characters) and rhythm.it == pytest.approx(1000 / characters)
    assert zh_rhythm.measure("它" * 10 + "好" * 990).over() == ["it 10.0 > 5"]


def test_the_script_measures_every_chinese_page():
    names = {str(path.relative_to(ROOT)) for path in zh_rhythm.files()}
    assert {"README.zh.md", "notebooks/zh/README.md", "notebooks/zh/glossary.md", "notebooks/zh/01_request.ipynb"} <= names
    assert len([name for name in names if name.endswith(".ipynb")]) == len(list((ROOT / "notebooks" / "zh").glob("*.ipynb")))


def test_checked_files_meet_the_targets():
    paths = checked()
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "zh_rhythm.py"), *map(str, paths), "--check"],
                            capture_output=True, text=True) if paths else None  # fmt: skip
    assert result is None or result.returncode == 0, result.stdout
