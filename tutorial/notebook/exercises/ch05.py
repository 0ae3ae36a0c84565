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

_WHERE = {"tool_result_messages": "tutorial/openai_target.py"}


def _stage_exercise(stage: str) -> Exercise:
    return Exercise(
        key=f"05.{stage}",
        question=f"Write {stage} so that it agrees with the package on every input of its check.",
        expected=lambda: build_it.source(stage),
        wrong=_WRITTEN[f"05.{stage}"]["wrong"],
        same=lambda answer, _expected: build_it.check_stage(stage, answer).ok,
        hint="Run build_it.check_stage on it: it names the smallest input where it differs, with the expected "
        "and the actual value there. " + _HINTS[stage],
        explanation=f"the package's own code for this stage is in {_WHERE.get(stage, 'tutorial/translation.py')} "
        f"(the solution cell prints it). Its rule: {build_it.STAGES[stage].explanation}",
        form="a function, written in the cell",
    )


for _stage in build_it.stage_names():
    add(_stage_exercise(_stage))
