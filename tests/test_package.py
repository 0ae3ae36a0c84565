"""The package as a dependency: what `import tutorial` pulls in, its command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What `import tutorial` must not load: the notebook stack, the drawing and template
# libraries, the server and the SDK (each is imported only where it is used). How long the
# import takes is a benchmark figure, not a test: python benchmarks/import_time.py
HEAVY = (
    "jupyter", "jupyter_core", "jupyter_client", "jupyter_server", "jupyterlab", "ipykernel", "IPython", "ipywidgets",
    "nbformat", "nbclient", "voila", "tornado", "graphviz", "jinja2", "starlette", "uvicorn", "anthropic", "httpx",
    "httpx2", "httpcore", "hypothesis",
)


def python(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, encoding="utf-8", cwd=ROOT)


def test_import_pulls_in_no_heavy_libraries():
    result = python("-c", "import json, sys, tutorial; print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout))
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_render_is_available_lazily():
    result = python("-c", "import tutorial, sys; f = tutorial.render; assert callable(f); assert 'jinja2' in sys.modules; print(tutorial.render is f)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_cli_translate_prints_the_brief_outputs(brief_translated, brief_tools_schema):
    result = python("-m", "tutorial", "translate")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"translated": brief_translated, "tools_schema": brief_tools_schema}
    assert "你是代码助手。" in result.stdout  # Chinese kept readable, not \\u-escaped


def test_cli_translate_reads_stdin_and_takes_a_target(readme):
    result = python("-m", "tutorial", "translate", "-", "--target", "openai", stdin=json.dumps(readme))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["translated"][2]["tool_calls"][0]["id"] == "toolu_demo"


def test_cli_reports_located_errors_on_stderr_with_status_2(tmp_path, readme):
    del readme["messages"][2]["content"][0]["tool_use_id"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(readme), encoding="utf-8")
    result = python("-m", "tutorial", "translate", str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("error: messages[2].content[0].tool_use_id: is required")


def test_cli_reports_malformed_json_with_line_and_column():
    result = python("-m", "tutorial", "translate", "-", stdin='{"messages": [\n  {"role": }')
    assert result.returncode == 2
    assert "line 2, column 12" in result.stderr


def test_cli_walk_shows_every_stage_and_the_losses():
    result = python("-m", "tutorial", "walk")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for expected in ("flatten_content got (system)", '"你是代码助手。"', "tool_call_dict got (messages[1].content[1])",
                     "messages[2] -> tool + user", "translate_messages returned 5 messages", "tools_to_chat_tools",
                     "no HTTP request", "messages[1].content[1].id", "messages[2].content[0].tool_use_id", "max_tokens = 128"):
        assert expected in out, expected


def test_doctor_runs_without_the_package_installed():
    result = subprocess.run([sys.executable, "-I", str(ROOT / "tutorial" / "cli" / "doctor.py")], capture_output=True, text=True, encoding="utf-8")
    assert "Python" in result.stdout and ("✓" in result.stdout)
    assert result.returncode in (0, 1)


def test_package_example_matches_the_brief(readme, brief_translated, brief_tools_schema):
    import tutorial

    assert tutorial.readme_request() == readme
    assert tutorial.readme_translated() == brief_translated
    assert tutorial.readme_tools_schema() == brief_tools_schema


def test_cli_walk_in_chinese():
    english = python("-m", "tutorial", "walk").stdout
    result = python("-m", "tutorial", "walk", "--lang", "zh")
    assert result.returncode == 0, result.stderr
    assert "消息路径" in result.stdout and "工具路径" in result.stdout
    assert "messages[2].content[0].tool_use_id" in result.stdout  # places stay as a reader types them
    assert result.stdout != english
