"""The round trip: chat messages back into an Anthropic request, and an Anthropic
response into one chat message.

    request = to_anthropic(messages, tools)          # chat messages -> an Anthropic request
    message = response_to_message(response)          # an Anthropic response -> one chat message

For the requests the "openai" target carries without loss,
`to_anthropic(translate(body, target="openai")[0])` gives back the body's `system` and
`messages` (a lone text block may come back as a plain string). Plain JSON values in and
out, arguments never changed, bad input raises `RequestError` located in the argument.

Where the spec is silent, the choices made here (each explained where it is made):
- `to_anthropic` merges consecutive tool messages with the same `tool_call_id` (the runs
  the "openai" target split one result into) back into one `tool_result`; reads a
  `developer` message as a system message; refuses an OpenAI part type it cannot map
  instead of passing it through; and drops `reasoning_content` when there are no blocks
  (unsigned thinking cannot be replayed to Anthropic).
- `response_to_message` keeps `blocks` whenever the content has a block that text plus
  tool calls cannot rebuild (server-tool blocks as well as thinking).
- `to_anthropic` leaves out what would be empty on the wire: `system` when there is no
  system message, a tool_result's `content` when the result has none (a client would
  otherwise post `"system": null` or `"content": ""`).

Every value copied word for word or parsed from JSON text (a part's fields, saved blocks,
tool call arguments, tool parameters) is a free value (`limits.py`), checked before use.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Optional

from . import limits
from .errors import RequestError, format_location
from .openai_target import openai_tool_call
from .translation import flatten_content

# ---------------------------------------------------------------------------
# to_anthropic: chat messages (either target's shape) -> an Anthropic request

# Block types of the Anthropic Messages API. A part of one of these types is already in
# wire form and goes through word for word (a document with citations, a cache_control
# breakpoint, ...). Any other part type is either mapped below or refused.
ANTHROPIC_BLOCK_TYPES = frozenset(
    {
        "text", "image", "document", "search_result", "thinking", "redacted_thinking", "tool_use",
        "tool_result", "tool_reference", "server_tool_use", "web_search_tool_result",
    }
)  # fmt: skip

_DATA_URL = re.compile(r"data:([^;,]+);base64,(.*)", re.DOTALL)

BLOCKS_FORMAT = "anthropic-content"


def to_anthropic(messages: list, tools: Optional[list] = None) -> dict:
    """Chat messages -> `{"system": str, "messages": [...]}` (no `"system"` without a system
    message), plus `"tools"` when tools are given (chat function tools become Anthropic tools).

    System messages are lifted to the top-level `system`; tool messages become
    `tool_result` blocks inside user messages; ids missing from the default target's
    messages are minted as "toolu_<n>" and paired by position.
    """
    if not isinstance(messages, list):
        raise RequestError(("messages",), "must be a list of messages, got {got}", got=type(messages).__name__)
    system_texts: list[str] = []
    wire: list[dict] = []
    calls_so_far = 0  # numbers the ids minted for calls that came without one
    unanswered: list[str] = []  # ids of the last assistant turn's calls still waiting for a result
    results_open = False  # is wire[-1] the user message that collects tool results?
    for i, message in enumerate(messages):
        where = ("messages", i)
        role = _role(message, where)
        if role == "system":
            text = _system_text(message.get("content"), where + ("content",))
            if text:
                system_texts.append(text)
        elif role == "assistant":
            content, call_ids = _assistant_content(message, where, calls_so_far)
            calls_so_far += len(call_ids)
            unanswered = list(call_ids)
            wire.append({"role": "assistant", "content": content})
            results_open = False
        elif role == "tool":
            result = _tool_result(message, where, unanswered)
            if results_open:
                _add_result(wire[-1]["content"], result)
            else:
                wire.append({"role": "user", "content": [result]})
                results_open = True
        else:
            content = _user_content(message.get("content"), where + ("content",))
            if results_open:
                # The Anthropic API wants user and assistant turns to alternate, and the
                # results of one assistant turn answer it together: all of them, and the
                # user's words that follow, travel in one user message.
                wire[-1]["content"].extend(_as_blocks(content))
            else:
                wire.append({"role": "user", "content": content})
            results_open = False
    request: dict = {"system": "\n".join(system_texts)} if system_texts else {}
    request["messages"] = wire
    if tools is not None:
        request["tools"] = _wire_tools(tools)
    return request


def _role(message: Any, where: tuple) -> str:
    if not isinstance(message, dict):
        raise RequestError(where, "must be a message object, got {got}", got=type(message).__name__)
    role = message.get("role")
    if role == "developer":  # OpenAI's newer name for the system role
        return "system"
    if role not in ("system", "user", "assistant", "tool"):
        raise RequestError(where + ("role",), "must be system, user, assistant or tool, got {got}", got=limits.shown(role))
    return role


def _system_text(content: Any, where: tuple) -> str:
    if isinstance(content, list):
        for j, part in enumerate(content):
            if isinstance(part, dict):
                limits.check_fields(part, where + (j,))  # before flatten_content reads into it
    if isinstance(content, (str, list)):
        return flatten_content(content)
    raise RequestError(
        where, "a system message's content must be a string or a list of text parts, got {got}", got=type(content).__name__
    )


def _as_blocks(content: Any) -> list:
    """A content value as a list of blocks, to be merged with others ("" adds nothing)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return list(content)


# --- user messages ---------------------------------------------------------


def _user_content(content: Any, where: tuple) -> Any:
    if isinstance(content, str):
        return content  # a plain string stays a plain string
    if not isinstance(content, list):
        raise RequestError(where, "must be a string or a list of content parts, got {got}", got=type(content).__name__)
    return [_user_part(part, where + (j,)) for j, part in enumerate(content)]


def _user_part(part: Any, where: tuple) -> dict:
    """One OpenAI-style content part -> one Anthropic block."""
    if isinstance(part, str):
        return {"type": "text", "text": part}
    kind = _part_type(part, where)
    limits.check_fields(part, where)
    if kind == "text":
        if not isinstance(part.get("text"), str):
            raise RequestError(where + ("text",), "a text part needs a string text")
        return copy.deepcopy(part)  # same shape on both wires; extra keys (cache_control) kept
    if kind == "image_url":
        return _image_block(part.get("image_url"), where + ("image_url",))
    if kind == "file":
        return _document_block(part.get("file"), where + ("file",))
    if kind == "input_audio":
        # Refused, not dropped: the Messages API takes no audio at all. Leaving the part
        # out would send a request that looks fine, and the model would answer a
        # question it never heard, with nothing to tell anyone why.
        raise RequestError(where, "an input_audio part cannot be sent: the Anthropic Messages API accepts no audio")
    if kind == "tool_reference" and "tool_name" not in part and "name" in part:
        # The "openai" target renamed tool_name to name for the chat templates; undo it.
        return {"type": "tool_reference", "tool_name": part["name"]}
    if kind in ANTHROPIC_BLOCK_TYPES:
        return copy.deepcopy(part)  # already an Anthropic block: word for word
    raise RequestError(where + ("type",), "a {kind} part has no Anthropic equivalent (refused, not dropped)", kind=limits.shown(kind))


def _part_type(part: Any, where: tuple) -> str:
    if not isinstance(part, dict):
        raise RequestError(where, "must be a content part (an object with a string type), got {got}", got=type(part).__name__)
    if not isinstance(part.get("type"), str):
        raise RequestError(where + ("type",), "is required and must be a string")
    return part["type"]


def _image_block(image_url: Any, where: tuple) -> dict:
    url = image_url.get("url") if isinstance(image_url, dict) else image_url  # some clients send the bare URL
    if not isinstance(url, str) or not url:
        raise RequestError(where + ("url",), "an image_url part needs a URL string")
    if url.startswith("data:"):
        match = _DATA_URL.fullmatch(url)
        if not match:
            # A data URL that is not base64 would be sent as a url source and fail there.
            raise RequestError(where + ("url",), "a data URL must be base64: data:<media_type>;base64,<data>")
        return {"type": "image", "source": {"type": "base64", "media_type": match[1], "data": match[2]}}
    return {"type": "image", "source": {"type": "url", "url": url}}


def _document_block(file: Any, where: tuple) -> dict:
    if not isinstance(file, dict):
        raise RequestError(where, "a file part needs a file object with file_data")
    data = file.get("file_data")
    if not isinstance(data, str):
        why = "an uploaded file's id means nothing to Anthropic" if "file_id" in file else "it is required"
        raise RequestError(where + ("file_data",), "a file part must carry its data as a data URL ({why})", why=why)
    match = _DATA_URL.fullmatch(data)
    if not match or match[1] != "application/pdf":
        raise RequestError(where + ("file_data",), "only a PDF (data:application/pdf;base64,...) becomes a document")
    block = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": match[2]}}
    if isinstance(file.get("filename"), str):
        block["title"] = file["filename"]  # the document's title is where a file name can go
    return block


# --- tool messages -----------------------------------------------------------


def _tool_result(message: dict, where: tuple, unanswered: list[str]) -> dict:
    call_id = message.get("tool_call_id")
    if call_id is None:
        # The default target keeps no ids: the template pairs a result with a call by
        # position, so we do the same — the next call of the turn not yet answered.
        if not unanswered:
            raise RequestError(
                where, "a tool message without tool_call_id must follow an assistant message with a call left to answer"
            )
        call_id = unanswered.pop(0)
    elif not isinstance(call_id, str):
        raise RequestError(where + ("tool_call_id",), "must be a string, got {got}", got=type(call_id).__name__)
    elif call_id in unanswered:
        unanswered.remove(call_id)
    content = message.get("content")
    if isinstance(content, list):
        content = [_user_part(part, where + ("content", k)) for k, part in enumerate(content)]
    elif content is not None and not isinstance(content, str):
        raise RequestError(where + ("content",), "must be a string or a list of parts, got {got}", got=type(content).__name__)
    result = {"type": "tool_result", "tool_use_id": call_id}
    if content:  # None, "" and [] are a result without content: the key is left out
        result["content"] = content
    return result


def _add_result(blocks: list, result: dict) -> None:
    """Append a tool_result to the collecting user message (a list this module built).

    A result the "openai" target split into several tool messages (runs of text and
    tool references, all with the same tool_call_id) becomes one tool_result again:
    the API accepts exactly one result per call.
    """
    last = blocks[-1] if blocks else None
    if last and last.get("type") == "tool_result" and last["tool_use_id"] == result["tool_use_id"]:
        joined = _as_blocks(last.get("content", "")) + _as_blocks(result.get("content", ""))
        blocks[-1] = {"type": "tool_result", "tool_use_id": last["tool_use_id"], **({"content": joined} if joined else {})}
    else:
        blocks.append(result)


# --- assistant messages ------------------------------------------------------


def _assistant_content(message: dict, where: tuple, calls_so_far: int) -> tuple[Any, list[str]]:
    """-> (content, ids of its tool calls)."""
    saved = message.get("blocks")
    if isinstance(saved, dict) and saved.get("format") == BLOCKS_FORMAT:
        # Replayed exactly as Anthropic sent them. A thinking block's signature is
        # Anthropic's proof that it wrote that reasoning; change a character, reorder
        # the blocks or drop one, and the API rejects the turn. So nothing is rebuilt.
        return _saved_blocks(saved.get("data"), where + ("blocks", "data"))
    blocks = _assistant_text_blocks(message.get("content"), where + ("content",))
    # `reasoning_content` is not sent: without blocks there is no signature, and
    # Anthropic accepts a thinking block in the history only with its signature.
    calls = message.get("tool_calls") or []
    if not isinstance(calls, list):
        raise RequestError(where + ("tool_calls",), "must be a list, got {got}", got=type(calls).__name__)
    uses = [_tool_use(call, where + ("tool_calls", k), calls_so_far + k) for k, call in enumerate(calls)]
    if not uses and isinstance(message.get("content"), str):
        return message["content"], []  # text only: a plain string, as it came
    content = blocks + uses
    return (content or ""), [use["id"] for use in uses]


def _saved_blocks(data: Any, where: tuple) -> tuple[list, list[str]]:
    if not isinstance(data, list):
        raise RequestError(where, "must be the list of blocks Anthropic sent, got {got}", got=type(data).__name__)
    for j, block in enumerate(data):
        kind = _part_type(block, where + (j,))
        limits.check_fields(block, where + (j,))
        if kind == "tool_use" and not isinstance(block.get("id"), str):
            raise RequestError(where + (j, "id"), "a saved tool_use block needs its string id")
    return copy.deepcopy(data), [block["id"] for block in data if block["type"] == "tool_use"]


def _assistant_text_blocks(content: Any, where: tuple) -> list[dict]:
    if content is None or isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []  # an empty text is no block
    if not isinstance(content, list):
        raise RequestError(where, "must be a string, None or a list of content parts, got {got}", got=type(content).__name__)
    blocks = []
    for j, part in enumerate(content):
        if isinstance(part, str):
            part = {"type": "text", "text": part}
        kind = _part_type(part, where + (j,))
        limits.check_fields(part, where + (j,))
        if kind == "text":
            if not isinstance(part.get("text"), str):
                raise RequestError(where + (j, "text"), "a text part needs a string text")
            if part["text"]:
                blocks.append(copy.deepcopy(part))
        elif kind in ANTHROPIC_BLOCK_TYPES:
            blocks.append(copy.deepcopy(part))
        else:
            raise RequestError(where + (j, "type"), "an assistant {kind} part has no Anthropic equivalent", kind=limits.shown(kind))
    return blocks


def _tool_use(call: Any, where: tuple, number: int) -> dict:
    if not isinstance(call, dict):
        raise RequestError(where, "must be a tool call object, got {got}", got=type(call).__name__)
    function = call.get("function")
    if not isinstance(function, dict):
        raise RequestError(where + ("function",), "a tool call needs a function: an object with a string name")
    if not isinstance(function.get("name"), str):
        raise RequestError(where + ("function", "name"), "a tool call needs a function with a string name")
    call_id = call.get("id")
    if call_id in (None, ""):
        call_id = f"toolu_{number}"  # deterministic, so the same history always gives the same request
    elif not isinstance(call_id, str):
        raise RequestError(where + ("id",), "must be a string, got {got}", got=type(call_id).__name__)
    arguments = _arguments(function.get("arguments"), where + ("function", "arguments"))
    return {"type": "tool_use", "id": call_id, "name": function["name"], "input": arguments}


def _arguments(arguments: Any, where: tuple) -> dict:
    if isinstance(arguments, dict):
        limits.check_json(arguments, where)
        return copy.deepcopy(arguments)  # the default target leaves them a dict
    if arguments is None or arguments == "":
        return {}  # some engines send "" for a call without arguments
    if not isinstance(arguments, str):
        raise RequestError(where, "must be JSON text or an object, got {got}", got=type(arguments).__name__)
    value = limits.read_json(arguments, "the arguments", where)
    if not isinstance(value, dict):
        raise RequestError(where, "must encode a JSON object (a tool_use input), got {got}", got=type(value).__name__)
    try:
        limits.check_json(value)  # Python reads NaN and Infinity, but they are not JSON
    except RequestError as error:  # located in the text's value: the place to point at is the text
        raise RequestError(where, "is JSON text whose value at {at} {inner}", at=format_location(error.location), inner=error) from None
    return value


# --- tools ---------------------------------------------------------------------


def _wire_tools(tools: Any) -> list[dict]:
    if not isinstance(tools, list):
        raise RequestError(("tools",), "must be a list of tools, got {got}", got=type(tools).__name__)
    return [_wire_tool(tool, ("tools", i)) for i, tool in enumerate(tools)]


def _wire_tool(tool: Any, where: tuple) -> dict:
    """{"type": "function", "function": {name, description, parameters}} -> {name,
    description, input_schema}. A tool already in Anthropic's shape goes through."""
    if not isinstance(tool, dict):
        raise RequestError(where, "must be a tool object, got {got}", got=type(tool).__name__)
    function = tool.get("function")
    if function is None and isinstance(tool.get("name"), str):
        limits.check_fields(tool, where)
        return copy.deepcopy(tool)
    if not isinstance(function, dict):
        raise RequestError(where + ("function",), "a function tool needs a function: an object with a string name")
    if not isinstance(function.get("name"), str):
        raise RequestError(where + ("function", "name"), "a function tool needs a function with a string name")
    parameters = function.get("parameters")
    if parameters is not None and not isinstance(parameters, dict):
        raise RequestError(where + ("function", "parameters"), "must be a JSON Schema object")
    if parameters:
        limits.check_json(parameters, where + ("function", "parameters"))
    description = function.get("description")
    if description is not None and not isinstance(description, str):
        raise RequestError(where + ("function", "description"), "must be a string, got {got}", got=type(description).__name__)
    wire = {"name": function["name"]}
    if description:
        wire["description"] = description
    # Anthropic requires an input_schema; a function without parameters takes none.
    wire["input_schema"] = copy.deepcopy(parameters) if parameters else {"type": "object", "properties": {}}
    return wire


# ---------------------------------------------------------------------------
# response_to_message: an Anthropic response -> one assistant chat message

_REBUILDABLE = ("text", "tool_use")


def response_to_message(response: dict) -> dict:
    """Text blocks joined with newlines -> content; tool_use -> OpenAI-shape tool_calls;
    thinking -> reasoning_content. When the content has a block that text and tool
    calls cannot rebuild (thinking, redacted thinking, server-tool blocks), all of it is
    also kept under "blocks", so `to_anthropic` can send it back word for word."""
    if not isinstance(response, dict):
        raise RequestError((), "the response must be an object, got {got}", got=type(response).__name__)
    if response.get("type") == "error":
        raise RequestError(("error",), "an error response carries no message: {error}", error=_error_summary(response.get("error")))
    content = response.get("content")
    if not isinstance(content, list):
        raise RequestError(("content",), "must be a list of content blocks, got {got}", got=type(content).__name__)
    texts, thoughts, calls = [], [], []
    for j, block in enumerate(content):
        where = ("content", j)
        kind = _part_type(block, where)
        limits.check_fields(block, where)  # copied word for word below, or written as JSON text
        if kind == "text":
            texts.append(_field(block, "text", str, where))
        elif kind == "thinking":
            thoughts.append(_field(block, "thinking", str, where))
        elif kind == "tool_use":
            calls.append(_tool_call(block, where))
    message: dict = {"role": "assistant", "content": "\n".join(texts)}
    if thoughts:
        message["reasoning_content"] = "\n".join(thoughts)
    if calls:
        message["tool_calls"] = calls
    if any(block["type"] not in _REBUILDABLE for block in content):
        message["blocks"] = {"format": BLOCKS_FORMAT, "data": copy.deepcopy(content)}
    return message


def _error_summary(error: Any) -> str:
    """An API error object, shortly: its type and message when it has them."""
    if isinstance(error, dict) and isinstance(error.get("type"), str):
        message = error.get("message")
        return error["type"] + (f": {limits.shown(message, 200)}" if isinstance(message, str) else "")
    return limits.shown(error)


def _tool_call(block: dict, where: tuple) -> dict:
    # The same shape as the "openai" target's history calls: the id kept, the input as JSON text.
    for name, kind in (("id", str), ("name", str), ("input", dict)):
        _field(block, name, kind, where)
    return openai_tool_call(block)


def _field(block: dict, name: str, kind: type, where: tuple) -> Any:
    value = block.get(name)
    if not isinstance(value, kind):
        wanted = "a string" if kind is str else "an object"
        raise RequestError(where + (name,), "must be {wanted} in a {kind} block", wanted=wanted, kind=limits.shown(block["type"]))
    return value
