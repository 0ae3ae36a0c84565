"""The Anthropic side of the wire: what this server writes back.

    message_object(reply, message_id=..., model=...)   the JSON of a non-streamed reply
    sse_text(reply, message_id=..., model=...)          the same reply as server-sent events
    ApiError(status, kind, message).envelope()           {"type": "error", "error": {...}}

Both reply shapes come from the same `Reply`, and the stream's events from
`tutorial.sse_events`, so a client that joins the stream ends with the very message
the non-streamed call returns.
"""

from __future__ import annotations

import json
from typing import Iterator, Optional

import tutorial
from tutorial.words import located, words_for

from .responder import Reply
from .words import WORDS

# The error types of Anthropic's envelope, by HTTP status.
ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    405: "invalid_request_error",
    408: "invalid_request_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    502: "api_error",
    504: "timeout_error",
    529: "overloaded_error",
}


class ApiError(Exception):
    """A failure to answer with an error envelope: the status, the envelope's type, the message.

    `retry` sets the `x-should-retry` header the Anthropic SDKs obey: False for a request
    that will fail the same way again, None to let the client decide by the status.
    """

    def __init__(
        self, status: int, message: str, *, kind: Optional[str] = None, retry: Optional[bool] = None, close: bool = False
    ):
        super().__init__(message)
        self.close = close  # the connection cannot be used again (a body that did not all arrive)
        self.status = status
        self.kind = kind or ERROR_TYPES.get(status, "api_error")
        self.message = message
        self.retry = retry if retry is not None else (False if status < 500 else None)

    def envelope(self) -> dict:
        return {"type": "error", "error": {"type": self.kind, "message": self.message}}

    def headers(self) -> dict:
        headers = {} if self.retry is None else {"x-should-retry": "true" if self.retry else "false"}
        if self.close:
            headers["connection"] = "close"
        return headers


def bad_request(error: tutorial.RequestError) -> ApiError:
    """A located `RequestError` as a 400: its message already starts with the place; the
    reason is in the request's language (under Chinese it is framed, the place and then the
    reason, the place the subject of a reason that opens with its predicate: 「请求无效：messages[0].role 必须是…」)."""
    return ApiError(400, words_for(WORDS, "invalid_request", message=located(error)))  # 「请求无效：messages[0].role 必须是…」


def message_object(reply: Reply, *, message_id: str, model: str) -> dict:
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": reply.blocks,
        "stop_reason": reply.stop_reason,
        "stop_sequence": reply.stop_sequence,
        "usage": {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
    }


def stream_events(reply: Reply, *, message_id: str, model: str) -> list[dict]:
    """The way back's events, with the `ping` the API sends right after message_start."""
    events = tutorial.sse_events(
        reply.blocks,
        reply.stop_reason,
        message_id=message_id,
        model=model,
        input_tokens=reply.input_tokens,
        output_tokens=reply.output_tokens,
        stop_sequence=reply.stop_sequence,
    )
    return events[:1] + [{"event": "ping", "data": {"type": "ping"}}] + events[1:]


def sse_text(events: list[dict]) -> Iterator[str]:
    """One `event: ...` / `data: ...` record per event, each ended by a blank line."""
    for event in events:
        yield f"event: {event['event']}\ndata: {json.dumps(event['data'], ensure_ascii=False)}\n\n"
