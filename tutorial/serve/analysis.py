"""What the translation makes of a request, as plain JSON a capture can hold.

    analyse(body) -> {"translated": {target: ...}, "losses": {target: [...]}}

For each target, `translated` holds `{"translated": [...], "tools_schema": [...]}` (the
shape `python -m tutorial translate` prints) or `{"error": {"location", "message"}}`
when that target refuses the body. The messages come from `tutorial.trace`, so they are
what a notebook's trace of the same body shows (mid-list system messages folded first).
"""

from __future__ import annotations

import json
import math
from typing import Any

import tutorial
from tutorial.watch.losses import Reason, reason_in

TARGETS = ("chat_template", "openai")


def analyse(body: Any) -> dict:
    """The loss reasons are in the current language (the request's, see words.py); each is a
    `Reason`, so the other language stays at hand (`tutorial.watch.losses.reason_in`)."""
    translated: dict = {}
    losses: dict = {}
    for target in TARGETS:
        try:
            traced = tutorial.trace(body, target=target)
        except tutorial.RequestError as error:
            translated[target] = {"error": located(error)}
            losses[target] = None
        else:
            translated[target] = {"translated": traced.translated, "tools_schema": traced.tools_schema}
            losses[target] = [{"path": loss.path, "value": loss.value, "reason": _in(loss.reason)} for loss in traced.losses]
    return {"translated": translated, "losses": losses}


def _in(reason: str) -> str:
    return Reason(reason.en, reason.zh) if isinstance(reason, Reason) else reason_in(reason)


def located(error: tutorial.RequestError) -> dict:
    """{"location": "messages[2].content[0]", "message": "messages[2].content[0]: ..."}, the
    reason in the request's language (under Chinese the place as the subject, see words.located:
    "messages[2].content[0] 必须…", as the frame 「请求无效：…」 will hold it)."""
    from tutorial.words import located as told

    return {"location": error.where, "message": told(error)}  # in the request's language


def refusal(analysis: dict, target: str) -> "str | None":
    """The located message of the target's refusal, or None when it translated the body."""
    error = analysis["translated"][target].get("error")
    return error["message"] if error else None


def rough_token_count(value: Any) -> int:
    """A rough count of tokens, documented as such: one token per four ASCII characters
    and one per other character (a CJK character is about one token) of the JSON text.

    No tokenizer is involved on purpose: the server serves no model, and a tokenizer
    would tie the count to one model family. Base64 images count as their text, far
    above what a model charges for them.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    ascii_chars = len(text.encode("ascii", "ignore"))
    return math.ceil(ascii_chars / 4) + (len(text) - ascii_chars)


def prompt_tokens(body: dict) -> int:
    """The rough count of what the model reads: system, messages and tools."""
    return rough_token_count({key: body.get(key) for key in ("system", "messages", "tools")})
