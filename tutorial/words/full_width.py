"""A Chinese input method's punctuation in Python code or in JSON text: named, with its place.

Python code: one line that names it, after IPython's SyntaxError.

`check("05.x", “b”)` stops with `SyntaxError: invalid character '“' (U+201C)` and nothing more;
a learner typing with a Chinese input method meets it often. When a chapter's first cell calls
`tutorial.use_language(...)` inside IPython, `install()` wraps the shell's `showsyntaxerror` so
that, after IPython has shown the error as usual, a line in the current language names the
full-width character and the ASCII one Python reads. Outside IPython nothing happens; IPython is
never imported here (only found in `sys.modules`), so this room still needs the standard library only.

JSON text: `{“messages”: []}` stops json with "Expecting property name enclosed in double
quotes", and a learner who sees "use double quotes" believes they did. `json_hint(error)` finds
the full-width character behind a `json.JSONDecodeError` (at its position, just before it, or
closing the string json was reading) and says which character, at which line and column, and
the ASCII one JSON reads; `json_found(error)` gives the place and the reason apart. The command
line, the server and the playground put them in place of json's own words. The sentence is
formatted forward from the character; json's message is never read back.

Two more notes are said the same way, from the text and the position: `trailing_comma(text,
position)` for text that stops on a closing bracket right after a comma (JavaScript and Python
allow that comma), and `json_empty(text, name)` for text with nothing in it.
"""

from __future__ import annotations

import re
import sys
from typing import Any, Optional

# full-width character -> (its name's key, what Python reads instead)
FULL_WIDTH = {
    "“": ("quote", '"'), "”": ("quote", '"'), "‘": ("single_quote", "'"), "’": ("single_quote", "'"),
    "，": ("comma", ","), "（": ("bracket", "("), "）": ("bracket", ")"), "：": ("colon", ":"),
    "；": ("semicolon", ";"), "［": ("bracket", "["), "］": ("bracket", "]"), "＝": ("equals", "="),
    "｛": ("bracket", "{"), "｝": ("bracket", "}"),
}  # fmt: skip

# The ASCII characters of JSON's own syntax a full-width one above stands for (JSON has no '(' or ';').
JSON_ASCII = {'"': "double_quote", ",": "ascii_comma", ":": "ascii_colon",
              "[": "square_bracket", "]": "square_bracket", "{": "curly_bracket", "}": "curly_bracket"}  # fmt: skip

TEXTS = {
    "quote": {"en": "full-width quotation mark", "zh": "全角引号"},
    "single_quote": {"en": "full-width single quotation mark", "zh": "全角单引号"},
    "comma": {"en": "full-width comma", "zh": "全角逗号"},
    "bracket": {"en": "full-width bracket", "zh": "全角括号"},
    "colon": {"en": "full-width colon", "zh": "全角冒号"},
    "semicolon": {"en": "full-width semicolon", "zh": "全角分号"},
    "equals": {"en": "full-width equals sign", "zh": "全角等号"},
    "hint": {
        "en": "This line has a {name}, {char}, as a Chinese input method types it; Python reads only the ASCII one "
              "({ascii}). Retype it and run the cell again.",
        "zh": "这一行有{name}「{char}」（中文输入法打出来的），Python 只认半角的 {ascii}，请换成半角后再运行这个单元格。",
    },
    # JSON text: the ASCII character by name, then the place, the full-width one and the ASCII one
    "double_quote": {"en": "double quote", "zh": "双引号"},
    "ascii_comma": {"en": "comma", "zh": "逗号"},
    "ascii_colon": {"en": "colon", "zh": "冒号"},
    "square_bracket": {"en": "square bracket", "zh": "方括号"},
    "curly_bracket": {"en": "curly bracket", "zh": "花括号"},
    "json": {  # the reason opens with its predicate: in Chinese the place before it is its subject
        "en": "a {name} ({char}); JSON reads only the ASCII {ascii_name} ({ascii}) — switch to English punctuation",
        "zh": "是中文{name}「{char}」，JSON 只认半角{ascii_name} {ascii}，请切换到英文标点后再输入",
    },
    "json_located": {"en": "line {line}, column {column}: {reason}", "zh": "第 {line} 行第 {column} 列{reason}"},
    # JSON text that stops at a closing bracket right after a comma: JavaScript and Python allow the comma, JSON does not
    "trailing_comma": {"en": " (a trailing comma before it?)", "zh": "（前面是逗号，可能多写了一个结尾的逗号）"},
    # the same note as a clause, for a sentence that ends in a parenthesis of its own (the playground's)
    "trailing_comma_clause": {"en": "; a trailing comma before it?", "zh": "，前面是逗号，可能多写了一个结尾的逗号"},
    # JSON text with nothing in it but spaces: said instead of json's "Expecting value" at line 1, column 1
    "json_empty": {"en": "{name} is empty: no JSON to read", "zh": "{name}是空的，没有可读的 JSON"},
}  # fmt: skip


def hint(error: BaseException) -> Optional[str]:
    """The line for a SyntaxError caused by full-width punctuation, in the current language; else None."""
    if not isinstance(error, SyntaxError):
        return None
    line = error.text or ""
    found = next((char for char in line if char in FULL_WIDTH), None)
    if found is None:
        return None
    from . import text

    name, ascii_char = FULL_WIDTH[found]
    return text("full_width.hint", name=text(f"full_width.{name}"), char=found, ascii=ascii_char)


def json_hint(error: BaseException) -> Optional[str]:
    """For a `json.JSONDecodeError` caused by full-width punctuation, one sentence, the place
    first, in the current language ("line 1, column 2: a full-width quotation mark (“); JSON
    reads only ...", "第 1 行第 2 列是中文全角引号「“」，JSON 只认 ..."); else None."""
    found = json_found(error)
    if found is None:
        return None
    from . import text

    line, column, reason = found
    return text("full_width.json_located", line=line, column=column, reason=reason)


def json_found(error: BaseException) -> Optional[tuple[int, int, str]]:
    """For a `json.JSONDecodeError` caused by full-width punctuation: the character's line and
    column, and the reason that names it and the ASCII one JSON reads (in Chinese it opens with
    是, for a place before it: 「第 1 行第 2 列」 or 「这里」); else None."""
    doc, position = getattr(error, "doc", None), getattr(error, "pos", None)
    if not isinstance(doc, str) or not isinstance(position, int):
        return None
    found = json_character(doc, position, str(getattr(error, "msg", "")))
    if found is None:
        return None
    from . import text

    char = doc[found]
    name, ascii_char = FULL_WIDTH[char]
    line = doc.count("\n", 0, found) + 1
    column = found - (doc.rfind("\n", 0, found) + 1) + 1
    reason = text("full_width.json", name=text(f"full_width.{name}"), char=char,
                  ascii_name=text(f"full_width.{JSON_ASCII[ascii_char]}"), ascii=ascii_char)
    return line, column, reason


def trailing_comma(text: str, position: int, clause: bool = False) -> str:
    """The note for JSON text that stops at `position` on a closing bracket right after a comma
    (`{"max_tokens": 5,}`, `[1, 2,]`): " (a trailing comma before it?)", in Chinese
    「（前面是逗号，可能多写了一个结尾的逗号）」; else "". Said from the text and the position
    alone, whatever json's message was (JavaScript and Python allow that comma, JSON does not).
    With `clause`, the note as a clause ("; a trailing comma before it?", 「，前面是逗号，……」),
    for a sentence that ends in a parenthesis of its own."""
    if not isinstance(text, str) or not isinstance(position, int) or not 0 <= position < len(text):
        return ""
    if text[position] not in "}]":
        return ""
    before = position - 1
    while before >= 0 and text[before] in " \t\r\n":
        before -= 1
    if before < 0 or text[before] != ",":
        return ""
    from . import text as words_text

    return words_text("full_width.trailing_comma_clause" if clause else "full_width.trailing_comma")


def json_empty(text: str, name: str) -> Optional[str]:
    """For JSON text with nothing in it but spaces, "stdin is empty: no JSON to read"
    (「标准输入是空的，没有可读的 JSON」), naming `name`; else None."""
    if not isinstance(text, str) or text.strip(" \t\r\n"):
        return None
    from . import current, text as words_text

    if current() == "zh" and name and ord(name[-1]) < 0x2E80:
        name += " "  # a Latin name before Chinese: "a.json 是空的"
    return words_text("full_width.json_empty", name=name)


def _json_full_width(char: str) -> bool:
    return char in FULL_WIDTH and FULL_WIDTH[char][1] in JSON_ASCII


# A full-width quote where a string should have ended: then a comma, colon or closing bracket
# (or, in a string json never saw closed, the end of the text it read).
_CLOSED = re.compile(r"[“”](?=\s*[,:}\]])")
_OPEN = re.compile(r"[“”](?=\s*(?:[,:}\]]|$))")


def json_character(text: str, position: int, message: str = "") -> Optional[int]:
    """The offset of the full-width character behind json's complaint `message` at `position`
    in `text`, or None. Three places are looked at: the character at `position`; the last one
    before it, spaces aside; and a string json read past a full-width closing quote (`"user”,`
    read on to the next ASCII quote, or to the end of the line): the quote in it followed by a
    comma, colon or closing bracket. A full-width quote inside a string that closes properly
    ("他说“好”") is text, not a mistake, and is left alone."""
    if not 0 <= position <= len(text):
        return None
    if position < len(text) and _json_full_width(text[position]):
        return position
    before = position - 1
    while before >= 0 and text[before] in " \t\r\n":
        before -= 1
    if before >= 0 and _json_full_width(text[before]):
        return before
    # the string json was reading when it stopped, or the one that ends just before `position`
    if message.startswith("Unterminated string") and text[position : position + 1] == '"':
        end = text.find("\n", position)
        return _quote_in(text, position + 1, len(text) if end < 0 else end, _OPEN)
    if message.startswith("Invalid control character"):  # a line ended inside a string
        start = _string_start(text, position)
        return None if start is None else _quote_in(text, start + 1, position, _OPEN)
    if before >= 0 and text[before] == '"':
        start = _string_start(text, before)
        if start is not None:
            return _quote_in(text, start + 1, before, _CLOSED)
    return None


def _quote_in(text: str, start: int, end: int, pattern: "re.Pattern[str]") -> Optional[int]:
    found = pattern.search(text, start, end)
    return None if found is None else found.start()


def _string_start(text: str, position: int) -> Optional[int]:
    """The offset of the quote that opens the string `position` is inside (json's strings, with
    their escapes, read from the start of the text), or None when it is outside every string."""
    start, escaped = None, False
    for index in range(position):
        char = text[index]
        if start is not None:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                start = None
        elif char == '"':
            start = index
    return start


def install() -> None:
    """Wrap the running IPython shell's showsyntaxerror (once); nothing outside IPython."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if shell is None or getattr(shell.showsyntaxerror, "_tutorial_hint", False):
        return
    shown = shell.showsyntaxerror

    def showsyntaxerror(*args: Any, **kwargs: Any) -> Any:
        error = sys.exc_info()[1] or getattr(sys, "last_value", None)
        result = shown(*args, **kwargs)
        try:
            said = hint(error)
        except Exception:  # noqa: BLE001 - a hint must never hide the error itself
            said = None
        if said:
            print(said, file=sys.stderr)
        return result

    showsyntaxerror._tutorial_hint = True  # type: ignore[attr-defined]
    shell.showsyntaxerror = showsyntaxerror
