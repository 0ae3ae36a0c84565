"""What does the bridge add in front of a real engine?

Starts llama.cpp's server (built by `python3 tasks.py engine`) with the tiny hand-wired model
and the bridge (`tutorial.serve.start(forward=...)`, in this process's background thread), then
sends the same requests two ways, alternating, over loopback with httpx:

- to the engine directly: POST /v1/chat/completions with the "openai" target's translation
  (what the bridge itself sends);
- through the bridge: POST /v1/messages with the Anthropic body.

For each way: the median whole-request time of a non-streamed request (the bridge's added
latency is the difference, and the ratio), and, streamed, the median time to the first event
(the engine's first chunk; the bridge's message_start) and to the last. The endless model with
max_tokens 200 makes the streamed answers long enough for "first" and "last" to differ.

Run: python benchmarks/bridge_latency.py [ROUNDS]   (default 20 rounds; about two minutes)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

import tutorial  # noqa: E402
from tutorial import serve  # noqa: E402
from tutorial.llama_cpp import engine as llama  # noqa: E402

USER = {"role": "user", "content": "Say hello"}
STREAM_TOKENS = 200


def timed(client: httpx.Client, url: str, body: dict) -> tuple[float, float]:
    """(seconds to the first data line, seconds to the end) of one request."""
    started = time.perf_counter()
    first = None
    with client.stream("POST", url, json=body) as response:
        response.raise_for_status()
        for line in response.iter_lines():
            if first is None and (line.startswith("data:") or line.startswith("event:") or line.startswith("{")):
                first = time.perf_counter() - started
    return first if first is not None else time.perf_counter() - started, time.perf_counter() - started


def main(argv: list[str]) -> int:
    reason = llama.unavailable()
    if reason:
        print(f"bridge_latency: skipped: {reason}")
        return 0
    rounds = int(argv[0]) if argv else 20
    anthropic_body = {"model": "tiny", "max_tokens": 100, "messages": [USER]}
    messages, _tools = tutorial.translate(anthropic_body, target="openai")
    openai_body = {"model": "tiny", "max_tokens": 100, "messages": messages}
    results: dict[str, list[tuple[float, float]]] = {}
    for model, tokens, stream in (("tiny", 100, False), ("tiny-endless", STREAM_TOKENS, True)):
        with llama.start(model) as engine, serve.start(forward=serve.Forwarder(engine.url, model=model)) as bridge:
            extra = {"stream": True} if stream else {}
            direct = {**openai_body, "model": model, "max_tokens": tokens, **extra}
            if stream:
                direct["stream_options"] = {"include_usage": True}
            bridged = {**anthropic_body, "model": model, "max_tokens": tokens, **extra}
            with httpx.Client(timeout=300, trust_env=False) as client:
                for _ in range(3):  # warm both paths up
                    timed(client, engine.url + "/v1/chat/completions", direct)
                    timed(client, bridge.url + "/v1/messages", bridged)
                for _ in range(rounds):
                    results.setdefault(f"engine {'stream' if stream else 'whole'}", []).append(
                        timed(client, engine.url + "/v1/chat/completions", direct)
                    )
                    results.setdefault(f"bridge {'stream' if stream else 'whole'}", []).append(
                        timed(client, bridge.url + "/v1/messages", bridged)
                    )
    median = {name: (statistics.median(f for f, _ in values), statistics.median(t for _, t in values)) for name, values in results.items()}
    engine_whole, bridge_whole = median["engine whole"][1], median["bridge whole"][1]
    print(f"bridge_latency: {rounds} rounds each, medians, llama-server with the tiny model on loopback")
    print(f"  non-streamed request:  engine {engine_whole * 1000:7.1f} ms   bridge {bridge_whole * 1000:7.1f} ms   "
          f"added {(bridge_whole - engine_whole) * 1000:6.1f} ms ({bridge_whole / engine_whole:.2f}x)")
    (engine_first, engine_last), (bridge_first, bridge_last) = median["engine stream"], median["bridge stream"]
    print(f"  streamed, first event: engine {engine_first * 1000:7.1f} ms   bridge {bridge_first * 1000:7.1f} ms   "
          f"added {(bridge_first - engine_first) * 1000:6.1f} ms")
    print(f"  streamed, last event:  engine {engine_last * 1000:7.1f} ms   bridge {bridge_last * 1000:7.1f} ms   "
          f"({STREAM_TOKENS} tokens; the bridge's first event comes at {bridge_first / bridge_last:.1%} of its stream)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
