"""The playground, headless: the model through every preset, edits, half-typed JSON, hostile
input and target switches; captured requests from a function (and from a real server); then
the widgets themselves, driven as a browser would drive them (set the editor's value, let the
pause pass or press Translate, click a tab, read the pane)."""

from __future__ import annotations

import ast
import html
import importlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutorial import preprocess, readme_request, trace, translate
from tutorial.notebook import playground as pg_module
from tutorial.errors import RequestError
from tutorial.notebook.playground import LABELS, MAX_DEPTH, README, Playground, describe_error, presets
from tutorial.notebook.show import as_json
from tutorial.words import using

CJK = re.compile(r"[\u3400-\u9fff]")

presets_module = importlib.import_module("tutorial.notebook.playground.presets")  # the attribute is the function
view_module = importlib.import_module("tutorial.notebook.playground.view")

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
    playground.wait()  # no timer left running, nothing left drawing, after a test


# ---------------------------------------------------------------------------
# The model


def test_starts_on_the_readme_example(pg, brief_translated, brief_tools_schema):
    assert pg.preset == README and pg.target == "chat_template"
    assert json.loads(pg.request_text) == readme_request()
    r = pg.results
    assert set(r) == {"translated", "tools_schema", "steps", "losses", "error", "stale", "yours"}
    assert r["yours"] is None  # no translator of the learner's, no column
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
    for end in range(1, len(text) - 1):  # the empty text is said as such (test below)
        pg.request_text = text[:end]
        r = pg.results
        assert r["error"].startswith("line "), (end, r["error"])
        assert r["stale"] is True and r["translated"] == brief_translated
    pg.request_text = text
    assert pg.results["error"] is None


@pytest.mark.parametrize("text, error", [
    # the closing brace of the body forgotten: said so, with where the object began
    ('{\n  "messages": [{"role": "user", "content": "hi"}],\n  "max_tokens": 5\n',
     "line 4, column 1: the text ends before the object that begins at line 1, column 1 is closed: its '}' is missing"),
    # the README example cut short: the innermost of the brackets still open
    ('{"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}',
     "line 1, column 74: the text ends before the list that begins at line 1, column 43 is closed: its ']' is missing "
     "(4 brackets are still open; this is the innermost)"),
    # a message's brace forgotten in the middle: the list's bracket comes too early
    ('{"messages": [{"role": "user", "content": "hi"], "max_tokens": 5}',
     "line 1, column 47: this ']' cannot close the object that begins at line 1, column 15: a '}' is missing before it"),
    # brackets inside strings are text, not structure
    ('{"messages": [{"role": "user", "content": "a } and a ]"}]',
     "line 1, column 58: the text ends before the object that begins at line 1, column 1 is closed: its '}' is missing"),
    # what is not a missing bracket keeps json's own words
    ('{"messages": [] "max_tokens": 5}', "line 1, column 17: Expecting ',' delimiter"),
    ('{"messages": "hi', "line 1, column 14: Unterminated string starting at"),
])
def test_a_missing_bracket_is_named_with_where_its_object_began(text, error):
    pg = Playground()
    pg.request_text = text
    assert pg.results["error"].startswith(error), pg.results["error"]
    assert "Expecting ',' delimiter" not in pg.results["error"] or "delimiter" in error


def test_json_error_line_and_column():
    pg = Playground()
    pg.request_text = '{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}'
    assert pg.results["error"].startswith("line 3, column 21: Expecting ',' delimiter")
    pg.request_text = ""
    assert pg.results["error"] == "the editor is empty: pick a preset or write a request body"


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
# Whatever it is given: a located error, never an exception (issue 12)

LOCATED = re.compile(r"^(line \d+, column \d+: |[^\n]+?: )")


def assert_located(pg, start: str = "") -> str:
    error = pg.results["error"]
    assert isinstance(error, str) and "\n" not in error, repr(error)
    assert LOCATED.match(error), error
    assert not re.search(r"(?i)a bug|please report|unexpected", error), error
    assert error.startswith(start), error
    return error


def tool_use_body(tool_input) -> dict:
    """A body whose tool call's input is `tool_input`: the input sits at level 6."""
    return {
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": tool_input}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
        ]
    }


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels - 1):
        value = {"k": value}
    return value


def test_text_nested_deeper_than_the_limit_is_located(pg, brief_translated):
    pg.request_text = "[" * 5000
    assert assert_located(pg) == f"line 1, column {MAX_DEPTH + 1}: nested deeper than {MAX_DEPTH} levels (the playground takes at most {MAX_DEPTH})"
    assert pg.results["stale"] is True and pg.results["translated"] == brief_translated
    pg.request_text = '{\n  "messages": ' + '{"a": ' * 20_000  # deeper than Python's own limit, and unfinished
    assert assert_located(pg).startswith(f"line 2, column {15 + 6 * (MAX_DEPTH + 1 - 2)}: nested deeper than")
    pg.request_text = '{"a": "' + "[" * 5000 + '"}'  # brackets inside a string do not nest
    assert_located(pg, "messages: ")


def test_the_depth_limit_is_the_package_s_own_and_exact():
    from tutorial import limits

    assert MAX_DEPTH == limits.MAX_DEPTH
    pg = Playground()
    pg.request_text = "[" * MAX_DEPTH + "]" * MAX_DEPTH  # as deep as allowed: read, then refused as a body
    assert_located(pg, "body: ")
    assert "deeper" not in pg.results["error"]
    pg.request_text = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert_located(pg, f"line 1, column {MAX_DEPTH + 1}: nested deeper than {MAX_DEPTH} levels")
    pg.request_text = tool_use_body(nested(limits.FREE_DEPTH + 2))  # within the limit of the text, too deep for a tool input
    assert_located(pg, "messages[1].content[0].input")
    assert re.search(r"(?i)deep|nest", pg.results["error"])


@pytest.mark.parametrize(
    "value, start, words",
    [
        ({"messages": {1, 2}}, "messages: must be a JSON value", "got set"),
        (object(), "body: must be a JSON value", "got object"),
        ({"messages": [{"role": "user", "content": b"hi"}]}, "messages[0].content: must be a JSON value", "got bytes"),
        ({(1, 2): 3}, "body: has a key of type tuple", None),
        (tool_use_body(nested(100_000)), "messages[1].content[0].input.k.k.k", f"deeper than {MAX_DEPTH} levels"),
        (tool_use_body({"n": 10**5000}), "messages[1].content[0].input.n: is an integer of more than", "digits"),
        (b"ok\xff\xfe", "body: bytes given as request_text are not UTF-8 text (at byte 2)", None),
    ],
    ids=["set", "object", "bytes-inside", "tuple-key", "deep", "huge-int", "bad-bytes"],
)
def test_values_that_cannot_be_json_text_are_located(pg, value, start, words, brief_translated):
    pg.request_text = value  # must not raise
    error = assert_located(pg, start)
    assert words is None or words in error
    assert pg.results["stale"] is True and pg.results["translated"] == brief_translated
    pg.target = "openai"  # the same problem, whatever the target
    assert pg.results["error"] == error


def test_a_value_that_contains_itself_is_located(pg):
    body = {"messages": [{"role": "user", "content": "hi"}]}
    body["messages"].append(body["messages"])
    pg.request_text = body
    assert assert_located(pg, "messages[1]: contains itself (a cycle)")
    assert "[...]" in pg.request_text  # the editor shows its repr


def test_a_value_that_is_json_is_shown_as_the_editor_shows_it(pg):
    pg.request_text = {"messages": [{"role": "user", "content": "hi"}], 1: 2}  # JSON keys are strings: refused, located
    assert_located(pg, "body: has a key of type int")
    pg.request_text = b'{"messages": [{"role": "user", "content": "\xe4\xbd\xa0\xe5\xa5\xbd"}]}'
    assert pg.results["error"] is None and pg.results["translated"] == [{"role": "user", "content": "你好"}]


def test_a_number_python_will_not_read_is_located(pg):
    pg.request_text = '{"messages": [{"role": "user", "content": "hi"}],\n "max_tokens": ' + "9" * 5000 + "}"
    assert assert_located(pg).startswith("line 2, column 16: a number of 5000 digits")


def test_a_failing_repr_and_a_lying_mapping_end_in_the_error_box(pg):
    class Odd(dict):
        def items(self):
            raise RuntimeError("no items for you")

        def __repr__(self):
            raise RuntimeError("no repr either")

    pg.request_text = Odd(messages=[])
    assert_located(pg, "body: ")
    assert pg.request_text == ""


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)
HOSTILE = st.recursive(
    JSONISH | st.sets(st.integers(), max_size=2) | st.binary(max_size=4) | st.just(object()) | st.tuples(st.integers()),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4)
    | st.builds(lambda body, extra: {**body, "messages": extra}, st.dictionaries(st.text(max_size=4), inner, max_size=2), inner),
    max_leaves=20,
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(st.text(max_size=60) | st.builds(lambda s, cut, extra: s[:cut] + extra + s[cut:],
                                      st.just(as_json(readme_request())), st.integers(0, 600), st.text(max_size=10)))
def test_any_text_ends_in_results_or_a_located_error(text):
    pg = Playground()
    pg.request_text = text
    if pg.results["error"] is not None:
        assert_located(pg)


@FUZZ
@given(HOSTILE)
def test_any_value_ends_in_results_or_a_located_error(value):
    pg = Playground()
    pg.request_text = value
    if pg.results["error"] is not None:
        assert_located(pg)


def test_the_labels_say_the_same_in_both_languages():
    assert set(LABELS) == {"en", "zh"} and set(LABELS["en"]) == set(LABELS["zh"])
    for key, text in LABELS["en"].items():
        assert set(re.findall(r"{(\w+)}", text)) == set(re.findall(r"{(\w+)}", LABELS["zh"][key])), key


def test_chinese_labels():
    pg = Playground(lang="zh")
    pg.request_text = '{"a" 1}'
    assert pg.results["error"] == "第 1 行第 6 列，这里缺少冒号“:”（文本还不是有效的 JSON）"
    assert "第 1 行" in pg_module.status_html(pg) and "^</pre>" in pg_module.status_html(pg)
    pg.request_text = "  \n"  # nothing typed yet: said so (zh review 6, finding 15), not "expecting a value"
    assert pg.results["error"] == "编辑器里还没有内容，请选一个预设或写一个请求体"
    pg.request_text = '{"a": [1,\n ]}'  # a trailing comma, as JavaScript and Python allow: named
    assert pg.results["error"] == "第 2 行第 2 列，这里应该是一个 JSON 值，前面是逗号，可能多写了一个结尾的逗号（文本还不是有效的 JSON）"
    pg.request_text = "{"
    assert pg.results["error"] == "第 1 行第 2 列，文本已经结束，但从第 1 行第 1 列开始的对象还缺一个 }"
    # the review's example (M7): one pair of brackets, not two back to back
    pg.request_text = '{"messages": [{"role": "user", "content": [{"type": "text"'
    assert pg.results["error"] == ("第 1 行第 59 列，文本已经结束，但从第 1 行第 44 列开始的对象还缺一个 }"
                                   "（共有 5 个括号没闭合，这是最内层的一个）")
    assert "第 1 行" in pg_module.status_html(pg) and "^</pre>" in pg_module.status_html(pg)
    # a place in the body is said as the command line says it (review M4): the place, a comma, the reason
    pg.request_text = '{"messages": [{"role": "robot", "content": "hi"}]}'
    assert pg.results["error"] == "messages[0].role 必须是 'user'、'assistant' 或 'system'，实际是 'robot'"
    pg.request_text = '{"messages": [{"role": "user", "content": [{"type": "tool_result"}]}]}'
    assert pg.results["error"].startswith("messages[0].content[0].tool_use_id 是必填项（")
    assert ": " not in pg.results["error"] and "：" not in pg.results["error"]
    with pytest.raises(ValueError, match="lang must be 'en' or 'zh'"):
        Playground(lang="fr")


FULL_WIDTH_EDITS = [  # (the text typed, the sentence in English, in Chinese): zh review 4, finding 4
    ('{"messages": [{“role”: "user", "content": "hi"}]}',
     'line 1, column 16: a full-width quotation mark (“); JSON reads only the ASCII double quote (") '
     "— switch to English punctuation",
     '第 1 行第 16 列是中文全角引号「“」，JSON 只认半角双引号 "，请切换到英文标点后再输入'),
    ('{\n  "messages": [\n    {\n      "role": "user”,\n      "content": "hi"\n    }\n  ]\n}',  # a closing quote only
     'line 4, column 20: a full-width quotation mark (”); JSON reads only the ASCII double quote (") '
     "— switch to English punctuation",
     '第 4 行第 20 列是中文全角引号「”」，JSON 只认半角双引号 "，请切换到英文标点后再输入'),
    ('{"messages"： []}',
     "line 1, column 12: a full-width colon (：); JSON reads only the ASCII colon (:) — switch to English punctuation",
     "第 1 行第 12 列是中文全角冒号「：」，JSON 只认半角冒号 :，请切换到英文标点后再输入"),
    ('{"messages": [{"role": "user"，"content": "hi"}]}',
     "line 1, column 30: a full-width comma (，); JSON reads only the ASCII comma (,) — switch to English punctuation",
     "第 1 行第 30 列是中文全角逗号「，」，JSON 只认半角逗号 ,，请切换到英文标点后再输入"),
    ('{"messages": ［]}',
     "line 1, column 14: a full-width bracket (［); JSON reads only the ASCII square bracket ([) "
     "— switch to English punctuation",
     "第 1 行第 14 列是中文全角括号「［」，JSON 只认半角方括号 [，请切换到英文标点后再输入"),
]


@pytest.mark.parametrize("text, english, chinese", FULL_WIDTH_EDITS)
def test_a_full_width_character_in_the_editor_is_named_with_its_place(text, english, chinese):
    """The review typed “role” and read 'the key should be in double quotes', which it was, to
    the eye. The error box names the character, its line and column, and the ASCII one."""
    for lang, said in (("en", english), ("zh", chinese)):
        pg = Playground(lang=lang)
        pg.request_text = text
        assert pg.results["error"] == said
        if lang == "en":
            assert_located(pg, "line ")


def test_a_full_width_quote_inside_a_string_is_text():
    """“好” inside a string that closes is the learner's text: json's own complaint stays."""
    pg = Playground()
    pg.request_text = '{"messages": [{"role": "user", "content": "他说“好”" "x": 1}]}'
    assert pg.results["error"].startswith("line 1, column 51: Expecting ',' delimiter")


def test_the_chinese_labels_say_capture_records_and_shrinking():
    """zh review 4, findings 5, 6 and 19: 捕获 is a verb (the thing is a 捕获记录); 缩进 reads as
    indent; the target's tip is not colloquial."""
    zh = LABELS["zh"]
    assert zh["from_capture"] == "来自捕获记录 {capture}"
    assert zh["capture_gone"] == "列表里没有捕获记录 {capture}（请刷新）"
    assert zh["capture_no_body"] == "body：捕获记录 {capture} 没有 JSON 请求体（没有可翻译的内容）"
    assert not [key for key, text in zh.items() if re.search(r"捕获 {capture}|缩进", text)]
    assert zh["zoom_tip_whole"] == "整张图缩小到窗格大小（文字较小）"
    assert zh["diagram_whole"].startswith("整张图已缩小到窗格内，")
    assert zh["target_tip_chat_template"] == "rollout 适配器的格式（即讲解文档中的格式）"


def test_the_chinese_zoom_toggle_and_prompt_notes_use_plain_words():
    """zh review 5, findings 18 and 19: 推理服务 (the glossary's term), not 服务栈; the zoom toggle
    says what each choice does, and the diagram's notes name the toggle's labels."""
    zh = LABELS["zh"]
    assert not [key for key, text in zh.items() if "服务栈" in text]
    assert zh["prompt_refused_note"] == "用这个模板的推理服务会对这个请求返回错误。"
    assert (zh["zoom_readable"], zh["zoom_whole"]) == ("可读大小", "缩放到窗格")
    assert f"<b>{zh['zoom_whole']}</b>" in zh["diagram_readable"] and f"<b>{zh['zoom_readable']}</b>" in zh["diagram_whole"]


def test_the_notes_follow_the_target(pg):
    assert "for the chat template's <code>messages</code>" in pg_module.translated_html(pg)
    assert "for the chat template's <code>tools</code>" in pg_module.tools_html(pg)
    pg.target = "openai"
    for page in (pg_module.translated_html(pg), pg_module.tools_html(pg)):
        assert "for the chat template's" not in page and "OpenAI-compatible engine builds" in page


# ---------------------------------------------------------------------------
# Captured requests: from any function that lists them (a running server's `captures`)


def capture(number: int, body, summary: str = "") -> dict:
    return {"id": f"cap_{number:04d}", "time": f"2026-11-30T14:32:0{number}.000+00:00", "method": "POST",
            "path": "/v1/messages?beta=true", "body": body, "summary": summary}


@pytest.fixture
def store():
    return [capture(1, readme_request(), "3 messages"), capture(2, {"messages": [{"role": "user", "content": "hi"}]})]


def test_a_playground_without_a_capture_source_lists_nothing(pg):
    assert pg.capture_source is None and pg.captured == [] and pg.refresh_captures() == []
    assert pg.capture is None


def test_captures_are_listed_newest_first_and_loaded_into_the_editor(store, brief_translated):
    pg = Playground(captures=lambda: store, preset="string system")
    assert [c["id"] for c in pg.captured] == ["cap_0002", "cap_0001"]
    assert pg_module.capture_title(pg.captured[1]) == "cap_0001 · 14:32:01 · POST /v1/messages?beta=true · 3 messages"
    seen = []
    pg.on_change(seen.append)
    pg.capture = "cap_0001"
    assert seen == ["capture"]
    assert pg.capture == "cap_0001" and pg.preset is None and pg.peer_case is None
    assert pg.request_text == as_json(readme_request())
    assert pg.results["error"] is None and pg.results["translated"] == brief_translated
    assert "loaded from capture cap_0001" in pg_module.status_html(pg)
    store.append(capture(3, None, "not JSON"))  # arrives after the last listing
    pg.capture = "cap_0003"  # an id not listed yet: the list is asked again
    assert_located(pg, "body: capture cap_0003 has no JSON body")
    assert pg.results["stale"] is True and pg.results["translated"] == brief_translated
    with pytest.raises(ValueError, match="no capture cap_0009"):
        pg.capture = "cap_0009"
    pg.preset = README
    assert pg.capture is None and pg.preset == README


def test_a_failing_capture_source_is_said_not_raised(store):
    calls = []

    def source():
        calls.append(1)
        if len(calls) > 1:
            raise ConnectionError("the server has stopped")
        return store

    pg = Playground(captures=source)
    assert len(pg.captured) == 2 and pg.captures_error is None
    assert len(pg.refresh_captures()) == 2  # the list stays as it was
    assert pg.captures_error == "Could not list the captured requests: ConnectionError: the server has stopped"
    pg.capture = "cap_0002"  # loading one that is listed needs no new listing
    assert pg.results["translated"] == [{"role": "user", "content": "hi"}]


def test_a_list_of_captures_works_too(store):
    pg = Playground(captures=store)
    pg.capture = "cap_0002"
    assert pg.results["translated"] == [{"role": "user", "content": "hi"}]


def test_captures_from_a_real_server(brief_translated):
    serve = pytest.importorskip("tutorial.serve")
    pytest.importorskip("starlette")
    import urllib.request

    with serve.start() as server:
        request = urllib.request.Request(
            f"{server.url}/v1/messages", data=json.dumps(readme_request()).encode(), method="POST",
            headers={"content-type": "application/json", "x-api-key": "sk-test", "anthropic-version": "2023-06-01"},
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200
        pg = Playground(captures=server.captures)
        assert len(pg.captured) == 1
        pg.capture = pg.captured[0]["id"]
        assert pg.results["error"] is None and pg.results["translated"] == brief_translated
        root = pg.widget
        picker = by_class(root, "tp-captured")
        assert picker.value == pg.captured[0]["id"]
        assert "1 captured request(s)" in by_class(root, "tp-captures-note").value


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
    assert "<colgroup>" in page  # fixed column widths: a long version string cannot push the verdicts out
    pg.request_text = pg.request_text.replace("what is this?", "and this?")
    assert "You have edited the body" in pg_module.peers_html(pg)
    pg.preset = "peer: 05_document_pdf"
    pg.target = "openai"
    page = pg_module.peers_html(pg)
    assert "refused at validation (HTTP 400)" in page  # SGLang and vLLM refused the document
    pg.preset = README
    assert 'Choose a preset named "peer: …"' in pg_module.peers_html(pg)


def test_without_recorded_peers_there_are_no_peer_presets_and_no_error(tmp_path, monkeypatch):
    monkeypatch.setattr(presets_module, "PEER_DIR", tmp_path)
    presets_module._peer_files.cache_clear()
    try:
        assert list(presets()) == BUILTIN
        assert pg_module.peer_results("04_image_base64_and_url") is None
        # cases present, outputs absent: the presets exist, the pane says what is missing
        (tmp_path / "cases.json").write_text(json.dumps([{"id": "x1", "request": readme_request()}]), encoding="utf-8")
        presets_module._peer_files.cache_clear()
        pg = Playground(preset="peer: x1")
        assert "No recorded peer outputs for x1" in pg_module.peers_html(pg)
    finally:
        presets_module._peer_files.cache_clear()


# ---------------------------------------------------------------------------
# The widgets

TITLES = ["translated", "tools_schema", "stages", "diagram", "prompt", "stays behind", "vs README", "peers"]
KEYS = {"tp-translated": "tab_translated", "tp-tools": "tab_tools", "tp-stages": "tab_stages",
        "tp-diagram": "tab_diagram", "tp-prompt": "tab_prompt", "tp-losses": "tab_losses", "tp-changes": "tab_changes", "tp-peers-pane": "tab_peers"}


def all_widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from all_widgets(child)


def by_class(root, css: str):
    found = [w for w in all_widgets(root) if css in w._dom_classes]
    assert len(found) == 1, (css, found)
    return found[0]


def pane_text(pg, css: str) -> str:
    """Click the pane's tab (only the visible tab is drawn), wait for a drawing, read the pane."""
    root = pg.widget
    if css in KEYS:
        pg._view.select(KEYS[css])
        assert pg.wait(30)
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
    assert not [x for x in all_widgets(root) if "tp-captured" in x._dom_classes]  # no capture source, no picker
    tabs = by_class(root, "tp-tabs")
    assert list(tabs.titles) == TITLES
    for css in ("tp-translated", "tp-tools", "tp-stages", "tp-diagram", "tp-losses", "tp-changes", "tp-peers-pane", "tp-error"):
        widget = by_class(root, css)
        assert widget.layout.height, f"{css} has no fixed height: the layout would jump"
    assert ".lm-TabBar-tab { flex: 0 0 auto" in root.children[0].value  # tab titles as wide as their text
    assert by_class(root, "tp-editor").value == pg.request_text
    translated = pane_text(pg, "tp-translated")
    assert "你是代码助手。" in translated  # ensure_ascii=False
    assert "\\u4f60" not in translated
    assert "<svg" in pane_text(pg, "tp-diagram") or "DOT" in pane_text(pg, "tp-diagram")
    assert "flatten_content" in pane_text(pg, "tp-stages") and "tool_call_dict" in pane_text(pg, "tp-stages")
    assert "messages[1].content[1].id" in pane_text(pg, "tp-losses")
    assert "The same outputs as the README example" in pane_text(pg, "tp-changes")
    assert "✓" in pane_text(pg, "tp-error")


def test_the_tab_titles_in_chinese():
    pg = Playground(lang="zh")
    tabs = by_class(pg.widget, "tp-tabs")
    assert list(tabs.titles) == ["translated", "tools_schema", "各阶段", "流程图", "prompt", "丢失项", "对比 README", "真实系统"]
    assert by_class(pg.widget, "tp-translate").description == "翻译"
    assert "交给聊天模板的 <code>messages</code>" in pane_text(pg, "tp-translated")
    assert "项未进入输出" in pane_text(pg, "tp-error")
    assert "生成长度上限" in pane_text(pg, "tp-losses") and "a sampling limit" not in pane_text(pg, "tp-losses")
    # the tab titles fit one row where the English ones do (1400 px and 1280 px): no longer than before
    before = ["translated", "tools_schema", "各阶段", "流程图", "提示词", "留下的", "对比 README", "同类实现"]
    assert sum(map(_title_width, tabs.titles)) <= sum(map(_title_width, before))
    assert sum(map(_title_width, tabs.titles)) <= sum(_title_width(LABELS["en"][key]) for key, _, _ in pg_module.PANES)


def _title_width(title: str) -> int:
    """A tab title's width in half-width columns (a Chinese character takes two)."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in title)


ENGLISH_WORD = re.compile(r"\b[A-Za-z]{2,}\b")


def _english_words(text: str, allowed: set) -> list[str]:
    return [word for word in ENGLISH_WORD.findall(text) if word not in allowed]


def test_a_chinese_playground_names_its_presets_in_chinese():
    pg = Playground(lang="zh")
    builtin = [name for name in pg.presets if not name.startswith("真实系统：")]
    assert len(builtin) >= 12 and pg.preset == "README 示例"
    for name in builtin:  # code names (system, thinking, tool_use_id, JSON) may stay; the words are Chinese
        assert CJK.search(name) and not _english_words(name, {"README", "system", "user", "thinking", "JSON",
                                                               "tool_use_id"}), name
    assert any(name.startswith("真实系统：") for name in pg.presets)
    # a chapter's code cell names a preset in English, in either language
    pg.preset = "server tool"
    assert pg.preset == "服务端工具" and pg.body["messages"][0]["content"] == "Python 3.13 有什么新东西？"
    pg.preset = "peer: 04_image_base64_and_url"
    assert pg.preset == "真实系统：04_image_base64_and_url" and pg.peer_case == "04_image_base64_and_url"
    assert "与本包的结果" in pg_module.peers_html(pg)
    with pytest.raises(ValueError, match="没有名为 'no such preset' 的预设，可选的预设有 README 示例、"):
        pg.preset = "no such preset"


def test_the_chinese_presets_are_the_english_ones_reworded():
    """Same keys, ids, tool names and shapes; only the prose differs. The English stay as they were."""
    with using("en"):
        english = pg_module.presets()
    with using("zh"):
        chinese = pg_module.presets()
    assert len(english) == len(chinese)
    presets_module = importlib.import_module("tutorial.notebook.playground.presets")
    for name, body in english.items():
        with using("zh"):
            other = chinese[presets_module.name_in(name)]
        if isinstance(body, str) or name in (pg_module.README, "missing tool_use_id") or name.startswith(pg_module.PEER_PREFIX):
            assert other == body, name  # the README example and what is made of it, recorded cases: data
            continue
        assert _shape(other) == _shape(body), name
        for text in _prose(other):
            assert CJK.search(text) or not _english_words(text, set()) or text == "print('hello')", (name, text)
        assert trace(other).losses and len(trace(other).translated) == len(trace(body).translated)
    assert Playground(lang="zh").preset_text("string system") != Playground().preset_text("string system")


def _shape(value):
    """A JSON value with its human-readable strings blanked: keys, ids and names stay."""
    if isinstance(value, dict):
        return {key: ("…" if key in ("text", "thinking", "description", "system", "city") or
                      (key == "content" and isinstance(item, str)) else _shape(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return value


def _prose(value) -> list[str]:
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if key in ("text", "thinking", "description", "system") and isinstance(inner, str):
                    found.append(inner)
                elif key == "content" and isinstance(inner, str) and item.get("type") != "tool_result":
                    found.append(inner)
                else:
                    stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.parametrize("text", [
    '{"a" 1}', '{"a": 1,}', '[1,]', "{a: 1}", '"abc', '"a\\x"', '"a\\uzz"', '"a\nb"', "[1 2]", "", '{"a": 1} x',
    "{", '{"a": [1, 2}', '{"a": tru}', "[" * 300,
])
def test_a_chinese_parse_error_has_no_english_sentence(text):
    pg = Playground(lang="zh")
    pg.request_text = text
    error = pg.results["error"]
    assert (error.startswith("第 ") or not text) and CJK.search(error)
    assert not _english_words(error, {"JSON", "playground", "Python", "uXXXX"}), error
    assert "第" in pg_module.status_html(pg) or not text


def test_json_messages_in_chinese_and_an_unknown_one_kept_in_parentheses():
    labels = importlib.import_module("tutorial.notebook.playground.labels")
    with using("en"):
        assert labels.json_message("Expecting value") == "Expecting value"
    with using("zh"):
        assert labels.json_message("Unterminated string starting at") == "从这里开始的字符串没有结束的引号"
        assert labels.json_message("Invalid control character '\\n' at").startswith("字符串里有控制字符")
        assert labels.json_message("Something new") == "JSON 格式有误（Something new）"


def test_the_chinese_loss_reasons_in_the_pane_and_in_the_results(monkeypatch):
    """The losses tab and `pg.results["losses"]` (which chapter 07 prints) give Chinese reasons."""
    monkeypatch.setattr("tutorial.words._chosen", "zh")  # use_language("zh")
    pg = Playground()
    assert pg.lang == "zh"
    seen = 0
    for name in pg.presets:
        if isinstance(pg.presets[name], str):
            continue
        pg.preset = name
        for loss in pg.results["losses"]:
            seen += 1
            assert CJK.search(f"{loss.reason}"), (name, loss.path, loss.reason)
            assert html.escape(loss.reason.zh, quote=False) in pg_module.losses_html(pg)
    assert seen > 50


def test_the_html_is_deterministic():
    first, second = Playground(), Playground()
    for css in KEYS:
        assert pane_text(first, css) == pane_text(second, css), css
    assert first._view.status.value == second._view.status.value
    first.wait(), second.wait()


def test_only_the_visible_tab_is_drawn(pg):
    root = pg.widget
    view = pg._view
    assert "你是代码助手。" in by_class(root, "tp-translated").value
    assert by_class(root, "tp-stages").value == ""  # never shown yet
    assert pg.wait() and view.drawings == 0  # the diagram is drawn only when its tab is shown
    pane_text(pg, "tp-diagram")
    assert view.drawings == 1
    view.select("tab_translated")
    pg.request_text = pg.request_text.replace("read_file", "open_file")
    assert pg.wait() and view.drawings == 1
    assert "open_file" in by_class(root, "tp-translated").value
    assert "open_file" not in by_class(root, "tp-tools").value  # redrawn when shown
    assert "open_file" in pane_text(pg, "tp-tools")
    assert "open_file" in pane_text(pg, "tp-diagram") and view.drawings == 2
    pane_text(pg, "tp-translated"), pane_text(pg, "tp-diagram")
    assert view.drawings == 2  # the same request is not drawn twice


def test_typing_waits_for_the_pause_then_every_pane_changes(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    diagram_before = pane_text(pg, "tp-diagram")
    pg._view.select("tab_translated")
    calls = []
    pg.on_change(calls.append)
    editor.value = editor.value.replace("read_file", "open_file")
    assert calls == [] and "open_file" not in by_class(root, "tp-translated").value  # not yet: waiting for the pause
    deadline = time.monotonic() + 10
    while not calls and time.monotonic() < deadline:
        time.sleep(0.05)
    assert calls == ["text"]
    assert "open_file" in pane_text(pg, "tp-translated") and "read_file" not in pane_text(pg, "tp-translated")
    assert "open_file" in pane_text(pg, "tp-tools")
    assert pane_text(pg, "tp-diagram") != diagram_before
    assert '+          "name": "open_file",' in pane_text(pg, "tp-changes")


def test_a_burst_of_half_typed_text_is_translated_once(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    status_before = by_class(root, "tp-error").value
    calls = []
    pg.on_change(calls.append)
    text = editor.value.replace("README.md", "NOTES.md")
    for end in range(len(text) - 40, len(text) + 1):  # typing the last 40 characters, one by one
        editor.value = text[:end]
    assert calls == [] and by_class(root, "tp-error").value == status_before  # no flood of errors
    pg.flush()
    assert calls == ["text"]
    assert pg.results["error"] is None
    assert "NOTES.md" in pane_text(pg, "tp-translated")


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
        assert "Stale: the request in the editor has an error" in pane_text(pg, css), css
    assert "我先读取文件。" in pane_text(pg, "tp-translated")  # the last good outputs, still shown
    editor.value = json.dumps(readme_request(), ensure_ascii=False)  # fixed (written on one line)
    by_class(root, "tp-translate").click()
    assert pg.results["error"] is None and pg.results["stale"] is False
    assert "tp-has-error" not in status._dom_classes and "Stale" not in pane_text(pg, "tp-translated")
    calls = []
    pg.on_change(calls.append)
    by_class(root, "tp-translate").click()  # unchanged text: translated again on demand
    assert calls == ["text"]


def test_broken_json_shows_the_line_with_a_caret(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = '{"messages": [}'
    pg.flush()
    status = by_class(root, "tp-error").value
    assert ("line 1, column 15: this '}' cannot close the list that begins at line 1, column 14: "
            "a ']' is missing before it") in html.unescape(status)
    assert '<pre style="margin-top:4px">{"messages": [}\n              ^</pre>' in status  # under column 15


def test_deep_text_shows_a_caret_at_the_place_not_a_wall_of_brackets(pg):
    root = pg.widget
    by_class(root, "tp-editor").value = "[" * 100_000
    pg.flush()
    status = by_class(root, "tp-error").value
    assert f"line 1, column {MAX_DEPTH + 1}: nested deeper than" in status
    shown = status.split('<pre style="margin-top:4px">')[1].split("</pre>")[0]
    assert len(shown) < 500 and shown.endswith("^")


def test_the_preset_picker_and_the_target_toggle(pg):
    root = pg.widget
    editor, picker, toggle = by_class(root, "tp-editor"), by_class(root, "tp-preset"), by_class(root, "tp-target")
    assert picker.options == tuple(pg.presets)
    picker.value = "server tool"
    assert pg.preset == "server tool" and editor.value == pg.request_text
    assert "web_search" in pane_text(pg, "tp-tools")
    toggle.value = "openai"
    assert pg.target == "openai"
    assert "web_search" not in pane_text(pg, "tp-tools")  # the openai target leaves server tools out
    assert "server tool runs on Anthropic" in pane_text(pg, "tp-losses")


def test_an_edit_waiting_for_the_pause_is_kept_when_the_target_changes(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = editor.value.replace("read_file", "open_file")
    by_class(root, "tp-target").value = "openai"
    assert pg.target == "openai" and "open_file" in pg.request_text
    assert "open_file" in editor.value and '\\"path\\": \\"README.md\\"' in pane_text(pg, "tp-translated")


def test_code_changes_show_in_the_widget(pg):
    root = pg.widget
    editor = by_class(root, "tp-editor")
    editor.value = "{ half typed"  # waiting for the pause ...
    pg.request_text = without_pairing_id(pg.request_text)  # ... when code sets the text: code wins
    assert editor.value == pg.request_text
    pg.flush()
    assert pg.results["error"].startswith(MISSING_ID)
    assert MISSING_ID in by_class(root, "tp-error").value
    pg.preset = "string system"
    assert by_class(root, "tp-preset").value == "string system" and editor.value == pg.request_text
    pg.target = "openai"
    assert by_class(root, "tp-target").value == "openai"
    assert "You are a terse assistant." in pane_text(pg, "tp-translated")


def test_callback_errors_go_to_the_output_widget(pg, monkeypatch):
    root = pg.widget
    log = by_class(root, "tp-log")

    def broken():
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(pg._view, "_render", broken)
    by_class(root, "tp-preset").value = "string system"  # must not raise into the notebook
    assert pg.preset == "string system"
    assert any("RuntimeError: drawing failed" in output.get("text", "") for output in log.outputs)


def test_the_diagram_is_readable_or_whole(pg):
    root = pg.widget
    zoom = by_class(root, "tp-zoom")
    assert zoom.value == "readable"
    page = pane_text(pg, "tp-diagram")
    svg = page[page.index("<svg"):]
    assert "<?xml" not in page and not re.match(r'<svg[^>]*\swidth="', svg)  # sized by its style, not in points
    low, high = re.search(r"width: clamp\((\d+)px, 100%, (\d+)px\)", svg).groups()
    smallest = min(float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)) * 4 / 3
    assert smallest * int(low) / int(high) >= 10  # never shrunk below readable text
    assert "Readable size" in page
    zoom.value = "whole"
    page = by_class(root, "tp-diagram").value
    assert "width: 100%; max-width: 100%; max-height: " in page and "The whole picture" in page
    assert pg._view.drawings == 1  # switching the size does not draw again


def test_the_diagram_says_what_it_collapsed(pg, monkeypatch):
    def drawn(trace):
        return pg_module.panes.Drawing(dot="digraph x {}", svg='<svg width="10pt" height="10pt"><text font-size="14.00">x</text></svg>',
                                       collapsed=(("messages[3..397]", 395), ("tools[3..27]", 25)))

    monkeypatch.setattr(view_module, "draw_flow", drawn)
    page = pane_text(pg, "tp-diagram")
    assert "Drawn in short: messages[3..397] (395), tools[3..27] (25) are each drawn as one summary row" in page


def test_the_diagram_says_what_it_collapsed_in_chinese(monkeypatch):
    """zh review 4, finding 18: the runs are joined with the labels' 、, not ', '."""
    def drawn(trace):
        return pg_module.panes.Drawing(dot="digraph x {}", svg='<svg width="10pt" height="10pt"><text font-size="14.00">x</text></svg>',
                                       collapsed=(("messages[3..397]", 395), ("tools[3..27]", 25)))

    monkeypatch.setattr(view_module, "draw_flow", drawn)
    pg = Playground(lang="zh")
    try:
        page = pane_text(pg, "tp-diagram")
    finally:
        pg.wait()
    assert "messages[3..397] (395)、tools[3..27] (25) 各画成一行摘要" in page


def test_the_diagram_of_a_long_request_is_collapsed_by_the_pictures_module():
    flow = pytest.importorskip("tutorial.pictures.flow")
    body = {"messages": [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i}"} for i in range(41)]}
    pg = Playground()
    pg.request_text = body
    if not hasattr(flow.local_flow(pg.trace), "collapsed"):
        pytest.skip("this pictures module does not collapse long requests")
    drawing = view_module.draw_flow(pg.trace)
    assert drawing.collapsed and drawing.collapsed[0][0].startswith("messages[")
    assert "Drawn in short: messages[" in pane_text(pg, "tp-diagram")
    pg.wait()


class SlowDrawing:
    """A draw_flow that waits for `release` and records which requests it drew."""

    def __init__(self):
        self.release = threading.Event()
        self.drawn: list[str] = []

    def __call__(self, trace):
        assert self.release.wait(30)
        first = trace.translated[-1]["content"]
        self.drawn.append(first)
        return pg_module.panes.Drawing(dot="digraph x {}", svg=f'<svg width="10pt" height="10pt"><text font-size="14.00">{first}</text></svg>')


def test_a_slow_drawing_never_blocks_editing_and_the_newest_request_wins(pg, monkeypatch):
    slow = SlowDrawing()
    monkeypatch.setattr(view_module, "draw_flow", slow)
    root = pg.widget
    view, editor, diagram = pg._view, by_class(pg.widget, "tp-editor"), by_class(pg.widget, "tp-diagram")
    view.select("tab_diagram")  # starts drawing the README example, which takes "long"
    assert "Drawing the diagram of the current request" in diagram.value
    body = readme_request()
    started = time.monotonic()
    for n in range(1, 4):  # three edits while the first drawing is still under way
        body["messages"][-1]["content"][-1]["text"] = f"edit {n}"
        editor.value = as_json(body)
        pg.flush()
        assert pg.results["error"] is None and f"edit {n}" in by_class(root, "tp-error").value + as_json(pg.results["translated"])
    assert time.monotonic() - started < 5  # nothing waited for the drawing
    assert slow.drawn == []
    slow.release.set()
    assert pg.wait(30)
    assert slow.drawn == ["请用一句话概括。", "edit 3"]  # the first drawing, then only the newest request
    assert "edit 3" in diagram.value and "earlier request" not in diagram.value


def test_a_drawing_that_fails_is_said_in_the_pane(pg, monkeypatch):
    def broken(trace):
        raise RuntimeError("dot crashed")

    monkeypatch.setattr(view_module, "draw_flow", broken)
    assert "The diagram could not be drawn: RuntimeError: dot crashed" in pane_text(pg, "tp-diagram")


@pytest.mark.skipif(not (PEERS / "outputs_requests.json").is_file(), reason="no recorded peer outputs")
def test_the_peer_picker_shows_one_peer_beside_ours(pg):
    root = pg.widget
    picker = by_class(root, "tp-peer-picker")
    assert picker.value == "slime"  # the peer the default target follows
    pg.preset = "peer: 01_system_str_user_str"
    pane = pane_text(pg, "tp-peers-pane")
    assert "✓ the same messages and tools as ours" in pane
    assert "<b>ours (chat_template)</b>" in pane and "<b>slime</b>{" not in pane
    picker.value = "litellm"
    assert '<div class="tp-closest"><b>litellm</b>' in pane_text(pg, "tp-peers-pane")
    by_class(root, "tp-target").value = "openai"
    assert picker.value == "sglang"  # switching the target shows its closest peer
    assert '<div class="tp-closest"><b>sglang</b>' in pane_text(pg, "tp-peers-pane")


def test_the_caret_goes_where_the_text_stops(pg):
    root = pg.widget
    pg.preset = "half-typed JSON"
    status = by_class(root, "tp-error").value
    last = pg.request_text.rstrip("\n").split("\n")[-1]  # '          "name": "read_file",'
    assert f"<pre style=\"margin-top:4px\">{last}\n{' ' * len(last)}^</pre>" in status
    assert "the tabs keep the last good result (stale)" in status


def test_the_captured_picker_loads_a_capture_into_the_editor(store, brief_translated):
    pg = Playground(captures=lambda: store)
    root = pg.widget
    picker, refresh, note = by_class(root, "tp-captured"), by_class(root, "tp-refresh"), by_class(root, "tp-captures-note")
    assert picker.options == (("cap_0002 · 14:32:02 · POST /v1/messages?beta=true", "cap_0002"),
                              ("cap_0001 · 14:32:01 · POST /v1/messages?beta=true · 3 messages", "cap_0001"))
    assert picker.value is None and pg.capture is None  # nothing loaded until one is chosen
    assert "2 captured request(s), newest first." in note.value
    picker.value = "cap_0002"
    assert pg.capture == "cap_0002" and by_class(root, "tp-preset").value is None
    assert json.loads(by_class(root, "tp-editor").value) == store[1]["body"]
    assert "loaded from capture cap_0002" in by_class(root, "tp-error").value
    store.append(capture(3, readme_request()))
    refresh.click()
    assert [value for _, value in picker.options] == ["cap_0003", "cap_0002", "cap_0001"]
    assert picker.value == "cap_0002" and pg.capture == "cap_0002"  # refreshing loads nothing
    picker.value = "cap_0003"
    assert pg.results["translated"] == brief_translated
    by_class(root, "tp-preset").value = "string system"
    assert picker.value is None and pg.capture is None
    store.clear()
    refresh.click()
    assert picker.options == () and "No requests captured yet" in note.value


# ---------------------------------------------------------------------------
# The layout of the playground package: imports run one way only


PLAYGROUND_DIR = ROOT / "tutorial" / "notebook" / "playground"


def playground_imports() -> dict[str, set[str]]:
    """module -> the playground modules it imports, also inside functions (a lazy import is
    still an edge: a cycle through one is a cycle at the first call)."""
    names = {path.stem for path in PLAYGROUND_DIR.glob("*.py")} - {"__init__"}
    graph = {}
    for name in names:
        tree = ast.parse((PLAYGROUND_DIR / f"{name}.py").read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module} if node.module else {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tutorial.notebook.playground."):
                found.add(node.module.rsplit(".", 1)[1])
        graph[name] = found & names
    return graph


def test_no_import_cycle_in_the_playground():
    graph = playground_imports()
    order = []  # each module after everything it imports
    while graph.keys() - set(order):
        ready = sorted(name for name in graph.keys() - set(order) if graph[name] <= set(order))
        assert ready, f"import cycle among {sorted(graph.keys() - set(order))}: " + "; ".join(
            f"{name} -> {sorted(graph[name] - set(order))}" for name in sorted(graph.keys() - set(order)))
        order += ready
    # The model knows no widget: neither the view nor the module that joins the two.
    assert not graph["model"] & {"view", "panes", "session"}
    assert not graph["panes"] & {"view", "session"} and "session" not in graph["view"]


def test_the_package_docstring_lists_the_modules_in_import_order():
    import tutorial.notebook.playground as package

    listed = re.findall(r"^    (\w+)\.py ", package.__doc__, flags=re.MULTILINE)
    graph = playground_imports()
    assert sorted(listed) == sorted(graph)
    for position, name in enumerate(listed):
        assert graph[name] <= set(listed[:position]), f"{name} imports {graph[name] - set(listed[:position])}, listed after it"


# ---------------------------------------------------------------------------
# The preset picker stops naming a preset the editor no longer holds


def test_the_preset_is_named_only_while_the_editor_holds_it(pg):
    root = pg.widget
    picker, note, editor = by_class(root, "tp-preset"), by_class(root, "tp-preset-note"), by_class(root, "tp-editor")
    assert pg.from_preset == README and picker.value == README and note.value == ""
    # Laid out differently, the same body: still the README example.
    pg.request_text = json.dumps(readme_request(), ensure_ascii=False)
    assert pg.from_preset == README and picker.value == README
    # Another body pasted into the editor: the picker stops saying "README example".
    editor.value = as_json({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8})
    pg.flush()
    assert pg.results["error"] is None and pg.results["translated"] == [{"role": "user", "content": "hi"}]
    assert pg.from_preset is None and picker.value is None
    assert "your own request (started from <b>README example</b>)" in note.value
    assert pg.preset == README  # what was chosen last stays known (the peers tab reads it)
    # Choosing the preset again brings its body back, and the name.
    picker.value = README
    assert json.loads(pg.request_text) == readme_request() and pg.from_preset == README and note.value == ""
    # A small edit is an edit too; a broken edit as well.
    pg.request_text = pg.request_text.replace("read_file", "open_file")
    assert picker.value is None
    pg.request_text = pg.request_text[:-3]
    assert pg.from_preset is None and pg.results["stale"]
    pg.preset = "half-typed JSON"  # a preset that is broken text is held while the text is its own
    assert pg.from_preset == "half-typed JSON" and picker.value == "half-typed JSON"


# ---------------------------------------------------------------------------
# The learner's translator, beside the package's ("yours")


def right_translate(body):
    """A correct translator, as a learner would hand it in (here: the package's own)."""
    return translate(body)


def keeps_the_id(body):
    """A plausible wrong one: the tool call keeps its id."""
    translated, tools_schema = translate(body)
    for message in translated:
        for call in message.get("tool_calls", []):
            call["id"] = "toolu_demo"
    return translated, tools_schema


def breaks_on_tools(body):
    for tool in body["tools"]:
        return tool["parameters"]  # chapter 05's slip: the Anthropic key is input_schema
    return [], None


def test_a_right_translator_agrees_on_every_builtin_preset():
    pg = Playground(yours=right_translate)
    for name in BUILTIN:
        pg.preset = name
        yours = pg.results["yours"]
        if pg.results["error"] is None:
            assert yours.state == "same", (name, yours)
            assert (yours.translated, yours.tools_schema) == (pg.results["translated"], pg.results["tools_schema"])
        else:
            assert yours.state == "not_compared" and "does not translate" in yours.message


def test_yours_first_difference_is_located_and_shown_in_a_column(pg):
    pg.yours = keeps_the_id
    yours = pg.results["yours"]
    where = 'translated[2]["tool_calls"][0]["id"]'
    assert yours.state == "differs" and yours.where == where and yours.theirs == "toolu_demo"
    assert yours.message.startswith(f"≠ yours differs at {where}: this key should not be there, yours has 'toolu_demo'. The rule: ")
    assert "no id" in yours.rule  # the chapter-05 rule that place follows
    page = pg_module.translated_html(pg)
    assert f"yours first differs at <code>{html.escape(where, quote=False)}</code>" in page
    verdict, columns = page.split('<div class="tp-columns">')
    ours, theirs = columns.split('class="tp-yours"')
    assert 'yours: <code>"toolu_demo"</code>' in verdict and "the rule: " in verdict
    assert '"toolu_demo"' not in ours and '"id": "toolu_demo"' in theirs
    assert f"≠ differs at {html.escape(where, quote=False)}" in pg_module.status_html(pg)
    assert 'class="tp-columns"' in pg_module.tools_html(pg)
    # The other target is not compared: a chapter-05 translator builds the chat template's shape.
    pg.target = "openai"
    assert pg.results["yours"].state == "not_compared" and "target openai" in pg.results["yours"].message


def test_yours_verdict_ends_with_the_rule_not_the_note_on_the_source():
    # zh review 6, finding 5: when no bullet applies, the verdict quotes translate's rule, and
    # stops there; why the package's source is longer belongs to the solution cell (05.translate).
    from tutorial.notebook.exercises import get

    for lang, rule, note in (("en", "returned together as a tuple.", "source is longer"), ("zh", "一起返回。", "源码更长")):
        with using(lang):
            pg = Playground(yours=lambda body: ([], None))
            pg.preset = "two text blocks in one user message"
            yours = pg.results["yours"]
            assert yours.state == "differs" and yours.message.endswith(rule) and note not in yours.message, yours
            explanation = get("05.translate").explanation if lang == "en" else get("05.translate").zh["explanation"]
            assert explanation.endswith(note + ("." if lang == "en" else "。")), explanation


def test_yours_that_raises_or_returns_something_else_is_said_with_its_line(pg):
    pg.yours = breaks_on_tools
    yours = pg.results["yours"]
    assert yours.state == "failed"
    line = breaks_on_tools.__code__.co_firstlineno + 2
    assert yours.message == f"your translate raised KeyError: 'parameters' (test_playground.py, line {line}, in breaks_on_tools)"
    assert pg.results["error"] is None and pg.results["translated"]  # ours is untouched
    pg.yours = lambda body: translate(body)[0]
    assert pg.results["yours"].message.startswith("your translate returned a list of 5 items; it should return")

    def unwritten(body):
        ...

    pg.yours = unwritten
    assert pg.results["yours"].state == "failed" and "translate is not written yet" in pg.results["yours"].message
    pg.yours = None
    assert pg.results["yours"] is None and 'class="tp-columns"' not in pg_module.translated_html(pg)
    pg.yours = 3
    assert pg.results["yours"].message == "yours cannot be used: yours must be a function or the path of a .py file, not a int"


def test_yours_from_a_file_that_does_not_import_the_package(pg, tmp_path):
    source = tmp_path / "my_translate.py"
    source.write_text(LEARNER_FILE, encoding="utf-8")
    pg.yours = str(source)
    assert pg.results["yours"].state == "same", pg.results["yours"]
    for name in BUILTIN:  # whatever the learner's code makes of each preset, one line says it
        pg.preset = name
        yours = pg.results["yours"]
        assert yours.message and "\n" not in yours.message and "Traceback" not in yours.message, (name, yours)
    pg.preset = "server tool"  # a server tool has no input_schema: the learner's line is named
    assert pg.results["yours"].message.startswith("your translate raised KeyError: 'input_schema' (my_translate.py, line ")
    pg.preset = README
    source.write_text(LEARNER_FILE.replace('"function": {"name": block', '"id": block["id"], "function": {"name": block'), encoding="utf-8")
    pg.yours = source
    assert pg.results["yours"].where == 'translated[2]["tool_calls"][0]["id"]'
    pg.yours = tmp_path / "missing.py"
    assert pg.results["yours"].state == "failed" and "missing.py" in pg.results["yours"].message


# A chapter-05 translator as a learner writes it: plain Python, no import of the package.
LEARNER_FILE = '''
def flatten_content(content):
    if isinstance(content, str):
        return content
    return "\\n".join(block["text"] for block in content if block.get("type") == "text")


def translate(body):
    messages = []
    system = body.get("system")
    if system:
        messages.append({"role": "system", "content": flatten_content(system)})
    for message in body["messages"]:
        content = message["content"]
        if isinstance(content, str):
            messages.append({"role": message["role"], "content": content})
            continue
        if message["role"] == "assistant":
            text = flatten_content(content)
            calls = [{"type": "function", "function": {"name": block["name"], "arguments": block.get("input") or {}}}
                     for block in content if block.get("type") == "tool_use"]
            turn = {"role": "assistant", "content": text}
            if calls:
                turn["tool_calls"] = calls
            messages.append(turn)
            continue
        texts = []
        for block in content:
            if block.get("type") == "tool_result":
                if texts:
                    messages.append({"role": "user", "content": "\\n".join(texts)})
                    texts = []
                messages.append({"role": "tool", "content": flatten_content(block.get("content", ""))})
            elif block.get("type") == "text":
                texts.append(block["text"])
        if texts:
            messages.append({"role": "user", "content": "\\n".join(texts)})
    tools = [{"type": "function", "function": {"name": tool["name"], "description": tool.get("description", ""),
                                                "parameters": tool["input_schema"]}}
             for tool in body.get("tools", [])]
    return messages, tools or None
'''


def test_yours_gets_a_copy_of_the_body(pg):
    def vandal(body):
        body["messages"].clear()
        return translate(readme_request())

    pg.yours = vandal
    assert pg.results["yours"].state == "same"
    assert pg.trace.preprocessed["messages"] and len(pg.results["translated"]) == 5


def test_yours_follows_every_edit_in_the_widget():
    pg = Playground(yours=keeps_the_id)
    editor = by_class(pg.widget, "tp-editor")
    assert "yours first differs" in pane_text(pg, "tp-translated")
    editor.value = as_json({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8})
    pg.flush()
    assert pg.results["yours"].state == "same"
    assert "✓ yours gives the same translated and tools_schema" in pane_text(pg, "tp-translated")
    pg.wait()


# ---------------------------------------------------------------------------
# The prompt tab: the request through a model family's real chat template

prompt_module = importlib.import_module("tutorial.notebook.playground.prompt")


def real_templates() -> bool:
    """Whether this machine can render the real templates (the sdist fetched, transformers there)."""
    import tutorial

    try:
        tutorial.render([{"role": "user", "content": "hi"}], None, template="qwen3")
    except Exception:  # noqa: BLE001 - any reason means: not here
        return False
    return True


needs_real = pytest.mark.skipif(not real_templates(), reason="the real chat templates are not fetched (python3 tasks.py setup)")


def test_the_family_picker_lists_the_real_families(pg):
    import tutorial

    assert prompt_module.families() == tuple(tutorial.template_families())
    assert pg.family == "qwen3"
    with pytest.raises(ValueError, match="no template family named 'qwen9'; choose one of: deepseek-v3.1"):
        pg.family = "qwen9"
    assert list(by_class(pg.widget, "tp-family").options) == list(tutorial.template_families())


@needs_real
def test_the_prompt_is_what_render_gives_with_its_token_count(pg):
    import tutorial

    prompt = pg.prompt
    translated, tools_schema = pg.results["translated"], pg.results["tools_schema"]
    assert prompt.text == tutorial.render(translated, tools_schema, template="qwen3")
    assert prompt.tokens == len(tutorial.render(translated, tools_schema, template="qwen3", tokenize=True))
    assert "<tool_call>" in prompt.text and prompt.refusal is None and prompt.missing is None
    page = pg_module.prompt_html(pg, prompt)
    assert f"<b>{prompt.tokens:,}</b> tokens" in page and "&lt;|im_start|&gt;system" in page
    # It follows the request.
    pg.request_text = pg.request_text.replace("read_file", "open_file")
    assert "open_file" in pg.prompt.text and "read_file" not in pg.prompt.text
    # A family without a vocabulary in the sdist still shows its prompt, and says why no count.
    pg.family = "kimi-k2"
    assert pg.prompt.text and pg.prompt.tokens is None and "no token ids for kimi-k2" in pg.prompt.tokens_note
    assert "token count unknown (no token ids for kimi-k2" in pg_module.prompt_html(pg, pg.prompt)


@needs_real
def test_a_template_s_refusal_is_shown_in_its_own_words(pg):
    pg.family = "mistral-small-3.2"  # the README example has a tool message followed by a user message
    prompt = pg.prompt
    assert prompt.text is None and prompt.refusal == (
        "After the optional system message, conversation roles must alternate user/assistant/user/assistant/...")
    page = pg_module.prompt_html(pg, prompt)
    assert "The <b>mistral-small-3.2</b> template refuses these messages, in its own words:" in page
    assert "Traceback" not in page and "RenderError" not in page


def test_what_rendering_lacks_is_one_line_on_how_to_get_it(pg, monkeypatch):
    import tutorial
    from tutorial.llama_cpp.sdist import FETCH_HINT, SdistMissing

    def no_transformers(*args, **kwargs):
        raise ModuleNotFoundError("No module named 'transformers'", name="transformers")

    monkeypatch.setattr(tutorial, "render", no_transformers)
    prompt = prompt_module.render_prompt(pg.trace, "qwen3")
    assert prompt.missing == "rendering a real template needs the Python package transformers; python3 tasks.py setup installs it"
    assert "The prompt cannot be rendered here: rendering a real template needs" in pg_module.prompt_html(pg, prompt)

    def no_sdist(*args, **kwargs):
        try:
            raise SdistMissing(f"llama.cpp's files are not fetched yet; run: {FETCH_HINT}")
        except SdistMissing as missing:
            raise ValueError("chat template 'qwen3': cannot be read") from missing

    monkeypatch.setattr(tutorial, "render", no_sdist)
    prompt = prompt_module.render_prompt(pg.trace, "qwen3")
    assert prompt.missing.startswith("llama.cpp's files are not fetched yet; run: python3 tasks.py setup")
    assert "\n" not in prompt.missing


class SlowPrompt:
    """A render_prompt that waits for `release` and records which requests it rendered."""

    def __init__(self):
        self.release = threading.Event()
        self.rendered: list[str] = []

    def __call__(self, trace, family, lang="en"):
        assert self.release.wait(30)
        last = trace.translated[-1]["content"]
        self.rendered.append(last)
        return prompt_module.Prompt(family, text=f"<|im_start|>user\n{last}<|im_end|>", tokens=7)


def test_the_prompt_is_rendered_off_the_keystroke_path_and_the_newest_request_wins(pg, monkeypatch):
    slow = SlowPrompt()
    monkeypatch.setattr(view_module, "render_prompt", slow)
    root = pg.widget
    view, editor, pane = pg._view, by_class(root, "tp-editor"), by_class(root, "tp-prompt")
    view.select("tab_translated")
    editor.value = editor.value.replace("read_file", "open_file")
    pg.flush()
    assert view.renderings == 0  # not while its tab is hidden
    view.select("tab_prompt")
    assert "Rendering the prompt with the <b>qwen3</b> chat template" in pane.value
    body = readme_request()
    started = time.monotonic()
    for n in range(1, 4):  # three edits while the first rendering is still under way
        body["messages"][-1]["content"][-1]["text"] = f"edit {n}"
        editor.value = as_json(body)
        pg.flush()
        assert f"edit {n}" in as_json(pg.results["translated"])
    assert time.monotonic() - started < 5  # nothing waited for the template
    slow.release.set()
    assert pg.wait(30)
    assert slow.rendered == ["请用一句话概括。", "edit 3"]  # the first, then only the newest request
    assert "edit 3" in pane.value and "earlier request" not in pane.value and "<b>7</b> tokens" in pane.value
    # Another family: rendered again, for the same request.
    by_class(root, "tp-family").value = "llama-3.3"
    assert pg.wait(30) and slow.rendered[-1] == "edit 3" and len(slow.rendered) == 3
    assert "<b>llama-3.3</b>" in pane.value and pg.prompt.family == "llama-3.3"


def test_without_the_fetched_templates_the_prompt_tab_says_how_to_fetch_them(tmp_path):
    """A fresh process whose cache folder is empty, as on a machine set up offline."""
    code = ("from tutorial.notebook.playground import Playground, prompt_html\n"
            "pg = Playground()\n"
            "print(pg.prompt.missing)\n"
            "print(prompt_html(pg, pg.prompt))\n")
    env = {**os.environ, "TUTORIAL_CACHE": str(tmp_path / "empty")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    missing, page = done.stdout.split("\n", 1)
    assert missing.startswith("llama.cpp's files are not fetched yet (") and missing.endswith(
        "run: python3 tasks.py setup (fetches llama.cpp's real chat templates and vocabularies, about 37 MB)")
    assert "The prompt cannot be rendered here: llama.cpp's files are not fetched yet" in page
    assert "Traceback" not in done.stdout + done.stderr


def test_yours_from_a_notebook_s_functions(pg):
    pg.yours = {"translate": right_translate, "flatten_content": lambda content: content}
    assert pg.results["yours"].state == "same"


def test_a_wrong_preset_family_or_yours_is_said_in_the_playgrounds_language():
    """An unknown preset or family names the choices joined by 、 under Chinese; yours given as
    source text is told it must be a function or a .py path (not read as a file name)."""
    for lang, family, preset in (("zh", "没有名为 'nope' 的模型家族，可选的有 deepseek-v3.1、glm-4.6、",
                                  "没有名为 'nope' 的预设，可选的预设有 README 示例、"),
                                 ("en", "no template family named 'nope'; choose one of: deepseek-v3.1, glm-4.6, ",
                                  "no preset named 'nope'; choose one of: README example, ")):  # fmt: skip
        with pytest.raises(ValueError) as raised:
            Playground(lang=lang, family="nope")
        assert str(raised.value).startswith(family), raised.value
        with pytest.raises(ValueError) as raised:
            Playground(lang=lang, preset="nope")
        assert str(raised.value).startswith(preset), raised.value
    source = "def translate(body):\n    return body['messages']\n"
    zh = Playground(lang="zh")
    zh.yours = source
    assert zh.results["yours"].message == ("无法使用你的 translate：yours 应当是一个函数或 .py 文件的路径，"
                                           "这里给的却是一段源代码。请先在单元格里运行这段代码，再把它定义的函数交给 yours")
    en = Playground(lang="en")
    en.yours = source
    assert "must be a function or the path of a .py file, and this is source text" in en.results["yours"].message
    assert "No such file" not in en.results["yours"].message
