"""The learner's own translator beside the package's: the "yours" column.

    Playground(yours=translate)            # a function written in chapter 05
    Playground(yours="my_translate.py")    # a file that defines `translate` (loaded by build_it)

    compare_yours(translate, trace)        # -> Yours: the same, or the first difference, located

The learner's `translate(body)` gets the same preprocessed body the package translated (a copy:
whatever it changes stays with it) and must return `(translated, tools_schema)`, the chat
template's shape that chapter 05 builds. Whatever it does — returns something else, raises,
is not written yet — ends in one line in `Yours.message`, never in an exception.
"""

from __future__ import annotations

import copy
import os
import re
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Union

from ...errors import format_location
from ...watch.jsondiff import differences
from ...watch.trace import Trace
from .labels import label

YOURS_TARGET = "chat_template"
"""The shape a chapter-05 translator builds; on the other target there is nothing to compare."""

Translator = Callable[[Any], Any]


@dataclass(frozen=True)
class Yours:
    """What the learner's translator made of the current request.

    state: "same", "differs", "failed" (raised or returned something else), "unwritten",
    "not_compared" (the request does not translate, or the target is not chat_template).
    `where` is the first place that differs ("translated[3].content"), with `ours` and `theirs`
    the values there, `count` how many places differ; `translated` and `tools_schema` are what
    the learner's function returned. `message` says it all in one line of plain text."""

    state: str
    message: str
    translated: Any = None
    tools_schema: Any = None
    where: Optional[str] = None
    ours: Any = None
    theirs: Any = None
    count: int = 0


def load_yours(source: Union[None, Translator, str, "os.PathLike[str]"], lang: str = "en") -> Optional[Translator]:
    """A callable as it is; a path to a .py file through the chapter-05 loader (its errors
    are located and worded there); None for None."""
    if source is None or callable(source):
        return source
    if isinstance(source, (str, os.PathLike)):
        from ..build_it import load_translator  # the learner's file is read where chapter 05 reads it

        return load_translator(Path(source))
    raise ValueError(label(lang, "yours_not_callable", kind=type(source).__name__))


def compare_yours(translate: Translator, trace: Optional[Trace], target: str, error: Optional[str],
                  lang: str = "en") -> Yours:
    """Run the learner's `translate` on the request the package just translated, and compare."""
    if error is not None or trace is None:
        return Yours("not_compared", label(lang, "yours_no_request"))
    if target != YOURS_TARGET:
        return Yours("not_compared", label(lang, "yours_target", target=target, shape=YOURS_TARGET))
    body = copy.deepcopy(trace.preprocessed)
    try:
        returned = translate(body)
    except NotImplementedError:
        return Yours("unwritten", label(lang, "yours_unwritten"))
    except Exception as problem:  # the learner's code: any failure is a finding, not a crash
        return Yours("failed", label(lang, "yours_raised", error=_one_line(problem), where=_where_raised(problem)))
    if returned is None or returned is Ellipsis:
        return Yours("unwritten", label(lang, "yours_unwritten"))
    if not (isinstance(returned, tuple) and len(returned) == 2):
        return Yours("failed", label(lang, "yours_shape", kind=_kind(returned)))
    translated, tools_schema = returned
    ours = {"translated": trace.translated, "tools_schema": trace.tools_schema}
    theirs = {"translated": translated, "tools_schema": tools_schema}
    try:
        found = differences(ours, theirs)
    except Exception as problem:  # a returned value whose own methods fail
        return Yours("failed", label(lang, "yours_raised", error=_one_line(problem), where=""), translated, tools_schema)
    if not found:
        return Yours("same", _plain(label(lang, "yours_same")), translated, tools_schema)
    location, left, right = found[0]
    where = format_location(location)
    message = _plain(label(lang, "yours_differs", where=where, count=len(found)))
    return Yours("differs", message, translated, tools_schema, where, left, right, len(found))


def _plain(text: str) -> str:
    """A label without its markup (`message` is plain text; the panes build their own HTML)."""
    return re.sub(r"</?(b|code)>", "", text)


def _one_line(error: BaseException) -> str:
    try:
        text = str(error)
    except Exception:  # an exception whose message cannot be made
        text = ""
    first = (text.splitlines() or [""])[0][:200]
    return f"{type(error).__name__}: {first}" if first else type(error).__name__


def _where_raised(error: BaseException) -> str:
    """" (line 12 of my_translate.py)" for the innermost frame outside this package, else ""."""
    package = str(Path(__file__).resolve().parents[2])
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if not str(Path(frame.filename).resolve()).startswith(package)]
    if not frames:
        return ""
    frame = frames[-1]
    return f" (line {frame.lineno} of {Path(frame.filename).name}, in {frame.name})"


def _kind(value: Any) -> str:
    if isinstance(value, tuple):
        return f"a tuple of {len(value)}"
    return f"a {type(value).__name__}"
