"""Action 2: an Anthropic Messages request becomes chat messages and a tool schema.

Read this file from top to bottom: it is the whole translation for the default target,
"chat_template" — the shape the rollout adapter of the walk-through hands to a
tokenizer's chat template. The second target, "openai", lives in `openai_target.py`;
`targets.py` is the table that maps a target's name to its paths.

    translated, tools_schema = translate(body)

runs two independent paths, messages first, then tools, and returns both to the caller
(`BaseAdapter._run_turn` in the adapter) as an ordinary Python return value.

Every helper takes and returns plain JSON values (dicts, lists, strings) and changes
nothing it is given. Outputs may share nested values with the input (an `input_schema`,
a tool call's arguments), as the adapter's do: copy before you mutate them.
"""

from __future__ import annotations

from typing import Any, Optional

from . import client_tools, contract, limits, targets
from .errors import ArgumentError, RequestError


# ---------------------------------------------------------------------------
# The entry point


def translate(body: dict, *, target: str = "chat_template") -> tuple[list[dict], Optional[list[dict]]]:
    """Action 2: `body` -> `(translated, tools_schema)`.

    `tools_schema` is None when the request has no usable tools. Raises `RequestError`
    (located, e.g. at `messages[2].content[0].tool_use_id`) before producing anything.
    """
    chosen = targets.get(target)
    contract.check_body(body)  # structure first, so errors point into the body as sent
    chosen.refuse(body)  # then what this target cannot carry
    translated = chosen.messages_path(body["messages"], body.get("system"))
    tools_schema = chosen.tools_path(body.get("tools"))
    return translated, tools_schema


def translate_json(raw: "str | bytes", *, target: str = "chat_template") -> tuple[list[dict], Optional[list[dict]]]:
    """Action 2 from the bytes a server receives: the JSON text is read with located errors
    (not UTF-8, not JSON, nested too deep for Python's reader, over 32 MB), then translated."""
    if not isinstance(raw, (str, bytes, bytearray)):
        raise ArgumentError("translate_json takes JSON text (str or bytes), got {got}", got=type(raw).__name__)
    body = contract.read_body(raw)  # read and checked in one pass, for speed; None if anything is wrong
    if body is None:  # read it, then translate (and check) it, to say where and what
        return translate(limits.read_json(raw, "the request body"), target=target)
    chosen = targets.get(target)
    chosen.refuse(body)
    return chosen.messages_path(body["messages"], body.get("system")), chosen.tools_path(body.get("tools"))


def translate_messages(messages: list, system: Any = None, *, target: str = "chat_template") -> list[dict]:
    """The messages path on its own: history (and system prompt) -> chat messages."""
    chosen = targets.get(target)
    contract.check_messages(messages, system)
    chosen.refuse({"messages": messages})
    return chosen.messages_path(messages, system)


def tools_to_chat_tools(tools: Optional[list], *, target: str = "chat_template") -> Optional[list[dict]]:
    """The tools path on its own: tool definitions -> function-tool schema (or None)."""
    chosen = targets.get(target)
    contract.check_tools(tools)
    chosen.refuse({"tools": tools})
    return chosen.tools_path(tools)


# ---------------------------------------------------------------------------
# The two helpers the walk-through names


def flatten_content(content: Any, depth: int = 1) -> str:
    """Any content value -> one string, for roles whose template wants plain text.

    None is "", a string is itself, a single block counts as a one-block list, and a
    list gives its non-empty parts joined by newlines.

    `depth` counts the content values being flattened, one inside the other. A body that
    passed the contract nests far less than `limits.MAX_DEPTH`; a value given directly
    could contain itself, so past that depth it is refused instead of recursing forever.
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    if not isinstance(content, list):
        return ""
    if depth > limits.MAX_DEPTH:
        raise RequestError((), "the content nests deeper than {n} levels of blocks", n=limits.MAX_DEPTH)
    return "\n".join([text for part in content if (text := _part_text(part, depth))])


def _part_text(part: Any, depth: int = 1) -> str:
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return ""
    kind = part.get("type")
    if kind in ("text", "input_text", "output_text"):
        return _string(part.get("text"))
    if kind == "tool_result":
        return flatten_content(part.get("content"), depth + 1)
    if kind in ("image", "image_url", "input_image"):
        # A text-only template cannot show pixels; a placeholder keeps the turn's shape.
        return "[image omitted]"
    if "content" in part:
        return flatten_content(part["content"], depth + 1)
    return _string(part.get("text"))


def _string(value: Any) -> str:
    return value if isinstance(value, str) else ""


def tool_call_dict(name: str, arguments: Optional[dict]) -> dict:
    """One historical tool call, in the shape a chat template iterates over.

    The call's id is not a parameter: it is dropped on purpose. Ids are minted fresh for
    every response, and the rollout adapter matches a sampled turn against the same
    turn echoed back in the next request by dict equality, so an id would break the
    match. For the same reason the arguments stay a dict, not JSON text: a template
    wants a mapping, and dicts compare equal whatever their key order.
    """
    return {"type": "function", "function": {"name": name, "arguments": arguments or {}}}


# ---------------------------------------------------------------------------
# The messages path, one small function per kind of input


def chat_template_messages(messages: list[dict], system: Any) -> list[dict]:
    """Walk the history in order; each input message gives zero or more chat messages."""
    translated = system_messages(system)
    for message in messages:
        translated.extend(chat_template_message(message))
    return translated


def system_messages(system: Any) -> list[dict]:
    """The top-level system prompt becomes the first message (absent, "" or [] -> none)."""
    if not system:
        return []
    if isinstance(system, str):
        return [{"role": "system", "content": system}]
    return [{"role": "system", "content": flatten_content(system)}]


def chat_template_message(message: dict) -> list[dict]:
    role, content = message["role"], message["content"]
    if role == "system":  # a system message still inside the list (preprocess folds them)
        return [{"role": "system", "content": flatten_content(content)}]
    if isinstance(content, str):
        return [{"role": role, "content": content}]
    if role == "assistant":
        return [assistant_message(content)]
    # A user message gives one chat message per block. The chat template has a `tool`
    # role for results, so a tool_result cannot share a message with the user's text:
    # [tool_result, text] becomes a tool message followed by a user message.
    return [user_block_message(block) for block in content]


def user_block_message(block: dict) -> dict:
    kind = block["type"]
    if kind == "text":
        return {"role": "user", "content": block["text"]}  # taken directly, no flattening
    if kind == "tool_result":
        # ChatML/Qwen-style templates pair results with calls by position, so tool_use_id
        # is not kept (Mistral-style templates need ids: the "openai" target keeps them).
        return {"role": "tool", "content": flatten_content(block.get("content"))}
    # Images, documents and block types this module does not know: whatever text they
    # carry, else a placeholder that names the type (never the raw block with its data).
    return {"role": "user", "content": flatten_content([block]) or f"[{kind} omitted]"}


def assistant_message(blocks: list[dict]) -> dict:
    """Text blocks -> content, thinking -> reasoning_content, tool_use -> tool_calls."""
    texts, thinking, calls = [], [], []
    for block in blocks:
        kind = block["type"]
        if kind == "text":
            texts.append(block["text"])
        elif kind == "thinking":  # the signature is dropped: a local model neither checks nor makes one
            thinking.append(block["thinking"])
        elif kind == "tool_use":
            calls.append(tool_call_dict(block["name"], block["input"]))
        # Any other block (redacted thinking, server-tool blocks) has no place in this shape.
    message = {"role": "assistant", "content": "".join(texts)}
    if thinking:
        message["reasoning_content"] = "".join(thinking)
    if calls:
        message["tool_calls"] = calls
    return message


# ---------------------------------------------------------------------------
# The tools path


def chat_template_tools(tools: Optional[list[dict]]) -> Optional[list[dict]]:
    """Available tools -> function tools. A different kind of data from `tool_calls`:
    these declare what the model may call next, not what it called before.

    A toolset (an entry without a name, such as `mcp_toolset`) names no function, so it is
    left out (the loss report says so); with nothing left, there are no tools."""
    kept = [function_tool(tool) for tool in tools or [] if "name" in tool]
    return kept or None


def function_tool(tool: dict) -> dict:
    # Server tools (e.g. web_search_20250305) are kept in the same shape; only
    # Anthropic's servers could run them, which the loss report says. A client tool
    # Anthropic defines (bash_20250124, ...) has no schema in the request: the model is
    # told the one Anthropic documents for its version (client_tools.py).
    if client_tools.tool_kind(tool) == "client":
        description, parameters = client_tools.function_parts(tool)
    else:
        description = tool.get("description") or ""
        parameters = tool.get("input_schema") or {"type": "object", "properties": {}}
    return {"type": "function", "function": {"name": tool["name"], "description": description, "parameters": parameters}}


targets.register(targets.Target("chat_template", chat_template_messages, chat_template_tools, targets.refuses_nothing))
