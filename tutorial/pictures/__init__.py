"""Graphviz pictures drawn from a trace: the flow of one request, the tools path, the
split of a mixed tool result, and the way back. `show(dot)` renders a picture for a
notebook (or, without Graphviz, shows its DOT text and how to install it);
`python -m tutorial.pictures DIR` regenerates the committed `diagrams/`.

May import: the lesson and `watch/`. Graphviz itself loads only when a picture is rendered.
"""

from .flow import local_flow, mixed_result_request, mixed_result_split, show, sources, tools_path, vertical_flow, write_all

__all__ = ["local_flow", "mixed_result_request", "mixed_result_split", "show", "sources", "tools_path", "vertical_flow", "write_all"]
