"""The learner's chapter-05 translator used for real: `python -m tutorial grade FILE.py`,
`load_translator`, the replay of recorded requests, and `serve --translator` answering the
real `anthropic` SDK over loopback.

The translator graded here is tests/data/learner/my_translator.py, a chapter-05 solution
written by hand that does not import the package."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import tutorial
from tutorial.cli import main
from tutorial.notebook.build_it import TranslatorError, load_translator, replay, save_translator
from tutorial.notebook.build_it.replay import compare_request
from tutorial.words import using

ROOT = Path(__file__).resolve().parent.parent
LEARNER = ROOT / "tests" / "data" / "learner" / "my_translator.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "TUTORIAL_LANG": "en"}
KEEPS_ID = ('call = {"type": "function", "function"', 'call = {"id": block["id"], "type": "function", "function"')


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch):
    """The command line's language comes from --lang, use_language, TUTORIAL_LANG or the locale:
    English here whatever the machine's locale or an earlier test chose."""
    monkeypatch.setattr("tutorial.words._chosen", None)
    monkeypatch.setenv("TUTORIAL_LANG", "en")


def variant(tmp_path: Path, old: str, new: str, name: str = "yours.py") -> Path:
    """The learner's file with one change, written beside the test."""
    text = LEARNER.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def grade(capsys, *arguments: str) -> tuple[int, list[str], str]:
    status = main(["grade", *arguments])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def test_the_fixture_does_not_lean_on_the_package():
    code = "".join(line for line in LEARNER.read_text(encoding="utf-8").split('"""', 2)[2].splitlines(keepends=True))
    assert "tutorial" not in code  # below its docstring
    assert not re.search(r"^\s*(import|from)\s", code, re.MULTILINE)


def test_a_right_solution_written_by_hand_gets_exit_0_and_a_tick_per_check(capsys):
    status, lines, err = grade(capsys, str(LEARNER), "--lang", "en")
    assert (status, err) == (0, "")
    assert lines[0] == "my_translator.py: chapter 05's functions against the package"
    checks = lines[1:-1]
    assert [line.split(":")[0] for line in checks] == [
        "✓ flatten_content", "✓ user_block_message", "✓ assistant_message", "✓ translate_messages",
        "✓ tools_to_chat_tools", "✓ translate", "✓ tool_result_messages",
        "✓ translate on the 93 bodies the anthropic SDK sends", "✓ translate on the 2 requests of the recorded Claude Code session",
    ]  # fmt: skip
    assert lines[-1].startswith("all agree")


def test_keeping_the_tool_use_id_gets_exit_1_and_a_line_naming_the_id_key(capsys, tmp_path):
    status, lines, err = grade(capsys, str(variant(tmp_path, *KEEPS_ID)), "--lang", "en")
    assert (status, err) == (1, "")
    blamed = next(line for line in lines if line.startswith("✗ assistant_message:"))
    assert 'the first is the trap "one call"' in blamed
    assert 'at result["tool_calls"][0]["id"]: this key should not be there, yours has \'toolu_a\'' in blamed
    assert blamed.endswith("no id; the key is there only when there are calls.")  # the rule it breaks
    # The functions that call it are not blamed for it; the recorded requests show it too.
    assert "✗ translate_messages: calls your assistant_message, which does not agree yet (see its line); fix it first" in lines
    assert any(line.startswith("✗ translate on the 93 bodies") and '["tool_calls"][0]["id"]' in line for line in lines)
    assert any(line.startswith("✗ translate on the 2 requests") and "Claude Code request 2" in line for line in lines)
    assert lines[-1].startswith("not yet")


def test_a_file_with_translate_only_is_graded_on_translate(capsys, tmp_path):
    path = tmp_path / "only.py"
    path.write_text("import tutorial\n\ndef translate(body):\n    return tutorial.translate(body)\n", encoding="utf-8")
    status, lines, _ = grade(capsys, str(path))
    assert status == 0
    assert "– flatten_content: not defined in the file, not checked" in lines and lines[6].startswith("✓ translate:")


def test_a_translate_that_raises_is_a_located_difference(capsys, tmp_path):
    path = variant(tmp_path, 'def translate(body):\n    return', 'def translate(body):\n    body["tools"]\n    return')
    status, lines, err = grade(capsys, str(path), "--lang", "en")
    assert status == 1 and "Traceback" not in "".join(lines) + err
    line = next(line for line in lines if line.startswith("✗ translate:"))
    assert 'the trap "the README example without tools"' in line and "it raised KeyError: 'tools' (yours.py, line " in line


@pytest.mark.parametrize("lang, said, rule", [
    ("en", "It raised on every input, so no rule of the stage is at stake yet", "The rule:"),
    ("zh", "你的函数在每个输入上都抛出了异常，还谈不上违反了哪条规则", "规则："),
])
def test_a_translate_that_raises_on_every_input_is_not_sent_to_a_traps_rule(capsys, tmp_path, lang, said, rule):
    """zh review 6, finding 2: a function that only raises breaks no bullet yet; the trap's rule
    (tools_to_chat_tools's) would send the learner to the wrong function."""
    path = tmp_path / "raises.py"
    path.write_text('def translate(body, target="chat_template"):\n    raise RuntimeError("not yet")\n', encoding="utf-8")
    status, lines, _ = grade(capsys, str(path), "--lang", lang)
    line = next(line for line in lines if line.startswith("✗ translate"))
    assert status == 1 and said in line and rule not in line and "None" not in line.split("RuntimeError")[1][-200:], line


@pytest.mark.parametrize(
    "text, message",
    [
        ("def translate(body)\n    return body\n", r"^error: bad\.py, line 1, column \d+: SyntaxError: expected ':'$"),
        ("import no_such_module_here\n", r"^error: bad\.py, line 1: ModuleNotFoundError: No module named 'no_such_module_here'$"),
        ("def flatten_content(content):\n    return ''\n", r"^error: bad\.py: defines no function translate .*it defines flatten_content$"),
        ("rows = {}\nrows['a']\n", r"^error: bad\.py, line 2: KeyError: 'a'$"),
        ("import sys\nsys.exit(3)\n", r"^error: bad\.py, line 2: it calls exit\(\) while loading$"),
        ("def translate(body):\n    ...  # your code here\n", r"^error: bad\.py: translate is not written yet"),
        ("translate = 1\n", r"^error: bad\.py: defines no function translate"),
        (b"\xff\xfe\x00", r"^error: bad\.py: not UTF-8 text"),
    ],
    ids=["syntax", "import", "no translate", "raises at import", "exits", "stub", "not a function", "not utf-8"],
)
def test_a_file_that_does_not_load_gets_exit_2_and_one_located_line(capsys, tmp_path, text, message):
    path = tmp_path / "bad.py"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    status, lines, err = grade(capsys, str(path))
    assert (status, lines) == (2, [])
    assert re.search(message, err.strip()), err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_a_missing_file_gets_exit_2(capsys, tmp_path):
    status, _, err = grade(capsys, str(tmp_path / "nowhere.py"))
    assert status == 2 and err.startswith("error: ") and "nowhere.py: cannot read" in err


def test_endless_loops_end_in_a_located_line_not_a_hang(tmp_path):
    """Run as a real process: the threads left looping end with it."""
    loading = tmp_path / "loops_at_import.py"
    loading.write_text("while True:\n    pass\n", encoding="utf-8")
    calling = variant(tmp_path, "def translate(body):\n", "def translate(body):\n    while True:\n        pass\n", "loops.py")
    done = subprocess.run([sys.executable, "-m", "tutorial", "grade", str(loading), "--timeout", "1"],
                          capture_output=True, text=True, env=ENV, timeout=120)  # fmt: skip
    assert done.returncode == 2 and "loops_at_import.py: loading it did not finish within 1 s" in done.stderr
    done = subprocess.run([sys.executable, "-m", "tutorial", "grade", str(calling), "--timeout", "1"],
                          capture_output=True, text=True, env=ENV, timeout=300)  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert '✗ translate: on the trap "the README example without tools", translate(' in done.stdout
    assert "your function did not return within 1 s (an endless loop?)" in done.stdout
    stopped = next(line for line in done.stdout.splitlines() if line.startswith("✗ translate:"))
    assert "The rule" not in stopped and "No tools" not in stopped, stopped  # a loop breaks no bullet that can be named
    assert done.stdout.splitlines()[1].startswith("✓ flatten_content")


def test_the_command_line_exit_statuses(tmp_path):
    for path, status in ((LEARNER, 0), (variant(tmp_path, *KEEPS_ID), 1), (tmp_path / "none.py", 2)):
        done = subprocess.run([sys.executable, "-m", "tutorial", "grade", str(path)], capture_output=True, text=True, env=ENV, timeout=300)
        assert done.returncode == status, done.stdout + done.stderr


def test_the_report_speaks_chinese(capsys, tmp_path):
    status, lines, _ = grade(capsys, str(variant(tmp_path, *KEEPS_ID)), "--lang", "zh")
    assert status == 1 and lines[0] == "yours.py：第 05 章的函数与本包对照"
    assert any(line.startswith("✗ assistant_message：") or line.startswith("✗ assistant_message:") for line in lines)
    assert any("陷阱「一次调用」" in line for line in lines)


def test_the_chinese_report_names_what_it_means(capsys):
    """zh review 2026-12-03 (H1, M5): the line blaming a helper names it instead of three 它, the
    place in a result is 返回值[...] (no English placeholder), and a name is followed by a
    full-width colon."""
    status, lines, _ = grade(capsys, str(LEARNERS / "nested_as_json.py"), "--lang", "zh")
    assert status == 1
    assert "✗ translate_messages：调用了你写的 assistant_message，而后者还没通过（见上面那一行），" \
        "请先改好 assistant_message" in lines, lines  # zh review 5, finding 23: the name twice, not three times
    first = next(line for line in lines if line.startswith("✗ assistant_message："))
    assert '时，返回值["tool_calls"][0]["function"]["arguments"] 处应为' in first and "result[" not in first, first
    assert not any("它" in line or "body" in line for line in lines), lines


def test_the_language_flows_from_the_locale_to_the_report(capsys, tmp_path, monkeypatch):
    """No --lang: TUTORIAL_LANG unset and LANG=zh_CN.UTF-8 make the whole report Chinese, the
    checker's verdicts included; the process's language is as it was afterwards."""
    from tutorial.words import chosen

    monkeypatch.delenv("TUTORIAL_LANG")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    status, lines, _ = grade(capsys, str(variant(tmp_path, *KEEPS_ID)))
    assert status == 1 and lines[0] == "yours.py：第 05 章的函数与本包对照" and lines[-1].startswith("还不对")
    assert any("陷阱「一次调用」" in line for line in lines)
    assert chosen() is None


@pytest.mark.parametrize(
    "text, message",
    [("def translate(body)\n    return body\n", r"^错误：bad\.py"),
     ("def flatten_content(content):\n    return ''\n", r"^错误：bad\.py"),
     ("def translate(body):\n    ...  # your code here\n", r"^错误：bad\.py")],
    ids=["syntax", "no translate", "stub"],
)  # fmt: skip
def test_a_file_that_does_not_load_is_reported_in_chinese(capsys, tmp_path, text, message):
    """The frame is the command line's; the reason is the loader's, written in the language the
    command line set for the process (tutorial/notebook/build_it/learner.py)."""
    path = tmp_path / "bad.py"
    path.write_text(text, encoding="utf-8")
    status, lines, err = grade(capsys, str(path), "--lang", "zh")
    assert (status, lines) == (2, []) and re.search(message, err.strip()), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_bad_timeout_is_reported_in_chinese(capsys):
    status, _, err = grade(capsys, str(LEARNER), "--lang", "zh", "--timeout", "0")
    assert status == 2 and err == "错误：--timeout 必须是正数（秒），收到的是 0\n"


# ---------------------------------------------------------------------------
# load_translator and the replay


def test_load_translator_from_a_file_and_from_a_namespace():
    from_file = load_translator(LEARNER)
    assert from_file.origin == "my_translator.py" and from_file(tutorial.readme_request()) == tutorial.translate(tutorial.readme_request())
    namespace = {"translate": lambda body: tutorial.translate(body), "flatten_content": tutorial.flatten_content}
    from_namespace = load_translator(namespace)
    assert from_namespace.origin == "your notebook" and set(from_namespace.functions) == {"translate", "flatten_content"}


def test_the_translator_reports_what_went_wrong_in_one_located_line(tmp_path):
    raising = load_translator(variant(tmp_path, 'def translate(body):\n    return', 'def translate(body):\n    body["x"]\n    return'))
    with pytest.raises(TranslatorError, match=r"^your translate raised KeyError: 'x' \(yours\.py, line \d+, in translate\)$"):
        raising(tutorial.readme_request())
    shaped = load_translator({"translate": lambda body: {"messages": []}})
    with pytest.raises(TranslatorError, match=r"returned a dict; it should return \(translated, tools_schema\)"):
        shaped({"messages": []})
    body = tutorial.readme_request()
    mutating = load_translator({"translate": lambda given: (given.clear(), None)})
    mutating(body)
    assert body == tutorial.readme_request()  # it got a copy


def test_replaying_the_recorded_requests_locates_the_first_difference_per_request(tmp_path):
    with using("en"):
        right = replay(load_translator(LEARNER))
    assert right.agree and len(right.rows) == 95 and len(right.compared) == 95
    assert right.summary() == "95 of 95 requests translate exactly as the package's (0 left out)"
    with using("en"):
        wrong = replay(load_translator(variant(tmp_path, *KEEPS_ID)))
    differing = [row for row in wrong.rows if row.state == "differs"]
    assert [row.name for row in differing][-1] == "Claude Code request 2"
    assert all(row.difference.place.endswith('["tool_calls"][0]["id"]') for row in differing)
    assert all(row.state == "same" for row in wrong.rows if not any(
        block.get("type") == "tool_use" for message in _body(row.name)["messages"] if isinstance(message["content"], list)
        for block in message["content"]))  # fmt: skip


@pytest.mark.parametrize("lang, first, later", [
    ("en", "95 requests: request 1 did not finish, so the replay stopped there; the other 94 did not run",
     "95 requests: request 4 did not finish, so the replay stopped there; the other 91 did not run "
     "(2 of the 3 before it translate exactly as the package's, 1 left out)"),
    ("zh", "95 个请求中，第 1 个超时后停止，其余 94 个没有运行",
     "95 个请求中，第 4 个超时后停止，其余 91 个没有运行（在此之前的 3 个请求中有 2 个的翻译与本包完全相同，1 个未比较）"),
])
def test_a_replay_stopped_by_a_time_out_counts_every_request(lang, first, later):
    """zh review 4, finding 27: a translate that hangs on the first of 95 requests was summed up
    as '0 of 1 requests'; the summary now says how many there were, where it stopped and that
    the rest did not run (a Replay built by hand: a real endless loop would keep its thread)."""
    from tutorial.notebook.build_it.replay import Replay, Row

    hung = Row("SDK text_string", "error", note="timed out")
    assert Replay([hung], lang, stopped=True, total=95).summary() == first
    rows = [Row("SDK a", "same"), Row("SDK b", "left_out", note="refused"), Row("SDK c", "same"), hung]
    assert Replay(rows, lang, stopped=True, total=95).summary() == later


def _body(name: str) -> dict:
    from tutorial.notebook.build_it import recorded_requests

    return dict(recorded_requests())[name]


def test_tools_the_chapter_does_not_teach_are_taken_out_of_both_sides():
    body = _body("SDK tool_bash_20250124")
    found = compare_request(load_translator(LEARNER), body)
    assert found["agrees"] and "Anthropic-defined client tools" in found["note"]
    # The package gives the bash tool the schema Anthropic documents; the chapter's rules cannot.
    assert tutorial.translate(body)[1][0]["function"]["parameters"] != {"type": "object", "properties": {}}


# ---------------------------------------------------------------------------
# serve --translator, with the real SDK over loopback


@pytest.fixture
def served(tmp_path):
    """`python -m tutorial serve --translator` in a process of its own: (url, process)."""
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")

    def start(translator: Path):
        process = subprocess.Popen(
            [sys.executable, "-m", "tutorial", "serve", "--port", "0", "--translator", str(translator)],
            stderr=subprocess.PIPE, text=True, env=ENV, cwd=tmp_path,
        )  # fmt: skip
        started.append(process)
        banner = [process.stderr.readline() for _ in range(4)]
        url = re.search(r"listening on (http://127\.0\.0\.1:\d+)", banner[0]).group(1)
        assert f"your translator:       {translator.name}, compared with the package's on every request" in banner[3]
        return url, process

    started: list = []
    yield start
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGINT if os.name != "nt" else signal.SIGTERM)
            process.communicate(timeout=30)


@pytest.mark.skipif(os.name == "nt", reason="Ctrl-C cannot be sent to a child process this way on Windows")
def test_serve_with_a_translator_answers_the_sdk_and_every_capture_says_where_it_differs(served, tmp_path):
    anthropic = pytest.importorskip("anthropic")
    httpx = pytest.importorskip("httpx")
    url, process = served(variant(tmp_path, *KEEPS_ID))
    client = anthropic.Anthropic(base_url=url, api_key="sk-test", max_retries=0)
    reply = client.messages.create(model="local", **tutorial.readme_request())
    text = "".join(block.text for block in reply.content if block.type == "text")
    assert reply.stop_reason == "end_turn"
    assert text.endswith('Your translator: differs at translated[2]["tool_calls"][0]["id"]: this key should not be there, yours has '
                         "'toolu_demo'. The rule: each tool_use gives {\"type\": \"function\", "
                         '"function": {"name": ..., "arguments": ...}} in tool_calls, arguments being the block\'s '
                         "input (or {}), no id; the key is there only when there are calls "
                         "(the stage that checks this place: assistant_message).")  # fmt: skip
    with client.messages.stream(model="local", max_tokens=64, messages=[{"role": "user", "content": "你好"}]) as stream:
        assert "Your translator: agrees with the package" in stream.get_final_text()
    session = tutorial.examples.claude_code_session()["requests"][1]
    raw = httpx.post(url + session["path"], json=session["body"], headers={"anthropic-version": "2023-06-01"}, timeout=60)
    assert raw.status_code == 200
    captures = [httpx.get(f"{url}/captures/{item['id']}").json() for item in httpx.get(url + "/captures").json()["data"]]
    assert [capture["yours"]["agrees"] for capture in captures] == [False, True, False]
    first, _, agent = captures
    assert first["yours"]["difference"]["place"] == 'translated[2]["tool_calls"][0]["id"]'
    assert first["yours"]["difference"]["absent"] == "expected" and first["yours"]["difference"]["actual"] == "toolu_demo"
    assert first["yours"]["translator"] == "yours.py" and first["yours"]["translated"][2]["tool_calls"][0]["id"] == "toolu_demo"
    assert agent["yours"]["difference"]["place"].endswith('["tool_calls"][0]["id"]')
    process.send_signal(signal.SIGINT)
    _, log = process.communicate(timeout=30)
    assert '  your translator: differs at translated[2]["tool_calls"][0]["id"]' in log
    assert "  your translator: agrees with the package" in log


@pytest.mark.skipif(os.name == "nt", reason="Ctrl-C cannot be sent to a child process this way on Windows")
def test_serve_with_a_right_translator_agrees_on_every_capture(served):
    anthropic = pytest.importorskip("anthropic")
    httpx = pytest.importorskip("httpx")
    url, _ = served(LEARNER)
    client = anthropic.Anthropic(base_url=url, api_key="sk-test", max_retries=0)
    client.messages.create(model="local", **tutorial.readme_request())
    client.messages.create(model="local", max_tokens=64, system="简短。", messages=[{"role": "user", "content": "你好"}])
    listing = httpx.get(url + "/captures").json()["data"]
    assert [httpx.get(f"{url}/captures/{item['id']}").json()["yours"]["agrees"] for item in listing] == [True, True]
    assert httpx.get(url + "/").json()["translator"] == "my_translator.py"


def test_serve_refuses_a_translator_that_does_not_load(tmp_path, capsys):
    pytest.importorskip("starlette")
    from tutorial.serve.cli import main as serve

    path = tmp_path / "broken.py"
    path.write_text("def translate(body)\n", encoding="utf-8")
    assert serve(["--port", "0", "--translator", str(path)]) == 2
    assert re.fullmatch(r"error: broken\.py, line 1, column \d+: SyntaxError: expected ':'\n", capsys.readouterr().err)


def test_the_captures_of_a_translator_are_json(tmp_path):
    weird = load_translator({"translate": lambda body: ([{"role": "user", "content": {1, 2}}], None)})
    found = compare_request(weird, {"messages": [{"role": "user", "content": "x"}]})
    json.dumps(found)
    assert found["agrees"] is False and found["difference"]["actual"] == "{1, 2}"


def test_save_translator_writes_a_file_that_grade_accepts(tmp_path, capsys):
    """What chapter 05's SAVE cell does, from a namespace whose functions have their source."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("learner_notebook", LEARNER)
    module = importlib.util.module_from_spec(spec)
    sys.modules["learner_notebook"] = module
    spec.loader.exec_module(module)
    namespace = {**vars(module), "content_part": tutorial.openai_target.content_part, "unused": object()}
    saved = save_translator(namespace, tmp_path / "saved.py")
    text = saved.read_text(encoding="utf-8")
    assert "def _text_of(part):" in text and "IMAGE_TYPES = " in text  # the helpers and constants it uses
    assert "unused" not in text
    status, lines, _ = grade(capsys, str(saved))
    assert status == 0, lines
    with pytest.raises(TranslatorError, match="translate is not written yet"):
        save_translator({"translate": _stub}, tmp_path / "stub.py")
    assert not (tmp_path / "stub.py").exists()


def _stub(body):
    ...


def test_hostile_results_are_reported_not_raised(capsys, tmp_path):
    """A result that contains itself, objects whose == and repr raise, exit() inside translate."""
    path = tmp_path / "hostile.py"
    path.write_text(
        "class Weird:\n"
        "    def __eq__(self, other):\n        raise RuntimeError('no comparing me')\n"
        "    def __repr__(self):\n        raise RuntimeError('no showing me')\n\n"
        "def translate_messages(messages, system):\n    loop = []\n    loop.append(loop)\n    return loop\n\n"
        "def tools_to_chat_tools(tools):\n    return Weird()\n\n"
        "def translate(body):\n    import sys\n    if body.get('system') == '回答要简短。':\n        sys.exit(4)\n    return [Weird()], None\n",
        encoding="utf-8",
    )
    status, lines, err = grade(capsys, str(path), "--lang", "en")
    assert (status, err) == (1, "")
    assert any(line.startswith("✗ translate_messages:") and "its result cannot be compared" in line for line in lines)
    assert any(line.startswith("✗ tools_to_chat_tools:") and "got <a Weird that cannot be shown>" in line for line in lines)
    assert lines[-1].startswith("not yet")


@pytest.mark.skipif(os.name == "nt", reason="Ctrl-C cannot be sent to a child process this way on Windows")
def test_serve_with_a_translator_says_where_it_differs_in_the_clients_language(served, tmp_path):
    anthropic = pytest.importorskip("anthropic")
    url, process = served(variant(tmp_path, *KEEPS_ID))
    client = anthropic.Anthropic(base_url=url, api_key="sk-test", max_retries=0, default_headers={"accept-language": "zh-CN"})
    text = "".join(block.text for block in client.messages.create(model="local", **tutorial.readme_request()).content)
    assert text.startswith("这是教程服务器") and "\n\n你的翻译器：" in text
    line = text.rsplit("你的翻译器：", 1)[1]
    assert 'translated[2]["tool_calls"][0]["id"]' in line and re.search(r"[\u4e00-\u9fff]", line), line
    assert line.startswith("与本包不同，translated[2]"), line  # zh review 5, finding 39: not 不同：, a second colon
    process.send_signal(signal.SIGINT)
    _, log = process.communicate(timeout=30)
    assert "  你的翻译器：" in log  # the log line of a request in Chinese


# ---------------------------------------------------------------------------
# Two files written by a reviewer who had not read the checker's traps (issue 28): each must
# be refused at the stage that holds its mistake, the difference in view, that stage's rule.

LEARNERS = ROOT / "tests" / "data" / "learner"


@pytest.mark.parametrize("file, stage, rule, shown", [
    ("nested_as_json.py", "assistant_message", "calls",
     """expected {'query': '说明', 'options': {'depth': 2}}, got '{"query": "说明", "options": {"depth": 2}}'"""),
    ("strips_text.py", "user_block_message", "text", "expected '«  »你好\\n', got '«»你好'"),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_reviewers_mistake_is_caught_first_at_its_own_stage(capsys, file, stage, rule, shown, lang):
    from tutorial.notebook.build_it import RULES

    status, lines, err = grade(capsys, str(LEARNERS / file), "--lang", lang)
    assert status == 1 and not err
    checks = [line for line in lines[1:-1] if line[:1] in "✓✗–"]
    first = next(line for line in checks if line.startswith("✗"))
    assert first.startswith(f"✗ {stage}:" if lang == "en" else f"✗ {stage}："), lines
    assert all(line.startswith("✓") for line in checks[: checks.index(first)])
    if lang == "en":
        assert shown in first, first
        assert first.endswith("The rule: " + plain_in("en", RULES["en"][stage][rule])), first
    else:
        assert shown.replace("expected ", "应为 ").replace(", got ", "，实际为 ") in first, first
        assert first.endswith("规则：" + plain_in("zh", RULES["zh"][stage][rule])), first


def test_a_stripped_text_in_the_recorded_session_is_shown_so_it_can_be_seen(capsys):
    """The Claude Code session's reminder ends in a newline: the line used to print expected and
    got cut to the same visible text; now the run that differs sits between « and »."""
    status, lines, _ = grade(capsys, str(LEARNERS / "strips_text.py"))
    session = next(line for line in lines if "recorded Claude Code session" in line)
    want, have = re.search(r'expected (.+?), got (.+?) \(« » enclose where the two begin to differ; escapes such as '
                           r'\\n stand for whitespace\)\. The rule', session).groups()  # « » said once (L13)
    assert want != have and want.endswith('«\\n»"') and have.endswith('«»"'), session
    assert session.endswith("(the stage that checks this place: user_block_message).")


def test_a_translate_that_changes_the_callers_body_cites_never_change_what_you_are_given(capsys, tmp_path):
    from tutorial.notebook.build_it import TEXT

    path = variant(tmp_path, "def translate(body):\n", 'def translate(body):\n    body.pop("max_tokens", None)\n')
    status, lines, _ = grade(capsys, str(path))
    first = next(line for line in lines if line.startswith("✗"))
    assert status == 1 and first.startswith("✗ translate:"), lines
    assert TEXT["en"]["changed"] in first and first.endswith("The rule: " + TEXT["en"]["rule_unchanged"]), first
    assert "No tools" not in first


# Issue 36: blame follows the learner's private helpers, every line cites the blamed function's
# own rule, a word that differs is marked whole, and a message left out or added is named so.

SYSTEM_INSIDE = ('''        if role == "system":
            result.append({"role": "system", "content": flatten_content(content)})''', )


def test_a_helper_reached_through_a_private_generator_is_blamed_alone(capsys):
    """translate_messages is right but calls user_block_message from a private generator;
    user_block_message keeps the id. Only user_block_message is held to its difference."""
    for lang, heading, calls in (
        ("en", "private_generator.py: chapter 05's functions against the package",
         "calls your user_block_message, which does not agree yet (see its line); fix it first"),
        ("zh", "private_generator.py：第 05 章的函数与本包对照", "user_block_message"),
    ):
        status, lines, err = grade(capsys, str(LEARNERS / "private_generator.py"), "--lang", lang)
        assert (status, err) == (1, "") and lines[0] == heading  # the file's name as it is written, never capitalised
        checks = {line.split(":")[0].split("：")[0]: line for line in lines[1:-1]}
        assert "tool_call_id" in checks["✗ user_block_message"], checks
        for caller in ("✗ translate_messages", "✗ translate"):
            assert calls in checks[caller] and "inputs" not in checks[caller] and "输入中" not in checks[caller], checks[caller]


def test_a_replay_line_cites_the_rule_of_its_place_and_names_the_failing_helper_apart(capsys, tmp_path):
    """flatten_content joins with a space: the system prompt of a recorded request differs in
    translated[0], a place translate_messages builds. The rule quoted is that place's
    (translate_messages' system bullet); that flatten_content fails too is a sentence of its own
    (zh review 4, finding 1: issue 36 quoted the helper's rule instead)."""
    from tutorial.notebook.build_it import RULES

    path = variant(tmp_path, 'return "\\n".join(text for', 'return " ".join(text for')
    status, lines, _ = grade(capsys, str(path))
    recorded = [line for line in lines if line.startswith("✗ translate on")]
    assert status == 1 and len(recorded) == 2, lines
    also = " Your flatten_content, which translate_messages calls, does not agree yet either (see its line); fix it first."
    for line in recorded:
        system = plain_in("en", RULES["en"]["translate_messages"]["system"]).rstrip(".")
        assert line.endswith(f"The rule: {system} (the stage that checks this place: translate_messages).{also}"), line


BAD_TRANSLATOR = '''import json


def flatten_content(content):
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    return "".join(p.get("text", "") for p in content if isinstance(p, dict))


def translate(body):
    out = []
    if body.get("system"):
        out.append({"role": "system", "content": flatten_content(body["system"])})
    for m in body["messages"]:
        out.append({"role": m["role"], "content": flatten_content(m["content"])})
    tools = [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                                               "parameters": t.get("input_schema")}} for t in body.get("tools") or []]
    return out, tools
'''


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_difference_in_tools_schema_cites_the_tools_rule_not_a_failing_helpers(capsys, tmp_path, lang):
    """zh review 4, finding 1: flatten_content joins with "" and translate returns [] for no
    tools. The SDK line differs first at tools_schema: its rule is tools_to_chat_tools' "no tools
    → None", the stage named is tools_to_chat_tools, and flatten_content's failing check is said
    after it, in a sentence of its own — never flatten_content's rule for a place it does not build."""
    from tutorial.notebook.build_it import RULES

    path = tmp_path / "bad_tr.py"
    path.write_text(BAD_TRANSLATOR, encoding="utf-8")
    status, lines, _ = grade(capsys, str(path), "--lang", lang)
    sdk = next(line for line in lines if "SDK" in line and line.startswith("✗"))
    none = plain_in(lang, RULES[lang]["tools_to_chat_tools"]["none"])
    join = plain_in(lang, RULES[lang]["flatten_content"]["join"]).rstrip("。.")
    assert status == 1 and join not in sdk, sdk
    if lang == "en":
        assert "at tools_schema: expected None, got []. The rule: " + none.rstrip(".") in sdk, sdk
        assert sdk.endswith("(the stage that checks this place: tools_to_chat_tools). Your flatten_content, which translate "
                            "calls, does not agree yet either (see its line); fix it first."), sdk
    else:
        assert "tools_schema 处应为 None，实际为 []。规则：" + none + "（注：这个位置由 tools_to_chat_tools 这一阶段检查。）" in sdk, sdk
        assert sdk.endswith("另外，translate 调用的 flatten_content 也还没通过（见上面那一行），请先改好 flatten_content。"), sdk


@pytest.mark.parametrize("change, shown", [
    ("            continue", "at result[2]: 1 message missing (expected {'role': 'system', 'content': '技能列表已更新。'})"),
    ('            result.append({"role": "system", "content": flatten_content(content)})\n' * 2,
     "at result[3]: 1 extra message (got {'role': 'system', 'content': '技能列表已更新。'})"),
    ('            result.append({"role": "user", "content": flatten_content(content)})',
     "at result[2][\"role\"]: expected 'system', got 'user'"),
], ids=["left out", "twice", "another role"])
def test_a_message_left_out_or_added_or_a_word_changed_is_said_so(capsys, tmp_path, change, shown):
    old = SYSTEM_INSIDE[0]
    path = variant(tmp_path, old, old.splitlines()[0] + "\n" + change.rstrip("\n"))
    status, lines, _ = grade(capsys, str(path))
    line = next(line for line in lines if line.startswith("✗ translate_messages:"))
    assert status == 1 and shown in line and "«" not in line, line
    recorded = next(line for line in lines if line.startswith("✗ translate on the 93"))
    assert ("«" not in recorded) and (("missing" in shown) == (" message missing" in recorded)), recorded


def test_a_difference_inside_a_word_marks_the_whole_word():
    from tutorial.notebook.build_it.checker import contrast

    assert contrast("system", "user") == ("'system'", "'user'")
    assert contrast("the system said", "the user said") == ("'the «system» said'", "'the «user» said'")
    assert contrast("  你好\n", "你好") == ("'«  »你好\\n'", "'«»你好'")  # spaces alone stay as they are


def test_the_schema_bullet_says_missing_or_none():
    from tutorial.notebook.build_it import RULES

    assert "a schema that is missing or None" in RULES["en"]["tools_to_chat_tools"]["wrap"]
    assert "缺失或为 None" in RULES["zh"]["tools_to_chat_tools"]["wrap"]


def plain_in(lang: str, bullet: str) -> str:
    """A bullet as a verdict prints it: no backticks, a full stop at the end (zh review 2, L13)."""
    from tutorial.notebook.build_it.stages import plain
    from tutorial.words import using

    with using(lang):
        return plain(bullet)
