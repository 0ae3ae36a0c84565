#!/usr/bin/env python3
"""Re-execute every notebook in notebooks/, in order, each on a fresh kernel, and store
the outputs. Volatile metadata (widget state, execution timestamps) is stripped; the
outputs are kept, because nbval compares against them.

    python scripts/run_notebooks.py            all notebooks
    python scripts/run_notebooks.py 02 03      only those whose name starts so
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def strip_volatile(notebook: nbformat.NotebookNode) -> None:
    notebook.metadata.pop("widgets", None)  # widget state: model ids change every run
    notebook.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    notebook.metadata["language_info"] = {"name": "python"}  # the full record names this machine's Python version
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = merge_streams([o for o in cell.outputs if not _is_widget_view(o)])
        cell.metadata.pop("execution", None)  # timestamps
        cell.metadata.pop("collapsed", None)
        cell.metadata.pop("scrolled", None)


def _is_widget_view(output) -> bool:
    # A widget's view names a model id that is new every run, and without the saved
    # widget state it could not be shown anyway: the reader runs the cell to see it.
    return "application/vnd.jupyter.widget-view+json" in output.get("data", {})


def merge_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) pieces: how a print is split is timing."""
    merged: list = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if output.output_type == "stream" and previous is not None and previous.output_type == "stream" and previous.name == output.name:
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def run(path: Path) -> float:
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    seconds = time.perf_counter() - start
    strip_volatile(notebook)
    nbformat.write(notebook, path)
    return seconds


def main(prefixes: list[str]) -> int:
    paths = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if not prefixes or p.name.startswith(tuple(prefixes)))
    total = 0.0
    for number, path in enumerate(paths, start=1):
        print(f"[{number}/{len(paths)}] {path.name} ...", end=" ", flush=True)
        seconds = run(path)
        total += seconds
        print(f"{seconds:.1f} s")
    print(f"{len(paths)} notebooks in {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
