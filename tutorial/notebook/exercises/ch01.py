"""Chapter 01, the request: what a body holds, the contract, preprocessing."""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from ...errors import RequestError, format_location
from ...examples import readme_request
from ...preprocess import preprocess
from ...translation import translate
from . import Exercise, Mistake, add, python_literal


def _error_place() -> str:
    broken = readme_request()
    del broken["messages"][2]["content"][0]["tool_use_id"]
    try:
        translate(broken)
    except RequestError as error:
        return format_location(error.location)
    raise AssertionError("the broken README example translated")


def place_steps(value: Any) -> Optional[list[tuple[Any, str]]]:
    """A place written any usual way -> its steps, each with the text written up to it:
    `messages[2].content[0].tool_use_id`, `body["messages"][2]...`, `messages.2.content`, a JSON
    pointer (`/messages/2/content/0/tool_use_id`) or a tuple. None when it is no place."""
    if isinstance(value, (tuple, list)) and value and all(isinstance(part, (str, int)) and not isinstance(part, bool) for part in value):
        return [(part, python_literal(tuple(value[: index + 1]))) for index, part in enumerate(value)]
    if not isinstance(value, str):
        return None
    # Spaces may sit anywhere (they are not part of a place); a newline or another letter case may not.
    text = value.strip(" ").strip("'\"").strip(" ")
    if text.startswith("/"):
        return _pointer_steps(text)
    steps, at = [], 0
    start = re.match(r"body(?=[.\[ ]|$) *", text)
    if start:
        at = start.end()
    while at < len(text):
        found = _STEP.match(text, at)
        if not found or (found.group("name") and bool(found.group("dot")) != bool(steps or start)):
            return None  # a name after the first step follows a dot; the first has none
        name, index, key = found.group("name"), found.group("index"), found.group("key")
        part = int(index) if index is not None else key if key is not None else name
        at = found.end()
        steps.append((int(part) if isinstance(part, str) and part.isdigit() else part, text[:at].strip(" ")))
    return steps or None


# One step of a place: `.name` or `name` first, `[2]`, `["key"]`, or `.2` (spaces allowed around).
_STEP = re.compile(r"""[ ]*(?:(?P<dot>\.)?[ ]*(?P<name>[A-Za-z_][A-Za-z_0-9]*|\d+)|\[[ ]*(?P<index>\d+)[ ]*\]|\[[ ]*["'](?P<key>[^"']+)["'][ ]*\])[ ]*""")


def _pointer_steps(text: str) -> Optional[list[tuple[Any, str]]]:
    """A JSON pointer (RFC 6901) read as the place it names."""
    parts = text[1:].split("/")
    if not all(parts):
        return None
    steps = []
    for index, raw in enumerate(parts):
        part = raw.replace("~1", "/").replace("~0", "~")
        steps.append((int(part) if part.isdigit() else part, "/" + "/".join(parts[: index + 1])))
    return steps


def _as_place(value: Any) -> Any:
    """A place written any usual way -> messages[2].content[0].tool_use_id (else the value as it is)."""
    steps = place_steps(value)
    return format_location(tuple(step for step, _ in steps)) if steps else value


def _steps_are(*wanted: tuple) -> Callable[[Any], bool]:
    def matches(answer: Any) -> bool:
        steps = place_steps(answer)
        return steps is not None and tuple(step for step, _ in steps) in wanted

    return matches


add(
    Exercise(
        key="01.nowhere",
        question="Which top-level field of the README body ends up in neither translated nor tools_schema?",
        choices={
            "a": "system: it is a setting of the request, not a message",
            "b": "tools: read_file was already called, so it is history",
            "c": "none: every field lands in one of the two lists",
            "d": "max_tokens: it sets how long the answer may be",
        },
        expected=lambda: "d",
        wrong="a",
        feedback={
            "a": "Anthropic keeps the system prompt outside the message list, but a chat template wants it as "
            "the first message, so Action 2 puts it there.",
            "b": "The call that happened is history (inside messages); tools says what may be called next, "
            "and it becomes tools_schema.",
            "c": "Action 2 translates the conversation and the tool offers. One field is about how long "
            "the answer may be, and that is not part of either.",
        },
        hint="Ask of each field: is it the conversation, a tool the model may call, or a setting for generating the answer?",
        explanation="max_tokens is a sampling limit. It stays in the body, and Action 3, which generates the "
        "answer, reads it from there.",
        zh={
            "question": "README 示例的请求体中，哪个顶层字段既没有进入 translated，也没有进入 tools_schema？",
            "choices": {
                "a": "system，因为系统提示词是请求的一项设置，不是一条消息",
                "b": "tools，因为 read_file 已经调用过了，这个工具便属于对话历史",
                "c": "没有这样的字段，每个字段都会进入这两个列表之一",
                "d": "max_tokens，这个字段规定回答最多能有多长",
            },
            "feedback": {
                "a": "Anthropic 把系统提示词放在消息列表之外，但聊天模板要求系统提示词是第一条消息，"
                "所以 Action 2 把系统提示词放在那里。",
                "b": "已经发生的调用属于对话历史（在 messages 里），而 tools 说明接下来可以调用什么，"
                "会变成 tools_schema。",
                "c": "Action 2 只翻译对话和提供给模型的工具，而有一个字段规定的是回答最长多少，这个字段两者都不是。",
            },
            "hint": "逐个字段问一问，这个字段是对话内容、模型可以调用的工具，还是生成回答时的一项设置？",
            "explanation": "max_tokens 是采样的上限，所以留在请求体里，由生成回答的 Action 3 读取。",
        },
    )
)

add(
    Exercise(
        key="01.error_place",
        question="The tool_result in messages[2] has lost its tool_use_id. Where does translate say the problem is?",
        expected=_error_place,
        mistakes=(
            Mistake(
                "messages[2].content[0]",
                "That is the block that lacks the field. The error names the place of the missing field itself, "
                "one step deeper.",
                "那是缺少这个字段的内容块，而错误指出的是缺失字段本身的位置，还要再深一层。",
                matches=_steps_are(("messages", 2, "content", 0)),
            ),
            Mistake(
                "messages[2]",
                "The error is more precise than the message: it goes down to the block, and then to the field in it.",
                "错误给出的位置比消息更精确，先到内容块，再到块里的那个字段。",
                matches=_steps_are(("messages", 2), ("messages", 2, "content")),
            ),
            Mistake(
                "tool_use_id",
                "Right field, but a place starts at the top of the body: which message, which block, then the field.",
                "字段对了，但位置要从请求体的最外层写起，先写哪条消息、哪个内容块，然后才是字段。",
                matches=_steps_are(("tool_use_id",)),
                right=(lambda answer, expected: place_steps(answer)[-1][0] == place_steps(expected)[-1][0],),  # "Right field"
            ),
        ),
        spelling=_as_place,
        place=place_steps,
        hint="Break the body as the question says, run translate, and read the start of the error: it writes the "
        "place from the top of the body down.",
        explanation="the message starts with the exact place, written as you would index it, and "
        "error.location holds the same place as a tuple.",
        form='a place such as "messages[0].content", or a tuple such as ("messages", 0, "content")',
        zh={
            "question": "messages[2] 中的 tool_result 块丢了 tool_use_id，translate 报告的出错位置是哪里？",
            "hint": "按题目所说弄坏请求体，运行 translate，再读错误信息的开头，"
                    "可以看到位置是从请求体的最外层一路往下写出来的。",
            "explanation": "错误信息开头就是确切的位置，写法和你用下标取值时一样，"
            "而 error.location 以元组保存同一个位置。",
            "form": "一个位置，例如 \"messages[0].content\"，或一个元组，例如 (\"messages\", 0, \"content\")",
        },
    )
)

add(
    Exercise(
        key="01.unknown_block",
        question='A user message holds a block of a type nobody has heard of: {"type": "hologram", "frames": 3}. '
        "What does translate(body) (the default target) make of it?",
        choices={
            "a": "it refuses the body with a RequestError: the type is unknown",
            "b": "it drops the block without a word",
            "c": 'a user message with the content "[hologram omitted]"',
            "d": "a user message holding the block's Python repr: \"{'type': 'hologram', 'frames': 3}\"",
        },
        expected=lambda: "c",
        wrong="a",
        feedback={
            "a": "The protocol keeps adding block types, so the contract lets an unknown type through as long "
            "as it has a string type. (The openai target does refuse what it cannot carry: chapter 08.)",
            "b": "Nothing leaves without a trace: the block still gives a message, and the loss report names it.",
            "d": "That is what Slime's adapter writes, data and all. The package writes a short placeholder instead.",
        },
        hint="Unknown is not the same as malformed.",
        explanation="a placeholder that names the type keeps the turn in its place without pasting the "
        "block's data into the prompt, and the loss report (chapter 04) says what was left out.",
        zh={
            "question": "某条 user 消息里有一个谁都没听说过的内容块 {\"type\": \"hologram\", \"frames\": 3}，"
            "translate(body)（默认目标格式）会把这个内容块变成什么？",
            "choices": {
                "a": "以 RequestError 拒绝这个请求体，因为类型未知",
                "b": "静默丢掉这个内容块",
                "c": "一条 user 消息，content 为 \"[hologram omitted]\"",
                "d": "一条 user 消息，内容是这个内容块的 Python repr：\"{'type': 'hologram', 'frames': 3}\"",
            },
            "feedback": {
                "a": "协议一直在增加新的内容块类型，所以只要 type 是字符串，契约就放行未知的类型。"
                "（openai 目标格式确实会拒绝自己承载不了的内容，见第 08 章。）",
                "b": "没有什么会不留痕迹地消失。这个内容块仍然产生一条消息，丢失报告也会点出这个内容块。",
                "d": "这是 Slime 适配器的写法，连数据一起写进去，本包则只写一个简短的占位符。",
            },
            "hint": "未知的类型不等于格式错误，想想契约对 type 只检查什么。",
            "explanation": "占位符写出了类型名，这一轮仍在原来的位置，内容块的数据也不会贴进 prompt，"
            "而丢失报告（第 04 章）会列出未进入输出的内容。",
        },
    )
)

add(
    Exercise(
        key="01.preprocess_readme",
        question="Does preprocess change the README example? Answer with the value of preprocess(body) == body.",
        expected=lambda: preprocess(readme_request()) == readme_request(),
        mistakes=(
            Mistake(
                False,
                "preprocess does one thing: it folds a system message that sits inside body['messages']. Is there "
                "one in the README example?",
                "preprocess 只做一件事，就是折叠位于 body['messages'] 内部的 system 消息。"
                "README 示例里有这样的消息吗？",
            ),
            Mistake(
                {"system": "..."},
                "The question asks for the value of the comparison ==, which is a bool, not for what preprocess returns.",
                "问题问的是比较式 == 的值，也就是一个布尔值，而不是 preprocess 的返回值。",
                matches=lambda answer: isinstance(answer, dict),
            ),
        ),
        hint="preprocess does one thing. Look for what it acts on in body['messages'].",
        explanation="preprocess only acts on a system message inside the message list, and the README example "
        "has none, so its output equals its input.",
        form="True or False",
        zh={
            "question": "preprocess 会不会改变 README 示例？请给出 preprocess(body) == body 的值来回答。",
            "hint": "preprocess 只做一件事，在 body['messages'] 里找找 preprocess 作用的对象就知道了。",
            "explanation": "preprocess 只处理消息列表内部的 system 消息，而 README 示例里没有这样的消息，"
            "所以输出等于输入。",
            "form": "True 或 False",
        },
    )
)

add(
    Exercise(
        key="01.fold",
        question="messages = [user, assistant, system]. What does preprocess do with the system message at index 2?",
        choices={
            "a": "it ends the last user message before it, as text in <system-reminder> tags",
            "b": "it merges its text into the system prompt at the top, so there is one system turn",
            "c": "nothing: it stays a system message at index 2, where the client put it",
            "d": "it drops it, since only the top-level system prompt counts as a system prompt",
        },
        expected=lambda: "a",
        wrong="b",
        feedback={
            "b": "SGLang and vLLM can merge like that, and so does the package's openai target (chapter 08). "
            "preprocess keeps the reminder at its place in the history instead.",
            "c": "That is what translate alone does with it. Many chat templates refuse a system turn after the "
            "first message, and preprocess exists to avoid exactly that.",
            "d": "Nothing is dropped: the reminder's text still reaches the model.",
        },
        hint="preprocess keeps the reminder's text at its place in the conversation, in a role that every template accepts.",
        explanation="the reminder keeps its place in the conversation and reaches the model as user text, which "
        "every template accepts.",
        zh={
            "question": "对于 messages = [user, assistant, system]，preprocess 会怎样处理下标 2 处的 system 消息？",
            "choices": {
                "a": "用 <system-reminder> 包起文本，接到前一条 user 消息末尾",
                "b": "把这条消息的文本合并进最前面的系统提示词，只留一条 system 消息",
                "c": "什么也不做，这条消息仍是下标 2 处的 system 消息，留在客户端原来放的位置",
                "d": "丢掉这条消息，因为只有顶层的系统提示词才算是系统提示词",
            },
            "feedback": {
                "b": "SGLang 和 vLLM 可能会这样合并，本包的 openai 目标格式也是如此（第 08 章），preprocess "
                "则让提醒留在对话历史中原来的位置。",
                "c": "只有单独调用 translate 时才会这样，而很多聊天模板不接受出现在第一条消息之后的 system 消息，"
                "preprocess 正是为了避免这一点。",
                "d": "什么也没有丢掉，提醒的文本仍然会送到模型面前。",
            },
            "hint": "preprocess 让提醒的文本留在对话中原来的位置，只是换成一个每个模板都接受的角色。",
            "explanation": "提醒保住了自己在对话中的位置，以 user 文本的形式到达模型，而 user 文本每个模板都接受。",
        },
    )
)
