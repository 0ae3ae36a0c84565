"""What does `import tutorial` cost a program that uses it?

Each sample starts a fresh interpreter and times one import in it (time.perf_counter around
the import statement, so interpreter start-up is not counted). The three imports — `json`
(the standard library's own scale), `pydantic` (the package's only real dependency) and
`tutorial` — take turns in every round, so a busy neighbour slows all three alike; the
figure is the median of each, and `tutorial` as a ratio to the other two, from one run.

Run: python benchmarks/import_time.py [ROUNDS]    (default 15 rounds)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("json", "pydantic", "tutorial")
PROBE = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"


def once(module: str) -> float:
    result = subprocess.run([sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True, cwd=ROOT, check=True)
    return float(result.stdout)


def main(rounds: int = 15) -> dict[str, float]:
    for module in MODULES:  # warm the OS file cache and the bytecode caches
        once(module)
    samples: dict[str, list[float]] = {module: [] for module in MODULES}
    for _ in range(rounds):
        for module in MODULES:
            samples[module].append(once(module))
    median = {module: statistics.median(times) * 1e3 for module, times in samples.items()}
    print(f"import time in a fresh interpreter, median of {rounds} rounds (Python {sys.version.split()[0]})")
    for module in MODULES:
        print(f"  import {module:<10} {median[module]:8.2f} ms")
    print(f"  import tutorial = {median['tutorial'] / median['json']:.1f} x import json"
          f" = {median['tutorial'] / median['pydantic']:.2f} x import pydantic")
    return median


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 15)
