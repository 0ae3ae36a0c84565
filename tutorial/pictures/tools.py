"""The tools path, field by field: each tool definition beside the function tool it
became (name and description kept, input_schema renamed parameters, the whole wrapped
in {type: function, function: {...}}); what stays behind in grey.

Two narrow tables per tool, left to right, about 800 px wide. A request with more than
`reading.MOST_TOOLS` tools shows the first and last ones and one summary row for the
run between them (listed in `Dot.collapsed`).
"""

from __future__ import annotations

from typing import Optional

from ..errors import format_location
from ..watch.trace import Trace
from . import reading as r
from . import text as t
from .captions import words
from .dot import (
    AMBER, GREEN, INPUT, LIGHT_BLUE, LIGHT_GREEN, LOST, LOST_EDGE, OUTPUT, SUMMARY_IN, SUMMARY_OUT,
    Cell, Collapsed, Dot, Graph, Rows, box, span, table,
)  # fmt: skip
from .reading import PATHS, Box, short_reason

LOST_TEXT, LOST_FILL = LOST["fontcolor"], "#f7f7f7"
VIA_WIDTH, VIA_SIZE, MOST_LOSSES = 20, "10", 3  # as in the local flow's rows
VALUE_WIDTH = 22  # columns of a field's value
KEY_WIDTH = 16


def _tool_rows(tool: dict, w: dict) -> tuple[list, dict]:
    """Rows for one tool definition: name, description and input_schema always (absent
    ones say so), then any other field; and a map field -> port, for the edges."""
    rows, ports = [], {}
    known = ["name", "description", "input_schema"]
    extra = [k for k in list(tool)[:12] if k not in known]
    for n, key in enumerate(known + extra):
        port = f"f{n}"
        value = t.preview(tool[key], VALUE_WIDTH, 3 if key == "input_schema" else 2) if key in tool else [w["absent"]]
        rows.append((port, t.bare(key, KEY_WIDTH), value))
        ports[key] = port
    return rows, ports


def tools_path(trace: Trace) -> Dot:
    """The tools path alone: each tool definition and the function tool it became."""
    w = words()
    tools = trace.preprocessed.get("tools") or []
    title = [w["tools title"](trace.target), PATHS[trace.target][1]]
    g = Graph("tools_path", title, None, rankdir="LR", nodesep="0.3", ranksep="0.9", mclimit="0", remincross="false")
    schema = trace.tools_schema or []
    pairs = tool_pairs(trace)
    lost = {}
    for loss in trace.losses:
        if loss.location[:1] == ("tools",) and len(loss.location) > 1:
            lost.setdefault(loss.location[1], []).append(loss)
    left, right = [], []
    for first, last, one in r.plan(len(tools), set(), r.MOST_TOOLS, r.HEAD_TOOLS, r.TAIL_TOOLS):
        if not one:
            ks = [pairs[i][1] for i in range(first, last + 1) if pairs[i][1] is not None]
            g.node(f"tool{first}_{last}", [w["more tools"](last - first + 1), span("tools", first, last)], SUMMARY_IN)
            left.append(f"tool{first}_{last}")
            g.note_collapsed(Collapsed("tools", first, last))
            if ks:
                g.node(f"fn{min(ks)}_{max(ks)}", [w["more tools"](len(ks)), span("tools_schema", min(ks), max(ks))], SUMMARY_OUT)
                g.edge(f"tool{first}_{last}", f"fn{min(ks)}_{max(ks)}")
                right.append(f"fn{min(ks)}_{max(ks)}")
            continue
        i, k = pairs[first]
        rows, ports = _tool_rows(tools[i], w)
        g.node(f"tool{i}", table(f"tools[{i}]", rows, LIGHT_BLUE), {})
        left.append(f"tool{i}")
        if k is not None:
            _function_tool(g, i, k, tools[i], schema[k], ports, w)
            right.append(f"fn{k}")
        for n, loss in enumerate(lost.get(i, [])[:4]):
            field_port = ports.get(loss.location[2]) if len(loss.location) > 2 else None
            inner = loss.location[2:] or loss.location
            lines = [t.where(inner, 24) + " " + t.one(loss.value, 12), *t.prose(short_reason(loss.reason), 30, 2)]
            g.node(f"tool{i}_lost{n}", lines, LOST)
            g.edge(f"tool{i}:{field_port or 'head'}:e", f"tool{i}_lost{n}", **LOST_EDGE)
            right.append(f"tool{i}_lost{n}")
    if trace.tools_schema is None:
        g.node("none", w["schema none lines"], {**SUMMARY_OUT, "style": "rounded,filled"})
        right.append("none")
        if left:
            g.edge(left[0], "none")
    if not tools:
        g.node("entry", ['body["tools"]', "[]" if "tools" in trace.preprocessed else w["absent"]], SUMMARY_IN)
        left.insert(0, "entry")
        g.edge("entry", "none")
    for column in (left, right):  # outside clusters, Graphviz keeps a flat edge's tail above
        g.column(column)
        g.order(column)
    return g.text()


def _function_tool(g: Graph, i: int, k: int, tool: dict, function_tool: dict, ports: dict, w: dict) -> None:
    function = function_tool.get("function") if isinstance(function_tool.get("function"), dict) else {}
    rows = [
        ("type", "type", t.preview(function_tool.get("type"), VALUE_WIDTH)),
        ("name", "function.name", t.preview(function.get("name"), VALUE_WIDTH)),
        ("description", "function.description", t.preview(function.get("description"), VALUE_WIDTH)),
        ("parameters", "function.parameters", t.preview(function.get("parameters"), VALUE_WIDTH, 3)),
    ]
    g.node(f"fn{k}", table(f"tools_schema[{k}]", rows, LIGHT_GREEN), {})
    g.edge(f"tool{i}:head:e", f"fn{k}:typek:w", w["wrap edge"], color=GREEN)
    g.edge(f"tool{i}:{ports['name']}:e", f"fn{k}:namek:w", [w["kept"]])
    described = w["kept"] if tool.get("description") else w["absent empty"]
    g.edge(f"tool{i}:{ports['description']}:e", f"fn{k}:descriptionk:w", [described])
    renamed = w["renamed"] if tool.get("input_schema") is not None else w["absent schema"]
    g.edge(
        f"tool{i}:{ports['input_schema']}:e", f"fn{k}:parametersk:w", t.prose(renamed, 20, 2),
        color=AMBER, fontcolor="#a15f00", penwidth="1.8",
    )  # fmt: skip


# ---------------------------------------------------------------------------
# The tools path as rows of the local flow


def tool_pairs(trace: Trace, losses_by_tool: Optional[dict] = None) -> list[tuple[int, Optional[int]]]:
    """(tool index, tools_schema index or None). A tool left out as a whole is reported
    as a loss at its own path; the others keep their order."""
    tools = trace.preprocessed.get("tools") or []
    if losses_by_tool is None:
        losses_by_tool = r.Reading(trace).losses_by_tool
    lost = {i for i, losses in losses_by_tool.items() if any(len(loss.location) == 2 for loss in losses)}
    kept = [i for i in range(len(tools)) if i not in lost]
    schema = trace.tools_schema or []
    if len(kept) != len(schema):
        return [(i, None) for i in range(len(tools))]
    where = dict(zip(kept, range(len(schema))))
    return [(i, where.get(i)) for i in range(len(tools))]


def _tool_lines(i: int, tool: dict, w: dict) -> list[str]:
    kind = w["custom tool"] if tool.get("type") in (None, "custom") else f"{w['server tool']} {t.bare(tool.get('type'), 14)}"
    lines = [f"tools[{i}] · {kind}", "name " + t.one(tool.get("name"), t.WIDTH - 5)]
    if tool.get("description"):
        lines.append("description " + t.one(tool["description"], t.WIDTH - 12))
    lines.append("input_schema " + t.one(tool.get("input_schema"), t.WIDTH - 13))
    return lines


def _schema_lines(k: int, function_tool: dict) -> list[str]:
    function = function_tool.get("function") or {}
    return [
        f"tools_schema[{k}] · {t.bare(function_tool.get('type'))}",
        "name " + t.one(function.get("name"), t.WIDTH - 5),
        "parameters " + t.one(function.get("parameters"), t.WIDTH - 11),
    ]


def tool_rows(g: Graph, reading: r.Reading, keep: dict, rows: Rows, w: dict) -> None:
    trace = reading.trace
    tools = trace.preprocessed.get("tools") or []
    schema = trace.tools_schema or []
    pairs = tool_pairs(trace, reading.losses_by_tool)
    summary = w["schema none"] if trace.tools_schema is None else w["schema list"](len(schema))
    rows.headings(("head_tools", "head_schema"), w["tool inputs"], summary, ("tools_schema", "tools"))
    most, head, tail, shortest = (0, 0, 0, 1) if keep.get("focus") else (r.MOST_TOOLS, r.HEAD_TOOLS, r.TAIL_TOOLS, 2)
    for first, last, one in r.plan(len(tools), keep["tools"], most, head, tail, shortest):
        ks = [pairs[i][1] for i in range(first, last + 1) if pairs[i][1] is not None]
        lost = [loss for i in range(first, last + 1) for loss in reading.losses_by_tool.get(i, ())]
        if one:
            node_id, path = f"in_t{first}", f"tools[{first}]"
            piece = r.Piece(("tools", first), _tool_lines(first, tools[first], w), via=(), losses=lost)
            piece.dropped = not ks
            tags = (path, "tools")
        else:
            node_id, path = f"run_t{first}_{last}", span("tools", first, last)
            lines = [w["more tools"](last - first + 1), path] + ([w["n stay behind"](len(lost))] if lost else [])
            piece = r.Piece(("tools", first), lines, run=(first, last))
            tags = tuple(f"tools[{i}]" for i in range(first, min(last, first + 63) + 1)) + ("tools",)
            g.note_collapsed(Collapsed("tools", first, last))
        box_ = Box(node_id)
        box_.rows.append([
            Cell(piece.lines, "p", bold=True, colour=LOST_TEXT if piece.dropped else None),
            Cell([""] if piece.dropped else t.prose(w["wrapped"][0], VIA_WIDTH, 2), "vp", align="RIGHT", colour="#555555", size=VIA_SIZE),
        ])  # fmt: skip
        for loss in piece.losses[:MOST_LOSSES]:
            inner = format_location(loss.location[2:]) or format_location(loss.location)
            text = [f"✂ {t.fit(inner, 20)} {t.one(loss.value, 20)}", *t.prose(short_reason(loss.reason), 44, 2)]
            box_.rows.append([Cell(text, colspan=2, colour=LOST_TEXT, fill=LOST_FILL)])
        lit_ = g.lights(tags + tuple(format_location(loss.location) for loss in piece.losses) + (("losses",) if piece.losses else ()))
        g.node(node_id, box(box_.rows, INPUT, lit_=lit_, dashed=not one), {})
        out_id = None
        if ks:
            a, b = min(ks), max(ks)
            out_id = f"schema{a}" if one else f"schema{a}_{b}"
            if one:
                lines = _schema_lines(a, schema[a])
            else:
                lines = [w["more tools"](b - a + 1), span("tools_schema", a, b)]
            out_tags = tuple(f"tools_schema[{k}]" for k in range(a, min(b, a + 63) + 1)) + ("tools",)
            g.node(out_id, box([[Cell(lines, "p", bold=one)]], OUTPUT, lit_=g.lights(out_tags), dashed=not one), {})
            g.edge(f"{node_id}:vp:e", f"{out_id}:p:w", tags=tags + out_tags)
        rows.add(node_id, out_id)
    if not tools or trace.tools_schema is None:
        shown = "None" if trace.tools_schema is None else "[]"
        g.node("schema_none", [shown, w["no tools"]], OUTPUT, tags=("tools_schema", "tools"))
        if not tools:
            g.node("in_t_none", ["[]" if "tools" in trace.preprocessed else w["absent"]], INPUT, tags=("tools",))
            rows.add("in_t_none", "schema_none")
            g.edge("in_t_none", "schema_none", tags=("tools", "tools_schema"), constraint="false")
        else:
            rows.right.append("schema_none")  # below the tools, none of which became one
