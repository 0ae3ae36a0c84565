"""Graphviz pictures drawn from a trace: the whole turn, the flow of one request, the
tools path, the split of a mixed tool result, and the way back. Every builder returns a
`Dot` (DOT source as a `str`, plus `.collapsed`: the runs of a long request drawn as one
summary row); `show(dot)` renders it for a notebook (or, without Graphviz, shows its
DOT text and how to install it); `python -m tutorial.pictures DIR` regenerates the
committed `diagrams/`.

    dot.py        the graph writer every picture uses, and the one label-escaping API
    text.py       request text made short and visible (bounded, never raises)
    captions.py   every caption and title, per language (lang="en" or "zh")
    reading.py    a trace indexed once: pieces, outputs, runs to collapse
    turn.py       vertical_flow: the whole turn, where Action 2 sits
    flow.py       local_flow: one request, one row per message with what it gives
                  (focus=True: one message in close-up, the rest as summary rows)
    tools.py      tools_path: tool definitions -> function tools, field by field
    split.py      mixed_result_split: one tool_result -> tool messages
    way_back.py   reply_flow, echo_flow, wire_flow: Action 3.5 and back to the wire
    families.py   families_picture: one message list through every family's real template
    render.py     render_svg, show, svg_size
    committed.py  sources, write_all: the files in diagrams/

Every picture is at most about 960 px wide at 100 % (tests/test_diagrams.py checks the
committed ones), with text of at least 13 px.

May import: the lesson and `watch/`. Graphviz itself loads only when a picture is rendered.
"""

from .captions import CAPTIONS
from .committed import sources, write_all
from .dot import FONT, Collapsed, Dot, escape, escape_html
from .flow import HELPERS, LOCAL_STAGES, local_flow
from .render import INSTALL_HINT, DotText, Picture, render_svg, show, svg_size
from .split import mixed_result_request, mixed_result_split
from .tools import tools_path
from .turn import STAGES, vertical_flow

__all__ = [
    "CAPTIONS",
    "FONT",
    "HELPERS",
    "INSTALL_HINT",
    "LOCAL_STAGES",
    "STAGES",
    "Collapsed",
    "Dot",
    "DotText",
    "Picture",
    "escape",
    "escape_html",
    "local_flow",
    "mixed_result_request",
    "mixed_result_split",
    "render_svg",
    "show",
    "sources",
    "svg_size",
    "tools_path",
    "vertical_flow",
    "write_all",
]
