"""A fresh bridge's first streamed request to a frozen engine: `message_start` within a second.

The real llama-server (the tiny model) is frozen with SIGSTOP for FROZEN_SECONDS before a new
bridge starts in front of it, and the bridge's very first request is a stream. The bridge
learns the engine's context in the background (serve/engine_context.py), so nothing waits for
the frozen engine before the first event: it leaves at ACCEPT_SECONDS, the capture says that
max_tokens went as asked, and once the engine thaws the answer arrives and the context is learnt
(the next request's max_tokens is lowered to it). Issue 39, item 6: the bound is 1 s.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from test_engine import ANSWER, USER, started  # noqa: E402

from tutorial import serve  # noqa: E402
from tutorial.serve.engine_context import NOT_YET  # noqa: E402

FROZEN_SECONDS = 5.0
FIRST_EVENT_BOUND = 1.0  # seconds: the requirement
ASKED = 64000  # what Claude Code asks for, above the tiny engine's 32768


def first_event_and_rest(url: str) -> tuple[float, str]:
    """Seconds until the first SSE event line, and the whole stream's text."""
    body = {"model": "tiny", "max_tokens": ASKED, "stream": True, "messages": [USER]}
    begun = time.perf_counter()
    first = None
    lines = []
    with httpx.stream("POST", url + "/v1/messages", json=body, timeout=120) as response:
        for line in response.iter_lines():
            if first is None and line.startswith("event:"):
                first = time.perf_counter() - begun
            lines.append(line)
    return first, "\n".join(lines)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="SIGSTOP is POSIX")
def test_a_fresh_bridges_first_stream_to_a_frozen_engine_starts_within_a_second():
    with started("tiny") as engine:
        os.kill(engine.process.pid, signal.SIGSTOP)
        thaw = threading.Timer(FROZEN_SECONDS, os.kill, (engine.process.pid, signal.SIGCONT))
        try:
            forwarder = serve.Forwarder(engine.url, model="tiny")
            with serve.start(forward=forwarder) as bridge:
                thaw.start()
                seconds, text = first_event_and_rest(bridge.url)
                [capture] = bridge.captures()
                # the engine thaws: the context question the bridge asked at its start is answered
                deadline = time.monotonic() + 60
                while not isinstance(forwarder.context.size, int) and time.monotonic() < deadline:
                    time.sleep(0.1)
                learnt = forwarder.context.size
                later = httpx.post(
                    bridge.url + "/v1/messages", json={"model": "tiny", "max_tokens": ASKED, "messages": [USER]}, timeout=120
                )
                [_, second] = bridge.captures()
        finally:
            thaw.cancel()
            os.kill(engine.process.pid, signal.SIGCONT)
    print(f"fresh bridge, engine frozen {FROZEN_SECONDS:g} s: first SSE event after {seconds * 1000:.0f} ms")
    assert seconds is not None and text.splitlines()[0] == "event: message_start", text[:500]
    assert seconds <= FIRST_EVENT_BOUND, f"first event after {seconds:.3f} s"
    said = "".join(
        event["delta"].get("text", "")
        for event in (json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:"))
        if event.get("type") == "content_block_delta"
    )
    assert ANSWER in said and "event: message_stop" in text, text[-1000:]  # the engine thawed and answered
    assert capture["forward"]["max_tokens_as_asked"] == {"sent": ASKED, "context": NOT_YET}
    assert capture["forward"]["request"]["max_tokens"] == ASKED
    assert learnt == 32768, learnt
    assert later.status_code == 200, later.text
    assert second["forward"]["max_tokens_lowered"] == {"asked": ASKED, "sent": 32768}
