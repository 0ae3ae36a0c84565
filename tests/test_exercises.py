"""The exercises can be answered, and their verdicts can fail.

Every exercise gives ✓ for its right answer and ✗ for a tempting wrong one, through the
same `check` a learner calls. Then every chapter is run top to bottom twice with nbclient:
once with the right answer in every exercise cell (every verdict must be ✓), once with the
wrong one (every verdict must be ✗). A check that cannot fail is a defect.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutorial.notebook import exercises as ex

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb")) + sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]*_*.ipynb"))
ANSWER_LINE = re.compile(r"^(\s*[A-Za-z_]\w*\s*=\s*)\.\.\.(\s*#.*)?$", re.MULTILINE)
BANK = ex.all_exercises()


def exercise_cells(notebook: dict) -> list[tuple[int, str]]:
    return [
        (index, cell["metadata"]["exercise"])
        for index, cell in enumerate(notebook["cells"])
        if "exercise" in cell["metadata"].get("tags", [])
    ]


def answered(source: str, key: str, which: str) -> str:
    """The cell's source with the learner's line filled in (or the whole cell replaced)."""
    chapter = key.split(".", 1)[0]
    written = ex.solutions(chapter).get(key)
    if written:
        return written[which]
    exercise = ex.get(key)
    value = exercise.expected() if which == "right" else exercise.wrong
    filled, count = ANSWER_LINE.subn(lambda m: m.group(1) + repr(value) + (m.group(2) or ""), source, count=1)
    assert count == 1, f"exercise cell {key!r} has no `name = ...  # edit this line` line"
    return filled


def test_there_are_enough_exercises():
    assert len(BANK) >= 25, sorted(BANK)


@pytest.mark.parametrize("key", sorted(BANK))
def test_right_answer_passes_and_the_misconception_fails(key):
    exercise = BANK[key]
    right, wrong = ex.check(key, exercise.expected()), ex.check(key, exercise.wrong)
    assert repr(right).startswith("✓"), right
    assert repr(wrong).startswith("✗"), wrong
    assert repr(ex.check(key, ...)).startswith("…")
    if exercise.choices:
        assert exercise.expected() in exercise.choices
        assert all(letter in exercise.feedback for letter in exercise.choices if letter != exercise.expected()), (
            "every wrong option needs its own feedback"
        )


@pytest.mark.parametrize("key", sorted(BANK))
def test_a_wrong_verdict_never_shows_the_answer(key):
    expected = BANK[key].expected()
    if isinstance(expected, str) and len(expected) > 3 and not BANK[key].choices:
        assert expected not in repr(ex.check(key, BANK[key].wrong))


def test_every_exercise_is_asked_in_a_chapter_and_no_chapter_stores_a_verdict():
    asked = {}
    for path in CHAPTERS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for index, key in exercise_cells(notebook):
            assert key in BANK, f"{path.name} cell {index}: unknown exercise {key!r}"
            asked.setdefault(key, []).append(path.name)
            outputs = json.dumps(notebook["cells"][index].get("outputs", []), ensure_ascii=False)
            assert "✓" not in outputs and "✗" not in outputs, f"{path.name} cell {index} stores a verdict"
    english = {k: [p for p in v if not p.startswith("zh")] for k, v in asked.items()}
    assert sorted(english) == sorted(BANK), f"exercises no chapter asks: {sorted(set(BANK) - set(english))}"


def _run(path: Path, which: str) -> list[tuple[str, str]]:
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    cells = exercise_cells(notebook)
    for index, key in cells:
        notebook.cells[index].source = answered(notebook.cells[index].source, key, which)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    found = []
    for index, key in cells:
        text = "".join(
            "".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) for o in notebook.cells[index].outputs
        )
        found.append((key, text))
    return found


WITH_EXERCISES = [p for p in CHAPTERS if exercise_cells(json.loads(p.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=[p.name for p in WITH_EXERCISES])
def test_chapter_with_every_answer_right_gives_only_ticks(path):
    for key, text in _run(path, "right"):
        assert "✓" in text and "✗" not in text, f"{key}: {text!r}"


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=[p.name for p in WITH_EXERCISES])
def test_chapter_with_every_answer_wrong_gives_only_crosses(path):
    for key, text in _run(path, "wrong"):
        assert "✗" in text and "✓" not in text, f"{key}: {text!r}"
