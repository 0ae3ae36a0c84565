"""Small display helpers for the notebooks: JSON as Chinese-readable text, a stage's
input beside its output, and silent checks.

Titles and check descriptions are labels a chapter writes in English; they are shown in the
current language through the catalogue in `catalogue.py` (and so are the label keys of a value
`show_json` shows).

Every object here has a rich HTML form for Jupyter and a plain-text form for terminals
and for nbval; both are deterministic (no ids, no timestamps), so stored outputs stay
comparable from run to run.
"""

from __future__ import annotations

import html
import json
from typing import Any, Optional

from ..words import columns, current
from ..watch.losses import reason_in
from .catalogue import fit, labelled, said, title_colon

# Every word these displays write, per language ("en" or "zh"; tutorial.words picks which).
TEXT = {
    "en": {
        "input": "input",
        "output": "output",
        "step_got": "{name} got ({path})",
        "step_returned": "{name} returned",
        "value": "value",
        "check_failed": "check failed for {what}\nexpected:\n{expected}\ngot:\n{actual}",
        "nothing_behind": "nothing stays behind",
        "where": "where",
        "why": "why it stays behind",
    },
    "zh": {
        "input": "输入",
        "output": "输出",
        "step_got": "{name} 收到的输入（{path}）",
        "step_returned": "{name} 的返回值",
        "value": "值",
        "check_failed": "检查未通过：{what}\n应为：\n{expected}\n实际为：\n{actual}",
        "nothing_behind": "没有未进入输出的内容",
        "where": "位置",
        "why": "为什么未进入输出",
    },
}


def _words() -> dict[str, str]:
    return TEXT[current()]


_STYLE = (
    "<style>.tp-side{display:flex;gap:12px;align-items:flex-start}"
    ".tp-side>div{flex:1;min-width:0}.tp-side pre{margin:0;padding:8px;background:#f6f8fa;"
    "border:1px solid #d0d7de;border-radius:6px;white-space:pre-wrap;font-size:12px}"
    ".tp-side h4{margin:0 0 4px 0;font-size:13px}.tp-arrow{align-self:center;font-size:20px;flex:0 0 auto!important}</style>"
)


def as_json(value: Any) -> str:
    """Indented JSON with Chinese kept as Chinese (ensure_ascii=False)."""
    return json.dumps(value, ensure_ascii=False, indent=2)


class JSON:
    """A JSON value displayed as readable text (what `show_json` returns)."""

    def __init__(self, value: Any, title: Optional[str] = None):
        self.value, self.title = value, title

    def __repr__(self) -> str:
        return (f"{self.title}{title_colon(self.title)}\n" if self.title else "") + as_json(self.value)

    def _repr_html_(self) -> str:
        title = f"<h4>{html.escape(self.title)}</h4>" if self.title else ""
        return f"{_STYLE}<div class='tp-side'><div>{title}<pre>{html.escape(as_json(self.value))}</pre></div></div>"


def show_json(value: Any, title: Optional[str] = None) -> JSON:
    """`value` as indented JSON under `title`; the title and the label keys of `value`
    (`{"where": ...}`) in the current language (see catalogue.py), data as it is."""
    return JSON(labelled(value), None if title is None else said(title))


class SideBySide:
    """Input on the left, output on the right: one stage of the walk."""

    def __init__(
        self, left: Any, right: Any, left_title: Optional[str] = None, right_title: Optional[str] = None
    ):
        words = _words()
        self.left, self.right = left, right
        self.left_title = words["input"] if left_title is None else said(left_title)
        self.right_title = words["output"] if right_title is None else said(right_title)

    def __repr__(self) -> str:
        left, right = self.left_title, self.right_title
        return f"{left}{title_colon(left)}\n{_text(self.left)}\n\n  ↓\n\n{right}{title_colon(right)}\n{_text(self.right)}"

    def _repr_html_(self) -> str:
        def column(title: str, value: Any) -> str:
            return f"<div><h4>{html.escape(title)}</h4><pre>{html.escape(_text(value))}</pre></div>"

        return (
            f"{_STYLE}<div class='tp-side'>{column(self.left_title, self.left)}"
            f"<div class='tp-arrow'>→</div>{column(self.right_title, self.right)}</div>"
        )


def _text(value: Any) -> str:
    return as_json(value)


def side_by_side(
    left: Any, right: Any, left_title: Optional[str] = None, right_title: Optional[str] = None
) -> SideBySide:
    """`left` beside `right`; the titles default to "input" and "output" in the current
    language, and a title given is shown in it too (a label of catalogue.py, or code as it is)."""
    return SideBySide(left, right, left_title, right_title)


def show_step(step) -> SideBySide:
    """A trace step: what the function got (and from where) beside what it returned."""
    words = _words()
    got = words["step_got"].format(name=step.name, path=step.path)
    return SideBySide(step.input, step.output, got, words["step_returned"].format(name=step.name))


def check(actual: Any, expected: Any, what: Optional[str] = None) -> None:
    """A silent check: nothing when `actual == expected`, a readable failure otherwise
    (`what`, a label of catalogue.py, in the current language)."""
    if actual != expected:
        words = _words()
        what = words["value"] if what is None else said(what)
        raise AssertionError(words["check_failed"].format(what=what, expected=as_json(expected), actual=as_json(actual)))


def check_answer(key: str, actual: Any) -> None:
    """A silent check against the exercise bank: nothing when `actual` is the right answer to
    exercise `key`, a readable failure otherwise. Written under a prediction instead of a
    literal, so no view of the chapter shows the answer before the learner gives it."""
    from .exercises import get

    exercise = get(key)
    if not exercise.is_right(actual):
        words = _words()
        raise AssertionError(words["check_failed"].format(what=key, expected=as_json(exercise.expected()), actual=as_json(actual)))


def recorded(chapter: str) -> dict:
    """The values a chapter's silent checks expect, by name: tutorial/notebook/recorded/NN.json,
    one record per edition ("en", "zh"): the current language's."""
    from importlib import resources

    kept = json.loads(resources.files(__package__).joinpath("recorded", f"{chapter}.json").read_text(encoding="utf-8"))
    return kept[current()]


def check_recorded(chapter: str, name: str, actual: Any) -> None:
    """A silent check against a value kept outside the chapter (`recorded`): nothing when
    `actual` equals it as JSON, a readable failure otherwise. It keeps the chapter's stored
    outputs honest without writing an expected value where a learner would read it."""
    expected = recorded(chapter)[name]
    if json.loads(json.dumps(actual, ensure_ascii=False)) != expected:
        words = _words()
        raise AssertionError(words["check_failed"].format(what=f"{chapter} · {name}", expected=as_json(expected), actual=as_json(actual)))


def source_code(function) -> str:
    """The source of `function` without its docstring: what it does, read from its module.

    A chapter shows code before it asks about it; a docstring may name the very answer (an
    example of the error place a question asks for), so it is left out."""
    import ast
    import inspect
    import textwrap

    from ..words import current
    from .build_it.texts import chinese_source

    source = textwrap.dedent(inspect.getsource(function))
    body = ast.parse(source).body[0].body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        lines = source.splitlines(keepends=True)
        source = "".join(lines[: first.lineno - 1] + lines[first.end_lineno :])
    return chinese_source(source) if current() == "zh" else source  # its comments in Chinese, as reveal shows them


def diagram(trace, highlight: Optional[str] = None, *, focus: bool = False, upto: Optional[str] = None):
    """The local data-flow diagram of a trace, with one stage or message lit (`focus=True`:
    that message alone in close-up, the rest as summary rows): a Picture (SVG) whose
    `.collapsed` lists the runs drawn as one summary row each. `upto="messages[1]"` draws the
    flow only up to that stage (the picture under a question answers that question only)."""
    from ..pictures import local_flow, show

    return show(local_flow(trace, highlight=highlight, focus=focus, upto=upto))


class LossTable:
    """What stays behind (is not carried into the output), one row per loss: where, what, why."""

    def __init__(self, losses):
        self.rows = [(loss.path, json.dumps(loss.value, ensure_ascii=False), reason_in(loss.reason)) for loss in losses]
        self.words = _words()

    def __repr__(self) -> str:
        if not self.rows:
            return self.words["nothing_behind"]
        return "\n".join(f"{path} = {_short(value)}\n    {reason}" for path, value, reason in self.rows)

    def _repr_html_(self) -> str:
        words = self.words
        if not self.rows:
            return f"<p>{html.escape(words['nothing_behind'])}</p>"
        cells = "".join(
            f"<tr><td><code>{html.escape(path)}</code></td><td><code>{html.escape(_short(value))}</code></td>"
            f"<td style='text-align:left'>{html.escape(reason)}</td></tr>"
            for path, value, reason in self.rows
        )
        head = "".join(f"<th style='text-align:left'>{html.escape(words[key])}</th>" for key in ("where", "value", "why"))
        return f"<table><tr>{head}</tr>{cells}</table>"


class Table:
    """Rows under a header, left-aligned: an HTML table in Jupyter, padded columns as text.

    Chinese and Latin letters have no common width in a browser's code font, so a printed
    table with Chinese in it cannot line up; this one is drawn as HTML where it is seen."""

    def __init__(self, header: list, rows: list):
        self.header = [str(cell) for cell in header]
        self.rows = [[str(cell) for cell in row] for row in rows]

    def __repr__(self) -> str:
        widths = [max(columns(row[i]) for row in [self.header, *self.rows]) for i in range(len(self.header))]
        lines = [self.header, *self.rows]
        return "\n".join("  ".join(fit(cell, width) for cell, width in zip(line, widths)).rstrip() for line in lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{html.escape(cell)}</th>" for cell in self.header)
        body = "".join(
            "<tr>" + "".join(f"<td style='text-align:left'>{html.escape(cell)}</td>" for cell in row) + "</tr>"
            for row in self.rows
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def table(header: list, rows: list) -> Table:
    """A small table a chapter builds itself (`header` and `rows` are lists of cells)."""
    return Table(header, rows)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_losses(losses) -> LossTable:
    """What stays behind, as a table whose headings and reasons are in the current language."""
    return LossTable(losses)
