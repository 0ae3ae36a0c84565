"""What does Action 2 cost next to reading the request at all?

Builds agent-style requests of about 0.05, 0.5 and 5 MB (turns of text, thinking with
signatures, tool_use and tool_result, and 30 tools), then measures in one run, on the
same bytes:

    json.loads                      the baseline every server pays
    json.loads + translate          validation included, each target
    translate_json                  the bytes entry point (reading included)
    json.loads + trace              the recording walk used by notebooks and playground

and prints each as a ratio to json.loads of that size (flat ratios mean linear cost),
then the peak memory of translate and trace as a ratio to the parsed body's own.
Run: python benchmarks/translate_cost.py
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tutorial import trace, translate, translate_json  # noqa: E402
from tutorial.examples import agent_request  # noqa: E402


def best_of(function, raw: bytes, repeat: int) -> float:
    """Median seconds of `repeat` runs (the median resists a busy neighbour core)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(raw)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


CASES = {
    "json.loads": json.loads,
    "json.loads + translate (chat_template)": lambda r: translate(json.loads(r)),
    "json.loads + translate (openai)": lambda r: translate(json.loads(r), target="openai"),
    "translate_json (bytes, chat_template)": translate_json,
    "json.loads + trace (chat_template)": lambda r: trace(json.loads(r)),
}
SIZES = {"0.05 MB": 40, "0.5 MB": 400, "5 MB": 4000}  # turns


def peak_bytes(function, *arguments) -> int:
    tracemalloc.start()
    try:
        function(*arguments)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main(repeat: int = 40) -> dict:
    results = {}
    for label, turns in SIZES.items():
        raw = json.dumps(agent_request(turns), ensure_ascii=False).encode()
        runs = max(5, repeat * 400 // turns)  # about the same total time per size
        for function in CASES.values():  # warm up: pydantic builds its validators lazily
            function(raw)
        seconds = {name: best_of(function, raw, runs) for name, function in CASES.items()}
        results[label] = seconds
        base = seconds["json.loads"]
        print(f"{label}: {len(raw) / 1e6:.2f} MB, {len(json.loads(raw)['messages'])} messages, median of {runs} runs")
        for name, value in seconds.items():
            print(f"  {name:<42} {value * 1e3:8.2f} ms   {value / base:5.2f}x json.loads")
        translated, traced = seconds["json.loads + translate (chat_template)"], seconds["json.loads + trace (chat_template)"]
        print(f"  trace / translate, json.loads in both       {traced / translated:5.2f}x")
    raw = json.dumps(agent_request(400), ensure_ascii=False).encode()
    body_peak = peak_bytes(json.loads, raw)
    body = json.loads(raw)
    print("peak memory (0.5 MB body), as a ratio to the parsed body's own peak:")
    print(f"  json.loads                 {body_peak / 1e6:6.2f} MB   1.00x")
    for name, function in {"translate": translate, "trace": trace}.items():
        peak = peak_bytes(function, body)
        print(f"  {name:<26} {peak / 1e6:6.2f} MB   {peak / body_peak:4.2f}x")
    return results


if __name__ == "__main__":
    main()
