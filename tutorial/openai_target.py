"""The "openai" target: the Chat Completions shape an OpenAI-compatible serving engine's
`/v1/messages` endpoint builds from an Anthropic request.

Three differences from the default target, each with a reason:
- ids survive: the OpenAI wire pairs each result with its call through `tool_call_id`;
- arguments become JSON text, as the Chat Completions API carries them;
- user content stays a list of parts (text, image_url), so images are not flattened.
A tool_result whose content mixes text with `tool_reference` parts is split into runs,
one tool message per run, because one model family's chat template expands a reference
only when it is the first part of a tool message.

Tools: custom tools and the client tools Anthropic defines (bash, the text editor, memory,
computer use: the client runs them) become function tools; server tools and toolsets are
left out, as only Anthropic's servers can run or expand them (the loss report names them).
"""

from __future__ import annotations

import json
from typing import Any, Optional

from . import targets
from .client_tools import tool_kind
from .errors import RequestError
from .translation import function_tool

# What each role may carry in this shape. Anything else is refused, as such an
# endpoint answers 400, rather than dropped without a word.
CARRIED = {
    "user": {"text", "image", "search_result", "tool_result"},
    "assistant": {"text", "thinking", "tool_use"},
    "tool_result": {"text", "image", "search_result", "tool_reference"},
}

# Blocks of these types need no closer look; a tool_result is plain when its parts are.
_PLAIN = {"user": {"text", "image", "search_result"}, "assistant": CARRIED["assistant"]}
_PLAIN_PARTS = {"text", "image", "search_result"}
_PLAIN_USER_WITH_RESULTS = _PLAIN["user"] | {"tool_result"}


def _plain(blocks: list, role: str) -> bool:
    """Whether every block of a message is of a kind this shape carries as it is: one set
    comparison per message (and per tool_result's parts), no per-block call."""
    kinds = {block["type"] for block in blocks}
    if kinds <= _PLAIN[role]:
        return True
    if role != "user" or not kinds <= _PLAIN_USER_WITH_RESULTS:
        return False
    return all(
        not isinstance(content := block.get("content"), list)
        or {part["type"] if isinstance(part, dict) else "text" for part in content} <= _PLAIN_PARTS
        for block in blocks
        if block["type"] == "tool_result"
    )


_WHERE = {"user": "a user message", "assistant": "an assistant message", "tool_result": "a tool_result"}

_WHY = {
    "document": "the Chat Completions message shape has no document part",
    "redacted_thinking": "encrypted reasoning can only be replayed to Anthropic's servers",
    "server_tool_use": "server tools run on Anthropic's servers, not on this engine",
    "web_search_tool_result": "server tools run on Anthropic's servers, not on this engine",
}


def reject_uncarriable(body: dict) -> None:
    """Raise `RequestError` for the first block or tool this shape cannot carry."""
    for i, message in enumerate(body.get("messages") or []):
        if isinstance(message["content"], str) or message["role"] == "system":
            continue
        if _plain(message["content"], message["role"]):
            continue  # the common case, decided without building locations
        for j, block in enumerate(message["content"]):
            _check_carried(block, message["role"], ("messages", i, "content", j))
            if block["type"] == "tool_result" and isinstance(block.get("content"), list):
                for k, part in enumerate(block["content"]):
                    if isinstance(part, dict):
                        _check_carried(part, "tool_result", ("messages", i, "content", j, "content", k))
    for i, tool in enumerate(body.get("tools") or []):
        if tool_kind(tool) == "custom" and tool.get("input_schema") is None:
            raise RequestError(
                ("tools", i, "input_schema"),
                "is required for a custom tool by the openai target (the function needs parameters)",
            )


def _check_carried(block: dict, where: str, location: tuple) -> None:
    kind = block["type"]
    if kind not in CARRIED[where]:
        if kind in _WHY:
            why = _WHY[kind]
        elif any(kind in kinds for kinds in CARRIED.values()):
            places = tuple(_WHERE[w] for w, kinds in CARRIED.items() if kind in kinds)  # said "a or b"
            raise RequestError(location + ("type",), "a block of type {kind} cannot be carried in {where}: it belongs in {places}",
                               kind=repr(kind), where=_WHERE[where], places=places)
        else:
            why = "the openai target does not know this block type"
        raise RequestError(location + ("type",), "a block of type {kind} cannot be carried in {where}: {why}",
                           kind=repr(kind), where=_WHERE[where], why=why)
    name = block.get("tool_name", block.get("name"))
    if kind == "tool_reference" and not (isinstance(name, str) and name):
        raise RequestError(location + ("tool_name",), "is required: a tool_reference names the tool whose schema it loads")


def is_offered(tool: dict) -> bool:
    """Custom and client tools become function tools; server tools and toolsets do not."""
    return tool_kind(tool) in ("custom", "client")


# ---------------------------------------------------------------------------
# The messages path


def openai_messages(messages: list[dict], system: Any) -> list[dict]:
    # System messages inside the list (at the start, or later when preprocess did not
    # run) are merged into the one leading system message, after the top-level system
    # prompt and in their order: many chat templates accept one system turn, at the
    # start. (SGLang 0.5.23 does the same with its inline-system "merge".)
    if any(m["role"] == "system" for m in messages):
        texts = [system_text(system)] + [system_text(m["content"]) for m in messages if m["role"] == "system"]
        system = "\n".join(text for text in texts if text)
        messages = [m for m in messages if m["role"] != "system"]
    translated = openai_system_messages(system)
    for message in messages:
        translated.extend(openai_message(message))
    return translated


def openai_system_messages(system: Any) -> list[dict]:
    text = system_text(system)
    return [{"role": "system", "content": text}] if text else []  # blank: no system message


def system_text(system: Any) -> str:
    """A string stays itself; text blocks are joined with newlines (empty ones skipped)."""
    if isinstance(system, str):
        return system
    return "\n".join(b["text"] for b in system or [] if b.get("type") == "text" and b["text"])


def openai_message(message: dict) -> list[dict]:
    role, content = message["role"], message["content"]
    if role == "system":
        return [{"role": "system", "content": system_text(content)}]
    if isinstance(content, str):
        return [{"role": role, "content": content}]
    if role == "assistant":
        return [openai_assistant(content)]
    return openai_user_messages(content)


def openai_user_messages(blocks: list[dict]) -> list[dict]:
    """Keep wire order: user parts collected so far are sent *before* each tool result,
    so [text, tool_result, text] becomes user, tool, user."""
    if len(blocks) == 1 and blocks[0]["type"] == "tool_result":  # the usual turn: one result
        return tool_result_messages(blocks[0])
    translated, parts = [], []
    for block in blocks:
        if block["type"] == "tool_result":
            if parts:
                translated.append({"role": "user", "content": _collapse(parts)})
                parts = []
            translated.extend(tool_result_messages(block))
        else:
            parts.append(content_part(block))
    if parts:
        translated.append({"role": "user", "content": _collapse(parts)})
    return translated


def content_part(block: Any) -> dict:
    """One Anthropic block (or a plain string) -> one OpenAI content part."""
    if isinstance(block, str):
        return {"type": "text", "text": block}
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": block["text"]}
    if kind == "image":
        source = block["source"]
        if source["type"] == "file":
            # A Files-API id means something only to Anthropic: the engine cannot fetch the
            # image, so a placeholder keeps the turn's shape (the loss report names the file).
            return {"type": "text", "text": "[image omitted]"}
        url = source["url"] if source["type"] == "url" else f"data:{source['media_type']};base64,{source['data']}"
        return {"type": "image_url", "image_url": {"url": url}}
    if kind == "tool_reference":
        # Anthropic says tool_name; the templates that expand references look for name.
        return {"type": "tool_reference", "name": block.get("tool_name") or block.get("name")}
    if kind == "search_result":
        body = "\n".join(p.get("text", "") for p in block.get("content") or [] if isinstance(p, dict))
        return {"type": "text", "text": f"Title: {block.get('title', '')}\nSource: {block.get('source', '')}\nContent: {body}"}
    raise AssertionError(f"reject_uncarriable lets no {kind!r} block through")


def _collapse(parts: list[dict]) -> Any:
    # A lone text part is sent as a plain string, as most clients write it.
    return parts[0]["text"] if len(parts) == 1 and parts[0]["type"] == "text" else parts


def tool_result_messages(block: dict) -> list[dict]:
    """One tool_result -> one tool message per run of reference / non-reference parts,
    all with the same tool_call_id, in the original order. Empty text parts carry
    nothing and are skipped first, so the runs on either side of one join up."""
    call_id, content = block["tool_use_id"], block.get("content")
    if not isinstance(content, list):
        return [{"role": "tool", "tool_call_id": call_id, "content": content or ""}]
    if len(content) == 1 and isinstance(item := content[0], dict) and item["type"] == "text":
        # The usual result, one text part, is one plain-string tool message (as below).
        return [{"role": "tool", "tool_call_id": call_id, "content": item["text"]}]
    parts = [content_part(item) for item in content if not _is_empty_text(item)]
    runs: list[list[dict]] = []
    for part in parts:
        is_reference = part["type"] == "tool_reference"
        if not runs or (runs[-1][0]["type"] == "tool_reference") != is_reference:
            runs.append([])
        runs[-1].append(part)
    return [{"role": "tool", "tool_call_id": call_id, "content": _collapse(run)} for run in runs] or [
        {"role": "tool", "tool_call_id": call_id, "content": ""}
    ]


def _is_empty_text(item: Any) -> bool:
    return item == "" or (isinstance(item, dict) and item["type"] == "text" and not item["text"])


def openai_assistant(blocks: list[dict]) -> dict:
    texts, thinking, calls = [], [], []
    for block in blocks:
        kind = block["type"]
        if kind == "text":
            texts.append(block["text"])
        elif kind == "thinking":  # the signature is dropped (the loss report names it)
            thinking.append(block["thinking"])
        else:  # tool_use: reject_uncarriable lets nothing else through
            calls.append(openai_tool_call(block))
    content: Any = texts[0] if len(texts) == 1 else [{"type": "text", "text": t} for t in texts] if texts else ""
    message = {"role": "assistant", "content": content}
    if thinking:
        message["reasoning_content"] = "\n".join(thinking)
    if calls:
        message["tool_calls"] = calls
    return message


def openai_tool_call(block: dict) -> dict:
    # The id is kept (tool messages point back at it) and the arguments become JSON
    # text, as the Chat Completions wire carries them; Chinese stays readable.
    return {
        "id": block["id"],
        "type": "function",
        "function": {"name": block["name"], "arguments": _ARGUMENTS_JSON.encode(block["input"])},
    }


_ARGUMENTS_JSON = json.JSONEncoder(ensure_ascii=False)  # made once: json.dumps(..., ensure_ascii=False) builds one per call


# ---------------------------------------------------------------------------
# The tools path


def openai_tools(tools: Optional[list[dict]]) -> Optional[list[dict]]:
    """Custom and client tools become function tools; server tools and toolsets are left
    out (the loss report says so), and a request with none left has no tools at all."""
    kept = [_with_deferral(function_tool(tool), tool) for tool in tools or [] if is_offered(tool)]
    return kept or None


def _with_deferral(wrapped: dict, tool: dict) -> dict:
    # `defer_loading` keeps a tool out of the prompt until a tool_reference loads it;
    # templates that expand references look for it, so it is passed on (in both places
    # SGLang 0.5.23 writes it).
    if "defer_loading" in tool:
        wrapped["function"]["defer_loading"] = tool["defer_loading"]
        wrapped["defer_loading"] = tool["defer_loading"]
    return wrapped


targets.register(targets.Target("openai", openai_messages, openai_tools, reject_uncarriable))
