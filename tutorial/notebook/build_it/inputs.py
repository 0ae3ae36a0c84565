"""The inputs a stage is checked on: the README example's own, named traps, and a generator.

A trap is `(label, arguments, rule)`: one small input built to catch one usual mistake,
and the bullet of the stage's rule that mistake breaks (`"join"`, or `"stage:rule"` for a
bullet of another stage, as the traps of `translate` do). Traps come simplest first; the
checker shows the first one that fails, before any generated input. The generator makes
random valid requests from a generator seeded with the stage's name, so the inputs are the
same on every run and on every machine, and a verdict never flickers.
"""

from __future__ import annotations

import copy
import random
import zlib
from typing import Any, Callable, Optional

from ...examples import readme_request

_TEXTS = ("你好", "第一段", "第二段", "README.md", "# Demo\n这是一个学习项目。", "ok", "")
# Text as people and tools really send it: spaces, tabs and newlines around it, which every
# rule of chapter 05 keeps as they are (a learner's .strip() must show up somewhere).
_SPACED = ("  缩进的一行", "结尾有换行\n", "\n前后都有空白 \n", "\t制表符开头", " ", "\n\n")
# Tool arguments: flat, empty, nested, list-valued and unicode (sent as they are, never as JSON text).
_ARGUMENTS = (
    {},
    {"path": "a.py"},
    {"path": "b.py", "limit": 5},
    {"path": "说明 文档.md"},
    {"paths": ["a.py", "b.py"]},
    {"query": " 两端有空格 ", "options": {"recursive": True, "depth": [1, 2]}},
    {"filter": {"名字": "值", "tags": []}, "ratio": 0.5, "flag": None},
)
_PNG = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
_URL = {"type": "url", "url": "https://example.com/cat.png"}
_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
README = "the README example"


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def _image(source: Optional[dict] = None) -> dict:
    return {"type": "image", "source": dict(source or _PNG)}


def _tool_use(call_id: str, name: str = "read_file", arguments: Optional[dict] = None) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {"path": "README.md"} if arguments is None else arguments}


def _tool_result(call_id: str, *content: Any, **extra: Any) -> dict:
    block = {"type": "tool_result", "tool_use_id": call_id}
    if content:
        block["content"] = content[0]
    block.update(extra)
    return block


def _reference(name: str = "run_tests") -> dict:
    return {"type": "tool_reference", "tool_name": name}


class Maker:
    """Random pieces of a request, all valid under the contract, from a seeded generator."""

    def __init__(self, seed: str):
        self.rng = random.Random(zlib.crc32(seed.encode()))
        self.calls = 0

    def pick(self, *weighted: tuple[int, Callable[[], Any]]) -> Any:
        total = sum(weight for weight, _ in weighted)
        roll = self.rng.randrange(total)
        for weight, make in weighted:
            if roll < weight:
                return make()
            roll -= weight
        raise AssertionError("unreachable")

    def text(self) -> str:
        return self.rng.choice(_TEXTS) if self.rng.random() < 0.7 else self.rng.choice(_SPACED)

    def arguments(self) -> dict:
        return copy.deepcopy(self.rng.choice(_ARGUMENTS))

    def some(self, make: Callable[[], Any], low: int, high: int) -> list:
        return [make() for _ in range(self.rng.randint(low, high))]

    def call_id(self) -> str:
        self.calls += 1
        return f"toolu_{self.calls:02d}"

    def nested(self) -> Any:
        """An item inside a tool_result's content list."""
        return self.pick(
            (5, lambda: _text(self.text())),
            (2, lambda: _image()),
            (1, lambda: self.text()),
            (1, lambda: _reference()),
        )

    def tool_result(self) -> dict:
        return self.pick(
            (1, lambda: _tool_result(self.call_id())),
            (2, lambda: _tool_result(self.call_id(), self.text())),
            (4, lambda: _tool_result(self.call_id(), self.some(self.nested, 0, 3))),
            (1, lambda: _tool_result(self.call_id(), self.some(self.nested, 1, 2), is_error=True)),
        )

    def user_block(self) -> dict:
        return self.pick(
            (6, lambda: _text(self.text())),
            (4, self.tool_result),
            (2, lambda: _image(self.rng.choice((_PNG, _URL)))),
            (1, lambda: {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}}),
            (1, lambda: {"type": "hologram", "frames": 3}),
            (1, lambda: {"type": "note", "text": self.text()}),
            (1, lambda: {"type": "search_result", "title": "文档", "source": "https://example.com", "content": [_text(self.text())]}),
        )

    def assistant_block(self) -> dict:
        return self.pick(
            (5, lambda: _text(self.text())),
            (3, lambda: {"type": "thinking", "thinking": self.text(), "signature": "EqQBCkYI"}),
            (4, lambda: _tool_use(self.call_id(), self.rng.choice(("read_file", "run_tests")), self.arguments())),
            (1, lambda: {"type": "redacted_thinking", "data": "RWNyeXB0ZWQ="}),
        )

    def content(self, block: Callable[[], dict]) -> Any:
        return self.pick((1, self.text), (3, lambda: self.some(block, 0, 3)))

    def message(self, role: str) -> dict:
        if role == "system":
            return {"role": "system", "content": self.pick((1, self.text), (1, lambda: self.some(lambda: _text(self.text()), 1, 2)))}
        return {"role": role, "content": self.content(self.user_block if role == "user" else self.assistant_block)}

    def messages(self) -> list:
        roles = ["user" if i % 2 == 0 else "assistant" for i in range(self.rng.randint(1, 5))]
        if len(roles) > 1 and self.rng.random() < 0.2:
            roles.insert(self.rng.randint(1, len(roles)), "system")  # a reminder inside the list
        return [self.message(role) for role in roles]

    def system(self) -> Any:
        return self.pick(
            (2, lambda: None),
            (1, lambda: ""),
            (2, self.text),
            (1, lambda: []),
            (3, lambda: self.some(lambda: _text(self.text()), 1, 2)),
        )

    def tool(self) -> dict:
        tool: dict = {"name": self.rng.choice(("read_file", "run_tests", "search"))}
        description = self.rng.choice((None, "", "读取文件", " 读取文件\n", "absent"))
        if description != "absent":
            tool["description"] = description
        schema = self.rng.choice((None, _SCHEMA, {"type": "object", "properties": {}}, "absent"))
        if schema != "absent":
            tool["input_schema"] = copy.deepcopy(schema)
        return tool

    def tools(self) -> Any:
        return self.pick(
            (2, lambda: None),
            (1, lambda: []),
            (4, lambda: self.some(self.tool, 1, 3)),
            (1, lambda: [{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}]),
        )

    def body(self) -> dict:
        body: dict = {"messages": self.messages()}
        for key, make in (("system", self.system), ("tools", self.tools)):
            value = make()
            if value is not None or self.rng.random() < 0.5:
                body[key] = value
        body["max_tokens"] = 128
        return body

    def openai_result(self) -> dict:
        def part() -> Any:
            return self.pick(
                (4, lambda: _text(self.text())),
                (3, lambda: _reference(self.rng.choice(("run_tests", "read_file")))),
                (1, lambda: _image(self.rng.choice((_PNG, _URL)))),
                (1, lambda: self.text()),
            )

        return self.pick(
            (1, lambda: _tool_result(self.call_id())),
            (1, lambda: _tool_result(self.call_id(), self.text())),
            (6, lambda: _tool_result(self.call_id(), self.some(part, 0, 5))),
        )



# ---------------------------------------------------------------------------
# Per stage: the README example's inputs, the traps (label, arguments, rule), one generated input


def readme_flatten(body: dict) -> list:
    return [
        ('the README example: body["system"]', (body["system"],)),
        ('the README example: body["messages"][2]["content"][0]["content"]', (body["messages"][2]["content"][0]["content"],)),
    ]


def traps_flatten() -> list:
    return [
        ("None", (None,), "empty"),
        ("a plain string", ("读取 README.md",), "empty"),
        ("one block, not in a list", (_text("你好"),), "empty"),
        ("an empty list", ([],), "join"),
        ("two text blocks", ([_text("第一段"), _text("第二段")],), "join"),
        ("an empty text between two texts", ([_text("第一段"), _text(""), _text("第二段")],), "join"),
        ("texts with spaces and newlines around them", ([_text("  第一段\n"), _text("\n第二段 ")],), "part"),
        ("strings inside the list", (["第一段", _text("第二段")],), "part"),
        ("an image", ([_image()],), "part"),
        ("text and an image", ([_text("看这张图"), _image()],), "part"),
        ("a tool_result inside the list", ([_tool_result("toolu_x", [_text("结果")])],), "part"),
        ("an OpenAI-style input_text part", ([{"type": "input_text", "text": "你好"}],), "part"),
        ("an image_url part", ([{"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}],), "part"),
        ("an OpenAI-style input_image part", ([{"type": "input_image", "image_url": "https://example.com/cat.png"}],), "part"),
        ("a block of unknown type with content", ([{"type": "note", "content": [_text("备注")]}],), "part"),
        ("a block of unknown type with text", ([{"type": "note", "text": "备注"}],), "part"),
        ("a thinking block (it has no text field)", ([{"type": "thinking", "thinking": "想一想", "signature": "sig"}],), "part"),
        ("a tool_reference (nothing to read)", ([_reference()],), "part"),
    ]


def generate_flatten(make: Maker) -> tuple:
    return (make.pick((1, lambda: None), (2, make.text), (6, lambda: make.some(make.nested, 0, 4)), (1, make.user_block)),)


def readme_user_block(body: dict) -> list:
    return [
        ('the README example: body["messages"][0]["content"][0]', (body["messages"][0]["content"][0],)),
        ('the README example: body["messages"][2]["content"][0]', (body["messages"][2]["content"][0],)),
        ('the README example: body["messages"][2]["content"][1]', (body["messages"][2]["content"][1],)),
    ]


def traps_user_block() -> list:
    return [
        ("a text block", (_text("你好"),), "text"),
        ("an empty text block", (_text(""),), "text"),
        ("a text block with spaces and newlines around it", (_text("  你好\n"),), "text"),
        ("a tool_result with string content", (_tool_result("toolu_x", "结果"),), "tool_result"),
        ("a tool_result with no content", (_tool_result("toolu_x"),), "tool_result"),
        ("a tool_result whose text ends in a newline", (_tool_result("toolu_x", "第一行\n第二行\n"),), "tool_result"),
        ("a tool_result with two text blocks", (_tool_result("toolu_x", [_text("第一段"), _text("第二段")]),), "tool_result"),
        ("a tool_result with text and an image", (_tool_result("toolu_x", [_text("截图如下"), _image()]),), "tool_result"),
        ("an error result", (_tool_result("toolu_x", "文件不存在", is_error=True),), "tool_result"),
        ("an image", (_image(),), "other"),
        ("an image by URL", (_image(_URL),), "other"),
        ("a PDF document", ({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}},), "other"),
        ("a block of unknown type", ({"type": "hologram", "frames": 3},), "other"),
        ("a block of unknown type with text", ({"type": "note", "text": "备注"},), "other"),
        ("a search result", ({"type": "search_result", "title": "文档", "source": "https://example.com", "content": [_text("摘要")]},), "other"),
    ]


def generate_user_block(make: Maker) -> tuple:
    return (make.user_block(),)


def readme_assistant(body: dict) -> list:
    return [('the README example: body["messages"][1]["content"]', (body["messages"][1]["content"],))]


def traps_assistant() -> list:
    return [
        ("empty content", ([],), "text"),
        ("two text blocks", ([_text("第一段"), _text("第二段")],), "text"),
        ("one call", ([_tool_use("toolu_a")],), "calls"),
        ("two calls and no text", ([_tool_use("toolu_a", arguments={"path": "a.py"}), _tool_use("toolu_b", arguments={"path": "b.py"})],), "calls"),
        ("a call with empty input", ([_tool_use("toolu_a", "list_files", {})],), "calls"),
        ("a call with two arguments", ([_tool_use("toolu_a", arguments={"path": "a.py", "limit": 50})],), "calls"),
        ("a call with nested arguments", ([_tool_use("toolu_a", "search", {"query": "说明", "options": {"depth": 2}})],), "calls"),
        ("a call with a list argument", ([_tool_use("toolu_a", "read_files", {"paths": ["a.py", "b.py"]})],), "calls"),
        ("text beside a call", ([_text("我先读取文件。"), _tool_use("toolu_a")],), "text"),
        ("a text with spaces and newlines around it", ([_text("\n好的。 ")],), "text"),
        ("thinking, text and a call", ([{"type": "thinking", "thinking": "先读文件。", "signature": "sig"}, _text("我先读取文件。"), _tool_use("toolu_a")],), "thinking"),
        ("two thinking blocks", ([{"type": "thinking", "thinking": "第一步，", "signature": "s1"}, {"type": "thinking", "thinking": "第二步。", "signature": "s2"}],), "thinking"),
        ("redacted thinking", ([{"type": "redacted_thinking", "data": "RWNyeXB0ZWQ="}, _text("好的。")],), "other"),
    ]


def generate_assistant(make: Maker) -> tuple:
    return (make.some(make.assistant_block, 0, 4),)


def readme_messages(body: dict) -> list:
    return [('the README example: body["messages"], body["system"]', (body["messages"], body["system"]))]


def traps_messages() -> list:
    hello = [{"role": "user", "content": "你好"}]
    return [
        ("an empty user string", ([{"role": "user", "content": ""}], None), "string"),
        ("an assistant string", (hello + [{"role": "assistant", "content": "你好！"}], None), "string"),
        ("no system prompt", (hello, None), "system"),
        ("an empty system string", (hello, ""), "system"),
        ("an empty system list", (hello, []), "system"),
        ("a system string", (hello, "回答要简短。"), "system"),
        ("a system string ending in a newline", (hello, "回答要简短。\n"), "system"),
        ("a user string with spaces around it", ([{"role": "user", "content": "  你好\n"}], None), "string"),
        ("a system list of two blocks", (hello, [_text("你是代码助手。"), _text("回答要简短。")]), "system"),
        ("a user message with two text blocks", ([{"role": "user", "content": [_text("第一段"), _text("第二段")]}], None), "user"),
        ("a user message with empty content", ([{"role": "user", "content": []}], None), "user"),
        ("text, an image", ([{"role": "user", "content": [_text("这张图里有什么？"), _image()]}], None), "user"),
        ("a result, then text", ([{"role": "user", "content": [_tool_result("toolu_a", "print(1)"), _text("解释一下。")]}], None), "user"),
        ("a call and its result", (
            [{"role": "user", "content": "读一下 a.py"},
             {"role": "assistant", "content": [_tool_use("toolu_a", arguments={"path": "a.py"})]},
             {"role": "user", "content": [_tool_result("toolu_a", "print(1)")]}],
            None,
        ), "user"),
        ("two calls, two results", (
            [{"role": "user", "content": "比较两个文件"},
             {"role": "assistant", "content": [_tool_use("toolu_a", arguments={"path": "a.py"}), _tool_use("toolu_b", arguments={"path": "b.py"})]},
             {"role": "user", "content": [_tool_result("toolu_a", "甲"), _tool_result("toolu_b", "乙")]}],
            None,
        ), "user"),
        ("an assistant with empty content", (hello + [{"role": "assistant", "content": []}], None), "assistant"),
        ("a system message inside the list", (hello + [{"role": "assistant", "content": "好的。"}, {"role": "system", "content": "技能列表已更新。"}], None), "inner_system"),
    ]


def generate_messages(make: Maker) -> tuple:
    return (make.messages(), make.system())


def readme_tools(body: dict) -> list:
    return [('the README example: body["tools"]', (body["tools"],))]


def traps_tools() -> list:
    return [
        ("no tools (None)", (None,), "none"),
        ("an empty list", ([],), "none"),
        ("one tool", ([{"name": "read_file", "description": "读取文件", "input_schema": _SCHEMA}],), "wrap"),
        ("a tool without a description", ([{"name": "list_files", "input_schema": {"type": "object", "properties": {}}}],), "wrap"),
        ("a description of None", ([{"name": "list_files", "description": None, "input_schema": _SCHEMA}],), "wrap"),
        ("a tool without input_schema", ([{"name": "list_files", "description": "列出文件"}],), "wrap"),
        ("an input_schema of None", ([{"name": "list_files", "description": "列出文件", "input_schema": None}],), "wrap"),
        ("a server tool", ([{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}],), "wrap"),
        ("two tools", ([{"name": "read_file", "description": "读取文件", "input_schema": _SCHEMA}, {"name": "list_files", "description": "列出文件"}],), "wrap"),
    ]


def generate_tools(make: Maker) -> tuple:
    return (make.tools(),)


def readme_translate(body: dict) -> list:
    return [(README, (body,))]


def traps_translate() -> list:
    readme = readme_request()
    return [
        ("the README example without tools", ({key: value for key, value in readme.items() if key != "tools"},), "tools_to_chat_tools:none"),
        ("the README example with an empty tools list", ({**readme, "tools": []},), "tools_to_chat_tools:none"),
        ("the README example without a system prompt", ({key: value for key, value in readme.items() if key != "system"},), "translate_messages:system"),
        ("a string system prompt", ({"system": "回答要简短。", "messages": [{"role": "user", "content": "你好"}]},), "translate_messages:system"),
        ("two text blocks", ({"messages": [{"role": "user", "content": [_text("第一段"), _text("第二段")]}]},), "translate_messages:user"),
        ("an image", ({"messages": [{"role": "user", "content": [_text("这张图里有什么？"), _image()]}]},), "user_block_message:other"),
    ]


def generate_translate(make: Maker) -> tuple:
    return (make.body(),)


def readme_openai(body: dict) -> list:
    return [('the README example: body["messages"][2]["content"][0]', (body["messages"][2]["content"][0],))]


def traps_openai() -> list:
    return [
        ("string content", (_tool_result("toolu_x", "结果"),), "string"),
        ("string content ending in a newline", (_tool_result("toolu_x", "结果\n"),), "string"),
        ("no content", (_tool_result("toolu_x"),), "string"),
        ("one text part", (_tool_result("toolu_x", [_text("结果")]),), "run"),
        ("two texts", (_tool_result("toolu_x", [_text("第一段"), _text("第二段")]),), "run"),
        ("one text part with spaces around it", (_tool_result("toolu_x", [_text(" 结果\n")]),), "run"),
        ("only a reference", (_tool_result("toolu_x", [_reference()]),), "parts"),
        ("text, a reference, text (chapter 08's example)", (_tool_result("toolu_search", [_text("找到一个匹配的工具："), _reference(), _text("它只需要测试文件的路径。")]),), "parts"),
        ("two references, then text", (_tool_result("toolu_x", [_reference("run_tests"), _reference("read_file"), _text("已加载。")]),), "parts"),
        ("an empty text between a reference and text", (_tool_result("toolu_x", [_reference(), _text(""), _text("已加载。")]),), "parts"),
        ("text, an image, a reference", (_tool_result("toolu_x", [_text("截图："), _image(), _reference()]),), "parts"),
        ("an empty content list", (_tool_result("toolu_x", []),), "empty"),
        ("only empty text", (_tool_result("toolu_x", [_text("")]),), "empty"),
    ]


def generate_openai(make: Maker) -> tuple:
    return (make.openai_result(),)
