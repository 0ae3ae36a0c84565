"""The one DOT writer every picture uses, and the one place that escapes label text.

Pictures never write DOT syntax themselves: they add nodes, edges, clusters and tables
to a `Graph`, which writes statements in the order they were added (so the same input
always gives the same text) and escapes every piece of text on its way out:

    escape(text)        text inside a quoted DOT string: "label=..."
    escape_html(text)   text inside an HTML-like label (a table cell)

Both first make hidden characters visible (text.visible), then escape what Graphviz
would read as syntax. In a quoted string Graphviz reads `\\n`, `\\l`, `\\N`, `\\G`
... as line breaks or the node's or graph's name, `&name;` as an entity, and `"` ends
the string. In an HTML-like label `<`, `>`, `&` and `"` are markup, and Graphviz still
reads backslash escapes (a tool key `k\\N` would be drawn as the node's name): the
backslash is doubled there too. `tests/test_diagrams.py` renders hostile text with the
real `dot` and compares what it drew.

A built graph is a `Dot`: the DOT text itself (a `str`), plus `.collapsed`, what the
picture drew as a summary row instead of one box per item.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple, Optional

from .text import visible

# A font with Chinese glyphs, so the README example's text renders as text, not boxes.
# (Debian/Ubuntu: fonts-wqy-microhei; elsewhere fontconfig substitutes what it has.)
FONT = "WenQuanYi Micro Hei"
NODE_FONT_SIZE = "11"  # points; × 4/3 = 14.7 px at 100 %
EDGE_FONT_SIZE = "10"  # 13.3 px
TITLE_FONT_SIZE = "14"


def escape(text: str) -> str:
    """`text` made safe inside a quoted DOT string, drawn exactly as given."""
    return visible(text).replace("&", "&amp;").replace("\\", "\\\\").replace('"', '\\"')


def escape_html(text: str) -> str:
    """`text` made safe inside an HTML-like label, drawn exactly as given."""
    text = visible(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    return text.replace("\\", "\\\\")


# ---------------------------------------------------------------------------
# Colours: blue for the Anthropic side, green for what the chat template gets, grey for
# code and for what stays behind, amber for whatever a notebook asks to light up.

CODE = {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4f4f4", "color": "#6b6b6b"}
INPUT = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eaf2fb", "color": "#3d6fa8"}
OUTPUT = {"shape": "box", "style": "rounded,filled", "fillcolor": "#eaf6ea", "color": "#3f8a46"}
LOST = {"shape": "box", "style": "rounded,filled,dashed", "fillcolor": "#fafafa", "color": "#9a9a9a", "fontcolor": "#6b6b6b"}
SUMMARY_IN = {**INPUT, "style": "rounded,filled,dashed", "fillcolor": "#f5f9fe"}  # a collapsed run
SUMMARY_OUT = {**OUTPUT, "style": "rounded,filled,dashed", "fillcolor": "#f6fbf6"}
NOTE = {"shape": "note", "style": "filled", "fillcolor": "#fffbea", "color": "#b59b3b"}
EQUAL = {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#d5ecd5", "color": "#3f8a46"}
UNEQUAL = {"shape": "box", "style": "rounded,filled,bold", "fillcolor": "#fdecea", "color": "#b3261e"}
LOST_EDGE = {"style": "dashed", "color": "#9a9a9a", "fontcolor": "#6b6b6b", "arrowhead": "empty"}
LIT_FILL = "#fff1b8"
LIT_NODE = {"fillcolor": LIT_FILL, "color": "#d4860b", "penwidth": "2.6"}
LIT_EDGE = {"color": "#d4860b", "fontcolor": "#a15f00", "penwidth": "2.6"}
LIT_CLUSTER = {"bgcolor": "#fff8dc", "pencolor": "#d4860b", "penwidth": "2.6"}
BLUE, GREEN, GREY, AMBER = "#3d6fa8", "#3f8a46", "#6b6b6b", "#d4860b"
LIGHT_BLUE, LIGHT_GREEN = "#d6e6f7", "#d5ecd5"


# ---------------------------------------------------------------------------
# What a picture is


def span(where: str, first: int, last: int) -> str:
    """"messages[3..962]", or "messages[3]" for a run of one."""
    return f"{where}[{first}]" if first == last else f"{where}[{first}..{last}]"


class Collapsed(NamedTuple):
    """A run of items a picture drew as one summary box: `where[first..last]`, and the
    `outputs` range (first, last) of `translated` it gave, when it gave any."""

    where: str  # "messages", "messages[3].content", "tools", "translated", ...
    first: int
    last: int
    outputs: Optional[tuple[int, int]] = None

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    @property
    def path(self) -> str:
        return span(self.where, self.first, self.last)


class Dot(str):
    """DOT source (use it as a `str`), with `.collapsed`: the runs drawn as one summary
    box each, in drawing order (empty when everything is drawn)."""

    collapsed: tuple[Collapsed, ...]

    def __new__(cls, text: str, collapsed=()):
        self = super().__new__(cls, text)
        self.collapsed = tuple(collapsed)
        return self

    @property
    def name(self) -> str:
        return self.split("{", 1)[0].replace("digraph", "").strip()


class Left(list):
    """Label lines aligned left rather than centred."""


class Html(str):
    """A label that is already Graphviz HTML (built by `table`): written as <...>."""


def table(title: str, rows: list[tuple[str, str, list[str]]], colour: str, port: str = "head") -> Html:
    """An HTML-like table: a title row, then one row per (port, key, value lines). The
    key cell's port is `port + "k"`; every text is escaped here."""
    cells = [f'<TR><TD COLSPAN="2" PORT="{_port(port)}" BGCOLOR="{colour}"><B>{escape_html(title)}</B></TD></TR>']
    for row_port, key, value in rows:
        text = "".join(escape_html(line) + '<BR ALIGN="LEFT"/>' for line in value)
        cells.append(
            f'<TR><TD ALIGN="LEFT" PORT="{_port(row_port)}k">{escape_html(key)}</TD>'
            f'<TD ALIGN="LEFT" PORT="{_port(row_port)}">{text}</TD></TR>'
        )
    return Html('<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4" BGCOLOR="white">' + "".join(cells) + "</TABLE>")


class Cell(NamedTuple):
    """One cell of a `box`: label lines (the first in bold when `bold`), an optional port
    for edges, and how it looks."""

    lines: list
    port: Optional[str] = None
    colspan: int = 1
    align: str = "LEFT"
    bold: bool = False
    colour: Optional[str] = None  # text colour
    fill: Optional[str] = None  # background
    size: Optional[str] = None  # point size, when smaller than the node's
    rule: bool = False  # a line above the cell


def box(rows: list[list[Cell]], style: dict, lit_: bool = False, dashed: bool = False) -> Html:
    """A rounded box made of rows of cells (an HTML-like table): a message and its blocks,
    one row each, with a port per block for the edges. Every text is escaped here."""
    border, fill = (LIT_NODE["color"], LIT_NODE["fillcolor"]) if lit_ else (style["color"], style["fillcolor"])
    width = "3" if lit_ else "1"
    head = (
        f'<TABLE BORDER="{width}" COLOR="{border}" CELLBORDER="0" CELLSPACING="0" CELLPADDING="4" '
        f'BGCOLOR="{fill}" STYLE="ROUNDED{",DASHED" if dashed else ""}">'
    )
    body = []
    for row in rows:
        cells = []
        for cell in row:
            attrs = f' ALIGN="{cell.align}" BALIGN="{cell.align}"'
            if cell.port:
                attrs += f' PORT="{_port(cell.port)}"'
            if cell.colspan > 1:
                attrs += f' COLSPAN="{cell.colspan}"'
            if cell.fill:
                attrs += f' BGCOLOR="{cell.fill}"'
            if cell.rule:
                attrs += ' SIDES="T" BORDER="1" COLOR="' + border + '"'
            lines = [escape_html(line) for line in cell.lines]
            if cell.bold and lines and lines[0]:  # an empty <B></B>, like an empty <FONT>, is an error
                lines[0] = f"<B>{lines[0]}</B>"
            text = "<BR/>".join(lines)
            if (cell.colour or cell.size) and text:  # an empty <FONT></FONT> is a syntax error
                font = (f' COLOR="{cell.colour}"' if cell.colour else "") + (f' POINT-SIZE="{cell.size}"' if cell.size else "")
                text = f"<FONT{font}>{text}</FONT>"
            cells.append(f"<TD{attrs}>{text}</TD>")
        body.append("<TR>" + "".join(cells) + "</TR>")
    return Html(head + "".join(body) + "</TABLE>")


_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(:[A-Za-z0-9_]+){0,2}\Z")


def _port(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise ValueError(f"not a port name: {name!r}")
    return name


def _id(node_id: str) -> str:
    """Node ids are made by the pictures, never taken from a request; checked anyway."""
    if not _ID.match(node_id):
        raise ValueError(f"not a node id: {node_id!r}")
    return node_id


def label(lines: list[str]) -> str:
    """Quoted label text: lines centred, or aligned left for a `Left` list."""
    if isinstance(lines, Left):
        return '"' + "".join(escape(line) + "\\l" for line in lines) + '"'
    return '"' + "\\n".join(escape(line) for line in lines) + '"'


def quote(value: str) -> str:
    """An attribute value (a colour, a style): quoted, with quotes and backslashes escaped."""
    return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'


def lit(tags: tuple, wanted: Optional[str]) -> bool:
    """True when a tag names `wanted` or lies under it ("messages[2]" covers
    "messages[2].content[0]" but not "messages[20]")."""
    if wanted is None:
        return False
    return any(tag == wanted or tag.startswith((wanted + ".", wanted + "[")) for tag in tags)


class Graph:
    """Statements in the order they are added. Each element may carry tags (stage names,
    paths); the one `highlight` names lights up every element whose tags match it."""

    def __init__(self, name: str, title: list[str], highlight: Optional[str] = None, **attrs: str):
        self.highlight = highlight
        self.matched = False
        self.collapsed: list[Collapsed] = []
        self.lines = [f"digraph {_id(name)} {{"]
        self.indent = "  "
        graph = {"label": title, "labelloc": "t", "fontname": FONT, "fontsize": TITLE_FONT_SIZE, "newrank": "true", **attrs}
        self._statement("graph", graph)
        self._statement("node", {"fontname": FONT, "fontsize": NODE_FONT_SIZE, "margin": "0.12,0.06"})
        # `arrowhead` is declared first, before any edge sets it: Graphviz 2.43 otherwise
        # reads another attribute (a port, the font) as the arrow type of edges that
        # leave from a table's port, and warns "Arrow type ... unknown".
        edge = {"arrowhead": "normal", "fontname": FONT, "fontsize": EDGE_FONT_SIZE, "color": "#555555"}
        self._statement("edge", edge)

    @staticmethod
    def _attributes(attrs: dict) -> str:
        parts = []
        for key, value in attrs.items():
            if isinstance(value, Html):
                parts.append(f"{key}=<{value}>")
            elif isinstance(value, list):  # label lines
                parts.append(f"{key}={label(value)}")
            else:
                parts.append(f"{key}={quote(value)}")
        return ", ".join(parts)

    def _statement(self, head: str, attrs: dict) -> None:
        self.lines.append(f"{self.indent}{head} [{self._attributes(attrs)}];")

    def lights(self, tags: tuple) -> bool:
        found = lit(tags, self.highlight)
        self.matched |= found
        return found

    def node(self, node_id: str, label_: Any, style: dict, tags: tuple = ()) -> None:
        attrs = {"label": label_, **style}
        if isinstance(label_, Html):
            attrs.update(shape="plain")  # the table draws its own borders
        if self.lights(tags):
            attrs.update(LIT_NODE)
        self._statement(_id(node_id), attrs)

    def edge(self, tail: str, head: str, label_: Optional[list[str]] = None, tags: tuple = (), **attrs: str) -> None:
        attrs = {"label": label_, **attrs} if label_ else dict(attrs)
        if self.lights(tags):
            attrs.update(LIT_EDGE)
        statement = f"{self.indent}{_id(tail)} -> {_id(head)}"
        self.lines.append(statement + (f" [{self._attributes(attrs)}];" if attrs else ";"))

    @contextmanager
    def cluster(self, cluster_id: str, title: list[str], tags: tuple = (), **attrs: str) -> Iterator[None]:
        self.lines.append(f"{self.indent}subgraph {_id(cluster_id)} {{")
        self.indent += "  "
        attrs = {"label": title, "labeljust": "l", "style": "rounded", "color": "#b0b0b0", **attrs}
        if self.lights(tags):
            attrs.update(LIT_CLUSTER)
        self._statement("graph", attrs)
        yield
        self.indent = self.indent[:-2]
        self.lines.append(f"{self.indent}}}")

    def set(self, node_id: str, **attrs: str) -> None:
        """More attributes for a node already added (a statement of its own)."""
        self._statement(_id(node_id), attrs)

    def same_rank(self, *node_ids: str) -> None:
        if len(node_ids) > 1:
            self.lines.append(f"{self.indent}{{ rank=same; {'; '.join(map(_id, node_ids))}; }}")

    def order(self, node_ids: list[str]) -> None:
        """Keep these nodes in this order: down a column of a top-to-bottom graph, or
        (with `column`) down one rank of a left-to-right graph. One short statement per
        pair: a long `a -> b -> c ...` chain is one statement, and Graphviz's parser
        overflows on a few thousand."""
        for upper, lower in zip(node_ids, node_ids[1:]):
            self.edge(upper, lower, style="invis")

    def column(self, node_ids: list[str]) -> None:
        """In a left-to-right graph: these nodes in one rank (a column). Inside a cluster
        they keep the order they were added in (with mclimit=0); outside, add `order`."""
        self.same_rank(*node_ids)

    def note_collapsed(self, run: Collapsed) -> None:
        self.collapsed.append(run)

    def text(self, known: tuple = ()) -> Dot:
        if self.highlight is not None and not self.matched and self.highlight not in known:
            raise ValueError(f"nothing called {self.highlight!r} in this diagram; stages: {', '.join(known)}, or a path")
        return Dot("\n".join(self.lines + ["}"]) + "\n", self.collapsed)


class Rows:
    """A top-to-bottom picture in two columns: inputs down the left, what each gives down
    the right, each on the same row as its input. Add rows in order, then `finish`.
    (Graphviz keeps flat edges left to right only between nodes outside clusters, so the
    boxes of a row are plain nodes; a `group` keeps each column straight.)"""

    def __init__(self, g: Graph):
        self.g = g
        self.left: list[str] = []
        self.right: list[str] = []
        self.pairs: list[tuple[str, str]] = []

    def add(self, left_id: Optional[str], right_id: Optional[str] = None) -> None:
        if left_id is not None:
            self.left.append(left_id)
        if right_id is not None:
            self.right.append(right_id)
        if left_id is not None and right_id is not None:
            self.pairs.append((left_id, right_id))

    def headings(self, ids: tuple[str, str], left: str, right: str, right_tags: tuple = (), colours=(BLUE, GREEN)) -> None:
        """Column headings: what the inputs are, and the list the outputs make."""
        heading = {"shape": "box", "style": "filled", "color": "white", "fillcolor": "white"}
        self.g.node(ids[0], [left], {**heading, "fontcolor": colours[0]})
        self.g.node(ids[1], [right], {**heading, "fontcolor": colours[1]}, tags=right_tags)
        self.add(*ids)

    def finish(self) -> None:
        for column, name in ((self.left, "left"), (self.right, "right")):
            for node_id in column:
                self.g.set(node_id, group=name)
            self.g.order(column)
        for left_id, right_id in self.pairs:
            self.g.same_rank(left_id, right_id)
            self.g.edge(left_id, right_id, style="invis")  # the input on the left
