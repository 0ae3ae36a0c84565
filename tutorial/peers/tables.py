"""Side-by-side tables: what four real stacks and our two targets made of the same input.

`data/` beside this module records what Slime, SGLang, vLLM and LiteLLM built from 22 Anthropic
requests and 6 model replies (versions in its README and in `PeerData.versions`). This
module turns one contested point of that record into a small table:

    data = load_peer_data()
    request_table([("roles", "09_text_before_tool_result_ordering", roles())], data)

One row per stack — the four peers, then our targets — and one column per `(label,
case id, view)`. A *view* picks the relevant part of an outcome (the role sequence, one
message's content, a setting, the error's first line) and says how to print it short.

Where our rows come from:
- requests: `ours: chat_template` and `ours: openai` run exactly the pipelines the
  conformance test compares (`deviations.run_ours`: the default target after `preprocess`,
  held against Slime; the "openai" target on the body as sent, held against SGLang).
  What a target leaves out of its output is read from the loss report
  (`losses.report`, the same report `trace(...).losses` gives).
- replies: `ours: way back` runs `way_back.build_reply` and `way_back.sse_events` on the
  recorded model output, with deterministic tool ids. When the way-back module cannot be
  imported, the reply tables show the peers only and their note says so.

Every table keeps the raw values (`Table.value`) beside the printed cells (`Table.cell`),
so a notebook can check a fact on the data and show it in the same breath. Both displays
are deterministic: no ids, no timestamps, JSON with `ensure_ascii=False`, long values cut
with "…", and HTML escaped.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from ..words import columns as text_columns, current, pad
from . import deviations as dv
from .outcomes import (
    ABSENT, NOT_APPLICABLE, OUR_REPLY_ROW, OUR_REQUEST_ROWS, PEER_ROWS, InLossReport, Refused, RequestSide,
    _way_back, citation, our_reply, parsed_output, peer_label, reply_sides, request_sides,
)  # fmt: skip
from .views import (
    _SPECIAL, Side, View, as_json, block_types, carries, error_line, error_where, event_names, key_paths, message,
    message_field, message_keys, outcome, render, reply_content, reply_field, reply_outcome, roles, setting, shorten,
    stream, stream_event, streamed_inputs, streamed_signature, thinking_signature, tool_inputs, tool_names, transcript,
)  # fmt: skip

# ---------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class Row:
    key: str  # "slime", …, "ours: chat_template"
    label: str  # what the table prints: "Slime @624b824a"
    values: tuple  # raw values, one per column
    cells: tuple[str, ...]  # printed values, one per column

    @property
    def ours(self) -> bool:
        return self.key.startswith("ours")


@dataclass(frozen=True)
class Table:
    """Rows of stacks, columns of views. `value(row, column)` is the raw value,
    `cell(row, column)` what is printed; rows and columns are named by key and label."""

    title: str
    columns: tuple[str, ...]  # the column labels, as the code names them (keys for `value`, `cell`, `column`)
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = field(default=())
    lang: str = field(default_factory=current)  # the language it was made in: of its headers, notes and cells
    headers: tuple[str, ...] = field(default=())  # the columns as printed; the labels when empty

    def row(self, key: str) -> Row:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(f"no row {key!r}; rows are {[r.key for r in self.rows]}")

    def _index(self, column: str) -> int:
        if column not in self.columns:
            raise KeyError(f"no column {column!r}; columns are {list(self.columns)}")
        return self.columns.index(column)

    def value(self, row: str, column: str) -> Any:
        return self.row(row).values[self._index(column)]

    def cell(self, row: str, column: str) -> str:
        return self.row(row).cells[self._index(column)]

    def column(self, column: str) -> dict[str, Any]:
        """`{row key: raw value}` for one column."""
        index = self._index(column)
        return {row.key: row.values[index] for row in self.rows}

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(row.key for row in self.rows)

    @property
    def printed_columns(self) -> tuple[str, ...]:
        return self.headers or self.columns

    def __repr__(self) -> str:
        words = TEXT[self.lang]
        header = (words["stack"], *self.printed_columns)
        lines = [(row.label, *row.cells) for row in self.rows]
        widths = [max(text_columns(line[i]) for line in (header, *lines)) for i in range(len(header))]

        def line(cells) -> str:
            return " | ".join(pad(cell, width) for cell, width in zip(cells, widths)).rstrip()

        rule = "-+-".join("-" * width for width in widths)
        text = [self.title, line(header), rule, *(line(cells) for cells in lines)]
        text += [words["note"].format(note=note) for note in self.notes]
        return "\n".join(text)

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(column)}</th>" for column in (TEXT[self.lang]["stack"], *self.printed_columns))
        body = []
        for row in self.rows:
            cells = "".join(f"<td><code>{e(cell)}</code></td>" for cell in row.cells)
            kind = "ours" if row.ours else "peer"
            body.append(f"<tr class='tp-{kind}'><th>{e(row.label)}</th>{cells}</tr>")
        notes = "".join(f"<div class='tp-note'>{e(note)}</div>" for note in self.notes)
        return (
            f"<div class='tp-peer-tables'>{_STYLE}<table class='tp-peer-table'><caption>{e(self.title)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}</div>"
        )


# JupyterLab right-aligns and centres output tables with selectors of specificity (0,2,1)
# (`:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon th`) and fixes their layout, so these rules
# name a wrapper class, the table's class and the element (0,2,2) to win. Columns size to their
# content (table-layout:auto), so JSON wraps at its spaces, and a token is broken only when it is
# wider than the whole output area. The class names are this module's own: styles in an output
# apply to the whole page, so a name shared with another output would restyle it too.
_STYLE = (
    "<style>"
    ".tp-peer-tables table.tp-peer-table{border-collapse:collapse;font-size:12px;margin:4px 0;"
    "table-layout:auto;width:auto;max-width:100%}"
    ".tp-peer-tables table.tp-peer-table caption{text-align:left;font-weight:bold;padding:2px 0}"
    ".tp-peer-tables table.tp-peer-table th,.tp-peer-tables table.tp-peer-table td{border:1px solid #d0d7de;"
    "padding:3px 6px;text-align:left;vertical-align:top}"
    ".tp-peer-tables table.tp-peer-table code{white-space:pre-wrap;word-break:normal;overflow-wrap:break-word;"
    "background:none}"
    ".tp-peer-tables table.tp-peer-table tr.tp-ours{background:#eef6ff}"
    ".tp-peer-tables .tp-note{font-size:11px;color:#57606a}"
    "</style>"
)


# Every word the tables write besides data, per language.
TEXT = {
    "en": {
        "stack": "stack", "note": "note: {note}",
        "request_note": "ours: chat_template = preprocess + target 'chat_template'; "
                        "ours: openai = target 'openai' on the body as sent",
        "reply_note": "ours: way back = build_reply + sse_events on the same model output (tool ids toolu_0, toolu_1, …)",
        "no_way_back": "tutorial.way_back is not available: only the peers are shown",
        "outcomes": "outcome per case",
        "sources": "the rows of every table",
        "sources_columns": ("made by", "held against (tests/test_conformance.py)"),
        "made": "target {target!r} after preprocess", "made_as_sent": "target {target!r} on the body as sent",
    },
    "zh": {
        "stack": "系统", "note": "{note}",
        "request_note": "“本包：chat_template”一行先做 preprocess，再用目标格式 'chat_template'，"
                        "“本包：openai”一行把原样发来的请求体直接交给目标格式 'openai'",
        "reply_note": "“本包：返回路径”一行对同一个模型输出运行 build_reply 和 sse_events，工具 id 为 toolu_0、toolu_1……",
        "no_way_back": "tutorial.way_back 不可用，所以只显示真实系统",
        "outcomes": "每个用例的结果",
        "sources": "每张表里的行",
        "sources_columns": ("生成方式", "对照的真实系统（tests/test_conformance.py）"),
        "made": "preprocess 之后的目标格式 {target!r}", "made_as_sent": "目标格式 {target!r}，用于原样发来的请求体",
    },
}

# Column labels as chapter 10 writes them, in Chinese. A label may start with a case or reply
# number ("02 system", "r4 stop_reason"); the rest is looked up. A label not found here is a
# name (a field, an event, a case number) and is printed as it is.
HEADERS_ZH = {
    "roles": "角色序列",
    "after the tool call": "工具调用之后",
    "system": "system 消息",
    "assistant": "assistant 消息",
    "assistant keys": "assistant 消息的键",
    "signature in body": "响应体中的签名",
    "signature streamed": "事件流中的签名",
    "stream": "事件流",
    "the tool's answer": "工具的回答",
    "is_error kept": "是否带上 is_error",
    "tool messages": "tool 消息",
    "defer_loading at": "defer_loading 的位置",
    "first message": "第一条消息",
    "the user turns": "user 消息",
    "tools": "工具",
    "stop": "停止字符串",
    "token limit": "token 上限",
    "empty text": "空文本",
    "tool-call turn": "工具调用轮次",
    "body content": "响应体的 content",
    "error": "错误",
    "points at": "指向",
    "body": "响应体",
    "tool inputs in body": "响应体中的工具输入",
    "input JSON streamed": "事件流中的输入 JSON",
    "blocks": "内容块",
    "events": "事件",
}
_HEADER_PATTERNS_ZH = ((re.compile(r"carries (.+)"), r"是否含 \1"),)
_NUMBERED = re.compile(r"((?:\d\d|r\d+) )(.+)")


def header_in(label: str) -> str:
    """A column label as the table prints it in the current language."""
    if current() != "zh":
        return label
    numbered = _NUMBERED.fullmatch(label)
    if numbered:
        return numbered.group(1) + header_in(numbered.group(2))
    if label in HEADERS_ZH:
        return HEADERS_ZH[label]
    for pattern, chinese in _HEADER_PATTERNS_ZH:
        if pattern.fullmatch(label):
            return pattern.sub(chinese, label)
    return label


def _cell(view: View, side: Side) -> tuple[Any, str]:
    if view.needs_output and not side.ok:
        value: Any = Refused(side.outcome if isinstance(side, RequestSide) else "no response body")
    else:
        value = view.get(side)
    text = render(value) if isinstance(value, _SPECIAL) else view.text(value)
    return value, shorten(text, view.limit).replace("\n", "⏎")


ColumnSpec = tuple[str, str, View]  # (label, case or reply id, view)


# Our rows' labels in Chinese (their keys stay: code looks rows up by key).
OUR_ROWS_ZH = {"ours: chat_template": "本包：chat_template", "ours: openai": "本包：openai", "ours: way back": "本包：返回路径"}


def _label(key: str, data: dv.PeerData) -> str:
    if key in PEER_ROWS:
        return peer_label(key, data)
    return OUR_ROWS_ZH.get(key, key) if current() == "zh" else key


def _build(
    columns: Sequence[ColumnSpec],
    sides_of: Callable[[str], dict[str, Side]],
    title: str,
    notes: tuple[str, ...],
    data: dv.PeerData,
) -> Table:
    if not columns:
        raise ValueError("a table needs at least one (label, id, view) column")
    labels = tuple(label for label, _, _ in columns)
    if len(set(labels)) != len(labels):
        raise ValueError(f"column labels must differ, got {list(labels)}")
    per_source = {source: sides_of(source) for source in dict.fromkeys(source for _, source, _ in columns)}
    row_keys = list(dict.fromkeys(key for sides in per_source.values() for key in sides))
    rows = []
    for key in row_keys:
        pairs = [_cell(view, per_source[source][key]) for _, source, view in columns]
        rows.append(Row(key, _label(key, data), tuple(v for v, _ in pairs), tuple(c for _, c in pairs)))
    return Table(title, labels, tuple(rows), notes, headers=tuple(header_in(label) for label in labels))


def _default_title(columns: Sequence[ColumnSpec]) -> str:
    return " + ".join(dict.fromkeys(source for _, source, _ in columns))


def request_table(
    columns: Sequence[ColumnSpec], data: Optional[dv.PeerData] = None, title: Optional[str] = None,
) -> Table:
    """A table of recorded requests: one row per peer and per target of ours, one column per
    `(label, case id, view)`; headers, notes and words in the current language."""
    data = data if data is not None else dv.load_peer_data()
    notes = (TEXT[current()]["request_note"],)
    return _build(columns, lambda case_id: request_sides(case_id, data), title or _default_title(columns), notes, data)


def reply_table(
    columns: Sequence[ColumnSpec], data: Optional[dv.PeerData] = None, title: Optional[str] = None,
) -> Table:
    """A table of recorded model outputs: one row per peer (and ours when the way back is
    available), one column per `(label, reply id, view)`; words in the current language."""
    data = data if data is not None else dv.load_peer_data()
    notes = (TEXT[current()]["no_way_back" if _way_back() is None else "reply_note"],)
    return _build(columns, lambda reply_id: reply_sides(reply_id, data), title or _default_title(columns), notes, data)


def outcome_table(
    case_ids: Union[Sequence[str], Mapping[str, str]], data: Optional[dv.PeerData] = None, title: Optional[str] = None,
) -> Table:
    """Which rows accept and which refuse each case: one column per case, labelled by its id,
    or by its key when `case_ids` maps labels to ids (`{"05": "05_document_pdf"}`)."""
    pairs = case_ids.items() if isinstance(case_ids, Mapping) else ((case_id, case_id) for case_id in case_ids)
    columns = [(label, case_id, outcome()) for label, case_id in pairs]
    return request_table(columns, data, title or TEXT[current()]["outcomes"])


def sources_table(data: Optional[dv.PeerData] = None) -> Table:
    """Where each row's data comes from: the recorded source of every peer, and for our
    targets which peer the conformance test holds them against. The raw values are English;
    the printed cells, title and headers are in the current language."""
    data = data if data is not None else dv.load_peer_data()
    words = TEXT[current()]
    rows = []
    for peer in PEER_ROWS:
        source = str(data.versions.get(peer, {}).get("source", "?"))
        rows.append(Row(peer, peer_label(peer, data), (source, NOT_APPLICABLE), (source, "—")))
    for row, peer in OUR_REQUEST_ROWS.items():
        pipeline = dv.PEERS[peer]
        form = "made" if pipeline.preprocess else "made_as_sent"
        made, printed = TEXT["en"][form].format(target=pipeline.target), words[form].format(target=pipeline.target)
        rows.append(Row(row, _label(row, data), (made, peer), (printed, peer_label(peer, data))))
    if _way_back() is not None:
        made = "way_back.build_reply + sse_events"
        rows.append(Row(OUR_REPLY_ROW, _label(OUR_REPLY_ROW, data), (made, NOT_APPLICABLE), (made, "—")))
    return Table(words["sources"], TEXT["en"]["sources_columns"], tuple(rows), headers=words["sources_columns"])


# What chapters reach through `tables` (rows and markers live in outcomes.py, views in views.py).
__all__ = [
    "ABSENT", "NOT_APPLICABLE", "OUR_REPLY_ROW", "OUR_REQUEST_ROWS", "PEER_ROWS", "InLossReport", "Refused", "Table",
    "as_json", "block_types", "carries", "citation", "error_line", "error_where", "event_names", "header_in", "key_paths", "message",
    "message_field", "message_keys", "our_reply", "outcome", "outcome_table", "parsed_output", "reply_content",
    "reply_field", "reply_outcome", "reply_table", "request_table", "roles", "setting", "shorten", "sources_table",
    "stream", "stream_event", "streamed_inputs", "streamed_signature", "thinking_signature", "tool_inputs",
    "tool_names", "transcript",
]  # fmt: skip
