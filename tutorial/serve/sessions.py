"""Which session a request belongs to, as Slime's Anthropic adapter tells them apart, kept as a digest.

    session_of({"x-api-key": "sk-..."})   # "key:3f9a0c1d2e4b5a69" — never the key itself

Slime (THUDM/slime@624b824a, `slime/agent/adapters/anthropic.py`, `_request_session_id`)
takes the `Authorization: Bearer` token, else the `x-api-key` header, else "default": a
rollout gives each agent run its own key, so the key is the session. Here the key only
names the session: what is kept (captures, the trajectory export, the log) is the first
DIGEST_HEX hex digits of its SHA-256, enough to tell a run's sessions apart and useless for
getting the key back.
"""

from __future__ import annotations

import hashlib
from typing import Mapping

DEFAULT = "default"  # Slime's name for a request with no key at all
DIGEST_HEX = 16


def session_of(headers: Mapping[str, str]) -> str:
    """The request's session: a digest of its bearer token, else of its API key, else "default"."""
    auth = headers.get("authorization", "") or ""
    secret = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
    secret = secret or (headers.get("x-api-key", "") or "").strip()
    if not secret:
        return DEFAULT
    return "key:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()[:DIGEST_HEX]
