"""The command line's language: which one, argparse's own words in it, and what the commands say.

    python -m tutorial --lang zh doctor          every line a user reads is Chinese
    LANG=zh_CN.UTF-8 python -m tutorial --help   the same, from the locale

The language is `--lang` wherever it stands on the line, else the `using` block the command
runs in, else the one `tutorial.use_language` chose in this process, else `TUTORIAL_LANG`,
else the locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else English. argparse writes its own
words ("usage:", "options", "the following arguments are required") through gettext's `_`;
`argparse_words()` puts a small table in its place while the parser is built and used, so
help and errors are Chinese with no catalogue installed (`错误：--target 不能取 'foo'，可选的值有
'chat_template'、'openai'`). A one-line error ends without a full stop in both languages,
argparse's as the commands' own (`错误：--timeout 必须是正数（秒），收到的是 0`). The lesson's
located errors keep their location and give their reason in the command's language, the
place then a comma (`tutorial.words.located`, the same words as the error box of the notebook): 「请求无效：messages[2].content[0].tool_use_id 处，是必填项（…）」.

Standard library and `tutorial.words` only: the server's command line uses it too. A command
runs inside `using(its language)`; what it calls reads `current()`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
from typing import Iterator, Mapping, Optional, Sequence, Union

from .. import words
from ..words import brackets, full_width
from ..words import LANGUAGES, current, for_a_command as choose  # noqa: F401  (choose: the command line's language)


def flag_in(argv: Sequence[str]) -> Optional[str]:
    """The value of the last `--lang X` / `--lang=X` before a `--`, or None. Read before the
    parser is built, because the parser's own help is written in that language."""
    found = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            found = argv[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def lang_of(argv: Sequence[str], environ: Optional[Mapping[str, str]] = None) -> str:
    return choose(flag_in(argv), environ)


# ---------------------------------------------------------------------------
# argparse in Chinese

ARGPARSE_ZH = {
    "usage: ": "用法：",
    "positional arguments": "位置参数",
    "options": "选项",
    "optional arguments": "选项",  # Python before 3.10
    "subcommands": "子命令",
    "show this help message and exit": "显示这条帮助信息并退出",
    "%(prog)s: error: %(message)s\n": "错误：%(message)s\n",  # the usage line above names the command; no 。 (a one-line error)
    "the following arguments are required: %s": "缺少必需的参数 %s",
    "unrecognized arguments: %s": "无法识别的参数 %s",
    "argument %(argument_name)s: %(message)s": "%(argument_name)s %(message)s",  # each message reads after the option's name
    "invalid choice: %(value)r (choose from %(choices)s)": "不能取 %(value)r，可选的值有 %(choices)s",
    "invalid choice: %(value)r, maybe you meant %(closest)r? (choose from %(choices)s)":
        "不能取 %(value)r，可选的值有 %(choices)s",
    "invalid %(type)s value: %(value)r": "的值 %(value)r 不是有效的 %(type)s 值",
    "expected one argument": "需要一个值",
    "expected at most one argument": "最多需要一个值",
    "expected at least one argument": "至少需要一个值",
    "expected %s argument": "需要 %s 个值",
    "expected %s arguments": "需要 %s 个值",
    "ambiguous option: %(option)s could match %(matches)s": "选项 %(option)s 有歧义，可以是 %(matches)s",
    "not allowed with argument %s": "不能与参数 %s 一起使用",
    "one of the arguments %s is required": "必须给出参数 %s 之一",
    "ignored explicit argument %r": "不接受值，%r 被忽略了",
    "can't open '%(filename)s': %(error)s": "无法打开 '%(filename)s'（%(error)s）",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "未知的子命令 %(parser_name)r（可选的有 %(choices)s）",
    "unexpected option string: %s": "意外的选项 %s",
    "option '%(option)s' is deprecated": "选项 '%(option)s' 已弃用",
    "argument '%(argument_name)s' is deprecated": "参数 '%(argument_name)s' 已弃用",
    "command '%(parser_name)s' is deprecated": "子命令 '%(parser_name)s' 已弃用",
}  # fmt: skip
"""argparse's messages (its msgids, Python 3.9 to 3.14) in Chinese; one it does not list stays English."""


@contextlib.contextmanager
def argparse_words() -> Iterator[None]:
    """While inside, argparse writes its own words in the current language: its module's `_`
    and `ngettext` (looked up when a message is made) are replaced by the table above, then put back."""
    if current() != "zh":
        yield
        return
    saved = {name: getattr(argparse, name) for name in ("_", "ngettext") if hasattr(argparse, name)}
    def chinese(message: str) -> str:
        return ARGPARSE_ZH.get(message, message)

    check_value = argparse.ArgumentParser._check_value

    def chinese_choice(parser: argparse.ArgumentParser, action: argparse.Action, value) -> None:
        """A value not among the choices, its choices joined by 、; a subcommand said as one
        (its metavar, {walk,translate,...}, is no name to read)."""
        if action.choices is None or value in action.choices:
            return
        if isinstance(action, argparse._SubParsersAction):
            raise argparse.ArgumentError(None, f"没有 {value!r} 这个子命令，可选的有 {'、'.join(map(str, action.choices))}")
        raise argparse.ArgumentError(action, f"不能取 {value!r}，可选的值有 {'、'.join(map(repr, action.choices))}")

    get_value = argparse.ArgumentParser._get_value

    def chinese_number(parser: argparse.ArgumentParser, action: argparse.Action, text: str):
        """A number that is not one: "--port 的值 'abc' 不是整数" (argparse would name Python's type, int)."""
        kind = NUMBER_ZH.get(action.type)
        if kind is None:
            return get_value(parser, action, text)
        try:
            return action.type(text)
        except (TypeError, ValueError):
            raise argparse.ArgumentError(action, f"的值 {text!r} 不是{kind}") from None

    argparse._ = chinese  # type: ignore[attr-defined]
    argparse.ngettext = lambda singular, plural, n: chinese(singular if n == 1 else plural)  # type: ignore[attr-defined]
    argparse.ArgumentParser._check_value = chinese_choice  # type: ignore[method-assign]
    argparse.ArgumentParser._get_value = chinese_number  # type: ignore[method-assign]
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(argparse, name, value)
        argparse.ArgumentParser._check_value = check_value  # type: ignore[method-assign]
        argparse.ArgumentParser._get_value = get_value  # type: ignore[method-assign]


NUMBER_ZH = {int: "整数", float: "数字"}  # what an option's `type=` asks for, as a Chinese error names it

LAST_PORT = 65535


class Port(argparse.Action):
    """`--port`'s action (with `type=int`): a number outside 0..65535 is refused while the
    arguments are parsed, in the current language, as the commands' own errors are worded
    ("--port must be an integer from 0 to 65535 (0 picks a free port), got 99999"); the
    socket layer would take 99999 modulo 65536 and listen somewhere else without a word."""

    def __call__(self, parser, namespace, value, option_string=None) -> None:
        if not 0 <= value <= LAST_PORT:
            option = max(self.option_strings, key=len) if self.option_strings else self.dest
            raise argparse.ArgumentError(None, words.words_for(WORDS, "bad_port", option=option, value=value, last=LAST_PORT))
        setattr(namespace, self.dest, value)


_WIDE = re.compile(r"[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]")


width = words.columns  # columns on a terminal: two for a wide (CJK) character
wrap = words.wrap  # help and messages wrapped by terminal columns


class ChineseHelpFormatter(argparse.HelpFormatter):
    """argparse's formatter for Chinese: help wrapped by terminal columns (textwrap counts
    characters and breaks only at spaces, so a Chinese sentence would run past the edge), a
    Chinese metavar's help in the same column as the others, full-width colons after headings."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(text, width))

    def _format_action(self, action: argparse.Action) -> str:
        text = super()._format_action(action)
        invocation = self._format_action_invocation(action)
        extra = width(invocation) - len(invocation)  # argparse pads by characters
        first, newline, rest = text.partition("\n")
        at = first.find(invocation)
        if extra > 0 and at >= 0:
            end = at + len(invocation)
            tail = first[end:]
            gap = len(tail) - len(tail.lstrip(" "))
            if tail.strip() and gap - extra >= 2:
                first = first[:end] + " " * (gap - extra) + tail[gap:]
            elif tail.strip():  # too wide for the column once drawn: the help starts on the next line
                first = first[:end] + "\n" + " " * (end + gap) + tail[gap:]
        return first + newline + rest

    def format_help(self) -> str:
        lines = super().format_help().split("\n")
        prefix = ARGPARSE_ZH["usage: "]
        if lines[0].startswith(prefix):  # the usage's wrapped lines line up under its first argument
            shift = " " * (width(prefix) - len(prefix))
            for i in range(1, len(lines)):
                if not lines[i].startswith(" "):
                    break
                lines[i] = shift + lines[i]
        return "\n".join(line[:-1] + "：" if line.endswith(":") and _WIDE.search(line[-2:-1]) else line for line in lines)


def formatter() -> type:
    """argparse's help formatter for the current language."""
    return ChineseHelpFormatter if current() == "zh" else argparse.HelpFormatter


# ---------------------------------------------------------------------------
# What the command line says

WORDS = {
    "en": {
        "error": "error: {message}",
        "request": "{message}",
        "no_command": "a command is missing; the commands are {commands}",
        "description": "Anthropic request -> chat template input, stage by stage.",
        "lang": "language of help, messages and reports (default: TUTORIAL_LANG, else the locale, else English)",
        "walk": "print every stage's input and output, then what stays behind",
        "walk_file": "request JSON (default: the README example; - for stdin)",
        "target": "the output's shape (default: chat_template)",
        "translate": 'print {"translated": ..., "tools_schema": ...} as JSON',
        "serve": "start a local /v1/messages endpoint that captures every request (python -m tutorial serve -h)",
        "doctor": "check Python, packages, Graphviz, a CJK font and the widget extension",
        "file_metavar": None,
        "too_deep": "the input is nested too deeply to process",
        "memory": "out of memory",
        "bug": "internal error (a bug; please report it): {kind}: {detail}",
        "cannot_read": "{name}: cannot read: {why}",
        "stdin": "stdin",
        "no_serve": "the serve command needs the 'serve' extra ({missing} is missing): pip install -e '.[serve]'",
        "a_module": "a module",
        "bad_port": "{option} must be an integer from 0 to {last} (0 picks a free port), got {value}",
    },
    "zh": {
        "error": "错误：{message}",
        "request": "请求无效：{message}",
        "no_command": "缺少子命令，可选的有 {commands}",
        "description": "把 Anthropic 请求一步步翻译成聊天模板的输入。",
        "lang": "帮助、提示和报告的语言（默认取 TUTORIAL_LANG，其次是系统语言环境 LANG，都没有时用英文）",
        "walk": "打印每个阶段的输入和输出，以及未进入输出的内容",
        "walk_file": "请求 JSON 文件（默认是 README 示例，- 表示从标准输入读取）",
        "target": "输出的目标格式（默认为 chat_template）",
        "translate": '以 JSON 打印 {"translated": ..., "tools_schema": ...}',
        "serve": "启动本地的 /v1/messages 端点，捕获收到的每个请求（详见 python -m tutorial serve -h）",
        "doctor": "检查 Python、依赖包、Graphviz、中文字体和 JupyterLab 的 widget 扩展",
        "file_metavar": "文件",
        "too_deep": "输入嵌套太深，无法处理",
        "memory": "内存不足",
        "bug": "内部错误 {kind}: {detail}（这是一个 bug，请报告这个问题）",
        "cannot_read": "无法读取 {name}（{why}）",
        "stdin": "标准输入",
        "no_serve": "serve 命令需要 serve 附加依赖（缺少 {missing}），请运行 pip install -e '.[serve]' 安装",
        "a_module": "一个模块",
        "bad_port": "{option} 必须是 0 到 {last} 之间的整数（0 表示任选一个空闲端口），收到的是 {value}",
    },
}


OS_ERRORS_ZH = words.OS_ERRORS_ZH
os_problem = words.os_problem


def subject(name: str) -> str:
    """A name at the start of a Chinese sentence: a space after a Latin one ("a.json 不是"), none after Chinese."""
    return f"{name} " if name and ord(name[-1]) < 0x2E80 else name


# ---------------------------------------------------------------------------
# JSON text that cannot be read, in Chinese

_NOT_JSON = "{name} is not valid JSON: {json} at line {line}, column {column}"  # limits.read_json's key


def _not_json(data: Union[bytes, str], name: str) -> Optional[str]:
    """read_json's JSON error said as `not_json` says it (read again: json's error itself, not its message)."""
    text = (bytes(data).decode("utf-8") if isinstance(data, (bytes, bytearray)) else data).removeprefix("\ufeff")
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return not_json(text, error, name)
    return None


def not_utf8(error: UnicodeDecodeError, name: str) -> str:
    """Bytes that are not UTF-8, said as `translate` says it (the English is `limits.read_json`'s)."""
    if current() != "zh":
        return f"{name} is not UTF-8: {error.reason} at byte {error.start}"
    return f"{subject(name)}不是 UTF-8 文本（偏移 {error.start} 处无法解码）"


def not_json(text: str, error: json.JSONDecodeError, name: str, what: str = "JSON") -> str:
    """JSON text json could not read, said as `translate` says it: the place in the file, then
    why, a bracket never closed named as the playground names it. `text` is what json read:
    for one line of a JSON Lines file, that line (its line number is then the file's). A
    full-width “ ， ： behind the error is named with its own place (`words.full_width`); text
    with nothing in it is called empty, and a closing bracket right after a comma gets a note
    on the trailing comma (both said from the text and the position, `words.full_width`)."""
    empty = full_width.json_empty(text, name)
    if empty is not None:
        return empty
    typed = full_width.json_found(error)
    if typed is not None:
        line, column, reason = typed
        if current() != "zh":
            return f"{name} is not valid {what} at line {line}, column {column}: {reason}"
        return f"{subject(name)}不是有效的 {what}（第 {line} 行第 {column} 列），这里{reason}"
    bracket = brackets.unclosed(text, error.pos)
    comma = "" if bracket is not None else full_width.trailing_comma(text, error.pos)
    if current() != "zh":
        if bracket is not None:
            return f"{name} is not valid {what} at line {error.lineno}, column {error.colno}: {bracket}"
        return f"{name} is not valid {what}: {error.msg} at line {error.lineno}, column {error.colno}{comma}"
    why = bracket if bracket is not None else words.json_message(error.msg)
    return f"{subject(name)}不是有效的 {what}（第 {error.lineno} 行第 {error.colno} 列），{why}{comma}"


def text_problem(data: Union[bytes, str], name: str) -> str:
    """Why `data` is not JSON text within the limits, in the current language, naming `name`
    ("stdin", "请求体"), or "" when it is. The English is `tutorial.limits.read_json`'s own."""
    from .. import limits

    if current() != "zh":
        try:
            limits.read_json(data, name)
        except limits.RequestError as error:
            if error.key == _NOT_JSON:  # a bracket never closed, a full-width quote: said as the playground says it
                return _not_json(data, name) or error.problem
            return error.problem
        return ""
    size, who = len(data), subject(name)
    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            return not_utf8(error, name)
    if size > limits.MAX_TEXT_BYTES:
        return f"{who}超过了 {limits.MAX_TEXT_BYTES // (1024 * 1024)} MB（{size:,} 字节），这是 Messages API 的请求上限"
    text = data.removeprefix("\ufeff")
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return not_json(text, error, name)
    except RecursionError:
        offset = limits.deep_bracket(text)
        if offset is None:
            return f"{who}嵌套太深，Python 的 JSON 读取器无法处理"
        line, column = limits.line_column(text, offset)
        return f"{who}的对象和数组嵌套超过了 {limits.MAX_DEPTH} 层（第 {line} 行第 {column} 列）"
    except ValueError:
        found = limits.long_integer(text)
        if found is None:
            return f"{who}不是有效的 JSON"
        line, column = limits.line_column(text, found[0])
        return f"{who}中有一个超过 {limits.MAX_INT_DIGITS} 位的整数（第 {line} 行第 {column} 列）"
    return ""
