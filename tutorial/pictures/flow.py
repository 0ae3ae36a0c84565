"""The local flow: one request, top to bottom, one row per input message with the
messages it gives beside it.

    body                                   stays in the body: max_tokens 128 ...
    the messages path: translate_messages(messages, system)
      body["system"] + body["messages"]        translated: a list of 5 messages
      ┌ system · 1 text block ───────────┐      ┌ translated[0] · system ┐
      │ "你是代码助手。"   flatten_content ├────▶ │ "你是代码助手。"         │
      ┌ messages[2] · user ──────────────┐      ┌ translated[3] · tool ──┐
      │ content[0] · tool_result  flatten ├────▶ │ "# Demo\\n…"            │
      │ ✂ tool_use_id: stays behind       │      ├ translated[4] · user ──┤
      │ content[1] · text  taken directly ├────▶ │ "请用一句话概括。"        │
      ┌ … 960 more messages like these … ┐ ───▶ ┌ … 1197 more messages … ┐
    the tools path: tools_to_chat_tools(tools)
      tools[0] · custom tool  wrapped      ────▶ tools_schema[0] · function
    return (translated, tools_schema) ─▶ BaseAdapter._run_turn (Action 3)

Each box is an HTML-like table: a message and its blocks, one row each, the helper that
carried a block written beside it, what stays behind in grey under it. Every row is as
wide as one input box, one arrow and one output box (about 800 px), however long the
request: a request with more than `reading.MOST_MESSAGES` messages is drawn with its
first and last turns, the highlighted message, and one summary row per run between them
(`Dot.collapsed` lists those runs). Building the DOT takes time linear in the request.

`local_flow(trace, highlight=...)` accepts: a stage from `LOCAL_STAGES` (body, messages,
tools, translated, tools_schema, hand_back, losses, direct), a helper's name (see
`HELPERS`), or a path such as "system", "messages[2]", "messages[1].content[1]",
"tools[0]", "translated[3]" or a loss's path ("max_tokens"). A path lights everything
under it, so "messages[2]" also lights that message's blocks, arrows and results.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Optional

from ..errors import format_location
from ..watch.trace import Trace
from . import reading as r
from . import text as t
from .captions import words
from .dot import CODE, GREY, INPUT, LOST, LIT_FILL, LOST_EDGE, OUTPUT, Cell, Collapsed, Dot, Graph, Rows, box, span
from .render import show  # noqa: F401  (flow.show: the playground's import)
from .tools import tool_rows

LOCAL_STAGES = ("body", "messages", "tools", "translated", "tools_schema", "hand_back", "losses", "direct")
HELPERS = {
    "chat_template": ("flatten_content", "tool_call_dict"),
    "openai": ("system_text", "content_part", "tool_result_messages", "openai_tool_call"),
}
MOST_LOSSES = 3  # losses written under one piece; the rest are counted
VIA_WIDTH = 20  # columns for the helper's name beside a block
VIA_SIZE = "10"
OUT_WIDTH = 34  # columns of a translated message's lines
LOST_TEXT = LOST["fontcolor"]
LOST_FILL = "#f7f7f7"


def local_flow(
    trace: Trace, highlight: Optional[str] = None, *, focus: bool = False, upto: Optional[str] = None
) -> Dot:
    """The data flow of one request as DOT, top to bottom (see the module's docstring for
    the names `highlight` accepts). Works for any valid request and both targets.

    `focus=True` draws one stage in close-up: only the highlighted message (or tool) in
    full, with what it gives; every other run of messages and the other tools are one
    summary row each — the small map of where the stage sits.

    `upto` ("system" or "messages[k]") draws the flow only up to that stage: the messages
    after it, the count of messages, the tools path and the hand-back are left out, so a
    picture drawn under a question answers that question and no later one."""
    if upto is not None:
        return _up_to(trace, highlight, upto, focus)
    w = words()
    reading = r.Reading(trace)
    keep = r.wanted_indexes(highlight, reading)
    keep["focus"] = focus
    g = Graph(
        "local_flow", [w["local title"](trace.target)], highlight,
        rankdir="TB", mclimit="0", remincross="false", nodesep="0.35", ranksep="0.3", compound="true",
    )  # fmt: skip
    g.node("body", w["body"], CODE, tags=("body",))
    _body_losses(g, reading, w)
    rows = Rows(g)
    with g.cluster("cluster_messages", [w["messages path"](r.PATHS[trace.target][0])], tags=("messages",), color=GREY):
        _messages(g, reading, keep, rows, w)
    with g.cluster("cluster_tools_path", [w["tools path"](r.PATHS[trace.target][1])], tags=("tools",), color=GREY):
        tool_rows(g, reading, keep, rows, w)
    rows.finish()
    _hand_back(g, rows, w)
    return g.text(LOCAL_STAGES + HELPERS["chat_template"] + HELPERS["openai"])


def _up_to(trace: Trace, highlight: Optional[str], upto: str, focus: bool) -> Dot:
    """The messages path of the body cut after stage `upto`, traced again: what the
    translation makes of the stages before it is the same, since each message is translated
    on its own."""
    from ..watch.trace import trace as run_trace

    found = r._INDEX.match(upto)
    if upto == "system":
        kept = 0
    elif found and found.group(1) == "messages":
        kept = int(found.group(2)) + 1
    else:
        raise ValueError(f'upto names "system" or "messages[k]", not {upto!r}')
    body = {key: value for key, value in trace.body.items() if key != "tools"}
    body["messages"] = list(trace.body.get("messages", []))[:kept]
    cut = run_trace(body, target=trace.target)
    w = words()
    reading = r.Reading(cut)
    keep = r.wanted_indexes(highlight, reading)
    keep["focus"] = focus
    g = Graph(
        "local_flow", [], highlight,  # the title names both outputs: a later question
        rankdir="TB", mclimit="0", remincross="false", nodesep="0.35", ranksep="0.3", compound="true",
    )  # fmt: skip
    g.node("body", w["body"], CODE, tags=("body",))
    _body_losses(g, reading, w)
    rows = Rows(g)
    with g.cluster("cluster_messages", [w["messages path"](r.PATHS[cut.target][0])], tags=("messages",), color=GREY):
        _messages(g, reading, keep, rows, w, counted=False)
    rows.finish()
    g.edge("body", "head_in", w["to messages"], tags=("messages",), lhead="cluster_messages")
    return g.text(LOCAL_STAGES + HELPERS["chat_template"] + HELPERS["openai"])


# ---------------------------------------------------------------------------
# The messages path


def _piece_tags(piece: r.Piece) -> tuple:
    """A piece lights up for its path, for the messages path and for how it was carried."""
    carried = () if piece.dropped else piece.via or ("direct",)
    paths: tuple = (format_location(piece.location),)
    if piece.run is not None:  # a run lights up for every path in it (a few, when it is long)
        first, last = piece.run
        stem = format_location(piece.location[:-1])
        paths = tuple(f"{stem}[{k}]" for k in range(first, min(last, first + 63) + 1))
    return (*paths, "messages", *carried)


def _via(piece: r.Piece, w: dict) -> list[str]:
    if piece.dropped:
        return [""]
    names = [w["direct"] if name == "direct" else name for name in piece.via or ("direct",)]
    return t.prose(", ".join(names), VIA_WIDTH, 3)


def _add_piece(g: Graph, box_: r.Box, piece: r.Piece, port: str, w: dict, header: bool = False) -> None:
    """A piece's row: what it says, and beside it the helper that carried it on."""
    tags = _piece_tags(piece)
    lit_ = g.lights(tags)
    fill = LIT_FILL if lit_ else (LOST_FILL if piece.dropped else None)
    colour = LOST_TEXT if piece.dropped else None
    lines = piece.lines
    if piece.run is not None and piece.lost_count and len(piece.location) == 4:
        lines = lines + [w["n stay behind"](piece.lost_count)]
    box_.rows.append([
        Cell(lines, port, bold=header, fill=fill, colour=colour, rule=bool(box_.rows)),
        Cell(_via(piece, w), "v" + port, align="RIGHT", colour="#555555", size=VIA_SIZE, fill=fill, rule=bool(box_.rows)),
    ])  # fmt: skip
    box_.pieces.append((piece, port))
    for loss in piece.losses[:MOST_LOSSES]:
        inner = loss.location[len(piece.location) :]
        name = format_location(inner) if inner else format_location(loss.location)
        tags_ = ("losses", format_location(loss.location))
        head = f"✂ {t.fit(name, 20)} {t.one(loss.value, 20)}"
        text = t.prose(r.short_reason(loss.reason), 44, 3)
        box_.rows.append([Cell([head, *text], colspan=2, colour=LOST_TEXT, fill=LIT_FILL if g.lights(tags_) else LOST_FILL)])
    if len(piece.losses) > MOST_LOSSES:
        box_.rows.append([Cell([w["and more"](len(piece.losses) - MOST_LOSSES)], colspan=2, colour=LOST_TEXT, fill=LOST_FILL)])


def _messages(g: Graph, reading: r.Reading, keep: dict, rows: Rows, w: dict, counted: bool = True) -> None:
    trace = reading.trace
    # A picture cut after a stage (`upto`) does not count the messages: the count is a question.
    heading = w["translated list"](len(trace.translated)) if counted else "translated"
    rows.headings(("head_in", "head_out"), w["inputs"], heading, ("translated",))
    boxes: list[r.Box] = []
    system = reading.system_piece(w)
    if system is not None:
        system.losses = [loss for loss in reading.top_losses if loss.location[:1] == ("system",)]
        box_ = r.Box("in_sys")
        box_.tags = ("system",)
        _add_piece(g, box_, system, "p", w, header=True)
        boxes.append(box_)
    most, head, tail, shortest = (0, 0, 0, 1) if keep["focus"] else (r.MOST_MESSAGES, r.HEAD_MESSAGES, r.TAIL_MESSAGES, 2)
    segments = r.plan(len(reading.messages), keep["messages"], most, head, tail, shortest)
    for first, last, one in segments:
        if not one:
            piece = reading.run_piece(first, last, w)
            box_ = r.Box(f"run_m{first}_{last}")
            box_.tags = _piece_tags(piece)[:-1]
            _add_piece(g, box_, piece, "p", w, header=True)
            boxes.append(box_)
            outputs = (min(piece.outputs), max(piece.outputs)) if piece.outputs else None
            g.note_collapsed(Collapsed("messages", first, last, outputs))
            continue
        pieces = reading.message_pieces(first, w, keep["blocks"])
        _attach_losses(pieces, reading.losses_in(first))
        box_ = r.Box(f"in_m{first}")
        box_.tags = (f"messages[{first}]",)
        if len(pieces) == 1 and pieces[0].location == ("messages", first):
            _add_piece(g, box_, pieces[0], "p", w, header=True)
        else:
            # A message given block by block: its header, then one row per block.
            role = t.bare(reading.messages[first].get("role"))
            box_.rows.append([Cell([f"messages[{first}] · {role}"], bold=True, colspan=2)])
            for n, piece in enumerate(pieces):
                if piece.run is not None:
                    g.note_collapsed(Collapsed(f"messages[{first}].content", *piece.run, _span(piece.outputs)))
                port = f"c{piece.location[3]}" if len(piece.location) == 4 else f"rest{n}"
                _add_piece(g, box_, piece, port, w)
        boxes.append(box_)
    _outputs(g, trace, boxes, rows, w)


def _span(outputs) -> Optional[tuple[int, int]]:
    return (min(outputs), max(outputs)) if outputs else None


def _attach_losses(pieces: list[r.Piece], losses: list) -> None:
    """Each loss goes to the deepest drawn piece its path lies under (a run of blocks
    counts the losses inside it)."""
    for loss in losses:
        best = None
        for piece in pieces:
            if piece.run is not None:
                first, last = piece.run
                if loss.location[:3] == piece.location[:3] and len(loss.location) > 3 and first <= loss.location[3] <= last:
                    best = piece
                    break
            elif loss.location[: len(piece.location)] == piece.location:
                if best is None or len(piece.location) > len(best.location):
                    best = piece
        best = best or pieces[0]
        if best.run is not None:
            best.lost_count += 1
        else:
            best.losses.append(loss)


def _cells(boxes: list[r.Box], count: int) -> list[tuple[int, int, int]]:
    """The right column's cells, (first, last, row) in order, covering translated[0..count):
    one cell per output a drawn piece gave (the first and last of a long split), one per
    run given only by a summary, each beside the row that gave it first. Built from the
    drawn rows only, so it costs the same for 10 messages or 10,000."""
    claims: list[tuple[int, int, int]] = []  # (first, last, row), kept sorted and disjoint

    def claim(first: int, last: int, row: int) -> None:
        at = bisect_left(claims, (first,))
        if at and claims[at - 1][1] >= first:
            at -= 1
        start = first
        while start <= last:
            if at < len(claims) and claims[at][0] <= start:
                start = max(start, claims[at][1] + 1)
                at += 1
                continue
            end = min(last, claims[at][0] - 1) if at < len(claims) else last
            claims.insert(at, (start, end, row))
            at += 1
            start = end + 1

    spans = []
    for row, box_ in enumerate(boxes):
        for piece, _ in box_.pieces:
            if not piece.outputs:
                continue
            if piece.run is not None:
                spans.append((piece.outputs[0], piece.outputs[-1], row))
                continue
            ordered = sorted(set(piece.outputs))
            for o in ordered if len(ordered) <= r.MOST_OUTPUTS else ordered[: r.HEAD_OUTPUTS] + ordered[-r.TAIL_OUTPUTS :]:
                claim(o, o, row)
            if len(ordered) > r.MOST_OUTPUTS:
                spans.append((ordered[r.HEAD_OUTPUTS], ordered[-r.TAIL_OUTPUTS - 1], row))
    for first, last, row in spans:
        claim(first, last, row)
    claim(0, count - 1, max(len(boxes) - 1, 0))  # never expected: outputs no piece gave
    return claims


def _outputs(g: Graph, trace: Trace, boxes: list[r.Box], rows: Rows, w: dict) -> None:
    """The translated messages beside the box that gave them (see `_cells`)."""
    cells = _cells(boxes, len(trace.translated))
    starts = [first for first, _, _ in cells]
    by_row: dict[int, list[tuple[str, int, int]]] = {}
    for first, last, row in cells:
        by_row.setdefault(row, []).append((f"t{first}" if first == last else f"t{first}_{last}", first, last))
    owner = {port: f"out{row_cells[0][1]}" for row_cells in by_row.values() for port, _, _ in row_cells}
    edges, feeders = [], {}
    for box_ in boxes:
        for piece, port in box_.pieces:
            if not piece.outputs:
                continue
            if piece.run is not None:  # every cell its range overlaps
                found = range(bisect_right(starts, piece.outputs[0]) - 1, bisect_right(starts, piece.outputs[-1]))
            else:
                found = dict.fromkeys(bisect_right(starts, o) - 1 for o in piece.outputs)
            for n in found:
                first, last, _ = cells[n]
                head = f"t{first}" if first == last else f"t{first}_{last}"
                fed = tuple(f"translated[{o}]" for o in range(first, min(last, first + 63) + 1))
                tags = _piece_tags(piece) + fed
                edges.append((f"{box_.node_id}:v{port}:e", f"{owner[head]}:{head}:w", tags))
                feeders.setdefault(head, []).append((box_.node_id, _piece_tags(piece)))
    for row, box_ in enumerate(boxes):
        run = box_.node_id.startswith("run_")
        style = INPUT if not run else {**INPUT, "fillcolor": "#f5f9fe"}
        g.node(box_.node_id, box(box_.rows, style, lit_=g.lights(box_.tags), dashed=run), {})
        out_id = None
        if row in by_row:
            out_id = f"out{by_row[row][0][1]}"
            _output_box(g, trace, out_id, by_row[row], feeders, w)
        rows.add(box_.node_id, out_id)
    for tail, head, tags in edges:
        g.edge(tail, head, tags=tags)
    if not boxes:
        g.node("in_none", [w["no messages"]], LOST, tags=("messages",))
        rows.add("in_none")


def _output_box(g: Graph, trace: Trace, node_id: str, cells: list, feeders: dict, w: dict) -> None:
    """The messages one row gives, one cell each (or a summary cell for a run)."""
    rows = []
    for n, (port, first, last) in enumerate(cells):
        if first == last:
            lines = r.message_lines(first, trace.translated[first], OUT_WIDTH, w)
            cell_tags = (f"translated[{first}]",)
        else:
            roles = r.roles(trace.translated[first : last + 1])
            lines = [w["more outputs"](last - first + 1), span("translated", first, last), *t.wrap(roles, t.WIDTH, 1)]
            cell_tags = tuple(f"translated[{k}]" for k in range(first, min(last, first + 63) + 1))
        fed = tuple(tag for _, tail_tags in feeders.get(port, ()) for tag in tail_tags)
        lit_ = g.lights(cell_tags + fed)
        rows.append([Cell(lines, port, bold=first == last, fill=LIT_FILL if lit_ else None, rule=n > 0)])
    summary = all(first != last for _, first, last in cells)
    style = OUTPUT if not summary else {**OUTPUT, "fillcolor": "#f6fbf6"}
    g.node(node_id, box(rows, style, dashed=summary), {})


def _body_losses(g: Graph, reading: r.Reading, w: dict) -> None:
    """The body's own fields that no output carries (max_tokens, model, ...), beside it."""
    losses = [loss for loss in reading.top_losses if loss.location[:1] != ("system",)]
    if not losses:
        return
    lines = [w["body keeps"]]
    for loss in losses[:MOST_LOSSES]:
        name = t.where(loss.location, 16)
        lines.append(f"✂ {name} {t.one(loss.value, 36 - t.cells(name))}")
        lines += t.prose(r.short_reason(loss.reason), 40, 1)
    if len(losses) > MOST_LOSSES:
        lines.append(w["and more"](len(losses) - MOST_LOSSES))
    tags = ("losses", *(format_location(loss.location) for loss in losses))
    cell = Cell(lines, colour=LOST_TEXT)
    g.node("lost_body", box([[cell]], {**LOST, "fillcolor": "#fafafa"}, lit_=g.lights(tags), dashed=True), {}, tags=tags)
    g.edge("body", "lost_body", tags=tags, **LOST_EDGE)
    g.same_rank("body", "lost_body")


def _hand_back(g: Graph, rows: Rows, w: dict) -> None:
    # The two results travel back together, as the one return value of a method call.
    tags = ("hand_back",)
    g.edge("body", "head_in", w["to messages"], tags=("messages",), lhead="cluster_messages")
    # No arrow from the body down to the tools path: it would run past every row of the
    # messages and widen the picture; the section's heading says body["tools"].
    g.node("hand_back", w["hand back"], CODE, tags=tags)
    g.node("run_turn", w["run turn"], CODE, tags=tags)
    last_message = next(n for n in reversed(rows.right) if n.startswith(("out", "head_out")))
    g.edge(last_message, "hand_back", ["translated"], tags=tags, ltail="cluster_messages")
    g.edge(rows.right[-1], "hand_back", ["tools_schema"], tags=tags, ltail="cluster_tools_path")
    g.edge("hand_back", "run_turn", w["returned"], tags=tags, penwidth="1.6")
    g.edge(rows.left[-1], "hand_back", style="invis")
