"""The playground, headless: the model through every preset, edits, half-typed JSON and
target switches; then the widgets themselves, driven as a browser would drive them
(set the editor's value, let the pause pass or press Translate, read the panes)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tutorial import preprocess, readme_request, translate
from tutorial.notebook import playground as pg_module
from tutorial.errors import RequestError
from tutorial.notebook.playground import README, Playground, describe_error, presets
from tutorial.notebook.show import as_json

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / "tutorial" / "peers" / "data"
BUILTIN = [
    "README example",
    "string system",
    "two text blocks in one user message",
    "thinking with signatures",
    "parallel tool calls",
    "error result with an image",
    "mixed tool result with a tool reference",
    "mid-list system message",
    "server tool",
    "unknown block type",
    "half-typed JSON",
    "missing tool_use_id",
]
MISSING_ID = "messages[2].content[0].tool_use_id"


def expected(text: str, target: str):
    """What the playground should show for `text`: (translated, tools_schema) or the error line."""
    try:
        return translate(preprocess(json.loads(text)), target=target), None
    except (ValueError, RequestError) as error:  # JSONDecodeError is a ValueError
        return None, describe_error(error)


def without_pairing_id(text: str) -> str:
    body = json.loads(text)
    del body["messages"][2]["content"][0]["tool_use_id"]
    return as_json(body)


@pytest.fixture
def pg():
    playground = Playground()
    yield playground
    playground.flush()  # no timer left running after a test


# ---------------------------------------------------------------------------
# The model


def test_starts_on_the_readme_example(pg, brief_translated, brief_tools_schema):
    assert pg.preset == README and pg.target == "chat_template"
    assert json.loads(pg.request_text) == readme_request()
    r = pg.results
    assert set(r) == {"translated", "tools_schema", "steps", "losses", "error", "stale"}
    assert r["translated"] == brief_translated
    assert r["tools_schema"] == brief_tools_schema
    assert [s.name for s in r["steps"]] == [
        "flatten_content", "tool_call_dict", "flatten_content", "translate_messages", "tools_to_chat_tools"
    ]
    assert [loss.path for loss in r["losses"]] == ["messages[1].content[1].id", MISSING_ID, "max_tokens"]
    assert r["error"] is None and r["stale"] is False
    assert pg.changes == ""  # the README example against itself


def test_the_presets_the_issue_asks_for():
    found = presets()
    assert list(found)[: len(BUILTIN)] == BUILTIN
    assert isinstance(found["half-typed JSON"], str)
    assert all(isinstance(found[name], dict) for name in BUILTIN if name != "half-typed JSON")
    if PEERS.is_dir():
        cases = json.loads((PEERS / "cases.json").read_text(encoding="utf-8"))
        for case in cases:
            assert found["peer: " + case["id"]] == case["request"]
        assert len(found) == len(BUILTIN) + len(cases) == len(BUILTIN) + 22
    found[README]["messages"].clear()  # each call hands out fresh copies
    assert presets()[README]["messages"]


@pytest.mark.parametrize("target", ["chat_template", "openai"])
@pytest.mark.parametrize("name", list(presets()))
def test_every_preset_shows_what_translate_gives(name, target):
    pg = Playground(target=target)
    good_before = pg.results["translated"]
    pg.preset = name
    assert pg.preset == name
    assert pg.request_text == (presets()[name] if isinstance(presets()[name], str) else as_json(presets()[name]))
    outputs, error = expected(pg.request_text, target)
    r = pg.results
    assert r["error"] == error
    if error is None:
        assert (r["translated"], r["tools_schema"]) == outputs
        assert r["stale"] is False
        assert r["steps"][-2].name == "translate_messages" and r["steps"][-1].name == "tools_to_chat_tools"
    else:
        assert r["stale"] is True
        assert r["translated"] == good_before  # the README example's, still shown


def test_the_error_presets_say_where():
    pg = Playground()
    pg.preset = "missing tool_use_id"
    assert pg.results["error"].startswith(MISSING_ID + ": ")
    pg.preset = "half-typed JSON"
    assert pg.results["error"].startswith("line ") and ", column " in pg.results["error"]
    pg.preset = "unknown block type"
    assert pg.results["error"] is None
    assert pg.results["translated"][1] == {"role": "user", "content": "[hologram omitted]"}
    pg.target = "openai"
    assert pg.results["error"].startswith("messages[0].content[1].type: ")


def test_a_missing_tool_use_id_keeps_the_last_good_outputs_and_fixing_it_clears_both(pg, brief_translated):
    good = pg.request_text
    pg.request_text = without_pairing_id(good)
    r = pg.results
    assert r["error"].startswith(MISSING_ID)
    assert r["stale"] is True
    assert r["translated"] == brief_translated
    assert [loss.path for loss in r["losses"]][-1] == "max_tokens"
    pg.request_text = good
    assert pg.results["error"] is None and pg.results["stale"] is False
    assert pg.results["translated"] == brief_translated


def test_every_prefix_of_the_readme_text_is_an_error_with_line_and_column_never_an_exception(pg, brief_translated):
    text = pg.request_text
    for end in range(0, len(text) - 1):
        pg.request_text = text[:end]
        r = pg.results
        assert r["error"].startswith("line "), (end, r["error"])
        assert r["stale"] is True and r["translated"] == brief_translated
    pg.request_text = text
    assert pg.results["error"] is None


def test_json_error_line_and_column():
    pg = Playground()
    pg.request_text = '{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}'
    assert pg.results["error"].startswith("line 3, column 21: Expecting ',' delimiter")
    pg.request_text = ""
    assert pg.results["error"].startswith("line 1, column 1: ")


def test_a_body_that_is_not_an_object():
    pg = Playground()
    pg.request_text = "[]"
    assert pg.results["error"].startswith("body: ")
    assert pg.results["stale"] is True


def test_request_text_accepts_a_body_value_too(pg):
    pg.request_text = {"messages": [{"role": "user", "content": "你好"}]}
    assert pg.request_text == '{\n  "messages": [\n    {\n      "role": "user",\n      "content": "你好"\n    }\n  ]\n}'
    assert pg.results["translated"] == [{"role": "user", "content": "你好"}]


def test_switching_the_target(pg):
    pg.target = "openai"
    assert (pg.results["translated"], pg.results["tools_schema"]) == translate(readme_request(), target="openai")
    assert [loss.path for loss in pg.results["losses"]] == ["max_tokens"]
    pg.target = "chat_template"
    assert [loss.path for loss in pg.results["losses"]] == ["messages[1].content[1].id", MISSING_ID, "max_tokens"]
    with pytest.raises(ValueError, match="target must be one of"):
        pg.target = "vllm"
    assert pg.target == "chat_template"


def test_switching_the_target_while_broken_shows_the_last_good_request_in_the_new_target(pg):
    pg.request_text = pg.request_text[:50]
    pg.target = "openai"
    r = pg.results
    assert r["stale"] is True and r["error"].startswith("line ")
    assert r["translated"] == translate(readme_request(), target="openai")[0]
    assert pg.trace.target == "openai"


def test_a_request_only_one_target_can_carry_stays_stale_in_the_other(pg):
    pg.preset = "unknown block type"
    chat = pg.results["translated"]
    pg.target = "openai"
    assert pg.results["stale"] is True and pg.results["translated"] == chat
    assert pg.trace.target == "chat_template"  # what the stale outputs are, said on every pane
    pg.target = "chat_template"
    assert pg.results["error"] is None and pg.results["stale"] is False


def test_unknown_preset_names_are_refused(pg):
    with pytest.raises(ValueError, match="no preset named"):
        pg.preset = "nope"
    assert pg.preset == README


def test_changes_against_the_readme_example(pg):
    pg.request_text = pg.request_text.replace("read_file", "open_file")
    diff = pg.changes
    assert '-          "name": "read_file",' in diff and '+          "name": "open_file",' in diff
    assert "--- README example: tools_schema" in diff
    pg.target = "openai"  # compared with the README example in the same target
    assert "arguments" not in "".join(line for line in pg.changes.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---"))


def test_a_broken_start_has_no_outputs_and_is_not_stale():
    pg = Playground(preset="half-typed JSON")
    assert pg.results["translated"] is None and pg.results["stale"] is False
    assert pg.results["error"].startswith("line ")
    assert pg.changes == ""
    assert "Nothing translated yet" in pg_module.translated_html(pg)


def test_importing_the_playground_does_not_import_ipywidgets():
    code = "import sys, tutorial.notebook.playground as p; p.Playground(); print('ipywidgets' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


# ---------------------------------------------------------------------------
# Recorded peer outputs


@pytest.mark.skipif(not (PEERS / "outputs_requests.json").is_file(), reason="no recorded peer outputs")
def test_a_peer_preset_shows_the_peers_beside_ours(pg):
    pg.preset = "peer: 04_image_base64_and_url"
    assert pg.peer_case == "04_image_base64_and_url"
    page = pg_module.peers_html(pg)
    for peer in ("slime", "sglang", "vllm", "litellm"):
        assert f"<b>{peer}</b>" in page
    assert "<b>ours (chat_template)</b>" in page
    assert "[image omitted]" in page  # ours
    assert "https://example.com/a.png" in page  # a peer that keeps the URL
    assert "You have edited" not in page
    pg.request_text = pg.request_text.replace("what is this?", "and this?")
    assert "You have edited the body" in pg_module.peers_html(pg)
    pg.preset = "peer: 05_document_pdf"
    pg.target = "openai"
    page = pg_module.peers_html(pg)
    assert "refused at validation (HTTP 400)" in page  # SGLang and vLLM refused the document
    pg.preset = README
    assert 'Choose a preset named "peer: …"' in pg_module.peers_html(pg)


def test_without_recorded_peers_there_are_no_peer_presets_and_no_error(tmp_path, monkeypatch):
    monkeypatch.setattr(pg_module, "PEER_DIR", tmp_path)
    pg_module._peer_files.cache_clear()
    try:
        assert list(presets()) == BUILTIN
        assert pg_module.peer_results("04_image_base64_and_url") is None
        # cases present, outputs absent: the presets exist, the pane says what is missing
        (tmp_path / "cases.json").write_text(json.dumps([{"id": "x1", "request": readme_request()}]), encoding="utf-8")
        pg_module._peer_files.cache_clear()
        pg = Playground(preset="peer: x1")
        assert "No recorded peer outputs for x1" in pg_module.peers_html(pg)
    finally:
        pg_module._peer_files.cache_clear()


# ---------------------------------------------------------------------------
# The widgets


def all_widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from all_widgets(child)


def by_class(root, css: str):
    found = [w for w in all_widgets(root) if css in w._dom_classes]
    assert len(found) == 1, (css, found)
    return found[0]


def pane_text(root, css: str) -> str:
    return by_class(root, css).value


def test_the_widget_has_the_parts_a_browser_test_looks_for(pg):
    import ipywidgets as w

    root = pg.widget
    assert pg.widget is root  # built once
    assert "tp-playground" in root._dom_classes
    assert isinstance(by_class(root, "tp-preset"), w.Dropdown)
    assert isinstance(by_class(root, "tp-editor"), w.Textarea)
    assert isinstance(by_class(root, "tp-target"), w.ToggleButtons)
    assert isinstance(by_class(root, "tp-translate"), w.Button)
    assert isinstance(by_class(root, "tp-log"), w.Output)
    tabs = by_class(root, "tp-tabs")
    assert list(tabs.titles) == ["translated", "tools schema", "stages", "diagram", "stays behind", "vs README", "peers"]
    for css in ("tp-translated", "tp-tools", "tp-stages", "tp-diagram", "tp-losses", "tp-changes", "tp-peers-pane", "tp-error"):
        widget = by_class(root, css)
        assert widget.layout.height, f"{css} has no fixed height: the layout would jump"
    assert by_class(root, "tp-editor").value == pg.request_text
    translated = pane_text(root, "tp-translated")
    assert "你是代码助手。" in translated  # ensure_ascii=False
    assert "\\u4f60" not in translated
    assert "<svg" in pane_text(root, "tp-diagram") or "DOT" in pane_text(root, "tp-diagram")
    assert "flatten_content" in pane_text(root, "tp-stages") and "tool_call_dict" in pane_text(root, "tp-stages")
    assert "messages[1].content[1].id" in pane_text(root, "tp-losses")
    assert "The same outputs as the README example" in pane_text(root, "tp-changes")
    assert "✓" in pane_text(root, "tp-error")


def test_the_html_is_deterministic():
    first, second = Playground(), Playground()
    first.widget, second.widget
    for title in first._view.panes:
        assert first._view.panes[title].value == second._view.panes[title].value, title
    assert first._view.status.value == second._view.status.value


def test_typing_waits_for_the_pause_then_every_pane_changes(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    diagram_before = pane_text(root, "tp-diagram")
    calls = []
    pg.on_change(calls.append)
    editor.value = editor.value.replace("read_file", "open_file")
    assert calls == [] and "open_file" not in pane_text(root, "tp-translated")  # not yet: waiting for the pause
    deadline = time.monotonic() + 10
    while not calls and time.monotonic() < deadline:
        time.sleep(0.05)
    assert calls == ["text"]
    assert "open_file" in pane_text(root, "tp-translated") and "read_file" not in pane_text(root, "tp-translated")
    assert "open_file" in pane_text(root, "tp-tools")
    assert pane_text(root, "tp-diagram") != diagram_before
    assert '+          "name": "open_file",' in pane_text(root, "tp-changes")


def test_a_burst_of_half_typed_text_is_translated_once(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    status_before = pane_text(root, "tp-error")
    calls = []
    pg.on_change(calls.append)
    text = editor.value.replace("README.md", "NOTES.md")
    for end in range(len(text) - 40, len(text) + 1):  # typing the last 40 characters, one by one
        editor.value = text[:end]
    assert calls == [] and pane_text(root, "tp-error") == status_before  # no flood of errors
    pg.flush()
    assert calls == ["text"]
    assert pg.results["error"] is None
    assert "NOTES.md" in pane_text(root, "tp-translated")


def test_the_translate_button_applies_the_editor_at_once(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = without_pairing_id(editor.value)
    by_class(root, "tp-translate").click()
    status = by_class(root, "tp-error")
    assert pg.results["error"].startswith(MISSING_ID)
    assert MISSING_ID in status.value and "tp-bad" in status.value
    assert "tp-has-error" in status._dom_classes
    for css in ("tp-translated", "tp-tools", "tp-stages", "tp-diagram", "tp-losses", "tp-changes"):
        assert "Stale: the request in the editor has an error" in pane_text(root, css), css
    assert "我先读取文件。" in pane_text(root, "tp-translated")  # the last good outputs, still shown
    editor.value = json.dumps(readme_request(), ensure_ascii=False)  # fixed (written on one line)
    by_class(root, "tp-translate").click()
    assert pg.results["error"] is None and pg.results["stale"] is False
    assert "tp-has-error" not in status._dom_classes and "Stale" not in pane_text(root, "tp-translated")
    calls = []
    pg.on_change(calls.append)
    by_class(root, "tp-translate").click()  # unchanged text: translated again on demand
    assert calls == ["text"]


def test_broken_json_shows_the_line_with_a_caret(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = '{"messages": [}'
    pg.flush()
    status = pane_text(root, "tp-error")
    assert "line 1, column 15: Expecting value" in status
    assert '<pre style="margin-top:4px">{"messages": [}\n              ^</pre>' in status  # under column 15


def test_the_preset_picker_and_the_target_toggle(pg):
    root = pg.widget
    editor, picker, toggle = by_class(root, "tp-editor"), by_class(root, "tp-preset"), by_class(root, "tp-target")
    assert picker.options == tuple(pg.presets)
    picker.value = "server tool"
    assert pg.preset == "server tool" and editor.value == pg.request_text
    assert "web_search" in pane_text(root, "tp-tools")
    toggle.value = "openai"
    assert pg.target == "openai"
    assert "web_search" not in pane_text(root, "tp-tools")  # the openai target leaves server tools out
    assert "server tool runs on Anthropic" in pane_text(root, "tp-losses")


def test_an_edit_waiting_for_the_pause_is_kept_when_the_target_changes(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = editor.value.replace("read_file", "open_file")
    by_class(root, "tp-target").value = "openai"
    assert pg.target == "openai" and "open_file" in pg.request_text
    assert "open_file" in editor.value and '\\"path\\": \\"README.md\\"' in pane_text(root, "tp-translated")


def test_code_changes_show_in_the_widget(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = "{ half typed"  # waiting for the pause ...
    pg.request_text = without_pairing_id(pg.request_text)  # ... when code sets the text: code wins
    assert editor.value == pg.request_text
    pg.flush()
    assert pg.results["error"].startswith(MISSING_ID)
    assert MISSING_ID in pane_text(root, "tp-error")
    pg.preset = "string system"
    assert by_class(root, "tp-preset").value == "string system" and editor.value == pg.request_text
    pg.target = "openai"
    assert by_class(root, "tp-target").value == "openai"
    assert "You are a terse assistant." in pane_text(root, "tp-translated")


def test_callback_errors_go_to_the_output_widget(pg, monkeypatch):
    root = pg.widget
    log = by_class(root, "tp-log")

    def broken():
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(pg._view, "_render", broken)
    by_class(root, "tp-preset").value = "string system"  # must not raise into the notebook
    assert pg.preset == "string system"
    assert any("RuntimeError: drawing failed" in output.get("text", "") for output in log.outputs)


def test_the_diagram_fits_the_pane_or_shows_at_full_size(pg):
    root = pg.widget
    zoom, diagram = by_class(root, "tp-zoom"), by_class(root, "tp-diagram")
    assert zoom.value == "fit" and "tp-diagram-full" not in diagram._dom_classes
    zoom.value = "full size"
    assert "tp-diagram-full" in diagram._dom_classes
    zoom.value = "fit"
    assert "tp-diagram-full" not in diagram._dom_classes


@pytest.mark.skipif(not (PEERS / "outputs_requests.json").is_file(), reason="no recorded peer outputs")
def test_the_peer_picker_shows_one_peer_beside_ours(pg):
    root = pg.widget
    picker, pane = by_class(root, "tp-peer-picker"), by_class(root, "tp-peers-pane")
    assert picker.value == "slime"  # the peer the default target follows
    pg.preset = "peer: 01_system_str_user_str"
    assert "✓ the same messages and tools as ours" in pane.value
    assert "<b>ours (chat_template)</b>" in pane.value and "<b>slime</b>{" not in pane.value
    picker.value = "litellm"
    assert '<div class="tp-closest"><b>litellm</b>' in pane.value
    by_class(root, "tp-target").value = "openai"
    assert picker.value == "sglang"  # switching the target shows its closest peer
    assert '<div class="tp-closest"><b>sglang</b>' in pane.value


def test_the_caret_goes_where_the_text_stops(pg):
    root = pg.widget
    pg.preset = "half-typed JSON"
    status = pane_text(root, "tp-error")
    last = pg.request_text.rstrip("\n").split("\n")[-1]  # '          "name": "read_file",'
    assert f"<pre style=\"margin-top:4px\">{last}\n{' ' * len(last)}^</pre>" in status
    assert "the tabs keep the last good result (stale)" in status
