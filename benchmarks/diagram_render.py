"""How long does a notebook wait for the README example's data-flow picture?

One run = trace the request, build the local-flow DOT, render it to SVG with Graphviz's
`dot` (a subprocess, so its start-up is included). Prints the median of 20 runs and,
for scale, the same without the rendering. Target: under 100 ms in total.

Run: python benchmarks/diagram_render.py   (needs the `dot` program)
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorial import readme_request, trace
from tutorial.pictures.flow import INSTALL_HINT, local_flow, render_svg

TARGET_MS = 100


def median_ms(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main(repeat: int = 20) -> float:
    if shutil.which("dot") is None:
        print(INSTALL_HINT)
        return float("nan")
    body = readme_request()
    build = lambda: local_flow(trace(body))
    build_and_render = lambda: render_svg(local_flow(trace(body)))
    build_and_render()  # warm up: pydantic builds its validators lazily, the OS caches `dot`
    built = median_ms(build, repeat)
    total = median_ms(build_and_render, repeat)
    verdict = "within" if total < TARGET_MS else "OVER"
    print(f"README example, local flow, median of {repeat} runs")
    print(f"  trace + build DOT            {built:7.2f} ms")
    print(f"  trace + build DOT + dot SVG  {total:7.2f} ms   ({verdict} the {TARGET_MS} ms target)")
    return total


if __name__ == "__main__":
    main()
