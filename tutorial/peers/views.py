"""Views: the part of an outcome a table column shows (the role sequence, one message's
content, a setting, an error's first line ...), and how to print it short."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

from ..errors import format_location
from ..words import current, using, words_for
from .outcomes import (
    ABSENT, NOT_APPLICABLE, WORDS as OUTCOME_WORDS, InLossReport, Refused, ReplySide, RequestSide, _Marker, outcome_in,
)

# ---------------------------------------------------------------------------
# Views: the part of an outcome a column shows, and how to print it short

Side = Union[RequestSide, ReplySide]


# The few words views print besides data, per language.
WORDS = {
    "en": {"none": "(none)", "nowhere": "nowhere", "yes": "yes", "no": "no", "no_blocks": "[] (no blocks)",
           "error": "error · {first}"},
    "zh": {"none": "（无）", "nowhere": "无", "yes": "是", "no": "否", "no_blocks": "[]（没有内容块）",
           "error": "错误 · {first}"},
}


def _in_english(show_in: Callable[[Any], str]) -> Callable[[Any], str]:
    """A view's plain `show`: what `show_in` prints, always in English."""

    def show(value: Any) -> str:
        with using("en"):
            return show_in(value)

    return show


@dataclass(frozen=True)
class View:
    """`get(side)` picks a raw value; `show(value)` prints it on one line, at most `limit`
    characters (`show_in(value)`, when given, prints it in the current language). A view with
    `needs_output` shows a refusal instead of looking inside."""

    name: str
    get: Callable[[Any], Any]
    show: Callable[[Any], str]
    limit: int = 60
    needs_output: bool = True
    show_in: Optional[Callable[[Any], str]] = None

    def text(self, value: Any) -> str:
        """`value` printed in the current language."""
        return self.show_in(value) if self.show_in else self.show(value)


def as_json(value: Any) -> str:
    """One-line JSON, Chinese and other scripts kept as they are."""
    return json.dumps(value, ensure_ascii=False)


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, the last one an ellipsis."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


_SPECIAL = (_Marker, Refused, InLossReport)


def render(value: Any) -> str:
    """The default printing: markers and refusals by name (in the current language), anything else as JSON."""
    if isinstance(value, _SPECIAL):
        return value.text_in()
    return as_json(value)


def short_part(part: Any) -> str:
    """One content part in a few words: `text:"…"`, `image_url:data:image/png…`, `type:{rest}`."""
    if not isinstance(part, dict):
        return as_json(part)
    kind = part.get("type")
    if kind == "text" and set(part) == {"type", "text"}:
        return f"text:{as_json(part['text'])}"
    if kind == "image_url" and isinstance(part.get("image_url"), dict):
        return f"image_url:{shorten(str(part['image_url'].get('url')), 24)}"
    rest = {key: value for key, value in part.items() if key != "type"}
    return f"{kind}:{as_json(rest)}"


def short_content(content: Any) -> str:
    """A message's content: a string as JSON, a list of parts part by part."""
    if content is ABSENT:
        return repr(ABSENT)
    if isinstance(content, list):
        return "[" + ", ".join(short_part(part) for part in content) + "]"
    return as_json(content)


def short_message(message: dict) -> str:
    """`role content`, plus the names of the tools called: `assistant "" +calls(f)`."""
    text = f"{message.get('role', '?')} {short_content(message.get('content', ABSENT))}"
    calls = message.get("tool_calls")
    if calls:
        names = [str((call.get("function") or {}).get("name")) for call in calls if isinstance(call, dict)]
        text += " +calls(" + ",".join(names) + ")"
    return text


def _message(side: RequestSide, index: int) -> Any:
    messages = side.messages or []
    return messages[index] if -len(messages) <= index < len(messages) else ABSENT


# --- request views ---------------------------------------------------------------


def outcome() -> View:
    """"ok", or how the row refused: "400 (validation)", "400 (conversion)", "RequestError"
    (in Chinese: 成功, 400（校验阶段）, …)."""
    return View("outcome", lambda side: side.outcome, str, needs_output=False, show_in=outcome_in)


def error_line(limit: int = 72) -> View:
    """The first line of the error, after the HTTP status a server would answer."""

    def get(side: RequestSide) -> str:
        if side.ok:
            return "ok"
        first = side.error.splitlines()[0] if side.error else ""
        return f"{side.status} · {first}" if side.status else f"{side.outcome} · {first}"

    def show_in(value: str) -> str:  # the outcome said in the current language; the error itself is the row's (data)
        outcome, dot, first = value.partition(" · ")
        return outcome_in(outcome) + dot + first

    return View("error", get, str, limit, needs_output=False, show_in=show_in)


def error_where(limit: int = 40) -> View:
    """Where the error points: a validation error's first field, or our location."""

    def get(side: RequestSide) -> Any:
        if side.ok or not side.error:
            return NOT_APPLICABLE
        if side.record is None:  # ours: "messages[1].content[0].type: ..."
            return side.error.split(": ", 1)[0]
        lines = side.error.splitlines()
        if side.stage == "validation" and len(lines) > 1:
            return lines[1].strip()
        return NOT_APPLICABLE

    def show_in(value: Any) -> str:
        return value if isinstance(value, str) else render(value)

    return View("where", get, _in_english(show_in), limit, False, show_in)


def roles(limit: int = 60) -> View:
    """The role of every message, in order."""
    return View("roles", lambda side: [m.get("role") for m in side.messages or []], " → ".join, limit)


def transcript(start: int = 0, stop: Optional[int] = None, limit: int = 110) -> View:
    """Messages `[start:stop]` one after another: `role content`, ` · ` between them."""

    def show_in(messages: list) -> str:
        return " · ".join(short_message(m) for m in messages) if messages else words_for(WORDS, "none")

    name = f"messages[{start}:{'' if stop is None else stop}]"
    return View(name, lambda side: (side.messages or [])[start:stop], _in_english(show_in), limit, show_in=show_in)


def message(index: int, limit: int = 80) -> View:
    """One whole message as JSON."""
    return View(f"messages[{index}]", lambda side: _message(side, index), render, limit)


def message_field(index: int, key: str, limit: int = 60) -> View:
    """One key of one message; `(absent)` when the message has no such key."""

    def get(side: RequestSide) -> Any:
        found = _message(side, index)
        return found.get(key, ABSENT) if isinstance(found, dict) else ABSENT

    return View(f"messages[{index}].{key}", get, render, limit)


def message_keys(index: int, limit: int = 60) -> View:
    """The keys one message carries, in the order the row wrote them."""

    def get(side: RequestSide) -> Any:
        found = _message(side, index)
        return list(found) if isinstance(found, dict) else ABSENT

    return View(f"messages[{index}] keys", get, lambda v: ", ".join(v) if isinstance(v, list) else render(v), limit)


def tool_names(limit: int = 60) -> View:
    """The names in the tools schema, or null when the row sends no tools."""

    def get(side: RequestSide) -> Any:
        if side.tools is None:
            return None
        return [(tool.get("function") or tool).get("name") for tool in side.tools]

    return View("tool names", get, render, limit)


def key_paths(key: str, where: str = "tools", limit: int = 60) -> View:
    """Every place in the row's `tools` (or `messages`) where `key` is a key."""

    def get(side: RequestSide) -> list[str]:
        return [format_location((where, *location)) for location in _paths_of(key, getattr(side, where))]

    def show_in(found: list) -> str:
        return ", ".join(found) if found else words_for(WORDS, "nowhere")

    return View(f"where {key!r} is", get, _in_english(show_in), limit, show_in=show_in)


def _paths_of(key: str, value: Any, location: tuple = ()) -> list[tuple]:
    found = []
    if isinstance(value, dict):
        for name, inner in value.items():
            if name == key:
                found.append(location + (name,))
            found.extend(_paths_of(key, inner, location + (name,)))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found.extend(_paths_of(key, inner, location + (index,)))
    return found


def carries(needle: str) -> View:
    """Does `needle` occur anywhere in the row's messages and tools (as a key or in a value)?"""

    def get(side: RequestSide) -> bool:
        return needle in as_json([side.messages, side.tools])

    def show_in(found: bool) -> str:
        return words_for(WORDS, "yes" if found else "no")

    return View(f"carries {needle!r}", get, _in_english(show_in), show_in=show_in)


def setting(body_key: str, *peer_keys: str, limit: int = 40) -> View:
    """A request setting beside the messages: what a peer passes on for `body_key` (under
    the first of `peer_keys` found in its recorded params, sampling params or result), or,
    for our rows, the loss report's entry: our translation carries no settings."""
    keys = peer_keys or (body_key,)

    def get(side: RequestSide) -> Any:
        if side.record is None:
            named = [path for path, _ in side.losses if path == body_key]
            return InLossReport(named[0]) if named else NOT_APPLICABLE
        record = side.record
        for place in (record.get("params") or {}, record.get("sampling_params") or {}, record):
            for key in keys:
                if key in place:
                    return place[key]
        if body_key in (record.get("ignored_top_level_keys") or ()):
            return _Marker("(ignored)", "（被忽略）")
        return ABSENT

    return View(body_key, get, render, limit)


# --- reply views -------------------------------------------------------------------


def reply_outcome(limit: int = 72) -> View:
    """"ok", or the first line of the error the row raised building the response body."""
    def get(side: ReplySide) -> str:
        return "ok" if side.ok else WORDS["en"]["error"].format(first=side.error.splitlines()[0])

    def show_in(value: str) -> str:
        if current() == "en" or value == "ok":
            return outcome_in(value)
        first = value.split(" · ", 1)[1]
        if first == OUTCOME_WORDS["en"]["no_response_recorded"]:
            first = words_for(OUTCOME_WORDS, "no_response_recorded")
        return words_for(WORDS, "error", first=first)  # the rest is the row's own error: data

    return View("body", get, str, limit, False, show_in)


def block_types(limit: int = 60) -> View:
    """The types of the response body's content blocks, in order."""
    return View("blocks", lambda side: [block.get("type") for block in side.response["content"]],
                _in_english(_arrows), limit, show_in=_arrows)


def _arrows(items: list) -> str:
    return " → ".join(str(item) for item in items) if items else words_for(WORDS, "no_blocks")


def reply_content(limit: int = 60) -> View:
    """The response body's content as JSON."""
    return View("content", lambda side: side.response["content"], render, limit)


def thinking_signature(limit: int = 40) -> View:
    """The `signature` of the first thinking block: `(absent)`, null or the string."""

    def get(side: ReplySide) -> Any:
        for block in side.response["content"]:
            if block.get("type") == "thinking":
                return block.get("signature", ABSENT)
        return NOT_APPLICABLE

    return View("thinking signature", get, render, limit)


def reply_field(key: str, limit: int = 40) -> View:
    """One top-level key of the response body; `(absent)` when it is not there."""
    return View(key, lambda side: side.response.get(key, ABSENT), render, limit)


def tool_inputs(limit: int = 60) -> View:
    """The `input` of every tool_use block in the response body."""
    def get(side: ReplySide) -> list:
        return [block.get("input") for block in side.response["content"] if block.get("type") == "tool_use"]

    return View("tool inputs", get, render, limit)


def event_names() -> View:
    """The SSE event names, in order."""
    return View("events", lambda side: [event.get("event") for event in side.sse], ", ".join, 400, False)


def stream(limit: int = 160) -> View:
    """The stream in short: `[type: deltas]` for each content block between the message events.

    `message_start [thinking: thinking_delta signature_delta] [text: text_delta] message_delta
    message_stop` reads: a thinking block streamed as two deltas, then a text block.
    `[text:]` is a block opened and closed with no delta in between.
    """

    def get(side: ReplySide) -> str:
        pieces = []
        for event in side.sse:
            name, data = event.get("event"), event.get("data") or {}
            if name == "content_block_start":
                pieces.append(f" [{(data.get('content_block') or {}).get('type')}:")
            elif name == "content_block_delta":
                pieces.append(f" {(data.get('delta') or {}).get('type')}")
            elif name == "content_block_stop":
                pieces.append("]")
            else:
                pieces.append(f" {name} ")
        return " ".join("".join(pieces).split())

    return View("stream", get, str, limit, False)


def streamed_inputs(limit: int = 60) -> View:
    """The JSON text streamed for each tool_use block (its `input_json_delta`s joined)."""

    def get(side: ReplySide) -> list[str]:
        texts: dict[int, str] = {}
        for event in side.sse:
            data = event.get("data") or {}
            delta = data.get("delta") or {}
            if event.get("event") == "content_block_delta" and delta.get("type") == "input_json_delta":
                texts[data.get("index")] = texts.get(data.get("index"), "") + delta.get("partial_json", "")
        return [texts[index] for index in sorted(texts)]

    return View("streamed input JSON", get, render, limit, False)


def streamed_signature(limit: int = 40) -> View:
    """The signature sent in the stream (its `signature_delta`s joined), or `(absent)`."""

    def get(side: ReplySide) -> Any:
        found = [
            (event.get("data") or {}).get("delta", {}).get("signature", "")
            for event in side.sse
            if ((event.get("data") or {}).get("delta") or {}).get("type") == "signature_delta"
        ]
        return "".join(found) if found else ABSENT

    return View("streamed signature", get, render, limit, False)


def stream_event(name: str, *path: str, limit: int = 60) -> View:
    """A part of the last event called `name` (e.g. `stream_event("message_delta", "delta")`)."""

    def get(side: ReplySide) -> Any:
        found: Any = ABSENT
        for event in side.sse:
            if event.get("event") == name:
                found = event.get("data")
        for key in path:
            found = found.get(key, ABSENT) if isinstance(found, dict) else ABSENT
        return found

    return View(f"{name}.{'.'.join(path)}" if path else name, get, render, limit, False)
