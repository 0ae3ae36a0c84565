"""Chapter 11's engine cells on a machine without the engine: each shows the outputs recorded
where the engine runs (tutorial/llama_cpp/recording.py), after a note that says so, in the
reader's language, instead of replacing them with a line about the missing build."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tutorial.llama_cpp import recording

ROOT = Path(__file__).resolve().parents[1]


def test_the_recording_is_what_the_chapter_stores():
    """Re-executing chapter 11 changes its stored outputs; then `python -m
    tutorial.llama_cpp.recording update` copies them into the recording again."""
    assert recording.load() == recording.from_chapter(ROOT / "notebooks"), (
        "chapter 11's engine outputs changed: run python -m tutorial.llama_cpp.recording update"
    )


@pytest.mark.parametrize("edition", ["", "zh/"])
def test_every_engine_cell_falls_back_to_its_recording(edition):
    cells = json.loads((ROOT / "notebooks" / edition / recording.CHAPTER).read_text(encoding="utf-8"))["cells"]
    sources = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    assert not [source for source in sources if "engine not built" in source]
    for step, marker in recording.STEPS.items():
        (source,) = [source for source in sources if marker in source]
        assert f'if missing:' in source and f'    recorded("{step}")\n' in source


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_cell_without_the_engine_prints_the_note_then_the_recorded_output(lang):
    """Run as a fresh process would, with the engine reported missing."""
    script = (
        "import tutorial\n"
        f"tutorial.use_language({lang!r})\n"
        "from tutorial.llama_cpp.recording import show as recorded\n"
        "recorded('start'); recorded('stream_events')\n"
    )
    printed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    stored = recording.load()
    expected = "".join(
        recording.NOTE[lang] + "\n" + "".join(output["text"] for output in stored[step][lang]) for step in ("start", "stream_events")
    )
    assert printed == expected
    assert ("recorded" in printed) if lang == "en" else ("录制的输出" in printed and "recorded" not in printed)


def test_in_a_kernel_displays_come_back_as_displays():
    """What Run All does on a fresh clone: the recorded display (HTML and text) is displayed again."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        'import tutorial\ntutorial.use_language("zh")\nfrom tutorial.llama_cpp.recording import show as recorded\nrecorded("tool_call")'
    )]  # fmt: skip
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute(cwd=str(ROOT))
    outputs = notebook.cells[0].outputs
    assert outputs[0]["output_type"] == "stream" and outputs[0]["text"] == recording.NOTE["zh"] + "\n"
    shown = [dict(output["data"]) for output in outputs[1:]]
    assert shown == [output["data"] for output in recording.load()["tool_call"]["zh"]]
