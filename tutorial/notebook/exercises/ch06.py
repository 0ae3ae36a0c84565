"""Chapter 06, check yourself: the walk-through's three questions and four "predict the output"
exercises on small variations of the README example.

The right answers are computed from the package (`translate`, the adapter's call chain as the
walk-through describes it); the requests live in `REQUESTS`, so a learner answers by reference
(`body["system"]`) instead of typing the Chinese strings again.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from ...translation import translate
from . import Exercise, Mistake, add, in_another_order

# ---------------------------------------------------------------------------
# The walk-through's three questions


def _function_name(value: Any) -> str:
    """'_translate_messages()' or 'tutorial.translate_messages' -> 'translate_messages'."""
    if not isinstance(value, str):
        return ""
    name = value.strip().rstrip("()").strip().rsplit(".", 1)[-1]
    return name.lstrip("_")  # Python names keep their letter case


# The default target's own implementations answer the question too: `translate_messages`
# hands the history to `chat_template_messages`, and the tools to `chat_template_tools`.
_MESSAGES_PATH = {"translate_messages", "chat_template_messages"}
_TOOLS_PATH = {"tools_to_chat_tools", "chat_template_tools"}


def _path_function(value: Any) -> Any:
    """Each spelling of the two paths' functions -> the package's name for it; anything else as it is."""
    name = _function_name(value)
    if name in _MESSAGES_PATH:
        return "translate_messages"
    if name in _TOOLS_PATH:
        return "tools_to_chat_tools"
    return value


add(
    Exercise(
        key="06.paths",
        question="Question 1a. Which function receives body['messages'] (with the system prompt), and which "
        "receives body['tools']?",
        expected=lambda: {"messages": "translate_messages", "tools": "tools_to_chat_tools"},
        mistakes=(
            Mistake(
                {"messages": "translate_messages", "tools": "tool_call_dict"},
                "tool_call_dict is called inside the messages path, once per historical tool_use block: it builds "
                "a call that happened, not the list of tools on offer.",
                "tool_call_dict 在消息路径内部调用，历史里每个 tool_use 块调用一次，"
                "构造的是已经发生过的调用，而不是提供给模型的工具列表。",
                matches=lambda answer: _function_name(answer["tools"]) == "tool_call_dict",
            ),
            Mistake(
                {"messages": "flatten_content", "tools": "tools_to_chat_tools"},
                "flatten_content is a helper that the messages path calls where blocks meet text. Which function "
                "receives the whole list of messages?",
                "flatten_content 是消息路径里的辅助函数，在需要把内容块变成文本的地方调用。哪个函数接收整个消息列表？",
                matches=lambda answer: _function_name(answer["messages"]) in ("flatten_content", "chat_template_message"),
            ),
            Mistake(
                {"messages": "tools_to_chat_tools", "tools": "translate_messages"},
                "Both names are right, but swapped: which of the two takes a list of tools?",
                "两个函数名都对，但放反了，请想一想两者中哪一个接收工具列表。",
                matches=lambda answer: _path_function(answer["messages"]) == "tools_to_chat_tools"
                and _path_function(answer["tools"]) == "translate_messages",
                right=(lambda answer, expected: (_path_function(answer["messages"]), _path_function(answer["tools"])) == (expected["tools"], expected["messages"]),),
            ),
        ),
        hint="_translate makes exactly two calls, one per path (chapter 02 opens with them).",
        explanation="_translate hands the history and the system prompt to translate_messages (the walk-through's "
        "_translate_messages) and the tool definitions to tools_to_chat_tools; the names with or without the "
        "leading underscore, and the default target's chat_template_messages / chat_template_tools, all count.",
        spelling=_path_function,
        form="a dict {'messages': '<function name>', 'tools': '<function name>'}",
        zh={
            "question": "问题 1a：哪个函数接收 body['messages']（连同系统提示词），哪个接收 body['tools']？",
            "hint": "_translate 恰好发出两次调用，每条路径一次（第 02 章一开头就是这两次调用）。",
            "explanation": "_translate 把对话历史和系统提示词交给 translate_messages（讲解文档中的 _translate_message"
            "s），把工具定义交给 tools_to_chat_tools。函数名带不带开头的下划线都算对，"
            "默认目标格式的 chat_template_messages / chat_template_tools 也算。",
            "form": "一个字典 {'messages': '<函数名>', 'tools': '<函数名>'}",
        },
    )
)

add(
    Exercise(
        key="06.why_apart",
        question="Question 1b. Why are the historical tool_calls and the available tool definitions kept apart?",
        expected=lambda: "c",
        wrong="b",
        choices={
            "a": "The tools path has to run first, so the messages path cannot see the list of tools yet.",
            "b": "tool_calls travel as JSON text for the engine; the schema stays a dict for the template.",
            "c": "Different data: a tool_calls entry is a call already made; the schema is an offer.",
            "d": "A chat template cannot take tool calls and tool definitions in the same list of messages.",
        },
        feedback={
            "a": "the order is the other way round (messages first, then tools), and neither path reads the "
            "other's input: _translate could call them in any order.",
            "b": "in the default target both stay Python values: a call's arguments are a dict, like the schema. "
            "JSON text is the openai target's wire form (chapter 08), and it is not why the two are separate.",
            "d": "a tool call does sit inside the message list (on the assistant message), and the template "
            "receives the schema beside that list. The split follows what the data means, not a template limit.",
        },
        hint="Compare one entry of each: a tool_calls entry has a name and the arguments of a past call; a "
        "tools_schema entry has a name, a description and parameters.",
        explanation="a tool_calls entry records what the model did in the history (name + arguments of one "
        "call); a tools_schema entry declares what it may call next (name, description, parameters). One is "
        "history, the other an offer, so they travel separately.",
        zh={
            "question": "问题 1b：为什么历史中的 tool_calls 与可用的工具定义要分开存放？",
            "choices": {
                "a": "工具路径必须先运行，所以消息路径还看不到工具列表。",
                "b": "tool_calls 以 JSON 文本交给引擎，而 schema 保持字典交给模板。",
                "c": "数据不同：tool_calls 项是做过的调用，schema 是可调用的工具。",
                "d": "聊天模板无法在同一个消息列表里，同时接收工具调用和工具的定义。",
            },
            "feedback": {
                "a": "顺序正好相反（先消息，后工具），而且两条路径都不读取对方的输入，"
                "所以 _translate 以任何顺序调用都可以。",
                "b": "在默认目标格式里两者都保持为 Python 值，调用的 arguments 是字典，和 schema 一样。"
                "JSON 文本是 openai 目标格式在传输时的写法（第 08 章），而且这也不是两者分开的原因。",
                "d": "工具调用确实在消息列表里（在 assistant 消息上），模板则在这个列表旁边另外接收 schema。"
                "这种划分依据的是数据的含义，而不是模板的限制。",
            },
            "hint": "各取一项比较一下就能看到，tool_calls 的一项有名字和一次过去调用的参数，tools_schema 的一项则有名字、"
            "描述和参数定义（parameters）。",
            "explanation": "tool_calls 的一项记录模型在历史中做过什么（一次调用的 name + arguments），"
            "tools_schema 的一项则声明模型接下来可以调用什么（name、description、parameters）。一个是历史，"
            "一个是提供的工具，所以两者分开传递。",
        },
    )
)

add(
    Exercise(
        key="06.why_split",
        question="Question 2. Why does the user message that carries the tool result become two chat messages "
        "in the README example?",
        expected=lambda: "d",
        wrong="b",
        choices={
            "a": "The template needs strict user/assistant alternation, so the text has to move into a new turn.",
            "b": "The tool_use_id has to be kept, and only a message of its own can carry the pairing id.",
            "c": "flatten_content takes one block at a time, so every block needs a message of its own.",
            "d": "The chat shape has a `tool` role: the result and the user's text become two messages.",
        },
        feedback={
            "a": "look at the roles: assistant, tool, user. A tool message sits between the two, so the output "
            "does not alternate strictly, and the translation never tries to.",
            "b": "the default target drops tool_use_id (the loss report lists it); the tool message carries "
            "only the result's text.",
            "c": "flatten_content takes a whole list (it joins the text of every block). The split is decided "
            "by role, in chat_template_message, before any flattening.",
        },
        hint="Look at the roles of translated[3] and translated[4], and at which block of messages[2] each "
        "one came from.",
        explanation="a chat template has a separate `tool` role, so a tool_result cannot share a message with "
        "the user's text: it becomes a tool message, and the text after it a user message, in the original order.",
        zh={
            "question": "问题 2：在 README 示例中，携带工具结果的那条 user 消息为什么会变成两条聊天消息？",
            "choices": {
                "a": "模板要求 user/assistant 严格交替，所以文本必须移到新的轮次。",
                "b": "必须保留 tool_use_id，而只有单独一条消息才能携带配对用的 id。",
                "c": "flatten_content 一次只处理一个内容块，所以每个块都要单独成一条消息。",
                "d": "聊天格式有 `tool` 角色：结果和用户的文本成为两条消息。",
            },
            "feedback": {
                "a": "看看角色，依次是 assistant、tool、user，tool 消息夹在两者之间，所以输出并不严格交替，"
                "翻译也从不试图让输出交替。",
                "b": "默认目标格式丢掉了 tool_use_id（丢失报告列出了这个字段），tool 消息只携带结果的文本。",
                "c": "flatten_content 接收的是整个列表（把每个内容块的文本连接起来）。"
                "拆分在 chat_template_message 中按角色决定，发生在任何展平之前。",
            },
            "hint": "看看 translated[3] 和 translated[4] 的角色，以及两条消息各自来自 messages[2] 的哪个内容块。",
            "explanation": "聊天模板有单独的 `tool` 角色，tool_result 不能和用户文本挤在一条消息里，"
            "于是 tool_result 变成一条 tool 消息，后面的文本变成一条 user 消息，顺序不变。",
        },
    )
)


def _method(value: Any) -> str:
    if not isinstance(value, str):
        return ""
    name = value.strip().rstrip("()").strip()
    name = re.sub(r"^self\.", "", name)
    return name


def _receiver(value: Any) -> Any:
    """Every spelling of BaseAdapter._run_turn -> that name; anything else as it is."""
    return "BaseAdapter._run_turn" if _method(value) in _RUN_TURN else value


# `_run_turn` is defined on BaseAdapter and inherited by AnthropicAdapter: every spelling of
# that one method is right.
_RUN_TURN = {"BaseAdapter._run_turn", "_run_turn", "run_turn", "AnthropicAdapter._run_turn", "BaseAdapter.run_turn"}

add(
    Exercise(
        key="06.receiver",
        question="Question 3a. Which method receives `translated` and `tools_schema` when _translate returns? "
        "(Write it as Class._method or just _method.)",
        expected=lambda: "BaseAdapter._run_turn",
        mistakes=(
            Mistake(
                "_render_token_ids",
                "_render_token_ids gets the two lists later, from the method that received them. Which method "
                "calls self._translate(body) and unpacks the tuple?",
                "_render_token_ids 是之后才从接收这两个列表的方法那里拿到这两个列表的。"
                "哪个方法调用 self._translate(body) 并拆开元组？",
                matches=lambda answer: "render" in _method(answer),
            ),
            Mistake(
                "AnthropicAdapter._translate",
                "_translate is the method that returns them. The question asks for the method it returns to.",
                "_translate 是返回这两个列表的方法，而问题问的是 _translate 返回给哪个方法。",
                matches=lambda answer: _method(answer).endswith("_translate") or _method(answer) == "translate",
            ),
        ),
        hint="_translate is a method of the adapter. Which method of the same object calls it and unpacks the "
        "tuple? Chapter 04 opens with that line.",
        explanation="the shared one-turn pipeline, BaseAdapter._run_turn, calls self._translate(body) and "
        "unpacks the tuple. AnthropicAdapter inherits _run_turn, so AnthropicAdapter._run_turn and plain "
        "_run_turn name the same method. Only later does _run_turn pass the two lists to _render_token_ids.",
        spelling=_receiver,
        form="a string such as 'Class._method'",
        zh={
            "question": "问题 3a：_translate 返回时，哪个方法接收 `translated` 和 `tools_schema`？（写成 "
            "Class._method，或者只写 _method）",
            "hint": "_translate 是适配器的一个方法，那么同一个对象的哪个方法调用 _translate 并拆开返回的元组？"
            "第 04 章一开头就是那一行。",
            "explanation": "共用的单轮流水线 BaseAdapter._run_turn 调用 self._translate(body) 并拆开元组。"
            "AnthropicAdapter 继承了 _run_turn，所以 AnthropicAdapter._run_turn 和单写的 _run_turn "
            "指的是同一个方法，之后 _run_turn 才把这两个列表交给 _render_token_ids。",
            "form": "一个字符串，例如 'Class._method'",
        },
    )
)

add(
    Exercise(
        key="06.http",
        question="Question 3b. Is another HTTP request made to hand `translated` and `tools_schema` over? "
        "(True or False)",
        expected=lambda: False,
        mistakes=(
            Mistake(
                True,
                "Where does _translate run, and where does the caller live? Both are methods of one adapter object, "
                "in one Python process.",
                "_translate 在哪里运行，调用 _translate 的代码又在哪里？两者都是同一个适配器对象的方法，"
                "在同一个 Python 进程里。",
            ),
            Mistake(
                "POST /v1/messages",
                "That request brought the body in (Action 7) and is answered after sampling; the question asks "
                "whether another one is made for the hand-over. Answer True or False.",
                "那个请求带来了请求体（Action 7），在采样之后才得到响应，而问题问的是返回时是否另外发出一个请求，"
                "请回答 True 或 False。",
                matches=lambda answer: isinstance(answer, str) and "/v1/messages" in answer,
            ),
        ),
        hint="Where does _translate run, and where does the caller live? Both are methods of one adapter object. "
        "Which HTTP request brought the body in, and when is it answered?",
        explanation="the hand-over is an ordinary Python return value on the same object. The only HTTP request "
        "is the CLI's POST /v1/messages that brought the body in (Action 7), and it is answered after sampling "
        "(Action 3.5).",
        form="True or False",
        zh={
            "question": "问题 3b：返回 `translated` 和 `tools_schema` 时，会另外发出一个 HTTP 请求吗？（True 或 "
            "False）",
            "hint": "_translate 在哪里运行，调用 _translate 的代码又在哪里？两者都是同一个适配器对象的方法。"
            "是哪个 HTTP 请求带来了请求体，这个请求又在什么时候得到响应？",
            "explanation": "返回只是同一个对象上的一个普通 Python 返回值。唯一的 HTTP 请求是 CLI 发出的、"
            "带来请求体的 POST /v1/messages（Action 7），这个请求在采样之后才得到响应（Action 3.5）。",
            "form": "True 或 False",
        },
    )
)

# ---------------------------------------------------------------------------
# Predict the output: small variations of the README example


REQUESTS: dict[str, dict] = {
    "string_system": {
        "system": "回答要简短。",
        "messages": [{"role": "user", "content": "你好"}],
    },
    "two_text_blocks": {
        "messages": [{"role": "user", "content": [{"type": "text", "text": "第一段"}, {"type": "text", "text": "第二段"}]}],
    },
    "two_tool_calls": {
        "messages": [
            {"role": "user", "content": "比较两个文件"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a.py"}},
                    {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "b.py"}},
                ],
            },
        ],
    },
    "image": {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "这张图里有什么？"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
                ],
            }
        ],
    },
}
"""The four requests of the exercises. Read them; `requests()` gives a fresh copy to edit."""


def requests() -> dict[str, dict]:
    return copy.deepcopy(REQUESTS)


def _translated(name: str) -> list[dict]:
    return translate(copy.deepcopy(REQUESTS[name]))[0]


_CALL_A = {"type": "function", "function": {"name": "read_file", "arguments": {"path": "a.py"}}}
_CALL_B = {"type": "function", "function": {"name": "read_file", "arguments": {"path": "b.py"}}}

def _joins_every_block(answer: list, expected: list) -> bool:
    """The claim "you joined the blocks": the one message holds the text of every block."""
    return all(message["content"] in answer[0]["content"] for message in expected)


_FORM = "a list of message dicts; take strings from the request, e.g. body['messages'][0]['content']"

add(
    Exercise(
        key="06.string_system",
        question="A system prompt given as a plain string: what list does translate(body)[0] give?",
        expected=lambda: _translated("string_system"),
        mistakes=(
            Mistake(
                [{"role": "user", "content": "你好"}],
                "The system prompt is not left behind as a top-level field: it becomes the first chat message.",
                "系统提示词并没有被丢下，而是成为第一条聊天消息。",
                matches=lambda answer: all(message["role"] != "system" for message in answer),
            ),
            Mistake(
                [{"role": "system", "content": [{"type": "text", "text": "回答要简短。"}]}, {"role": "user", "content": "你好"}],
                "A string needs no flattening, and it is not wrapped in blocks either: it is the content as it is.",
                "字符串不需要展平，也不会被包成内容块，原样就是 content。",
                matches=lambda answer: not isinstance(answer[0]["content"], str),
            ),
            Mistake(
                [{"role": "user", "content": "你好"}, {"role": "system", "content": "回答要简短。"}],
                "Both messages are right, but the system prompt comes first, before all of the history.",
                "两条消息都对，但系统提示词排在最前面，在所有对话历史之前。",
                matches=lambda answer: [message["role"] for message in answer] == ["user", "system"],
                right=(in_another_order,),
            ),
        ),
        hint="Compare each message with the request: the system prompt first, then the user's string.",
        explanation="a string system prompt becomes the content of the first message as it is; the user's "
        "string content is taken as it is too.",
        form=_FORM,
        zh={
            "question": "系统提示词是一个普通字符串：translate(body)[0] 是什么列表？",
            "hint": "把每条消息和请求对照一下，先是系统提示词，然后是用户的字符串。",
            "explanation": "字符串形式的系统提示词原样成为第一条消息的 content，"
                           "user 消息的字符串 content 也原样取用。",
            "form": "一个消息字典的列表，字符串从请求中取，例如 body['messages'][0]['content']",
        },
    )
)

add(
    Exercise(
        key="06.two_text_blocks",
        question="One user message with two text blocks: what list does translate(body)[0] give?",
        expected=lambda: _translated("two_text_blocks"),
        mistakes=(
            Mistake(
                [{"role": "user", "content": "第一段\n第二段"}],
                "The default target does not join a user message's blocks: it gives one chat message per block "
                "and takes each text directly (only the system prompt and tool results are flattened).",
                "默认目标格式不会把 user 消息的各个内容块连接起来，而是为每个内容块产生一条聊天消息，"
                "并直接取用各自的文本（只有系统提示词和工具结果会被展平）。",
                matches=lambda answer: len(answer) == 1 and isinstance(answer[0]["content"], str),
                right=(_joins_every_block,),
            ),
            Mistake(
                [{"role": "user", "content": [{"type": "text", "text": "第一段"}, {"type": "text", "text": "第二段"}]}],
                "Keeping the blocks as a list in one message is what the openai target does (chapter 08). The "
                "default target gives a chat template plain strings, one message per block.",
                "把内容块作为列表留在一条消息里，是 openai 目标格式的做法（第 08 章），"
                "而默认目标格式交给聊天模板的是普通字符串，每个内容块一条消息。",
                matches=lambda answer: any(isinstance(message["content"], list) for message in answer),
            ),
        ),
        hint="One chat message per block of a user message, each text taken as it is.",
        explanation="a user message gives one chat message per block, so two text blocks become two consecutive "
        "user messages. (The openai target keeps them in one message as a list of parts: chapter 08.)",
        form=_FORM,
        zh={
            "question": "一条 user 消息带两个文本块：translate(body)[0] 是什么列表？",
            "hint": "user 消息的每个内容块产生一条聊天消息，每段文本原样取用。",
            "explanation": "一条 user 消息的每个内容块产生一条聊天消息，所以两个文本块变成两条相邻的 user 消息。"
            "（openai 目标格式则把两个文本块作为 content part 列表保留在同一条消息里，见第 08 章。）",
            "form": "一个消息字典的列表，字符串从请求中取，例如 body['messages'][0]['content']",
        },
    )
)

add(
    Exercise(
        key="06.two_tool_calls",
        question="An assistant turn that calls two tools and says nothing: what list does translate(body)[0] give?",
        expected=lambda: _translated("two_tool_calls"),
        mistakes=(
            Mistake(
                [
                    {"role": "user", "content": "比较两个文件"},
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [
                            {"id": "toolu_a", "type": "function", "function": {"name": "read_file", "arguments": {"path": "a.py"}}},
                            {"id": "toolu_b", "type": "function", "function": {"name": "read_file", "arguments": {"path": "b.py"}}},
                        ],
                    },
                ],
                "The ids are kept here. Each tool_use goes through tool_call_dict(name, input): which fields of the "
                "block does that helper take?",
                "你保留了 id，可每个 tool_use 都经过 tool_call_dict(name, input)，这个辅助函数取内容块的哪些字段？",
                matches=lambda answer: any("id" in call for call in answer[1]["tool_calls"]),
            ),
            Mistake(
                [
                    {"role": "user", "content": "比较两个文件"},
                    {"role": "assistant", "content": "", "tool_calls": [_CALL_A]},
                    {"role": "assistant", "content": "", "tool_calls": [_CALL_B]},
                ],
                "One assistant turn stays one message, however many calls it makes: both calls go into its "
                "tool_calls, in order.",
                "一个 assistant 轮次始终是一条消息，无论发出多少次调用。两次调用按顺序都放进这条消息的 tool_calls。",
                matches=lambda answer: [message["role"] for message in answer].count("assistant") > 1,
            ),
            Mistake(
                [{"role": "user", "content": "比较两个文件"}, {"role": "assistant", "content": None, "tool_calls": [_CALL_A, _CALL_B]}],
                "No text block means content is the empty string '', not None: a template writes '' as nothing, "
                "and some write None as the word None.",
                "没有文本块时 content 是空字符串 ''，而不是 None，因为模板会把 '' 写成空，"
                "有些模板却会把 None 写成单词 None。",
                matches=lambda answer: answer[1]["content"] is None or "content" not in answer[1],
            ),
            Mistake(
                [
                    {"role": "user", "content": "比较两个文件"},
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [
                            {"type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}},
                            {"type": "function", "function": {"name": "read_file", "arguments": '{"path": "b.py"}'}},
                        ],
                    },
                ],
                "The arguments are JSON text here; the default target keeps each call's input a dict.",
                "这里的 arguments 是 JSON 文本，而默认目标格式让每次调用的 input 保持为字典。",
                matches=lambda answer: any(isinstance(call["function"]["arguments"], str) for call in answer[1]["tool_calls"]),
            ),
        ),
        hint="Each tool_use goes through tool_call_dict(name, input), in order; no text block means content is ''.",
        explanation="both calls land in one assistant message's tool_calls, in order, each built by "
        "tool_call_dict from the name and the input (a dict): no id, and content is '' because there is no text.",
        form=_FORM,
        zh={
            "question": "一个 assistant 轮次调用了两个工具，却什么也没说：translate(body)[0] 是什么列表？",
            "hint": "每个 tool_use 按顺序经过 tool_call_dict(name, input)，而没有文本块时，content 就是 ''。",
            "explanation": "两次调用按顺序落进同一条 assistant 消息的 tool_calls，"
            "每一项都由 tool_call_dict 用 name 和 input（一个字典）构造，所以没有 id，又因为没有文本，content 是 ''。",
            "form": "一个消息字典的列表，字符串从请求中取，例如 body['messages'][0]['content']",
        },
    )
)

add(
    Exercise(
        key="06.image",
        question="A user message with a screenshot: what list does translate(body)[0] give?",
        expected=lambda: _translated("image"),
        mistakes=(
            Mistake(
                [{"role": "user", "content": "这张图里有什么？"}],
                "Nothing is dropped without a trace: a text-only template cannot show pixels, so the image block "
                "becomes a user message holding a placeholder (and the loss report names the image).",
                "没有什么会不留痕迹地丢掉。文本模板无法显示像素，"
                "所以图片内容块变成一条装着占位符的 user 消息（丢失报告也会点出这张图片）。",
                matches=lambda answer: len(answer) == 1 and "omitted" not in answer[0]["content"],
            ),
            Mistake(
                [{"role": "user", "content": "这张图里有什么？\n[image omitted]"}],
                "The placeholder is there, but a user message gives one chat message per block: the text and the "
                "image are two messages.",
                "占位符有了，但 user 消息的每个内容块各产生一条聊天消息，文本和图片是两条消息。",
                matches=lambda answer: len(answer) == 1,
            ),
        ),
        hint="One chat message per block: the text as it is, then something in place of the image.",
        explanation="one chat message per block: the text as it is, then '[image omitted]' for the image, and "
        "the loss report names messages[0].content[1].",
        form=_FORM,
        zh={
            "question": "一条 user 消息带一张截图：translate(body)[0] 是什么列表？",
            "hint": "每个内容块一条聊天消息，文本原样保留，图片则要用某个东西代替。",
            "explanation": "每个内容块一条聊天消息，文本原样保留，图片变成 '[image omitted]'，"
            "丢失报告会点出 messages[0].content[1]。",
            "form": "一个消息字典的列表，字符串从请求中取，例如 body['messages'][0]['content']",
        },
    )
)
