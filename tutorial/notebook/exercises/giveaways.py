"""The few words that name a prediction's answer, per exercise and language.

`tests/test_answers_in_view.py` looks for an exercise's answer everywhere a chapter shows it
before the learner answers: as JSON and as a Python literal, which it computes, and as these
words, which it cannot: how a picture or a sentence says the answer ("text taken directly",
"a list of 5 messages"). Only what would give the answer away belongs here; words the
question itself must use do not. Kept apart from the chapter modules (chNN.py) so their
exercises stay about checking.
"""

from __future__ import annotations

from ...words import current

GIVEAWAYS: dict[str, dict[str, list[str]]] = {
    "01.preprocess_readme": {"en": ["preprocess changed nothing"], "zh": ["preprocess 没有改动任何内容"]},
    "02.system_message": {"en": ["translated[0] · system"], "zh": ["translated[0] · system"]},
    "02.first_user_flatten": {"en": ["text taken directly"], "zh": ["文本直接取用"]},
    "02.tool_call": {"en": ['arguments {"path": "README.md"}', "translated[2] · assistant", "input is renamed arguments", "drop the id"],
                     "zh": ['arguments {"path": "README.md"}', "translated[2] · assistant", "input 改名为 arguments", "丢掉 id"]},
    "04b.mid_system": {"en": ["from Qwen3.5 on raise"], "zh": ["从 Qwen3.5 起的模板会报错"]},
    "04b.text_arguments": {"en": ["Qwen3-Coder's, Qwen3.5's"], "zh": ["Qwen3-Coder、Qwen3.5 和 GLM 的模板"]},
    "09.echo_id": {"en": ["the id has to go"], "zh": ["id 必须去掉"]},
    "03.schema": {"en": ["input_schema is renamed parameters"], "zh": ["input_schema 改名为 parameters"]},
    "02.split_roles": {"en": ["translated[3] · tool"], "zh": ["translated[3] · tool"]},
    "02.count": {"en": ["a list of 5 messages", "returned 5 messages"], "zh": ["5 条消息的列表", "返回了 5 条消息"]},
    "03.no_tools": {"en": ["tools_schema is None", "tools_schema = None"], "zh": ["tools_schema 是 None", "tools_schema = None"]},
    "04b.tool_call_tokens": {"en": ["151657", "is one token", "a single token", "one token id"],
                             "zh": ["151657", "是一个 token", "单个 token"]},
    "06.http": {"en": ["no HTTP request", "a function return, no HTTP"], "zh": ["没有 HTTP 请求", "不发出任何 HTTP 请求", "函数返回，没有 HTTP"]},
    "04.handoff": {"en": ["a function return, no HTTP"], "zh": ["函数返回，没有 HTTP"]},
    "01.nowhere": {"en": ["max_tokens is read here"], "zh": ["从 body 读取 max_tokens"]},
    "07.rename": {"en": ["two leaves change", "2 leaves change"], "zh": ["两个叶子节点", "2 个叶子节点"]},
    "08.prompts_same": {"en": ["prompts identical: True", "identical, character for character"], "zh": ["逐字符相同"]},
    "08.split": {"en": ["three tool messages", "3 tool messages"], "zh": ["三条 tool 消息", "3 条 tool 消息"]},
    "09.events": {"en": ["12 events", "1 + 9 + 2 = 12"], "zh": ["12 个事件", "1 + 9 + 2 = 12"]},
    "09.out_of_order": {"en": ["now claims to answer the a.md call"], "zh": ["自称回答 a.md"]},
    "10.is_error": {"en": ["none carries is_error"], "zh": ["没有一行带上 is_error"]},
    "10.reference": {"en": ["SGLang makes three tool messages"], "zh": ["SGLang 生成三条 tool 消息"]},
    "10.system_join": {"en": ["'Block ABlock B'", '"Block ABlock B"'], "zh": ["'Block ABlock B'", '"Block ABlock B"']},
    "11.cc_roles": {"en": ["['system', 'user', 'user', 'user']"], "zh": ["['system', 'user', 'user', 'user']"]},
    "13.extends": {"en": ["does not extend", "parts inside turn 1's answer"], "zh": ["不能接续", "在第 1 轮回答之内分开"]},
    "13.kind": {"en": ["Slime realigns", "turn 2 is a realign"], "zh": ["Slime 于是 realign", "第 2 轮是 realign"]},
    "13.trained": {"en": ["31 generated tokens are not trained", "none of turn 1's"], "zh": ["31 个 token 没有参与训练"]},
    "13.families": {"en": ["7 of 11", "seven of eleven"], "zh": ["11 个家族中有 7 个", "11 个家族里有 7 个"]},
    "13.reminder": {"en": ["10 of 49"], "zh": ["49 个生成的 token 里只有 10 个"]},
}


def words(key: str) -> list[str]:
    """The giveaway words of exercise `key` in the current language; none when none are listed."""
    return GIVEAWAYS.get(key, {}).get(current(), [])
