"""`recall(chapter, show=True)` answers in a fresh kernel, for every chapter that has a recall
cell, in both editions: nothing else need run first (issue 28 found 04b raising KeyError
unless one of its exercises had been checked)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted({match for path in (ROOT / "notebooks").glob("*.ipynb")
                   for match in re.findall(r'recall\(\\"([0-9a-z]+)\\"', path.read_text(encoding="utf-8"))})

# One fresh interpreter per chapter and edition, as a notebook's first recall cell would be.
PROGRAM = """
import sys
import tutorial
from tutorial.notebook.exercises import recall
if sys.argv[2] == "zh":
    tutorial.use_language("zh")
print(repr(recall(sys.argv[1], show=True)))
"""


def test_every_chapter_has_a_recall_cell():
    assert len(CHAPTERS) >= 12 and "04b" in CHAPTERS, CHAPTERS


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_recall_shows_the_model_answers_in_a_fresh_interpreter(chapter, lang):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TUTORIAL_LANG": "en"}
    done = subprocess.run([sys.executable, "-c", PROGRAM, chapter, lang], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    marker = "参考答案：" if lang == "zh" else "model answer: "
    assert done.stdout.startswith("1. ") and done.stdout.count(marker) >= 2, done.stdout
    if lang == "zh":
        assert "model answer" not in done.stdout


def test_a_chapter_without_recall_questions_is_named_not_a_bare_key_error():
    from tutorial.notebook.exercises import recall

    with pytest.raises(KeyError, match="no recall questions for chapter '99'"):
        recall("99", show=True)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_a_chinese_chapters_recall_cell_speaks_chinese_in_a_fresh_kernel(chapter):
    """Issue 36: the learner restarts the kernel and runs only the recall cell of a Chinese
    chapter (its first cell, which sets the language, not run): the cell itself names the
    language, so the model answers come in Chinese whatever the machine's language is."""
    import nbformat

    path = next((ROOT / "notebooks" / "zh").glob(f"{chapter}_*.ipynb"))
    cell = next(cell for cell in nbformat.read(path, as_version=4).cells
                if cell.cell_type == "code" and f'recall("{chapter}"' in cell.source)  # fmt: skip
    source = cell.source.replace("show=False", "show=True")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TUTORIAL_LANG": "en", "LANG": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("参考答案：") >= 2 and "model answer" not in done.stdout, done.stdout
