"""The way back: from the model's output to the Anthropic wire.

Action 2 turned a request into chat messages. This module walks the other direction:

    blocks, stop_reason, manager_message = build_reply(parsed, finish_reason)   # Action 3.5
    events = sse_events(blocks, stop_reason, message_id=..., model=..., ...)   # the stream

The promise that ties the two directions together: the reply the adapter sends is echoed
by the CLI as history in its next request, and translating that request gives back, for
this turn, a message equal to `manager_message`. (`round_trip.py` goes further back: chat
messages into an Anthropic body again.)

Like the rest of the package: plain JSON values in and out, arguments never changed (the
outputs are fresh copies), and bad input raises `RequestError` located in the argument,
e.g. `messages[3].content[0]`. Only `build_reply`'s default `new_id` is random.

Where the spec is silent, the choices made here (each explained where it is made):
- `build_reply` skips an empty reasoning or text (no empty thinking / text block beside
  other blocks), accepts a missing/None `text`, `tool_uses` or `input` as empty, and reads an
  integer `matched_stop` as a stop *token* (end_turn), not a stop sequence.
- A thinking block always has a `signature`, "" when nobody signed it: the wire format
  requires the field (the SDK's `ThinkingBlock` does), and an empty one claims nothing.
- `sse_events` streams a thinking block that carries a signature with a second delta, a
  `signature_delta`, as Anthropic's API does; the replies `build_reply` makes carry the
  empty one, already in `content_block_start`, so they need none.

A tool call's `input` is a free value (`limits.py`): plain JSON of bounded depth, checked
before it is copied or written as JSON text.
"""

from __future__ import annotations

import copy
import itertools
import json
import secrets
from typing import Any, Callable, Optional

from . import limits
from .errors import RequestError
from .translation import tool_call_dict

# ---------------------------------------------------------------------------
# Ids


def random_tool_id() -> str:
    """A fresh tool-use id: "toolu_" + 16 random hex digits.

    The shape follows the ids Slime (THUDM/slime@624b824a) mints for its replies, e.g.
    "toolu_3620436c031988cb". Being random, such an id never appears in manager_message.
    """
    return "toolu_" + secrets.token_hex(8)


def counting_ids(prefix: str = "toolu_") -> Callable[[], str]:
    """A deterministic `new_id` for notebooks and tests: "toolu_0", "toolu_1", ..."""
    counter = itertools.count()
    return lambda: f"{prefix}{next(counter)}"


# ---------------------------------------------------------------------------
# build_reply: what the model produced -> the reply blocks, a stop reason and the
# message the trajectory store keeps for this turn


def build_reply(
    parsed: dict, finish_reason: Optional[str], *, new_id: Callable[[], str] = random_tool_id
) -> tuple[list[dict], str, dict]:
    """`parsed` = {"reasoning", "text", "tool_uses": [{"name", "input"}], "matched_stop"}
    -> `(blocks, stop_reason, manager_message)`.

    Blocks come in the order thinking -> text -> one tool_use per call; a reply with
    nothing at all is one empty text block (the wire wants at least one block).
    """
    reasoning, text, tool_uses, matched_stop = _read_parsed(parsed)
    if finish_reason is not None and not isinstance(finish_reason, str):
        raise RequestError(("finish_reason",), "must be a string or None, got {got}", got=type(finish_reason).__name__)
    if not callable(new_id):
        raise RequestError(("new_id",), "must be a function that returns a fresh id, got {got}", got=type(new_id).__name__)
    blocks: list[dict] = []
    if reasoning:
        # An empty signature: only Anthropic's servers can sign thinking, and a made-up
        # one would be refused there. The field itself is required by the wire format (a
        # client's strict types, the SDK's ThinkingBlock, reject a block without it), so
        # it is there, saying nobody signed. (vLLM 0.33.0 invents a random one, LiteLLM
        # 1.110.2 sends null; Slime@624b824a and SGLang 0.5.23 leave the field out.)
        blocks.append({"type": "thinking", "thinking": reasoning, "signature": ""})
    if text:
        blocks.append({"type": "text", "text": text})
    for i, use in enumerate(tool_uses):
        call_id = new_id()
        if not isinstance(call_id, str):
            raise RequestError(("new_id",), "must return a string id, returned {got} for tool_uses[{i}]", got=type(call_id).__name__, i=i)
        blocks.append({"type": "tool_use", "id": call_id, "name": use["name"], "input": copy.deepcopy(use["input"])})
    if not blocks:
        blocks.append({"type": "text", "text": ""})
    reason = stop_reason(bool(tool_uses), finish_reason, matched_stop)
    return blocks, reason, manager_message(reasoning, text, tool_uses)


def stop_reason(has_tool_uses: bool, finish_reason: Optional[str], matched_stop: Any) -> str:
    """The first rule that applies: tool_use, max_tokens, stop_sequence, end_turn."""
    if has_tool_uses:
        return "tool_use"  # the client must run the tools, whatever ended sampling
    if finish_reason == "length":
        return "max_tokens"
    # Only a matched stop *string* is a stop sequence. An engine may report the stop
    # token it hit as an integer id (SGLang does for EOS); that is the model ending its
    # turn. (Slime@624b824a answers end_turn even for a string; vLLM 0.33.0 answers
    # stop_sequence with the string, which is what the spec asks.)
    if isinstance(matched_stop, str):
        return "stop_sequence"
    return "end_turn"


def manager_message(reasoning: Optional[str], text: str, tool_uses: list[dict]) -> dict:
    """This turn as the chat_template target will translate it when the CLI sends it back.

    The tool calls go through `tool_call_dict`, so they carry no id. That is the point:
    the ids in the reply are minted at random for this response, and the trajectory
    store recognises the turn in the next request by dict equality. With ids in it, the
    message kept now could never equal the one translated from the echo.
    """
    message: dict = {"role": "assistant", "content": text}
    if reasoning:
        message["reasoning_content"] = reasoning
    if tool_uses:
        message["tool_calls"] = [tool_call_dict(use["name"], copy.deepcopy(use["input"])) for use in tool_uses]
    return message


def _read_parsed(parsed: Any) -> tuple[Optional[str], str, list[dict], Any]:
    """Check `parsed` and fill the defaults: missing/None text is "", missing tool_uses
    is [], a call's missing/None input is {} (a call without arguments)."""
    if not isinstance(parsed, dict):
        raise RequestError((), "the parsed model output must be an object, got {got}", got=type(parsed).__name__)
    reasoning = parsed.get("reasoning")
    if reasoning is not None and not isinstance(reasoning, str):
        raise RequestError(("reasoning",), "must be a string or None, got {got}", got=type(reasoning).__name__)
    text = parsed.get("text")
    text = "" if text is None else text
    if not isinstance(text, str):
        raise RequestError(("text",), "must be a string, got {got}", got=type(text).__name__)
    matched_stop = parsed.get("matched_stop")
    if matched_stop is not None and (isinstance(matched_stop, bool) or not isinstance(matched_stop, (str, int))):
        raise RequestError(
            ("matched_stop",), "must be a string (or a stop token id), got {got}", got=type(matched_stop).__name__
        )
    raw_uses = parsed.get("tool_uses")
    raw_uses = [] if raw_uses is None else raw_uses
    if not isinstance(raw_uses, list):
        raise RequestError(("tool_uses",), "must be a list, got {got}", got=type(raw_uses).__name__)
    tool_uses = []
    for i, use in enumerate(raw_uses):
        if not isinstance(use, dict):
            raise RequestError(("tool_uses", i), "must be an object with name and input, not {got}", got=type(use).__name__)
        if not isinstance(use.get("name"), str):
            raise RequestError(("tool_uses", i, "name"), "is required and must be a string")
        arguments = use.get("input")
        arguments = {} if arguments is None else arguments
        if not isinstance(arguments, dict):
            raise RequestError(
                ("tool_uses", i, "input"),
                "must be an object (parse the model's JSON arguments first), got {got}",
                got=type(arguments).__name__,
            )
        limits.check_json(arguments, ("tool_uses", i, "input"))
        tool_uses.append({"name": use["name"], "input": arguments})
    return reasoning, text, tool_uses, matched_stop


# ---------------------------------------------------------------------------
# sse_events: the same reply as Anthropic's stream of server-sent events


def sse_events(
    blocks: list[dict],
    stop_reason: str,
    *,
    message_id: str,
    model: str,
    input_tokens: int,
    output_tokens: int,
    stop_sequence: Optional[str] = None,
) -> list[dict]:
    """The events of a streamed reply, each `{"event": name, "data": {...}}`.

    message_start -> (content_block_start, content_block_delta, content_block_stop) per
    block -> message_delta -> message_stop. The model has already finished, so each
    block is sent whole in one delta; joining the deltas gives the blocks back.
    The shapes match what Slime@624b824a and vLLM 0.33.0 send (SGLang 0.5.23 leaves out
    stop_sequence and the input tokens of message_delta; we keep both, as the API does).
    """
    _check_stream_arguments(blocks, stop_reason, message_id, model, input_tokens, output_tokens, stop_sequence)
    start = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],  # the blocks follow as their own events
        "stop_reason": None,  # not known until the end of the stream
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": 0},
    }
    events = [_event("message_start", message=start)]
    for index, block in enumerate(blocks):
        events.append(_event("content_block_start", index=index, content_block=_opening(block)))
        events.extend(_event("content_block_delta", index=index, delta=delta) for delta in _deltas(block))
        events.append(_event("content_block_stop", index=index))
    events.append(
        _event(
            "message_delta",
            delta={"stop_reason": stop_reason, "stop_sequence": stop_sequence},
            usage={"input_tokens": input_tokens, "output_tokens": output_tokens},
        )
    )
    events.append(_event("message_stop"))
    return events


def _event(name: str, **fields: Any) -> dict:
    # The SSE `event:` line and the `type` inside `data` always carry the same name.
    return {"event": name, "data": {"type": name, **fields}}


def _opening(block: dict) -> dict:
    """What content_block_start announces: the block with its payload still empty."""
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": ""}
    if kind == "thinking":
        return {"type": "thinking", "thinking": "", "signature": ""}  # the signature, if any, follows as a delta
    # A tool_use opens with its id and name and an empty input; the input follows as JSON text.
    return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}


def _deltas(block: dict) -> list[dict]:
    kind = block["type"]
    if kind == "text":
        return [{"type": "text_delta", "text": block["text"]}]
    if kind == "thinking":
        deltas = [{"type": "thinking_delta", "thinking": block["thinking"]}]
        if block.get("signature"):
            # Never for a local model's reply (nobody signed it); a signed block passed in
            # is streamed the way Anthropic's API streams one, rather than losing its signature.
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
        return deltas
    # The input travels as JSON text; a client parses it once the block stops.
    return [{"type": "input_json_delta", "partial_json": json.dumps(block["input"], ensure_ascii=False)}]


_STREAMED_FIELDS = {"text": ("text",), "thinking": ("thinking",), "tool_use": ("id", "name")}


def _check_stream_arguments(blocks, stop_reason, message_id, model, input_tokens, output_tokens, stop_sequence):
    for name, value in (("stop_reason", stop_reason), ("message_id", message_id), ("model", model)):
        if not isinstance(value, str):
            raise RequestError((name,), "must be a string, got {got}", got=type(value).__name__)
    for name, value in (("input_tokens", input_tokens), ("output_tokens", output_tokens)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RequestError((name,), "must be a non-negative integer, got {got}", got=limits.shown(value))
        limits.check_json(value, (name,))  # not an integer too long to write
    if stop_sequence is not None and not isinstance(stop_sequence, str):
        raise RequestError(("stop_sequence",), "must be a string or None, got {got}", got=type(stop_sequence).__name__)
    if not isinstance(blocks, list):
        raise RequestError(("blocks",), "must be a list of content blocks, got {got}", got=type(blocks).__name__)
    for i, block in enumerate(blocks):
        if not isinstance(block, dict):
            raise RequestError(("blocks", i), "must be a content block, got {got}", got=type(block).__name__)
        kind = block.get("type")
        if not isinstance(kind, str) or kind not in _STREAMED_FIELDS:
            raise RequestError(
                ("blocks", i, "type"), "a reply streams text, thinking and tool_use blocks, not {got}", got=limits.shown(kind)
            )
        for field in _STREAMED_FIELDS[kind] + (("signature",) if "signature" in block else ()):
            if not isinstance(block.get(field), str):
                raise RequestError(("blocks", i, field), "must be a string in a {kind} block", kind=kind)
        if kind == "tool_use":
            if not isinstance(block.get("input"), dict):
                raise RequestError(("blocks", i, "input"), "must be an object in a tool_use block")
            limits.check_json(block["input"], ("blocks", i, "input"))
