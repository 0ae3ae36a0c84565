"""Graphviz pictures of the way back: Action 3.5, the echo, and chat messages -> wire form.

Like `tutorial.diagrams`, every builder returns DOT source as a plain string, drawn from
the real values the way-back functions produced. Nothing here draws or reads a file, so
the pictures are tested as text, rendered wherever Graphviz is installed (`show(dot)`,
re-exported from `tutorial.diagrams`), and read as source where it is not.

    reply_flow(parsed, finish_reason, reply, events=None)
        Action 3.5: the model's output -> build_reply -> the reply blocks (each tool_use
        with its fresh id), stop_reason and manager_message; and, when `events` is given,
        sse_events -> the event sequence a streaming client reads.
    echo_flow(manager_message, next_body, target="chat_template")
        The next request carries the reply as history; translate -> the message for that
        turn, compared with manager_message (equal, or which fields differ).
    wire_flow(messages)
        Chat messages -> to_anthropic -> the top-level system and the wire messages:
        which chat message went where, and which ids were kept, minted or paired.

`differences(left, right)` lists the places where two JSON values differ; the echo
diagram uses it to say why a message is not equal, and notebooks can use it too.
"""

from __future__ import annotations

import json
import unicodedata
from contextlib import contextmanager
from typing import Any, Iterator, Optional

from .flow import FONT, WIDTH, render_svg, show
from ..errors import format_location
from ..watch.jsondiff import differences
from ..translation import translate, translate_messages
from ..round_trip import to_anthropic

__all__ = ["differences", "echo_flow", "render_svg", "reply_flow", "show", "wire_flow"]

# The palette of tutorial.diagrams (its style dicts are private there, so the same
# colours are named here): blue for the Anthropic wire, green for chat messages, grey
# for code and for what stays behind, amber for a freshly minted id.
_WIRE = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eaf2fb", "color": "#3d6fa8"}
_CHAT = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eaf6ea", "color": "#3f8a46"}
_CODE = {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4f4f4", "color": "#6b6b6b"}
_LOST = {
    "shape": "box", "style": "rounded,filled,dashed", "fillcolor": "#fafafa", "color": "#9a9a9a", "fontcolor": "#6b6b6b"
}  # fmt: skip
_EQUAL = {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#d5ecd5", "color": "#3f8a46"}
_UNEQUAL = {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#fdecea", "color": "#b3261e"}
_LOST_EDGE = {"style": "dashed", "color": "#9a9a9a", "fontcolor": "#6b6b6b", "arrowhead": "empty"}
_STREAM_EDGE = {"color": "#3d6fa8", "penwidth": "1.6"}
_MINTED_EDGE = {"color": "#d4860b", "fontcolor": "#a15f00"}
_CHAT_EDGE = {"color": "#3f8a46", "fontcolor": "#3f8a46"}

BLOCK_WIDTH = 44  # columns for one block or event line; a Chinese character counts as two

# ---------------------------------------------------------------------------
# Text that is safe in a label, whatever the messages say. (tutorial.diagrams has its
# own wrapping and escaping helpers, but they are private, so these few lines are local.)

# Characters a picture cannot show or that would change the layout: controls, format
# characters (zero-width joiners), line/paragraph separators, surrogates, private use,
# unassigned. Each is shown as a \uXXXX escape.
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _width(token: str) -> int:
    """Display columns: wide and full-width characters (CJK) take two, combining marks none."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in token
    )


def _fit(text: str, width: int = WIDTH) -> str:
    """`text` on one line of at most `width` columns, cut with an ellipsis when longer.
    A hidden character becomes one escape token, never cut in half."""
    tokens = [f"\\u{ord(c):04x}" if unicodedata.category(c) in _HIDDEN else c for c in text]
    if sum(map(_width, tokens)) <= width:
        return "".join(tokens)
    kept, used = [], 0
    for token in tokens:
        if used + _width(token) > width - 1:  # one column for the ellipsis
            break
        kept.append(token)
        used += _width(token)
    return "".join(kept) + "…"


def _json(value: Any, width: int = WIDTH) -> str:
    """A value as the notebooks print it (JSON, Chinese kept), on one fitted line."""
    return _fit(json.dumps(value, ensure_ascii=False), width)


def _escape(line: str) -> str:
    # Inside a quoted DOT label Graphviz reads backslash escapes (\n, \l, \N, \G ...) and
    # &entities;, and a quote would end the string: all three are escaped. `_fit` has
    # already turned raw newlines and other controls into visible \uXXXX text.
    return line.replace("&", "&amp;").replace("\\", "\\\\").replace('"', '\\"')


def _label(lines: list[str], left: bool = False) -> str:
    """Quoted label text; `left` aligns every line left (each ends in \\l)."""
    if left:
        return '"' + "".join(_escape(line) + "\\l" for line in lines) + '"'
    return '"' + "\\n".join(_escape(line) for line in lines) + '"'


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------
# A tiny DOT writer: statements in the order they are added, so the same input always
# gives the same text.


class _Left(list):
    """Label lines to be aligned left rather than centred."""


class _Dot:
    def __init__(self, name: str, title: str, **graph: str):
        self.lines = [f"digraph {name} {{"]
        self.indent = "  "
        attrs = {"label": [title], "labelloc": "t", "fontname": FONT, "fontsize": "14", "newrank": "true"}
        # Left to right, and no reordering to reduce crossings: every column keeps the
        # order its values have (see `column`), which is the order a reader expects.
        attrs.update(rankdir="LR", mclimit="0", remincross="false", **graph)
        self._statement("graph", attrs)
        self._statement("node", {"fontname": FONT, "fontsize": "11", "margin": "0.12,0.06"})
        self._statement("edge", {"fontname": FONT, "fontsize": "10", "color": "#555555"})

    def _statement(self, head: str, attrs: dict) -> None:
        written = ", ".join(f"{k}={self._value(v)}" for k, v in attrs.items())
        self.lines.append(f"{self.indent}{head} [{written}];")

    @staticmethod
    def _value(value: Any) -> str:
        if isinstance(value, _Left):
            return _label(value, left=True)
        return _label(value) if isinstance(value, list) else _quote(str(value))

    def node(self, node_id: str, lines: list[str], style: dict, left: bool = False) -> None:
        if left:
            self._statement(node_id, {**style, "label": _Left(lines)})
        else:
            self._statement(node_id, {"label": lines, **style})

    def edge(self, tail: str, head: str, label: Optional[list[str]] = None, **style: str) -> None:
        attrs = {"label": label, **style} if label else dict(style)
        if attrs:
            self._statement(f"{tail} -> {head}", attrs)
        else:
            self.lines.append(f"{self.indent}{tail} -> {head};")

    @contextmanager
    def cluster(self, cluster_id: str, title: list[str], **style: str) -> Iterator[None]:
        self.lines.append(f"{self.indent}subgraph {cluster_id} {{")
        self.indent += "  "
        self._statement("graph", {"label": title, "labeljust": "l", "style": "rounded", "color": "#b0b0b0", **style})
        yield
        self.indent = self.indent[:-2]
        self.lines.append(f"{self.indent}}}")

    def column(self, node_ids: list[str]) -> None:
        """Put the nodes in one rank, in this order from top to bottom. In a left-to-right
        graph Graphviz puts a flat edge's tail below its head, so an invisible edge runs
        from each node to the one above it."""
        if len(node_ids) < 2:
            return
        self.lines.append(f"{self.indent}{{ rank=same; {'; '.join(node_ids)}; }}")
        for upper, lower in zip(node_ids, node_ids[1:]):
            self.edge(lower, upper, style="invis")

    def text(self) -> str:
        return "\n".join(self.lines + ["}"]) + "\n"


# ---------------------------------------------------------------------------
# One line per block, one node per message


def _block_line(block: Any) -> str:
    """An Anthropic block (or a chat content part) summarised on one line."""
    if not isinstance(block, dict):
        return _json(block, BLOCK_WIDTH)
    kind = block.get("type")
    if kind == "text":
        return _fit("text " + json.dumps(block.get("text"), ensure_ascii=False), BLOCK_WIDTH)
    if kind == "thinking":
        signed = " · signed" if "signature" in block else " · unsigned"
        return _fit("thinking" + signed + " " + json.dumps(block.get("thinking"), ensure_ascii=False), BLOCK_WIDTH)
    if kind == "tool_use":
        head = f"tool_use {_fit(str(block.get('name')), 16)} · id {_fit(str(block.get('id')), 18)} · "
        return head + _json(block.get("input"), max(8, BLOCK_WIDTH - _width(head)))
    if kind == "tool_result":
        head = f"tool_result → {_fit(str(block.get('tool_use_id')), 18)} · "
        return head + _json(block.get("content"), max(8, BLOCK_WIDTH - _width(head)))
    if kind in ("image", "document"):
        source = block.get("source") if isinstance(block.get("source"), dict) else {}
        what = source.get("media_type") or source.get("url") or source.get("type")
        title = f" · {block['title']}" if isinstance(block.get("title"), str) else ""
        return _fit(f"{kind} · {source.get('type')} {what}{title}", BLOCK_WIDTH)
    return _fit(str(kind), BLOCK_WIDTH)


def _content_lines(content: Any, most: int = 6) -> list[str]:
    if isinstance(content, list):
        lines = [_block_line(block) for block in content[:most]]
        return lines + ([f"… {len(content) - most} more"] if len(content) > most else [])
    return [_json(content, BLOCK_WIDTH)]


def _chat_lines(header: str, message: dict) -> list[str]:
    """A chat message: header, content, then the fields the way back cares about."""
    lines = [header, "content " + _json(message.get("content"), BLOCK_WIDTH - 8)]
    if "tool_call_id" in message:
        lines.append("tool_call_id " + _json(message["tool_call_id"], 24))
    if message.get("reasoning_content"):
        lines.append("reasoning_content " + _json(message["reasoning_content"], BLOCK_WIDTH - 18))
    for call in message.get("tool_calls") or []:
        function = (call.get("function") or {}) if isinstance(call, dict) else {}
        call_id = f"id {_fit(str(call['id']), 18)}" if isinstance(call, dict) and call.get("id") else "no id"
        head = f"tool_call {_fit(str(function.get('name')), 16)} · {call_id} · "
        lines.append(head + _json(function.get("arguments"), max(8, BLOCK_WIDTH - _width(head))))
    saved = message.get("blocks")
    if isinstance(saved, dict) and isinstance(saved.get("data"), list):
        lines.append(f"blocks: {_fit(str(saved.get('format')), 20)} ({len(saved['data'])} saved)")
    return lines


def _wire_lines(header: str, message: dict) -> list[str]:
    return [header, *_content_lines(message.get("content"))]


# ---------------------------------------------------------------------------
# Where two JSON values differ

# ---------------------------------------------------------------------------
# 1. Action 3.5: model output -> build_reply -> blocks, stop_reason, manager_message;
#    sse_events -> the stream

_STOP_RULES = {
    "tool_use": "there are tool uses (the first rule)",
    "max_tokens": 'finish_reason is "length"',
    "stop_sequence": "a stop string matched",
    "end_turn": "no other rule applied",
}


def reply_flow(parsed: dict, finish_reason: Optional[str], reply: tuple, events: Optional[list] = None) -> str:
    """Action 3.5 as DOT, left to right: the parsed model output, what `build_reply`
    returned for it (`reply` = its tuple), and — when `events` (what `sse_events` returned
    for those blocks) is given — the stream, one line per event."""
    blocks, stop_reason, manager = reply
    g = _Dot("reply_flow", "Action 3.5: the model's output becomes the reply", nodesep="0.3", ranksep="0.9")

    # The model's output, one node per field that carries something.
    fields: list[str] = []
    with g.cluster("cluster_parsed", ["the model's output (parsed)"], color="#6b6b6b"):
        if parsed.get("reasoning"):
            g.node("p_reasoning", ["reasoning", _json(parsed["reasoning"], BLOCK_WIDTH)], _CODE)
            fields.append("p_reasoning")
        if parsed.get("text"):
            g.node("p_text", ["text", _json(parsed["text"], BLOCK_WIDTH)], _CODE)
            fields.append("p_text")
        for k, use in enumerate(parsed.get("tool_uses") or []):
            g.node(f"p_use{k}", [f"tool_uses[{k}]", _json(use, BLOCK_WIDTH)], _CODE)
            fields.append(f"p_use{k}")
        ending = [f"finish_reason {_json(finish_reason, 20)}", f"matched_stop {_json(parsed.get('matched_stop'), 20)}"]
        g.node("p_end", ending, _CODE)
        fields.append("p_end")
        g.column(fields)

    with g.cluster("cluster_reply", ["build_reply(parsed, finish_reason, new_id=...) returns"], color="#6b6b6b"):
        with g.cluster("cluster_blocks", ["blocks: the reply the CLI reads"], color="#3d6fa8"):
            for j, block in enumerate(blocks):
                g.node(f"b{j}", [f"blocks[{j}]", _block_line(block)], _WIRE)
        g.node("manager", _chat_lines("manager_message (recorded; no ids)", manager), _CHAT)
        g.node("stop", ["stop_reason " + _json(stop_reason, 20), _STOP_RULES.get(stop_reason, "")], _WIRE)
        g.column([f"b{j}" for j in range(len(blocks))] + ["manager", "stop"])

    # Which field became which block: matched by kind, in order.
    uses = iter(range(len(parsed.get("tool_uses") or [])))
    for j, block in enumerate(blocks):
        kind = block.get("type")
        if kind == "thinking" and "p_reasoning" in fields:
            signed = "signed" if "signature" in block else "no signature"
            g.edge("p_reasoning", f"b{j}", [f"a thinking block, {signed}"])
        elif kind == "text" and "p_text" in fields:
            g.edge("p_text", f"b{j}")
        elif kind == "tool_use":
            k = next(uses, None)
            if k is not None:
                g.edge(f"p_use{k}", f"b{j}", [f"fresh id {_fit(str(block.get('id')), 20)}"], **_MINTED_EDGE)
        else:  # nothing to say: the wire still wants one block
            g.edge("p_end", f"b{j}", ["nothing was said: one empty text block"], style="dashed")
    g.edge("p_end", "stop")
    for field, what in (("p_reasoning", "reasoning_content"), ("p_text", "content")):
        if field in fields:
            g.edge(field, "manager", [what], **_CHAT_EDGE)
    for k in range(len(parsed.get("tool_uses") or [])):
        g.edge(f"p_use{k}", "manager", [f"tool_calls[{k}] · no id · arguments a dict"], **_CHAT_EDGE)

    if events is not None:
        _draw_stream(g, blocks, events)
    return g.text()


def _event_lines(events: list) -> list[str]:
    """One line per event, in stream order, with the payload that matters."""
    lines = []
    for n, event in enumerate(events):
        data = event.get("data") if isinstance(event, dict) and isinstance(event.get("data"), dict) else {}
        name = _fit(str(event.get("event") if isinstance(event, dict) else event), 24)
        if name == "message_start":
            message = data.get("message") if isinstance(data.get("message"), dict) else {}
            content, stop = _json(message.get("content"), 8), _json(message.get("stop_reason"), 12)
            detail = f"content {content} · stop_reason {stop}"
        elif name == "content_block_start":
            detail = f"[{data.get('index')}] " + _block_line(data.get("content_block"))
        elif name == "content_block_delta":
            delta = dict(data.get("delta") or {})
            kind = _fit(str(delta.pop("type", None)), 20)
            detail = f"[{data.get('index')}] {kind} " + _json(next(iter(delta.values()), None), 30)
        elif name == "content_block_stop":
            detail = f"[{data.get('index')}]"
        elif name == "message_delta":
            delta = data.get("delta") if isinstance(data.get("delta"), dict) else {}
            stop, sequence = _json(delta.get("stop_reason"), 16), _json(delta.get("stop_sequence"), 16)
            detail = f"stop_reason {stop} · stop_sequence {sequence}"
        else:
            detail = ""
        lines.append(f"{n:>2}  {name}  {_fit(detail, BLOCK_WIDTH + 6)}".rstrip())
    return lines


def _draw_stream(g: _Dot, blocks: list, events: list) -> None:
    """The whole stream as one node, an event a line, so it always reads top to bottom;
    each block and the stop reason point at it."""
    title = ["sse_events(blocks, stop_reason, ...): what a streaming client reads"]
    with g.cluster("cluster_stream", title, color="#3d6fa8"):
        g.node("stream", _event_lines(events), {**_WIRE, "fillcolor": "#f5f9fe"}, left=True)
    for j, block in enumerate(blocks):
        g.edge(f"b{j}", "stream", [f"[{j}] one delta"], style="dashed")
    g.edge("stop", "stream", ["in message_delta"], style="dashed")


# ---------------------------------------------------------------------------
# 2. The echo: the next request carries the reply as history


def echo_flow(manager_message: dict, next_body: dict, target: str = "chat_template") -> str:
    """The next request's last assistant message (the reply, echoed by the CLI) ->
    `translate(next_body, target=target)` -> the message for that turn, compared with the
    `manager_message` recorded at Action 3.5: equal, or the places where it differs."""
    messages, system = next_body["messages"], next_body.get("system")
    turns = [i for i, m in enumerate(messages) if m.get("role") == "assistant"]
    if not turns:
        raise ValueError("next_body has no assistant message: nothing echoes a reply")
    i = turns[-1]
    translated = translate(next_body, target=target)[0]
    k = len(translate_messages(messages[:i], system, target=target))  # an assistant message gives exactly one
    echoed, echo = translated[k], messages[i]
    found = differences(manager_message, echoed)

    title = f"The echo ({target} target): the next request replays the reply as history"
    g = _Dot("echo_flow", title, nodesep="0.35", ranksep="0.7")
    kinds = [b.get("type") if isinstance(b, dict) else type(b).__name__ for b in echo.get("content") or []]
    g.node("reply", ["Action 3.5: the reply", _fit(f"{len(kinds)} blocks: " + ", ".join(map(str, kinds)), 40)], _WIRE)
    with g.cluster("cluster_next", ['the next request: body["messages"]'], color="#3d6fa8"):
        history = []
        if i:
            g.node("h_before", [f"messages[0..{i - 1}]", "the earlier history"], {**_WIRE, "fillcolor": "#f5f9fe"})
            history.append("h_before")
        g.node("h_echo", _wire_lines(f"messages[{i}] · assistant (the echo)", echo), _WIRE)
        history.append("h_echo")
        for n, later in enumerate(messages[i + 1 :], start=i + 1):
            g.node(f"h{n}", _wire_lines(f"messages[{n}] · {_fit(str(later.get('role')), 12)}", later), _WIRE)
            history.append(f"h{n}")
        g.column(history)
    g.node("translate", [f"translate(next_body, target={json.dumps(target)})"], _CODE)
    # Wire-only details of the echo that the translated message does not carry.
    carried = json.dumps(echoed, ensure_ascii=False)
    lost = []
    for j, block in enumerate(echo.get("content") or []):
        for key in ("id", "signature"):
            value = block.get(key) if isinstance(block, dict) else None
            if isinstance(value, str) and json.dumps(value, ensure_ascii=False) not in carried:
                lines = [f"content[{j}].{key} {_json(value, 24)}", "dropped: it exists only on the wire"]
                g.node(f"lost{j}_{key}", lines, _LOST)
                lost.append(f"lost{j}_{key}")
    g.column(["translate", *lost])
    g.node("manager", _chat_lines("Action 3.5: manager_message (recorded)", manager_message), _CHAT)
    g.node("echoed", _chat_lines(f"translated[{k}] · assistant", echoed), _CHAT)
    g.column(["manager", "echoed"])
    if found:
        why = [f"{format_location(where)}: {_json(a, 20)} ≠ {_json(b, 20)}" for where, a, b in found[:4]]
        more = [f"… {len(found) - 4} more"] if len(found) > 4 else []
        g.node("verdict", [f"translated[{k}] ≠ manager_message", *why, *more], _UNEQUAL)
    else:
        g.node("verdict", [f"translated[{k}] == manager_message", "found again by dict equality"], _EQUAL)

    g.edge("reply", "h_echo", ["the CLI sends it back as history"], **_STREAM_EDGE)
    g.edge("h_echo", "translate")
    for node_id in lost:
        g.edge("h_echo", node_id, **_LOST_EDGE)
    g.edge("translate", "echoed", [f"translated[{k}]: this turn"])
    g.edge("echoed", "verdict")
    g.edge("manager", "verdict", ["compared with =="], style="dashed")
    return g.text()


# ---------------------------------------------------------------------------
# 3. The wire direction: chat messages -> to_anthropic


def _destinations(messages: list) -> list[Optional[int]]:
    """For each chat message, the index of the wire message it ended up in (None: the
    top-level system). Read off `to_anthropic` itself, run on each prefix: message i
    went into the last wire message of the prefix that ends with it."""
    found: list[Optional[int]] = []
    for i, message in enumerate(messages):
        if message.get("role") in ("system", "developer"):
            found.append(None)
        else:
            found.append(len(to_anthropic(messages[: i + 1])["messages"]) - 1)
    return found


def _wire_edge_label(message: dict, wire_message: dict, joined: bool) -> list[str]:
    role = message.get("role")
    if role == "assistant":
        if isinstance(message.get("blocks"), dict):
            return ["blocks replayed word for word"]
        calls = message.get("tool_calls") or []
        if not calls:
            return ["text"]
        content = wire_message.get("content") or []
        wire_ids = [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        minted = [wire_id for call, wire_id in zip(calls, wire_ids) if not (isinstance(call, dict) and call.get("id"))]
        if minted:
            return ["no ids: minted " + _fit(", ".join(minted), 28)]
        return ["ids kept"]
    if role == "tool":
        how = "tool_call_id kept" if message.get("tool_call_id") else "no id: paired by position"
        return ["tool_result · " + how + (" · merged" if joined else "")]
    if joined:
        return ["joins the results' user message"]
    return ["a string stays a string"] if isinstance(message.get("content"), str) else ["parts become blocks"]


def wire_flow(messages: list) -> str:
    """Chat messages -> `to_anthropic(messages)`, left to right: system messages lifted to
    the top-level system, tool messages turned into tool_result blocks of one user
    message, and each call's id kept, minted or paired by position."""
    request = to_anthropic(messages)
    wire = request["messages"]
    where = _destinations(messages)

    title = "The wire direction: chat messages -> to_anthropic -> an Anthropic request"
    g = _Dot("wire_flow", title, nodesep="0.3", ranksep="1.4")
    with g.cluster("cluster_chat", ["chat messages"], color="#3f8a46"):
        for i, message in enumerate(messages):
            g.node(f"c{i}", _chat_lines(f"messages[{i}] · {_fit(str(message.get('role')), 12)}", message), _CHAT)
        g.column([f"c{i}" for i in range(len(messages))])
    column = []
    with g.cluster("cluster_wire", ["to_anthropic(messages) returns"], color="#3d6fa8"):
        if request["system"] is not None:
            g.node("w_system", ['"system" (top level)', _json(request["system"], BLOCK_WIDTH)], _WIRE)
            column.append("w_system")
        for j, message in enumerate(wire):
            g.node(f"w{j}", _wire_lines(f"messages[{j}] · {message['role']}", message), _WIRE)
            column.append(f"w{j}")
    # What no wire message carries: thinking that nobody signed.
    for i, message in enumerate(messages):
        unsigned = message.get("reasoning_content") and not isinstance(message.get("blocks"), dict)
        if message.get("role") == "assistant" and unsigned:
            lines = [f"messages[{i}].reasoning_content", "not sent: thinking without a signature"]
            g.node(f"lost{i}", lines + ["cannot be replayed to Anthropic"], _LOST)
            column.insert(column.index(f"w{where[i]}") + 1, f"lost{i}")
            g.edge(f"c{i}", f"lost{i}", **_LOST_EDGE)
    g.column(column)
    for i, message in enumerate(messages):
        if where[i] is None:
            g.edge(f"c{i}", "w_system", ["lifted to the top-level system"])
            continue
        joined = i > 0 and where[i - 1] == where[i]
        g.edge(f"c{i}", f"w{where[i]}", _wire_edge_label(message, wire[where[i]], joined))
    return g.text()
