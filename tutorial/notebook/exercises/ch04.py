"""Chapter 04, the hand-back: how the results travel, what stays behind, where the tools go."""

from __future__ import annotations

from typing import Any

from ...examples import readme_request
from . import Exercise, add


def _losses() -> list[str]:
    from ...watch.trace import trace

    return [loss.path for loss in trace(readme_request()).losses]


def _same_places(answer: Any, expected: list[str]) -> bool:
    """The same places in any order, written with or without spaces."""
    if not isinstance(answer, (list, tuple, set)) or not all(isinstance(item, str) for item in answer):
        return False
    return sorted(item.replace(" ", "") for item in answer) == sorted(expected)


add(
    Exercise(
        key="04.handoff",
        question="How do translated and tools_schema reach BaseAdapter._run_turn?",
        choices={
            "a": "in a second HTTP request, to the part of the adapter that samples",
            "b": "as the return value of self._translate(body), an ordinary Python call on the same object",
            "c": "written back into the body under new keys",
            "d": "through a queue that the sampling step reads from",
        },
        expected=lambda: "b",
        wrong="a",
        feedback={
            "a": "The only HTTP request in this turn is the CLI's POST /v1/messages, and its answer goes out "
            "after sampling. Everything in between runs inside one Python process.",
            "c": "No function in Action 2 changes the body it is given.",
            "d": "_run_turn calls _translate and continues with its result on the next line; nothing waits.",
        },
        hint="Find the line in _run_turn where the two names first appear.",
        explanation="AnthropicAdapter subclasses BaseAdapter, and the shared _run_turn calls self._translate(body) "
        "and unpacks the tuple: a function call and its return value.",
        zh={
            "question": "translated 和 tools_schema 是怎样到达 BaseAdapter._run_turn 的？",
            "choices": {
                "a": "通过第二个 HTTP 请求，发给适配器中负责采样的部分",
                "b": "作为 self._translate(body) 的返回值，即同一对象上的一次普通 Python 调用",
                "c": "以新的键写回 body 里",
                "d": "通过一个队列，由采样步骤从中读取",
            },
            "feedback": {
                "a": "这一轮里唯一的 HTTP 请求是 CLI 发出的 POST /v1/messages，它的响应在采样之后才发出。"
                "中间的一切都在同一个 Python 进程里运行。",
                "c": "Action 2 中没有任何函数会修改传给它的 body。",
                "d": "_run_turn 调用 _translate，下一行就接着用它的结果；没有任何等待。",
            },
            "hint": "在 _run_turn 里找到这两个名字第一次出现的那一行。",
            "explanation": "AnthropicAdapter 继承自 BaseAdapter，共用的 _run_turn 调用 self._translate(body) "
            "并拆开返回的元组：一次函数调用和它的返回值。",
        },
    )
)

add(
    Exercise(
        key="04.losses",
        question="Which places of the README body are carried by neither translated nor tools_schema? "
        "Write them as paths, the way errors write them.",
        expected=_losses,
        wrong=["messages[1].content[1].id", "messages[2].content[0].tool_use_id"],
        same=_same_places,
        hint="Both ids are there. Go through the top-level fields of the body once more.",
        explanation="the two ids are dropped on purpose (chapter 02), and max_tokens is a sampling setting "
        "that Action 3 reads from the body.",
        form='a list of paths such as ["messages[0].content"], in any order',
        zh={
            "question": "README body 中的哪些位置既没有被 translated 带过去，也没有被 tools_schema "
            "带过去？请像错误信息那样把它们写成路径。",
            "hint": "两个 id 都在。再把 body 的顶层字段过一遍。",
            "explanation": "两个 id 是有意丢掉的（第 02 章），max_tokens 则是一项采样设置，由 Action 3 从 body "
            "里读取。",
            "form": "路径的列表，例如 [\"messages[0].content\"]，顺序不限",
        },
    )
)

add(
    Exercise(
        key="04.where_tools",
        question="The ChatML-style template below renders both lists into one prompt. Where does tools_schema appear?",
        choices={
            "a": "in the system turn, before any of the history",
            "b": "in the last user turn, just before the model answers",
            "c": "inside the assistant turn that called read_file",
            "d": "nowhere in the text: the tokenizer adds the tools later",
        },
        expected=lambda: "a",
        wrong="c",
        feedback={
            "b": "Some templates do put them there (Mistral-style ones, beside the last user message), "
            "but not this one.",
            "c": "That turn shows the call that happened, from tool_calls. The offers in tools_schema are "
            "a different list.",
            "d": "The template writes the prompt text, tools included; the tokenizer only turns text into ids.",
        },
        hint="The offers are about what the model may do next. This template says that once, up front.",
        explanation="this template lists the tools in the system turn, then the history, then an open assistant "
        "turn for the model to continue.",
        zh={
            "question": "下面这个 ChatML 风格的模板把两个列表渲染进同一个 prompt。tools_schema 出现在哪里？",
            "choices": {
                "a": "在 system 轮次里，在所有对话历史之前",
                "b": "在最后一个 user 轮次里，就在模型回答之前",
                "c": "在调用了 read_file 的那个 assistant 轮次里",
                "d": "文本中哪里都没有：工具由分词器稍后加入",
            },
            "feedback": {
                "b": "有些模板确实放在那里（Mistral 风格的模板放在最后一条 user 消息旁边），但这个模板不是。",
                "c": "那个轮次展示的是已经发生的调用，来自 tool_calls。tools_schema 里提供的工具是另一个列表。",
                "d": "模板写出 prompt 文本，工具也包括在内；分词器只负责把文本变成 id。",
            },
            "hint": "提供的工具关乎模型接下来可以做什么。这个模板在开头一次性交代清楚。",
            "explanation": "这个模板先在 system 轮次里列出工具，然后是对话历史，最后是一个敞开的 assistant 轮次，"
            "留给模型接着写。",
        },
    )
)
