"""nbval and the answer-free chapters (here at the root, not in notebooks/, so the learner's file
browser under notebooks/ shows chapters only).

A chapter stores no output in its `reveal` and `solution` cells, so a learner sees an answer
only after running the cell that shows it. Those outputs are kept in notebooks/.reveals/ by
scripts/run_notebooks.py; here nbval is given them as the cells' expected outputs, so an answer
cell is compared, in strict mode, exactly like every other cell.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

NOTEBOOKS = Path(__file__).resolve().parent / "notebooks"
REVEALS = NOTEBOOKS / ".reveals"
ANSWER_TAGS = {"reveal", "solution"}


def expected_answers(notebook_path: Path) -> dict:
    """{cell id: outputs} stored for a notebook's answer cells (empty when there is no file)."""
    path = (REVEALS / notebook_path.resolve().relative_to(NOTEBOOKS)).with_suffix(".json")
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["outputs"]


def pytest_collection_modifyitems(items):
    answers_by_notebook: dict[Path, dict] = {}
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is None or type(item).__name__ != "IPyNbCell":
            continue
        if not ANSWER_TAGS & set(cell.get("metadata", {}).get("tags", [])):
            continue
        notebook = Path(str(item.fspath)).resolve()
        if not notebook.is_relative_to(NOTEBOOKS):
            continue
        if notebook not in answers_by_notebook:
            answers_by_notebook[notebook] = expected_answers(notebook)
        stored = answers_by_notebook[notebook].get(cell.get("id"))
        if stored is None:
            # No stored answer: the cell must then print nothing, and nbval says what it printed.
            # scripts/run_notebooks.py NN writes the answers of chapter NN.
            continue
        cell.outputs = [nbformat.from_dict(output) for output in stored]
