"""Chapter 04, the hand-back: how the results travel, what stays behind, where the tools go."""

from __future__ import annotations

from typing import Any

from ...examples import readme_request
from . import Exercise, Mistake, add


def _losses() -> list[str]:
    from ...watch.trace import trace

    return [loss.path for loss in trace(readme_request()).losses]


def _place(value: Any) -> Any:
    """One item of the answer, a path written any way chapter 01 teaches (dotted, a JSON pointer,
    body["..."], a tuple such as error.location, with or without spaces) -> the path as errors
    write it; case and newlines count. (The exercise compares a collection, so this reads
    its items, never the whole answer.)"""
    from ...errors import format_location
    from .ch01 import place_steps

    steps = place_steps(value) if isinstance(value, (str, tuple, list)) else None
    if steps:
        return format_location(tuple(step for step, _ in steps))
    return value.replace(" ", "") if isinstance(value, str) else value


def _places(answer: Any) -> set:
    return {_place(item) for item in answer} if isinstance(answer, (list, tuple, set)) else set()


def _all_among_the_right(answer: Any, expected: Any) -> bool:
    """A hint's claim that what the answer names is right, though places are missing."""
    return _places(answer) <= _places(expected)


def _a_place(item: Any) -> bool:
    """An item written as a place, in any notation the course teaches."""
    from .ch01 import place_steps

    return bool(place_steps(item))


_IDS = {"messages[1].content[1].id", "messages[2].content[0].tool_use_id"}


add(
    Exercise(
        key="04.handoff",
        question="How do translated and tools_schema reach BaseAdapter._run_turn?",
        choices={
            "a": "in a second HTTP request, sent to the part of the adapter that does the sampling",
            "b": "as what self._translate(body) returns: an ordinary call on the same object",
            "c": "written back into the body under two new keys, for the next step to read",
            "d": "through a queue that the sampling step reads from when it is ready",
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
            "question": "Action 2 的两个结果 translated 和 tools_schema 是怎样到达 BaseAdapter._run_turn 的？",
            "choices": {
                "a": "通过第二个 HTTP 请求，发送给适配器里专门负责采样的那一部分",
                "b": "作为同一对象上 _translate 方法的返回值",
                "c": "以两个新的键写回请求体，供下一步读取",
                "d": "通过一个队列，由采样阶段在准备好时从中读取",
            },
            "feedback": {
                "a": "这一轮里唯一的 HTTP 请求是 CLI 发出的 POST /v1/messages，这个请求的响应在采样之后才发出，"
                "所以中间的一切都在同一个 Python 进程里运行。",
                "c": "Action 2 中没有任何函数会修改传进来的请求体，请求体在这一步之后还是原来的样子。",
                "d": "_run_turn 调用 _translate，下一行就接着用返回的结果，没有任何等待。",
            },
            "hint": "在 _run_turn 里找到这两个名字第一次出现的那一行，看看它们是从哪里来的。",
            "explanation": "AnthropicAdapter 继承自 BaseAdapter，"
            "共用的 _run_turn 调用 self._translate(body) 并拆开返回的元组，这只是一次函数调用和这次调用的返回值。",
        },
    )
)

add(
    Exercise(
        key="04.losses",
        question="Which places of the README body are carried by neither translated nor tools_schema? "
        "Write them as paths, the way errors write them.",
        expected=_losses,
        mistakes=(
            Mistake(
                sorted(_IDS),
                "Both ids are there. Go through the top-level fields of the body once more: one of them is "
                "neither the conversation nor a tool.",
                "两个 id 都找到了，再把请求体的顶层字段过一遍，其中有一个既不是对话，也不是工具。",
                matches=lambda answer: _places(answer) == _IDS,
                right=(_all_among_the_right,),
            ),
            Mistake(
                ["max_tokens"],
                "max_tokens is one of them. Two more places are dropped on purpose (chapter 02): what names a call, "
                "and what names the call a result answers.",
                "max_tokens 是其中之一，此外还有两个位置是有意丢掉的（第 02 章），一个是标识调用的值，"
                "另一个是结果里指向那次调用的值。",
                matches=lambda answer: _places(answer) == {"max_tokens"},
                right=(_all_among_the_right,),
            ),
            Mistake(
                ["system", "max_tokens"],
                "system is carried: it becomes the first chat message (and tools becomes tools_schema). Look for "
                "places whose values appear in neither list.",
                "system 进入了输出，成为第一条聊天消息（tools 则成为 tools_schema）。"
                "找找那些值在两个列表里都没有出现的位置。",
                matches=lambda answer: bool(_places(answer) & {"system", "tools", "messages"}),
            ),
        ),
        spelling=_place,
        any_order=True,
        fits=_a_place,
        hint="Three places in all. Write each as a path from the top of the body, the way errors write them.",
        explanation="the two ids are dropped on purpose (chapter 02), and max_tokens is a sampling setting "
        "that Action 3 reads from the body.",
        form="a list of places in any order, each written as errors write it or as error.location holds it "
        "(a tuple such as ('tools', 0, 'name'))",
        zh={
            "question": "README 请求体中哪些位置既没有带入 translated，也没有带入 tools_schema？"
            "请像错误信息那样写成路径。",
            "hint": "一共有三个位置，每个都写成从请求体最外层开始的路径，写法和错误信息一样。",
            "explanation": "两个 id 是有意丢掉的（第 02 章），max_tokens 则是一项采样设置，由 Action 3 从请求体"
            "里读取。",
            "form": "位置的列表，顺序不限，每个位置可以照错误信息的写法，"
            "也可以像 error.location 那样写成元组（例如 ('tools', 0, 'name')）",
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
            "question": "下面这个 ChatML 风格的模板把两个列表渲染进同一个 prompt，其中 tools_schema 出现在哪里？",
            "choices": {
                "a": "在 system 消息里，在所有对话历史之前",
                "b": "在最后一条 user 消息里，就在模型回答之前",
                "c": "在调用了 read_file 的那个 assistant 轮次里",
                "d": "文本中哪里都没有，工具由分词器稍后加入",
            },
            "feedback": {
                "b": "有些模板确实放在那里（Mistral 风格的模板放在最后一条 user 消息旁边），但这个模板不是。",
                "c": "那个轮次展示的是已经发生的调用，来自 tool_calls。tools_schema 里提供的工具是另一个列表。",
                "d": "模板写出 prompt 文本，工具也包括在内，分词器只负责把文本变成 id。",
            },
            "hint": "提供的工具关乎模型接下来可以做什么，所以这个模板在开头就一次性交代清楚。",
            "explanation": "这个模板先在 system 消息里列出工具，然后是对话历史，最后是一个敞开的 assistant 轮次，"
            "留给模型接着写。",
        },
    )
)
