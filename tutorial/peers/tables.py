"""Side-by-side tables: what four real stacks and our two targets made of the same input.

`data/` beside this module records what Slime, SGLang, vLLM and LiteLLM built from 22 Anthropic
requests and 6 model replies (versions in its README and in `PeerData.versions`). This
module turns one contested point of that record into a small table:

    data = load_peer_data()
    request_table([("roles", "09_text_before_tool_result_ordering", roles())], data)

One row per stack — the four peers, then our targets — and one column per `(label,
case id, view)`. A *view* picks the relevant part of an outcome (the role sequence, one
message's content, a setting, the error's first line) and says how to print it short.

Where our rows come from:
- requests: `ours: chat_template` and `ours: openai` run exactly the pipelines the
  conformance test compares (`deviations.run_ours`: the default target after `preprocess`,
  held against Slime; the "openai" target on the body as sent, held against SGLang).
  What a target leaves out of its output is read from the loss report
  (`losses.report`, the same report `trace(...).losses` gives).
- replies: `ours: way back` runs `way_back.build_reply` and `way_back.sse_events` on the
  recorded model output, with deterministic tool ids. When the way-back module cannot be
  imported, the reply tables show the peers only and their note says so.

Every table keeps the raw values (`Table.value`) beside the printed cells (`Table.cell`),
so a notebook can check a fact on the data and show it in the same breath. Both displays
are deterministic: no ids, no timestamps, JSON with `ensure_ascii=False`, long values cut
with "…", and HTML escaped.
"""

from __future__ import annotations

import functools
import html
import json
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence, Union

from . import deviations as dv
from ..watch import losses as loss_report
from ..errors import format_location

# ---------------------------------------------------------------------------
# Rows: who is compared

PEER_ROWS = ("slime", "sglang", "vllm", "litellm")
"""The recorded peers, in the order the tables list them."""

OUR_REQUEST_ROWS = {"ours: chat_template": "slime", "ours: openai": "sglang"}
"""Our request rows -> the peer whose pipeline (`deviations.PEERS`) each one runs."""

OUR_REPLY_ROW = "ours: way back"

_NAMES = {"slime": "Slime", "sglang": "SGLang", "vllm": "vLLM", "litellm": "LiteLLM"}


def peer_label(peer: str, data: dv.PeerData) -> str:
    """"SGLang 0.5.23", "Slime @624b824a": the name and the version the data came from."""
    meta = data.versions.get(peer, {})
    name = _NAMES.get(peer, peer)
    if meta.get("version"):
        return f"{name} {meta['version']}"
    source = str(meta.get("source", ""))
    if "@" in source:
        return f"{name} @{source.rsplit('@', 1)[1][:8]}"
    return name


def citation(data: dv.PeerData) -> str:
    """The four peers with their versions, for prose: "Slime @624b824a, SGLang 0.5.23, …"."""
    return ", ".join(peer_label(peer, data) for peer in PEER_ROWS)


# ---------------------------------------------------------------------------
# Markers for values that are not plain JSON


class _Marker:
    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


ABSENT = _Marker("(absent)")
"""The key is not there at all (which a template may treat differently from null or "")."""

NOT_APPLICABLE = _Marker("—")
"""The question does not apply to this row (e.g. a sampling setting for our translation)."""


@dataclass(frozen=True)
class Refused:
    """The row refused the input, so a view of its output has nothing to show."""

    outcome: str  # "400 (validation)", "RequestError", ...

    def __repr__(self) -> str:
        return f"✗ {self.outcome}"


@dataclass(frozen=True)
class InLossReport:
    """Our translation does not carry this setting; the loss report names it at `path`."""

    path: str

    def __repr__(self) -> str:
        return f"loss report: {self.path}"


# ---------------------------------------------------------------------------
# One row's outcome for one request or reply


@dataclass(frozen=True)
class RequestSide:
    """What one row made of one request: chat messages and tools, or a refusal."""

    row: str
    ok: bool
    messages: Optional[list] = None
    tools: Optional[list] = None
    record: Optional[dict] = None  # the peer's recorded result (None for our rows)
    error: Optional[str] = None  # the error text (all lines)
    status: Optional[int] = None  # the HTTP status a server would answer
    stage: Optional[str] = None  # where the peer refused (validation / conversion)
    losses: tuple = ()  # our rows: the loss report's (path, value) pairs

    @property
    def outcome(self) -> str:
        if self.ok:
            return "ok"
        if self.record is None:
            return "RequestError"
        return f"{self.status} ({self.stage})" if self.status else f"error ({self.stage})"


@dataclass(frozen=True)
class ReplySide:
    """What one row made of one model output: a response body (or an error) and a stream."""

    row: str
    response: Optional[dict]
    error: Optional[str]  # why there is no response body
    sse: list

    @property
    def ok(self) -> bool:
        return self.response is not None


def request_sides(case_id: str, data: dv.PeerData) -> dict[str, RequestSide]:
    """Every row's outcome for one recorded request, peers first, then our targets."""
    sides: dict[str, RequestSide] = {}
    for peer in PEER_ROWS:
        record = data.results[case_id][peer]
        if record.get("ok"):
            sides[peer] = RequestSide(peer, True, record.get("messages"), record.get("tools"), record)
        else:
            sides[peer] = RequestSide(
                peer,
                False,
                record=record,
                error=str(record.get("error") or "error"),
                status=record.get("http_status_if_served"),
                stage=record.get("stage"),
            )
    for row, peer in OUR_REQUEST_ROWS.items():
        sides[row] = _our_request_side(row, peer, data.cases[case_id])
    return sides


def _our_request_side(row: str, peer: str, request: dict) -> RequestSide:
    ours = dv.run_ours(request, peer)
    if not ours.ok:
        return RequestSide(row, False, error=str(ours.error))
    # The loss report of the very body this pipeline translated. (`trace` always preprocesses;
    # the "openai" row is compared on the body as sent, so the report is taken directly.)
    found = tuple((loss.path, loss.value) for loss in loss_report.report(ours.body, dv.PEERS[peer].target))
    return RequestSide(row, True, ours.messages, ours.tools, losses=found)


def _way_back():
    """The way-back module, or None when it is missing or broken (the tables then say so)."""
    try:
        from .. import way_back
    except Exception:  # noqa: BLE001 - any failure to import means: no row of ours
        return None
    needed = ("build_reply", "sse_events", "counting_ids")
    return way_back if all(hasattr(way_back, name) for name in needed) else None


def parsed_output(model_output: dict) -> dict:
    """A recorded engine output (`replies.json`) as `build_reply`'s `parsed` argument.

    This is the parsing step that comes before `build_reply`. Tool arguments are JSON
    text; text that does not parse is kept as `{"_raw_arguments": text}`, the way Slime
    @624b824a keeps it, so the model's words reach the client instead of vanishing.
    """
    uses = []
    for call in model_output.get("tool_calls") or []:
        try:
            arguments = json.loads(call["arguments"]) if call.get("arguments") else {}
        except json.JSONDecodeError:
            arguments = {"_raw_arguments": call["arguments"]}
        if not isinstance(arguments, dict):
            arguments = {"_raw_arguments": call["arguments"]}
        uses.append({"name": call["name"], "input": arguments})
    return {
        "reasoning": model_output.get("reasoning") or None,
        "text": model_output.get("text") or "",
        "tool_uses": uses,
        "matched_stop": model_output.get("matched_stop"),
    }


def our_reply(reply_id: str, data: dv.PeerData) -> Optional[dict]:
    """Our way back for one recorded model output, in the shape of a peer's record:
    `{"ok", "response", "sse", "manager_message"}`; None when the way back is unavailable.

    Tool ids come from `counting_ids()` ("toolu_0", …), so the result is the same every run.
    """
    way_back = _way_back()
    if way_back is None:
        return None
    output = data.replies[reply_id]
    blocks, stop_reason, manager = way_back.build_reply(
        parsed_output(output), output.get("finish_reason"), new_id=way_back.counting_ids()
    )
    stop_sequence = output.get("matched_stop") if stop_reason == "stop_sequence" else None
    model = _reply_models(data.directory).get(reply_id, "")
    usage = {"input_tokens": output.get("prompt_tokens", 0), "output_tokens": output.get("completion_tokens", 0)}
    response = {
        "id": f"msg_{reply_id}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": stop_sequence,
        "usage": usage,
    }
    events = way_back.sse_events(
        blocks,
        stop_reason,
        message_id=response["id"],
        model=model,
        input_tokens=usage["input_tokens"],
        output_tokens=usage["output_tokens"],
        stop_sequence=stop_sequence,
    )
    return {"ok": True, "response": response, "sse": events, "manager_message": manager}


@functools.lru_cache(maxsize=4)
def _reply_models(directory) -> dict[str, str]:
    # `PeerData.replies` keeps the model output only; the model name sits beside it.
    path = directory / "replies.json"
    if not path.is_file():
        return {}
    return {reply["id"]: reply.get("model", "") for reply in json.loads(path.read_text(encoding="utf-8"))}


def reply_sides(reply_id: str, data: dv.PeerData) -> dict[str, ReplySide]:
    """Every row's response body and stream for one recorded model output."""
    sides: dict[str, ReplySide] = {}
    records = dict(data.reply_results[reply_id])
    ours = our_reply(reply_id, data)
    rows = [*PEER_ROWS, *([OUR_REPLY_ROW] if ours is not None else [])]
    if ours is not None:
        records[OUR_REPLY_ROW] = ours
    for row in rows:
        record = records[row]
        failure = record.get("response_error")
        error = str(failure.get("error") or "error") if isinstance(failure, dict) else None
        response = record.get("response") if error is None else None
        if response is None and error is None:
            error = "no response body recorded"
        sides[row] = ReplySide(row, response, error, record.get("sse") or [])
    return sides


# ---------------------------------------------------------------------------
# Views: the part of an outcome a column shows, and how to print it short

Side = Union[RequestSide, ReplySide]


@dataclass(frozen=True)
class View:
    """`get(side)` picks a raw value; `show(value)` prints it on one line, at most `limit`
    characters. A view with `needs_output` shows a refusal instead of looking inside."""

    name: str
    get: Callable[[Any], Any]
    show: Callable[[Any], str]
    limit: int = 60
    needs_output: bool = True


def as_json(value: Any) -> str:
    """One-line JSON, Chinese and other scripts kept as they are."""
    return json.dumps(value, ensure_ascii=False)


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, the last one an ellipsis."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


_SPECIAL = (_Marker, Refused, InLossReport)


def render(value: Any) -> str:
    """The default printing: markers and refusals by name, anything else as JSON."""
    if isinstance(value, _SPECIAL):
        return repr(value)
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
    """"ok", or how the row refused: "400 (validation)", "400 (conversion)", "RequestError"."""
    return View("outcome", lambda side: side.outcome, str, needs_output=False)


def error_line(limit: int = 72) -> View:
    """The first line of the error, after the HTTP status a server would answer."""

    def get(side: RequestSide) -> str:
        if side.ok:
            return "ok"
        first = side.error.splitlines()[0] if side.error else ""
        return f"{side.status} · {first}" if side.status else f"{side.outcome} · {first}"

    return View("error", get, str, limit, needs_output=False)


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

    return View("where", get, lambda value: value if isinstance(value, str) else render(value), limit, False)


def roles(limit: int = 60) -> View:
    """The role of every message, in order."""
    return View("roles", lambda side: [m.get("role") for m in side.messages or []], " → ".join, limit)


def transcript(start: int = 0, stop: Optional[int] = None, limit: int = 110) -> View:
    """Messages `[start:stop]` one after another: `role content`, ` · ` between them."""

    def show(messages: list) -> str:
        return " · ".join(short_message(m) for m in messages) if messages else "(none)"

    name = f"messages[{start}:{'' if stop is None else stop}]"
    return View(name, lambda side: (side.messages or [])[start:stop], show, limit)


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

    return View(f"where {key!r} is", get, lambda found: ", ".join(found) if found else "nowhere", limit)


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

    return View(f"carries {needle!r}", get, lambda found: "yes" if found else "no")


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
            return _Marker("(ignored)")
        return ABSENT

    return View(body_key, get, render, limit)


# --- reply views -------------------------------------------------------------------


def reply_outcome(limit: int = 72) -> View:
    """"ok", or the first line of the error the row raised building the response body."""
    return View("body", lambda side: "ok" if side.ok else f"error · {side.error.splitlines()[0]}", str, limit, False)


def block_types(limit: int = 60) -> View:
    """The types of the response body's content blocks, in order."""
    return View("blocks", lambda side: [block.get("type") for block in side.response["content"]], _arrows, limit)


def _arrows(items: list) -> str:
    return " → ".join(str(item) for item in items) if items else "[] (no blocks)"


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


# ---------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class Row:
    key: str  # "slime", …, "ours: chat_template"
    label: str  # what the table prints: "Slime @624b824a"
    values: tuple  # raw values, one per column
    cells: tuple[str, ...]  # printed values, one per column

    @property
    def ours(self) -> bool:
        return self.key.startswith("ours")


@dataclass(frozen=True)
class Table:
    """Rows of stacks, columns of views. `value(row, column)` is the raw value,
    `cell(row, column)` what is printed; rows and columns are named by key and label."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = field(default=())

    def row(self, key: str) -> Row:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(f"no row {key!r}; rows are {[r.key for r in self.rows]}")

    def _index(self, column: str) -> int:
        if column not in self.columns:
            raise KeyError(f"no column {column!r}; columns are {list(self.columns)}")
        return self.columns.index(column)

    def value(self, row: str, column: str) -> Any:
        return self.row(row).values[self._index(column)]

    def cell(self, row: str, column: str) -> str:
        return self.row(row).cells[self._index(column)]

    def column(self, column: str) -> dict[str, Any]:
        """`{row key: raw value}` for one column."""
        index = self._index(column)
        return {row.key: row.values[index] for row in self.rows}

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(row.key for row in self.rows)

    def __repr__(self) -> str:
        header = ("stack", *self.columns)
        lines = [(row.label, *row.cells) for row in self.rows]
        widths = [max(_width(line[i]) for line in (header, *lines)) for i in range(len(header))]

        def line(cells) -> str:
            return " | ".join(_pad(cell, width) for cell, width in zip(cells, widths)).rstrip()

        rule = "-+-".join("-" * width for width in widths)
        text = [self.title, line(header), rule, *(line(cells) for cells in lines)]
        text += [f"note: {note}" for note in self.notes]
        return "\n".join(text)

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(column)}</th>" for column in ("stack", *self.columns))
        body = []
        for row in self.rows:
            cells = "".join(f"<td><code>{e(cell)}</code></td>" for cell in row.cells)
            kind = "ours" if row.ours else "peer"
            body.append(f"<tr class='tp-{kind}'><th>{e(row.label)}</th>{cells}</tr>")
        notes = "".join(f"<div class='tp-note'>{e(note)}</div>" for note in self.notes)
        return (
            f"{_STYLE}<table class='tp-peers'><caption>{e(self.title)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>{notes}"
        )


_STYLE = (
    "<style>.tp-peers{border-collapse:collapse;font-size:12px;margin:4px 0}"
    ".tp-peers caption{text-align:left;font-weight:bold;padding:2px 0}"
    ".tp-peers th,.tp-peers td{border:1px solid #d0d7de;padding:3px 6px;text-align:left;vertical-align:top}"
    ".tp-peers code{white-space:pre-wrap;word-break:break-word;background:none}"
    ".tp-peers tr.tp-ours{background:#eef6ff}.tp-note{font-size:11px;color:#57606a}</style>"
)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


def _cell(view: View, side: Side) -> tuple[Any, str]:
    if view.needs_output and not side.ok:
        value: Any = Refused(side.outcome if isinstance(side, RequestSide) else "no response body")
    else:
        value = view.get(side)
    text = render(value) if isinstance(value, _SPECIAL) else view.show(value)
    return value, shorten(text, view.limit).replace("\n", "⏎")


ColumnSpec = tuple[str, str, View]  # (label, case or reply id, view)


def _label(key: str, data: dv.PeerData) -> str:
    return peer_label(key, data) if key in PEER_ROWS else key


def _build(
    columns: Sequence[ColumnSpec],
    sides_of: Callable[[str], dict[str, Side]],
    title: str,
    notes: tuple[str, ...],
    data: dv.PeerData,
) -> Table:
    if not columns:
        raise ValueError("a table needs at least one (label, id, view) column")
    labels = tuple(label for label, _, _ in columns)
    if len(set(labels)) != len(labels):
        raise ValueError(f"column labels must differ, got {list(labels)}")
    per_source = {source: sides_of(source) for source in dict.fromkeys(source for _, source, _ in columns)}
    row_keys = list(dict.fromkeys(key for sides in per_source.values() for key in sides))
    rows = []
    for key in row_keys:
        pairs = [_cell(view, per_source[source][key]) for _, source, view in columns]
        rows.append(Row(key, _label(key, data), tuple(v for v, _ in pairs), tuple(c for _, c in pairs)))
    return Table(title, labels, tuple(rows), notes)


def _default_title(columns: Sequence[ColumnSpec]) -> str:
    return " + ".join(dict.fromkeys(source for _, source, _ in columns))


def request_table(
    columns: Sequence[ColumnSpec], data: Optional[dv.PeerData] = None, title: Optional[str] = None
) -> Table:
    """A table of recorded requests: one row per peer and per target of ours, one column per
    `(label, case id, view)`."""
    data = data if data is not None else dv.load_peer_data()
    notes = (
        "ours: chat_template = preprocess + target 'chat_template'; "
        "ours: openai = target 'openai' on the body as sent",
    )
    return _build(columns, lambda case_id: request_sides(case_id, data), title or _default_title(columns), notes, data)


def reply_table(
    columns: Sequence[ColumnSpec], data: Optional[dv.PeerData] = None, title: Optional[str] = None
) -> Table:
    """A table of recorded model outputs: one row per peer (and ours when the way back is
    available), one column per `(label, reply id, view)`."""
    data = data if data is not None else dv.load_peer_data()
    if _way_back() is None:
        notes = ("tutorial.way_back is not available: only the peers are shown",)
    else:
        notes = ("ours: way back = build_reply + sse_events on the same model output (tool ids toolu_0, toolu_1, …)",)
    return _build(columns, lambda reply_id: reply_sides(reply_id, data), title or _default_title(columns), notes, data)


def outcome_table(case_ids: Sequence[str], data: Optional[dv.PeerData] = None, title: Optional[str] = None) -> Table:
    """Which rows accept and which refuse each of `case_ids`: one column per case."""
    return request_table([(case_id, case_id, outcome()) for case_id in case_ids], data, title or "outcome per case")


def sources_table(data: Optional[dv.PeerData] = None) -> Table:
    """Where each row's data comes from: the recorded source of every peer, and for our
    targets which peer the conformance test holds them against."""
    data = data if data is not None else dv.load_peer_data()
    rows = []
    for peer in PEER_ROWS:
        source = str(data.versions.get(peer, {}).get("source", "?"))
        rows.append(Row(peer, peer_label(peer, data), (source, NOT_APPLICABLE), (source, "—")))
    for row, peer in OUR_REQUEST_ROWS.items():
        pipeline = dv.PEERS[peer]
        made = f"target {pipeline.target!r}" + (" after preprocess" if pipeline.preprocess else " on the body as sent")
        rows.append(Row(row, row, (made, peer), (made, peer_label(peer, data))))
    if _way_back() is not None:
        made = "way_back.build_reply + sse_events"
        rows.append(Row(OUR_REPLY_ROW, OUR_REPLY_ROW, (made, NOT_APPLICABLE), (made, "—")))
    return Table("the rows of every table", ("made by", "held against (tests/test_conformance.py)"), tuple(rows))
