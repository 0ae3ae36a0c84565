"""Every text a person reads, in English and Chinese, and the one setting that picks the language.

This folder is the bottom of the house: it imports nothing from `tutorial`, only the standard
library, so every room may use it. Which language is current:

1. the innermost `with using(lang):` block (a context variable: one per thread and per asyncio
   task, so the server answers each request in its own language);
2. what `tutorial.use_language(...)` chose in this process — every chapter calls it in its first
   cell, so a Chinese chapter speaks Chinese wherever it is opened;
3. the `TUTORIAL_LANG` environment variable;
4. "en".

The command line runs a command inside `using(--lang, else the locale)`; the server inside
`using(the request's Accept-Language, else its own)`; a public function that takes `lang=`
(`render`, `recall`, `cheat_sheet`) runs inside `using(lang)`; a `Playground` and a server
(`serve.start(lang=)`) keep theirs and speak it through `using`. Nothing below those takes a `lang`.

A module that keeps its own texts per language (`WORDS = {"en": {key: ...}, "zh": {...}}`) looks
one up with `words_for(WORDS, key, **values)`, in the current language. A text of this room is
looked up by key, `text("cli.no_such_file", path=p)`: the part before the dot names the
table, the module `tutorial/words/<room>.py`, loaded on its first lookup, so a valid request,
which says nothing, never loads one. A table is `TEXTS = {name: {"en": ..., "zh": ...}}`.

The lesson's located errors carry their English template (which is their key) and their values;
`problem(error)` formats them forward in the current language (`errors.py` holds the Chinese).
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import importlib
import os
import re
import sys
import unicodedata
from typing import Any, Iterator, Mapping, Optional

LANGUAGES = ("en", "zh")

_chosen: Optional[str] = None  # use_language's choice for the whole process
_inside: contextvars.ContextVar[Optional[str]] = contextvars.ContextVar("tutorial_language", default=None)


def use_language(lang: str) -> None:
    """Make `lang` ("en" or "zh") the current language of this process."""
    global _chosen
    _chosen = check(lang)
    if "IPython" in sys.modules:  # a chapter's first cell: a full-width quote's SyntaxError gets a line
        from .full_width import install

        install()


def chosen() -> Optional[str]:
    """What `use_language` chose in this process, or None when nothing was chosen."""
    return _chosen


@contextlib.contextmanager
def using(lang: Optional[str]) -> Iterator[None]:
    """`lang` as the current language inside the block (None: the language outside it)."""
    if lang is None:
        yield
        return
    token = _inside.set(check(lang))
    try:
        yield
    finally:
        _inside.reset(token)


def use_language_here(lang: str) -> None:
    """Make `lang` current in this context only (this thread or asyncio task, and what it starts)
    from here on: the server calls it for the request being answered."""
    _inside.set(check(lang))


def current() -> str:
    """The current language (see the module's docstring)."""
    inside = _inside.get()
    if inside is not None:
        return inside
    if _chosen is not None:
        return _chosen
    from_environment = os.environ.get("TUTORIAL_LANG", "")
    return from_environment if from_environment in LANGUAGES else "en"


# The one error this module raises, in the language current when it is raised.
NOT_A_LANGUAGE = {"en": "lang must be 'en' or 'zh', got {lang!r}", "zh": "lang 只能是 'en' 或 'zh'，实际是 {lang!r}"}


def check(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(NOT_A_LANGUAGE[current()].format(lang=lang))
    return lang


def from_locale(environ: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """"zh" when the locale asks for Chinese (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), "en" when it
    names another language, None when it says nothing."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return "zh" if value.lower().startswith("zh") else "en"
    return None


def for_a_command(flag: Optional[str] = None, environ: Optional[Mapping[str, str]] = None) -> str:
    """The language of a command: its --lang, else the `using` block it runs in (the command
    line that ran it chose), else use_language's choice, else TUTORIAL_LANG, else the locale,
    else English."""
    if flag in LANGUAGES:
        return flag
    if _inside.get() is not None:
        return _inside.get()
    if _chosen is not None:
        return _chosen
    environ = os.environ if environ is None else environ
    if environ.get("TUTORIAL_LANG", "") in LANGUAGES:
        return environ["TUTORIAL_LANG"]
    return from_locale(environ) or "en"


def from_accept_language(header: Optional[str]) -> Optional[str]:
    """The first of "zh"/"en" an HTTP Accept-Language header prefers (by q), None if neither."""
    if not header:
        return None
    ranked = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            ranked.append((-quality, position, primary))
    return min(ranked)[2] if ranked else None


# ---------------------------------------------------------------------------
# Keyed texts


def text(key: str, **values: Any) -> str:
    """The text `key` ("room.name") in the current language, its {placeholders} filled."""
    room, _, name = key.partition(".")
    return table(room)[name][current()].format(**values)


def words_for(table_: Mapping[str, Mapping[str, str]], key: str, **values: Any) -> str:
    """`table_[current language][key]`, its {placeholders} filled: the lookup for a module that
    keeps its own texts per language (`WORDS = {"en": {key: ...}, "zh": {key: ...}}`)."""
    return table_[current()][key].format(**values)


def table(room: str) -> Mapping[str, Mapping[str, str]]:
    """The room's table of texts (`tutorial/words/<room>.py`'s TEXTS), loaded when first asked."""
    return importlib.import_module(f"{__name__}.{room}").TEXTS


def type_name(name: str) -> str:
    """A Python type's name as a sentence says it: in Chinese 元组（tuple）, 列表（list）, 字典 (the
    names the errors use), another name with a space before it (一个 set); in English the name."""
    if current() != "zh":
        return name
    from .errors import TYPE_NAMES

    return TYPE_NAMES.get(name, " " + name)


# ---------------------------------------------------------------------------
# The lesson's located errors, formatted forward


def problem(error: Any) -> str:
    """A located error's problem (without its location) in the current language."""
    if current() == "en" or getattr(error, "key", None) is None:
        return error.problem
    from . import errors  # the Chinese templates: loaded only when an error is told in Chinese

    return errors.chinese(error.key, error.values)


# A Chinese problem that opens with its predicate (必须是…, 是必填项, 有一个…键, 包含自身…) takes the
# place as its subject: "messages[0].role 必须是 …". One that opens with a subject of its own
# ("user 消息中不能携带…") follows the place and a comma: "messages[0].content[0].type 处，user 消息中…".
PREDICATE_FIRST = ("必须", "是", "有", "包含", "不是", "不符合", "在 ")
PLACED_ZH = "{where} 处，{problem}"


def located(error: Any) -> str:
    """A located error as a reader meets it, alone (the playground's error box) or after a
    frame that has its colon already (「请求无效：…」): English as `str(error)` ("messages[0].role:
    must be ..."); Chinese without a second colon, the place the subject of a problem that opens
    with its predicate ("messages[0].role 必须是 …", "messages[0].content 是必填项"), else the
    place and a comma ("messages[0].content[0].type 处，user 消息中不能携带…"); a problem of the
    body itself that names it alone ("请求体必须是 JSON 对象，…")."""
    if current() == "en":
        return str(error)
    said = problem(error)
    if not error.location and said.startswith("请求体"):
        return said
    if said.startswith(PREDICATE_FIRST):
        return f"{error.where} {said}"
    return PLACED_ZH.format(where=error.where, problem=said)


# ---------------------------------------------------------------------------
# What the system says, in Chinese; how wide text is on a screen

OS_ERRORS_ZH = {
    errno.ENOENT: "没有这个文件或目录",
    errno.EACCES: "没有权限",
    errno.EPERM: "没有权限",
    errno.EISDIR: "这是一个目录",
    errno.ENOTDIR: "路径中有一部分不是目录",
    errno.ENAMETOOLONG: "文件名太长",
}


def os_problem(error: OSError) -> str:
    """Why a file could not be read, in the current language (other reasons: the system's words)."""
    if current() == "zh" and error.errno in OS_ERRORS_ZH:
        return OS_ERRORS_ZH[error.errno]
    return str(error.strerror or error)


# What Python's json module says, in Chinese: its message (the text before ": line L column C")
# begins with one of these. A message not listed is shown in parentheses after JSON_OTHER.
JSON_MESSAGES: Mapping[str, Mapping[str, str]] = {
    "zh": {
        "Expecting value": "这里应该是一个 JSON 值",
        "Expecting ',' delimiter": "这里缺少逗号“,”",
        "Expecting ':' delimiter": "这里缺少冒号“:”",
        "Expecting property name enclosed in double quotes": "这里应该是用双引号括起来的键名",
        "Extra data": "JSON 值结束后还有多余的内容",
        "Unterminated string starting at": "从这里开始的字符串没有结束的引号",
        "Invalid control character": "字符串里有控制字符（换行要写成 \\n）",
        "Invalid \\uXXXX escape": "无效的 \\uXXXX 转义",
        "Invalid \\escape": "无效的转义，反斜杠后面的字符不合法",
        "Illegal trailing comma before end of object": "对象末尾多了一个逗号",
        "Illegal trailing comma before end of array": "列表末尾多了一个逗号",
    },
}
JSON_OTHER = {"zh": "JSON 格式有误（{message}）"}


def json_message(message: str) -> str:
    """json's own message (`JSONDecodeError.msg`) in the current language; English as it is."""
    table_ = JSON_MESSAGES.get(current())
    if table_ is None:
        return message
    for english, translated in table_.items():
        if message.startswith(english):
            return translated
    return JSON_OTHER[current()].format(message=message)


def columns(text_: str) -> int:
    """Display width on a terminal or in a picture: wide and full-width characters (CJK) take
    two columns, combining marks none."""
    if text_.isascii():
        return len(text_)
    width = 0
    for char in text_:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


# A unit a line may break after: a run of spaces, a quoted placeholder ('[image omitted]', kept
# whole), one CJK character with the full-width punctuation that must stay with it, or a run of
# other characters (a word, a path, a flag) with the 、 after it (a list of names breaks after a 、).
_UNIT = re.compile(r"\s+|'[^' ][^']*'|[\u3400-\u9fff\uf900-\ufaff][\u3000-\u303f\uff01-\uff60]*|[^\s\u3400-\u9fff\uf900-\ufaff、]+、?|、")


def wrap(text_: str, width: int, break_long: bool = False) -> list[str]:
    """`text_` in lines of at most `width` columns (a CJK character takes two), broken at spaces
    or between Chinese characters, never before full-width punctuation (`textwrap` counts
    characters and breaks only at spaces). A word longer than a line stays whole, or with
    `break_long` is broken where it must be."""
    lines, line = [], ""
    for unit in _UNIT.findall(" ".join(text_.split())):
        if unit.isspace():
            line += " " if line else ""
            continue
        while break_long and columns(unit) > width:
            head = unit[:1]
            while columns(unit[: len(head) + 1]) <= width:
                head = unit[: len(head) + 1]
            if line.strip():
                lines.append(line.rstrip())
            lines.append(head)
            line, unit = "", unit[len(head):]
        if line.strip() and columns(line + unit) > width:
            lines.append(line.rstrip())
            line = unit
        else:
            line += unit
    if line.strip():
        lines.append(line.rstrip())
    return lines


def pad(text_: str, width: int) -> str:
    """`text_` with spaces after it up to `width` columns (`f"{text:<18}"` counts characters)."""
    return text_ + " " * max(0, width - columns(text_))
