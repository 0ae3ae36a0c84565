"""The located errors in Chinese (issue 32): every reason a `RequestError` can give has a
Chinese form; under Chinese the reason reads in Chinese and the location stays as it is;
English is untouched.

Two ways to enumerate the reasons: every `RequestError(...)` the package raises, read from
its source (a reason with a value in it is filled with sample values; a new kind of value
fails here until it has one), and every reason the hostile inputs of issue 12 provoke from
the entry points (the contract's own reasons, worded from pydantic, come out there).
"""

from __future__ import annotations

import ast
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tutorial
from tutorial import RequestError, limits, openai_target
from tutorial.contract import wording
from tutorial.watch import error_words, language

ROOT = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u9fff]")
sys.path.insert(0, str(ROOT / "tests"))
import hostile as H  # noqa: E402

# A sample for each value a reason is built with, by its expression in the source.
_REASONS_OF_FREE_VALUES = [limits._scalar_problem(v) for v in (float("nan"), H.huge_int(), object())]
SAMPLES = {
    "limits.MAX_DEPTH": ["54"],
    "MAX_VALUES": ["1,000,000"],
    "_WHERE[where]": list(openai_target._WHERE.values()),
    "why": list(openai_target._WHY.values())
    + ["the openai target does not know this block type", "it belongs in a user message or a tool_result"],
    "format_location(error.location)": ["input.a[0]"],
    "error.problem": _REASONS_OF_FREE_VALUES,
    "_error_summary(response.get('error'))": ["overloaded_error: 'Overloaded'", "dict"],
    "error.reason": ["invalid start byte"],
    "error.start": ["3"],
    "name": ["the JSON text", "the arguments", "the request body"],
    "wanted": ["a string", "an object"],
    "kind": ["text", "thinking", "tool_use"],
    "i": ["0"],
    "error": ["Expecting value: line 1 column 1 (char 0)"],
    "problem": ["is not valid JSON: Expecting value at line 1, column 1"],
    "_text_too_deep(text)": [limits._text_too_deep("[" * 60), "nests too deeply for Python's JSON reader"],
    "_long_integer(text, error)": [limits._long_integer("1" * 5000, ValueError()), "is not valid JSON: Exceeds the limit"],
}
# The same expression meaning another value in one file.
SAMPLES_IN = {
    ("round_trip.py", "why"): ["an uploaded file's id means nothing to Anthropic", "it is required"],
}
# Reasons computed elsewhere than in the call: their sources, sampled in full.
COMPUTED = {
    "_too_deep(max_depth)": [limits._too_deep(54)],
    "_too_big(name, len(text))": [limits._too_big(name, 20_000_000) for name in SAMPLES["name"]],
    "problem": _REASONS_OF_FREE_VALUES,
    "f'{problem} ({hint})' if hint else problem": [
        "is required",
        *(f"{p}, got int" for kind, p in wording._PROBLEMS.items() if kind != "missing"),
        *(f"is required ({hint})" for hint in wording._HINTS.values()),
        "must be 'user', 'assistant' or 'system', got 'robot' (inside messages, 'system' is accepted too)",
        "has unknown type 's3' (expected 'base64', 'url', 'file') (an image needs a base64, url or file source)",
        f"must be valid Unicode text, got '\\ud800': {wording._SURROGATE}",
        f"is a key that is not valid Unicode: {wording._SURROGATE}, and the contract can only match keys that are text",
    ],
}


def _sample(node: ast.expr, file: str) -> list[str]:
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        choices = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                choices.append([value.value])
                continue
            expression = ast.unparse(value.value)
            if "__name__" in expression:
                choices.append(["int", "NoneType"])
            elif "shown(" in expression or value.conversion == ord("r"):
                choices.append(["'x'", "None"])
            elif (file, expression) in SAMPLES_IN:
                choices.append(SAMPLES_IN[file, expression])
            elif expression in SAMPLES:
                choices.append(SAMPLES[expression])
            else:
                raise AssertionError(f"no sample for {{{expression}}}: add one to SAMPLES")
        return ["".join(parts) for parts in itertools.product(*choices)]
    expression = ast.unparse(node)
    assert expression in COMPUTED, f"no samples for the reason {expression}: add them to COMPUTED"
    return COMPUTED[expression]


def raised_reasons() -> dict[str, list[str]]:
    """Every `RequestError(location, reason)` in the package: 'file:line' -> sample reasons."""
    found = {}
    for path in sorted((ROOT / "tutorial").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None)
            if isinstance(node, ast.Call) and getattr(name, "id", getattr(name, "attr", None)) == "RequestError" and len(node.args) == 2:
                found[f"{path.relative_to(ROOT)}:{node.lineno}"] = _sample(node.args[1], path.name)
    return found


def test_every_reason_the_package_raises_has_a_chinese_form():
    reasons = raised_reasons()
    assert len(reasons) > 80  # the enumeration found the package's raise sites
    missing = [f"{where}: {reason}" for where, samples in reasons.items() for reason in samples if error_words.said(reason) is None]
    assert missing == []


def provoked_reasons() -> set[str]:
    reasons = set()

    def run(function, *args, **kwargs):
        try:
            function(*args, **kwargs)
        except RequestError as error:
            reasons.add(error.problem)

    for _, body in H.body_mutations():
        for target in ("chat_template", "openai"):
            run(tutorial.translate, body, target=target)
    for _, parsed, finish_reason in H.parsed_variants():
        run(tutorial.build_reply, parsed, finish_reason)
    for _, args, kwargs in H.stream_variants():
        run(lambda: list(tutorial.sse_events(*args, **kwargs)))
    for _, messages, tools in H.chat_variants():
        run(tutorial.to_anthropic, messages, tools)
    for _, response in H.response_variants():
        run(tutorial.response_to_message, response)
    for text in (H.deep_json_text(100), H.huge_int_json_text(), "{not json", b"\xff", "[1, 2"):
        run(tutorial.translate_json, text)
    return reasons


def test_every_reason_hostile_input_provokes_has_a_chinese_form():
    reasons = provoked_reasons()
    assert len(reasons) > 300
    untranslated = sorted(reason for reason in reasons if error_words.said(reason) is None)
    assert untranslated == []
    for reason in reasons:  # Chinese, and the values it names kept
        chinese = error_words.said(reason)
        assert CJK.search(chinese), reason
        for value in re.findall(r"'[^']*'|\b\d+\b", reason):
            assert value in chinese or value.strip("'") in chinese, (reason, chinese)


def body_without_tool_use_id() -> dict:
    body = tutorial.readme_request()
    del body["messages"][2]["content"][0]["tool_use_id"]
    return body


def test_the_location_stays_the_reason_turns_chinese_and_english_is_untouched():
    with pytest.raises(RequestError) as raised:
        tutorial.translate(body_without_tool_use_id())
    error = raised.value
    english = "messages[2].content[0].tool_use_id: is required (a tool_result names the tool_use it answers)"
    chinese = "messages[2].content[0].tool_use_id: 是必填项（tool_result 要写明它回答的是哪个 tool_use）"
    with language.using("en"):
        assert str(error) == english == error.args[0]
    assert error.problem == "is required (a tool_result names the tool_use it answers)"  # programs read English
    with language.using("zh"):
        assert str(error) == chinese
    assert error_words.message_in(error, "zh") == chinese and error_words.message_in(error, "en") == english


def test_the_command_line_says_the_reason_in_chinese(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(body_without_tool_use_id()), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TUTORIAL_LANG", None)
    zh = subprocess.run([sys.executable, "-m", "tutorial", "--lang", "zh", "translate", str(bad)], capture_output=True, text=True, env=env)
    assert zh.returncode == 2
    assert zh.stderr == "请求无效：messages[2].content[0].tool_use_id: 是必填项（tool_result 要写明它回答的是哪个 tool_use）\n"
    en = subprocess.run([sys.executable, "-m", "tutorial", "translate", str(bad)], capture_output=True, text=True, env={**env, "LANG": "C"})
    assert "messages[2].content[0].tool_use_id: is required (a tool_result names the tool_use it answers)" in en.stderr


def test_the_playground_alert_is_chinese():
    from tutorial.notebook.playground.model import Model

    body = tutorial.readme_request()
    body["messages"][1]["content"].append({"type": "future_block", "x": 1})
    with language.using("zh"):
        playground = Model(target="openai", lang="zh")
        playground.request_text = json.dumps(body, ensure_ascii=False)
        alert = playground.results["error"]
    assert alert.startswith("messages[1].content[2].type: assistant 消息中不能携带类型为 'future_block' 的内容块"), alert
    assert "does not know" not in alert
