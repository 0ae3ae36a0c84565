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


def test_every_chapter_from_01_to_13_has_recall_questions_but_the_cheat_sheet():
    """Review L20 (zh-review-2): chapter 13 ended without the three closing sections, and
    recall("13") raised a KeyError."""
    assert set(CHAPTERS) == {f"{n:02d}" for n in range(1, 14)} - {"12"} | {"04b"}, CHAPTERS


@pytest.mark.parametrize("show", [False, True])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chapter_without_recall_questions_is_told_so_in_the_current_language(lang, show):
    """A learner who types a chapter that has no questions reads why, in the edition's language,
    with the chapters that have them (04b and 13 included, in a fresh interpreter): no KeyError."""
    program = (
        "import tutorial\n"
        "from tutorial.notebook.exercises import recall\n"
        f"tutorial.use_language({lang!r})\n"
        f"print(recall('99', show={show}))\n"
        f"print(recall('12', show={show}, lang={lang!r}))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TUTORIAL_LANG": "en"}
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, encoding="utf-8",
                          env=env, cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.strip().splitlines()
    if lang == "zh":
        assert first == ("第 99 章没有思考题，有思考题的是第 "
                         "01、02、03、04、04b、05、06、07、08、09、10、11、13 章。"), first  # fmt: skip
        assert second.startswith("第 12 章没有") and "no recall" not in second.lower()
    else:
        assert first == ("Chapter 99 has no recall questions. The chapters that have them: "
                         "01, 02, 03, 04, 04b, 05, 06, 07, 08, 09, 10, 11, 13."), first  # fmt: skip
        assert second.startswith("Chapter 12 has no recall questions.")


def test_a_chapter_given_as_a_number_is_its_two_digits():
    from tutorial.notebook.exercises import recall

    assert str(recall(13, show=True, lang="en")) == str(recall("13", show=True, lang="en"))
    assert str(recall(8, lang="zh")) == str(recall("08", lang="zh"))


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
