"""Chapter 02, the messages path: a prediction before each stage, and why the id goes."""

from __future__ import annotations

from ...examples import readme_request
from ...translation import translate
import json
from typing import Any

from . import Exercise, Mistake, add, same_json


def _translated() -> list[dict]:
    return translate(readme_request())[0]


def _flattens_first_user() -> bool:
    from ...watch.trace import trace  # the trace is apparatus: load it only when checked

    return any(step.path.startswith("messages[0]") for step in trace(readme_request()).steps if step.name == "flatten_content")


add(
    Exercise(
        key="02.system_message",
        question='body["system"] is a list holding one text block. Which chat message does it become?',
        expected=lambda: _translated()[0],
        mistakes=(
            Mistake(
                {"role": "system", "content": [{"type": "text", "text": "你是代码助手。"}]},
                "The role is right, but the content is still the block list. A chat template prints a system "
                "turn's content as text: what does flatten_content make of one text block?",
                "角色对了，但 content 仍是内容块列表。聊天模板把 system 消息的 content 当作文本输出，"
                "那么 flatten_content 会把一个文本块变成什么？",
                matches=lambda answer: answer["role"] == "system" and isinstance(answer["content"], list),
                right=("role",),
            ),
            Mistake(
                {"role": "user", "content": "你是代码助手。"},
                "The text is right. The system prompt keeps its own role in the chat list; it does not become a "
                "user turn.",
                "文本对了，但系统提示词在聊天列表里有自己的角色，不会变成 user 消息。",
                matches=lambda answer: answer["role"] == "user" and answer["content"] == "你是代码助手。",
                right=("content",),
            ),
            Mistake(
                [{"role": "system", "content": "你是代码助手。"}],
                "That message is right, but the question asks for the one message, a dict, not a list holding it.",
                "这条消息对了，但问题要的是这一条消息本身（一个字典），而不是装着这条消息的列表。",
                matches=lambda answer: isinstance(answer, list) and len(answer) == 1 and answer[0] == _translated()[0],
                right=(lambda answer, expected: same_json(answer[0], expected),),
            ),
        ),
        hint="Follow body[\"system\"] through translate_messages: which role does the message it gives have, and "
        "what does flatten_content make of its content?",
        explanation="flatten_content turns the block list into one string, and that string becomes the "
        "content of a message with the role system, first in the list.",
        form='a dict such as {"role": ..., "content": ...}; you may write body["system"][0]["text"] for the text',
        zh={
            "question": "body[\"system\"] 是一个只含一个文本块的列表，这个列表会变成哪一条聊天消息？",
            "hint": "跟着 body[\"system\"] 走一遍 translate_messages，看看产生的消息是什么角色，"
            "flatten_content 又把 system 的 content 变成了什么？",
            "explanation": "flatten_content 把内容块列表变成一个字符串，作为 system 消息的 content，"
            "而这条消息排在列表最前面。",
            "form": "一个字典，例如 {\"role\": ..., \"content\": ...}，其中文本可以写成 body[\"system\"][0][\"text\"]",
        },
    )
)

add(
    Exercise(
        key="02.first_user_flatten",
        question="The first user message holds one text block. Is flatten_content called for it?",
        expected=_flattens_first_user,
        mistakes=(
            Mistake(
                True,
                "A user message gives one chat message per block. What does a text block need before its text can "
                "be used? Compare with body['system'], which may be a list of blocks.",
                "一条 user 消息的每个内容块产生一条聊天消息，那么文本块的文本还需要额外处理才能用吗？"
                "对比一下 body['system']，那里的值可能是内容块列表。",
            ),
            Mistake(
                "flatten_content",
                "The question asks yes or no: answer with True or False, whether flatten_content is called for it.",
                "问题问的是“会不会”，请用 True 或 False 回答。",
                matches=lambda answer: isinstance(answer, str) and "flatten" in answer,
            ),
        ),
        hint="A user message gives one chat message per block. What does a text block need before its text can be used?",
        explanation="a text block's text is taken straight from block['text']; flatten_content is only needed "
        "where a value may be a list of blocks (the system prompt, a tool result's content).",
        form="True or False",
        zh={
            "question": "第一条 user 消息只有一个文本块，translate 会为这条消息调用 flatten_content 吗？",
            "hint": "一条 user 消息的每个内容块产生一条聊天消息，那么文本块的文本还需要额外处理才能用吗？",
            "explanation": "文本块的文本直接从 block['text'] 取得，只有值可能是内容块列表的地方（系统提示词、"
            "工具结果的 content）才需要 flatten_content。",
            "form": "True 或 False",
        },
    )
)

add(
    Exercise(
        key="02.tool_call",
        question='What does the tool_use block in body["messages"][1] become, as one entry of tool_calls?',
        expected=lambda: _translated()[2]["tool_calls"][0],
        mistakes=(
            Mistake(
                {"id": "toolu_demo", "type": "function", "function": {"name": "read_file", "arguments": {"path": "README.md"}}},
                "The id is kept here. Look at what tool_call_dict(name, arguments) takes: only two of the block's "
                "fields reach it, and the id is not one of them.",
                "你保留了 id，可是看看 tool_call_dict(name, arguments) 的参数就知道，内容块只有两个字段传得进去，"
                "id 不在其中。",
                matches=lambda answer: isinstance(answer, dict) and ("id" in answer or "id" in answer.get("function", {})),
            ),
            Mistake(
                {"type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": "README.md"})}},
                "The arguments are JSON text here. The default target keeps them a dict, as the block's input "
                "was: a template iterates over them, and == compares dicts whatever their key order.",
                "你把 arguments 写成了 JSON 文本，而默认目标格式让 arguments 保持为字典，和内容块的 input 一样，"
                "因为模板会遍历 arguments，而 == 比较字典时不在乎键的顺序。",
                matches=lambda answer: isinstance(answer["function"]["arguments"], str),
            ),
            Mistake(
                {"type": "function", "function": {"name": "read_file", "input": {"path": "README.md"}}},
                "The key input is renamed on the way: the chat shape calls a call's values arguments.",
                "input 这个键在途中被改了名，聊天格式把一次调用的参数值叫作 arguments。",
                matches=lambda answer: "input" in answer["function"],
            ),
        ),
        hint="Compare with what tool_call_dict(name, arguments) returns: a function wrapper holding the block's name "
        "and its input, each as it is.",
        explanation="tool_call_dict gets the name and the input, renames input to arguments and keeps it a "
        "dict; the id has no parameter to arrive through, so it is gone.",
        form='a dict {"type": ..., "function": {...}}; body["messages"][1]["content"][1]["input"] is the input',
        zh={
            "question": "body[\"messages\"][1] 中的 tool_use 块会变成 tool_calls 里的哪一项？请写出这一项。",
            "hint": "对照 tool_call_dict(name, arguments) 的返回值可以看到，外面包一层 function，里面是内容块的名字和 input，"
                    "都原样保留。",
            "explanation": "tool_call_dict 拿到 name 和 input，把 input 改名为 arguments，值仍是字典，"
            "而 id 没有对应的参数可以传进来，所以丢了。",
            "form": "一个字典 {\"type\": ..., \"function\": {...}}，其中 body[\"messages\"][1][\"content\"][1][\"input\"]"
            " 就是 input",
        },
    )
)

add(
    Exercise(
        key="02.why_dict",
        question="Why do the arguments stay a dict instead of becoming JSON text?",
        choices={
            "a": "The OpenAI Chat Completions API requires a dict there, so an engine would refuse JSON text.",
            "b": "Templates iterate over them as a mapping, and == on two dicts ignores their key order.",
            "c": "json.dumps would turn the Chinese characters into \\u escapes that the model cannot read.",
            "d": "A dict takes fewer tokens than JSON text once the template has written the prompt.",
        },
        expected=lambda: "b",
        wrong="a",
        feedback={
            "a": "The Chat Completions wire carries arguments as a JSON *string*; that is why the openai target "
            "encodes them (chapter 08). The default target feeds a template directly.",
            "c": "json.dumps(..., ensure_ascii=False) keeps them readable; the openai target does exactly that.",
            "d": "The template writes the arguments out as text either way; the type decides whether the template "
            "can read them and whether two turns compare equal.",
        },
        hint="Two readers use the arguments: the chat template, and the code that matches a recorded turn with its echo.",
        explanation="a template that does `arguments | items` fails on a string, and two dicts with the same "
        "content are equal whatever their key order, where two JSON texts may not be.",
        zh={
            "question": "为什么 arguments 保持为字典，而不是变成 JSON 文本？",
            "choices": {
                "a": "OpenAI Chat Completions API 要求这里是字典，引擎会拒绝文本。",
                "b": "模板把这个值当作映射来遍历，而两个字典做 == 比较时不看键的顺序。",
                "c": "json.dumps 会把中文字符变成模型读不懂的 \\u 转义序列。",
                "d": "模板写出 prompt 之后，字典比 JSON 文本占用的 token 更少。",
            },
            "feedback": {
                "a": "Chat Completions 的传输格式把 arguments 写成 JSON 字符串，"
                "所以 openai 目标格式才会对 arguments 编码（第 08 章），而默认目标格式的输出直接交给模板。",
                "c": "json.dumps(..., ensure_ascii=False) 能让这些字符保持可读，openai 目标格式正是这样做的。",
                "d": "无论哪种类型，模板都会把 arguments 写成文本，类型决定的是模板能否读取其中的值，"
                "以及两个轮次用 == 比较时是否相等。",
            },
            "hint": "有两方会读取 arguments，一是聊天模板，二是把记录下的轮次与回传的历史轮次对应起来的代码。",
            "explanation": "执行 `arguments | items` 的模板遇到字符串会失败，"
            "而且内容相同的两个字典无论键顺序如何都相等，两段 JSON 文本却未必。",
        },
    )
)

add(
    Exercise(
        key="02.split_roles",
        question='body["messages"][2] holds a tool_result and then a text block. Write the roles of the chat '
        "messages it becomes, in order.",
        expected=lambda: [message["role"] for message in _translated()[3:]],
        mistakes=(
            Mistake(
                ["user"],
                "One message would have to hold a tool's result and the user's text at once. A user message gives "
                "one chat message per block, and the chat shape has its own role for a tool's result.",
                "那样一条消息就得同时装下工具结果和用户的文本，可是一条 user 消息的每个内容块产生一条聊天消息，"
                "而聊天格式给工具结果留了专门的角色。",
            ),
            Mistake(
                ["user", "tool"],
                "Both roles are there, but in the other order. The blocks keep their order: the tool_result comes "
                "first in messages[2].",
                "两个角色都有，但顺序反了，因为内容块保持原来的顺序，而在 messages[2] 里，tool_result 排在前面。",
            ),
            Mistake(
                ["user", "user"],
                "Two messages is right, but a tool's result is not user text: the chat shape gives it a role of "
                "its own.",
                "两条消息是对的，但工具结果不是用户的文本，聊天格式为工具结果留了专门的角色。",
            ),
        ),
        hint="A user message gives one chat message per block, and the chat shape has its own role for a tool's result.",
        explanation="the tool_result becomes a tool message and the text after it a user message, in the order "
        "they had in the block list.",
        form='a list of role names, such as ["assistant"]',
        zh={
            "question": "body[\"messages\"][2] 先是一个 tool_result，然后是一个文本块，"
            "请按顺序写出这条消息产生的各条聊天消息的角色。",
            "hint": "一条 user 消息的每个内容块产生一条聊天消息，而聊天格式给工具结果留了专门的角色。",
            "explanation": "tool_result 变成一条 tool 消息，后面的文本变成一条 user 消息，"
            "顺序与两者在内容块列表中的顺序相同。",
            "form": "角色名的列表，例如 [\"assistant\"]",
        },
    )
)

add(
    Exercise(
        key="02.pairing",
        question="The tool message keeps no tool_use_id. How does a ChatML- or Qwen-style template show which "
        "call a result answers?",
        choices={
            "a": "the id survives in a hidden field of the tool message, which the template reads",
            "b": "it cannot: the model has to guess which of the calls each result belongs to",
            "c": "by the tool's name, which the tool message repeats from the call it answers",
            "d": "by position: each result follows its call, results in the order of the calls",
        },
        expected=lambda: "d",
        wrong="a",
        feedback={
            "a": "Look at translated[3]: it has a role and a content, nothing more.",
            "b": "The order of the history says it: a call, then its result.",
            "c": "The tool message carries no name, and two calls to read_file would be ambiguous anyway.",
        },
        hint="Read the five messages of translated in order.",
        explanation="these templates write a tool's response right after the call and never print an id, so "
        "order is all they need. Templates that do print ids (Mistral-style) need the openai target's shape.",
        zh={
            "question": "既然 tool 消息没有保留 tool_use_id，ChatML 或 Qwen 风格的模板如何表明一个结果回答的是哪次调用？",
            "choices": {
                "a": "id 保存在 tool 消息的一个隐藏字段里，模板渲染时会读取这个字段",
                "b": "做不到，只能让模型去猜每个结果属于哪一次调用",
                "c": "靠工具名，tool 消息会重复所回答的那次调用的名字",
                "d": "靠位置，每个结果跟在自己的调用之后，按调用的顺序排列",
            },
            "feedback": {
                "a": "看看 translated[3]，这条消息只有 role 和 content，别无其他。",
                "b": "对话历史的顺序就说明了一切，先是调用，然后是调用的结果。",
                "c": "tool 消息并不带名字，何况两次调用的都是 read_file 时，名字也无法区分。",
            },
            "hint": "按顺序读一遍 translated 的五条消息，看看每个结果排在哪里。",
            "explanation": "这些模板把工具结果紧挨着对应的调用写出，从不输出 id，所以靠顺序就够了，"
            "而会输出 id 的模板（Mistral 风格）需要 openai 目标格式。",
        },
    )
)

add(
    Exercise(
        key="02.count",
        question="The README example has a system prompt and 3 messages. How many chat messages does the messages path produce?",
        expected=lambda: len(_translated()),
        mistakes=(
            Mistake(
                4,
                "One too few. Count the system prompt, then ask how many chat messages messages[2] gives: a user "
                "message gives one per block, and it holds two.",
                "少了一条，请先数系统提示词，再看 messages[2] 产生几条聊天消息，因为一条 user 消息的每个内容块产生一条，"
                "而 messages[2] 有两个内容块。",
            ),
            Mistake(
                3,
                "That is the number of input messages. Two things add to it: the system prompt becomes a message "
                "of its own, and one input message splits in two.",
                "这是输入消息的条数，而有两处会多出消息，一是系统提示词自己成为一条消息，二是有一条输入消息一分为二。",
            ),
            Mistake(
                6,
                "One too many. The assistant turn holds a text and a tool_use, yet it stays one message: its calls "
                "ride along in tool_calls.",
                "多了一条，assistant 轮次里虽有一段文本和一个 tool_use，但仍是一条消息，"
                "调用放在这条消息的 tool_calls 里。",
            ),
        ),
        hint="Count the system prompt, then ask how many chat messages each input message gives: "
        "a user message gives one per block.",
        explanation="the system prompt gives one, messages[0] and messages[1] one each, and messages[2] two "
        "(a tool message for its tool_result, then a user message for its text).",
        form="a whole number",
        zh={
            "question": "README 示例有一个系统提示词和 3 条消息，消息路径会产生多少条聊天消息？",
            "hint": "先数系统提示词，再看每条输入消息各产生几条聊天消息，其中一条 user 消息的每个内容块都会产生一条。",
            "explanation": "系统提示词产生一条，messages[0] 和 messages[1] 各一条，"
            "messages[2] 两条（其中 tool_result 产生一条 tool 消息，文本产生一条 user 消息）。",
            "form": "一个整数",
        },
    )
)
