"""Recorded requests through the learner's translator, each compared with the package's.

    replay(load_translator("my_translator.py"))      # a Replay: one row per request

The requests are the ones real clients sent: the 93 bodies the `anthropic` SDK sends
(`tutorial/examples/sdk/bodies.json`) and the two requests of the recorded Claude Code
session (`tutorial.examples.claude_code_session()`). Each is judged on the rules chapter 05
teaches: a body the package refuses is left out (a learner's translate may assume a valid
body), and where a body's tools need what the chapter does not teach (the schemas of
Anthropic-defined client tools, toolsets without a name) only the messages are compared.
Each row gives the first place where the two differ and the rule that place follows.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable, Optional

from ... import client_tools, translation
from ...errors import RequestError
from ...examples import claude_code_session
from ...preprocess import preprocess
from ...words import current, using
from .checker import Missing, _plain, _root, difference_line, first_difference, place
from .learner import TranslatorError
from .stages import STAGES, plain, rule_text
from .texts import SUMMARIES

# Sentences of a replay, per language.
WORDS = {
    "en": {
        "same": "same",
        "differs": "differs",
        "error": "error",
        "left_out": "left out",
        "refused": "the package refuses this body ({error}); a translate of chapter 05 may assume a valid body",
        "tools_left_out": "compared without its {why}: chapter 05 does not teach them",
        "client": "Anthropic-defined client tools (the package looks their schemas up)",
        "toolset": "toolsets (entries without a name)",
        "line": "{difference}. The rule: {rule}",
        "caught_by": " (the stage that checks this place: {stage})",
        "caught_after": "",
        # finding 1 (zh review 4): a helper of the function that builds the place fails its own check;
        # said as a sentence of its own, after the place's rule (it may or may not cause this difference)
        "also": " Your {helper}, which {caller} calls, does not agree yet either (see its line); fix it first.",
        "summary": "{same} of {compared} requests translate exactly as the package's ({left_out} left out)",
        # finding 27 (zh review 4): a replay stopped by a time-out counts every request, not the ones it reached
        "summary_stopped": "{total} requests: request {number} did not finish, so the replay stopped there; the other {rest} did not run",
        "summary_before": " ({same} of the {ran} before it translate exactly as the package's, {left_out} left out)",
        "uncomparable": "its result cannot be compared: {error}",
        "and": " and ",
        "not_compared": "not compared: ",
        "failed": "failed: ",
        "agrees": "agrees with the package",
        "differs_at": "differs ",
        "row": "{mark} {name}: {state}",
        "claude_code": "Claude Code request {number}",
        "row_detail": " — {detail}",
        "row_note": " ({note})",
    },
    "zh": {
        "same": "相同",
        "differs": "不同",
        "error": "出错",
        "left_out": "未比较",
        "refused": "本包拒绝这个请求体（{error}），而第 05 章的 translate 可以假定收到的请求体都合法",
        "tools_left_out": "比较前去掉了 tools 里第 05 章没讲的{why}",
        "client": "客户端工具（由 Anthropic 定义，schema 由本包查表得到）",
        "toolset": "工具集（没有 name 的条目）",
        "line": "{difference}。规则：{rule}",
        "caught_by": "",
        # zh: a note of its own after the rule's full stop, so it is not read as part of the rule (M11)
        "caught_after": "（注：这个位置由 {stage} 这一阶段检查。）",
        "also": "另外，{caller} 调用的 {helper} 也还没通过（见上面那一行），请先改好 {helper}。",
        "summary": "{compared} 个请求中有 {same} 个的翻译与本包完全相同（{left_out} 个未比较）",
        "summary_stopped": "{total} 个请求中，第 {number} 个超时后停止，其余 {rest} 个没有运行",
        "summary_before": "（在此之前的 {ran} 个请求中有 {same} 个的翻译与本包完全相同，{left_out} 个未比较）",
        "uncomparable": "这个结果无法与本包的结果比较（{error}）",
        "and": "和",
        # zh review 5, finding 39: these follow serve's "你的翻译器：", so a comma, never a second colon
        "not_compared": "未比较，",
        "failed": "出错，",
        "agrees": "与本包一致",
        "differs_at": "与本包不同，",
        "row": "{mark} {name}：{state}",
        "claude_code": "Claude Code 的第 {number} 个请求",
        "row_detail": "。{detail}",
        "row_note": "{note}。",  # after the note's closing parenthesis: a sentence, not a third bracket
    },
}


_CLAUDE_CODE = "Claude Code request "


def shown_name(name: str) -> str:
    """A recorded request's name as a reader sees it ("Claude Code request 2" in Chinese)."""
    if name.startswith(_CLAUDE_CODE) and name[len(_CLAUDE_CODE) :].isdigit():
        return WORDS[current()]["claude_code"].format(number=name[len(_CLAUDE_CODE) :])
    return name


def sdk_bodies() -> dict[str, dict]:
    """The bodies the real `anthropic` SDK sends, name -> body (a fresh copy each call)."""
    text = resources.files("tutorial.examples").joinpath("sdk", "bodies.json").read_text("utf-8")
    return json.loads(text)


def recorded_requests() -> list[tuple[str, dict]]:
    """(name, body) for every recorded request: the SDK's, then the Claude Code session's."""
    found = [(f"SDK {name}", body) for name, body in sdk_bodies().items()]
    session = claude_code_session()
    found += [(f"{_CLAUDE_CODE}{i + 1}", request["body"]) for i, request in enumerate(session["requests"])]
    return found


@dataclass(frozen=True)
class Difference:
    """Where the learner's (translated, tools_schema) first differs from the package's."""

    place: str  # 'translated[3]["tool_calls"][0]["id"]'
    expected: Any
    actual: Any
    rule: str  # the bullet of chapter 05 that place follows
    stage: str = ""  # the function of chapter 05 that builds the place, when known
    also: str = ""  # a learner's helper reached on the way that fails its own check (grade says so after the rule)
    also_caller: str = ""  # the learner's function that reaches it

    def line(self) -> str:
        """The difference in one line, in the current language."""
        lang = current()
        shown = difference_line((self.place,), self.place, self.actual, self.expected, 160)
        rule = self.rule
        if self.stage:  # en: the stage inside the rule's sentence, the full stop after it (L13); zh: a note after it
            stop = rule[-1:] if rule[-1:] in ("。", ".") else ""
            rule = (rule[: len(rule) - len(stop)] + WORDS[lang]["caught_by"].format(stage=self.stage) + stop
                    + WORDS[lang]["caught_after"].format(stage=self.stage))
        line = WORDS[lang]["line"].format(difference=shown, rule=rule)
        if self.also:
            line += WORDS[lang]["also"].format(helper=self.also, caller=self.also_caller or "translate")
        return line

    def as_json(self) -> dict:
        """{place, expected, actual, rule, line}; a side that has no value there (a key or an
        item only the other has) is left out and named in `absent`."""
        found: dict = {"place": self.place}
        for side, value in (("expected", self.expected), ("actual", self.actual)):
            if isinstance(value, Missing):
                found["absent"] = side
            else:
                found[side] = _jsonable(value)
        return {**found, "rule": self.rule, **({"stage": self.stage} if self.stage else {}), "line": self.line()}


def difference(yours: Any, expected: Any, body: Any) -> Optional[Difference]:
    """The first difference between two results of translate on `body`, or None (its rule in
    the current language)."""
    want = _plain(expected)
    found = first_difference(_plain(yours), want)
    if found is None:
        return None
    location, have, wanted = found
    rule = (STAGES["translate"].rule_at((body,), location, want) or "").lstrip("~")
    stage = (rule.rpartition(":")[0] or "translate") if rule else ""  # the function that builds the place
    text = rule_text(rule, stage) if rule else plain(SUMMARIES[current()]["translate"])
    return Difference(place(location, _root("translate")), wanted, have, text, stage)


def chapter_body(body: Any) -> tuple[Any, str]:
    """`body` as chapter 05's rules can judge it, and what was taken out: tool entries that
    need more than the chapter teaches (Anthropic-defined client tools, whose schema the
    package looks up; toolsets, which have no name) leave the tools list of both sides."""
    words = WORDS[current()]
    tools = body.get("tools") if isinstance(body, dict) else None
    if not isinstance(tools, list):
        return body, ""
    kinds = [client_tools.tool_kind(tool) if isinstance(tool, dict) else "custom" for tool in tools]
    why = [words[kind] for kind in ("client", "toolset") if kind in kinds]
    if not why:
        return body, ""
    kept = [tool for tool, kind in zip(tools, kinds) if kind not in ("client", "toolset")]
    return {**body, "tools": kept}, words["tools_left_out"].format(why=words["and"].join(why))


@dataclass(frozen=True)
class Row:
    name: str
    state: str  # "same", "differs", "error" or "left_out"
    difference: Optional[Difference] = None
    note: str = ""  # the error, why it was left out, or what was compared


@dataclass
class Replay:
    rows: list[Row]
    lang: str = "en"
    stopped: bool = False  # the learner's translate did not finish on the last row, so the replay stopped
    total: int = 0  # how many requests the replay was given (more than its rows when it stopped)

    @property
    def compared(self) -> list[Row]:
        return [row for row in self.rows if row.state != "left_out"]

    @property
    def agree(self) -> bool:
        return all(row.state == "same" for row in self.compared)

    def first_problem(self) -> Optional[Row]:
        return next((row for row in self.rows if row.state in ("differs", "error")), None)

    def summary(self) -> str:
        words = WORDS[self.lang]
        same = sum(row.state == "same" for row in self.rows)
        if self.stopped:
            ran = len(self.rows) - 1
            total = max(self.total, len(self.rows))
            line = words["summary_stopped"].format(total=total, number=len(self.rows), rest=total - len(self.rows))
            left_out = len(self.rows) - len(self.compared)
            return line + (words["summary_before"].format(ran=ran, same=same, left_out=left_out) if ran else "")
        return words["summary"].format(same=same, compared=len(self.compared), left_out=len(self.rows) - len(self.compared))

    def lines(self, every: bool = False) -> list[str]:
        """One line per request that differs (every request with `every`), in the replay's language."""
        with using(self.lang):
            return self._lines(every)

    def _lines(self, every: bool) -> list[str]:
        words = WORDS[self.lang]
        found = []
        for row in self.rows:
            if not every and row.state in ("same", "left_out"):
                continue
            mark = {"same": "✓", "differs": "✗", "error": "✗", "left_out": "–"}[row.state]
            detail = row.difference.line() if row.difference else row.note
            note = words["row_note"].format(note=row.note) if row.difference and row.note else ""
            line = words["row"].format(mark=mark, name=shown_name(row.name), state=words[row.state])
            found.append(line + (words["row_detail"].format(detail=detail) if detail else "") + note)
        return found

    def __repr__(self) -> str:
        return "\n".join([self.summary(), *self.lines()])


def replay(translator: Callable, requests: Optional[list[tuple[str, dict]]] = None) -> Replay:
    """Every recorded request (or `requests`, as (name, body)) through `translator` — the
    learner's (`load_translator`) or any function shaped like `tutorial.translate` — and
    through the package, compared on chapter 05's rules, in the current language."""
    lang = current()
    words = WORDS[lang]
    rows = []
    requests = recorded_requests() if requests is None else list(requests)
    for name, body in requests:
        body, note = chapter_body(body)
        try:
            expected = translation.translate(body)
        except RequestError as error:
            rows.append(Row(name, "left_out", note=words["refused"].format(error=error)))
            continue
        try:
            yours = translator(body)
        except TranslatorError as error:
            rows.append(Row(name, "error", note=str(error)))
            if error.timed_out:
                return Replay(rows, lang, stopped=True, total=len(requests))  # its thread still runs: one endless loop is enough
            continue
        except Exception as error:  # noqa: BLE001 - a plain function given as the translator
            rows.append(Row(name, "error", note=f"{type(error).__name__}: {error}"))
            continue
        try:
            found = difference(yours, expected, body)
        except (Exception, RecursionError) as error:  # noqa: BLE001 - a value whose own methods fail
            rows.append(Row(name, "error", note=words["uncomparable"].format(error=f"{type(error).__name__}: {error}")))
            continue
        rows.append(Row(name, "differs" if found else "same", found, note))
    return Replay(rows, lang, total=len(requests))


def _jsonable(value: Any) -> Any:
    """`value` when it is JSON; otherwise what JSON can hold of it (reprs where it cannot)."""
    try:
        json.dumps(value, allow_nan=False)
        return value
    except (TypeError, ValueError, RecursionError):
        try:
            return json.loads(json.dumps(value, default=repr, allow_nan=False))
        except (TypeError, ValueError, RecursionError):
            return repr(value)


def compare_request(translator: Callable, body: Any) -> dict:
    """What a server keeps of the learner's translator on one request, as plain JSON:
    `agrees`, the first `difference` ({place, expected, actual, rule}) or the `error`, what the
    learner's translate returned, and a `note` on what was left out. The learner's translate
    gets the body as the package translates it — preprocessed, as the adapter's _run_turn
    does — with the tools chapter 05 does not teach taken out of both sides. Its words are in
    the current language."""
    words = WORDS[current()]
    origin = getattr(translator, "origin", None)
    kept: dict = {"translator": origin} if origin else {}
    try:
        preprocessed = preprocess(body)
    except RequestError as error:
        return {**kept, "compared": False, "note": words["refused"].format(error=error)}
    chapter, note = chapter_body(preprocessed)
    try:
        expected = translation.translate(chapter)
    except RequestError as error:
        return {**kept, "compared": False, "note": words["refused"].format(error=error)}
    if note:
        kept["note"] = note
    try:
        yours = translator(copy.deepcopy(chapter))
    except TranslatorError as error:
        return {**kept, "compared": True, "agrees": False, "error": str(error)}
    except Exception as error:  # noqa: BLE001 - a plain function given as the translator
        return {**kept, "compared": True, "agrees": False, "error": f"{type(error).__name__}: {error}"}
    try:
        found = difference(yours, expected, chapter)
    except (Exception, RecursionError) as error:  # noqa: BLE001 - a value whose own methods fail
        return {**kept, "compared": True, "agrees": False, "error": words["uncomparable"].format(error=f"{type(error).__name__}: {error}")}
    translated, tools_schema = yours if isinstance(yours, (tuple, list)) and len(yours) == 2 else (yours, None)
    return {
        **kept,
        "compared": True,
        "agrees": found is None,
        "difference": found.as_json() if found else None,
        "translated": _jsonable(translated),
        "tools_schema": _jsonable(tools_schema),
    }


def request_line(compared: dict) -> str:
    """One line for a log or a reply, in the current language: agrees, or where it differs first."""
    words = WORDS[current()]
    if not compared.get("compared"):
        return words["not_compared"] + compared.get("note", "")
    if compared.get("error"):
        return words["failed"] + compared["error"]
    if compared["agrees"]:
        return words["agrees"]
    return words["differs_at"] + compared["difference"]["line"]
