"""Pictures of the way back: Action 3.5, the echo, and chat messages -> wire form.

Drawn in the discipline of the local flow: top to bottom, inputs in a left column, what
each became beside it in a right column, about 800 px wide whatever the values say; a
helper's or a rule's name is written beside the row it applies to. Every builder returns
a `Dot` from the real values the way-back functions produced.

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
picture uses it to say why a message is not equal, and notebooks can use it too.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from ..errors import format_location
from ..round_trip import to_anthropic
from ..translation import translate, translate_messages
from ..watch.jsondiff import ABSENT, differences
from . import reading as r
from . import text as t
from .captions import CAPTIONS, words
from .dot import CODE, EQUAL, INPUT, OUTPUT, UNEQUAL, Cell, Collapsed, Dot, Graph, Rows, box, span
from .render import render_svg, show

__all__ = ["differences", "echo_flow", "render_svg", "reply_flow", "show", "wire_flow"]

LINE = 34  # columns of a block or message line
VIA = 20  # columns of the rule's name beside a row
STREAM = 52  # columns of one event line
MOST_LINES = 24  # event lines shown; the rest are counted
MOST_ITEMS = 8  # tool uses, later messages ...: the first and last are shown
LOST_TEXT, LOST_FILL = "#6b6b6b", "#f7f7f7"
WIRE_FILL = "#f5f9fe"
GRAPH = dict(rankdir="TB", mclimit="0", remincross="false", nodesep="0.35", ranksep="0.35", compound="true")


def _dumps(value: Any, width: int) -> str:
    return t.one(value, width)


def _via_cell(lines: list[str], port: str, colour: str = "#555555") -> Cell:
    return Cell(lines, port, align="RIGHT", colour=colour, size="10")


def _block_line(block: Any, width: int = LINE, w: Optional[dict] = None) -> str:
    """An Anthropic block (or a chat content part) on one line (`w`: the captions)."""
    w = w or CAPTIONS["en"]
    if not isinstance(block, dict):
        return _dumps(block, width)
    kind = block.get("type")
    if kind == "text":
        return t.fit("text " + _dumps(block.get("text"), width), width)
    if kind == "thinking":
        signed = w["signed"] if block.get("signature") else w["unsigned"]
        return t.fit("thinking" + signed + _dumps(block.get("thinking"), width), width)
    if kind == "tool_use":
        head = f"tool_use {t.bare(block.get('name'), 12)} · id {t.bare(block.get('id'), 12)} · "
        return head + _dumps(block.get("input"), max(6, width - t.cells(head)))
    if kind == "tool_result":
        head = f"tool_result → {t.bare(block.get('tool_use_id'), 12)} · "
        return head + _dumps(block.get("content"), max(6, width - t.cells(head)))
    if kind in ("image", "document"):
        source = block.get("source") if isinstance(block.get("source"), dict) else {}
        what = source.get("media_type") or source.get("url") or source.get("type")
        return t.fit(f"{kind} · {t.bare(source.get('type'), 10)} {t.bare(what, 20)}", width)
    return t.bare(kind, width)


def _content_lines(content: Any, w: dict, most: int = 4) -> list[str]:
    if isinstance(content, list):
        lines = [_block_line(block, LINE, w) for block in content[:most]]
        return lines + ([w["more lines"](len(content) - most)] if len(content) > most else [])
    return [_dumps(content, LINE)]


def _chat_lines(header: str, message: Any, w: dict) -> list[str]:
    """A chat message: header, content, then the fields the way back cares about."""
    if not isinstance(message, dict):
        return [header, _dumps(message, LINE)]
    lines = [header, "content " + _dumps(message.get("content"), LINE - 8)]
    if "tool_call_id" in message:
        lines.append("tool_call_id " + _dumps(message["tool_call_id"], LINE - 13))
    if message.get("reasoning_content"):
        lines.append("reasoning_content " + _dumps(message["reasoning_content"], LINE - 18))
    calls = message.get("tool_calls") if isinstance(message.get("tool_calls"), list) else []
    for call in calls[:3]:
        function = (call.get("function") or {}) if isinstance(call, dict) else {}
        call_id = f"id {t.bare(call['id'], 12)}" if isinstance(call, dict) and call.get("id") else w["no id"]
        head = f"tool_call {t.bare(function.get('name'), 12)} · {call_id} · "
        lines.append(head + _dumps(function.get("arguments"), max(6, LINE - t.cells(head))))
    if len(calls) > 3:
        lines.append(w["more tool calls"](len(calls) - 3))
    saved = message.get("blocks")
    if isinstance(saved, dict) and isinstance(saved.get("data"), list):
        lines.append(w["saved blocks"](t.bare(saved.get("format"), 20), len(saved["data"])))
    return lines


# ---------------------------------------------------------------------------
# 1. Action 3.5: model output -> build_reply -> blocks, stop_reason, manager_message;
#    sse_events -> the stream


def reply_flow(parsed: dict, finish_reason: Optional[str], reply: tuple, events: Optional[list] = None) -> Dot:
    """Action 3.5 as DOT, top to bottom: the parsed model output beside what `build_reply`
    returned for it (`reply` = its tuple), then manager_message, and — when `events`
    (what `sse_events` returned for those blocks) is given — the stream, an event a line."""
    w = words()
    blocks, stop_reason, manager = reply
    g = Graph("reply_flow", [w["reply title"]], None, **GRAPH)
    uses = list(parsed.get("tool_uses") or [])
    fields: list[tuple[str, list[str], Optional[int]]] = []  # (port, lines, block it became)
    block_of_kind: dict[str, list[int]] = {}
    for j, block in enumerate(blocks):
        block_of_kind.setdefault(block.get("type") if isinstance(block, dict) else "?", []).append(j)
    if parsed.get("reasoning"):
        fields.append(("reasoning", ["reasoning", _dumps(parsed["reasoning"], LINE)], _first(block_of_kind, "thinking")))
    if parsed.get("text"):
        fields.append(("text", ["text", _dumps(parsed["text"], LINE)], _first(block_of_kind, "text")))
    used = block_of_kind.get("tool_use", [])
    shown = _shown(len(uses))
    for k in shown:
        fields.append((f"use{k}", [f"tool_uses[{k}]", _dumps(uses[k], LINE)], used[k] if k < len(used) else None))
    ending = [f"finish_reason {_dumps(finish_reason, 16)}", f"matched_stop {_dumps(parsed.get('matched_stop'), 16)}"]
    fields.append(("end", ending, None))

    rows_in = [[Cell([w["parsed"]], bold=True, colspan=2)]]
    for port, lines, j in fields:
        via = _reply_via(port, j, blocks, w)
        rows_in.append([Cell(lines, port, rule=True), _via_cell(via, "v" + port, "#a15f00" if port.startswith("use") else "#555555")])
    if len(uses) > len(shown):
        rows_in.append([Cell([w["more uses"](len(uses) - len(shown))], colspan=2, colour=LOST_TEXT)])
    g.node("parsed", box(rows_in, CODE), {})

    rows_out = [[Cell(w["build_reply returns"], bold=True)], [Cell([w["blocks"]], colour=INPUT["color"])]]
    wanted = {j for _, _, j in fields if j is not None} | set(range(min(len(blocks), 3)))
    for j, block in enumerate(blocks):
        if j in wanted or len(blocks) <= MOST_ITEMS:
            rows_out.append([Cell([f"blocks[{j}]", _block_line(block, LINE, w)], f"b{j}", fill=INPUT["fillcolor"], rule=True)])
    if len(rows_out) - 2 < len(blocks):
        rows_out.append([Cell([w["more blocks"](len(blocks) - (len(rows_out) - 2))], colour=LOST_TEXT, rule=True)])
    rule = w["stop rules"].get(stop_reason, "") if isinstance(stop_reason, str) else ""
    rows_out.append([Cell([f"stop_reason {_dumps(stop_reason, 20)}", rule], "stop", fill=INPUT["fillcolor"], rule=True)])
    g.node("reply", box(rows_out, {**CODE, "fillcolor": "white"}), {})
    g.node("manager", box([[Cell(_chat_lines(w["manager"], manager, w), "m")]], OUTPUT), {})

    rows = Rows(g)
    rows.add("parsed", "reply")
    for port, _, j in fields:
        if j is not None and (j in wanted or len(blocks) <= MOST_ITEMS):
            g.edge(f"parsed:v{port}:e", f"reply:b{j}:w", **({"color": "#d4860b"} if port.startswith("use") else {}))
    if not any(j is not None for _, _, j in fields) and blocks:
        g.edge("parsed:vend:e", "reply:b0:w", style="dashed")
    g.edge("parsed:vend:e", "reply:stop:w")
    # manager_message is made from the same fields, without ids: straight below them.
    carried = ["reasoning -> reasoning_content"] if any(p == "reasoning" for p, _, _ in fields) else []
    carried += ["text -> content"] if any(p == "text" for p, _, _ in fields) else []
    carried += [f"tool_uses[{k}] -> {w['no id call'](k)}" for k in shown[:3]]
    events_id = "stream" if events is not None else None
    rows.add("manager", events_id)
    g.edge("parsed", "manager", carried or None, color=OUTPUT["color"], fontcolor=OUTPUT["color"])
    if events is not None:
        g.node("stream", _stream_box(events, w), {})
        g.edge("reply", "stream", w["each block"], style="dashed", color=INPUT["color"])
    rows.finish()
    return g.text()


def _first(found: dict, kind: str) -> Optional[int]:
    return found.get(kind, [None])[0]


def _shown(count: int) -> list[int]:
    return [k for first, last, one in r.plan(count, set(), MOST_ITEMS, 3, 2) if one for k in (first,)]


def _reply_via(port: str, j: Optional[int], blocks: list, w: dict) -> list[str]:
    """What build_reply did with this field, written beside it."""
    if port == "end" or j is None:
        return [""]
    block = blocks[j]
    if port == "reasoning":
        return t.prose(w["thinking block"](bool(block.get("signature"))), VIA, 2)
    if port.startswith("use"):
        return [w["fresh id"](t.bare(block.get("id"), 16))]
    return ["text"]


def _stream_box(events: list, w: dict):
    lines = _event_lines(events, w)
    shown = lines if len(lines) <= MOST_LINES else lines[: MOST_LINES - 4] + [w["more events"](len(lines) - MOST_LINES + 2)] + lines[-2:]
    rows = [[Cell(w["stream title"], bold=True)], [Cell(shown, align="LEFT", rule=True)]]
    return box(rows, {**INPUT, "fillcolor": WIRE_FILL})


def _event_lines(events: list, w: dict) -> list[str]:
    """One line per event, in stream order, with the payload that matters."""
    lines = []
    for n, event in enumerate(events):
        data = event.get("data") if isinstance(event, dict) and isinstance(event.get("data"), dict) else {}
        name = t.bare(event.get("event") if isinstance(event, dict) else event, 22)
        if name == "message_start":
            message = data.get("message") if isinstance(data.get("message"), dict) else {}
            detail = f"content {_dumps(message.get('content'), 8)} · stop_reason {_dumps(message.get('stop_reason'), 12)}"
        elif name == "content_block_start":
            detail = f"[{_dumps(data.get('index'), 4)}] " + _block_line(data.get("content_block"), 30, w)
        elif name == "content_block_delta":
            delta = dict(data.get("delta") or {}) if isinstance(data.get("delta"), dict) else {}
            kind = t.bare(delta.pop("type", None), 18)
            detail = f"[{_dumps(data.get('index'), 4)}] {kind} " + _dumps(next(iter(delta.values()), None), 24)
        elif name == "content_block_stop":
            detail = f"[{_dumps(data.get('index'), 4)}]"
        elif name == "message_delta":
            delta = data.get("delta") if isinstance(data.get("delta"), dict) else {}
            detail = f"stop_reason {_dumps(delta.get('stop_reason'), 14)} · stop_sequence {_dumps(delta.get('stop_sequence'), 10)}"
        else:
            detail = ""
        lines.append(t.fit(f"{n:>2}  {name}  {detail}".rstrip(), STREAM))
    return lines


# ---------------------------------------------------------------------------
# 2. The echo: the next request carries the reply as history


def echo_flow(manager_message: dict, next_body: dict, target: str = "chat_template") -> Dot:
    """The next request's last assistant message (the reply, echoed by the CLI) ->
    `translate(next_body, target=target)` -> the message for that turn, compared with the
    `manager_message` recorded at Action 3.5: equal, or the places where it differs."""
    w = words()
    messages, system = next_body["messages"], next_body.get("system")
    turns = [i for i, m in enumerate(messages) if isinstance(m, dict) and m.get("role") == "assistant"]
    if not turns:
        raise ValueError("next_body has no assistant message: nothing echoes a reply")
    i = turns[-1]
    translated = translate(next_body, target=target)[0]
    k = len(translate_messages(messages[:i], system, target=target))  # an assistant message gives exactly one
    echoed, echo = translated[k], messages[i]
    found = differences(manager_message, echoed)

    g = Graph("echo_flow", [w["echo title"](target)], None, **GRAPH)
    content = echo.get("content") if isinstance(echo.get("content"), list) else []
    kinds = ", ".join(t.bare(b.get("type") if isinstance(b, dict) else type(b).__name__, 14) for b in content[:6])
    g.node("reply", [w["the reply"], t.fit(w["n blocks"](len(content), kinds), 44)], {**INPUT, "fillcolor": WIRE_FILL})

    rows = [[Cell([w["next request"]], bold=True, colspan=2)]]
    if i:
        rows.append([Cell([span("messages", 0, i - 1), w["earlier history"]], "before", colour=LOST_TEXT, rule=True), Cell([""])])
    rows.append([Cell(_wire_lines(f"messages[{i}] · assistant {w['the echo']}", echo, w), "echo", fill="white", rule=True), Cell([""])])
    carried = _strings(echoed)
    for j, block in enumerate(content[:50]):
        for key in ("id", "signature"):
            value = block.get(key) if isinstance(block, dict) else None
            if isinstance(value, str) and value and value not in carried:
                lines = [f"✂ content[{j}].{key} {_dumps(value, 20)}", w["wire only"]]
                rows.append([Cell(lines, f"lost{j}_{key}", colour=LOST_TEXT, fill=LOST_FILL, rule=True), Cell([""])])
    later = list(range(i + 1, len(messages)))
    for n in later[:MOST_ITEMS]:
        role = t.bare(messages[n].get("role") if isinstance(messages[n], dict) else None, 12)
        rows.append([Cell(_wire_lines(f"messages[{n}] · {role}", messages[n], w), f"h{n}", rule=True), Cell([""])])
    if len(later) > MOST_ITEMS:
        rows.append([Cell([w["more chat"](len(later) - MOST_ITEMS)], colour=LOST_TEXT, rule=True), Cell([""])])
    g.node("history", box(rows, INPUT), {})
    g.node("translate", [f"translate(next_body, target={json.dumps(target)})"], CODE)
    g.node("echoed", box([[Cell(_chat_lines(f"translated[{k}] · assistant", echoed, w))]], OUTPUT), {})
    g.node("manager", box([[Cell(_chat_lines(w["recorded"], manager_message, w))]], OUTPUT), {})
    if found:
        why = [t.fit(f"{format_location(where)}: {_side(a, w)} ≠ {_side(b, w)}", 60) for where, a, b in found[:4]]
        more = [w["more differences"](len(found) - 4)] if len(found) > 4 else []
        g.node("verdict", [w["unequal"](k), *why, *more], UNEQUAL)
    else:
        g.node("verdict", w["equal"](k), EQUAL)

    columns = Rows(g)
    columns.add("reply")
    columns.add("history")
    columns.add("translate")
    columns.add("echoed", "manager")
    columns.add("verdict")
    g.edge("reply", "history:echo:w", w["sent back"], color=INPUT["color"], penwidth="1.6")
    g.edge("history", "translate")
    g.edge("translate", "echoed", w["this turn"](k))
    g.edge("echoed", "verdict")
    g.edge("manager", "verdict", w["compared"], style="dashed")
    columns.finish()
    return g.text()


def _side(value: Any, w: dict) -> str:
    """One side of a difference: its JSON, or that the key is missing there."""
    return w["missing key"] if value is ABSENT else _dumps(value, 16)


def _strings(value: Any) -> set:
    """Every string in a JSON value, keys included (walked without recursion)."""
    found, stack = set(), [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            found.update(key for key in item if isinstance(key, str))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _wire_lines(header: str, message: Any, w: dict) -> list[str]:
    content = message.get("content") if isinstance(message, dict) else message
    return [header, *_content_lines(content, w)]


# ---------------------------------------------------------------------------
# 3. The wire direction: chat messages -> to_anthropic


def _destination(messages: list, i: int) -> Optional[int]:
    """The index of the wire message chat message i ended up in (None: the top-level
    system). Read off `to_anthropic` itself, run on the prefix that ends with it:
    message i went into the last wire message of that prefix."""
    message = messages[i]
    if isinstance(message, dict) and message.get("role") in ("system", "developer"):
        return None
    return len(to_anthropic(messages[: i + 1])["messages"]) - 1


def _wire_via(message: dict, wire_message: dict, joined: bool, w: dict) -> list[str]:
    role = message.get("role")
    if role == "assistant":
        if isinstance(message.get("blocks"), dict):
            return w["replayed"]
        calls = message.get("tool_calls") or []
        if not calls:
            return w["text"]
        content = wire_message.get("content") or []
        wire_ids = [b.get("id") for b in content if isinstance(b, dict) and b.get("type") == "tool_use"]
        minted = [wire_id for call, wire_id in zip(calls, wire_ids) if not (isinstance(call, dict) and call.get("id"))]
        if minted:
            return w["minted"](t.fit(", ".join(map(str, minted)), VIA))
        return w["ids kept"]
    if role == "tool":
        how = w["id kept"] if message.get("tool_call_id") else w["paired"]
        return w["tool_result how"](t.prose(how, VIA, 2), joined)
    if joined:
        return w["joins"]
    return w["string stays"] if isinstance(message.get("content"), str) else w["parts become"]


def wire_flow(messages: list) -> Dot:
    """Chat messages -> `to_anthropic(messages)`, top to bottom, each chat message beside
    the wire message it went into: system messages lifted to the top-level system, tool
    messages turned into tool_result blocks of one user message, and each call's id kept,
    minted or paired by position. A long list is drawn with its first and last messages
    and one summary row per run between them (`Dot.collapsed`)."""
    w = words()
    request = to_anthropic(messages)
    wire = request["messages"]
    g = Graph("wire_flow", [w["wire title"]], None, **GRAPH)
    columns = Rows(g)
    columns.headings(("head_chat", "head_wire"), w["chat messages"], w["to_anthropic returns"], colours=(OUTPUT["color"], INPUT["color"]))
    placed: set = set()  # wire boxes already drawn (None: the top-level system)
    previous: Optional[int] = -1
    for first, last, one in r.plan(len(messages), set(), r.MOST_MESSAGES, r.HEAD_MESSAGES, r.TAIL_MESSAGES):
        if not one:
            a, b = _destination(messages, first), _destination(messages, last)
            roles = r.roles(messages[first : last + 1])
            g.node(f"c{first}_{last}", [w["more messages"](last - first + 1), span("messages", first, last), t.fit(roles)], {**OUTPUT, "style": "rounded,filled,dashed", "fillcolor": "#f6fbf6"})
            low = (a if a is not None else 0) + (1 if a in placed else 0)
            high = b if b is not None else low - 1
            right = None
            if high >= low:
                right = f"w{low}_{high}"
                g.node(right, [w["more wire"](high - low + 1), span("messages", low, high)], {**INPUT, "style": "rounded,filled,dashed", "fillcolor": WIRE_FILL})
                placed.update(range(low, high + 1))
                g.edge(f"c{first}_{last}", right)
            g.note_collapsed(Collapsed("messages", first, last))
            columns.add(f"c{first}_{last}", right)
            previous = b
            continue
        i = first
        message = messages[i]
        where = _destination(messages, i)
        joined = where is not None and where == previous
        previous = where
        role = t.bare(message.get("role") if isinstance(message, dict) else None, 12)
        wire_message = wire[where] if where is not None else None
        via = [t.fit(x, VIA) for x in w["lifted"]] if where is None else _wire_via(message, wire_message, joined, w)
        cells = [[Cell(_chat_lines(f"messages[{i}] · {role}", message, w), "m"), Cell(via, "v", align="RIGHT", colour="#555555", size="10")]]
        if isinstance(message, dict) and message.get("role") == "assistant" and message.get("reasoning_content") and not isinstance(message.get("blocks"), dict):
            cells.append([Cell([f"✂ messages[{i}].reasoning_content", *w["not sent"]], f"lost{i}", colspan=2, colour=LOST_TEXT, fill=LOST_FILL, rule=True)])
        g.node(f"c{i}", box(cells, OUTPUT), {})
        right = None
        key = "w_system" if where is None else f"w{where}"
        if (where if where is not None else "system") not in placed:
            placed.add(where if where is not None else "system")
            right = key
            if where is None:
                g.node(key, box([[Cell([w["top system"], _dumps(request["system"], LINE)], "p")]], INPUT), {})
            else:
                g.node(key, box([[Cell(_wire_lines(f"messages[{where}] · {wire_message['role']}", wire_message, w), "p")]], INPUT), {})
        columns.add(f"c{i}", right)
        g.edge(f"c{i}:v:e", f"{key}:p:w")
    columns.finish()
    return g.text()
