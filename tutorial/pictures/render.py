"""Rendering: DOT -> SVG with Graphviz's `dot`, and what a notebook displays.

    render_svg(dot)   SVG text (needs the `graphviz` package and the `dot` program)
    show(dot)         a `Picture` (SVG) for Jupyter, or — without Graphviz — a `DotText`:
                      the DOT source and one line on what to install
    svg_size(svg)     (width, height) in CSS pixels, as JupyterLab shows it at 100 %

The `graphviz` package is imported only inside `render_svg` and `show`, which keeps
`import tutorial` free of it.
"""

from __future__ import annotations

import re

from ..words import current

INSTALL_HINT = (
    "Graphviz's `dot` program was not found, so the diagram is shown as DOT source. Install Graphviz "
    "(Debian/Ubuntu: apt-get install graphviz · macOS: brew install graphviz · Windows: winget install "
    "graphviz or choco install graphviz), then restart the kernel."
)
PACKAGE_HINT = "The `graphviz` Python package is not installed, so the diagram is shown as DOT source: pip install graphviz"
HINTS = {
    "en": {"install": INSTALL_HINT, "package": PACKAGE_HINT},
    "zh": {
        "install": "没有找到 Graphviz 的 `dot` 程序，所以这里显示流程图的 DOT 源码。安装 Graphviz 之后重启 kernel 就能看到"
        "流程图，Debian/Ubuntu 用 apt-get install graphviz，macOS 用 brew install graphviz，Windows 用 "
        "winget install graphviz 或 choco install graphviz。",
        "package": "没有安装 Python 包 `graphviz`，所以这里显示流程图的 DOT 源码，运行 pip install graphviz 安装之后就能看到流程图",
    },
}


def render_svg(dot: str) -> str:
    """DOT -> SVG text. Needs the `graphviz` package and Graphviz's `dot` program
    (raises graphviz.ExecutableNotFound without it; `show` catches that)."""
    import graphviz  # only here: `import tutorial` must not need it

    return graphviz.Source(str(dot)).pipe(format="svg", encoding="utf-8")


def svg_size(svg: str) -> tuple[float, float]:
    """The SVG's intrinsic size in CSS pixels (Graphviz writes points: 1 pt = 4/3 px)."""
    found = re.search(r'<svg[^>]*?width="([\d.]+)pt"[^>]*?height="([\d.]+)pt"', svg, re.DOTALL)
    if not found:
        raise ValueError("no width/height in points on the <svg> element")
    return float(found.group(1)) * 4 / 3, float(found.group(2)) * 4 / 3


class Picture:
    """A rendered diagram; Jupyter displays it as SVG. `collapsed` lists the runs the
    picture drew as one summary row (see `dot.Collapsed`); empty when all is drawn."""

    def __init__(self, dot: str, svg: str):
        self.dot, self.svg = dot, svg
        self.collapsed = getattr(dot, "collapsed", ())

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
        self.collapsed = getattr(dot, "collapsed", ())

    def __repr__(self) -> str:
        return f"{self.hint}\n\n{self.dot}"

    def _repr_pretty_(self, printer, cycle: bool) -> None:  # IPython's plain-text display
        printer.text(repr(self))


def show(dot: str):
    """For notebooks: the diagram as SVG, or — without Graphviz — its DOT text and how
    to install Graphviz (in the current language). Never raises for a missing `dot` program."""
    hints = HINTS[current()]
    try:
        import graphviz
    except ImportError:
        return DotText(dot, hints["package"])
    try:
        return Picture(dot, render_svg(dot))
    except graphviz.ExecutableNotFound:
        return DotText(dot, hints["install"])
