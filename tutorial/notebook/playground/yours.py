"""The learner's own translator beside the package's: the "yours" column.

    Playground(yours=translate)            # the function written in chapter 05
    Playground(yours="my_translate.py")    # a file that defines it (or globals(), a module)

    load_yours(source)                     # -> (translator, None) or (None, why it cannot be loaded)
    compare_yours(translator, trace, ...)  # -> Yours: the same, or the first difference, located

The learner's code is loaded and run the way every other place runs it (`grade`, `serve
--translator`, chapter 11's replay): through `tutorial.notebook.build_it`, which gives it a
copy of the body, a time limit, and words for whatever goes wrong ("your translate raised
KeyError: 'content' (my_translate.py, line 30, in user_block_message)"). The first difference
is found and explained there too, with the chapter-05 rule the place follows. The translator
gets the same preprocessed body the package translated and must return the chat template's
shape, `(translated, tools_schema)`. Nothing here raises: every outcome is a `Yours`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional

from ...watch.trace import Trace
from .labels import worded

YOURS_TARGET = "chat_template"
"""The shape a chapter-05 translator builds; on the other target there is nothing to compare."""

Translator = Callable[[Any], Any]


@dataclass(frozen=True)
class Yours:
    """What the learner's translator made of the current request.

    state: "same", "differs", "failed" (it cannot be loaded, raised, ran too long or returned
    something else), "not_compared" (the request does not translate, or the target is not
    chat_template). For "differs": `where` is the first place that differs
    ('translated[2]["tool_calls"][0]["id"]'), `ours` and `theirs` the values there, `rule` the
    chapter-05 rule that place follows. `translated` and `tools_schema` are what the learner's
    function returned; `message` says it all in one line of plain text."""

    state: str
    message: str
    translated: Any = None
    tools_schema: Any = None
    where: Optional[str] = None
    ours: Any = None
    theirs: Any = None
    rule: Optional[str] = None


def load_yours(source: Any) -> tuple[Optional[Translator], Optional[str]]:
    """(the guarded translator, None), or (None, why it cannot be used); (None, None) for None.

    `source` is a function (the learner's `translate`), the path of a .py file, or a namespace
    that holds the chapter's functions (a notebook's `globals()`, a module)."""
    if source is None:
        return None, None
    from .. import build_it  # the learner's code is loaded where chapter 05 loads it

    if isinstance(source, build_it.Translator):
        return source, None
    if callable(source) and not isinstance(source, type):
        source = {"translate": source}  # one function: as if a notebook defined only translate
    elif isinstance(source, (int, float, bool, bytes)) or source is Ellipsis:
        return None, worded("yours_not_callable", kind=type(source).__name__)
    elif isinstance(source, str) and ("\n" in source or source.lstrip().startswith(("def ", "lambda", "import ", "from "))):
        return None, worded("yours_source")  # source text, not a path: not read as a file name
    try:
        return build_it.load_translator(source), None
    except build_it.TranslatorError as error:
        return None, str(error)


def compare_yours(translator: Optional[Translator], problem: Optional[str], trace: Optional[Trace], target: str,
                  error: Optional[str]) -> Yours:
    """Run the learner's translator on the request the package just translated, and compare
    (what it says, in the current language)."""
    from .. import build_it

    if translator is None:
        return Yours("failed", worded("yours_unusable", problem=problem))
    if error is not None or trace is None:
        return Yours("not_compared", worded("yours_no_request"))
    if target != YOURS_TARGET:
        return Yours("not_compared", worded("yours_target", target=target, shape=YOURS_TARGET))
    body = trace.preprocessed  # the translator works on a copy of it
    try:
        translated, tools_schema = translator(body)
    except build_it.TranslatorError as failure:
        return Yours("failed", str(failure))
    except Exception as failure:  # a translator object of another kind
        return Yours("failed", worded("yours_raised", error=f"{type(failure).__name__}: {failure}"))
    try:
        found = build_it.difference((translated, tools_schema), (trace.translated, trace.tools_schema), body)
    except Exception as failure:  # values whose own methods fail when compared
        return Yours("failed", worded("yours_raised", error=f"{type(failure).__name__}: {failure}"),
                     translated, tools_schema)
    if found is None:
        return Yours("same", _plain(worded("yours_same")), translated, tools_schema)
    message = worded("yours_differs_text", line=found.line())
    return Yours("differs", message, translated, tools_schema, found.place, found.expected, found.actual, found.rule)


def _plain(text: str) -> str:
    """A label without its markup (`message` is plain text; the panes build their own HTML)."""
    for tag in ("<b>", "</b>", "<code>", "</code>"):
        text = text.replace(tag, "")
    return text
