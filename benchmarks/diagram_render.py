"""How long does a picture take, and does a long request cost more than the README example?

In one run, on this machine:

1. The local flow of the README example, of a 1,000- and of a 5,000-message agent request
   (tutorial.examples.agent_request): building the DOT from the trace, and
   building + rendering it with Graphviz's `dot` (a subprocess, start-up included); each
   as a ratio to the README example's. The trace itself is timed apart: it is the
   lesson's recording walk, linear in the request, and is taken once per request
   whether or not a picture is drawn.
2. Building the DOT per message at 500 / 2,000 / 8,000 messages: flat when building is
   linear in the request (no per-message scan of all steps).

Medians of several runs. Run: python benchmarks/diagram_render.py   (needs `dot` for part 1)
"""

from __future__ import annotations

import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorial import readme_request, trace  # noqa: E402
from tutorial.pictures import local_flow, render_svg, svg_size  # noqa: E402
from tutorial.examples import agent_request  # noqa: E402
from tutorial.pictures.render import INSTALL_HINT  # noqa: E402


def median_ms(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def pictures(repeat: int) -> None:
    cases = {
        "README example": readme_request(),
        "1,000-message agent request": agent_request(1000),
        "5,000-message agent request": agent_request(5000),
    }
    print(f"Local flow, median of {repeat} runs (ratios to the README example's)")
    print(f"  {'request':30} {'trace':>9} {'build DOT':>10} {'build+render':>13} {'× README':>9} {'width':>7}")
    base = None
    for name, body in cases.items():
        traced = trace(body)
        render_svg(local_flow(traced))  # warm up: the OS caches `dot`, Python its code
        traced_ms = median_ms(lambda: trace(body), max(3, repeat // 4))
        built = median_ms(lambda: local_flow(traced), repeat)
        total = median_ms(lambda: render_svg(local_flow(traced)), repeat)
        base = base or total
        width = svg_size(render_svg(local_flow(traced)))[0]
        print(f"  {name:30} {traced_ms:7.1f}ms {built:8.2f}ms {total:11.1f}ms {total / base:8.2f}× {width:5.0f}px")


def per_message(repeat: int) -> None:
    print(f"\nBuilding the DOT (trace taken beforehand), median of {repeat} runs")
    print(f"  {'messages':>9} {'build DOT':>10} {'per message':>12}")
    for count in (500, 2000, 8000):
        traced = trace(agent_request(count))
        local_flow(traced)
        built = median_ms(lambda: local_flow(traced), repeat)
        print(f"  {count:9,} {built:8.2f}ms {built * 1e3 / count:9.2f} µs")


def main(repeat: int = 15) -> None:
    if shutil.which("dot") is None:
        print(INSTALL_HINT + " Skipping the rendering part.")
    else:
        pictures(repeat)
    per_message(repeat)


if __name__ == "__main__":
    main()
