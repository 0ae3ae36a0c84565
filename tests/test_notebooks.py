"""Hygiene of the stored notebooks: what nbval does not check by itself.

nbval (run by `python3 tasks.py test`) re-executes each notebook and compares outputs;
these tests check that what is stored is a clean Restart & Run All.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
BOTH_EDITIONS = NOTEBOOKS + sorted((Path(__file__).resolve().parents[1] / "notebooks" / "zh").glob("*.ipynb"))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_chapters():
    names = [path.name[:2] for path in NOTEBOOKS]
    assert names[:6] == ["00", "01", "02", "03", "04", "05"], names


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


def test_every_brief_stage_value_is_in_the_stored_outputs():
    """Each stage input/output pair of the brief appears, exactly, in some stored output."""
    from tutorial.notebook.show import as_json

    brief = Path(__file__).parent / "data" / "brief"
    request = json.loads((brief / "request.json").read_text(encoding="utf-8"))
    translated = json.loads((brief / "translated.json").read_text(encoding="utf-8"))
    tools_schema = json.loads((brief / "tools_schema.json").read_text(encoding="utf-8"))
    stored = "\n".join(
        "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))
        for path in NOTEBOOKS[:6]
        for cell in load(path)["cells"]
        if cell["cell_type"] == "code"
        for output in cell["outputs"]
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
    for index, cell in enumerate(load(path)["cells"]):
        for output in cell.get("outputs", []):
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
