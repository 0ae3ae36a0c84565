"""Build it yourself: check a learner's version of each stage against the package.

Chapter 05 has the learner write the translation one function at a time. After each
function a cell calls

    check_stage("flatten_content", flatten_content)

which runs the learner's function and the package's on the same inputs and answers in
one line (a `Verdict` of the exercise framework):

- "… not written yet" while the function is still the stub (`...  # your code here`);
- "✓ right: …" when the two agree on every input;
- "✗ not yet: …" with the *smallest* input on which they disagree, the place in the
  result where they first differ, and the expected and actual values there. Showing the
  expected value is fine here: the learner wrote code, not a guess.

The inputs of a stage are, in this order: the README example's own inputs for that
stage, a fixed list of traps (two text blocks, two calls, empty content, an image, ...),
and variations made by a generator with a fixed seed. The list is the same on every run
and on every machine, so a verdict never flickers.

A stage's reference is the package's own function, called on a copy of each input: the
learner's version can never disagree with a stale copy of the rules. Where a stage
drives others (the messages path calls the block rules), the learner's function is
checked as written, with whatever helpers it calls.

`your_playground(translate)` puts the learner's finished `translate` beside the
playground: every request the playground holds is translated by both, and the pane below
it says whether they agree.
"""

from __future__ import annotations

import ast
import copy
import html
import inspect
import json
import random
import zlib
from dataclasses import dataclass
from typing import Any, Callable, Optional

from .. import openai_target, translation
from ..watch import language
from ..examples import readme_request
from ..watch.jsondiff import differences
from .exercises import Verdict

GENERATED = 150  # variations per stage, on top of the README inputs and the traps

# Every sentence this module writes, per language ("en" or "zh"; see tutorial.language).
# "rules" is each stage's rule in one sentence (the verdict's and the exercise's explanation);
# "labels" translates the English labels of the README inputs and the traps.
TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "unwritten": "{name} is not written yet: replace the ... with your code and run the cell",
        "not_function": "not yet: {name} should be a function, got {kind}",
        "no_function": "the source defines no function (expected {name})",
        "right": "{name} agrees with the package on all {total} inputs ({readme} from the README example, "
        "{traps} traps, {generated} generated). Its rule: {rule}",
        "wrong": "not yet: {name} differs from the package on {failed} of {total} inputs. The smallest is "
        "{label}:\n    {name}({args})\n  {problem}",
        "trap": 'the trap "{label}"',
        "generated": "generated variation #{number}",
        "raised": "it raised {error}: {message}; the package returns {expected}",
        "changed": "it changed its input; the package's functions never change what they are given (copy first)",
        "differs": "at {place}: expected {want}, got {have}",
        "no_key": "(no such key)",
        "no_item": "(no such item)",
        "yours_unwritten": "your translate is not written yet: the playground shows only the package's translation",
        "yours_error": "the playground's request does not translate yet: {error}",
        "yours_target": "your translate builds the chat_template shape; the playground is set to {target!r}",
        "preset": "the preset {preset!r}",
        "this_request": "this request",
        "yours_differs": "not yet: on {which} your translate differs from the package's: {problem}",
        "yours_agree": "on {which} your translate gives exactly the package's output",
        "pane": "your translate:",
        "rules": {
            "flatten_content": "None gives \"\", a string stays itself, and a list gives the text of its parts, empty "
            "ones skipped, joined by newlines; an image leaves a placeholder, not its bytes.",
            "user_block_message": "a text block is taken as it is, a tool_result becomes a tool message with no id, "
            "and anything else becomes a user message with its text or a placeholder naming its type.",
            "assistant_message": "one message per assistant turn: texts joined into content, thinking into "
            "reasoning_content, each call a dict with no id, and the keys only when there is something to put in "
            "them.",
            "translate_messages": "the system prompt first (or nothing), then every message in order, each giving "
            "zero or more chat messages.",
            "tools_to_chat_tools": "no tools gives None, not []; each tool is wrapped as a function, input_schema "
            "renamed parameters, with an empty object schema and an empty description when they are missing.",
            "translate": "two independent paths, messages first, returned together as a tuple. The package's "
            "version also checks the body and looks the target up, which is why its source is longer.",
            "tool_result_messages": "one tool message per run of reference / non-reference parts, every one with the "
            "same tool_call_id, in the original order; a lone text part collapses to a string.",
        },
        "labels": {},  # the labels are written in English
    },
    "zh": {
        "unwritten": "{name} 还没有写：把 ... 换成你的代码，然后运行这个单元格",
        "not_function": "还不对：{name} 应该是一个函数，收到的却是 {kind}",
        "no_function": "这段源码没有定义函数（应当定义 {name}）",
        "right": "{name} 在全部 {total} 个输入上都与本包一致（{readme} 个来自 README 示例，{traps} 个陷阱，"
        "{generated} 个生成的变体）。它的规则：{rule}",
        "wrong": "还不对：{name} 在 {total} 个输入中有 {failed} 个与本包不同。其中最小的是{label}：\n"
        "    {name}({args})\n  {problem}",
        "trap": "陷阱「{label}」",
        "generated": "生成的变体 #{number}",
        "raised": "它抛出了 {error}：{message}；本包返回 {expected}",
        "changed": "它修改了自己的输入；本包的函数从不修改传给它们的值（先复制一份）",
        "differs": "在 {place} 处：应为 {want}，实际为 {have}",
        "no_key": "（没有这个键）",
        "no_item": "（没有这一项）",
        "yours_unwritten": "你的 translate 还没有写：交互练习场只显示本包的翻译结果",
        "yours_error": "交互练习场中的请求还无法翻译：{error}",
        "yours_target": "你的 translate 构造的是 chat_template 的形状；交互练习场当前设为 {target!r}",
        "preset": "预设 {preset!r} ",
        "this_request": "这个请求",
        "yours_differs": "还不对：在{which}上，你的 translate 与本包的结果不同：{problem}",
        "yours_agree": "在{which}上，你的 translate 给出的输出与本包完全相同",
        "pane": "你的 translate：",
        "rules": {
            "flatten_content": "None 得到 \"\"，字符串保持原样，列表得到其各部分的文本，跳过空的部分，用换行符连接；"
            "图片留下一个占位符，而不是它的字节。",
            "user_block_message": "文本块原样取用，tool_result 变成一条不带 id 的 tool 消息，其他内容块变成一条 user 消息，"
            "内容是它的文本，或者一个写出其类型的占位符。",
            "assistant_message": "每个 assistant 轮次一条消息：各段文本连接成 content，thinking 连接成 reasoning_content，"
            "每次调用变成一个不带 id 的字典；只有确实有内容可放时，才加上对应的键。",
            "translate_messages": "先是系统提示词（或者什么也没有），然后按顺序处理每条消息，每条产生零条或多条聊天消息。",
            "tools_to_chat_tools": "没有工具时得到 None，而不是 []；每个工具包装成函数，input_schema 改名为 parameters，"
            "缺失时分别补上空的 object schema 和空的 description。",
            "translate": "两条相互独立的路径，先处理消息，再作为元组一起返回。本包的版本还会检查 body 并查找目标格式，"
            "所以它的源码更长。",
            "tool_result_messages": "引用部分与非引用部分每连续成一段，就产生一条 tool 消息，每条都带相同的 tool_call_id，"
            "保持原来的顺序；只含一个文本部分的段收缩为一个字符串。",
        },
        "labels": {
            "None": "None",
            "a plain string": "普通字符串",
            "an empty list": "空列表",
            "two text blocks": "两个文本块",
            "an empty text between two texts": "两段文本之间夹着一段空文本",
            "an image": "一张图片",
            "text and an image": "文本加一张图片",
            "one block, not in a list": "单个内容块，不在列表里",
            "strings inside the list": "列表里的字符串",
            "a tool_result inside the list": "列表里的一个 tool_result",
            "an OpenAI-style input_text part": "OpenAI 风格的 input_text 部分",
            "an image_url part": "一个 image_url 部分",
            "a block of unknown type with content": "带 content 的未知类型内容块",
            "a block of unknown type with text": "带 text 的未知类型内容块",
            "a thinking block (it has no text field)": "一个 thinking 块（它没有 text 字段）",
            "a tool_reference (nothing to read)": "一个 tool_reference（没有可读的文本）",
            "an empty text block": "一个空文本块",
            "a tool_result with no content": "没有 content 的 tool_result",
            "a tool_result with string content": "content 为字符串的 tool_result",
            "a tool_result with two text blocks": "带两个文本块的 tool_result",
            "a tool_result with text and an image": "带文本和一张图片的 tool_result",
            "an error result": "一个出错的结果",
            "an image by URL": "一张以 URL 给出的图片",
            "a PDF document": "一个 PDF 文档",
            "a block of unknown type": "一个未知类型的内容块",
            "a search result": "一个搜索结果",
            "empty content": "空的 content",
            "two calls and no text": "两次调用，没有文本",
            "a call with empty input": "input 为空的调用",
            "thinking, text and a call": "thinking、文本和一次调用",
            "two thinking blocks": "两个 thinking 块",
            "redacted thinking": "redacted_thinking 块",
            "a call with two arguments": "带两个参数的调用",
            "no system prompt": "没有系统提示词",
            "an empty system string": "空的 system 字符串",
            "an empty system list": "空的 system 列表",
            "a system string": "字符串形式的 system",
            "a system list of two blocks": "含两个内容块的 system 列表",
            "a user message with two text blocks": "带两个文本块的 user 消息",
            "a user message with empty content": "content 为空的 user 消息",
            "an empty user string": "空的 user 字符串",
            "an assistant string": "字符串形式的 assistant 消息",
            "an assistant with empty content": "content 为空的 assistant 消息",
            "two calls, two results": "两次调用，两个结果",
            "text, an image": "文本和一张图片",
            "a system message inside the list": "列表内部的一条 system 消息",
            "no tools (None)": "没有工具（None）",
            "a tool without a description": "没有 description 的工具",
            "a description of None": "description 为 None",
            "a tool without input_schema": "没有 input_schema 的工具",
            "an input_schema of None": "input_schema 为 None",
            "a server tool": "一个服务端工具",
            "two tools": "两个工具",
            "the README example without tools": "去掉 tools 的 README 示例",
            "the README example with an empty tools list": "tools 为空列表的 README 示例",
            "the README example without a system prompt": "去掉系统提示词的 README 示例",
            "a string system prompt": "字符串形式的系统提示词",
            "text, a reference, text (chapter 08's example)": "文本、引用、文本（第 08 章的例子）",
            "no content": "没有 content",
            "string content": "content 为字符串",
            "an empty content list": "content 为空列表",
            "only a reference": "只有一个引用",
            "two references, then text": "两个引用，然后是文本",
            "two texts": "两段文本",
            "an empty text between a reference and text": "引用和文本之间夹着一段空文本",
            "text, an image, a reference": "文本、一张图片、一个引用",
            "only empty text": "只有空文本",
            "the README example": "README 示例",
            "the README example: {part}": "README 示例的 {part}",
        },
    },
}
_README = "the README example"


def _words(lang: Optional[str]) -> dict[str, Any]:
    return TEXT[language.resolve(lang)]


def _label(label: str, lang: str) -> str:
    """An input's English label in `lang`."""
    labels = TEXT[lang]["labels"]
    if not labels:
        return label
    if label.startswith(_README + ": "):
        return labels["the README example: {part}"].format(part=label[len(_README) + 2 :])
    prefix = TEXT["en"]["generated"].split("{")[0]
    if label.startswith(prefix):
        return TEXT[lang]["generated"].format(number=label[len(prefix) :])
    return labels.get(label, label)


# ---------------------------------------------------------------------------
# What the generator builds from (kept small so a differing input stays readable)

_TEXTS = ("你好", "第一段", "第二段", "README.md", "# Demo\n这是一个学习项目。", "ok", "")
_PNG = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
_URL = {"type": "url", "url": "https://example.com/cat.png"}
_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}


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


class _Maker:
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
        return self.rng.choice(_TEXTS)

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
            (4, lambda: _tool_use(self.call_id(), self.rng.choice(("read_file", "run_tests")),
                                  self.rng.choice(({}, {"path": "a.py"}, {"path": "b.py", "limit": 5})))),
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
        description = self.rng.choice((None, "", "读取文件", "absent"))
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
# The stages


@dataclass(frozen=True)
class Stage:
    name: str  # the function the learner writes
    reference: Callable  # the package's function with the same arguments
    shown: tuple[Callable, ...]  # the package source the solution shows, in reading order
    readme: Callable[[dict], list]  # README body -> [(label, args)]
    traps: Callable[[], list]  # [(label, args)]
    generate: Callable[[_Maker], tuple]  # one generated args tuple
    explanation: str
    module: Any = translation  # where the shown source lives (its names are the source's globals)


def _readme_flatten(body: dict) -> list:
    return [
        ('the README example: body["system"]', (body["system"],)),
        ('the README example: body["messages"][2]["content"][0]["content"]', (body["messages"][2]["content"][0]["content"],)),
    ]


def _traps_flatten() -> list:
    return [
        ("None", (None,)),
        ("a plain string", ("读取 README.md",)),
        ("an empty list", ([],)),
        ("two text blocks", ([_text("第一段"), _text("第二段")],)),
        ("an empty text between two texts", ([_text("第一段"), _text(""), _text("第二段")],)),
        ("an image", ([_image()],)),
        ("text and an image", ([_text("看这张图"), _image()],)),
        ("one block, not in a list", (_text("你好"),)),
        ("strings inside the list", (["第一段", _text("第二段")],)),
        ("a tool_result inside the list", ([_tool_result("toolu_x", [_text("结果")])],)),
        ("an OpenAI-style input_text part", ([{"type": "input_text", "text": "你好"}],)),
        ("an image_url part", ([{"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}],)),
        ("a block of unknown type with content", ([{"type": "note", "content": [_text("备注")]}],)),
        ("a block of unknown type with text", ([{"type": "note", "text": "备注"}],)),
        ("a thinking block (it has no text field)", ([{"type": "thinking", "thinking": "想一想", "signature": "sig"}],)),
        ("a tool_reference (nothing to read)", ([_reference()],)),
    ]


def _generate_flatten(make: _Maker) -> tuple:
    return (make.pick((1, lambda: None), (2, make.text), (6, lambda: make.some(make.nested, 0, 4)), (1, make.user_block)),)


def _readme_user_block(body: dict) -> list:
    return [
        ('the README example: body["messages"][0]["content"][0]', (body["messages"][0]["content"][0],)),
        ('the README example: body["messages"][2]["content"][0]', (body["messages"][2]["content"][0],)),
        ('the README example: body["messages"][2]["content"][1]', (body["messages"][2]["content"][1],)),
    ]


def _traps_user_block() -> list:
    return [
        ("an empty text block", (_text(""),)),
        ("a tool_result with no content", (_tool_result("toolu_x"),)),
        ("a tool_result with string content", (_tool_result("toolu_x", "结果"),)),
        ("a tool_result with two text blocks", (_tool_result("toolu_x", [_text("第一段"), _text("第二段")]),)),
        ("a tool_result with text and an image", (_tool_result("toolu_x", [_text("截图如下"), _image()]),)),
        ("an error result", (_tool_result("toolu_x", "文件不存在", is_error=True),)),
        ("an image", (_image(),)),
        ("an image by URL", (_image(_URL),)),
        ("a PDF document", ({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"}},)),
        ("a block of unknown type", ({"type": "hologram", "frames": 3},)),
        ("a block of unknown type with text", ({"type": "note", "text": "备注"},)),
        ("a search result", ({"type": "search_result", "title": "文档", "source": "https://example.com", "content": [_text("摘要")]},)),
    ]


def _readme_assistant(body: dict) -> list:
    return [('the README example: body["messages"][1]["content"]', (body["messages"][1]["content"],))]


def _traps_assistant() -> list:
    return [
        ("empty content", ([],)),
        ("two text blocks", ([_text("第一段"), _text("第二段")],)),
        ("two calls and no text", ([_tool_use("toolu_a", arguments={"path": "a.py"}), _tool_use("toolu_b", arguments={"path": "b.py"})],)),
        ("a call with empty input", ([_tool_use("toolu_a", "list_files", {})],)),
        ("thinking, text and a call", ([{"type": "thinking", "thinking": "先读文件。", "signature": "sig"}, _text("我先读取文件。"), _tool_use("toolu_a")],)),
        ("two thinking blocks", ([{"type": "thinking", "thinking": "第一步，", "signature": "s1"}, {"type": "thinking", "thinking": "第二步。", "signature": "s2"}],)),
        ("redacted thinking", ([{"type": "redacted_thinking", "data": "RWNyeXB0ZWQ="}, _text("好的。")],)),
        ("a call with two arguments", ([_tool_use("toolu_a", arguments={"path": "a.py", "limit": 50})],)),
    ]


def _readme_messages(body: dict) -> list:
    return [('the README example: body["messages"], body["system"]', (body["messages"], body["system"]))]


def _traps_messages() -> list:
    hello = [{"role": "user", "content": "你好"}]
    return [
        ("no system prompt", (hello, None)),
        ("an empty system string", (hello, "")),
        ("an empty system list", (hello, [])),
        ("a system string", (hello, "回答要简短。")),
        ("a system list of two blocks", (hello, [_text("你是代码助手。"), _text("回答要简短。")])),
        ("a user message with two text blocks", ([{"role": "user", "content": [_text("第一段"), _text("第二段")]}], None)),
        ("a user message with empty content", ([{"role": "user", "content": []}], None)),
        ("an empty user string", ([{"role": "user", "content": ""}], None)),
        ("an assistant string", (hello + [{"role": "assistant", "content": "你好！"}], None)),
        ("an assistant with empty content", (hello + [{"role": "assistant", "content": []}], None)),
        ("two calls, two results", (
            [{"role": "user", "content": "比较两个文件"},
             {"role": "assistant", "content": [_tool_use("toolu_a", arguments={"path": "a.py"}), _tool_use("toolu_b", arguments={"path": "b.py"})]},
             {"role": "user", "content": [_tool_result("toolu_a", "甲"), _tool_result("toolu_b", "乙")]}],
            None,
        )),
        ("text, an image", ([{"role": "user", "content": [_text("这张图里有什么？"), _image()]}], None)),
        ("a system message inside the list", (hello + [{"role": "assistant", "content": "好的。"}, {"role": "system", "content": "技能列表已更新。"}], None)),
    ]


def _readme_tools(body: dict) -> list:
    return [('the README example: body["tools"]', (body["tools"],))]


def _traps_tools() -> list:
    return [
        ("no tools (None)", (None,)),
        ("an empty list", ([],)),
        ("a tool without a description", ([{"name": "list_files", "input_schema": {"type": "object", "properties": {}}}],)),
        ("a description of None", ([{"name": "list_files", "description": None, "input_schema": _SCHEMA}],)),
        ("a tool without input_schema", ([{"name": "list_files", "description": "列出文件"}],)),
        ("an input_schema of None", ([{"name": "list_files", "description": "列出文件", "input_schema": None}],)),
        ("a server tool", ([{"type": "web_search_20250305", "name": "web_search", "max_uses": 3}],)),
        ("two tools", ([{"name": "read_file", "description": "读取文件", "input_schema": _SCHEMA}, {"name": "list_files", "description": "列出文件"}],)),
    ]


def _traps_translate() -> list:
    readme = readme_request()
    without_tools = {key: value for key, value in readme.items() if key != "tools"}
    return [
        ("the README example without tools", (without_tools,)),
        ("the README example with an empty tools list", ({**readme, "tools": []},)),
        ("the README example without a system prompt", ({key: value for key, value in readme.items() if key != "system"},)),
        ("a string system prompt", ({"system": "回答要简短。", "messages": [{"role": "user", "content": "你好"}]},)),
        ("two text blocks", ({"messages": [{"role": "user", "content": [_text("第一段"), _text("第二段")]}]},)),
        ("an image", ({"messages": [{"role": "user", "content": [_text("这张图里有什么？"), _image()]}]},)),
    ]


def _readme_openai(body: dict) -> list:
    return [('the README example: body["messages"][2]["content"][0]', (body["messages"][2]["content"][0],))]


def _traps_openai() -> list:
    return [
        ("text, a reference, text (chapter 08's example)", (_tool_result("toolu_search", [_text("找到一个匹配的工具："), _reference(), _text("它只需要测试文件的路径。")]),)),
        ("no content", (_tool_result("toolu_x"),)),
        ("string content", (_tool_result("toolu_x", "结果"),)),
        ("an empty content list", (_tool_result("toolu_x", []),)),
        ("only a reference", (_tool_result("toolu_x", [_reference()]),)),
        ("two references, then text", (_tool_result("toolu_x", [_reference("run_tests"), _reference("read_file"), _text("已加载。")]),)),
        ("two texts", (_tool_result("toolu_x", [_text("第一段"), _text("第二段")]),)),
        ("an empty text between a reference and text", (_tool_result("toolu_x", [_reference(), _text(""), _text("已加载。")]),)),
        ("text, an image, a reference", (_tool_result("toolu_x", [_text("截图："), _image(), _reference()]),)),
        ("only empty text", (_tool_result("toolu_x", [_text("")]),)),
    ]


def _translate_reference(body: dict) -> tuple:
    from ..translation import translate

    return translate(body)


STAGES: dict[str, Stage] = {
    stage.name: stage
    for stage in (
        Stage(
            "flatten_content",
            translation.flatten_content,
            (translation.flatten_content, translation._part_text, translation._string),
            _readme_flatten,
            _traps_flatten,
            _generate_flatten,
            TEXT["en"]["rules"]["flatten_content"],
        ),
        Stage(
            "user_block_message",
            translation.user_block_message,
            (translation.user_block_message,),
            _readme_user_block,
            _traps_user_block,
            lambda make: (make.user_block(),),
            TEXT["en"]["rules"]["user_block_message"],
        ),
        Stage(
            "assistant_message",
            translation.assistant_message,
            (translation.assistant_message, translation.tool_call_dict),
            _readme_assistant,
            _traps_assistant,
            lambda make: (make.some(make.assistant_block, 0, 4),),
            TEXT["en"]["rules"]["assistant_message"],
        ),
        Stage(
            "translate_messages",
            translation.translate_messages,
            (translation.chat_template_messages, translation.system_messages, translation.chat_template_message),
            _readme_messages,
            _traps_messages,
            lambda make: (make.messages(), make.system()),
            TEXT["en"]["rules"]["translate_messages"],
        ),
        Stage(
            "tools_to_chat_tools",
            translation.tools_to_chat_tools,
            (translation.chat_template_tools, translation.function_tool),
            _readme_tools,
            _traps_tools,
            lambda make: (make.tools(),),
            TEXT["en"]["rules"]["tools_to_chat_tools"],
        ),
        Stage(
            "translate",
            _translate_reference,
            (translation.translate,),
            lambda body: [("the README example", (body,))],
            _traps_translate,
            lambda make: (make.body(),),
            TEXT["en"]["rules"]["translate"],
        ),
        Stage(
            "tool_result_messages",
            openai_target.tool_result_messages,
            (openai_target.tool_result_messages, openai_target._collapse, openai_target._is_empty_text),
            _readme_openai,
            _traps_openai,
            lambda make: (make.openai_result(),),
            TEXT["en"]["rules"]["tool_result_messages"],
            openai_target,
        ),
    )
}


def stage_names() -> list[str]:
    return list(STAGES)


def cases(name: str, generated: int = GENERATED, lang: Optional[str] = None) -> list[tuple[str, tuple]]:
    """The inputs a stage is checked on, as (label, arguments): README first, then the
    traps, then `generated` variations from a generator seeded with the stage's name.
    The labels are written in `lang` (the current language by default)."""
    lang = language.resolve(lang)
    return [(_label(label, lang), args) for label, args in _cases(name, generated)]


def _cases(name: str, generated: int = GENERATED) -> list[tuple[str, tuple]]:
    """`cases` with the English labels."""
    stage = _stage(name)
    found = stage.readme(readme_request()) + stage.traps()
    make = _Maker(name)
    found += [(TEXT["en"]["generated"].format(number=i + 1), stage.generate(make)) for i in range(generated)]
    return found


def source(name: str) -> str:
    """The package's own code for a stage: the function and the helpers it calls."""
    return "\n\n\n".join(inspect.getsource(function).rstrip() for function in _stage(name).shown) + "\n"


# ---------------------------------------------------------------------------
# The check


def check_stage(name: str, function: Any, lang: Optional[str] = None) -> Verdict:
    """Run `function` and the package's version of stage `name` on every input of the
    stage; ✓, or the smallest input on which they differ. `function` may also be given as
    source text (the function and any helpers it defines). The verdict is written in
    `lang` (the current language by default)."""
    lang = language.resolve(lang)
    words = TEXT[lang]
    stage = _stage(name)
    if isinstance(function, str):
        function = _compile(stage, function, lang)
    if function is Ellipsis or function is None or _is_stub(function):
        return Verdict("unanswered", words["unwritten"].format(name=name))
    if not callable(function):
        return Verdict("wrong", words["not_function"].format(name=name, kind=type(function).__name__))
    found = [(label, args, _run(function, args)) for label, args in _cases(name)]
    failures = []
    for label, args, got in found:
        expected = stage.reference(*copy.deepcopy(args))
        problem = _problem(args, got, expected, lang)
        if problem:
            failures.append((_size(args), label, args, problem))
    if not failures:
        readme = len(stage.readme(readme_request()))
        counts = {"total": len(found), "readme": readme, "traps": len(stage.traps()), "generated": GENERATED}
        return Verdict("right", words["right"].format(name=name, rule=words["rules"][name], **counts))
    _, label, args, problem = min(failures, key=lambda failure: failure[0])
    shown_args = ", ".join(_short(arg, 400, lang) for arg in args)
    trap = not label.startswith(("the README", "generated"))
    label = _label(label, lang)
    if trap:
        label = words["trap"].format(label=label)
    elif lang == "zh" and label[:1].isascii():
        label = " " + label  # a space between Chinese and Latin text
    counts = {"failed": len(failures), "total": len(found)}
    return Verdict("wrong", words["wrong"].format(name=name, label=label, args=shown_args, problem=problem, **counts))


def _stage(name: str) -> Stage:
    if name not in STAGES:
        raise KeyError(f"no stage called {name!r}; the stages are {', '.join(STAGES)}")
    return STAGES[name]


_STUB = compile("def stub(*args):\n    ...\n", "<stub>", "exec").co_consts[0].co_code


def _is_stub(function: Any) -> bool:
    code = getattr(function, "__code__", None)
    return code is not None and code.co_code == _STUB


def _compile(stage: Stage, text: str, lang: Optional[str] = None) -> Callable:
    """Source text -> the function it defines: the one named like the stage, else the first.
    Only definitions, imports and assignments run; a trailing check call is skipped."""
    tree = ast.parse(text)
    tree.body = [node for node in tree.body if not isinstance(node, ast.Expr)]
    namespace = dict(vars(stage.module))
    exec(compile(tree, f"<{stage.name}>", "exec"), namespace)
    defined = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    if not defined:
        raise ValueError(_words(lang)["no_function"].format(name=stage.name))
    return namespace[stage.name if stage.name in defined else defined[0]]


@dataclass(frozen=True)
class _Outcome:
    value: Any = None
    raised: Optional[BaseException] = None
    changed_input: bool = False


def _run(function: Callable, args: tuple) -> _Outcome:
    given = copy.deepcopy(args)
    try:
        value = function(*given)
    except Exception as error:  # the learner's code: report it, never let it escape
        return _Outcome(raised=error)
    return _Outcome(value=value, changed_input=_plain(given) != _plain(args))


def _problem(args: tuple, got: _Outcome, expected: Any, lang: Optional[str] = None) -> str:
    """"" when the learner's outcome matches; otherwise one line on where and how it differs."""
    words = _words(lang)
    if got.raised is not None:
        error = type(got.raised).__name__
        return words["raised"].format(error=error, message=got.raised, expected=_short(expected, lang=lang))
    if got.changed_input:
        return words["changed"]
    found = _first_difference(_plain(got.value), _plain(expected), ())
    if found is None:
        return ""
    location, have, want = found
    place = "result" + "".join(f"[{part}]" if isinstance(part, int) else f'["{part}"]' for part in location)
    return words["differs"].format(place=place, want=_short(want, lang=lang), have=_short(have, lang=lang))


class _Missing:
    def __init__(self, what: str):
        self.what = what  # a key of TEXT[lang]


_NO_KEY, _NO_ITEM = _Missing("no_key"), _Missing("no_item")


def _first_difference(have: Any, want: Any, location: tuple) -> Optional[tuple]:
    """The first place, in the expected value's order, where `have` differs from `want`:
    (location, what is there, what should be there). Lists are compared item by item, so a
    missing message is reported at its index rather than as two whole lists."""
    if isinstance(have, dict) and isinstance(want, dict):
        for key in {**want, **have}:
            if key not in have or key not in want:
                return location + (key,), have.get(key, _NO_KEY), want.get(key, _NO_KEY)
            found = _first_difference(have[key], want[key], location + (key,))
            if found:
                return found
        return None
    if isinstance(have, list) and isinstance(want, list):
        for index in range(max(len(have), len(want))):
            if index >= len(have) or index >= len(want):
                return location + (index,), _at(have, index), _at(want, index)
            found = _first_difference(have[index], want[index], location + (index,))
            if found:
                return found
        return None
    return (location, have, want) if differences(have, want) else None


def _at(items: list, index: int) -> Any:
    return items[index] if index < len(items) else _NO_ITEM


def _plain(value: Any) -> Any:
    """Tuples as lists, so (translated, tools) and [translated, tools] compare alike."""
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _size(args: tuple) -> int:
    return len(json.dumps(args, ensure_ascii=False, default=str))


def _short(value: Any, limit: int = 240, lang: Optional[str] = None) -> str:
    if isinstance(value, _Missing):
        return _words(lang)[value.what]
    text = repr(value)  # Python, as the learner would write it (Chinese stays readable)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ---------------------------------------------------------------------------
# The learner's translate beside the playground


class YourPlayground:
    """The playground with a second opinion: `model` is an ordinary `Playground`; each time
    its request changes, `translate` (the learner's) runs on the same preprocessed body and
    `compare()` says whether it agrees with the package."""

    def __init__(self, translate: Callable, lang: Optional[str] = None):
        from . import Playground  # the playground loads only when this is built

        self.translate = translate
        self.lang = language.resolve(lang)
        self.model = Playground()
        self._pane = None
        self.model.on_change(lambda what: self._redraw())

    def compare(self) -> Verdict:
        """Your translate against the package's on the playground's current request."""
        model, words = self.model, TEXT[self.lang]
        if _is_stub(self.translate):
            return Verdict("unanswered", words["yours_unwritten"])
        if model.results.get("error"):
            return Verdict("unanswered", words["yours_error"].format(error=model.results["error"]))
        if model.target != "chat_template":
            return Verdict("unanswered", words["yours_target"].format(target=model.target))
        # The playground preprocesses before it translates, as _run_turn does; yours gets the same body.
        body = model.trace.preprocessed
        expected = (model.results["translated"], model.results["tools_schema"])
        problem = _problem((body,), _run(self.translate, (body,)), expected, self.lang)
        which = words["preset"].format(preset=model.preset) if model.preset else words["this_request"]
        if problem:
            return Verdict("wrong", words["yours_differs"].format(which=which, problem=problem))
        return Verdict("right", words["yours_agree"].format(which=which))

    @property
    def widget(self):
        import ipywidgets

        if self._pane is None:
            self._pane = ipywidgets.HTML()
            self._redraw()
        return ipywidgets.VBox([self.model.widget, self._pane])

    def _redraw(self) -> None:
        if self._pane is None:
            return
        verdict = self.compare()
        colour = {"right": "#e9f6ec", "wrong": "#fdecea", "unanswered": "#f3f3f3"}[verdict.state]
        self._pane.value = (
            f"<div style='background:{colour};padding:6px 10px;margin-top:6px;white-space:pre-wrap'>"
            f"<b>{html.escape(TEXT[self.lang]['pane'])}</b> {html.escape(repr(verdict))}</div>"
        )


def your_playground(translate: Callable, lang: Optional[str] = None) -> YourPlayground:
    """The playground, with `translate` (yours) checked against the package on every edit;
    its verdicts are written in `lang` (the current language by default)."""
    return YourPlayground(translate, lang)


__all__ = ["STAGES", "TEXT", "YourPlayground", "cases", "check_stage", "source", "stage_names", "your_playground"]
