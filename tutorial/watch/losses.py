"""What stays behind: everything in a body that a target's output does not carry.

Each entry names the place (`messages[1].content[1].id`), the value and one line on
why. The walk below follows the body, and for every object asks: which of its fields
does this target carry? The rest is reported — so nothing is lost silently.

The line on why is a `Reason`: a `str` in the current language (`tutorial.use_language`),
so a Chinese chapter prints Chinese reasons however it prints them, that also holds the
other language (`reason.en`, `reason.zh`, `reason_in(reason)` under `using(lang)`). Tests compare the
English.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple, Optional

from .. import client_tools, limits
from ..errors import RequestError, format_location
from ..translation import flatten_content
from ..words import current


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

# Every reason the report gives, in each language: {name} is a value filled in, {name!r}
# the same value quoted (as Python writes it). The English is what tests compare.
_WHY: dict[str, tuple[str, str]] = {
    "id": ("tool-call ids are minted anew for every response; the adapter matches history by "
           "dict equality, so the id is dropped (ChatML/Qwen-style templates pair calls and results by position; "
           "Mistral-style templates, which need ids, want the openai target)",
           "工具调用 id 在每次回复时都重新生成，而适配器用 == 比较字典，在对话历史里找回这一轮，所以不保留 id。"
           "ChatML/Qwen 风格的模板按位置配对调用和结果，需要 id 的 Mistral 风格模板请改用 openai 目标格式"),
    "tool_use_id": ("the tool message follows its call in order, so the pairing id is not kept; "
                    "ChatML/Qwen-style templates pair calls and results by position",
                    "tool 消息紧跟在其调用之后，所以不保留配对 id。ChatML/Qwen 风格的模板按位置配对调用和结果"),
    "signature": ("thinking signatures are checked only by Anthropic's servers; a local model "
                  "neither verifies nor produces them",
                  "thinking 签名只有 Anthropic 的服务器会校验；本地模型既不校验，也不生成签名"),
    "cache_control": ("prompt-caching hints are for Anthropic's servers; a local engine caches by prefix itself",
                      "prompt 缓存标记是给 Anthropic 服务器用的；本地引擎自己按前缀缓存"),
    "is_error": ("the chat shape has no error flag for a tool result; only the result text is kept",
                 "聊天消息没有表示工具结果出错的字段；只保留结果文本"),
    "citations": ("citation metadata has no place in a chat message", "聊天消息里没有放引用元数据的地方"),
    "max_tokens": ("a sampling limit: it stays in the body for the sampling step (Action 3), "
                   "not in the messages or tools",
                   "生成长度上限（最多生成多少个 token），留在请求体里由采样阶段（Action 3）读取，不进入消息或工具"),
    "model": ("the adapter serves one model; the name picks nothing here", "适配器只服务一个模型，这里的模型名不起作用"),
    "stream": ("streaming decides only how the reply is sent back (Action 3.5), not what the prompt says",
               "只决定回复以什么方式发回（Action 3.5），与 prompt 无关"),
    "tool_choice": ("which tool the model may pick is enforced by the engine's decoding, not written into the prompt",
                    "由解码阶段约束模型选哪个工具，不写进 prompt"),
    "thinking": ("the thinking budget is a sampling setting; this translation does not hand the request's on/off "
                 "switch to the template, so a template with an enable_thinking switch (Qwen3, GLM) renders "
                 "its default",
                 "思考预算是采样设置。本包的翻译不把请求里的思考开关交给模板，"
                 "所以带 enable_thinking 开关的模板（如 Qwen3、GLM）按默认值渲染"),
    "metadata": ("request metadata is not part of the prompt", "请求元数据不属于 prompt"),
    "file_image": ("a Files-API image: its file_id means something only to Anthropic's servers, so the engine "
                   "cannot fetch it; replaced by the text '[image omitted]'",
                   "Files API 图片的 file_id 只对 Anthropic 的服务器有意义，引擎拿不到这张图片，所以替换为文本 '[image omitted]'"),
    "parameter": ("a top-level parameter: translation puts it into neither messages nor tools; the sampling step "
                  "reads it from the body, or nothing does",
                  "这个顶层字段既不进消息，也不进工具。如果它是采样参数，由采样阶段从请求体读取，否则没有谁读取它"),
    "no_place": ("the {target} shape has no place for it", "{target} 目标格式里无处可放"),
    "system_text": ("a system message keeps only its text blocks", "system 消息只保留文本块"),
    "assistant_block": ("an assistant {kind!r} block has no place in the {target} shape: dropped",
                        "assistant 消息的 {kind} 块在 {target} 目标格式里没有位置，所以丢弃"),
    "image": ("a text-only template cannot show an image: replaced by '[image omitted]'",
              "纯文本模板无法显示图片，所以替换为 '[image omitted]'"),
    "no_text_nested": ("a {kind!r} block has no text to keep: dropped from the flattened text",
                       "{kind} 块没有可保留的文本，所以从展平的文本中去掉"),
    "no_text": ("a {kind!r} block has no text to keep: replaced by '[{kind} omitted]'",
                "{kind} 块没有可保留的文本，所以替换为 '[{kind} omitted]'"),
    "text_only": ("only the text of a {kind!r} block is kept", "{kind} 块只保留文本"),
    "toolset": ("a tool entry without a name ({kind!r}, a toolset): Anthropic's servers expand it into tools; "
                "it names no function, so it is left out",
                "{kind} 是没有名字的工具条目，即一个工具集，Anthropic 的服务器会把它展开成多个工具，"
                "而条目本身不对应任何函数，所以不放进工具列表"),
    "server_left_out": ("a server tool runs on Anthropic's servers: left out of the tools",
                        "服务端工具在 Anthropic 的服务器上运行，所以不放进工具列表"),
    "server_kept": ("a server tool: kept as a function tool, but only Anthropic's servers can run it",
                    "服务端工具保留为函数工具，但只有 Anthropic 的服务器能运行这种工具"),
    "server_settings": ("a server tool's settings have no place in a function tool", "函数工具里没有放服务端工具设置的地方"),
    "client_known": ("an Anthropic-defined client tool: offered as a function tool with the input schema "
                     "Anthropic documents for {version}; the client runs it, as before",
                     "这个 Anthropic 定义的客户端工具按 Anthropic 为 {version} 公布的输入 schema 作为函数工具提供，"
                     "和原来一样由客户端运行"),
    "client_unknown": ("an Anthropic-defined client tool of a version this package does not know: offered with "
                       "the input schema of {version}, the newest of its family it knows, which may differ",
                       "本包不认识这个版本的 Anthropic 客户端工具，于是按同系列中已知最新的 {version} 的输入 schema 提供，"
                       "两者可能有出入"),
    "client_settings": ("a client tool's setting is for the client that runs it; a function tool has no place for it",
                        "客户端工具的设置是给运行工具的客户端用的；函数工具里没有这个位置"),
}
_FIELDS = ("id", "tool_use_id", "signature", "cache_control", "is_error", "citations", "max_tokens", "model",
           "stream", "tool_choice", "thinking", "metadata")
"""Fields whose reason is the same wherever they are found."""


# The Chinese of each reason's first clause, for a narrow column (the printable cheat sheet):
# the English one is cut at its first "; " (or a ": " after a phrase), which the Chinese
# sentences, written as Chinese is written, do not mark.
_FIRST_CLAUSE_ZH = {
    "id": "每次回复都会重新生成工具调用 id",
    "tool_use_id": "tool 消息紧跟在其调用之后，所以不保留配对 id",
    "signature": "thinking 签名只有 Anthropic 的服务器会校验",
    "cache_control": "prompt 缓存标记是给 Anthropic 服务器用的",
    "is_error": "聊天消息没有表示工具结果出错的字段",
    "max_tokens": "生成长度上限，由采样阶段读取",
    "thinking": "思考预算是采样设置，思考开关不传给模板（模板按默认值渲染）",
    "model": "适配器只服务一个模型",
    "file_image": "Files API 图片，引擎拿不到",
    "parameter": "顶层参数，不进消息也不进工具",
    "assistant_block": "assistant 消息的 {kind} 块在 {target} 目标格式里没有位置",
    "image": "纯文本模板无法显示图片",
    "no_text_nested": "{kind} 块没有可保留的文本",
    "no_text": "{kind} 块没有可保留的文本",
    "toolset": "{kind} 是没有名字的工具条目，即一个工具集",
    "server_left_out": "服务端工具在 Anthropic 的服务器上运行",
    "server_kept": "服务端工具只有 Anthropic 能运行，这里只保留为函数工具",
    "client_known": "作为普通函数工具提供，type 不再需要",
    "client_unknown": "本包不认识这个版本的 Anthropic 客户端工具",
    "client_settings": "客户端工具的设置是给运行工具的客户端用的",
}


class Reason(str):
    """A loss's reason: the text in the language current when it was made (a `str`, so it
    prints, compares and goes into JSON as that text), with both languages at hand in
    `.en` and `.zh`. `reason_in(reason)` gives the one current now; `.first_clause_zh`
    the Chinese of its first clause, `.key` the name it has in `_WHY`."""

    en: str
    zh: str
    first_clause_zh: str
    key: str

    def __new__(cls, en: str, zh: str, first_clause_zh: str = "", key: str = ""):
        return _remade(en, zh, current() == "zh", first_clause_zh, key)

    def __reduce__(self):  # copy and pickle keep both languages, and which one it reads as
        return (_remade, (self.en, self.zh, self.chinese, self.first_clause_zh, self.key))


def _remade(en: str, zh: str, chinese: bool, first_clause_zh: str = "", key: str = "") -> Reason:
    made = str.__new__(Reason, zh if chinese else en)
    made.en, made.zh, made.chinese = en, zh, chinese
    made.first_clause_zh, made.key = first_clause_zh or zh, key
    return made


@functools.lru_cache(maxsize=4096)
def _texts(name: str, **values: str) -> tuple[str, str, str]:
    """The reason called `name`, its values filled in, in both languages and the Chinese of
    its first clause (formatted once each)."""
    en, zh = _WHY[name]
    return en.format(**values), zh.format(**values), _FIRST_CLAUSE_ZH.get(name, zh).format(**values)


def _why(name: str, **values: Any) -> Reason:
    try:
        return Reason(*_texts(name, **values), key=name)
    except TypeError:  # a value that cannot be a cache key: made afresh
        return Reason(*_texts.__wrapped__(name, **values), key=name)


def _field_reason(key: Any) -> Optional[Reason]:
    return _why(key) if isinstance(key, str) and key in _FIELDS else None


def _is_file_image(block: dict) -> bool:
    return block["type"] == "image" and block["source"].get("type") == "file"


def report(body: dict, target: str) -> list[Loss]:
    """The losses of translating a (valid, preprocessed) body to `target`, in body order.
    Each reason is a `Reason`: written in the current language, with the other language at
    hand (`reason_in`)."""
    walk = _Walk(_CHAT if target == "chat_template" else _OPENAI, target)
    walk.body(body)
    return walk.found


class _Walk:
    def __init__(self, carried: dict, target: str):
        self.carried, self.target, self.found = carried, target, []

    def why(self, name: str, **values: Any) -> Reason:
        return _why(name, **values)

    def field_why(self, key: Any, otherwise: Reason) -> Reason:
        return _field_reason(key) or otherwise

    def lose(self, location: tuple, value: Any, reason: str) -> None:
        # What the report hands on is plain JSON within the limits, like every free value:
        # the contract leaves some of these fields (those of messages and frequent blocks) alone.
        if type(value) is not str:
            limits.check_json(value, location)
        self.found.append(Loss(location, value, reason))

    def keys_are_strings(self, value: dict, location: tuple) -> None:
        for key in value:
            if not isinstance(key, str):
                raise RequestError(location, "has a key of type {got}: JSON object keys are strings", got=type(key).__name__)

    def extra_fields(self, kind: str, value: dict, location: tuple) -> None:
        if value.keys() <= self.carried[kind]:
            return  # the common case, checked at C speed
        for key, field_value in value.items():
            if key not in self.carried[kind]:
                self.keys_are_strings(value, location)
                self.lose(location + (key,), field_value, self.field_why(key, self.why("no_place", target=self.target)))

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
                self.lose((key,), value, self.field_why(key, self.why("parameter")))

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
                    self.lose(where, block, self.why("system_text"))
            elif message["role"] == "system":
                self.flattened(block, where)
            else:
                self.block(message["role"], block, where)

    def block(self, role: str, block: dict, location: tuple) -> None:
        kind = f"{role}/{block['type']}"
        if self.target == "openai" and _is_file_image(block):
            self.lose(location + ("source",), block["source"], self.why("file_image"))
        elif kind in self.carried:
            self.extra_fields(kind, block, location)
            if block["type"] == "tool_result" and isinstance(block.get("content"), list):
                for k, item in enumerate(block["content"]):
                    self.nested(item, location + ("content", k))
        elif role == "assistant":
            self.lose(location, block, self.why("assistant_block", kind=block["type"], target=self.target))
        else:  # only the chat_template target gets here: the openai target refuses such blocks
            self.flattened(block, location)

    def nested(self, item: Any, location: tuple) -> None:
        if isinstance(item, str):
            return
        kind = f"nested/{item['type']}"
        if self.target == "openai" and _is_file_image(item):
            self.lose(location + ("source",), item["source"], self.why("file_image"))
        elif kind in self.carried:
            self.extra_fields(kind, item, location)
        else:
            self.flattened(item, location, nested=True)

    def flattened(self, block: dict, location: tuple, nested: bool = False) -> None:
        """A block the chat_template target turns into text with flatten_content."""
        text = flatten_content([block])
        if block["type"] in ("image", "image_url", "input_image"):
            self.lose(location, block, self.why("image"))
        elif not text:
            self.lose(location, block, self.why("no_text_nested" if nested else "no_text", kind=block["type"]))
        else:
            self.keys_are_strings(block, location)
            for key, value in block.items():
                if key not in ("type", "text", "content"):
                    self.lose(location + (key,), value, self.why("text_only", kind=block["type"]))

    def tool(self, tool: dict, location: tuple) -> None:
        kind = client_tools.tool_kind(tool)
        if kind == "toolset":
            self.lose(location, tool, self.why("toolset", kind=tool["type"]))
        elif kind == "server" and self.target == "openai":
            self.lose(location, tool, self.why("server_left_out"))
        elif kind == "server":
            self.lose(location + ("type",), tool["type"], self.why("server_kept"))
            self.settings(tool, location, self.why("server_settings"))
        elif kind == "client":
            self.client_tool(tool, location)
        else:
            self.extra_fields("tool", tool, location)

    def client_tool(self, tool: dict, location: tuple) -> None:
        version = client_tools.known_version(tool)
        why = self.why("client_known" if version == tool["type"] else "client_unknown", version=version)
        self.lose(location + ("type",), tool["type"], why)
        carried = {"type", "name"} | ({"defer_loading"} if self.target == "openai" else set())
        self.settings(tool, location, self.why("client_settings"), carried)

    def settings(self, tool: dict, location: tuple, why: Reason, carried: Optional[set] = None) -> None:
        for key, value in tool.items():
            if key not in (self.carried["tool"] if carried is None else carried):
                self.lose(location + (key,), value, self.field_why(key, why))


def reason_in(reason: str) -> str:
    """A loss's reason in the current language. A `Reason` carries both languages; a plain
    string (a reason read back from JSON) is given back as it is: nothing parses a text back
    into its key."""
    if not isinstance(reason, Reason):
        return reason
    return reason.zh if current() == "zh" else reason.en
