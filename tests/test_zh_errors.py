"""The located errors in Chinese (issues 32, 37): every reason a `RequestError` can give has a
Chinese form; under Chinese the reason reads in Chinese and the location stays as it is;
English is untouched.

An error carries its English template (its key) and its values; the Chinese template in
`tutorial/words/errors.py` has the same key and is filled forward (nothing is read back from
English). Two ways to enumerate the reasons: every template the package raises with, read from
its source (the contract's pydantic wording and the cycle's words included), and every reason the
hostile inputs of issue 12 provoke from the entry points.
"""

from __future__ import annotations

import ast
import json
import os
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

import tutorial
from tutorial import RequestError, limits
from tutorial.contract import wording
from tutorial.words import using
from tutorial.words import errors as error_words

ROOT = Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u9fff]")
sys.path.insert(0, str(ROOT / "tests"))
import hostile as H  # noqa: E402


def raised_templates() -> dict[str, str]:
    """Every template the package raises with: template -> 'file:line' of one raise.
    `RequestError(location, "template", **values)` and `Problem("template", **values)`; a raise
    whose reason is an f-string (English formatted in place, so no key) is reported as such."""
    found = {}
    for path in sorted((ROOT / "tutorial").rglob("*.py")):
        if "words" in path.relative_to(ROOT).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "func", None)
            name = getattr(name, "id", getattr(name, "attr", None))
            position = {"RequestError": 1, "Problem": 0, "ArgumentError": 0}.get(name)
            if not isinstance(node, ast.Call) or position is None or len(node.args) <= position:
                continue
            reason = node.args[position]
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            if isinstance(reason, ast.JoinedStr):
                found[f"f-string at {where}: {ast.unparse(reason)}"] = where
            elif isinstance(reason, ast.Constant) and isinstance(reason.value, str):  # not argparse's ArgumentError(None, …)
                found.setdefault(reason.value, where)
    for template in (*wording._PROBLEMS.values(), limits.CYCLE):  # named in a table or a constant
        found.setdefault(template, "(table)")
    shapes = ROOT / "tutorial" / "contract" / "shapes.py"  # the contract's own pydantic messages
    for node in ast.walk(ast.parse(shapes.read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and node.arg == "custom_error_message" and isinstance(node.value, ast.Constant):
            found.setdefault(node.value.value, "contract/shapes.py")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ByType" and len(node.args) == 3:
            found.setdefault(node.args[2].value, "contract/shapes.py")
    return found


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


# A value the Chinese leaves out on purpose: the codec's English reason ("invalid start byte");
# the Chinese says 无法解码 at the offset, as the command line does (zh review 2, M8).
UNSAID_IN_CHINESE = {"{name} is not UTF-8: {why} at byte {at}": {"why"}}


def test_every_template_the_package_raises_with_has_its_chinese_with_the_same_placeholders():
    templates = raised_templates()
    assert len(templates) > 80  # the enumeration found the package's raise sites
    keyless = [template for template in templates if template.startswith("f-string at ")]
    assert keyless == [], "a located error carries a template and its values, not an f-string"
    missing = [f"{where}: {template}" for template, where in templates.items() if template not in error_words.TEXTS]
    assert missing == []
    for english, chinese in error_words.TEXTS.items():
        unsaid = UNSAID_IN_CHINESE.get(english, set())
        assert _placeholders(english) - unsaid == _placeholders(chinese), english
        assert english in templates, f"a Chinese template nothing raises with: {english}"


def test_no_regular_expression_reads_an_english_message_back():
    """Issue 37: the words room formats forward; nothing in the package parses a message."""
    source = (ROOT / "tutorial" / "words" / "errors.py").read_text(encoding="utf-8")
    assert "import re" not in source and not (ROOT / "tutorial" / "watch" / "error_words.py").exists()


def provoked_reasons() -> dict[str, RequestError]:
    reasons = {}

    def run(function, *args, **kwargs):
        try:
            function(*args, **kwargs)
        except RequestError as error:
            reasons[error.problem] = error

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
    for reason, error in reasons.items():  # Chinese, and the values it names kept
        chinese = error_words.chinese(error.key, error.values)
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
    chinese = "messages[2].content[0].tool_use_id: 是必填项（tool_result 要写明回答的是哪个 tool_use）"
    with using("en"):
        assert str(error) == english == error.args[0]
    assert error.problem == "is required (a tool_result names the tool_use it answers)"  # programs read English
    with using("zh"):
        assert str(error) == chinese


def test_the_command_line_says_the_reason_in_chinese(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(body_without_tool_use_id()), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TUTORIAL_LANG", None)
    zh = subprocess.run([sys.executable, "-m", "tutorial", "--lang", "zh", "translate", str(bad)], capture_output=True, text=True, env=env)
    assert zh.returncode == 2
    assert zh.stderr == "请求无效：messages[2].content[0].tool_use_id 是必填项（tool_result 要写明回答的是哪个 tool_use）\n"
    en = subprocess.run([sys.executable, "-m", "tutorial", "translate", str(bad)], capture_output=True, text=True, env={**env, "LANG": "C"})
    assert "messages[2].content[0].tool_use_id: is required (a tool_result names the tool_use it answers)" in en.stderr
    listed = tmp_path / "list.json"
    listed.write_text("[1]", encoding="utf-8")
    body = subprocess.run([sys.executable, "-m", "tutorial", "--lang", "zh", "translate", str(listed)], capture_output=True, text=True, env=env)
    assert body.stderr == "请求无效：请求体必须是 JSON 对象，实际是列表（list）\n"  # the body itself: no "body" before the reason
    body = subprocess.run([sys.executable, "-m", "tutorial", "translate", str(listed)], capture_output=True, text=True, env={**env, "LANG": "C"})
    assert body.stderr == "error: body: the request body must be a JSON object, got list\n"


def test_the_playground_alert_is_chinese():
    from tutorial.notebook.playground.model import Model

    body = tutorial.readme_request()
    body["messages"][1]["content"].append({"type": "future_block", "x": 1})
    with using("zh"):
        playground = Model(target="openai", lang="zh")
        playground.request_text = json.dumps(body, ensure_ascii=False)
        alert = playground.results["error"]
    assert alert.startswith("messages[1].content[2].type 处，assistant 消息中不能携带类型为 'future_block' 的内容块"), alert
    assert "does not know" not in alert


def test_a_valid_request_never_touches_the_words_room():
    """Issue 37: words cost nothing on the success path; the room loads when an error is told."""
    code = (
        "import sys, tutorial; tutorial.translate(tutorial.readme_request()); "
        "tutorial.translate_json(b'{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}'); "
        "print(sorted(m for m in sys.modules if m.startswith('tutorial.words')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert result.stdout.strip() == "[]"


def test_the_python_api_says_its_argument_errors_in_the_current_language():
    """zh review 2, M8: a wrong target and bytes that are not UTF-8, in Chinese under zh."""
    import tutorial
    from tutorial.words import using

    body = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
    with using("zh"):
        with pytest.raises(ValueError) as wrong_target:
            tutorial.translate(body, target="foo")
        assert str(wrong_target.value) == "target 只能是 'chat_template' 或 'openai'，实际是 'foo'"
        with pytest.raises(tutorial.RequestError) as not_text:
            tutorial.translate_json(b"\xff\xfe")
        assert str(not_text.value) == "body: 请求体不是 UTF-8 文本（偏移 0 处无法解码）"
        with pytest.raises(ValueError) as not_json_text:
            tutorial.translate_json(5)
        assert str(not_json_text.value) == "translate_json 接受的是 JSON 文本（str 或 bytes），实际是整数（int）"
        with pytest.raises(ValueError) as not_a_language:
            tutorial.use_language("fr")
        assert str(not_a_language.value) == "lang 只能是 'en' 或 'zh'，实际是 'fr'"
        from tutorial.notebook.build_it import check_stage

        with pytest.raises(KeyError) as no_stage:
            check_stage("nope", len)
        assert str(no_stage.value).startswith("没有名为 'nope' 的阶段，可用的阶段是 flatten_content、user_block_message、")
    with using("en"):
        with pytest.raises(ValueError, match="target must be one of 'chat_template' or 'openai', got 'foo'"):
            tutorial.translate(body, target="foo")


def test_no_chinese_error_puts_two_bracket_pairs_back_to_back():
    """zh review 2, L18: 实际是字符串（str）（…） — a hint after a bracket follows a comma instead;
    and no template, filled with any type name, makes ）（."""
    import tutorial
    from tutorial.words import using

    body = {"model": "m", "max_tokens": 5, "messages": [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "n", "input": "{}"}]}]}
    with using("zh"):
        with pytest.raises(tutorial.RequestError) as error:
            tutorial.translate(body)
        said = str(error.value)
    assert "）（" not in said
    assert said.startswith("messages[0].content[0].input: 必须是 JSON 对象，实际是字符串（str），")
    for english in error_words.TEXTS:
        names = _placeholders(english)
        for got in error_words.TYPE_NAMES:
            values = {name: (got if name == "got" else "x") for name in names}
            if "problem" in values:
                from tutorial.errors import Problem

                values["problem"] = Problem("must be a string, got {got}", got=got)
            try:
                said = error_words.chinese(english, values)
            except (ValueError, KeyError, IndexError):  # a number-formatted placeholder: not a type name's place
                continue
            assert "）（" not in said, (english, got, said)


FULL_WIDTH_FILES = [  # (the file's text, the place and reason in English, in Chinese): zh review 4, finding 4
    ('{“messages”:[]}',
     'at line 1, column 2: a full-width quotation mark (“); JSON reads only the ASCII double quote (") '
     "— switch to English punctuation",
     '（第 1 行第 2 列），这里是中文全角引号「“」，JSON 只认半角双引号 "，请切换到英文标点后再输入'),
    ('{"messages": [{"role": "user”, "content": "hi"}]}',  # json read past the full-width closing quote
     'at line 1, column 29: a full-width quotation mark (”); JSON reads only the ASCII double quote (") '
     "— switch to English punctuation",
     '（第 1 行第 29 列），这里是中文全角引号「”」，JSON 只认半角双引号 "，请切换到英文标点后再输入'),
    ('{"messages"：[]}',
     "at line 1, column 12: a full-width colon (：); JSON reads only the ASCII colon (:) — switch to English punctuation",
     "（第 1 行第 12 列），这里是中文全角冒号「：」，JSON 只认半角冒号 :，请切换到英文标点后再输入"),
    ('{"messages": [{"role": "user"，"content": "hi"}]}',
     "at line 1, column 30: a full-width comma (，); JSON reads only the ASCII comma (,) — switch to English punctuation",
     "（第 1 行第 30 列），这里是中文全角逗号「，」，JSON 只认半角逗号 ,，请切换到英文标点后再输入"),
]


@pytest.mark.parametrize("command", ["translate", "walk"])
def test_the_command_line_names_a_full_width_character_in_the_json_file(tmp_path, command):
    """The review's file {“messages”:[]} read 'the key should be in double quotes', which it was,
    to the eye: the error names the full-width character, its line and column and the ASCII one."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C"}
    env.pop("TUTORIAL_LANG", None)
    text, english, chinese = FULL_WIDTH_FILES[0]
    bad = tmp_path / "fullwidth.json"
    bad.write_text(text, encoding="utf-8")
    zh = subprocess.run([sys.executable, "-m", "tutorial", "--lang", "zh", command, str(bad)], capture_output=True, text=True, env=env)
    assert (zh.returncode, zh.stderr) == (2, f"错误：{bad} 不是有效的 JSON{chinese}\n")
    en = subprocess.run([sys.executable, "-m", "tutorial", command, str(bad)], capture_output=True, text=True, env=env)
    assert (en.returncode, en.stderr) == (2, f"error: {bad} is not valid JSON {english}\n")


@pytest.mark.parametrize("text, english, chinese", FULL_WIDTH_FILES)
def test_json_text_with_a_full_width_character_is_said_with_its_place(text, english, chinese):
    """The words the command line and the server's 400 use (`text_problem`), in both languages,
    for bytes and for text; json's own complaint is not what the learner reads."""
    from tutorial.cli.words import text_problem

    for data in (text, text.encode("utf-8")):
        with using("en"):
            assert text_problem(data, "the request body") == f"the request body is not valid JSON {english}"
        with using("zh"):
            assert text_problem(data, "请求体") == f"请求体不是有效的 JSON{chinese}"
    with using("zh"):  # a full-width quote inside a string that closes is text: json's complaint stays
        assert text_problem('{"a": "他说“好”" "b": 1}', "请求体") == "请求体不是有效的 JSON（第 1 行第 15 列），这里缺少逗号“,”"


def test_a_json_lines_file_with_a_full_width_character_is_said_with_its_place(tmp_path):
    from tutorial.cli.trajectory import Unreadable, read_captures

    path = tmp_path / "captures.jsonl"
    path.write_text('{"id": "cap_1"}\n{"id"："cap_2"}\n', encoding="utf-8")
    with using("zh"), pytest.raises(Unreadable) as raised:
        read_captures(path, "c.jsonl")
    assert str(raised.value) == "c.jsonl 不是有效的 JSON Lines（第 2 行第 6 列），这里是中文全角冒号「：」，JSON 只认半角冒号 :，请切换到英文标点后再输入"
