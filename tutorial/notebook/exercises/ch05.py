"""Chapter 05, build it yourself: one code exercise per stage of the translation.

The learner writes a function; `build_it.check_stage` runs it beside the package's on the
README example, traps and generated variations. Here each stage is also an `Exercise`, so
that the bank's proof covers it like any other: the right answer is the package's own
source (what the solution cell reveals), the wrong one a misconception's source from
`solutions/ch05.json`, and two answers are the same when the stage's check passes.
"""

from __future__ import annotations

from ...words import current
from .. import build_it
from ..build_it.texts import SOURCE_NOTES, chinese_source
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
    "flatten_content": "先处理 README 的输入，再逐个处理陷阱，包括 None、普通字符串、两个文本块和一张图片。",
    "user_block_message": "分三种情况处理，即 text、tool_result 和其他所有类型。",
    "assistant_message": "遍历一次，收集文本、thinking 和调用三个列表，然后构造一条消息。",
    "translate_messages": "先处理系统提示词，然后按角色和 content 的类型处理每条消息。",
    "tools_to_chat_tools": "看看完全没有工具时应该返回什么。",
    "translate": "两条路径一条接一条地调用，请求体里装着两者的输入。",
    "tool_result_messages": "把各个 content part 遍历一次，每当引用跟在非引用后面，或者反过来，就另起一段。",
}

_WHERE = {"tool_result_messages": "tutorial/openai_target.py"}


def _shown_source(stage: str) -> str:
    """The package's code for a stage, as the solution cell prints it: comments in the reader's language."""
    source = build_it.source(stage)
    return chinese_source(source) if current() == "zh" else source


def _named_zh(stage: str) -> str:
    """A sentence for a stage whose function the package names otherwise (5.4 and 5.5)."""
    name = build_it.STAGES[stage].shown[0].__name__
    return "" if name == stage else f"本包里这个函数叫 {name}，做的事和你写的 {stage} 相同。"


def _notes(stage: str) -> tuple[str, str]:
    """What each edition's explanation adds about the source it reveals (why it is longer), if
    anything: the English after a space, the Chinese as it is. Both are stored in the bank."""
    english, chinese = SOURCE_NOTES["en"].get(stage, ""), SOURCE_NOTES["zh"].get(stage, "")
    return (" " + english if english else ""), chinese


def _stage_exercise(stage: str) -> Exercise:
    note_en, note_zh = _notes(stage)
    return Exercise(
        key=f"05.{stage}",
        question=f"Write {stage} so that it agrees with the package on every input of its check.",
        expected=lambda: _shown_source(stage),
        wrong=_WRITTEN[f"05.{stage}"]["wrong"],
        same=lambda answer, _expected: build_it.check_stage(stage, answer).ok,
        code=True,
        hint="Run build_it.check_stage on it: it names the smallest input where it differs, with the expected "
        "and the actual value there. " + _HINTS[stage],
        explanation=f"the package's own code for this stage is in {_WHERE.get(stage, 'tutorial/translation.py')} "
        f"(the solution cell prints it). Its rule: {build_it.STAGES[stage].explanation}"
        + note_en,
        form="a function, written in the cell",
        zh={
            "question": f"写出 {stage}，让这个函数在检查用到的每个输入上都与本包一致。",
            "hint": "用 build_it.check_stage 检查你的函数，check_stage 会指出第一个结果不同的输入，并给出那里的期望值和实际值。"
            + _HINTS_ZH[stage],
            "explanation": f"上面打印的是本包这一阶段的代码，在 {_WHERE.get(stage, 'tutorial/translation.py')} 里。"
            f"{_named_zh(stage)}按这一阶段的规则，{build_it.TEXT['zh']['rules'][stage]}"
            + note_zh,
            "form": "一个函数，写在单元格里",
        },
    )


for _stage in build_it.stage_names():
    add(_stage_exercise(_stage))
