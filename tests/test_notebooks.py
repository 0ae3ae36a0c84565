"""Hygiene of the stored notebooks: what nbval does not check by itself.

nbval (run by `python3 tasks.py test`) re-executes each notebook and compares outputs;
these tests check that what is stored is a clean Restart & Run All.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
BOTH_EDITIONS = NOTEBOOKS + sorted((NOTEBOOK_DIR / "zh").glob("*.ipynb"))
ANSWER_TAGS = {"reveal", "solution"}


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def tags(cell: dict) -> set:
    return set(cell.get("metadata", {}).get("tags", []))


def stored_answers(path: Path) -> dict:
    """{cell id: outputs} that scripts/run_notebooks.py keeps out of the chapter (notebooks/.reveals/)."""
    reveals = (NOTEBOOK_DIR / ".reveals" / path.relative_to(NOTEBOOK_DIR)).with_suffix(".json")
    return load(reveals)["outputs"] if reveals.is_file() else {}


def output_text(output: dict) -> str:
    return "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))


def test_there_are_chapters():
    names = [path.name.split("_")[0] for path in NOTEBOOKS]
    assert names[:7] == ["00", "01", "02", "03", "04", "04b", "05"], names


@pytest.mark.parametrize("path", BOTH_EDITIONS, ids=[p.relative_to(p.parents[1]).as_posix() for p in BOTH_EDITIONS])
def test_notebook_is_a_clean_run_all(path):
    notebook = load(path)
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    assert "widgets" not in notebook["metadata"], "saved widget state: re-run scripts/run_notebooks.py"
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    assert [cell["execution_count"] for cell in code] == list(range(1, len(code) + 1)), "not a fresh Restart & Run All"
    for cell in notebook["cells"]:
        assert "".join(cell["source"]).strip(), "empty cell"
        assert "execution" not in cell.get("metadata", {}), "execution timestamps stored"
    for cell in code:
        for output in cell["outputs"]:
            assert output["output_type"] != "error", f"stored error in cell {cell['execution_count']}"
            assert output.get("name") != "stderr", f"stderr stored in cell {cell['execution_count']}: {''.join(output['text'])[:200]}"


@pytest.mark.parametrize("path", BOTH_EDITIONS, ids=[p.relative_to(p.parents[1]).as_posix() for p in BOTH_EDITIONS])
def test_chinese_is_shown_as_chinese(path):
    text = path.read_text(encoding="utf-8")
    assert "\\u4f60" not in text and "\\u8bfb" not in text  # 你, 读 escaped would mean ensure_ascii=True somewhere


@pytest.mark.parametrize("path", BOTH_EDITIONS, ids=[p.relative_to(p.parents[1]).as_posix() for p in BOTH_EDITIONS])
def test_chapter_is_answer_free_as_committed(path):
    """A learner opening a chapter sees no answer before running the cell that shows it: answer
    cells store no output (it is kept in notebooks/.reveals/, where nbval compares it), and no
    exercise cell stores a verdict other than "not answered yet"."""
    cells = [cell for cell in load(path)["cells"] if cell["cell_type"] == "code"]
    holding = [cell.get("id") for cell in cells if tags(cell) & ANSWER_TAGS and cell["outputs"]]
    assert holding == [], f"answer cells with a stored output (run scripts/run_notebooks.py): {holding}"
    for cell in cells:
        if "exercise" in tags(cell):
            printed = "".join(output_text(output) for output in cell["outputs"])
            assert "✓" not in printed and "✗" not in printed, f"cell {cell.get('id')} stores a verdict: {printed[:200]}"


@pytest.mark.parametrize("path", BOTH_EDITIONS, ids=[p.relative_to(p.parents[1]).as_posix() for p in BOTH_EDITIONS])
def test_every_answer_cell_has_its_output_kept_for_nbval(path):
    """notebooks/.reveals/ holds one entry per answer cell of the chapter and nothing else, so
    nbval compares every answer cell (an answer cell missing there would only be run)."""
    answer_cells = [cell["id"] for cell in load(path)["cells"] if cell["cell_type"] == "code" and tags(cell) & ANSWER_TAGS]
    assert sorted(stored_answers(path)) == sorted(answer_cells), "re-run scripts/run_notebooks.py for this chapter"


def test_the_answer_free_chapters_still_check_their_answers():
    """The kept outputs are real: chapter 01's located error and a solution cell's prompt."""
    kept = stored_answers(NOTEBOOK_DIR / "01_request.ipynb")
    printed = {cell_id: "".join(output_text(output) for output in outputs) for cell_id, outputs in kept.items()}
    assert any("messages[2].content[0].tool_use_id: is required" in text for text in printed.values())
    assert sum("set show=True" in text for text in printed.values()) >= 4


def test_every_brief_stage_value_is_in_the_stored_outputs():
    """Each stage input/output pair of the brief appears, exactly, in some stored output
    (a chapter's own, or an answer cell's, kept in notebooks/.reveals/)."""
    from tutorial.notebook.show import as_json

    brief = Path(__file__).parent / "data" / "brief"
    request = json.loads((brief / "request.json").read_text(encoding="utf-8"))
    translated = json.loads((brief / "translated.json").read_text(encoding="utf-8"))
    tools_schema = json.loads((brief / "tools_schema.json").read_text(encoding="utf-8"))
    stored = "\n".join(
        output_text(output)
        for path in NOTEBOOKS[:6]
        for outputs in [cell["outputs"] for cell in load(path)["cells"] if cell["cell_type"] == "code"]
        + list(stored_answers(path).values())
        for output in outputs
    )
    stages = [
        request,  # 1. the body
        request["system"], "你是代码助手。", translated[0],  # 2.1
        request["messages"][0], translated[1],  # 2.2
        request["messages"][1], {"name": "read_file", "arguments": {"path": "README.md"}}, translated[2]["tool_calls"][0], translated[2],  # 2.3
        request["messages"][2], request["messages"][2]["content"][0]["content"], "# Demo\n这是一个学习项目。", translated[3:],  # 2.4
        translated,  # 2.5
        request["tools"], tools_schema,  # 3
    ]  # fmt: skip
    for value in stages:
        assert as_json(value) in stored, f"stage value not shown: {as_json(value)[:120]}"


def _svg_outputs(path: Path):
    answers = stored_answers(path)
    for index, cell in enumerate(load(path)["cells"]):
        for output in cell.get("outputs", []) + answers.get(cell.get("id"), []):
            svg = output.get("data", {}).get("image/svg+xml")
            if svg:
                yield index, "".join(svg) if isinstance(svg, list) else svg


@pytest.mark.parametrize("path", BOTH_EDITIONS, ids=[p.relative_to(p.parents[1]).as_posix() for p in BOTH_EDITIONS])
def test_every_stored_diagram_fits_the_output_area_with_readable_text(path):
    """JupyterLab at 1400×1000 with the file browser open leaves about 960 px for an output;
    the pictures are drawn to fit it at 100 %, with no text under 10 px."""
    import re

    for index, svg in _svg_outputs(path):
        size = re.search(r'<svg[^>]*?width="([\d.]+)(pt|px)?"[^>]*?viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"', svg, re.S)
        assert size, f"cell {index}: an SVG without width and viewBox"
        width = float(size.group(1)) * (4 / 3 if size.group(2) == "pt" else 1)
        assert width <= 960, f"cell {index}: a diagram {width:.0f} px wide"
        scale = width / float(size.group(3))
        fonts = [float(f) for f in re.findall(r'font-size="([\d.]+)"', svg)]
        assert not fonts or min(fonts) * scale >= 10, f"cell {index}: text {min(fonts) * scale:.1f} px high"
