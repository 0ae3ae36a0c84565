"""The language the apparatus writes its prose in: "en" (the default) or "zh".

Captions, playground labels, verdicts, hints, the server's replies, the command line and the
reasons of the lesson's located errors (error_words.py) can be written in either language;
the lesson itself writes English. A function that writes prose takes `lang=None`, meaning "the current
language", which is, in this order:

1. what `tutorial.use_language(...)` chose in this process — every chapter calls it in its
   first cell, so a Chinese chapter speaks Chinese wherever it is opened (Colab, a copy in
   another folder), not because of the folder it sits in;
2. the `TUTORIAL_LANG` environment variable;
3. "en".

The command line adds `--lang` and, failing that, the locale (`LANG=zh_CN.UTF-8`); the
server adds the request's `Accept-Language`.

Beside the choice, what every part of the package needs to write Chinese: what the system
says in the usual cases (`os_problem`, `json_message`), and how wide text is on a screen
(`columns`, `pad`: a CJK character takes two columns).
"""

from __future__ import annotations

import contextlib
import errno
import os
import unicodedata
from typing import Iterator, Mapping, Optional

LANGUAGES = ("en", "zh")

_chosen: Optional[str] = None


def use_language(lang: str) -> None:
    """Make `lang` ("en" or "zh") the current language of this process."""
    global _chosen
    _chosen = _check(lang)


def chosen() -> Optional[str]:
    """What `use_language` chose in this process, or None when nothing was chosen."""
    return _chosen


@contextlib.contextmanager
def using(lang: Optional[str]) -> Iterator[None]:
    """`lang` as the process's language inside the block, then back to what was chosen before
    (None: nothing chosen). For a command run from a notebook or a test."""
    global _chosen
    previous = _chosen
    _chosen = None if lang is None else _check(lang)
    try:
        yield
    finally:
        _chosen = previous


def current() -> str:
    if _chosen is not None:
        return _chosen
    chosen = os.environ.get("TUTORIAL_LANG", "")
    return chosen if chosen in LANGUAGES else "en"


def resolve(lang: Optional[str]) -> str:
    """`lang` itself when it names a language, the current one when it is None."""
    return current() if lang is None else _check(lang)


def from_locale(environ: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """"zh" when the locale asks for Chinese (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), "en" when it
    names another language, None when it says nothing."""
    environ = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return "zh" if value.lower().startswith("zh") else "en"
    return None


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


# Why a file could not be read, for the usual reasons, in Chinese; other reasons and English
# keep the operating system's own words.
OS_ERRORS_ZH = {
    errno.ENOENT: "没有这个文件或目录",
    errno.EACCES: "没有权限",
    errno.EPERM: "没有权限",
    errno.EISDIR: "这是一个目录",
    errno.ENOTDIR: "路径中有一部分不是目录",
    errno.ENAMETOOLONG: "文件名太长",
}


def os_problem(error: OSError, lang: Optional[str] = None) -> str:
    """Why a file could not be read, in `lang` (the current language by default)."""
    if resolve(lang) == "zh" and error.errno in OS_ERRORS_ZH:
        return OS_ERRORS_ZH[error.errno]
    return str(error.strerror or error)


# What Python's json module says, in Chinese: its message (the text before ": line L column C")
# begins with one of these. A message not listed is shown in parentheses after JSON_OTHER.
JSON_MESSAGES: Mapping[str, Mapping[str, str]] = {
    "zh": {
        "Expecting value": "这里应该是一个值",
        "Expecting ',' delimiter": "这里缺少逗号“,”",
        "Expecting ':' delimiter": "这里缺少冒号“:”",
        "Expecting property name enclosed in double quotes": "这里应该是用双引号括起来的键名",
        "Extra data": "JSON 值结束后还有多余的内容",
        "Unterminated string starting at": "从这里开始的字符串没有结束的引号",
        "Invalid control character": "字符串里有控制字符（换行要写成 \\n）",
        "Invalid \\uXXXX escape": "无效的 \\uXXXX 转义",
        "Invalid \\escape": "无效的转义：反斜杠后面的字符不合法",
        "Illegal trailing comma before end of object": "对象末尾多了一个逗号",
        "Illegal trailing comma before end of array": "列表末尾多了一个逗号",
    },
}
JSON_OTHER = {"zh": "JSON 格式有误（{message}）"}


def json_message(message: str, lang: str) -> str:
    """json's own message (`JSONDecodeError.msg`) in `lang`; English as it is."""
    table = JSON_MESSAGES.get(lang)
    if table is None:
        return message
    for english, translated in table.items():
        if message.startswith(english):
            return translated
    return JSON_OTHER[lang].format(message=message)


def columns(text: str) -> int:
    """Display width on a terminal or in a picture: wide and full-width characters (CJK) take
    two columns, combining marks none."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    """`text` with spaces after it up to `width` columns (`f"{text:<18}"` counts characters)."""
    return text + " " * max(0, width - columns(text))


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    return lang
