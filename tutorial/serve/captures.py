"""Captures: every request the server receives, kept as plain JSON.

A capture is one dict:

    id                "cap_0001", in arrival order
    time              when it arrived (ISO 8601, UTC)
    method, path      the path with its query ("/v1/messages?beta=true")
    headers           every header except secrets; `headers_withheld` names those left out
    body              the JSON body (None when there was none or it was not JSON)
    translated        per target: {"translated", "tools_schema"}, or {"error": {"location", "message"}}
    losses            per target: [{"path", "value", "reason"}] — what stays behind
    status, reply     the HTTP status and what was sent back (a message or an error envelope)
    summary           one line for the list at GET /captures

Secrets never enter a capture: a header whose name says it carries a credential is
dropped before the capture is built (only its name is kept), and so is the value of a
query parameter named like one. What is not in a capture cannot leak from the list,
the saved file or a notebook.

The store keeps the last `max_captures` to finish in memory (older ones fall off) and, when
given a file, appends each capture to it as one line of JSON.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections import deque
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Optional, Union
from urllib.parse import parse_qsl, urlencode

# A request to a big agent session can be ~1 MB of JSON, and a capture holds it and both
# translations: 100 captures stay within a few hundred MB. --save keeps everything.
DEFAULT_MAX_CAPTURES = 100

SECRET_HEADERS = {"x-api-key", "authorization", "proxy-authorization", "cookie", "set-cookie"}
# Names that say "credential" in other words (x-goog-api-key, x-auth-token, api-key, ...).
_SECRET_NAME = re.compile(r"key|token|secret|auth|cookie|session|password|credential|signature", re.IGNORECASE)
WITHHELD = "[withheld]"


def is_secret(name: str) -> bool:
    return name.lower() in SECRET_HEADERS or bool(_SECRET_NAME.search(name))


def visible_headers(headers: Iterable[tuple[str, str]]) -> tuple[dict, list[str]]:
    """(headers without secrets, the names of those withheld). Repeated headers are joined
    with ", " as HTTP allows."""
    kept: dict[str, str] = {}
    withheld: list[str] = []
    for name, value in headers:
        name = name.lower()
        if is_secret(name):
            if name not in withheld:
                withheld.append(name)
        else:
            kept[name] = f"{kept[name]}, {value}" if name in kept else value
    return kept, withheld


def visible_path(path: str, query: str) -> str:
    """The path with its query, a secret-looking parameter's value replaced."""
    if not query:
        return path
    pairs = parse_qsl(query, keep_blank_values=True)
    if not any(is_secret(name) for name, _ in pairs):
        return f"{path}?{query}"  # as sent, when there is nothing to hide
    return f"{path}?{urlencode([(name, WITHHELD if is_secret(name) else value) for name, value in pairs])}"


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class CaptureStore:
    """The newest `max_captures` captures, safe to read from another thread."""

    def __init__(self, max_captures: int = DEFAULT_MAX_CAPTURES, save: Optional[Union[str, Path]] = None):
        if max_captures < 1:
            raise ValueError(f"max_captures must be at least 1, got {max_captures}")
        self.max_captures = max_captures
        self.save_path = Path(save) if save is not None else None
        self._captures: deque[dict] = deque(maxlen=max_captures)
        self._by_id: dict[str, dict] = {}
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()
        self._file_lock = threading.Lock()
        if self.save_path is not None:
            self.save_path.parent.mkdir(parents=True, exist_ok=True)
            self.save_path.touch()  # fail at start, not at the first request, if it cannot be written

    def begin(self, method: str, path: str, query: str, headers: Iterable[tuple[str, str]]) -> dict:
        """A new capture with its id, time and the request line and headers (secrets left out)."""
        kept, withheld = visible_headers(headers)
        with self._lock:
            number = next(self._numbers)
        return {
            "id": f"cap_{number:04d}",
            "time": now_iso(),
            "method": method,
            "path": visible_path(path, query),
            "headers": kept,
            "headers_withheld": withheld,
            "body": None,
        }

    def add(self, capture: dict) -> None:
        """Keep a finished capture (the oldest falls off when full) and append it to the file."""
        with self._lock:
            if len(self._captures) == self._captures.maxlen:
                self._by_id.pop(self._captures[0]["id"], None)
            self._captures.append(capture)
            self._by_id[capture["id"]] = capture
        if self.save_path is not None:
            line = json.dumps(capture, ensure_ascii=False, default=str) + "\n"
            with self._file_lock, self.save_path.open("a", encoding="utf-8") as file:
                file.write(line)

    def all(self) -> list[dict]:
        """The captures kept, in arrival order. They are the store's own: read, do not change."""
        with self._lock:
            kept = list(self._captures)
        # Kept as they finish; a quick request can overtake a slow one that arrived first.
        return sorted(kept, key=lambda capture: int(capture["id"].removeprefix("cap_")))

    def get(self, capture_id: str) -> Optional[dict]:
        with self._lock:
            return self._by_id.get(capture_id)

    def listing(self) -> list[dict]:
        """What GET /captures shows: one short entry per capture."""
        return [
            {key: capture.get(key) for key in ("id", "time", "method", "path", "status", "summary")}
            for capture in self.all()
        ]

    def __len__(self) -> int:
        with self._lock:
            return len(self._captures)
