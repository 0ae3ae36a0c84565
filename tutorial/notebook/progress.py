"""A learner's verdicts, sent to the class hub's progress service (hub/service.py).

On a class hub (`python3 tasks.py hub`), every ✓ or ✗ that `check(...)` or chapter 05's
`check_stage(...)` gives in a learner's kernel becomes one small event for the instructor's page:

    {"id": "...", "exercise": "02.count", "verdict": "wrong", "mistake": "mistake 1: ...", "at": 1760000000.0}

The learner's answer itself is not sent, unless the instructor asked for answers when starting
the hub (the hub then sets TUTORIAL_PROGRESS_ANSWERS=1 in the learner's server).

Anywhere else this module does nothing: it sends only when the kernel runs under a JupyterHub
single-user server (JUPYTERHUB_API_TOKEN and JUPYTERHUB_USER are set) and that hub named a
progress service (TUTORIAL_PROGRESS_URL). Sending happens on a background thread, so a cell
never waits for the network; what is still queued when the kernel stops is sent then (a few
seconds at most). Only the standard library is imported.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import threading
import time
import uuid
from typing import Any, Optional

SEND_SECONDS = 5.0  # one attempt to deliver one event
ATTEMPTS = 4  # a service restarting is back within a few seconds
FLUSH_SECONDS = 5.0  # what the kernel waits, when stopping, for events still queued

_queue: "queue.Queue[dict]" = queue.Queue()
_sender: Optional[threading.Thread] = None
_lock = threading.Lock()


def destination() -> Optional[str]:
    """The progress service's events URL when this kernel runs on a class hub, else None."""
    if not (os.environ.get("JUPYTERHUB_API_TOKEN") and os.environ.get("JUPYTERHUB_USER")):
        return None
    return os.environ.get("TUTORIAL_PROGRESS_URL") or None


def record(exercise: str, answer: Any, verdict: Any, mistake: Optional[str] = None) -> None:
    """Report one verdict (`verdict.state` "right" or "wrong"; "unanswered" is not news).
    `mistake` names the wrong answer's kind when the caller knows it (for `check` exercises,
    `exercises.named_mistake`). Never raises: a learner's cell must
    not fail because the instructor's page is unreachable."""
    try:
        url = destination()
        state = getattr(verdict, "state", None)
        if url is None or state not in ("right", "wrong"):
            return
        event = {"id": uuid.uuid4().hex, "exercise": str(exercise), "verdict": state, "at": time.time(),
                 "mistake": None}
        if state == "wrong":
            event["mistake"] = mistake
        if os.environ.get("TUTORIAL_PROGRESS_ANSWERS") == "1":
            event["answer"] = _as_text(answer)
        _start_sender()
        _queue.put(event)
    except Exception:  # noqa: BLE001 - reporting is best effort by design, see above
        return


def stage_mistake(finding: Any) -> Optional[str]:
    """Chapter 05's named mistake: the learner's helper that is wrong, or the named trap (in
    English) on which the function first differs; None for a generated input or a right one."""
    if getattr(finding, "blamed", None):
        return f"helper {finding.blamed} is wrong"
    case = getattr(finding, "case", None)
    if case is not None and getattr(case, "kind", "") in ("trap", "readme"):
        return f"{case.kind}: {case.label}"[:200]
    if getattr(finding, "stopped", False):
        return "did not finish"
    return None


def _as_text(answer: Any) -> str:
    try:
        return json.dumps(answer, ensure_ascii=False, default=repr)[:2000]
    except Exception:  # noqa: BLE001 - an answer that cannot be shown is sent as its repr
        return repr(answer)[:2000]


def _start_sender() -> None:
    global _sender
    with _lock:
        if _sender is None or not _sender.is_alive():
            _sender = threading.Thread(target=_send_forever, name="tutorial-progress", daemon=True)
            _sender.start()
            atexit.register(flush)


def _send_forever() -> None:
    while True:
        event = _queue.get()
        try:
            _deliver(event)
        finally:
            _queue.task_done()


def _deliver(event: dict) -> bool:
    import urllib.request

    url, token = destination(), os.environ.get("JUPYTERHUB_API_TOKEN", "")
    if url is None:
        return False
    body = json.dumps(event, ensure_ascii=False).encode("utf-8")
    for attempt in range(ATTEMPTS):
        request = urllib.request.Request(url, data=body, method="POST", headers={
            "Authorization": f"token {token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=SEND_SECONDS) as answer:
                if answer.status < 300:
                    return True
        except Exception:  # noqa: BLE001 - refused, timed out, 5xx: wait and try again
            time.sleep(0.5 * 2**attempt)
    return False


def flush(seconds: float = FLUSH_SECONDS) -> bool:
    """Wait until every queued event is sent (or `seconds` pass); whether the queue emptied."""
    deadline = time.monotonic() + seconds
    while _queue.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _queue.unfinished_tasks
