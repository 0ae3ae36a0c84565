"""The engine's stream, relayed as Anthropic's stream while it arrives.

    relay = Relay(message_id=..., model=..., input_tokens=..., stop_sequences=[...])
    relay.opening()          message_start and a ping, sent before the engine's first chunk
    relay.feed(chunk)        one chat.completion.chunk -> the Anthropic events it makes
    relay.closing()          the open block's stop, message_delta, message_stop
    relay.reply()            the same answer as one Reply (for the capture, and for a client
                             that did not ask for a stream)

A chunk's `reasoning_content` becomes thinking deltas, its `content` text deltas, its
`tool_calls` a tool_use block whose arguments travel as input_json_delta fragments, each as
it comes: a block opens when the first delta of another kind arrives, as Anthropic's stream
orders them. The blocks the relay ends with are the ones `tutorial.build_reply` makes from the
joined answer (thinking, text, tool uses), so a streamed reply and a whole one agree.

Two things the engine may leave to the bridge:
- **Stop sequences.** The bridge applies them itself: it watches the text as it streams, cuts
  it where the first one starts, and ends the reply with `stop_sequence` set to that one.
  (llama.cpp's chat API stops on them too but never says which one matched, so the bridge
  does not send them; `Relay.stopped` tells the forwarder to close the engine's request.)
- **A tool call cut by max_tokens.** Its arguments are JSON text that stops half way; the
  reply keeps the members that arrived whole (`partial_json`), with stop_reason "max_tokens",
  as Anthropic's API answers a cut tool call, and as the SDK's own stream parser reads one.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from tutorial.words import words_for

from .responder import Reply
from .wire import ApiError
from .words import WORDS


class Relay:
    def __init__(self, *, message_id: str, model: str, input_tokens: int, stop_sequences: Optional[list] = None):
        self.message_id, self.model = message_id, model
        self.input_tokens = input_tokens
        self.stop_sequences = [stop for stop in (stop_sequences or []) if stop]
        self.blocks: list[dict] = []  # as build_reply makes them; the last one may still be open
        self.open: Optional[str] = None  # the open block's type
        self.arguments: list[str] = []  # per tool_use block, in order: its JSON text so far
        self.call_blocks: dict[int, int] = {}  # the engine's tool-call index -> our block index
        self.pending_calls: dict[int, dict] = {}  # calls whose name has not arrived yet
        self.finish_reason: Optional[str] = None
        self.matched_stop: Any = None
        self.stopped: Optional[str] = None  # the stop sequence the bridge matched in the text
        self.text_seen = ""  # every text delta so far (where stop sequences are looked for)
        self.held = ""  # text kept back: it may be the start of a stop sequence
        self.usage: Optional[dict] = None
        self.chunks = 0
        self.token_chunks = 0  # chunks that carried a delta: about one token each on llama.cpp, vLLM, SGLang

    # --- the events -------------------------------------------------------------------

    def opening(self) -> list[dict]:
        start = {
            "id": self.message_id,
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": self.input_tokens, "output_tokens": 0},
        }
        return [_event("message_start", message=start), PING]

    def feed(self, chunk: dict) -> list[dict]:
        """One parsed chunk of the engine's stream -> the events to send now."""
        self.chunks += 1
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        events: list[dict] = []
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0 or self.stopped:
                continue
            delta = choice.get("delta") or {}
            if any(delta.get(key) for key in ("content", "reasoning_content", "reasoning", "tool_calls")):
                self.token_chunks += 1
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                events += self._into("thinking", {"type": "thinking_delta", "thinking": reasoning})
            content = delta.get("content")
            if isinstance(content, str) and content:
                events += self._text(content)
            for call in delta.get("tool_calls") or []:
                if isinstance(call, dict):
                    events += self._call(call)
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
            for name in ("matched_stop", "stop_reason"):  # SGLang's and vLLM's name for the stop that matched
                value = choice.get(name)
                if isinstance(value, (str, int)) and not isinstance(value, bool):
                    self.matched_stop = value
        return events

    def closing(self) -> list[dict]:
        """Close the open block and end the message (raises ApiError if the reply is unusable)."""
        events = []
        if self.held and not self.stopped:
            events += self._into("text", {"type": "text_delta", "text": self.held})
            self.held = ""
        reply = self.reply()  # checks the tool arguments before the blocks are closed
        if not self.blocks:  # the wire wants at least one block
            events += self._into("text", None)
        if self.open is not None:
            events.append(_event("content_block_stop", index=len(self.blocks) - 1))
            self.open = None
        delta = {"stop_reason": reply.stop_reason, "stop_sequence": reply.stop_sequence}
        usage = {"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens}
        return events + [_event("message_delta", delta=delta, usage=usage), _event("message_stop")]

    # --- the answer as one reply -----------------------------------------------------------

    def reply(self) -> Reply:
        """The blocks so far, their tool inputs parsed, with the stop reason and usage."""
        blocks, uses = [], 0
        cut = self.finish_reason == "length" and not self.stopped
        for block in self.blocks:
            block = dict(block)
            if block["type"] == "tool_use":
                text = self.arguments[uses]
                block["input"] = tool_input(text, uses, cut=cut)
                uses += 1
            blocks.append(block)
        if not blocks:
            blocks = [{"type": "text", "text": ""}]
        if self.stopped:
            reason, stop_sequence = "stop_sequence", self.stopped
        else:
            reason = _stop_reason(bool(uses), self.finish_reason, self.matched_stop)
            if cut:  # a call cut half way is not one the client can run: Anthropic says max_tokens
                reason = "max_tokens"
            stop_sequence = self.matched_stop if reason == "stop_sequence" else None
        usage = self.usage or {}
        output_tokens = usage.get("completion_tokens")
        if not (isinstance(output_tokens, int) and not isinstance(output_tokens, bool) and output_tokens >= 0):
            from .analysis import rough_token_count

            output_tokens = self.token_chunks or rough_token_count(blocks)  # an estimate (see forward.py)
        input_tokens = usage.get("prompt_tokens")
        if not (isinstance(input_tokens, int) and not isinstance(input_tokens, bool) and input_tokens >= 0):
            input_tokens = self.input_tokens
        return Reply(blocks, reason, stop_sequence, input_tokens=input_tokens, output_tokens=output_tokens)

    # --- blocks -----------------------------------------------------------------------------

    def _into(self, kind: str, delta: Optional[dict], **opening: Any) -> list[dict]:
        """Events that put `delta` into a block of `kind`, opening one (and closing the
        previous) when the open block is of another kind."""
        events = []
        if self.open != kind or kind == "tool_use":
            if self.open is not None:
                events.append(_event("content_block_stop", index=len(self.blocks) - 1))
            block = {"text": {"type": "text", "text": ""}, "thinking": {"type": "thinking", "thinking": "", "signature": ""}}
            started = dict(block.get(kind) or {"type": "tool_use", "input": {}, **opening})
            self.blocks.append(started)
            self.open = kind
            shown = dict(started)
            if kind == "tool_use":
                shown = {"type": "tool_use", "id": started["id"], "name": started["name"], "input": {}}
            events.append(_event("content_block_start", index=len(self.blocks) - 1, content_block=shown))
        if delta is not None:
            block = self.blocks[-1]
            if kind == "text":
                block["text"] += delta["text"]
            elif kind == "thinking":
                block["thinking"] += delta["thinking"]
            events.append(_event("content_block_delta", index=len(self.blocks) - 1, delta=delta))
        return events

    def _text(self, content: str) -> list[dict]:
        """Text goes out at once, except a tail that could be the start of a stop sequence."""
        if not self.stop_sequences:
            return self._into("text", {"type": "text_delta", "text": content})
        text = self.held + content
        found = [(text.find(stop), stop) for stop in self.stop_sequences if stop in text]
        if found:
            where, stop = min(found)
            self.stopped = stop
            self.held = ""
            before = text[:where]
            return self._into("text", {"type": "text_delta", "text": before}) if before else []
        keep = max((n for stop in self.stop_sequences for n in range(1, len(stop)) if text.endswith(stop[:n])), default=0)
        self.held = text[len(text) - keep :] if keep else ""
        sent = text[: len(text) - keep]
        return self._into("text", {"type": "text_delta", "text": sent}) if sent else []

    def _call(self, call: dict) -> list[dict]:
        index = call.get("index", 0)
        function = call.get("function") if isinstance(call.get("function"), dict) else {}
        if index not in self.call_blocks:
            pending = self.pending_calls.setdefault(index, {"name": "", "arguments": ""})
            pending["name"] += function.get("name") or ""
            pending["arguments"] += function.get("arguments") or ""
            if not pending["name"]:
                return []  # a call is announced with its name; wait for it
            del self.pending_calls[index]
            events = self._into("tool_use", None, id=_new_tool_id(), name=pending["name"])
            self.call_blocks[index] = len(self.blocks) - 1
            self.arguments.append("")
            return events + self._arguments(pending["arguments"])
        if self.call_blocks[index] != len(self.blocks) - 1:
            raise ApiError(502, words_for(WORDS, "went_back", index=index), retry=False)
        return self._arguments(function.get("arguments") or "")

    def _arguments(self, fragment: str) -> list[dict]:
        if not fragment:
            return []
        self.arguments[-1] += fragment
        delta = {"type": "input_json_delta", "partial_json": fragment}
        return [_event("content_block_delta", index=len(self.blocks) - 1, delta=delta)]


PING = {"event": "ping", "data": {"type": "ping"}}


def _event(name: str, **fields: Any) -> dict:
    return {"event": name, "data": {"type": name, **fields}}


def _new_tool_id() -> str:
    from tutorial.way_back import random_tool_id

    return random_tool_id()


def _stop_reason(has_tool_uses: bool, finish_reason: Optional[str], matched_stop: Any) -> str:
    from tutorial.way_back import stop_reason

    return stop_reason(has_tool_uses, finish_reason, matched_stop)


def tool_input(arguments: str, i: int, *, cut: bool) -> dict:
    """A call's arguments as an object; when the answer was cut by max_tokens, what arrived whole."""
    where = f"choices[0].message.tool_calls[{i}].function.arguments"
    if not arguments.strip():
        return {}
    try:
        value = json.loads(arguments)
    except ValueError as error:
        if not cut:
            raise ApiError(502, words_for(WORDS, "no_reply", where=where, problem=words_for(WORDS, "arguments_not_json", error=error)), retry=False)
        try:
            value = partial_json(arguments)
        except ValueError as partial_error:
            raise ApiError(502, words_for(WORDS, "no_reply", where=where, problem=partial_error), retry=False)
    if not isinstance(value, dict):
        raise ApiError(502, words_for(WORDS, "no_reply", where=where, problem=words_for(WORDS, "arguments_not_object")), retry=False)
    return value


# ---------------------------------------------------------------------------
# JSON text that stops half way


class _End(Exception):
    """The text ended inside the value being read."""


def partial_json(text: str) -> Any:
    """The value a JSON text that stopped half way had begun: objects and arrays keep the
    members that arrived whole; a string, number or literal the text ends inside is left out
    (as the SDK's own stream parser leaves it). ValueError if the text is not the start of JSON."""
    reader = _Reader(text)
    try:
        value, _whole = reader.value()
    except _End:
        return None
    reader.space()
    if reader.at < len(text):
        raise ValueError(f"unexpected {text[reader.at]!r} at character {reader.at}")
    return value


class _Reader:
    def __init__(self, text: str):
        self.text, self.at = text, 0

    def space(self) -> None:
        while self.at < len(self.text) and self.text[self.at] in " \t\r\n":
            self.at += 1

    def peek(self) -> str:
        self.space()
        if self.at >= len(self.text):
            raise _End
        return self.text[self.at]

    def value(self) -> tuple[Any, bool]:
        """(the value, whether it arrived whole)."""
        char = self.peek()
        if char == "{":
            return self.container("}", keyed=True)
        if char == "[":
            return self.container("]", keyed=False)
        if char == '"':
            return self.string(), True
        return self.scalar(), True

    def container(self, closer: str, keyed: bool) -> tuple[Any, bool]:
        self.at += 1
        result: Any = {} if keyed else []
        try:
            if self.peek() == closer:
                self.at += 1
                return result, True
            while True:
                if keyed:
                    if self.peek() != '"':
                        raise ValueError(f"expected a key at character {self.at}")
                    key = self.string()
                    if self.peek() != ":":
                        raise ValueError(f"expected ':' at character {self.at}")
                    self.at += 1
                value, whole = self.value()
                if keyed:
                    result[key] = value
                else:
                    result.append(value)
                if not whole:
                    return result, False
                char = self.peek()
                self.at += 1
                if char == closer:
                    return result, True
                if char != ",":
                    raise ValueError(f"unexpected {char!r} at character {self.at - 1}")
        except _End:
            return result, False

    def string(self) -> str:
        start = self.at
        self.at += 1
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "\\":
                self.at += 2
                continue
            self.at += 1
            if char == '"':
                return json.loads(self.text[start : self.at])
        raise _End

    def scalar(self) -> Any:
        start = self.at
        while self.at < len(self.text) and self.text[self.at] not in ",]} \t\r\n":
            self.at += 1
        if self.at >= len(self.text):
            raise _End  # a number or literal may go on
        return json.loads(self.text[start : self.at])
