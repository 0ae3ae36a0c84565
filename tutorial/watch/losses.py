"""What stays behind: everything in a body that a target's output does not carry.

Each entry names the place (`messages[1].content[1].id`), the value and one line on
why. The walk below follows the body, and for every object asks: which of its fields
does this target carry? The rest is reported — so nothing is lost silently.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Optional

from .. import client_tools, limits
from ..errors import RequestError, format_location
from ..translation import flatten_content


class Loss(NamedTuple):
    location: tuple
    value: Any
    reason: str

    @property
    def path(self) -> str:
        """Where, written as in errors: `messages[1].content[1].id`."""
        return format_location(self.location)


# Fields each target carries, per kind of object. A field not listed is reported.
_CHAT = {
    "message": {"role", "content"},
    "system": {"type", "text"},
    "user/text": {"type", "text"},
    "user/tool_result": {"type", "content"},
    "assistant/text": {"type", "text"},
    "assistant/thinking": {"type", "thinking"},
    "assistant/tool_use": {"type", "name", "input"},
    "nested/text": {"type", "text"},
    "tool": {"name", "description", "input_schema", "type"},
}
_OPENAI = {
    "message": {"role", "content"},
    "system": {"type", "text"},
    "user/text": {"type", "text"},
    "user/image": {"type", "source"},
    "user/search_result": {"type", "title", "source", "content"},
    "user/tool_result": {"type", "tool_use_id", "content"},
    "assistant/text": {"type", "text"},
    "assistant/thinking": {"type", "thinking"},
    "assistant/tool_use": {"type", "id", "name", "input"},
    "nested/text": {"type", "text"},
    "nested/image": {"type", "source"},
    "nested/tool_reference": {"type", "tool_name", "name"},
    "nested/search_result": {"type", "title", "source", "content"},
    "tool": {"name", "description", "input_schema", "type", "defer_loading"},
}

_REASONS = {
    "id": "tool-call ids are minted anew for every response; the adapter matches history by "
    "dict equality, so the id is dropped (ChatML/Qwen-style templates pair calls and results by position; "
    "Mistral-style templates, which need ids, want the openai target)",
    "tool_use_id": "the tool message follows its call in order, which is how ChatML/Qwen-style templates pair "
    "them, so the pairing id is not kept",
    "signature": "thinking signatures are checked only by Anthropic's servers; a local model "
    "neither verifies nor produces them",
    "cache_control": "prompt-caching hints are for Anthropic's servers; a local engine caches by prefix itself",
    "is_error": "the chat shape has no error flag for a tool result; only the result text is kept",
    "citations": "citation metadata has no place in a chat message",
    "max_tokens": "a sampling limit: it stays in the body for the sampling step (Action 3), "
    "not in the messages or tools",
    "model": "the adapter serves one model; the name picks nothing here",
    "stream": "streaming is how the reply is sent back (Action 3.5), not part of the prompt",
    "tool_choice": "how the model may pick a tool is a sampling decision, not part of the prompt",
    "thinking": "the thinking budget is a sampling setting, not part of the prompt",
    "metadata": "request metadata is not part of the prompt",
}
_FILE_IMAGE = ("a Files-API image: its file_id means something only to Anthropic's servers, so the engine "
               "cannot fetch it; replaced by the text '[image omitted]'")


def _is_file_image(block: dict) -> bool:
    return block["type"] == "image" and block["source"].get("type") == "file"


_PARAMETER = "a top-level parameter: translation puts it into neither messages nor tools; the sampling step reads it from the body, or nothing does"


def report(body: dict, target: str) -> list[Loss]:
    """The losses of translating a (valid, preprocessed) body to `target`, in body order."""
    walk = _Walk(_CHAT if target == "chat_template" else _OPENAI, target)
    walk.body(body)
    return walk.found


class _Walk:
    def __init__(self, carried: dict, target: str):
        self.carried, self.target, self.found = carried, target, []

    def lose(self, location: tuple, value: Any, reason: str) -> None:
        # What the report hands on is plain JSON within the limits, like every free value:
        # the contract leaves some of these fields (those of messages and frequent blocks) alone.
        if type(value) is not str:
            limits.check_json(value, location)
        self.found.append(Loss(location, value, reason))

    def keys_are_strings(self, value: dict, location: tuple) -> None:
        for key in value:
            if not isinstance(key, str):
                raise RequestError(location, f"has a key of type {type(key).__name__}: JSON object keys are strings")

    def extra_fields(self, kind: str, value: dict, location: tuple) -> None:
        if value.keys() <= self.carried[kind]:
            return  # the common case, checked at C speed
        for key, field_value in value.items():
            if key not in self.carried[kind]:
                self.keys_are_strings(value, location)
                self.lose(location + (key,), field_value, _REASONS.get(key, f"the {self.target} shape has no place for it"))

    def body(self, body: dict) -> None:
        for key, value in body.items():
            if key == "system":
                self.system(value)
            elif key == "messages":
                for i, message in enumerate(value):
                    self.message(message, ("messages", i))
            elif key == "tools":
                for i, tool in enumerate(value or []):
                    self.tool(tool, ("tools", i))
            else:
                self.lose((key,), value, _REASONS.get(key, _PARAMETER))

    def system(self, system: Any) -> None:
        for i, block in enumerate(system if isinstance(system, list) else []):
            self.extra_fields("system", block, ("system", i))

    def message(self, message: dict, location: tuple) -> None:
        self.extra_fields("message", message, location)
        content = message["content"]
        if isinstance(content, str):
            return
        for j, block in enumerate(content):
            where = location + ("content", j)
            if message["role"] == "system" and self.target == "openai":
                if block["type"] == "text":
                    self.extra_fields("system", block, where)
                else:
                    self.lose(where, block, "a system message keeps only its text blocks")
            elif message["role"] == "system":
                self.flattened(block, where)
            else:
                self.block(message["role"], block, where)

    def block(self, role: str, block: dict, location: tuple) -> None:
        kind = f"{role}/{block['type']}"
        if self.target == "openai" and _is_file_image(block):
            self.lose(location + ("source",), block["source"], _FILE_IMAGE)
        elif kind in self.carried:
            self.extra_fields(kind, block, location)
            if block["type"] == "tool_result" and isinstance(block.get("content"), list):
                for k, item in enumerate(block["content"]):
                    self.nested(item, location + ("content", k))
        elif role == "assistant":
            self.lose(location, block, f"an assistant {block['type']!r} block has no place in the {self.target} shape: dropped")
        else:  # only the chat_template target gets here: the openai target refuses such blocks
            self.flattened(block, location)

    def nested(self, item: Any, location: tuple) -> None:
        if isinstance(item, str):
            return
        kind = f"nested/{item['type']}"
        if self.target == "openai" and _is_file_image(item):
            self.lose(location + ("source",), item["source"], _FILE_IMAGE)
        elif kind in self.carried:
            self.extra_fields(kind, item, location)
        else:
            self.flattened(item, location, nested=True)

    def flattened(self, block: dict, location: tuple, nested: bool = False) -> None:
        """A block the chat_template target turns into text with flatten_content."""
        text = flatten_content([block])
        if block["type"] in ("image", "image_url", "input_image"):
            self.lose(location, block, "a text template cannot show an image: replaced by '[image omitted]'")
        elif not text:
            placeholder = "dropped from the flattened text" if nested else f"replaced by '[{block['type']} omitted]'"
            self.lose(location, block, f"a {block['type']!r} block has no text to keep: {placeholder}")
        else:
            self.keys_are_strings(block, location)
            for key, value in block.items():
                if key not in ("type", "text", "content"):
                    self.lose(location + (key,), value, f"only the text of a {block['type']!r} block is kept")

    def tool(self, tool: dict, location: tuple) -> None:
        kind = client_tools.tool_kind(tool)
        if kind == "toolset":
            self.lose(location, tool, f"a tool entry without a name ({tool['type']!r}, a toolset): Anthropic's servers "
                      "expand it into tools; it names no function, so it is left out")
        elif kind == "server" and self.target == "openai":
            self.lose(location, tool, "a server tool runs on Anthropic's servers: left out of the tools")
        elif kind == "server":
            self.lose(location + ("type",), tool["type"], "a server tool: kept as a function tool, but only Anthropic's servers can run it")
            self.settings(tool, location, "a server tool's settings have no place in a function tool")
        elif kind == "client":
            self.client_tool(tool, location)
        else:
            self.extra_fields("tool", tool, location)

    def client_tool(self, tool: dict, location: tuple) -> None:
        version = client_tools.known_version(tool)
        if version == tool["type"]:
            why = (f"an Anthropic-defined client tool: offered as a function tool with the input schema "
                   f"Anthropic documents for {version}; the client runs it, as before")
        else:
            why = (f"an Anthropic-defined client tool of a version this package does not know: offered with "
                   f"the input schema of {version}, the newest of its family it knows, which may differ")
        self.lose(location + ("type",), tool["type"], why)
        carried = {"type", "name"} | ({"defer_loading"} if self.target == "openai" else set())
        self.settings(tool, location, "a client tool's setting is for the client that runs it; a function tool has no place for it", carried)

    def settings(self, tool: dict, location: tuple, why: str, carried: Optional[set] = None) -> None:
        for key, value in tool.items():
            if key not in (self.carried["tool"] if carried is None else carried):
                self.lose(location + (key,), value, _REASONS.get(key, why))
