"""The sessions the drift table (drift.py) renders: what real clients send, turn by turn.

Each scenario is data: a system prompt, the tools, and its turns. A turn is the messages
the client adds (Anthropic messages, as the client sends them) and the answer the model
gives (Anthropic assistant blocks, as the client echoes it in the next request). Turn k's
request is the system prompt and every message up to turn k's; turn k+1's request holds
turn k's answer too. `requests(scenario)` builds those bodies; drift.py translates them
with `translate`, so the translation's own choices (the call id it drops, the tool
result and the text it splits, the reasoning it keeps) reach the templates.

The system prompt, the tool and the texts are the README example's (tutorial.readme_request);
"readme" *is* the README example, cut at its assistant message. Three pairs differ in one thing
only, so that their columns can be read against each other: "plain" and "think-text" (the
answer's reasoning), "think-loop" and "reminder" (the reminder text beside the tool result, which
the translation makes a user message of), "plain" and "mid-system" / "system-edit" (the system
message). The reasoning cases follow ../shared/peers/trajectory/slime_cases.json
(`thinking_in_tool_loop`, `tool_result_with_reminder`), the tool loop its `tool_loop_three_turns`.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Optional

from ..examples import readme_request

__all__ = ["SCENARIOS", "Scenario", "Turn", "requests", "scenario_names"]


def _readme() -> dict:
    return readme_request()


# The request data is kept as a request holds it (messages, content blocks, a system prompt as a
# list of text blocks), so that it reads as data everywhere: scripts/zh_rhythm.py measures the
# scenarios' words, not the conversation they hold.
SYSTEM = _readme()["system"]  # [{"type": "text", "text": "你是代码助手。"}]
TOOLS = _readme()["tools"]  # read_file


@dataclass(frozen=True)
class Turn:
    messages: list  # what the client adds before the model answers (Anthropic messages)
    answer: Optional[list] = None  # the model's answer (Anthropic assistant blocks); None on the last turn
    system: Optional[list] = None  # a system prompt (text blocks) that replaces the scenario's from this turn on


@dataclass(frozen=True)
class Scenario:
    name: str
    letter: str  # the table's column
    words: dict  # what it is, per language
    turns: list = field(default_factory=list)
    system: list = field(default_factory=lambda: copy.deepcopy(SYSTEM))  # text blocks


def _user(*blocks) -> dict:
    return {"role": "user", "content": list(blocks)}


def _text(text: str) -> dict:
    return {"type": "text", "text": text}


def _call(call_id: str, path: str) -> dict:
    return {"type": "tool_use", "id": call_id, "name": "read_file", "input": {"path": path}}


def _result(call_id: str, text: str) -> dict:
    return {"type": "tool_result", "tool_use_id": call_id, "content": [_text(text)]}


def _thinking(text: str) -> dict:
    # The signature a client echoes; translate drops it (a local model neither makes nor checks one).
    return {"type": "thinking", "thinking": text, "signature": "c2lnbmF0dXJl"}


ASK = _user(_text("读取 README.md 并概括内容。"))
README_CALL = [_text("我先读取文件。"), _call("toolu_demo", "README.md")]
README_RESULT = _result("toolu_demo", "# Demo\n这是一个学习项目。")
THOUGHT = _thinking("先看看 README 里写了什么。")
REMINDER = _text("<system-reminder>文件较短。</system-reminder>")  # what agent CLIs put beside a tool result
HELLO = _user(_text("用一句话介绍你自己。"))
HELLO_ANSWER = [_text("我是代码助手，可以读取和解释代码。")]
FOLLOW_UP = _user(_text("那你能读取文件吗？"))


def _readme_turns() -> list:
    body = _readme()
    first, answer, second = body["messages"]
    return [Turn([first], answer["content"]), Turn([second])]


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in [
        Scenario("plain", "a", {"en": "a plain answer, then a new question", "zh": "普通回答，然后新的提问"},
                 [Turn([HELLO], HELLO_ANSWER), Turn([FOLLOW_UP])]),
        Scenario("readme", "b", {"en": "the README example: a call, then its result and a new user text",
                                 "zh": "README 示例：一次调用，然后是结果和新的用户文本"},
                 _readme_turns()),
        Scenario("tool-loop", "c", {"en": "a tool loop: call, result, call, result",
                                    "zh": "工具循环：调用、结果、调用、结果"},
                 [Turn([ASK], README_CALL),
                  Turn([_user(README_RESULT)], [_call("toolu_two", "docs/intro.md")]),
                  Turn([_user(_result("toolu_two", "入门说明。"))])]),
        Scenario("parallel", "d", {"en": "two calls in one answer, then both results",
                                   "zh": "一个回答里两次调用，然后两个结果"},
                 [Turn([_user(_text("读取 README.md 和 docs/intro.md。"))],
                       [_text("两个文件一起读。"), _call("toolu_a", "README.md"), _call("toolu_b", "docs/intro.md")]),
                  Turn([_user(_result("toolu_a", "# Demo\n这是一个学习项目。"), _result("toolu_b", "入门说明。"))])]),
        Scenario("think-text", "e", {"en": "reasoning and an answer, then a new question",
                                     "zh": "推理加回答，然后新的提问"},
                 [Turn([HELLO], [_thinking("用户想知道我能做什么。"), *HELLO_ANSWER]), Turn([FOLLOW_UP])]),
        Scenario("think-loop", "f", {"en": "reasoning and a call, then the tool result alone",
                                     "zh": "推理加调用，然后只有工具结果"},
                 [Turn([ASK], [THOUGHT, *README_CALL]), Turn([_user(README_RESULT)])]),
        Scenario("reminder", "g", {"en": "as f, but a reminder text beside the tool result (split into tool + user)",
                                   "zh": "同 f，但工具结果旁带一段提醒文本（拆成 tool + user）"},
                 [Turn([ASK], [THOUGHT, *README_CALL]), Turn([_user(README_RESULT, REMINDER)])]),
        Scenario("mid-system", "h", {"en": "a system message in the middle of the list, then a new question",
                                     "zh": "列表中间的一条 system 消息，然后新的提问"},
                 [Turn([HELLO], HELLO_ANSWER), Turn([{"role": "system", "content": "回答要简短。"}, FOLLOW_UP])]),
        Scenario("system-edit", "i", {"en": "the system prompt changed between the turns",
                                      "zh": "两轮之间系统提示词被改动"},
                 [Turn([HELLO], HELLO_ANSWER), Turn([FOLLOW_UP], system=[_text(SYSTEM[0]["text"] + "回答要简短。")])]),
    ]
}  # fmt: skip


def scenario_names() -> list[str]:
    """In the table's order (a, b, c, ...)."""
    return list(SCENARIOS)


def requests(scenario: Scenario) -> list[tuple[dict, Optional[list]]]:
    """Per turn: (the request body the client sends, the answer blocks the model gives or None)."""
    built, history, system = [], [], scenario.system
    for turn in scenario.turns:
        system = turn.system or system
        history = history + copy.deepcopy(turn.messages)
        body = {"system": copy.deepcopy(system), "messages": history, "tools": copy.deepcopy(TOOLS), "max_tokens": 128}
        built.append((body, copy.deepcopy(turn.answer)))
        if turn.answer is not None:
            history = history + [{"role": "assistant", "content": copy.deepcopy(turn.answer)}]
    return built
