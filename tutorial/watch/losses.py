"""What stays behind: everything in a body that a target's output does not carry.

Each entry names the place (`messages[1].content[1].id`), the value and one line on
why. The walk below follows the body, and for every object asks: which of its fields
does this target carry? The rest is reported — so nothing is lost silently.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, Optional

from .. import client_tools, limits
from ..errors import RequestError, format_location
from ..translation import flatten_content
from . import language


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
    "tool_use_id": "the tool message follows its call in order, so the pairing id is not kept; "
    "ChatML/Qwen-style templates pair calls and results by position",
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
            self.lose(location, block, "a text-only template cannot show an image: replaced by '[image omitted]'")
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


# ---------------------------------------------------------------------------
# The reasons in Chinese, for the Chinese edition's tables and walk. The report itself
# keeps English (its reasons are data, compared by tests); displays translate on the way out.

_REASONS_ZH = {
    _REASONS["id"]: "每次响应都会重新生成工具调用 id；适配器靠 dict 相等来匹配对话历史，所以丢掉 id"
    "（ChatML/Qwen 风格的模板按位置配对调用与结果；需要 id 的 Mistral 风格模板应使用 openai 目标格式）",
    _REASONS["tool_use_id"]: "tool 消息按顺序紧跟在它的调用之后，所以不保留配对 id；ChatML/Qwen 风格的模板按位置配对调用与结果",
    _REASONS["signature"]: "thinking 签名只由 Anthropic 的服务器校验；本地模型既不校验也不生成签名",
    _REASONS["cache_control"]: "提示词缓存标记是给 Anthropic 服务器的；本地引擎自己按前缀缓存",
    _REASONS["is_error"]: "聊天格式中工具结果没有错误标志；只保留结果文本",
    _REASONS["citations"]: "引用元数据在聊天消息中没有位置",
    _REASONS["max_tokens"]: "采样上限：它留在请求体里供采样阶段（Action 3）使用，不进入消息或工具",
    _REASONS["model"]: "适配器只服务一个模型；这里的模型名不起选择作用",
    _REASONS["stream"]: "流式是回复发回的方式（Action 3.5），不属于提示词",
    _REASONS["tool_choice"]: "模型如何选择工具是采样决策，不属于提示词",
    _REASONS["thinking"]: "思考预算是采样设置，不属于提示词",
    _REASONS["metadata"]: "请求元数据不属于提示词",
    _FILE_IMAGE: "Files API 图片：它的 file_id 只对 Anthropic 的服务器有意义，引擎取不到它；替换为文本 '[image omitted]'",
    _PARAMETER: "顶层参数：转换既不把它放进消息也不放进工具；采样阶段从请求体读取它，或者没有人读取",
    "a system message keeps only its text blocks": "system 消息只保留其中的文本块",
    "a text-only template cannot show an image: replaced by '[image omitted]'": "纯文本模板无法显示图片：替换为 '[image omitted]'",
    "a server tool runs on Anthropic's servers: left out of the tools": "服务端工具在 Anthropic 的服务器上运行：不放进工具列表",
    "a server tool: kept as a function tool, but only Anthropic's servers can run it": "服务端工具：保留为函数工具，但只有 Anthropic 的服务器能运行它",
    "a server tool's settings have no place in a function tool": "服务端工具的设置在函数工具中没有位置",
    "a client tool's setting is for the client that runs it; a function tool has no place for it": "客户端工具的设置是给运行它的客户端的；函数工具中没有它的位置",
}
_PATTERNS_ZH = [
    (re.compile(r"the (\w+) shape has no place for it"), r"\1 目标格式中没有它的位置"),
    (re.compile(r"an assistant '(\w+)' block has no place in the (\w+) shape: dropped"), r"assistant 消息中的 \1 块在 \2 目标格式中没有位置：已丢弃"),
    (re.compile(r"a '(\w+)' block has no text to keep: dropped from the flattened text"), r"\1 块没有可保留的文本：从展平后的文本中去掉"),
    (re.compile(r"a '(\w+)' block has no text to keep: replaced by '(\[\w+ omitted\])'"), r"\1 块没有可保留的文本：替换为 '\2'"),
    (re.compile(r"only the text of a '(\w+)' block is kept"), r"\1 块只保留其文本"),
    (re.compile(r"a tool entry without a name \('([^']+)', a toolset\): .*"), r"没有名字的工具条目（\1，一个工具集）：Anthropic 的服务器会把它展开成工具；它不指向任何函数，所以不放进工具列表"),
    (re.compile(r"an Anthropic-defined client tool: offered as a function tool with the input schema Anthropic documents for (\S+); .*"),
     r"Anthropic 定义的客户端工具：按 Anthropic 为 \1 记录的输入 schema 作为函数工具提供；和以前一样由客户端运行它"),
    (re.compile(r"an Anthropic-defined client tool of a version this package does not know: offered with the input schema of (\S+), .*"),
     r"本包不认识这个版本的 Anthropic 客户端工具：按它所知同一系列中最新的 \1 的输入 schema 提供，可能有出入"),
]


def reason_in(reason: str, lang: Optional[str] = None) -> str:
    """A loss's reason in `lang` (the current language by default); English as it is."""
    if language.resolve(lang) != "zh":
        return reason
    if reason in _REASONS_ZH:
        return _REASONS_ZH[reason]
    for pattern, chinese in _PATTERNS_ZH:
        if pattern.fullmatch(reason):
            return pattern.sub(chinese, reason)
    return reason
