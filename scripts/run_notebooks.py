#!/usr/bin/env python3
"""Re-execute every notebook under notebooks/, in order, each on a fresh kernel, and store
the outputs. Volatile metadata (widget state, execution timestamps) is stripped; the
outputs are kept, because nbval compares against them. Each notebook is then signed, so
this user's Jupyter opens it trusted (its stored SVG diagrams show).

    python scripts/run_notebooks.py                  all notebooks (notebooks/ and its subfolders)
    python scripts/run_notebooks.py 02 03 zh/07      only those whose path under notebooks/ starts so
    python scripts/run_notebooks.py --metadata-only  rewrite only the notebook metadata, executing nothing
    python scripts/run_notebooks.py --answers-only   move stored answers out of the chapters, executing nothing

Answers are not stored in the chapters. A cell tagged `reveal` (it shows the answer to a
prediction) or `solution` (it shows an exercise's answer) runs like any other, but what it
printed is moved into notebooks/.reveals/ (one JSON file per notebook, keyed by cell id), so a
learner who opens a chapter sees each answer only after running its cell. nbval compares those
cells with that file instead of with the notebook (conftest.py at the root), so they are checked
as strictly as every other cell.

The notebook metadata is what JupyterLab itself writes when a kernel starts (`kernelspec` from
the kernel spec, `language_info` as the kernel reports it), so a notebook does not open as
modified. JupyterLab compares the whole `language_info` record, Python version included:
on a Python whose version differs from the one stored here, a notebook still opens marked
modified (nothing smaller than the whole record prevents that).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
import zmq
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
REVEALS = NOTEBOOKS / ".reveals"
KERNEL = "python3"
ANSWER_TAGS = ("reveal", "solution")
"""Tags of the cells whose output is an answer: never stored in the chapter itself."""


def kernelspec() -> dict:
    """The record JupyterLab stores when it starts this kernel: name, display name, language."""
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    return {"display_name": spec.display_name, "language": spec.language, "name": KERNEL}


def kernel_language_info() -> dict:
    """language_info as a fresh kernel reports it (what nbclient stores after executing)."""
    # Encrypted (CurveZMQ keys made for this kernel) where pyzmq can, as `tasks.py lab` asks of
    # JupyterLab: a kernel on plain TCP warns about it, and this runs at every `tasks.py lab`.
    encryption = "auto" if zmq.has("curve") else "disabled"
    manager = KernelManager(kernel_name=KERNEL, transport_encryption=encryption)
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        return client.kernel_info(reply=True, timeout=60)["content"]["language_info"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


WIDGET_PLACEHOLDER = {
    "en": "▶ Run this cell to open the playground here.",
    "zh": "▶ 运行这个单元格，交互练习场就会显示在这里。",
}
"""Stored where a playground's widget was: without it the cell would show nothing until run."""


def widget_placeholder(lang: str) -> nbformat.NotebookNode:
    words = WIDGET_PLACEHOLDER[lang]
    return nbformat.from_dict({"output_type": "display_data", "metadata": {}, "data": {
        "text/html": f'<p class="tutorial-widget-placeholder"><em>{words}</em></p>', "text/plain": words}})


def strip_volatile(notebook: nbformat.NotebookNode, spec: dict, lang: str = "en") -> None:
    notebook.metadata.pop("widgets", None)  # widget state: model ids change every run
    notebook.metadata["kernelspec"] = spec
    # language_info stays as the kernel reported it (nbclient stores it while executing).
    for cell in notebook.cells:
        if cell.cell_type == "code":
            kept = merge_streams([o for o in cell.outputs if not _is_widget_view(o)])
            if len(kept) < len(cell.outputs) and "nbval-ignore-output" in cell.metadata.get("tags", []):
                kept.append(widget_placeholder(lang))  # nbval does not compare this cell's outputs
            cell.outputs = kept
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


def shows_an_answer(cell) -> bool:
    return cell.cell_type == "code" and bool(set(cell.get("metadata", {}).get("tags", [])) & set(ANSWER_TAGS))


def reveals_path(notebook_path: Path) -> Path:
    """Where the answers of notebooks/<sub>/NN_x.ipynb are kept: notebooks/.reveals/<sub>/NN_x.json."""
    return (REVEALS / notebook_path.resolve().relative_to(NOTEBOOKS)).with_suffix(".json")


def read_reveals(notebook_path: Path) -> dict:
    """{cell id: outputs} for a notebook's answer cells; empty when none were stored."""
    path = reveals_path(notebook_path)
    return json.loads(path.read_text(encoding="utf-8"))["outputs"] if path.is_file() else {}


def move_answers_out(notebook: nbformat.NotebookNode, kept: dict | None = None) -> dict:
    """Empty the outputs of the answer cells and return them as {cell id: outputs}.

    `kept` supplies the outputs of a cell that holds none (already moved out earlier), so a
    notebook that was not executed again keeps its stored answers.
    """
    kept = kept or {}
    answers = {}
    for cell in notebook.cells:
        if shows_an_answer(cell):
            answers[cell.id] = [dict(output) for output in cell.outputs] if cell.outputs else kept.get(cell.id, [])
            cell.outputs = []
    return answers


def write_reveals(notebook_path: Path, answers: dict) -> None:
    path = reveals_path(notebook_path)
    if not answers:  # a chapter without answer cells needs no file
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "about": "Outputs of the reveal and solution cells of " + notebook_path.resolve().relative_to(NOTEBOOKS).as_posix()
        + ", kept out of the chapter so it stays answer-free; nbval compares those cells with them"
        + " (conftest.py at the root). Written by scripts/run_notebooks.py.",
        "outputs": answers,
    }
    path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def save(notebook: nbformat.NotebookNode, path: Path) -> None:
    nbformat.write(notebook, path)
    NotebookNotary().sign(nbformat.read(path, as_version=4))  # sign what is on disk


def run(path: Path, spec: dict) -> float:
    notebook = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(notebook, timeout=120, kernel_name=KERNEL, resources={"metadata": {"path": str(path.parent)}}).execute()
    seconds = time.perf_counter() - start
    strip_volatile(notebook, spec, "zh" if path.resolve().parent.name == "zh" else "en")
    answers = move_answers_out(notebook)  # executed just now: every answer is fresh
    save(notebook, path)
    write_reveals(path, answers)
    return seconds


def answers_only(path: Path) -> int:
    """Move the answers a notebook still stores into its .reveals file; returns how many cells held one."""
    notebook = nbformat.read(path, as_version=4)
    holding = sum(1 for cell in notebook.cells if shows_an_answer(cell) and cell.outputs)
    answers = move_answers_out(notebook, kept=read_reveals(path))
    if holding:
        save(notebook, path)
    write_reveals(path, answers)
    return holding


def rewrite_metadata(path: Path, spec: dict, language_info: dict) -> bool:
    """Give the notebook this kernel's description; a notebook that has it already is not
    written at all (so neither its bytes nor its modification time change)."""
    notebook = nbformat.read(path, as_version=4)
    before = json.loads(json.dumps(notebook.metadata))
    notebook.metadata["kernelspec"] = spec
    notebook.metadata["language_info"] = language_info
    notebook.metadata.pop("widgets", None)
    if json.loads(json.dumps(notebook.metadata)) == before:
        return False
    save(notebook, path)
    return True


def notebook_paths(prefixes: list[str]) -> list[Path]:
    paths = sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    return [p for p in paths if not prefixes or p.relative_to(NOTEBOOKS).as_posix().startswith(tuple(prefixes))]


def main(arguments: list[str]) -> int:
    metadata_only = "--metadata-only" in arguments
    paths = notebook_paths([a for a in arguments if a not in ("--metadata-only", "--answers-only")])
    if "--answers-only" in arguments:
        moved = {p.relative_to(NOTEBOOKS).as_posix(): answers_only(p) for p in paths}
        print(f"{len(paths)} notebooks; answers moved out of {sum(1 for n in moved.values() if n)}:"
              f" {', '.join(f'{name} ({n})' for name, n in moved.items() if n) or '-'}")
        return 0
    spec = kernelspec()
    if metadata_only:
        language_info = kernel_language_info()
        changed = [p.relative_to(NOTEBOOKS).as_posix() for p in paths if rewrite_metadata(p, spec, language_info)]
        print(f"{len(paths)} notebooks; metadata rewritten (and signed) in {len(changed)}: {', '.join(changed) or '-'}")
        print(f"language_info: {language_info}")
        return 0
    total = 0.0
    for number, path in enumerate(paths, start=1):
        print(f"[{number}/{len(paths)}] {path.relative_to(NOTEBOOKS).as_posix()} ...", end=" ", flush=True)
        seconds = run(path, spec)
        total += seconds
        print(f"{seconds:.1f} s")
    print(f"{len(paths)} notebooks in {total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
