"""The committed pictures in `diagrams/`: their DOT (golden files for the tests) and,
where Graphviz is installed, their SVG. `python -m tutorial.pictures [DIR]` writes them.

All are drawn from the README example, except the split (it needs a mixed tool_result)
and the long request (a 1,000-message agent session, drawn with runs collapsed);
`local_flow_focus` is the README example's messages[2] in close-up (focus=True).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from ..examples import agent_request, readme_request
from ..watch.trace import trace
from .flow import local_flow
from .render import render_svg
from .split import mixed_result_request, mixed_result_split
from .tools import tools_path
from .turn import vertical_flow


def sources() -> dict[str, str]:
    """File stem -> DOT text of every committed diagram."""
    readme = readme_request()
    chat, openai = trace(readme), trace(readme, target="openai")
    return {
        "vertical_flow": vertical_flow(),
        "local_flow_chat_template": local_flow(chat),
        "local_flow_openai": local_flow(openai),
        "tools_path": tools_path(chat),
        "mixed_result_split": mixed_result_split(trace(mixed_result_request(), target="openai")),
        "local_flow_long_request": local_flow(trace(agent_request(1000)), highlight="messages[500]"),
        "local_flow_focus": local_flow(chat, highlight="messages[2]", focus=True),
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
