"""Chapter 08, two targets: one prediction at the start of every stage.

Every right answer is computed from the package: both translations of the README example,
the loss report, the echo of a reply, the split of a mixed tool result and its rendering
through the two templates shipped with the package.

Over 600 lines, kept as one idea that reads better whole: chapter 08's exercises in the
chapter's order, each beside its named mistakes and their hints in both languages.
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
from . import Exercise, Mistake, add

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


def _named(answer: Any) -> set:
    return set(answer) if isinstance(answer, (list, tuple, set)) and all(isinstance(a, str) for a in answer) else set()


def _counts(chat_template: int, openai: int) -> dict:
    return {"chat_template": chat_template, "openai": openai}


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
        mistakes=(
            Mistake(
                ["id"],
                "The call's id is one. The message that answers the call needs a key too: how does a tool message "
                "say which call it answers on the Chat Completions wire?",
                "调用的 id 是其中之一，而回答这次调用的消息也需要一个键。在 Chat Completions 的传输格式里，"
                "tool 消息如何说明自己回答的是哪次调用？",
                matches=lambda answer: _named(answer) == {"id"},
            ),
            Mistake(
                ["id", "tool_use_id"],
                "tool_use_id is the Anthropic name, on the tool_result block. The chat shape names the key on its "
                "tool message after what it points at: a tool call.",
                "tool_use_id 是 Anthropic 给 tool_result 块上这个键起的名字，而聊天格式给 tool 消息上的键起名时，"
                "用的是这个键所指向的东西，也就是一次工具调用。",
                matches=lambda answer: "tool_use_id" in _named(answer),
            ),
            Mistake(
                ["id", "tool_call_id", "arguments"],
                "arguments is in both translations; only its type differs (a dict or JSON text). The question asks "
                "for keys the default translation does not have at all.",
                "两种翻译结果里都有 arguments，只是类型不同（字典或 JSON 文本）。问题问的是默认翻译结果里完全没有的键。",
                matches=lambda answer: "arguments" in _named(answer),
            ),
        ),
        hint="The call keeps its id in the openai shape. Then look at the message that answers the call: how "
        "does a tool message say which call it answers on the Chat Completions wire?",
        explanation="two keys: id on the tool call, and tool_call_id on the tool message that points back at "
        "it. The default target has neither; both targets have the same roles and the same texts.",
        any_order=True,
        form="a list of key names, e.g. ['key_a', 'key_b']",
        zh={
            "question": "README 示例的 openai 翻译结果里，有哪些键是默认翻译结果中完全没有的？"
            "请把这些键名写成一个列表作答，顺序不限。",
            "hint": "在 openai 格式中，调用保留了自己的 id，再看看回答这次调用的那条消息。"
            "在 Chat Completions 的传输格式里，tool 消息如何说明自己回答的是哪次调用？",
            "explanation": "两个键，一个是工具调用上的 id，一个是 tool 消息上指回这次调用的 tool_call_id。"
            "默认目标格式两者都没有，而两种目标格式的角色和文本完全相同。",
            "form": "键名的列表，例如 ['key_a', 'key_b']",
        },
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
        mistakes=(
            Mistake(
                _counts(1, 1),
                "The openai count is right. The default target drops more: an id on the call and an id on the "
                "result, beside the top-level field both leave behind.",
                "openai 的数目对了，但默认目标格式丢掉的更多，包括调用上和结果上的 id，"
                "再加上两种目标格式都没有放进输出的那个顶层字段。",
            ),
            Mistake(
                _counts(2, 0),
                "The two ids are right for the default target, but one top-level field is lost by both targets: "
                "it is neither messages, system nor tools.",
                "默认目标格式的两个 id 对了，但还有一个顶层字段两种目标格式都会丢掉。这个字段既不是 messages、"
                "system，也不是 tools。",
            ),
            Mistake(
                _counts(3, 3),
                "The default count is right. The openai target keeps both ids (id and tool_call_id), so they are "
                "not losses there.",
                "默认目标格式的数目对了。openai 目标格式保留了两个 id（id 和 tool_call_id），"
                "所以在那里这两个 id 不算丢失。",
            ),
        ),
        hint="Count what the README body holds that the output does not: an id on the call, an id on the "
        "result, and one top-level field that is neither messages, system nor tools.",
        explanation="the default target loses the id twice (on the tool_use and on the tool_result that answers "
        "it) and both targets leave max_tokens in the body for the sampling step: 3 and 1.",
        form="a dict {'chat_template': <count>, 'openai': <count>}",
        zh={
            "question": "对 README 示例，丢失报告（trace(body, target=...).losses）在每种目标格式下各列出多少项？",
            "hint": "数一数 README 请求体里有、输出里却没有的东西，包括调用上的 id、结果上的 id，"
            "以及一个既不是 messages、system 也不是 tools 的顶层字段。",
            "explanation": "默认目标格式丢掉两次 id（在 tool_use 上，以及在回答这次调用的 tool_result 上），"
            "两种目标格式都把 max_tokens 留在请求体里给采样阶段，所以分别是 3 和 1。",
            "form": "一个字典 {'chat_template': <数量>, 'openai': <数量>}",
        },
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
        zh={
            "question": "适配器的本轮记录不带 id，arguments 是字典。CLI 在下一个请求里把回复连同 id 发回来（回传的历史轮次）。"
            "用两种目标格式分别翻译这个回传的历史轮次，哪一个用 == 比较时等于本轮记录？",
            "choices": {
                "a": "都等于：两种目标格式承载的是同一段对话，所以两者的消息相等。",
                "b": "都不等于：回传的历史轮次里的 id 是为回复新生成的，任何翻译都对不上。",
                "c": "openai 的那个：它保留 id，而正是 id 把回传的历史轮次和记录配成对。",
                "d": "默认的那个：没有 id，arguments 也和记录里一样是字典。",
            },
            "feedback": {
                "a": "对话虽然相同，JSON 却不同，openai 的消息有 id，arguments 又是字符串，所以 == 会看到两个不同的叶子节点。",
                "b": "默认目标格式在翻译时就丢掉了 id，所以那个新生成的值根本到不了翻译后的消息。",
                "c": "记录里没有 id 可供比较，因为模型从没写过 id，id 是适配器只为发出去的回复生成的，"
                "所以保留 id 恰恰会让 == 失败。",
            },
            "hint": "看看两种目标格式不同的那两个叶子节点（第 1 节），再问问记录里有其中哪一个。",
            "explanation": "默认翻译丢掉新生成的 id，并让 arguments 保持为字典，所以回传的历史轮次等于记录。"
            "openai 回传的历史轮次则在 id 和 arguments（一个字符串）两处不同。",
        },
    )
)


def _picture_counts() -> dict[str, int]:
    return {target: len(translate(copy.deepcopy(PICTURE), target=target)[0]) for target in TARGETS}


add(
    Exercise(
        key="08.picture",
        question="A user message holds [text, image]. How many chat messages does each target make of it?",
        expected=_picture_counts,
        mistakes=(
            Mistake(
                _counts(1, 1),
                "The openai count is right. The default target gives one chat message per block of a user message, "
                "the image included (as a placeholder).",
                "openai 的数目对了，但默认目标格式会为 user 消息的每个内容块产生一条聊天消息，图片也算在内（变成占位符）。",
            ),
            Mistake(
                _counts(2, 2),
                "The default count is right. The openai target keeps a user message's blocks together, as a list "
                "of parts in one message.",
                "默认目标格式的数目对了。openai 目标格式把 user 消息的各个内容块放在一起，作为一条消息里的 content part 列表。",
            ),
            Mistake(
                _counts(1, 2),
                "Swapped: which target writes one message per block, and which keeps a list of parts?",
                "两个数目放反了，请再想想哪种目标格式为每个内容块写一条消息，哪种保留 content part 列表。",
            ),
        ),
        hint="The default target gives one chat message per block of a user message. The openai target keeps a "
        "user message's blocks together as a list of parts.",
        explanation="the default target makes two string messages (the text, then '[image omitted]'); the "
        "openai target keeps one message whose content is a list: a text part and an image_url part.",
        form="a dict {'chat_template': <count>, 'openai': <count>}",
        zh={
            "question": "一条 user 消息装着 [text, image] 两个内容块，每种目标格式各把它变成多少条聊天消息？",
            "hint": "默认目标格式为 user 消息的每个内容块产生一条聊天消息。openai 目标格式则把 user "
            "消息的各个内容块作为 content part 列表放在一起。",
            "explanation": "默认目标格式产生两条字符串消息（文本，然后是 '[image omitted]'）。"
            "openai 目标格式保留一条消息，content 是一个列表，里面有一个 text 类型和一个 image_url 类型的 content part。",
            "form": "一个字典 {'chat_template': <数量>, 'openai': <数量>}",
        },
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
        mistakes=(
            Mistake(
                1,
                "One tool_result, but the openai target cuts its parts into runs: a new run starts wherever a "
                "part switches between tool_reference and anything else.",
                "只有一个 tool_result，但 openai 目标格式会把结果的 content part 切成若干段，"
                "相邻两个 content part 只要在 tool_reference 和其他类型之间切换，就另起一段。",
            ),
            Mistake(
                2,
                "Two would cut only once. The parts switch twice: text to reference, then reference to text.",
                "两条意味着只切了一刀，而内容类型切换了两次，先从文本到引用，再从引用回到文本。",
            ),
        ),
        hint="The openai target cuts a result's parts into runs: a new run starts wherever a part switches "
        "between tool_reference and anything else.",
        explanation="three runs (text, reference, text), so three tool messages, all with tool_call_id "
        "'toolu_search', in the original order.",
        form="a whole number",
        zh={
            "question": "SEARCH 中的 tool_result 装着 [text, tool_reference, text]，openai 目标格式把它变成多少条 "
            "tool 消息？",
            "hint": "openai 目标格式会把结果的 content part 切成若干段，"
            "相邻两个 content part 只要在 tool_reference 和其他类型之间切换，就另起一段。",
            "explanation": "三段（文本、引用、文本），所以是三条 tool 消息，tool_call_id 都是 'toolu_search'，"
            "保持原来的顺序。",
            "form": "一个整数",
        },
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
        mistakes=(
            Mistake(
                {"schema": True, "text before": True, "text after": True},
                "Not all three: the template looks only at the first part of a tool message to choose its branch. "
                "What is the first part here, and what does that branch print for a reference?",
                "不是三者都有，因为模板只看 tool 消息的第一个 content part 来选分支。"
                "这里排在第一位的 content part 是什么类型，那个分支遇到引用时又输出什么？",
            ),
            Mistake(
                {"schema": True, "text before": False, "text after": False},
                "That is the reference branch, which runs when a reference comes first. Here the first part is text.",
                "那是引用分支，只有引用排在第一位时才会走，而这里的第一个 content part 是文本。",
            ),
            Mistake(
                ["text before", "text after"],
                "Answer with a dict that says True or False for each of the three names.",
                "请用一个字典作答，为三个名字各写 True 或 False。",
                matches=lambda answer: isinstance(answer, (list, tuple, set)),
            ),
        ),
        hint="The template looks only at the first part of a tool message to choose its branch. What is the "
        "first part here, and what does that branch print for a reference?",
        explanation="the first part is text, so the plain branch runs: both texts are printed and the reference "
        "prints nothing. The model is told a tool was found but never sees its schema.",
        form=_SEES_FORM,
        zh={
            "question": "情形 A：一条 tool 消息装着未拆分的 [text, tool_reference, text]，由 GLM 风格的模板渲染。"
            "工具结果所在的轮次显示了三者中的哪些？",
            "hint": "模板只看 tool 消息的第一个 content part 来选分支。"
            "这里排在第一位的 content part 是什么类型，那个分支遇到引用时又会输出什么？",
            "explanation": "第一个 content part 是文本，所以走普通分支，两段文本都输出，引用什么也不输出。"
            "模型被告知找到了一个工具，却始终看不到这个工具的 schema。",
            "form": "一个字典 {'schema': True/False, 'text before': True/False, 'text after': True/False}",
        },
    )
)

add(
    Exercise(
        key="08.case_b",
        question="Case B: the same parts with the reference moved first, [tool_reference, text, text], in one "
        "tool message. What does the turn show now?",
        expected=lambda: _sees(*_glm_turn(_FIRST)),
        mistakes=(
            Mistake(
                {"schema": True, "text before": True, "text after": True},
                "Not all three: the reference branch runs now. Read the template lines again: what does that "
                "branch print, and what does it skip?",
                "不是三者都有，现在走的是引用分支。再读一遍模板代码，这个分支输出什么，又跳过什么？",
            ),
            Mistake(
                {"schema": False, "text before": True, "text after": True},
                "That was case A, where text came first. Moving the reference first changes the branch.",
                "那是情形 A，当时文本排在第一个。把引用移到最前面，分支就变了。",
            ),
        ),
        hint="Now the reference branch runs. Read the template lines above again: what does that branch print, "
        "and what does it skip?",
        explanation="the reference branch expands the schema and prints nothing else, so both texts vanish, "
        "silently. Reordering swaps one loss for another.",
        form=_SEES_FORM,
        zh={
            "question": "情形 B：还是这三个 content part，但把引用移到最前面，[tool_reference, text, text]，放在一条 tool "
            "消息里，这时工具结果所在的轮次显示什么？",
            "hint": "现在走的是引用分支，请再读一遍上面的模板代码，看看这个分支输出什么，又跳过什么。",
            "explanation": "引用分支展开 schema，别的什么都不输出，所以两段文本静默消失了。"
            "调换顺序只是把一种丢失换成另一种。",
            "form": "一个字典 {'schema': True/False, 'text before': True/False, 'text after': True/False}",
        },
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
        mistakes=(
            Mistake(
                ["schema", "text before", "text after"],
                "All three are there, but not in this order: the split keeps the tool's order, and each message "
                "is judged by its own first part.",
                "三者都在，但顺序不是这样。拆分保留了工具写出的顺序，每条消息按自己的第一个 content part 来判断。",
                matches=lambda answer: isinstance(answer, (list, tuple)) and len(answer) == 3,  # any order of three
                right=(lambda answer, expected: sorted(map(str, answer)) == sorted(map(str, expected)),),  # all three there
            ),
            Mistake(
                ["text before", "text after"],
                "The schema shows too this time: the second message starts with the reference, so it takes the "
                "schema branch.",
                "这一次 schema 也显示出来了，因为第二条消息以引用开头，所以走 schema 分支。",
            ),
            Mistake(
                {"schema": True, "text before": True, "text after": True},
                "This question asks for the order as well: answer with a list of the names, as they appear.",
                "这个问题还问了顺序，请用名字的列表作答，并按出现的顺序排列。",
                matches=lambda answer: isinstance(answer, dict),
            ),
        ),
        hint="The template judges each tool message by its own first part. Take the three messages one by one.",
        explanation="all three, in the order the tool wrote them: the first message takes the plain branch, the "
        "second (a reference first) the schema branch, the third the plain branch again.",
        form="a list such as ['text after', 'schema']",
        zh={
            "question": "情形 C：openai 目标格式做出的拆分（三条 tool 消息）。这个轮次显示什么，按什么顺序？（用 "
            "'schema'、'text before'、'text after' 这几个名字，按出现的顺序组成列表。）",
            "hint": "模板按每条 tool 消息自己的第一个 content part 来判断，把三条消息逐一过一遍就知道了。",
            "explanation": "三者都显示，顺序与工具写出的顺序相同。第一条消息走普通分支，第二条（以引用开头）"
            "走 schema 分支，第三条又走普通分支。",
            "form": "一个列表，例如 ['text after', 'schema']",
        },
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
        zh={
            "question": "ChatML 风格的模板不管引用在哪儿都会展开，本来就用不着拆分。拆分给这个模板带来了什么变化？",
            "choices": {
                "a": "模型需要的都没变，还是那三个 content part，只是装进三层包装，tool 消息那一段更长。",
                "b": "不拆分的话 ChatML 也会丢掉 schema，正是拆分让它能够正确渲染。",
                "c": "ChatML 会把 schema 输出两次，引用两边的每段文本各对应一次。",
                "d": "ChatML 不接受回答同一次调用的多条 tool 消息，所以请求失败。",
            },
            "feedback": {
                "b": "只有 GLM 风格的模板才这样假设，ChatML 模板在任何位置都会展开引用，"
                "所以未拆分的消息已经把三个 content part 全都显示出来了。",
                "c": "每段变成一条消息，而引用只在其中一条里，所以 schema 只出现一次。",
                "d": "这个模板依次渲染每条 tool 消息，不按 id 配对任何东西。"
                "其他模型家族是否接受回答同一次调用的多条 tool 消息，还没有逐一核实，详见设计说明。",
            },
            "hint": "用 ChatML 模板渲染两个版本，比较 tool 消息那一段显示了什么，以及这一段有多长。",
            "explanation": "两种方式显示的都是同样三个 content part。拆分多出两条消息和两层 <tool_response> 包装，"
            "所以 tool 消息那一段更长（token 更多），对这个模板没有任何好处。",
        },
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
        mistakes=(
            Mistake(
                False,
                "Different JSON need not give different prompts. Does this template print ids at all? And how does "
                "it print arguments that arrive as text rather than as a dict?",
                "JSON 不同并不意味着 prompt 不同，请先看这个模板是否输出 id，再看 arguments 以文本而不是字典的"
                "形式到达时模板如何输出。",
            ),
            Mistake(
                "identical",
                "Answer with the value True or False, not a word.",
                "请用值 True 或 False 作答，不要写成词语。",
                matches=lambda answer: isinstance(answer, str) and answer.strip().lower() in ("identical", "same", "yes", "相同", "是", "一样"),
            ),
        ),
        hint="Does this template print ids at all? And how does it print arguments that arrive as text rather "
        "than as a dict?",
        explanation="identical, character for character: the template prints no ids, and it pastes JSON text as "
        "it is while it serialises a dict with tojson, which gives the same characters here.",
        form="True or False",
        zh={
            "question": "两种目标格式为 README 示例给出不同的 JSON（一处是 id，一处是 arguments 写成字典还是文本）。用 ChatML "
            "风格的模板渲染两者：两个 prompt 完全相同吗？（True 或 False）",
            "hint": "请先看这个模板是否输出 id，再看 arguments 以文本而不是字典的形式到达时，模板如何输出。",
            "explanation": "两个 prompt 逐字符相同。模板不输出 id；arguments 是 JSON 文本时原样写入，是字典时用 tojson "
            "序列化，而这两种写法在这里得到的字符完全一样。",
            "form": "True 或 False",
        },
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
        zh={
            "question": "一个没有 `is string` 分支的模板总是写 `arguments | tojson`。遇到 openai 目标格式的 "
            "arguments，它会输出什么？",
            "choices": {
                "a": "和默认目标格式一样的 JSON 对象：对 JSON 文本做 tojson 不会改变什么。",
                "b": "一个带引号的字符串：JSON 文本被再编码一次，引号和反斜杠都在里面。",
                "c": "什么也不输出：tojson 拒绝字符串，模板抛出异常，这一轮无法渲染。",
                "d": "只有键，因为在 Jinja 里遍历文本得到的是 JSON 对象的键。",
            },
            "feedback": {
                "a": "tojson 会序列化拿到的任何值。拿到字符串时，tojson 写出一个 JSON 字符串字面量，"
                "所以对象被包在引号里，内部的引号也被转义。",
                "c": "字符串是 tojson 的合法输入，什么都不会失败，所以这个错误是静默的。",
                "d": "Jinja 不会解析 JSON 文本，字符串仍然是字符串。"
                "（在文本上调用 `arguments | items` 的模板确实会失败，Qwen 的模板就是一例。）",
            },
            "hint": "tojson 会把任何值变成 JSON 文本，那么一个字符串的 JSON 文本是什么样子？",
            "explanation": "JSON 文本又被套了一层引号，于是模型读到的是一个字符串，而训练时看到的是一个对象。"
            "引擎交给模板的 arguments 是什么类型，必须与这个模板的预期一致。",
        },
    )
)
