"""Graphviz pictures of the translation, drawn from a real `trace()`.

Every builder returns DOT source as a plain string; nothing here draws by itself. So the
pictures can be tested as text (golden files in `diagrams/`), rendered wherever Graphviz
is installed, and read as source where it is not. The `graphviz` package is imported
only inside `render_svg` and `show`, which keeps `import tutorial` free of it.

The builders
    vertical_flow(highlight="translate")   the whole turn, top to bottom (where Action 2 sits)
    local_flow(trace, highlight=None)      one request, left to right: body -> pieces ->
                                           messages / tools -> one returned tuple
    mixed_result_split(trace)              one tool_result -> tool messages (one per run)
    tools_path(trace)                      tool definitions -> function tools, field by field

Stage names for `vertical_flow(highlight=...)` (see `STAGES`):
    generate, harness, cli, run_turn, preprocess, translate, render_token_ids, sampling,
    respond, after_cli, environment

Names for `local_flow(highlight=...)`: a stage from `LOCAL_STAGES` (body, messages, tools,
translated, tools_schema, hand_back, losses, direct) or a helper's name (flatten_content,
tool_call_dict; for the openai target system_text, content_part, tool_result_messages,
openai_tool_call), or a path such as "system", "messages[2]", "messages[1].content[1]",
"tools[0]", "translated[3]" or a loss's path ("max_tokens"). A path lights everything
under it, so "messages[2]" also lights that message's blocks, edges and results.

Rendering: `render_svg(dot)` (needs the `dot` program), `show(dot)` for notebooks (falls back
to the DOT text and an install hint), and `write_all(out_dir)` / `python -m tutorial.diagrams`
for the committed files.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import format_location
from ..examples import readme_request
from ..watch.trace import Trace
from ..watch.trace import trace as _trace

__all__ = [
    "HELPERS",
    "INSTALL_HINT",
    "LOCAL_STAGES",
    "STAGES",
    "DotText",
    "Picture",
    "local_flow",
    "mixed_result_request",
    "mixed_result_split",
    "render_svg",
    "show",
    "sources",
    "tools_path",
    "vertical_flow",
    "write_all",
]

# A font with Chinese glyphs, so the README example's text renders as text, not boxes.
# (Debian/Ubuntu: fonts-wqy-microhei; elsewhere fontconfig substitutes what it has.)
FONT = "WenQuanYi Micro Hei"

# Colours: blue for the Anthropic side, green for what the chat template gets, grey for
# code and for what stays behind, amber for whatever a notebook asks to light up.
_CODE = {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4f4f4", "color": "#6b6b6b"}
_INPUT = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eaf2fb", "color": "#3d6fa8"}
_OUTPUT = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eaf6ea", "color": "#3f8a46"}
_LOST = {
    "shape": "box",
    "style": "rounded,filled,dashed",
    "fillcolor": "#fafafa",
    "color": "#9a9a9a",
    "fontcolor": "#6b6b6b",
}
_LOST_EDGE = {"style": "dashed", "color": "#9a9a9a", "fontcolor": "#6b6b6b", "arrowhead": "empty"}
_NOTE = {"shape": "note", "style": "filled", "fillcolor": "#fffbea", "color": "#b59b3b"}
_LIT_NODE = {"fillcolor": "#fff1b8", "color": "#d4860b", "penwidth": "2.6"}
_LIT_EDGE = {"color": "#d4860b", "fontcolor": "#a15f00", "penwidth": "2.6"}
_LIT_CLUSTER = {"bgcolor": "#fff8dc", "pencolor": "#d4860b", "penwidth": "2.6"}

WIDTH = 32  # label columns; a Chinese character counts as two
DIRECT = "text taken directly"  # the edge label when no helper was called

# ---------------------------------------------------------------------------
# Text that is safe inside a label, whatever the request says


class _Html(str):
    """A label that is already Graphviz HTML: written as <...> rather than quoted."""


# Characters a picture cannot show, or that would change the layout (controls, format
# characters such as zero-width joiners, line/paragraph separators, lone surrogates,
# private-use and unassigned code points). They are shown as \\uXXXX escapes instead.
_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _cells(token: str) -> int:
    """Display width: wide and full-width characters (CJK) take two columns."""
    width = 0
    for char in token:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _tokens(text: str) -> Iterator[str]:
    """`text` split into display tokens; a hidden character becomes one escape token,
    so a line is never broken in the middle of an escape."""
    for char in text:
        yield f"\\u{ord(char):04x}" if unicodedata.category(char) in _HIDDEN else char


def _wrap(text: str, width: int = WIDTH, lines: int = 2) -> list[str]:
    """At most `lines` lines of at most `width` columns; an ellipsis marks a cut."""
    out: list[list[str]] = [[]]
    used = 0
    for token in _tokens(text):
        size = _cells(token)
        if used + size > width and out[-1]:
            if len(out) == lines:  # no room for this token: cut here and say so
                last = out[-1]
                while last and used + 1 > width:
                    used -= _cells(last.pop())
                last.append("…")
                break
            out.append([])
            used = 0
        out[-1].append(token)
        used += size
    return ["".join(line) for line in out]


def _prose(text: str, width: int = 40, lines: int = 3) -> list[str]:
    """Sentences (the loss report's reasons) wrapped at spaces, cut with an ellipsis."""
    return textwrap.wrap("".join(_tokens(text)), width, max_lines=lines, placeholder=" …") or [""]


def _json(value: Any) -> str:
    """A value written as JSON, non-ASCII kept readable: strings appear quoted and escaped
    (\\n, \\", \\\\) exactly as a reader sees them in the notebooks' JSON."""
    return json.dumps(value, ensure_ascii=False)


def _show(value: Any, width: int = WIDTH, lines: int = 2) -> list[str]:
    return _wrap(_json(value), width, lines)


def _one(value: Any, width: int = WIDTH) -> str:
    return _show(value, width, 1)[0]


def _name(text: Any, width: int = 24) -> str:
    """A name from the request (a block type, a tool name) shown bare, without quotes."""
    return _wrap(text if isinstance(text, str) else _json(text), width, 1)[0]


def _where(location: tuple) -> str:
    """A body path for a label. Keys come from the request (a top-level parameter, a
    tool's extra field), so they are made visible-safe like any other request text."""
    return _wrap(format_location(location), 48, 1)[0]


def _label_line(line: str) -> str:
    # In a quoted label Graphviz reads `&name;` as an HTML entity and `\n`, `\l`, `\N`,
    # `\G` as line breaks or the node's name, so `&`, backslashes and quotes are all
    # escaped; text from a request never reaches here with a raw newline (see _tokens).
    line = line.replace("&", "&amp;").replace("\\", "\\\\").replace('"', '\\"')
    return line.replace("\r", "").replace("\n", "\\n")


def _label(lines: list[str]) -> str:
    return '"' + "\\n".join(_label_line(line) for line in lines) + '"'


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# ---------------------------------------------------------------------------
# A small DOT writer: statements in the order they are added, so the same input always
# gives the same text. Each element carries tags (stage names, paths) for highlighting.


def _lit(tags: tuple, wanted: str | None) -> bool:
    """True when a tag names `wanted` or lies under it ("messages[2]" covers
    "messages[2].content[0]" but not "messages[20]")."""
    if wanted is None:
        return False
    return any(tag == wanted or tag.startswith((wanted + ".", wanted + "[")) for tag in tags)


class _Graph:
    def __init__(self, name: str, title: str, highlight: str | None = None, **attrs: str):
        self.highlight = highlight
        self.matched = False
        self.lines = [f"digraph {name} {{"]
        self.indent = "  "
        graph = {"label": [title], "labelloc": "t", "fontname": FONT, "fontsize": "14", "newrank": "true", **attrs}
        self._statement("graph", graph)
        self._statement("node", {"fontname": FONT, "fontsize": "11", "margin": "0.12,0.06"})
        self._statement("edge", {"fontname": FONT, "fontsize": "10", "color": "#555555"})

    def _attributes(self, attrs: dict) -> str:
        parts = []
        for key, value in attrs.items():
            if isinstance(value, _Html):
                parts.append(f"{key}=<{value}>")
            elif isinstance(value, list):  # label lines
                parts.append(f"{key}={_label(value)}")
            else:
                parts.append(f"{key}={_quote(str(value))}")
        return ", ".join(parts)

    def _statement(self, head: str, attrs: dict) -> None:
        self.lines.append(f"{self.indent}{head} [{self._attributes(attrs)}];")

    def _lights(self, tags: tuple) -> bool:
        lit = _lit(tags, self.highlight)
        self.matched |= lit
        return lit

    def node(self, node_id: str, label: Any, style: dict, tags: tuple = ()) -> None:
        attrs = {"label": label, **style}
        if isinstance(label, _Html):
            attrs.update(shape="plain")  # the table draws its own borders
        if self._lights(tags):
            attrs.update(_LIT_NODE)
        self._statement(node_id, attrs)

    def edge(self, tail: str, head: str, label: list[str] | None = None, tags: tuple = (), **attrs: str) -> None:
        attrs = {"label": label, **attrs} if label else dict(attrs)
        if self._lights(tags):
            attrs.update(_LIT_EDGE)
        self.lines.append(f"{self.indent}{tail} -> {head}" + (f" [{self._attributes(attrs)}];" if attrs else ";"))

    @contextmanager
    def cluster(self, cluster_id: str, label: list[str], tags: tuple = (), **attrs: str) -> Iterator[None]:
        self.lines.append(f"{self.indent}subgraph {cluster_id} {{")
        self.indent += "  "
        attrs = {"label": label, "labeljust": "l", "style": "rounded", "color": "#b0b0b0", **attrs}
        if self._lights(tags):
            attrs.update(_LIT_CLUSTER)
        self._statement("graph", attrs)
        yield
        self.indent = self.indent[:-2]
        self.lines.append(f"{self.indent}}}")

    def same_rank(self, *node_ids: str) -> None:
        self.lines.append(f"{self.indent}{{ rank=same; {'; '.join(node_ids)}; }}")

    def column(self, node_ids: list[str]) -> None:
        """Same rank, in this order: an invisible chain through the nodes."""
        if len(node_ids) > 1:
            self.same_rank(*node_ids)
            self.lines.append(f'{self.indent}{" -> ".join(node_ids)} [style="invis"];')

    def text(self, known: tuple = ()) -> str:
        if self.highlight is not None and not self.matched and self.highlight not in known:
            raise ValueError(
                f"nothing called {self.highlight!r} in this diagram; stages: {', '.join(known)}, or a path"
            )
        return "\n".join(self.lines + ["}"]) + "\n"


# ---------------------------------------------------------------------------
# 1. The whole turn, top to bottom

STAGES = {
    "generate": ("generate", "model entry · task · session · environment · problem set-up"),
    "harness": ("Harness().run", "Action 4 starts the CLI · Action 6 runs it and waits"),
    "cli": ("the agent CLI", "speaks the Anthropic Messages API to the adapter"),
    "run_turn": ("BaseAdapter._run_turn(request)", "one turn, run for every POST /v1/messages"),
    "preprocess": ("body = await request.json(); preprocess(body)", "e.g. fold a system message found mid-list"),
    "translate": ("translated, tools_schema = self._translate(body)", "Action 2 · what this package shows"),
    "render_token_ids": (
        "_render_token_ids(translated, tokenizer, tools=tools_schema)",
        "Action 3 · chat template -> prompt token ids",
    ),
    "sampling": ("sample with the serving engine", "Action 3 · max_tokens is read here, from the body"),
    "respond": ("_build_reply · record the turn · _respond", "Action 3.5 · protocol response, trajectory, wrap-up"),
    "after_cli": ("after the CLI ends, Harness().run goes on", "collect the diff · evaluate · export · clean up"),
    "environment": ("Action 5 · the environment", "create · command · file · teardown services"),
}
"""Stage id -> (what runs, one line about it), in pipeline order."""


def vertical_flow(highlight: str | None = "translate") -> str:
    """The whole turn as DOT, top to bottom; `highlight` names one of `STAGES` (or None)."""
    if highlight is not None and highlight not in STAGES:
        raise ValueError(f"unknown stage {highlight!r}; stages: {', '.join(STAGES)}")
    g = _Graph(
        "vertical_flow", "One turn of the rollout adapter: where Action 2 sits", highlight, rankdir="TB", nodesep="0.5"
    )

    def stage(name: str, style: dict = _CODE) -> None:
        g.node(name, list(STAGES[name]), style, tags=(name,))

    stage("generate")
    stage("harness")
    stage("cli", _INPUT)
    # The turn runs inside the adapter, once per HTTP request from the CLI.
    with g.cluster("cluster_run_turn", list(STAGES["run_turn"]), tags=("run_turn",), color="#3d6fa8"):
        for name in ("preprocess", "translate", "render_token_ids", "sampling", "respond"):
            stage(name, _OUTPUT if name == "translate" else _CODE)
    stage("after_cli")
    stage("environment", _NOTE)

    g.edge("generate", "harness")
    g.edge("harness", "cli", ["Action 4: start the CLI"], tags=("harness",))
    g.edge("cli", "preprocess", ["Action 7: HTTP", "POST /v1/messages"], tags=("cli",), lhead="cluster_run_turn")
    g.edge("preprocess", "translate", ["body (a dict)"], tags=("preprocess", "translate"))
    g.edge(
        "translate",
        "render_token_ids",
        ["(translated, tools_schema)", "a function return, no HTTP"],
        tags=("translate",),
    )
    g.edge("render_token_ids", "sampling", ["prompt_ids"], tags=("render_token_ids",))
    g.edge("sampling", "respond", ["sampled tokens"], tags=("sampling",))
    g.edge(
        "respond",
        "cli",
        ["Action 3.5: HTTP response"],
        tags=("respond",),
        ltail="cluster_run_turn",
        style="dashed",
        constraint="false",
    )
    # after_cli follows the harness (Action 6 waits for the CLI to end); the invisible
    # edge only puts it at the bottom, below the turn.
    g.edge("respond", "after_cli", style="invis")
    g.edge("harness", "after_cli", tags=("harness", "after_cli"), style="dotted", constraint="false")
    # The environment serves every stage, so it hangs beside the pipeline, not in it.
    g.same_rank("harness", "environment")
    for name in ("generate", "harness", "after_cli"):
        g.edge(
            "environment",
            name,
            tags=("environment",),
            style="dashed",
            arrowhead="none",
            color="#b59b3b",
            constraint="false",
        )
    return g.text(tuple(STAGES))


# ---------------------------------------------------------------------------
# Reading the trace: which input piece gave which output, through which helper


@dataclass
class _Piece:
    """One input node: a system prompt, a message or one block of a message."""

    location: tuple
    lines: list[str]
    outputs: tuple[int, ...] = ()
    via: tuple[str, ...] = ()  # helper names; empty = taken directly
    dropped: bool = False  # the whole piece stays behind


def _at(body: Any, location: tuple) -> Any:
    for key in location:
        body = body[key]
    return body


def _unique(names) -> tuple[str, ...]:
    return tuple(dict.fromkeys(names))


def _via_label(via: tuple[str, ...]) -> list[str]:
    return [", ".join(via)] if via else [DIRECT]


def _lost_here(trace: Trace) -> set[tuple]:
    return {loss.location for loss in trace.losses}


def _block_kind(block: Any) -> str:
    if isinstance(block, str):
        return "string"
    return _name(block.get("type"))


def _block_lines(block: Any) -> list[str]:
    """What a block says, in two or three short lines."""
    if isinstance(block, str):
        return _show(block)
    kind = block.get("type")
    if kind == "text":
        return _show(block.get("text"))
    if kind == "thinking":
        return _show(block.get("thinking"))
    if kind == "tool_use":
        return [
            f"{_name(block.get('name'))} · id {_one(block.get('id'), 18)}",
            "input " + _one(block.get("input"), WIDTH - 6),
        ]
    if kind == "tool_result":
        lines = ["tool_use_id " + _one(block.get("tool_use_id"), WIDTH - 12)]
        return lines + _content_lines(block.get("content"), 1)
    if kind == "image":
        source = block.get("source") or {}
        return [_name(source.get("url") or source.get("media_type") or source.get("type"), WIDTH)]
    if kind == "tool_reference":
        return ["tool_name " + _one(block.get("tool_name") or block.get("name"), WIDTH - 10)]
    text = block.get("text") if isinstance(block.get("text"), str) else None
    return _show(text, WIDTH, 1) if text is not None else []


def _content_lines(content: Any, lines: int = 2) -> list[str]:
    """Content as a reader would summarise it: a string quoted, a list as its parts."""
    if isinstance(content, list):
        shown = []
        for part in content:
            if isinstance(part, str):
                shown.append(_json(part))
            elif isinstance(part, dict) and part.get("type") == "text":
                shown.append(_json(part.get("text")))
            elif isinstance(part, dict) and part.get("type") == "tool_reference":
                shown.append(f"[tool_reference {part.get('name') or part.get('tool_name')}]")
            else:
                shown.append(f"[{part.get('type') if isinstance(part, dict) else type(part).__name__}]")
        return _wrap(" + ".join(shown) if shown else "[]", WIDTH, lines)
    return _show(content if content is not None else "", WIDTH, lines)


def _message_lines(index: int, message: dict) -> list[str]:
    """A produced chat message: its index and role, then a preview of what it carries."""
    lines = [f"translated[{index}] · {_name(message.get('role'))}"]
    if "tool_call_id" in message:
        lines.append("tool_call_id " + _one(message["tool_call_id"], WIDTH - 13))
    lines += _content_lines(message.get("content"))
    if message.get("reasoning_content"):
        lines.append("reasoning_content " + _one(message["reasoning_content"], WIDTH - 18))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        arguments = function.get("arguments")
        lines.append(f"tool_call {_name(function.get('name'), 16)} " + _one(arguments, 28))
    return lines


def _system_piece(trace: Trace) -> list[_Piece]:
    system = trace.preprocessed.get("system")
    if system is None:
        return []
    found = [p for p in trace.produced if p.location == ("system",)]
    kind = "a string" if isinstance(system, str) else f"{len(system)} text block{'s' * (len(system) != 1)}"
    texts = system if isinstance(system, str) else "\n".join(b.get("text", "") for b in system)
    piece = _Piece(("system",), [f"system · {kind}", *_show(texts)])
    if found:
        piece.outputs, piece.via = found[0].outputs, _unique(found[0].via)
    return [piece]


def _takes_whole(trace: Trace, here: tuple, via: tuple) -> bool:
    """Was a helper called on the message's whole content (not block by block)?"""
    return any(step.name in via and step.location in (here, here + ("content",)) for step in trace.steps)


def _message_pieces(trace: Trace, i: int) -> list[_Piece]:
    """The input pieces of message i and the outputs each piece fed."""
    here = ("messages", i)
    message = trace.preprocessed["messages"][i]
    content, role = message["content"], _name(message.get("role"))
    produced = [p for p in trace.produced if p.location[:2] == here]
    whole = [p for p in produced if p.location == here]
    whole_outputs = tuple(o for p in whole for o in p.outputs)
    whole_via = _unique(name for p in whole for name in p.via)

    if isinstance(content, str) or not content or _takes_whole(trace, here, whole_via):
        summary = _show(content) if isinstance(content, str) else _content_lines(content, 2)
        header = f"messages[{i}] · {role}" + ("" if produced else " · gives no message")
        outputs = tuple(o for p in produced for o in p.outputs)
        return [_Piece(here, [header, *summary], outputs, _unique(n for p in produced for n in p.via))]

    # Block by block. Blocks a unit of their own produced are attributed directly; the
    # rest were gathered by the message itself: consecutive ones form a group, and the
    # groups match the message-level outputs in order when their numbers agree.
    by_block: dict[tuple, list] = {}
    for p in produced:
        if len(p.location) >= 4:
            by_block.setdefault(p.location[:4], []).append(p)
    lost = _lost_here(trace)
    groups, current = [], []
    for j in range(len(content)):
        location = here + ("content", j)
        if location in by_block:
            groups, current = groups + ([current] if current else []), []
        elif location not in lost:
            current.append(j)
    groups += [current] if current else []
    group_of = {j: n for n, members in enumerate(groups) for j in members}
    paired = len(groups) == len(whole_outputs)

    pieces = []
    for j, block in enumerate(content):
        location = here + ("content", j)
        piece = _Piece(location, [f"content[{j}] · {_block_kind(block)}", *_block_lines(block)])
        if location in by_block:
            piece.outputs = tuple(o for p in by_block[location] for o in p.outputs)
            piece.via = _unique(n for p in by_block[location] for n in p.via)
        elif location in lost:
            piece.dropped = True
        else:
            piece.outputs = (whole_outputs[group_of[j]],) if paired else whole_outputs
            piece.via = _unique(s.name for s in trace.steps if s.name in whole_via and s.location[:4] == location)
        pieces.append(piece)
    if whole_outputs and not groups:  # every block stayed behind, yet a message was made
        pieces.append(_Piece(here, ["nothing carried over"], whole_outputs, ("an empty message",)))
    return pieces


# ---------------------------------------------------------------------------
# 2. One request, left to right

LOCAL_STAGES = ("body", "messages", "tools", "translated", "tools_schema", "hand_back", "losses", "direct")
HELPERS = {
    "chat_template": ("flatten_content", "tool_call_dict"),
    "openai": ("system_text", "content_part", "tool_result_messages", "openai_tool_call"),
}
_PATHS = {  # the function each path runs, as the walk-through names it
    "chat_template": ("translate_messages(messages, system)", "tools_to_chat_tools(tools)"),
    "openai": ("openai_messages(messages, system)", "openai_tools(tools)"),
}


def _node_id(location: tuple) -> str:
    """A stable, always-valid DOT id from a body path: ("messages", 2, "content", 0) -> in_m2_c0."""
    short = {"messages": "m", "content": "c", "system": "sys", "tools": "t"}
    segments: list[str] = []
    for part in location:
        if isinstance(part, int) and segments:
            segments[-1] += str(part)
        else:
            segments.append(short.get(part, str(part)))
    text = "_".join(segments)
    return "in_" + "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else "_" for ch in text)


class _Anchors:
    """Where in the picture each body path is drawn, so a loss can leave from there."""

    def __init__(self):
        self.places: dict[tuple, tuple[str, str | None]] = {(): ("body", None)}

    def add(self, location: tuple, node_id: str, cluster: str | None = None) -> None:
        self.places.setdefault(location, (node_id, cluster))

    def find(self, location: tuple) -> tuple[str, str | None]:
        for end in range(len(location), -1, -1):  # the deepest drawn place wins
            if location[:end] in self.places:
                return self.places[location[:end]]
        return self.places[()]


def local_flow(trace: Trace, highlight: str | None = None) -> str:
    """The data flow of one request as DOT, left to right (see the module's docstring for
    the names `highlight` accepts). Works for any valid request and both targets."""
    title = f"Action 2 for one request ({trace.target} target): body -> translated + tools_schema -> one return value"
    g = _Graph("local_flow", title, highlight, rankdir="LR", nodesep="0.25", ranksep="0.55", compound="true")
    anchors = _Anchors()
    g.node("body", ["body", "the request dict, after preprocess"], _CODE, tags=("body",))
    _draw_messages(g, trace, anchors)
    _draw_tools(g, trace, anchors)
    _draw_hand_back(g)
    _draw_losses(g, trace, anchors)
    return g.text(LOCAL_STAGES + HELPERS["chat_template"] + HELPERS["openai"])


def _piece_tags(piece: _Piece) -> tuple:
    """A piece lights up for its path, for the messages path and for how it was carried."""
    carried = () if piece.dropped else piece.via or ("direct",)
    return (format_location(piece.location), "messages", *carried)


def _draw_messages(g: _Graph, trace: Trace, anchors: _Anchors) -> None:
    g.node("messages_path", [_PATHS[trace.target][0], "the messages path"], _CODE, tags=("messages",))
    g.edge("body", "messages_path", ['body["messages"]', 'body["system"]'], tags=("messages",))
    fed: dict[int, list[tuple]] = {}  # output index -> the tags of the edges into it
    edges: list[tuple] = []  # drawn after the clusters: an edge inside one would pull its head in

    def draw(piece: _Piece, node_id: str) -> None:
        g.node(node_id, piece.lines, _LOST if piece.dropped else _INPUT, tags=_piece_tags(piece))
        for index in piece.outputs:
            tags = _piece_tags(piece) + (f"translated[{index}]",)
            edges.append((node_id, f"out{index}", _via_label(piece.via), tags))
            fed.setdefault(index, []).append(tags)

    for piece in _system_piece(trace):
        draw(piece, "in_sys")
        g.edge("messages_path", "in_sys", tags=("messages", "system"))
        anchors.add(piece.location, "in_sys")
    for i in range(len(trace.preprocessed["messages"])):
        pieces = _message_pieces(trace, i)
        if len(pieces) == 1 and pieces[0].location == ("messages", i):
            draw(pieces[0], _node_id(pieces[0].location))
            g.edge("messages_path", _node_id(pieces[0].location), tags=(f"messages[{i}]",))
            anchors.add(pieces[0].location, _node_id(pieces[0].location))
            continue
        # A message given block by block is a box of its blocks: one message in, and
        # the arrows show how many messages come out.
        cluster = f"cluster_m{i}"
        role = _name(trace.preprocessed["messages"][i].get("role"))
        with g.cluster(cluster, [f"messages[{i}] · {role}"], tags=(f"messages[{i}]",), color="#3d6fa8"):
            for n, piece in enumerate(pieces):
                node_id = _node_id(piece.location) + ("" if piece.location != ("messages", i) else f"_rest{n}")
                draw(piece, node_id)
                anchors.add(piece.location, node_id)
                anchors.add(("messages", i), node_id, cluster)
        first = anchors.find(("messages", i))[0]
        g.edge("messages_path", first, tags=(f"messages[{i}]",), lhead=cluster)

    for tail, head, label, tags in edges:
        g.edge(tail, head, label, tags=tags)
    for index, message in enumerate(trace.translated):
        tags = tuple(tag for edge in fed.get(index, []) for tag in edge)
        g.node(f"out{index}", _message_lines(index, message), _OUTPUT, tags=(f"translated[{index}]", *tags))
        if index not in fed:  # never expected; drawn rather than hidden if it happens
            g.edge("messages_path", f"out{index}", ["(source not traced)"])
        g.edge(f"out{index}", "translated", tags=(f"translated[{index}]", "translated"))
    # An invisible chain keeps the results in list order, top to bottom. (It helps for
    # nodes outside clusters only; inside a cluster Graphviz reorders them anyway.)
    g.column([f"out{index}" for index in range(len(trace.translated))])
    count = len(trace.translated)
    g.node(
        "translated", ["translated", f"a list of {count} message{'s' * (count != 1)}"], _OUTPUT, tags=("translated",)
    )
    if not trace.translated:
        g.edge("messages_path", "translated", ["no messages"], tags=("messages", "translated"))


def _tool_lines(i: int, tool: dict) -> list[str]:
    kind = "custom tool" if tool.get("type") in (None, "custom") else f"server tool {_name(tool.get('type'), 16)}"
    lines = [f"tools[{i}] · {kind}", "name " + _one(tool.get("name"), WIDTH - 5)]
    if tool.get("description"):
        lines.append("description " + _one(tool["description"], WIDTH - 12))
    lines.append("input_schema " + _one(tool.get("input_schema"), WIDTH - 13))
    return lines


def _schema_lines(k: int, function_tool: dict) -> list[str]:
    function = function_tool.get("function") or {}
    return [
        f"tools_schema[{k}] · {_name(function_tool.get('type'))}",
        "name " + _one(function.get("name"), WIDTH - 5),
        "parameters " + _one(function.get("parameters"), WIDTH - 11),
    ]


def _tool_pairs(trace: Trace) -> list[tuple[int, int | None]]:
    """(tool index, tools_schema index or None). A tool left out as a whole is reported
    as a loss at its own path; the others keep their order."""
    tools = trace.preprocessed.get("tools") or []
    lost = _lost_here(trace)
    kept = [i for i in range(len(tools)) if ("tools", i) not in lost]
    schema = trace.tools_schema or []
    if len(kept) != len(schema):
        return [(i, None) for i in range(len(tools))]
    where = dict(zip(kept, range(len(schema))))
    return [(i, where.get(i)) for i in range(len(tools))]


def _draw_tools(g: _Graph, trace: Trace, anchors: _Anchors) -> None:
    tools = trace.preprocessed.get("tools") or []
    schema = trace.tools_schema or []
    g.node("tools_path", [_PATHS[trace.target][1], "the tools path"], _CODE, tags=("tools",))
    g.edge("body", "tools_path", ['body["tools"]'], tags=("tools",))
    for i, k in _tool_pairs(trace):
        path = f"tools[{i}]"
        node_id = _node_id(("tools", i))
        g.node(node_id, _tool_lines(i, tools[i]), _INPUT, tags=(path, "tools"))
        g.edge("tools_path", node_id, tags=(path, "tools"))
        anchors.add(("tools", i), node_id)
        if k is not None:
            label = ["wrapped as a function tool", "input_schema -> parameters"]
            g.edge(node_id, f"schema{k}", label, tags=(path, f"tools_schema[{k}]", "tools"))
    for k, function_tool in enumerate(schema):
        g.node(f"schema{k}", _schema_lines(k, function_tool), _OUTPUT, tags=(f"tools_schema[{k}]", "tools"))
        g.edge(f"schema{k}", "tools_schema", tags=(f"tools_schema[{k}]", "tools"))
    if trace.tools_schema is None:
        summary = "None: no usable tools"
        g.edge("tools_path", "tools_schema", ["no tools to offer"], tags=("tools", "tools_schema"))
    else:
        summary = f"a list of {len(schema)} function tool{'s' * (len(schema) != 1)}"
    g.node("tools_schema", ["tools_schema", summary], _OUTPUT, tags=("tools_schema", "tools"))


def _draw_hand_back(g: _Graph) -> None:
    # The two results travel back together, as the one return value of a method call.
    tags = ("hand_back",)
    g.node("hand_back", ["return (translated, tools_schema)", "one tuple, two items"], _CODE, tags=tags)
    g.edge("translated", "hand_back", tags=tags)
    g.edge("tools_schema", "hand_back", tags=tags)
    g.node("run_turn", ["BaseAdapter._run_turn", "next: _render_token_ids (Action 3)"], _CODE, tags=tags)
    g.edge(
        "hand_back", "run_turn", ["a function return in the same process", "no HTTP request"], tags=tags, penwidth="1.6"
    )


def _loss_lines(loss) -> list[str]:
    return [_where(loss.location), "value " + _one(loss.value, WIDTH - 6), *_prose(loss.reason)]


def _draw_losses(g: _Graph, trace: Trace, anchors: _Anchors) -> None:
    """What stays behind: one grey node per loss, leaving from the place it was dropped."""
    if not trace.losses:
        return
    with g.cluster(
        "cluster_losses",
        ["what stays behind"],
        tags=("losses",),
        style="rounded,dashed",
        color="#9a9a9a",
        fontcolor="#6b6b6b",
    ):
        for n, loss in enumerate(trace.losses):
            g.node(f"loss{n}", _loss_lines(loss), _LOST, tags=("losses", format_location(loss.location)))
    for n, loss in enumerate(trace.losses):
        node_id, cluster = anchors.find(loss.location)
        extra = {"ltail": cluster} if cluster else {}
        g.edge(node_id, f"loss{n}", tags=("losses", format_location(loss.location)), **_LOST_EDGE, **extra)


# ---------------------------------------------------------------------------
# 3. One tool_result, several tool messages


def mixed_result_request() -> dict:
    """A small request whose tool_result mixes text with a tool_reference: the case the
    openai target splits. The assistant searched for tools; the result names one."""
    return {
        "system": [{"type": "text", "text": "你是代码助手。"}],
        "messages": [
            {"role": "user", "content": "找一个能读文件的工具。"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_search", "name": "tool_search", "input": {"query": "read file"}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_search",
                        "content": [
                            {"type": "text", "text": "找到 1 个工具："},
                            {"type": "tool_reference", "tool_name": "read_file"},
                            {"type": "text", "text": "现在可以调用它。"},
                        ],
                    }
                ],
            },
        ],
        "tools": [
            {
                "name": "tool_search",
                "description": "按关键词查找工具",
                "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}},
            },
            {
                "name": "read_file",
                "description": "读取文件",
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
            },
        ],
        "max_tokens": 128,
    }


def _runs(items: list) -> list[list[int]]:
    """Indexes of the non-empty items, grouped into runs of tool_reference / other parts."""
    runs: list[list[int]] = []
    previous = None
    for k, item in enumerate(items):
        if item == "" or (isinstance(item, dict) and item.get("type") == "text" and not item.get("text")):
            continue  # an empty text part is skipped by both targets
        is_reference = isinstance(item, dict) and item.get("type") == "tool_reference"
        if not runs or is_reference != previous:
            runs.append([])
        runs[-1].append(k)
        previous = is_reference
    return runs


def mixed_result_split(trace: Trace) -> str:
    """Each tool_result of the request and the tool messages it became. With the openai
    target a result mixing text and tool_reference parts gives one tool message per run,
    all with the same tool_call_id; with chat_template, one flattened message."""
    split = trace.target == "openai"
    title = (
        "openai target: one tool_result -> one tool message per run, one shared tool_call_id"
        if split
        else "chat_template target: one tool_result -> one tool message (flatten_content)"
    )
    g = _Graph("mixed_result_split", title, None, rankdir="LR", nodesep="0.3", compound="true")
    results = [p for p in trace.produced if _is_tool_result(trace.preprocessed, p.location)]
    if not results:
        g.node("none", ["this request has no tool_result"], _NOTE)
    for n, produced in enumerate(results):
        _draw_one_result(g, trace, n, produced, split)
    if split and results:
        why = [
            "why split: one model family's chat template",
            "expands a tool_reference only when it is",
            "the first part of a tool message",
        ]
        g.node("why", why, _NOTE)
        g.edge(
            "why",
            f"r0_out{results[0].outputs[0]}",
            style="dotted",
            arrowhead="none",
            constraint="false",
            color="#b59b3b",
        )
    return g.text()


def _is_tool_result(body: dict, location: tuple) -> bool:
    try:
        block = _at(body, location)
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(block, dict) and block.get("type") == "tool_result"


def _draw_one_result(g: _Graph, trace: Trace, n: int, produced, split: bool) -> None:
    block = _at(trace.preprocessed, produced.location)
    items = block.get("content")
    path = _where(produced.location)
    lost = _lost_here(trace)
    with g.cluster(
        f"cluster_r{n}", [f"{path} · tool_result", "tool_use_id " + _one(block.get("tool_use_id"))], color="#3d6fa8"
    ):
        if not isinstance(items, list):
            g.node(f"r{n}_p", ["content", *_show(items if items is not None else "")], _INPUT)
            parts = [(f"r{n}_p", None)]
        else:
            parts = []
            kept = {k for run in _runs(items) for k in run}
            for k, item in enumerate(items):
                lines = [f"content[{k}] · {_block_kind(item)}", *_block_lines(item)]
                skipped = k not in kept
                gone = produced.location + ("content", k) in lost
                g.node(
                    f"r{n}_p{k}",
                    lines + (["(empty: skipped)"] if skipped else []),
                    _LOST if skipped or gone else _INPUT,
                )
                parts.append((f"r{n}_p{k}", k))
    outputs = produced.outputs
    with g.cluster(f"cluster_r{n}_out", ["tool messages in translated"], color="#3f8a46"):
        for index in outputs:
            g.node(f"r{n}_out{index}", _message_lines(index, trace.translated[index]), _OUTPUT)

    if not isinstance(items, list):
        for index in outputs:
            g.edge(parts[0][0], f"r{n}_out{index}", _via_label(_unique(produced.via)))
        return
    runs = _runs(items)
    pairs = len(runs) == len(outputs)
    for r, run in enumerate(runs):
        for k in run:
            if produced.location + ("content", k) in lost:
                loss = next(x for x in trace.losses if x.location == produced.location + ("content", k))
                g.node(f"r{n}_lost{k}", [_where(loss.location), *_prose(loss.reason)], _LOST)
                g.edge(f"r{n}_p{k}", f"r{n}_lost{k}", **_LOST_EDGE)
                continue
            targets = [outputs[r]] if pairs else list(outputs)
            kind = (
                "tool_reference"
                if isinstance(items[k], dict) and items[k].get("type") == "tool_reference"
                else "visible parts"
            )
            label = [f"run {r + 1}: {kind}"] if split and pairs else _via_label(_unique(produced.via))
            for index in targets:
                g.edge(f"r{n}_p{k}", f"r{n}_out{index}", label)


# ---------------------------------------------------------------------------
# 4. The tools path, field by field


def _table(title: str, rows: list[tuple[str, str, list[str]]], colour: str, port: str = "head") -> _Html:
    """An HTML-like table: a title row, then (port, key, value lines) rows."""
    cells = [f'<TR><TD COLSPAN="2" PORT="{port}" BGCOLOR="{colour}"><B>{_html(title)}</B></TD></TR>']
    for row_port, key, value in rows:
        text = '<BR ALIGN="LEFT"/>'.join(_html(line) for line in value) + '<BR ALIGN="LEFT"/>'
        cells.append(
            f'<TR><TD ALIGN="LEFT" PORT="{row_port}k">{_html(key)}</TD><TD ALIGN="LEFT" PORT="{row_port}">{text}</TD></TR>'
        )
    return _Html(
        '<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" BGCOLOR="white">'
        + "".join(cells)
        + "</TABLE>"
    )


def _tool_rows(tool: dict) -> tuple[list, dict]:
    """Rows for one tool definition: name, description and input_schema always (absent
    ones say so), then any other field; and a map field -> port, for the loss edges."""
    rows, ports = [], {}
    for n, key in enumerate(
        ["name", "description", "input_schema"] + [k for k in tool if k not in ("name", "description", "input_schema")]
    ):
        port = f"f{n}"
        value = _show(tool[key], 30, 3 if key == "input_schema" else 2) if key in tool else ["(absent)"]
        rows.append((port, _name(key, 16), value))
        ports[key] = port
    return rows, ports


def tools_path(trace: Trace) -> str:
    """The tools path alone: each tool definition and the function tool it became, field
    by field (name and description kept, input_schema renamed parameters)."""
    tools = trace.preprocessed.get("tools") or []
    title = f"The tools path ({trace.target} target): available tools -> function tools"
    g = _Graph("tools_path", title, None, rankdir="LR", nodesep="0.4", ranksep="1.1")
    g.node("entry", ['body["tools"]', _PATHS[trace.target][1]], _CODE)
    schema = trace.tools_schema or []
    for i, k in _tool_pairs(trace):
        rows, ports = _tool_rows(tools[i])
        g.node(f"tool{i}", _table(f"tools[{i}]", rows, "#d6e6f7"), {})
        g.edge("entry", f"tool{i}:head")
        for n, loss in enumerate(x for x in trace.losses if x.location[:2] == ("tools", i)):
            field_port = ports.get(loss.location[2]) if len(loss.location) > 2 else None
            g.node(f"tool{i}_lost{n}", _loss_lines(loss), _LOST)
            g.edge(f"tool{i}:{field_port or 'head'}:e", f"tool{i}_lost{n}", **_LOST_EDGE)
        if k is not None:
            _draw_function_tool(g, i, k, tools[i], schema[k])
    if trace.tools_schema is None:
        g.node("none", ["tools_schema = None", "no usable tools"], _OUTPUT)
        g.edge("entry", "none")
    return g.text()


def _draw_function_tool(g: _Graph, i: int, k: int, tool: dict, function_tool: dict) -> None:
    function = function_tool.get("function") or {}
    rows = [
        ("type", "type", _show(function_tool.get("type"))),
        ("name", "function.name", _show(function.get("name"))),
        ("description", "function.description", _show(function.get("description"))),
        ("parameters", "function.parameters", _show(function.get("parameters"), 30, 3)),
    ]
    g.node(f"fn{k}", _table(f"tools_schema[{k}]", rows, "#d5ecd5"), {})
    _, ports = _tool_rows(tool)
    g.edge(f"tool{i}:head:e", f"fn{k}:typek:w", ["wrapped: {type: function,", "function: {...}}"], color="#3f8a46")
    g.edge(f"tool{i}:{ports['name']}:e", f"fn{k}:namek:w", ["kept"])
    described = "kept" if tool.get("description") else 'absent -> ""'
    g.edge(f"tool{i}:{ports['description']}:e", f"fn{k}:descriptionk:w", [described])
    renamed = "renamed parameters" if tool.get("input_schema") is not None else "absent -> an empty object schema"
    g.edge(
        f"tool{i}:{ports['input_schema']}:e",
        f"fn{k}:parametersk:w",
        [renamed],
        color="#d4860b",
        fontcolor="#a15f00",
        penwidth="1.8",
    )


# ---------------------------------------------------------------------------
# Rendering, for notebooks and for the committed files

INSTALL_HINT = (
    "Graphviz's `dot` program was not found, so the diagram is shown as DOT source. Install Graphviz "
    "(Debian/Ubuntu: apt-get install graphviz · macOS: brew install graphviz · Windows: winget install "
    "graphviz or choco install graphviz), then restart the kernel."
)
PACKAGE_HINT = (
    "The `graphviz` Python package is not installed, so the diagram is shown as DOT source: pip install graphviz"
)


def render_svg(dot: str) -> str:
    """DOT -> SVG text. Needs the `graphviz` package and Graphviz's `dot` program
    (raises graphviz.ExecutableNotFound without it; `show` catches that)."""
    import graphviz  # only here: `import tutorial` must not need it

    return graphviz.Source(dot).pipe(format="svg", encoding="utf-8")


class Picture:
    """A rendered diagram; Jupyter displays it as SVG."""

    def __init__(self, dot: str, svg: str):
        self.dot, self.svg = dot, svg

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        # Stored as a notebook's text output, so nothing here may vary between Graphviz
        # versions (the SVG's size does): only the graph's name.
        return f"<{self.dot.split('{', 1)[0].strip()}, rendered as SVG>"


class DotText:
    """A diagram that could not be rendered: one line on what to install, then the DOT."""

    def __init__(self, dot: str, hint: str):
        self.dot, self.hint = dot, hint

    def __repr__(self) -> str:
        return f"{self.hint}\n\n{self.dot}"

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # IPython's plain-text display
        printer.text(repr(self))


def show(dot: str):
    """For notebooks: the diagram as SVG, or — without Graphviz — its DOT text and how
    to install Graphviz. Never raises for a missing `dot` program."""
    try:
        import graphviz
    except ImportError:
        return DotText(dot, PACKAGE_HINT)
    try:
        return Picture(dot, render_svg(dot))
    except graphviz.ExecutableNotFound:
        return DotText(dot, INSTALL_HINT)


def sources() -> dict[str, str]:
    """File stem -> DOT text of every committed diagram (all from the README example,
    except the split, which needs a mixed tool_result)."""
    readme = readme_request()
    chat, openai = _trace(readme), _trace(readme, target="openai")
    return {
        "vertical_flow": vertical_flow(),
        "local_flow_chat_template": local_flow(chat),
        "local_flow_openai": local_flow(openai),
        "tools_path": tools_path(chat),
        "mixed_result_split": mixed_result_split(_trace(mixed_result_request(), target="openai")),
    }


def write_all(out_dir: str | Path = "diagrams", *, svg: bool | None = None) -> list[Path]:
    """Write every diagram's `.dot` and `.svg` into `out_dir`; return the paths written.

    `svg=None` renders when the `dot` program is on PATH and skips the SVGs otherwise;
    True insists (an error without `dot`); False writes the DOT sources only.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    render = shutil.which("dot") is not None if svg is None else svg
    written = []
    for stem, dot in sources().items():
        written.append(out / f"{stem}.dot")
        written[-1].write_text(dot, encoding="utf-8", newline="\n")  # same bytes on every OS
        if render:
            written.append(out / f"{stem}.svg")
            written[-1].write_text(render_svg(dot), encoding="utf-8", newline="\n")
    return written
