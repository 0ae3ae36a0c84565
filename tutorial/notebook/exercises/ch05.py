"""Chapter 05, build it yourself: one code exercise per stage of the translation.

The learner writes a function; `build_it.check_stage` runs it beside the package's on the
README example, traps and generated variations. Here each stage is also an `Exercise`, so
that the bank's proof covers it like any other: the right answer is the package's own
source (what the solution cell reveals), the wrong one a misconception's source from
`solutions/ch05.json`, and two answers are the same when the stage's check passes.
"""

from __future__ import annotations

from .. import build_it
from . import Exercise, add, solutions

_WRITTEN = solutions("05")

_HINTS = {
    "flatten_content": "Start from the README inputs, then the traps: None, a plain string, two text blocks, an image.",
    "user_block_message": "Three cases: text, tool_result, and everything else.",
    "assistant_message": "Collect three lists (texts, thinking, calls) in one pass, then build one message.",
    "translate_messages": "The system prompt first, then each message by its role and the type of its content.",
    "tools_to_chat_tools": "Check what comes back when there are no tools at all.",
    "translate": "Two paths, called one after the other; the body holds the inputs of both.",
    "tool_result_messages": "Walk the parts once and start a new run whenever a reference follows a non-reference or the other way round.",
}

_HINTS_ZH = {
    "flatten_content": "先处理 README 的输入，再处理各个陷阱：None、普通字符串、两个文本块、一张图片。",
    "user_block_message": "三种情况：text、tool_result，以及其他所有类型。",
    "assistant_message": "遍历一次，收集三个列表（文本、thinking、调用），然后构造一条消息。",
    "translate_messages": "先处理系统提示词，然后按角色和 content 的类型处理每条消息。",
    "tools_to_chat_tools": "看看完全没有工具时返回的是什么。",
    "translate": "两条路径，一条接一条地调用；请求体里装着两者的输入。",
    "tool_result_messages": "把各部分遍历一次；每当引用跟在非引用后面，或者反过来，就开始新的一段。",
}

_WHERE = {"tool_result_messages": "tutorial/openai_target.py"}


def _stage_exercise(stage: str) -> Exercise:
    return Exercise(
        key=f"05.{stage}",
        question=f"Write {stage} so that it agrees with the package on every input of its check.",
        expected=lambda: build_it.source(stage),
        wrong=_WRITTEN[f"05.{stage}"]["wrong"],
        same=lambda answer, _expected: build_it.check_stage(stage, answer).ok,
        code=True,
        hint="Run build_it.check_stage on it: it names the smallest input where it differs, with the expected "
        "and the actual value there. " + _HINTS[stage],
        explanation=f"the package's own code for this stage is in {_WHERE.get(stage, 'tutorial/translation.py')} "
        f"(the solution cell prints it). Its rule: {build_it.STAGES[stage].explanation}",
        form="a function, written in the cell",
        zh={
            "question": f"写出 {stage}，使它在检查的每个输入上都与本包一致。",
            "hint": "用 build_it.check_stage 运行它：它会指出结果不同的最小输入，并给出那里的期望值和实际值。"
            + _HINTS_ZH[stage],
            "explanation": f"本包中这个阶段的代码在 {_WHERE.get(stage, 'tutorial/translation.py')} 里"
            f"（参考答案单元格会打印它）。它的规则：{build_it.TEXT['zh']['rules'][stage]}",
            "form": "一个函数，写在单元格里",
        },
    )


for _stage in build_it.stage_names():
    add(_stage_exercise(_stage))
