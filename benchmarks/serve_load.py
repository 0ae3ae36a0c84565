"""How much load does `python -m tutorial serve` take, and what does it add to translate?

Starts the server in its own process (teaching responder, so no model time is counted),
then for 1, 8 and 32 concurrent clients — threads, each with its own `anthropic` SDK
client — sends the README example and a ~0.5 MB agent session (the body
benchmarks/translate_cost.py builds) and measures requests per second and the p50 / p99
latency a client sees. Each request is translated and traced for both targets, captured
and answered.

The overhead line compares, for one client, the server's median time per request with
`json.loads` + `tutorial.translate` alone on the same bytes: end to end (what a client
waits, SDK included) and inside the server (the `duration_ms` its captures record).

Run: python benchmarks/serve_load.py   (about 30-60 s on a 2-core machine)
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import anthropic  # noqa: E402
import httpx  # noqa: E402

import tutorial  # noqa: E402
from tutorial.examples import agent_request  # noqa: E402

CONCURRENCY = (1, 8, 32)
# Requests per level: enough for a p99 on the small body, few on the big one (it is slow to send).
TOTAL = {"README example": 240, "agent session": 48}
MAX_CAPTURES = 40  # the big captures would otherwise hold ~100 MB in the server


def start_server() -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "tutorial.serve", "--port", "0", "--max-captures", str(MAX_CAPTURES)]
    process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    banner = process.stderr.readline()
    match = re.search(r"listening on (http://\S+),", banner)
    if not match:
        process.kill()
        raise SystemExit(f"the server did not start: {banner}{process.stderr.read()}")
    # Keep reading its log so a full pipe never blocks it.
    threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
    return process, match.group(1)


def run_level(url: str, body: dict, clients: int, total: int) -> tuple[float, list[float]]:
    """(requests per second, latencies in seconds) for `clients` threads sending `total` requests."""
    per_client = max(1, total // clients)
    latencies: list[float] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def client_thread() -> None:
        client = anthropic.Anthropic(base_url=url, api_key="unused", max_retries=0, timeout=120)
        mine = []
        try:
            for _ in range(per_client):
                started = time.perf_counter()
                client.messages.create(**body)
                mine.append(time.perf_counter() - started)
        except BaseException as error:  # noqa: BLE001 (reported by the caller)
            errors.append(error)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client_thread) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise SystemExit(f"{len(errors)} requests failed, first: {errors[0]!r}")
    return len(latencies) / elapsed, latencies


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def translate_alone(body: dict, repeat: int = 30) -> float:
    raw = json.dumps(body, ensure_ascii=False).encode()
    tutorial.translate(json.loads(raw))  # warm up: pydantic builds its validators lazily
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        tutorial.translate(json.loads(raw))
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def server_side_median(url: str, count: int) -> float:
    """The median `duration_ms` of the newest `count` captures, in seconds."""
    listing = httpx.get(f"{url}/captures", timeout=60).json()["data"][-count:]
    durations = [httpx.get(f"{url}/captures/{item['id']}", timeout=60).json()["duration_ms"] for item in listing]
    return statistics.median(durations) / 1000


def main() -> None:
    bodies = {"README example": {"model": "local", **tutorial.readme_request()}, "agent session": agent_request()}
    sizes = {name: len(json.dumps(body, ensure_ascii=False).encode()) for name, body in bodies.items()}
    process, url = start_server()
    rows, overhead = [], []
    began = time.perf_counter()
    try:
        for name, body in bodies.items():
            run_level(url, body, 2, 4)  # warm up both sides
            for clients in CONCURRENCY:
                per_second, latencies = run_level(url, body, clients, TOTAL[name])
                p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
                rows.append((name, clients, len(latencies), per_second, p50, p99))
                if clients == 1:
                    inside = server_side_median(url, min(len(latencies), MAX_CAPTURES))
                    overhead.append((name, statistics.median(latencies), inside, translate_alone(body)))
    finally:
        process.terminate()
        process.wait(30)

    print(f"Server: teaching responder, one uvicorn worker. Clients: anthropic {anthropic.__version__}, threads of one process.")
    readme_kb, agent_mb = sizes["README example"] / 1e3, sizes["agent session"] / 1e6
    print(f"Bodies: README example {readme_kb:.1f} kB, agent session {agent_mb:.2f} MB.\n")
    print("| body | clients | requests | req/s | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|")
    for name, clients, count, per_second, p50, p99 in rows:
        print(f"| {name} | {clients} | {count} | {per_second:.1f} | {p50 * 1e3:.1f} | {p99 * 1e3:.1f} |")
    print("\n| body (1 client) | json.loads + translate | in the server | × translate | end to end | × translate |")
    print("|---|---|---|---|---|---|")
    for name, end_to_end, inside, alone in overhead:
        print(
            f"| {name} | {alone * 1e3:.2f} ms | {inside * 1e3:.2f} ms | {inside / alone:.1f} "
            f"| {end_to_end * 1e3:.2f} ms | {end_to_end / alone:.1f} |"
        )
    print(f"\n(run took {time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
