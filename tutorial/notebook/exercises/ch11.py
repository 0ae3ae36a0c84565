"""Chapter 11, capture a real client: predictions about what a real client sends and what the
translation makes of it.

The right answers come from the package: the way back and `response_to_message` for the echo
of a reply, and `trace` of the recorded Claude Code session (tutorial/examples/claude_code/, read from the
repository this package was installed from) for the rest. The question about the API key asks
what a capture should keep; the chapter checks the server's answer right below it.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

from ...examples import readme_request
from ...round_trip import response_to_message
from ...examples import claude_code_session
from ...translation import translate
from ...way_back import build_reply, counting_ids
from ...watch.trace import trace
from . import Exercise, Mistake, add

TARGETS = ("chat_template", "openai")


@functools.cache
def _session() -> dict:
    return claude_code_session()  # the recorded session the chapter reads


def _first_request() -> dict:
    return copy.deepcopy(_session()["requests"][0]["body"])


def _named(answer: Any) -> set:
    return set(answer) if isinstance(answer, (list, tuple, set)) and all(isinstance(a, str) for a in answer) else set()


add(
    Exercise(
        key="11.key",
        question="The SDK sent its API key in a request header. What should the capture of that request keep of it?",
        choices={
            "a": "The header as it was sent: a capture is a faithful record, and the server runs on your own machine.",
            "b": "The key with all but its last four characters masked, so that two keys can be told apart.",
            "c": "Only the header's name, listed in headers_withheld: the value never enters the capture.",
            "d": "A hash of the key, so that requests made with the same key can be matched up.",
        },
        expected=lambda: "c",
        wrong="a",
        feedback={
            "a": "captures are shown at GET /captures, saved with --save and printed in notebooks; anything in a "
            "capture can leak from any of them. The request works without the key, so the record does not need it.",
            "b": "the last characters of a key still identify it, and a partly shown key invites copying the rest "
            "from somewhere else. The capture has no use for any part of it.",
            "d": "a short key hashed without a secret salt can be guessed back, and nothing in the tutorial needs to "
            "match requests by key.",
        },
        hint="Think of every place a capture goes: the list at GET /captures, the file written with --save, a "
        "notebook's stored outputs.",
        explanation="a header whose name says it carries a credential is dropped before the capture is built, "
        "and only its name is kept, so nothing in a capture (its list, its saved file, a notebook) can leak the key.",
        zh={
            "question": "SDK 在请求头里发送了 API 密钥。捕获这个请求时，应当保留这个密钥的哪些信息？",
            "choices": {
                "a": "原样保留整个请求头：捕获是忠实的记录，而且服务器本来就运行在你自己的机器上。",
                "b": "遮住密钥除最后四个字符以外的部分，这样仍然可以区分两个不同的密钥。",
                "c": "只把请求头的名字列在 headers_withheld 里：值从不进入捕获。",
                "d": "密钥的哈希值，以便把用同一个密钥发出的请求对应起来。",
            },
            "feedback": {
                "a": "捕获记录会显示在 GET /captures，用 --save 保存，也会打印在 notebook 里，"
                "其中的任何东西都可能从这几处中的任何一处泄露。请求不需要密钥也能工作，所以记录里用不着密钥。",
                "b": "凭密钥的最后几个字符仍能认出这把密钥，而露出一部分的密钥会诱使人从别处找来其余部分。"
                "捕获记录用不到密钥的任何部分。",
                "d": "短密钥的哈希如果不加秘密的盐，可以被反推出来。而且本教程没有哪里需要按密钥对应请求。",
            },
            "hint": "想想捕获记录会去的每一个地方，包括 GET /captures 的列表、用 --save 写出的文件、"
                    "notebook 保存的输出。",
            "explanation": "凡是名字表明携带凭据的请求头，在构建捕获记录之前就被丢掉，只保留名字。"
            "所以捕获记录无论去到哪里（列表、保存的文件、notebook），都不会泄露密钥。",
        },
    )
)


CALL = {"name": "read_file", "input": {"path": "README.md"}}
"""The call the tool_then_text responder makes in section 4."""


def _echo_equals_record() -> str:
    """Which target's translation of the echoed reply equals response_to_message(reply)."""
    call = {"tool_uses": [copy.deepcopy(CALL)]}
    blocks, stop_reason, _manager = build_reply(call, "tool_calls", new_id=counting_ids("toolu_tutorial_1_"))
    reply = {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "local", "content": blocks,
        "stop_reason": stop_reason, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
    }  # fmt: skip
    record = response_to_message(reply)
    body = readme_request()
    question = {"role": "user", "content": "读取 README.md 并概括内容。"}
    echo = {**body, "messages": [question, {"role": "assistant", "content": blocks}]}
    equal = tuple(translate(copy.deepcopy(echo), target=target)[0][-1] == record for target in TARGETS)
    return {(True, False): "a", (False, True): "b", (True, True): "c", (False, False): "d"}[equal]


add(
    Exercise(
        key="11.echo",
        question="The server keeps each reply as a chat message too: capture['reply_as_chat_message'], made by "
        "response_to_message (chapter 09). The next request echoes the reply back as history. Translate that "
        "echo with each target: which translation equals the kept message under ==?",
        choices={
            "a": "The chat_template translation: it drops the id, as the adapter's record does.",
            "b": "The openai translation: both keep the id and write the arguments as JSON text.",
            "c": "Both: the echo is the same turn, whichever target translates it.",
            "d": "Neither: the SDK's response objects are not plain JSON, so the echo differs from what was sent.",
        },
        expected=_echo_equals_record,
        wrong="a",
        feedback={
            "a": "that was chapter 08's record, the manager message build_reply returns. response_to_message keeps "
            "a different record: the one a store of Chat Completions messages needs, with the id the result points "
            "back at.",
            "c": "the two targets differ exactly where a call is concerned: the id, and a dict or JSON text for the "
            "arguments. One of them matches this record, the other cannot.",
            "d": "the SDK turns its objects back into the JSON it received (the chapter checks it just below): the "
            "echo is the reply, word for word.",
        },
        hint="Look at what response_to_message does with a tool_use block: does it keep the id, and how does it "
        "write the arguments?",
        explanation="response_to_message keeps the id and writes the arguments as JSON text, the openai shape, so "
        "the openai translation of the echo equals it. The default target's echo equals build_reply's manager "
        "message instead (chapter 08): which translation matches depends on which record a store keeps.",
        zh={
            "question": "服务器也把每个回复保存为一条聊天消息 capture['reply_as_chat_message']，由 "
            "response_to_message（第 09 章）生成。下一个请求把回复作为对话历史发回来（回传的历史轮次）。"
            "用两种目标格式分别翻译这个回传的历史轮次，哪一个翻译结果用 == 比较时等于保存的消息？",
            "choices": {
                "a": "chat_template 的翻译结果，因为这种格式丢掉 id，和适配器的记录一样。",
                "b": "openai 的翻译结果，因为两者都保留 id，arguments 都是 JSON 文本。",
                "c": "都等于，因为回传的是同一个轮次，不管用哪种目标格式翻译。",
                "d": "都不等于，因为 SDK 的响应对象不是普通的 JSON，所以回传的内容和当初发出的不一样。",
            },
            "feedback": {
                "a": "那是第 08 章的记录，也就是 build_reply 返回的本轮记录（manager message）。"
                "response_to_message 保存的是另一种记录，按 Chat Completions 消息存储所需的样子，"
                "带着结果要指回的 id。",
                "c": "两种目标格式恰恰在涉及调用的地方不同，一是 id，二是 arguments 是字典还是 JSON 文本。"
                "其中一种与这份记录一致，另一种不可能一致。",
                "d": "SDK 会把自己的对象还原成收到的 JSON（本章就在下面检查这一点），所以回传的历史轮次就是那个回复，"
                     "一字不差。",
            },
            "hint": "看看 response_to_message 怎样处理 tool_use 块，是否保留了 id，arguments 又是怎样写的。",
            "explanation": "response_to_message 保留 id，并把 arguments 写成 JSON 文本，也就是 openai 的格式，"
            "所以回传的历史轮次用 openai 翻译的结果与之相等。"
            "默认目标格式回传的历史轮次则等于 build_reply 返回的本轮记录（第 08 章）。哪种翻译结果对得上，"
            "取决于存储保留哪一种记录。",
        },
    )
)


def _roles() -> list[str]:
    return [message["role"] for message in trace(_first_request()).translated]


add(
    Exercise(
        key="11.cc_roles",
        question="Claude Code's first request: a system prompt of three blocks, then messages[0] (user: two text "
        "blocks) and messages[1] (role system: one text block). Which roles does the server's translation "
        "(trace: preprocess, then the default target) give, in order?",
        expected=_roles,
        mistakes=(
            Mistake(
                ["system", "user", "user", "system"],
                "That is what translate alone would give. The server runs preprocess first (chapter 01): where does "
                "it put a system message that sits inside the list?",
                "这是单独调用 translate 时的结果。服务器先运行 preprocess（第 01 章），"
                "列表内部的 system 消息被放到了哪里？",
                matches=lambda answer: list(answer)[-1] == "system" and len(answer) == 4,
            ),
            Mistake(
                ["system", "user"],
                "A user message gives one chat message per block, and messages[0] holds two text blocks before the "
                "reminder is folded into it.",
                "一条 user 消息的每个内容块产生一条聊天消息，而 messages[0] 在提醒折进去之前就已有两个文本块。",
                matches=lambda answer: list(answer) in (["system", "user"], ["system", "user", "user"]),
            ),
            Mistake(
                ["system", "system", "system", "user", "user", "user"],
                "The three system blocks are flattened into one system message: flatten_content joins their texts.",
                "三个 system 内容块被展平成一条 system 消息，flatten_content 把各块的文本连接起来。",
                matches=lambda answer: list(answer)[:2] == ["system", "system"],
            ),
        ),
        hint="translate alone would keep a system message in the middle of the list, and many chat templates refuse "
        "one there. The server runs preprocess first (chapter 01): where does it put that message?",
        explanation="the system prompt becomes the one system message; each text block of messages[0] becomes a "
        "user message of its own; and preprocess folded messages[1] into messages[0] as a <system-reminder> text "
        "block first, so it comes out as a third user message.",
        form="a list of roles, e.g. ['system', 'user']",
        zh={
            "question": "Claude Code 的第一个请求先是一个由三个内容块组成的系统提示词，然后是 messages[0]（user，"
            "两个文本块）和 messages[1]（role 为 system，一个文本块）。服务器的翻译（trace，先 preprocess，"
            "再用默认目标格式）按顺序给出哪些角色？",
            "hint": "单独的 translate 会把 system 消息留在列表中间，而很多聊天模板不接受那里出现 system 消息。"
            "服务器先运行 preprocess（第 01 章），那条消息被放到了哪里？",
            "explanation": "系统提示词变成唯一一条 system 消息，messages[0] 的每个文本块各自变成一条 user 消息。"
            "而 preprocess 事先已把 messages[1] 包成一个 <system-reminder> 文本块，折进 messages[0]，"
            "所以这个文本块成了第三条 user 消息。",
            "form": "角色的列表，例如 ['system', 'user']",
        },
    )
)


def _deferred() -> str:
    body = _first_request()
    [index] = [i for i, tool in enumerate(body["tools"]) if tool.get("defer_loading")]
    traced = trace(body)
    listed = body["tools"][index]["name"] in [tool["function"]["name"] for tool in traced.tools_schema]
    reported = f"tools[{index}].defer_loading" in [loss.path for loss in traced.losses]
    flag_kept = "defer_loading" in json.dumps(traced.tools_schema)
    return "b" if listed and reported and not flag_kept else "?"


add(
    Exercise(
        key="11.deferred",
        question="One of Claude Code's twelve tools, DeferredToolPlaceholder, carries \"defer_loading\": true "
        "(Anthropic's tool search: the schema of a deferred tool is loaded only when a search finds it). What does "
        "the default target make of that tool?",
        choices={
            "a": "It leaves the tool out of tools_schema, since a deferred tool is not offered up front.",
            "b": "It lists the tool like the other eleven; the loss report names the flag it left behind.",
            "c": "It refuses the whole request: the chat_template shape cannot say that a tool is deferred.",
            "d": "It keeps defer_loading inside the function's entry, for the chat template to act on later.",
        },
        expected=_deferred,
        wrong="a",
        feedback={
            "a": "nothing in a tool tells the translation to leave it out, and leaving it out would hide a tool the "
            "client offered. The flag is what cannot be carried.",
            "c": "the default target refuses nothing that it can carry in part: it carries what it can and says what "
            "stayed behind.",
            "d": "that is the openai target, which passes the flag on for an engine that knows it. A chat template "
            "has no such setting: the default target's function entry has name, description and parameters.",
        },
        hint="Tool search is a service of Anthropic's servers. Does a chat template have anything that could load a "
        "schema later?",
        explanation="the tool is listed with its name, description and parameters like any other, and the flag "
        "stays behind (tools[10].defer_loading in the loss report): the model behind a chat template sees every "
        "schema up front. The openai target passes the flag on.",
        zh={
            "question": "Claude Code 的十二个工具之一 DeferredToolPlaceholder 带有 \"defer_loading\": "
            "true（这是 Anthropic 的工具搜索，延迟加载的工具要等搜索找到时才加载 schema），"
            "那么默认目标格式怎样处理这个工具？",
            "choices": {
                "a": "把这个工具排除在 tools_schema 之外，因为延迟加载的工具不会预先提供。",
                "b": "像其他十一个一样列出这个工具，丢失报告点出未进入输出的那个标志。",
                "c": "拒绝整个请求：chat_template 的格式无法表达某个工具是延迟加载的。",
                "d": "把 defer_loading 保留在函数条目里，交给聊天模板去处理。",
            },
            "feedback": {
                "a": "工具里没有任何东西要求翻译去掉这个工具，而去掉这个工具会把客户端提供的工具藏起来。"
                     "承载不了的只是那个标志。",
                "c": "只要能承载一部分，默认目标格式就不拒绝，而是承载能承载的部分，并说明哪些未进入输出。",
                "d": "那是 openai 目标格式，会把标志传给认识这个标志的引擎。聊天模板没有这样的设置，"
                "默认目标格式的函数条目只有 name、description 和 parameters。",
            },
            "hint": "工具搜索是 Anthropic 服务器提供的服务。聊天模板有没有什么东西能在之后再加载 schema？",
            "explanation": "这个工具和其他工具一样，带着名字、描述和参数被列出，"
            "而那个标志未进入输出（丢失报告中的 tools[10].defer_loading）。"
            "所以聊天模板背后的模型一开始就能看到每个 schema。openai 目标格式会把这个标志传下去。",
        },
    )
)


def _reach() -> list[str]:
    body = _first_request()
    left = {loss.path for loss in trace(body).losses}
    return sorted(key for key in body if key not in left)


add(
    Exercise(
        key="11.cc_reach",
        question="Claude Code's request has ten top-level fields: model, messages, system, tools, metadata, "
        "max_tokens, thinking, context_management, output_config, stream. Which of them reach the default "
        "target's output (translated or tools_schema)? (A list; order does not matter.)",
        expected=_reach,
        mistakes=(
            Mistake(
                ["messages", "system", "thinking", "tools"],
                "thinking is a setting of the sampling: a chat template's switch for thinking is a keyword argument "
                "of the call, not a message or a tool.",
                "thinking 是采样的一项设置，聊天模板的 thinking 开关是调用时的一个关键字参数，既不是消息也不是工具。",
                matches=lambda answer: "thinking" in _named(answer),
            ),
            Mistake(
                ["messages", "tools"],
                "The system prompt reaches the output too: it becomes the first chat message.",
                "系统提示词也进入了输出，成为第一条聊天消息。",
                matches=lambda answer: _named(answer) == {"messages", "tools"},
            ),
            Mistake(
                ["messages", "model", "system", "tools"],
                "model picks which model samples; it is read by the server, not written into the messages or the "
                "tool schema.",
                "model 决定由哪个模型来采样。这个字段由服务器读取，不会写进消息或工具 schema。",
                matches=lambda answer: "model" in _named(answer) or "max_tokens" in _named(answer) or "stream" in _named(answer),
            ),
        ),
        any_order=True,
        hint="Ask of each field: is it the conversation, a tool on offer, or a setting of the sampling? A chat "
        "template's switch for thinking is a keyword argument of the call, not a message.",
        explanation="only the conversation and the tools on offer: system and messages become translated, tools "
        "becomes tools_schema. The other seven are settings or bookkeeping, and the loss report names each one with "
        "its reason.",
        form="a list of field names, e.g. ['messages']",
        zh={
            "question": "Claude Code 的请求有十个顶层字段：model、messages、system、tools、metadata、max_tokens、"
            "thinking、context_management、output_config、stream。其中哪些进入了默认目标格式的输出（translated 或 "
            "tools_schema）？",
            "hint": "逐个字段问一问，这个字段是对话、提供的工具，还是采样的一项设置？"
            "聊天模板的 thinking 开关是调用时的一个关键字参数，不是一条消息。",
            "explanation": "只有对话和提供的工具进入了输出，system 和 messages 变成 translated，tools 变成 tools_schema。"
            "其余七个是设置或元数据，丢失报告逐一点出并说明原因。",
            "form": "字段名的列表，例如 ['messages']",
        },
    )
)
