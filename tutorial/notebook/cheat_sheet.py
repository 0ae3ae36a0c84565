"""Chapter 12's cheat sheet: every request field and block kind, both targets, what stays behind.

Each row is a *probe*, a tiny request holding one request field or one kind of content block.
`row(probe)` runs it through both targets with `trace` (a refusal is recorded, not raised),
keeps the messages (or the tool) made from the part of the body the row is about, and the
losses that lie inside that part; `cheat_sheet()` is every row as one table, HTML for the
notebook and the printable page (scripts/cheat_sheet.py), text for a terminal and nbval.

Nothing in the table is typed by hand but the row labels: the outputs come from `translate`
(through `trace`), the reasons from the loss report, the refusals from the `openai` target's
errors. Labels, headers and reasons are written in the current language (`cheat_sheet(lang)`
chooses one). The reasons are the report's (`losses.reason_in` gives their Chinese); a refusal's
English is the lesson's contract, so its Chinese here is a gloss for the reader. JSON, field
names and places (`content[0].id`) are data and read the same in both languages.
"""

from __future__ import annotations

import html
import json
from typing import Any, NamedTuple, Optional

from ..errors import RequestError, format_location
from ..words import current, problem, using
from ..words.errors import phrase
from ..watch.losses import Reason, reason_in
from ..watch.trace import trace

TARGETS = ("chat_template", "openai")

# ---------------------------------------------------------------------------
# The probes: small builders keep each request short (a user turn, an assistant turn,
# one call to a `read` tool and its result); `focus` says where in the body a row looks.

TOOL = {"name": "read", "description": "read a file",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}
CALL = {"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.md"}}
IMAGE = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
PDF = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}}


def text(words: str, **more: Any) -> dict:
    return {"type": "text", "text": words, **more}


def user(*content: dict) -> dict:
    return {"role": "user", "content": list(content)}


def assistant(*content: dict) -> dict:
    return {"role": "assistant", "content": list(content)}


def result(content: Any, **more: Any) -> dict:
    return {"type": "tool_result", "tool_use_id": "toolu_1", "content": content, **more}


def answered(*content: dict) -> dict:
    """A user question, a call to `read`, then a user turn holding `content`; the row looks at that turn."""
    return {"messages": [user(text("go")), assistant(CALL), user(*content)], "tools": [TOOL]}


def replied(*content: dict) -> dict:
    """A user question, then an assistant turn holding `content`; the row looks at that turn."""
    return {"messages": [user(text("go")), assistant(*content)]}


def offered(*tools: dict) -> dict:
    return {"messages": [user(text("go"))], "tools": list(tools)}


class Probe(NamedTuple):
    group: str  # in English; `GROUPS` has its Chinese
    label: str  # in English, and the row's key; `LABELS` has its Chinese
    body: dict
    focus: list  # the places in the body the row is about, e.g. [("messages", 1)]


HI = [user(text("hi"))]
TURN, ANSWER, FIRST = ("messages", 1), ("messages", 2), ("messages", 0)

PROBES = (
    Probe("request", "system as a string", {"system": "be brief", "messages": HI}, [("system",)]),
    Probe("request", "system as text blocks (cache_control)",
          {"system": [text("A"), text("B", cache_control={"type": "ephemeral"})], "messages": HI}, [("system",)]),
    Probe("request", "a system message inside messages (preprocess folds it)",
          {"system": "top", "messages": [user(text("a")), {"role": "system", "content": "remind"}, user(text("b"))]}, [FIRST]),
    Probe("request", "max_tokens, stop_sequences, temperature",
          {"messages": HI, "max_tokens": 64, "stop_sequences": ["END"], "temperature": 0.2},
          [("max_tokens",), ("stop_sequences",), ("temperature",)]),
    Probe("request", "model, stream, metadata",
          {"messages": HI, "model": "m", "stream": True, "metadata": {"user_id": "u"}}, [("model",), ("stream",), ("metadata",)]),
    Probe("request", "tool_choice, thinking",
          {"messages": HI, "tool_choice": {"type": "auto"}, "thinking": {"type": "enabled", "budget_tokens": 2048}},
          [("tool_choice",), ("thinking",)]),
    Probe("user", "content as a string", {"messages": [{"role": "user", "content": "hi"}]}, [FIRST]),
    Probe("user", "two text blocks", {"messages": [user(text("A"), text("B"))]}, [FIRST]),
    Probe("user", "text with cache_control", {"messages": [user(text("A", cache_control={"type": "ephemeral"}))]}, [FIRST]),
    Probe("user", "image", {"messages": [user(IMAGE)]}, [FIRST]),
    Probe("user", "document (PDF)", {"messages": [user(PDF)]}, [FIRST]),
    Probe("user", "search_result", {"messages": [user({"type": "search_result", "title": "T", "source": "https://x.org",
                                                        "content": [text("S")]})]}, [FIRST]),
    Probe("user", "a block type nobody knows", {"messages": [user({"type": "hologram", "data": "..."})]}, [FIRST]),
    Probe("tool result", "string content", answered(result("ok")), [ANSWER]),
    Probe("tool result", "is_error: true", answered(result("failed", is_error=True)), [ANSWER]),
    Probe("tool result", "[text, image]", answered(result([text("see"), IMAGE])), [ANSWER]),
    Probe("tool result", "[text, tool_reference, text]",
          answered(result([text("found"), {"type": "tool_reference", "tool_name": "read"}, text("ready")])), [ANSWER]),
    Probe("tool result", "text before the result (the API refuses it)", answered(text("note"), result("ok")), [ANSWER]),
    Probe("assistant", "content as a string", {"messages": [user(text("go")), {"role": "assistant", "content": "done"}]}, [TURN]),
    Probe("assistant", "two text blocks", replied(text("A"), text("B")), [TURN]),
    Probe("assistant", "thinking with a signature", replied({"type": "thinking", "thinking": "hmm", "signature": "sig"}, text("A")), [TURN]),
    Probe("assistant", "redacted_thinking", replied({"type": "redacted_thinking", "data": "opaque"}, text("A")), [TURN]),
    Probe("assistant", "tool_use", {"messages": [user(text("go")), assistant(CALL)], "tools": [TOOL]}, [TURN]),
    Probe("assistant", "server_tool_use + web_search_tool_result",
          replied({"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "q"}},
                  {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []}, text("news")), [TURN]),
    Probe("tools", "a custom tool", offered(TOOL), [("tools", 0)]),
    Probe("tools", "a custom tool with defer_loading", offered({**TOOL, "defer_loading": True}), [("tools", 0)]),
    Probe("tools", "a custom tool without input_schema", offered({"name": "ping"}), [("tools", 0)]),
    Probe("tools", "server tool web_search_20250305", offered({"type": "web_search_20250305", "name": "web_search"}), [("tools", 0)]),
    Probe("tools", "Anthropic-defined client tool bash_20250124", offered({"type": "bash_20250124", "name": "bash"}), [("tools", 0)]),
)


def probe(label: str, group: Optional[str] = None) -> Probe:
    """The probe with this (English) label; `group` picks one when two groups share a label."""
    found = [p for p in PROBES if p.label == label and group in (None, p.group)]
    if len(found) != 1:
        raise KeyError(f"{len(found)} probes labelled {label!r}" + (f" in {group!r}" if group else ""))
    return found[0]


def block_kinds() -> set:
    """Every block type the probes hold, at the top of a message's content or inside a tool result."""
    return {block["type"] for p in PROBES
            for m in p.body["messages"] if isinstance(m["content"], list)
            for b in m["content"] for block in [b, *(b.get("content") if isinstance(b.get("content"), list) else [])]}


# ---------------------------------------------------------------------------
# The words: every label, header and gloss the table writes, per language

GROUPS = {"request": "请求", "user": "user 消息", "tool result": "工具结果", "assistant": "assistant 消息", "tools": "工具"}

LABELS = {
    "system as a string": "system 为字符串",
    "system as text blocks (cache_control)": "system 为文本块（cache_control）",
    "a system message inside messages (preprocess folds it)": "列表中间的 system 消息（由 preprocess 折叠）",
    "content as a string": "content 为字符串",
    "two text blocks": "两个文本块",
    "text with cache_control": "带 cache_control 的文本",
    "image": "图片",
    "document (PDF)": "文档（PDF）",
    "a block type nobody knows": "未知类型的内容块",
    "max_tokens, stop_sequences, temperature": "max_tokens、stop_sequences、temperature",
    "model, stream, metadata": "model、stream、metadata",
    "tool_choice, thinking": "tool_choice、thinking",
    "string content": "content 为字符串",
    "text before the result (the API refuses it)": "工具结果之前有文本（API 会拒绝）",
    "thinking with a signature": "带签名的 thinking",
    "a custom tool": "自定义工具",
    "a custom tool with defer_loading": "带 defer_loading 的自定义工具",
    "a custom tool without input_schema": "没有 input_schema 的自定义工具",
    "server tool web_search_20250305": "服务端工具 web_search_20250305",
    "Anthropic-defined client tool bash_20250124": "Anthropic 定义的客户端工具 bash_20250124",
}
"""The labels that are words; the others (`tool_use`, `[text, image]`, ...) are names and read the same."""

TEXT = {
    "en": {
        "columns": ("field or block", "chat_template makes", "openai makes", "stays behind, and why"),
        "both": "both", "nothing": "nothing", "refused": "✗ refused", "left_out": "(left out of the tools)",
        "refusal": "refused: {why}", "stays": "{who}: {places} — {why}", "stays_nowhere": "{who}: {why}",
        "stays_refused": "{who}: {why}",
        "line": "    stays behind: {stays}", "list": ", ",
    },
    "zh": {
        "columns": ("字段或内容块", "chat_template 的输出", "openai 的输出", "未进入输出的内容及原因"),
        "both": "两种格式", "nothing": "无", "refused": "✗ 拒绝", "left_out": "（不放进工具列表）",
        "refusal": "拒绝：{why}", "stays": "{who} {places}：{why}", "stays_nowhere": "{who}：{why}",
        "stays_refused": "{who} {why}",
        "line": "    未进入输出 · {stays}", "list": "、",
    },
}


def _words() -> dict:
    return TEXT[current()]


def group_in(group: str) -> str:
    """A probe's group in the current language."""
    return GROUPS.get(group, group) if current() == "zh" else group


def label_in(label: str) -> str:
    """A probe's label in the current language."""
    return LABELS.get(label, label) if current() == "zh" else label


# ---------------------------------------------------------------------------
# One row


def compact(value: Any, limit: int = 110) -> str:
    """One line of JSON; its spaces after `,` and `:` are where a narrow column may wrap it."""
    words = json.dumps(value, ensure_ascii=False)
    return words if len(words) <= limit else words[: limit - 1] + "…"


def _inside(location: tuple, focus: tuple) -> bool:
    return tuple(location[: len(focus)]) == tuple(focus)


def first_clause(reason: str) -> str:
    """A loss reason's first clause, in the current language: what replaced the part is in the
    output column already. The English is cut before its first "; ", then before ": " when what
    precedes it is a phrase of three words or more; the Chinese first clause is the reason's own
    (`Reason.first_clause_zh`)."""
    if current() == "zh":
        return reason.first_clause_zh if isinstance(reason, Reason) else reason_in(reason)
    with using("en"):  # a reason may come in either language; it holds both
        english = reason_in(reason)
    head = english.split("; ")[0]
    before, _, after = head.partition(": ")
    return before if after and len(before.split()) >= 3 else head


def _refusal(error: RequestError) -> str:
    """The refusal's reason, formatted forward from the error's values: its `why` when it has
    one, else the problem with the field it is about ("input_schema is required ...")."""
    why = error.values.get("why")
    if why is None:
        why = f"{error.location[-1]} {problem(error)}" if error.location else problem(error)
    elif current() == "zh":
        why = phrase(why)
    return _words()["refusal"].format(why=why)


def made(probe: Probe, target: str) -> tuple[str, list[tuple[str, str]]]:
    """What `target` makes of the probe's focused part: (output text, [(relative place, reason)])."""
    words = _words()
    try:
        t = trace(probe.body, target=target)
    except RequestError as error:
        return words["refused"], [(None, _refusal(error))]  # no place: the whole request
    shown, lost = [], []
    for focus in probe.focus:
        if focus[0] == "tools":
            tools = t.tools_schema or []
            shown.append(compact(tools[focus[1]]) if focus[1] < len(tools) else words["left_out"])
        else:
            indices = sorted({i for p in t.produced if _inside(p.location, focus) or _inside(focus, p.location) for i in p.outputs})
            shown += [compact(t.translated[i]) for i in indices]
        lost += [(format_location(loss.location[len(focus):]) if len(loss.location) > len(focus) else "",
                  first_clause(loss.reason))
                 for loss in t.losses if _inside(loss.location, focus)]
        if focus == ("system",):
            lost = [("system" + place, why) for place, why in lost]
        elif len(focus) == 1:
            lost = [(focus[0] if place == "" else place, why) for place, why in lost]
    return " ".join(shown) or "—", lost


class Row(NamedTuple):
    probe: Probe
    group: str  # in the row's language
    label: str  # in the row's language
    outputs: dict  # target -> what it makes, one line of JSON (or the refusal)
    stays: list  # one line per (who, why): who loses what, where, and why
    refused: tuple  # the targets that refused the probe
    lang: str

    def __repr__(self) -> str:
        with using(self.lang):
            return _text([self])


def row(probe: Probe) -> Row:
    """The probe through both targets, in the current language."""
    words = _words()
    outputs, losses, refused = {}, {}, []
    for target in TARGETS:
        outputs[target], losses[target] = made(probe, target)
        if outputs[target] == words["refused"]:
            refused.append(target)
    places: dict = {}  # (who, why) -> places, so one reason is written once
    for place, why in dict.fromkeys(losses["chat_template"] + losses["openai"]):
        who = [t for t in TARGETS if (place, why) in losses[t]]
        places.setdefault((words["both"] if len(who) == 2 else who[0], why), []).append(place)
    stays = []
    for (who, why), found in places.items():
        named = words["list"].join(p for p in found if p)
        form = "stays" if named else "stays_refused" if None in found else "stays_nowhere"
        stays.append(words[form].format(who=who, places=named, why=why))
    return Row(probe, group_in(probe.group), label_in(probe.label), outputs, stays, tuple(refused), current())


# ---------------------------------------------------------------------------
# The table


def _text(rows: list) -> str:
    """The rows as text, in the current language."""
    line, nothing = TEXT[current()]["line"], TEXT[current()]["nothing"]
    lines = []
    for r in rows:
        lines.append(f"[{r.group}] {r.label}")
        lines += [f"    {t}: {r.outputs[t]}" for t in TARGETS]
        lines += [line.format(stays=s) for s in r.stays] or [line.format(stays=nothing)]
    return "\n".join(lines)


class CheatSheet:
    """The rows as an HTML table (for the notebook and the printable page) and as text."""

    def __init__(self, rows: list):
        self.rows = rows
        self.lang = current()  # shown later in the language it was made in

    @property
    def columns(self) -> tuple:
        return TEXT[self.lang]["columns"]

    def row(self, label: str, group: Optional[str] = None) -> Row:
        """The row of the probe with this (English) label."""
        wanted = probe(label, group)
        return next(r for r in self.rows if r.probe is wanted)

    def __repr__(self) -> str:
        with using(self.lang):
            return _text(self.rows)

    def _repr_html_(self) -> str:
        nothing = TEXT[self.lang]["nothing"]
        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        body, group = [], None
        for r in self.rows:
            if r.group != group:
                group = r.group
                body.append(f"<tr class='cs-group'><th colspan='4'>{html.escape(group)}</th></tr>")
            stays = "<br>".join(html.escape(s) for s in r.stays) or nothing
            cells = [f"<th>{html.escape(r.label)}</th>"] + [f"<td><code>{html.escape(r.outputs[t])}</code></td>" for t in TARGETS]
            body.append("<tr>" + "".join(cells) + f"<td>{stays}</td></tr>")
        # JupyterLab right-aligns output tables with selectors of specificity (0,2,1); these
        # name the wrapper, the table's class and the element (0,2,2), so they win.
        sheet = ".cheat-sheet table.cs-table"
        return (
            "<div class='cheat-sheet'><style>"
            f"{sheet}{{border-collapse:collapse;font-size:11px;width:100%;table-layout:fixed;margin:0}}"
            f"{sheet} th,{sheet} td{{border:1px solid #d0d7de;padding:2px 4px;text-align:left;vertical-align:top}}"
            f"{sheet} code{{white-space:pre-wrap;word-break:normal;overflow-wrap:break-word;background:none;font-size:inherit}}"
            f"{sheet} tr.cs-group th{{background:#eef6ff;font-weight:bold}}"
            f"{sheet} tbody th{{font-weight:normal;overflow-wrap:anywhere}}"
            "</style><table class='cs-table'><colgroup><col style='width:12%'><col style='width:24%'><col style='width:24%'>"
            f"<col style='width:40%'></colgroup><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
        )


def cheat_sheet(lang: Optional[str] = None) -> CheatSheet:
    """Every probe's row, in `lang` (None: the current language). An entry point:
    scripts/cheat_sheet.py asks for each edition's table by its language."""
    with using(lang):
        return CheatSheet([row(p) for p in PROBES])
