"""A Chinese input method's punctuation in Python code: one line that names it, after IPython's
SyntaxError.

`check("05.x", “b”)` stops with `SyntaxError: invalid character '“' (U+201C)` and nothing more;
a learner typing with a Chinese input method meets it often. When a chapter's first cell calls
`tutorial.use_language(...)` inside IPython, `install()` wraps the shell's `showsyntaxerror` so
that, after IPython has shown the error as usual, a line in the current language names the
full-width character and the ASCII one Python reads. Outside IPython nothing happens; IPython is
never imported here (only found in `sys.modules`), so this room still needs the standard library only.
"""

from __future__ import annotations

import sys
from typing import Any, Optional

# full-width character -> (its name's key, what Python reads instead)
FULL_WIDTH = {
    "“": ("quote", '"'), "”": ("quote", '"'), "‘": ("single_quote", "'"), "’": ("single_quote", "'"),
    "，": ("comma", ","), "（": ("bracket", "("), "）": ("bracket", ")"), "：": ("colon", ":"),
    "；": ("semicolon", ";"), "［": ("bracket", "["), "］": ("bracket", "]"), "＝": ("equals", "="),
}  # fmt: skip

TEXTS = {
    "quote": {"en": "full-width quote", "zh": "全角引号"},
    "single_quote": {"en": "full-width single quote", "zh": "全角单引号"},
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
