"""Chapter 08, two targets: one prediction at the start of every stage.

Every right answer is computed from the package: both translations of the README example,
the loss report, the echo of a reply, the split of a mixed tool result and its rendering
through the two templates shipped with the package.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ...examples import readme_request
from ...translation import translate
from ...way_back import build_reply, counting_ids
from ...watch.jsondiff import ABSENT, differences
from ...watch.rendering import render
from ...watch.trace import trace
from . import Exercise, add

TARGETS = ("chat_template", "openai")

SEARCH: dict = {
    "system": "你是代码助手。",
    "messages": [
        {"role": "user", "content": "运行这个仓库的测试。"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_search", "name": "tool_search", "input": {"query": "测试"}}],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_search",
                    "content": [
                        {"type": "text", "text": "找到一个匹配的工具："},
                        {"type": "tool_reference", "tool_name": "run_tests"},
                        {"type": "text", "text": "它只需要测试文件的路径。"},
                    ],
                }
            ],
        },
    ],
    "tools": [
        {
            "name": "tool_search",
            "description": "按关键词查找工具",
            "input_schema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
        },
        {
            "name": "run_tests",
            "description": "运行测试",
            "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        },
    ],
    "max_tokens": 256,
}
"""The tool-search request of section 2: one tool_result mixing text and a tool_reference."""

PICTURE: dict = {
    "messages": [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "这张图里是什么？"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
            ],
        }
    ]
}
"""A user message with a picture (section 1, content)."""

BEFORE, AFTER = "找到一个匹配的工具：", "它只需要测试文件的路径。"


def _names(value: Any) -> list:
    return sorted({str(v).strip().strip("'\"").lower() for v in value}) if isinstance(value, (list, tuple, set)) else []


def _extra_keys() -> list[str]:
    body = readme_request()
    chat, wire = translate(body)[0], translate(body, target="openai")[0]
    return sorted({where[-1] for where, a, b in differences(chat, wire) if a is ABSENT})


add(
    Exercise(
        key="08.extra_keys",
        question="Which keys will the openai translation of the README example carry that the default "
        "translation does not have at all? (A list of key names; order does not matter.)",
        expected=_extra_keys,
        wrong=["id"],
        hint="The call keeps its id in the openai shape. Then look at the message that answers the call: how "
        "does a tool message say which call it answers on the Chat Completions wire?",
        explanation="two keys: id on the tool call, and tool_call_id on the tool message that points back at "
        "it. The default target has neither; both targets have the same roles and the same texts.",
        same=lambda answer, expected: _names(answer) == _names(expected),
        form="a list of key names, e.g. ['key_a', 'key_b']",
    )
)


def _loss_counts() -> dict[str, int]:
    return {target: len(trace(readme_request(), target=target).losses) for target in TARGETS}


add(
    Exercise(
        key="08.losses",
        question="How many entries does the loss report (trace(body, target=...).losses) list for the README "
        "example, for each target?",
        expected=_loss_counts,
        wrong={"chat_template": 1, "openai": 1},
        hint="Count what the README body holds that the output does not: an id on the call, an id on the "
        "result, and one top-level field that is neither messages, system nor tools.",
        explanation="the default target loses the id twice (on the tool_use and on the tool_result that answers "
        "it) and both targets leave max_tokens in the body for the sampling step: 3 and 1.",
        form="a dict {'chat_template': <count>, 'openai': <count>}",
    )
)


def _echo_equals() -> str:
    parsed = {"reasoning": None, "text": "我先读取文件。", "tool_uses": [{"name": "read_file", "input": {"path": "README.md"}}], "matched_stop": None}
    blocks, _, recorded = build_reply(parsed, "stop", new_id=counting_ids())
    body = readme_request()
    echo = {**body, "messages": [body["messages"][0], {"role": "assistant", "content": blocks}]}
    equal = {target: translate(copy.deepcopy(echo), target=target)[0][-1] == recorded for target in TARGETS}
    return {(True, False): "d", (True, True): "a", (False, True): "c", (False, False): "b"}[(equal["chat_template"], equal["openai"])]


add(
    Exercise(
        key="08.echo",
        question="The adapter records its turn without ids, with arguments as a dict. The CLI echoes the reply "
        "back, id included, in its next request. Translate that echo with each target: which one equals the "
        "recorded turn under ==?",
        expected=_echo_equals,
        wrong="c",
        choices={
            "a": "Both: the two targets carry the same conversation, so their messages compare equal.",
            "b": "Neither: the echoed id was minted for the reply, so no translation can match.",
            "c": "The openai one: it keeps the id, and the id is what pairs the echo with the record.",
            "d": "The default one: no id, and the arguments stay the same dict as in the record.",
        },
        feedback={
            "a": "same conversation, different JSON: the openai message has an id and its arguments are a "
            "string, so == sees two leaves that differ.",
            "b": "the default target drops the id on the way in, so the minted value never reaches the "
            "translated message.",
            "c": "the record has no id to compare with: the model never wrote one, the adapter minted it for the "
            "wire reply only. Keeping it is exactly what breaks ==.",
        },
        hint="Look at the two leaves where the targets differ (section 1) and ask which of them the record has.",
        explanation="the default translation drops the minted id and keeps the arguments a dict, so the echo "
        "equals the record; the openai echo differs at the id and at the arguments (a string).",
    )
)


def _picture_counts() -> dict[str, int]:
    return {target: len(translate(copy.deepcopy(PICTURE), target=target)[0]) for target in TARGETS}


add(
    Exercise(
        key="08.picture",
        question="A user message holds [text, image]. How many chat messages does each target make of it?",
        expected=_picture_counts,
        wrong={"chat_template": 1, "openai": 1},
        hint="The default target gives one chat message per block of a user message. The openai target keeps a "
        "user message's blocks together as a list of parts.",
        explanation="the default target makes two string messages (the text, then '[image omitted]'); the "
        "openai target keeps one message whose content is a list: a text part and an image_url part.",
        form="a dict {'chat_template': <count>, 'openai': <count>}",
    )
)


def _split() -> list[dict]:
    return translate(copy.deepcopy(SEARCH), target="openai")[0]


add(
    Exercise(
        key="08.split",
        question="The tool_result in SEARCH holds [text, tool_reference, text]. How many tool messages does the "
        "openai target make of it?",
        expected=lambda: sum(1 for message in _split() if message["role"] == "tool"),
        wrong=1,
        hint="The openai target cuts a result's parts into runs: a new run starts wherever a part switches "
        "between tool_reference and anything else.",
        explanation="three runs (text, reference, text), so three tool messages, all with tool_call_id "
        "'toolu_search', in the original order.",
        form="a whole number",
    )
)


def _schema_text(tools: list[dict]) -> str:
    return next(json.dumps(t["function"], ensure_ascii=False) for t in tools if t["function"]["name"] == "run_tests")


def _observation(prompt: str) -> str:
    return prompt.split("<|observation|>")[1].split("<|assistant|>")[0]


def _sees(turn: str, tools: list[dict]) -> dict[str, bool]:
    return {"schema": _schema_text(tools) in turn, "text before": BEFORE in turn, "text after": AFTER in turn}


def _glm_turn(parts: list[dict]) -> tuple[str, list[dict]]:
    split, tools = translate(copy.deepcopy(SEARCH), target="openai")
    messages = split[:3] + [{"role": "tool", "tool_call_id": "toolu_search", "content": parts}]
    return _observation(render(messages, tools, template="glm_style")), tools


_UNSPLIT = [{"type": "text", "text": BEFORE}, {"type": "tool_reference", "name": "run_tests"}, {"type": "text", "text": AFTER}]
_FIRST = [{"type": "tool_reference", "name": "run_tests"}, {"type": "text", "text": BEFORE}, {"type": "text", "text": AFTER}]
_SEES_FORM = "a dict {'schema': True/False, 'text before': True/False, 'text after': True/False}"

add(
    Exercise(
        key="08.case_a",
        question="Case A: one tool message holding [text, tool_reference, text], unsplit, rendered by the "
        "GLM-style template. Which of the three does the tool-result turn show?",
        expected=lambda: _sees(*_glm_turn(_UNSPLIT)),
        wrong={"schema": True, "text before": True, "text after": True},
        hint="The template looks only at the first part of a tool message to choose its branch. What is the "
        "first part here, and what does that branch print for a reference?",
        explanation="the first part is text, so the plain branch runs: both texts are printed and the reference "
        "prints nothing. The model is told a tool was found but never sees its schema.",
        form=_SEES_FORM,
    )
)

add(
    Exercise(
        key="08.case_b",
        question="Case B: the same parts with the reference moved first, [tool_reference, text, text], in one "
        "tool message. What does the turn show now?",
        expected=lambda: _sees(*_glm_turn(_FIRST)),
        wrong={"schema": True, "text before": True, "text after": True},
        hint="Now the reference branch runs. Read the template lines above again: what does that branch print, "
        "and what does it skip?",
        explanation="the reference branch expands the schema and prints nothing else, so both texts vanish, "
        "silently. Reordering swaps one loss for another.",
        form=_SEES_FORM,
    )
)


def _split_order() -> list[str]:
    split, tools = translate(copy.deepcopy(SEARCH), target="openai")
    turn = _observation(render(split, tools, template="glm_style"))
    found = {"text before": turn.find(BEFORE), "schema": turn.find(_schema_text(tools)), "text after": turn.find(AFTER)}
    return [name for name, at in sorted(found.items(), key=lambda item: item[1]) if at >= 0]


add(
    Exercise(
        key="08.case_c",
        question="Case C: the split the openai target made (three tool messages). What does the turn show, in "
        "which order? (A list of the names 'schema', 'text before', 'text after', in the order they appear.)",
        expected=_split_order,
        wrong=["schema", "text before", "text after"],
        hint="The template judges each tool message by its own first part. Take the three messages one by one.",
        explanation="all three, in the order the tool wrote them: the first message takes the plain branch, the "
        "second (a reference first) the schema branch, the third the plain branch again.",
        same=lambda answer, expected: isinstance(answer, (list, tuple)) and [str(a).strip().lower() for a in answer] == expected,
        form="a list such as ['text after', 'schema']",
    )
)


def _chatml_same_parts() -> str:
    split, tools = translate(copy.deepcopy(SEARCH), target="openai")
    unsplit = split[:3] + [{"role": "tool", "tool_call_id": "toolu_search", "content": _UNSPLIT}]

    def turn(messages: list[dict]) -> str:
        return render(messages, tools).split("<|im_start|>tool\n")[1].split("<|im_end|>")[0]

    same_parts = _sees(turn(unsplit), tools) == _sees(turn(split), tools)
    longer = len(turn(split)) > len(turn(unsplit))
    return "a" if same_parts and longer else "?"


add(
    Exercise(
        key="08.split_cost",
        question="The ChatML-style template expands a reference wherever it stands, so it never needed the "
        "split. What does the split change for it?",
        expected=_chatml_same_parts,
        wrong="d",
        choices={
            "a": "Nothing the model needs: the same three parts, now in three wrappers, so a longer tool turn.",
            "b": "Without the split ChatML would lose the schema as well, so the split is what makes it render.",
            "c": "ChatML prints the schema twice, once for each run of text beside the reference.",
            "d": "ChatML refuses several tool messages that answer the same call, so the request fails.",
        },
        feedback={
            "b": "that is GLM's assumption, not ChatML's: this template expands a reference in any position, so "
            "the unsplit message already shows all three parts.",
            "c": "each run becomes one message and the reference is in exactly one of them, so the schema "
            "appears once.",
            "d": "this template renders each tool message in turn and pairs nothing by id. Whether other "
            "families accept several tool messages for one call is not known for all of them: see the design note.",
        },
        hint="Render both versions with the ChatML template and compare what the tool turn shows, and how long "
        "it is.",
        explanation="the same three parts are shown either way; the split adds two messages and two "
        "<tool_response> wrappers, so the tool turn is longer (more tokens) and nothing is gained for this template.",
    )
)


def _prompts_equal() -> bool:
    prompts = [render(*translate(readme_request(), target=target), template="chatml") for target in TARGETS]
    return prompts[0] == prompts[1]


add(
    Exercise(
        key="08.prompts_same",
        question="The two targets give different JSON for the README example (ids; arguments as a dict or as "
        "text). Render both with the ChatML-style template: are the two prompts identical? (True or False)",
        expected=_prompts_equal,
        wrong=False,
        hint="Does this template print ids at all? And how does it print arguments that arrive as text rather "
        "than as a dict?",
        explanation="identical, character for character: the template prints no ids, and it pastes JSON text as "
        "it is while it serialises a dict with tojson, which gives the same characters here.",
        form="True or False",
    )
)


def _naive() -> str:
    naive = "{% for m in messages if m.tool_calls %}{{ m.tool_calls[0].function.arguments | tojson }}{% endfor %}"
    out = {t: render(translate(readme_request(), target=t)[0], template=naive, add_generation_prompt=False) for t in TARGETS}
    return "b" if out["openai"] == json.dumps(out["chat_template"]) else "?"


add(
    Exercise(
        key="08.naive",
        question="A template without the `is string` branch always writes `arguments | tojson`. What does it "
        "print for the openai target's arguments?",
        expected=_naive,
        wrong="a",
        choices={
            "a": "The same JSON object as for the default target: tojson of JSON text changes nothing.",
            "b": "A quoted string: the JSON text is encoded a second time, quotes and backslashes included.",
            "c": "Nothing at all: tojson refuses a string, so the template raises and the turn is not rendered.",
            "d": "The keys only, because iterating over text in Jinja gives the keys of the JSON object.",
        },
        feedback={
            "a": "tojson serialises whatever it gets; given a string it writes a JSON string literal, so the "
            "object comes out wrapped in quotes with its inner quotes escaped.",
            "c": "a string is valid JSON input for tojson; nothing fails, which is what makes the mistake silent.",
            "d": "Jinja does not parse JSON text; a string stays a string. (Templates that call `arguments | "
            "items` on text do fail: Qwen's, for one.)",
        },
        hint="tojson turns any value into JSON text. What is the JSON text of a string?",
        explanation="the JSON text is quoted a second time, so the model reads a string where it was trained to "
        "see an object. Which target an engine uses has to match what its template expects.",
    )
)
