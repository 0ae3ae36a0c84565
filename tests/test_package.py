"""The package as a dependency: what `import tutorial` pulls in, its command line."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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
    """In English whatever the locale of the machine running the tests."""
    env = {**os.environ, "TUTORIAL_LANG": "en"}
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, encoding="utf-8", cwd=ROOT, env=env)


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


# ---------------------------------------------------------------------------
# The command line in Chinese: --lang zh, TUTORIAL_LANG=zh or a Chinese locale

CJK = re.compile(r"[\u3400-\u9fff]")
# What is not a sentence: code spans, quoted values, {choices}, [options], URLs, and words with
# a path, code or option character in them (tasks.py, chat_template, 127.0.0.1, --lang, apt-get).
NOT_PROSE = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|\{[^}]*\}|\[[^\]]*\]|https?://\S+|\S*[/_=.\-]\S*")
FUNCTION_WORDS = {"a", "an", "the", "is", "are", "was", "be", "of", "to", "in", "on", "for", "with", "and", "or", "not",
                  "no", "by", "it", "its", "this", "that", "as", "at", "from", "your", "you", "can", "cannot", "must",
                  "will", "should", "what", "which", "here", "there", "then", "else", "only", "every", "all", "each"}
ARGPARSE_ENGLISH = ("usage:", "options:", "positional arguments", "show this help message", "error:", "the following arguments",
                    "invalid choice", "unrecognized arguments", "expected one argument", "argument ")


def english_sentences(text: str) -> list[str]:
    """Runs of three or more English words with a function word among them ("the following
    arguments are required"); names, commands and code ("brew install graphviz") are not sentences."""
    plain = NOT_PROSE.sub(" ", text)
    runs = re.findall(r"\b[A-Za-z]+(?:,? [A-Za-z]+){2,}\b", plain)
    return [run for run in runs if FUNCTION_WORDS & set(run.lower().replace(",", "").split())]


def test_the_sentence_finder_finds_english_and_lets_names_be():
    assert english_sentences("python -m tutorial: error: the following arguments are required: file")
    assert english_sentences("show this help message and exit")
    assert not english_sentences("✓ 中文字体：WenQuanYi Micro Hei；brew install graphviz；python -m tutorial serve -h")
    assert not english_sentences("用法：python -m tutorial walk [-h] [--lang {en,zh}] [--target {chat_template,openai}]")


def chinese_env(how: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("TUTORIAL_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "LANG")}
    return {**env, **{"flag": {"LANG": "C"}, "locale": {"LANG": "zh_CN.UTF-8"}, "env": {"LANG": "C", "TUTORIAL_LANG": "zh"},
                      "LC_ALL": {"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}}[how]}


def run_cli(args: list[str], env: dict, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tutorial", *args], input=stdin, capture_output=True, text=True,
                          encoding="utf-8", cwd=ROOT, env=env)  # fmt: skip


def bad_body_file(tmp_path: Path, language: str = "zh") -> tuple[Path, str]:
    """A request the contract refuses, and its located message in `language` as the command line
    frames it (the location as it is, the reason in that language; under Chinese a comma, not a
    second colon, between them: `messages[2].content[0].tool_use_id 是必填项…`)."""
    import tutorial

    body = tutorial.readme_request()
    del body["messages"][2]["content"][0]["tool_use_id"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    try:
        tutorial.translate(body)
    except tutorial.RequestError as error:
        from tutorial import words

        with words.using(language):
            return path, words.located(error)
    raise AssertionError("the body should be refused")


CHINESE_RUNS = {  # name: (arguments, stdin, expected status)
    "help": (["--help"], "", 0),
    "walk help": (["walk", "--help"], "", 0),
    "translate help": (["translate", "-h"], "", 0),
    "grade help": (["grade", "--help"], "", 0),
    "serve help": (["serve", "--help"], "", 0),
    "doctor help": (["doctor", "--help"], "", 0),
    "no command": ([], "", 2),
    "grade without a file": (["grade"], "", 2),
    "a bad choice": (["walk", "--target", "nowhere"], "", 2),
    "an unknown option": (["translate", "--bogus"], "", 2),
    "a missing file": (["translate", "no/such/file.json"], "", 2),
    "text that is not JSON": (["translate", "-"], '{"messages": [\n  {"role": }', 2),
    "serve: an option without --forward": (["serve", "--model", "m"], "", 2),
    "serve: a port that is no number": (["serve", "--port", "abc"], "", 2),
    "serve: a port out of range": (["serve", "--port", "99999"], "", 2),
    "grade: a file that is not there": (["grade", "no_such_translator.py"], "", 2),
    "a refused request": (["translate", "BAD"], "", 2),
}


@pytest.mark.parametrize("name", CHINESE_RUNS)
@pytest.mark.parametrize("how", ["flag", "locale", "env"])
def test_cli_help_and_errors_in_chinese_have_no_english_sentence(name, how, tmp_path):
    args, stdin, status = CHINESE_RUNS[name]
    bad, located = bad_body_file(tmp_path)
    args = [str(bad) if arg == "BAD" else arg for arg in args]
    if how == "flag":  # before the command, or after it
        args = ["--lang", "zh", *args] if len(args) % 2 else [*args, "--lang", "zh"]
    result = run_cli(args, chinese_env(how), stdin)
    out = result.stdout + result.stderr
    assert result.returncode == status, out
    assert "Traceback" not in out and CJK.search(out), out
    shown = out.replace(located, "")  # the located error, its reason in Chinese (checked below)
    if name.startswith("grade:"):  # the system's reason, as build_it's loader writes it (its words, not the CLI's)
        shown = shown.replace(os.strerror(errno.ENOENT), "")
    assert english_sentences(shown) == [], out
    assert not [word for word in ARGPARSE_ENGLISH if word in shown], out
    if name == "a refused request":
        assert result.stderr == f"请求无效：{located}\n"


def test_cli_in_chinese_reads_json_errors_and_files_in_chinese(tmp_path):
    env = chinese_env("flag")
    broken = run_cli(["--lang", "zh", "translate", "-"], env, '{"messages": [\n  {"role": }')
    assert broken.stderr == "错误：标准输入不是有效的 JSON（第 2 行第 12 列），这里应该是一个 JSON 值\n"
    # nothing at all, and a trailing comma (JavaScript and Python allow it): said as such, in both languages
    assert run_cli(["--lang", "zh", "translate", "-"], env, "  \n").stderr == "错误：标准输入是空的，没有可读的 JSON\n"
    assert run_cli(["--lang", "en", "translate", "-"], env, "").stderr == (
        "error: stdin is empty: no JSON to read\n")
    comma = run_cli(["--lang", "zh", "translate", "-"], env, '{"max_tokens": 5,}')
    assert comma.stderr == ("错误：标准输入不是有效的 JSON（第 1 行第 18 列），这里应该是用双引号括起来的键名"
                            "（前面是逗号，可能多写了一个结尾的逗号）\n"), comma.stderr
    assert "(a trailing comma before it?)" in run_cli(["--lang", "en", "translate", "-"], env, "[1, 2,]").stderr
    assert "trailing comma" not in run_cli(["--lang", "en", "translate", "-"], env, '{"a" 1}').stderr
    # content of neither allowed type says what it got (zh review 6, finding 14)
    said = run_cli(["--lang", "zh", "translate", "-"], env, '{"messages": [{"role": "user", "content": 42}], "max_tokens": 5}')
    assert said.stderr == "请求无效：messages[0].content 必须是字符串或内容块列表，实际是整数（int）\n"
    missing = run_cli(["translate", str(tmp_path / "none.json"), "--lang", "zh"], env)
    assert missing.stderr == f"错误：无法读取 {tmp_path / 'none.json'}（没有这个文件或目录）\n"
    (tmp_path / "latin1.json").write_bytes(b'{"a": "\xff"}')
    assert "不是 UTF-8 文本" in run_cli(["--lang", "zh", "translate", str(tmp_path / "latin1.json")], env).stderr


def test_cli_walk_in_chinese_from_the_locale():
    result = run_cli(["walk"], chinese_env("locale"))
    assert result.returncode == 0 and "消息路径" in result.stdout and "工具路径" in result.stdout


def test_lc_all_wins_over_lang_and_the_flag_over_both():
    assert "用法：" in run_cli(["--help"], chinese_env("LC_ALL")).stdout
    assert run_cli(["--lang", "en", "--help"], chinese_env("locale")).stdout.startswith("usage: python -m tutorial")
    assert run_cli(["--help"], {**chinese_env("env"), "TUTORIAL_LANG": "en", "LANG": "zh_CN.UTF-8"}).stdout.startswith("usage:")


def test_cli_in_english_is_unchanged(tmp_path):
    env = {**chinese_env("flag"), "LANG": "en_US.UTF-8"}
    helped = run_cli(["--help"], env)
    assert helped.stdout.startswith("usage: python -m tutorial [-h] [--lang {en,zh}]")
    assert "show this help message and exit" in helped.stdout and not CJK.search(helped.stdout)
    missing = run_cli(["grade"], env)
    assert missing.stderr.endswith("python -m tutorial grade: error: the following arguments are required: file\n")
    bad, located = bad_body_file(tmp_path, "en")
    assert run_cli(["translate", str(bad)], env).stderr == f"error: {located}\n"


@pytest.mark.parametrize("port", ["99999", "-1", "65536"])
def test_serve_refuses_a_port_outside_0_to_65535_while_parsing_in_either_language(port):
    """zh review 4, finding 2: the socket layer took 99999 modulo 65536 and listened on 34463
    without a word, and -1 gave an English system error. Now the option is refused while the
    arguments are parsed (status 2, argparse's usage line above), in the command's language,
    and nothing listens."""
    english_env = {**chinese_env("flag"), "LANG": "en_US.UTF-8"}
    said = {
        "en": subprocess.run([sys.executable, "-m", "tutorial", "serve", "--port", port], capture_output=True, text=True,
                             encoding="utf-8", cwd=ROOT, env=english_env, timeout=120),
        "zh": subprocess.run([sys.executable, "-m", "tutorial", "--lang", "zh", "serve", "--port", port], capture_output=True,
                             text=True, encoding="utf-8", cwd=ROOT, env=chinese_env("flag"), timeout=120),
        "zh, serve's own module": subprocess.run([sys.executable, "-m", "tutorial.serve", f"--port={port}"], capture_output=True,
                                                 text=True, encoding="utf-8", cwd=ROOT, env=chinese_env("locale"), timeout=120),
    }  # fmt: skip
    english = f"python -m tutorial serve: error: --port must be an integer from 0 to 65535 (0 picks a free port), got {port}"
    chinese = f"错误：--port 必须是 0 到 65535 之间的整数（0 表示任选一个空闲端口），收到的是 {port}"
    for how, ran in said.items():
        assert ran.returncode == 2, (how, ran.stderr)
        assert ran.stderr.splitlines()[-1] == (english if how == "en" else chinese), (how, ran.stderr)
        assert ran.stdout == "" and "listening" not in ran.stderr and "正在监听" not in ran.stderr, (how, ran.stderr)
    assert said["zh"].stderr.startswith("用法：python -m tutorial serve") and english_sentences(said["zh"].stderr) == []


def test_serve_takes_every_port_from_0_to_65535():
    from tutorial.serve.cli import DEFAULT_PORT, parser

    assert [parser().parse_args(["--port", port]).port for port in ("0", "1", "65535")] == [0, 1, 65535]
    assert parser().parse_args([]).port == DEFAULT_PORT


def test_chinese_help_says_what_each_command_does_and_names_its_placeholders_in_chinese():
    """zh review 4, findings 7, 16, 17: a command's line is a verb phrase (打印…, 检查…, 启动…);
    serve's optional values are [模型名] and [模型家族] and its help says 这个模型, not MODEL or
    FAMILY; the threshold is "token 数"."""
    top = run_cli(["--lang", "zh", "--help"], chinese_env("flag")).stdout
    for line in ("serve               启动本地的 /v1/messages 端点", "trajectory          打印 token 路径上各会话的训练样本",
                 "drift               检查每个模型家族的下一轮 prompt 能否接续"):
        assert line in top, top
    served = run_cli(["--lang", "zh", "serve", "--help"], chinese_env("flag")).stdout
    assert "--engine [模型名]" in served and "--tokens [模型家族]" in served, served
    assert "运行这个模型（默认为 tiny" in served.replace("\n", "") and "MODEL" not in served and "FAMILY" not in served
    drifted = run_cli(["--lang", "zh", "drift", "--help"], chinese_env("flag")).stdout
    assert "打印漂移表" in drifted
    traced = run_cli(["--lang", "zh", "trajectory", "--help"], chinese_env("flag")).stdout
    assert "--fork-threshold token 数" in traced and "token数" not in traced and "（读取 serve --tokens --save" in traced


def test_the_chinese_table_covers_every_message_argparse_shows_a_user():
    """argparse's own msgids on this Python, read from its source: each one a user can meet
    has Chinese (the rest are errors in a program's use of argparse, not in a command line)."""
    import argparse
    import ast
    import inspect

    from tutorial.cli.words import ARGPARSE_ZH

    for_programmers = {"%r is not callable", "'required' is an invalid argument for positionals", ".__call__() not defined",
                       'argument "-" with mode %r', "cannot have multiple subparser arguments",
                       "cannot merge actions - two groups are named %r", "conflicting subparser alias: %s",
                       "conflicting subparser: %s", "dest= is required for options like %r",
                       "invalid conflict_resolution value: %r", "conflicting option string: %s", "conflicting option strings: %s",
                       "invalid option string %(option)r: must start with a character %(prefix_chars)r",
                       "mutually exclusive arguments must be optional"}  # fmt: skip
    found = set()
    for node in ast.walk(ast.parse(inspect.getsource(argparse))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "ngettext"):
            found |= {arg.value for arg in node.args if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
    assert "usage: " in found and "options" in found
    assert sorted(found - for_programmers - set(ARGPARSE_ZH)) == []


def test_main_in_process_leaves_the_language_and_argparse_as_they_were(capsys):
    import argparse

    from tutorial.cli import main
    from tutorial.words import current

    before, translate_words = current(), argparse._
    assert main(["--lang", "zh", "walk"]) == 0
    assert "消息路径" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--lang", "zh", "walk", "--target", "nowhere"])
    assert "错误：--target 不能取 'nowhere'，可选的值有 'chat_template'、'openai'\n" in capsys.readouterr().err
    assert current() == before and argparse._ is translate_words


def test_doctor_in_chinese_says_every_fix_in_chinese(monkeypatch, capsys):
    """Every check failing at once: each line and each fix is Chinese (commands and names aside)."""
    import importlib.metadata

    from tutorial.cli import doctor
    from tutorial.words import using

    def not_installed(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(doctor.shutil, "which", lambda name: None)
    monkeypatch.setattr(doctor.importlib.metadata, "version", not_installed)
    monkeypatch.setattr(doctor, "CHROMIUM", "/nowhere/chromium")
    for system in ("Linux", "Darwin", "Windows"):
        monkeypatch.setattr(doctor, "SYSTEM", system)
        with using("zh"):
            assert doctor.main([]) == 1
        out = capsys.readouterr().out
        lines = [line for line in out.splitlines() if line.strip() and not line.startswith("✓ Python ")]
        assert len(lines) > 20 and all(CJK.search(line) for line in lines), out
        assert english_sentences(out) == [], out
        assert lines[-1].startswith("需要修复 ")


def test_doctor_as_a_file_takes_lang_and_help():
    env = chinese_env("flag")
    ran = subprocess.run([sys.executable, "-I", str(ROOT / "tutorial" / "cli" / "doctor.py"), "--lang", "zh"], capture_output=True,
                         text=True, encoding="utf-8", env=env)  # fmt: skip
    assert ran.returncode in (0, 1) and ran.stdout.startswith("✓ Python ") and ("一切正常" in ran.stdout or "需要修复" in ran.stdout)
    helped = subprocess.run([sys.executable, "-I", str(ROOT / "tutorial" / "cli" / "doctor.py"), "-h"], capture_output=True,
                            text=True, encoding="utf-8", env=chinese_env("locale"))  # fmt: skip
    assert helped.returncode == 0 and helped.stdout.startswith("用法：python -m tutorial doctor")
    wrong = subprocess.run([sys.executable, "-I", str(ROOT / "tutorial" / "cli" / "doctor.py"), "--bogus"], capture_output=True,
                           text=True, encoding="utf-8", env=env)  # fmt: skip
    assert wrong.returncode == 2 and wrong.stderr.startswith("error: --bogus")


def test_chinese_help_is_wrapped_by_terminal_columns():
    from tutorial.cli.words import width, wrap

    text = "回复、摘要、错误和这份帮助的语言，用于 Accept-Language 既不是 en 也不是 zh 的请求（默认：TUTORIAL_LANG）"
    lines = wrap(text, 30)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(width(line) <= 30 for line in lines) and not any(line[0] in "，。：；）、" for line in lines)


def test_a_truncated_json_file_is_diagnosed_as_the_playground_does(tmp_path, capsys):
    """zh review 2, L22: the command line names the bracket left open, with the words room's one
    diagnosis (tutorial.words.brackets), not json's "Expecting ',' delimiter"."""
    from tutorial.cli import main

    truncated = tmp_path / "trunc.json"
    truncated.write_text('{"model": "m", "max_tokens": 5, "messages": [\n  {"role": "user", "content": "hi"}\n')
    assert main(["--lang", "zh", "translate", str(truncated)]) != 0
    assert capsys.readouterr().err.strip() == (
        f"错误：{truncated} 不是有效的 JSON（第 3 行第 1 列），文本已经结束，但从第 1 行第 45 列开始的列表还缺一个 ]"
        "（共有 2 个括号没闭合，这是最内层的一个）")
    assert main(["--lang", "en", "translate", str(truncated)]) != 0
    assert capsys.readouterr().err.strip() == (
        f"error: {truncated} is not valid JSON at line 3, column 1: the text ends before the list that begins at "
        "line 1, column 45 is closed: its ']' is missing (2 brackets are still open; this is the innermost)")
