"""Chapter 09, the way back: predictions about the reply, the stream, the echo and the wire
direction. Every right answer is computed from `way_back` and `round_trip`."""

from __future__ import annotations

import copy
import re
from typing import Any

from ...errors import RequestError
from ...examples import readme_request
from ...round_trip import response_to_message, to_anthropic
from ...translation import translate
from ...way_back import build_reply, counting_ids, sse_events
from . import Exercise, Mistake, add

MODEL_OUTPUT: dict = {
    "reasoning": "README 只有标题和一句介绍。用户要一句话概括，先看看 pyproject.toml 里的项目描述。",
    "text": "我再看一下项目配置。",
    "tool_uses": [{"name": "read_file", "input": {"path": "pyproject.toml"}}],
    "matched_stop": None,
}
"""The model output of section 1 (made up for the chapter)."""


def _reply() -> tuple[list[dict], str, dict]:
    return build_reply(copy.deepcopy(MODEL_OUTPUT), "stop", new_id=counting_ids())


def _order_and_reason() -> dict:
    blocks, reason, _ = _reply()
    return {"order": [block["type"] for block in blocks], "stop_reason": reason}


add(
    Exercise(
        key="09.reply",
        question="build_reply(model_output, 'stop') turns reasoning, text and one tool call into Anthropic "
        "blocks. In what order do the block types come out, and what is the stop_reason?",
        expected=_order_and_reason,
        mistakes=(
            Mistake(
                {"order": ["thinking", "text", "tool_use"], "stop_reason": "end_turn"},
                "The order is right. The engine said 'stop', but the reply asks the client to do something: which "
                "stop reason tells a client that it has tools to run?",
                "顺序对了，引擎说的虽是 'stop'，但这个回复要求客户端去做一件事，那么哪个停止原因告诉客户端有工具要运行？",
                matches=lambda answer: answer["stop_reason"] in ("end_turn", "stop"),
                right=("order",),
            ),
            Mistake(
                {"order": ["text", "thinking", "tool_use"], "stop_reason": "tool_use"},
                "The stop reason is right. The reasoning came before the text in the model's output, and a reply "
                "keeps that order: thinking leads.",
                "停止原因对了，而模型输出中推理在文本之前，回复保持这个顺序，由 thinking 打头。",
                matches=lambda answer: list(answer["order"])[:2] == ["text", "thinking"],
                right=("stop_reason",),
            ),
            Mistake(
                {"order": ["reasoning", "text", "tool_use"], "stop_reason": "tool_use"},
                "Use the Anthropic block types: the engine's reasoning becomes a block of another name.",
                "请用 Anthropic 的内容块类型，引擎的 reasoning 会变成另一个名字的内容块。",
                matches=lambda answer: "reasoning" in answer["order"],
            ),
        ),
        hint="Block types as Anthropic names them, in the order they come out, and the stop reason a client reads.",
        explanation="thinking, then text, then one tool_use per call, always in that order; and the stop reason "
        "is tool_use whenever the reply holds calls, whatever ended the sampling.",
        form="a dict {'order': ['<type>', ...], 'stop_reason': '<reason>'}",
        zh={
            "question": "build_reply(model_output, 'stop') 把推理内容、文本和一次工具调用变成 Anthropic 内容块，"
            "这些内容块的类型按什么顺序出来？stop_reason 是什么？",
            "hint": "按 Anthropic 的叫法写出内容块类型，按出来的顺序排列，再写出客户端读到的停止原因。",
            "explanation": "先 thinking，再 text，然后每次调用一个 tool_use，顺序总是如此，而只要回复里有调用，"
            "停止原因就是 tool_use，不管采样是因为什么结束的。",
            "form": "一个字典 {'order': ['<类型>', ...], 'stop_reason': '<原因>'}",
        },
    )
)


def _event_count() -> int:
    blocks, reason, _ = _reply()
    return len(sse_events(blocks, reason, message_id="msg_0", model="local-model", input_tokens=100, output_tokens=30))


add(
    Exercise(
        key="09.events",
        question="The same reply as a stream (sse_events): how many events for its three blocks, from "
        "message_start to message_stop?",
        expected=_event_count,
        mistakes=(
            Mistake(
                5,
                "One event per block plus start and stop is too few: each block is opened, filled and closed by "
                "events of its own.",
                "每个内容块一个事件、再加开始和结束，这太少了，因为每个内容块都由自己的事件打开、填充、关闭。",
            ),
            Mistake(
                11,
                "One short. After the last block, the stop reason travels in an event of its own before "
                "message_stop.",
                "少了一个，因为最后一个内容块之后、message_stop 之前，停止原因要用单独一个事件传送。",
            ),
            Mistake(
                9,
                "Those are the blocks' events alone. Add what opens the message and what closes it (with the stop "
                "reason).",
                "这只是各内容块自己的事件，还要加上打开整条消息的事件，以及关闭整条消息的事件（带停止原因）。",
            ),
        ),
        hint="Each block is opened, filled and closed by events of its own. Count those per block, then add "
        "what opens and what closes the message (the stop reason needs an event of its own).",
        explanation="1 message_start, then 3 events per block (content_block_start, one content_block_delta, "
        "content_block_stop), then message_delta (with the stop reason) and message_stop: 1 + 9 + 2 = 12.",
        form="a whole number",
        zh={
            "question": "同一个回复以事件流发出（sse_events）：从 message_start 到 message_stop，"
            "三个内容块一共产生多少个事件？",
            "hint": "每个内容块都由自己的事件打开、填充、关闭，所以先数每个内容块的事件，"
            "再加上打开和关闭整条消息的事件（停止原因需要单独一个事件）。",
            "explanation": "1 个 message_start，然后每个内容块 3 个事件（content_block_start、"
            "一个 content_block_delta、content_block_stop），再加上 message_delta（带停止原因）和 message_stop，"
            "合计 1 + 9 + 2 = 12。",
            "form": "一个整数",
        },
    )
)


def _next_body() -> dict:
    blocks, _, _ = _reply()
    body = readme_request()
    body["messages"] += [
        {"role": "assistant", "content": blocks},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": blocks[-1]["id"], "content": "[project]"}]},
    ]
    return body


def _what_becomes_of_the_id() -> str:
    body = _next_body()
    translated = translate(body)[0]
    _, _, recorded = _reply()
    kept = "toolu_0" in repr(translated)
    return "d" if not kept and translated[5] == recorded else "?"


add(
    Exercise(
        key="09.echo_id",
        question="The CLI sends the reply back as history, with the id toolu_0 on the call and on the result "
        "that answers it. What becomes of toolu_0 when the default target translates the next request?",
        expected=_what_becomes_of_the_id,
        wrong="a",
        choices={
            "a": "It stays on the call and on the tool message, so the template can pair them up.",
            "b": "It is replaced by a fresh id, since a minted id is only valid for one response.",
            "c": "It moves into the tool message's text, so the model can still see which call it was.",
            "d": "It is dropped from both, so the echoed turn equals the recorded manager_message.",
        },
        feedback={
            "a": "that is the openai target. The default one keeps no id at all: the record it must match has "
            "none (the model never wrote it).",
            "b": "translation never invents ids; only the wire direction (to_anthropic) mints them, and only "
            "when it has none.",
            "c": "the tool message carries only the result's text; nothing is added to what the tool wrote.",
        },
        hint="Chapter 02 showed what tool_call_dict takes from a tool_use block, and what a tool message keeps "
        "of a tool_result.",
        explanation="the default target drops the id on the call and on the result, so the echoed turn comes "
        "out == manager_message, which is how the trajectory store finds its own turn again.",
        zh={
            "question": "CLI 把回复作为对话历史发回来，调用和回答这次调用的结果上都带着 id toolu_0，"
            "那么默认目标格式翻译下一个请求时，toolu_0 会怎样？",
            "choices": {
                "a": "这个 id 留在调用和 tool 消息上，让模板可以把两者配对。",
                "b": "这个 id 被换成一个新 id，因为生成的 id 只在一次回复里有效。",
                "c": "这个 id 被移进 tool 消息的文本里，好让模型仍能看出回答的是哪次调用。",
                "d": "两处都丢掉，回传的历史轮次于是等于记录的 manager_message。",
            },
            "feedback": {
                "a": "那是 openai 目标格式的做法，默认目标格式完全不保留 id，因为要对上的记录里没有 id（模型从没写过）。",
                "b": "翻译从不生成 id，只有回到 Anthropic 的方向（to_anthropic）会生成 id，而且只在没有 id 时才生成。",
                "c": "tool 消息只携带结果的文本，工具写的内容之外，什么也不会加进去。",
            },
            "hint": "第 02 章展示过 tool_call_dict 从 tool_use 块里取什么，以及 tool 消息保留 tool_result "
            "的哪些内容。",
            "explanation": "默认目标格式丢掉调用上和结果上的 id，"
            "所以回传的历史轮次与 manager_message 用 == 比较时相等，轨迹存储正是靠这一点找回自己记录的那一轮。",
        },
    )
)

TWO_CALLS: dict = {
    "messages": [
        {"role": "user", "content": "比较 a.md 和 b.md。"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {"path": "a.md"}},
                {"type": "tool_use", "id": "toolu_b", "name": "read_file", "input": {"path": "b.md"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_b", "content": "B 的内容"},
                {"type": "tool_result", "tool_use_id": "toolu_a", "content": "A 的内容"},
            ],
        },
    ]
}
"""Two calls whose results come back in the other order (section 3.3)."""


def _path_answered_by_b() -> str:
    back = to_anthropic(translate(copy.deepcopy(TWO_CALLS))[0])
    blocks = [b for m in back["messages"] if isinstance(m["content"], list) for b in m["content"]]
    paths = {b["id"]: b["input"]["path"] for b in blocks if b["type"] == "tool_use"}
    first_result = next(b for b in blocks if b["type"] == "tool_result")
    return paths[first_result["tool_use_id"]]


add(
    Exercise(
        key="09.out_of_order",
        question="The client answers the second call (b.md) first. After the default target's round trip "
        "(to_anthropic(translate(two_calls)[0])), which file does the result 'B 的内容' claim to answer?",
        expected=_path_answered_by_b,
        mistakes=(
            Mistake(
                "b.md",
                "That is what the client meant, but the default target keeps no ids: without them to_anthropic "
                "pairs results with calls by position.",
                "那是客户端的本意，但默认目标格式不保留 id，而没有 id 时，to_anthropic 按位置把结果和调用配对。",
            ),
            Mistake(
                "toolu_a",
                "Answer with a file name, the path the paired call read.",
                "请用文件名作答，也就是被配对的那次调用读取的路径。",
                matches=lambda answer: isinstance(answer, str) and answer.startswith("toolu"),
            ),
        ),
        hint="Without ids, to_anthropic mints new ones and pairs the tool messages with the calls of the "
        "assistant message before them by position: first result, first call.",
        explanation="the first result is paired with the first call, which read a.md, so the content of b.md "
        "now claims to answer the a.md call. Nothing fails: the request is well formed and says something the "
        "client never said.",
        form="a file name as the call's path writes it, extension included (such as 'notes.md')",
        fits=lambda answer: isinstance(answer, str) and bool(re.fullmatch(r"[^/\\\s]+\.\w+", answer.strip())),
        zh={
            "question": "客户端先回答了第二次调用（b.md）。经过默认目标格式的往返（to_anthropic(translate(two_calls)"
            "[0])）之后，结果 'B 的内容' 声称回答的是哪个文件？",
            "hint": "没有 id 时，to_anthropic 会生成新的 id，"
            "并按位置把 tool 消息与前面那条 assistant 消息中的调用配对，第一个结果对第一次调用。",
            "explanation": "第一个结果与第一次调用配对，而那次调用读的是 a.md，"
            "于是 b.md 的内容现在自称回答 a.md 那次调用，没有任何东西失败，请求格式完好，说的却是客户端从没说过的话。",
            "form": "一个文件名，照调用里的路径写，带扩展名（例如 'notes.md'）",
        },
    )
)


def _audio() -> str:
    spoken = {"role": "user", "content": [{"type": "text", "text": "听一下"}, {"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}}]}
    try:
        to_anthropic([spoken])
    except RequestError as error:
        return "c" if error.location == ("messages", 0, "content", 1) else "?"
    return "a"


add(
    Exercise(
        key="09.audio",
        question="A chat message holds text and an input_audio part. The Messages API accepts no audio. What "
        "should to_anthropic do?",
        expected=_audio,
        wrong="a",
        choices={
            "a": "Send the text and leave the audio out: the rest of the message is still well worth answering.",
            "b": "Replace the audio by a placeholder text, as the default target does for images.",
            "c": "Refuse with an error located at that part: a request without it would say something else.",
            "d": "Send the audio as a document block, the closest block type the API offers.",
        },
        feedback={
            "a": "then the model would summarise a recording it never heard, and nothing anywhere would say why.",
            "b": "a placeholder suits a template that must keep the turn's shape; here a caller can still fix "
            "the request, so telling them is the honest choice.",
            "d": "a document block carries PDFs and text; sending audio bytes in one would be refused by the API "
            "or misread.",
        },
        hint="Compare with the two targets of chapter 08: which kind of stack refuses, and why is that the "
        "better answer when a caller is there to fix the request?",
        explanation="to_anthropic raises RequestError at messages[i].content[j]: dropping the audio would "
        "produce a request that looks fine and means something else.",
        zh={
            "question": "一条聊天消息装着文本和一个 input_audio content part，而 Messages API 不接受音频，"
            "to_anthropic 应该怎么做？",
            "choices": {
                "a": "发送文本，去掉音频，因为消息的其余部分照样值得回答。",
                "b": "用一段占位文本替换音频，就像默认目标格式处理图片那样。",
                "c": "报错拒绝并定位到那个 content part，否则请求的意思就变了。",
                "d": "把音频作为 document 块发送，这是 API 提供的最接近的类型。",
            },
            "feedback": {
                "a": "那样模型就会去概括一段自己从没听过的录音，而且任何地方都不会说明原因。",
                "b": "占位符适合必须保住轮次结构的模板，而这里调用方还能修正请求，所以直接告诉调用方更好。",
                "d": "document 块承载的是 PDF 和文本，用 document 块发送音频字节，要么被 API 拒绝，要么被误读。",
            },
            "hint": "和第 08 章的两种目标格式比较一下，看看哪类系统会拒绝。当有调用方可以修正请求时，"
            "为什么拒绝是更好的答案？",
            "explanation": "to_anthropic 在 messages[i].content[j] 处抛出 RequestError，"
            "因为丢掉音频会产生一个看似正常、意思却不同的请求。",
        },
    )
)

SIGNED: dict = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-example",
    "content": [
        {"type": "thinking", "thinking": "README 很短。先读 pyproject.toml，再用一句话概括。", "signature": "EqQBCkgIBxABGAIiQHN0YW5kLWluIHNpZ25hdHVyZQ=="},
        {"type": "text", "text": "我再看一下项目配置。"},
        {"type": "tool_use", "id": "toolu_01Wq8HkZr3cVt5uYb2nP4xJd", "name": "read_file", "input": {"path": "pyproject.toml"}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 100, "output_tokens": 30},
}
"""A response in the form Anthropic's API sends it, with a made-up signature (section 4.3)."""


def _replayed() -> str:
    kept = response_to_message(copy.deepcopy(SIGNED))
    history = [
        {"role": "user", "content": "读取 README.md 并用一句话概括。"},
        kept,
        {"role": "tool", "tool_call_id": kept["tool_calls"][0]["id"], "content": "[project]"},
    ]
    return "a" if to_anthropic(history)["messages"][1]["content"] == SIGNED["content"] else "?"


add(
    Exercise(
        key="09.replay",
        question="response_to_message keeps a signed Anthropic turn as one chat message (text in content, "
        "thinking in reasoning_content, the blocks saved under 'blocks'). Sent back with to_anthropic, which "
        "version of the turn goes out?",
        expected=_replayed,
        wrong="c",
        choices={
            "a": "The saved blocks, word for word: the thinking, its signature, the text and the call.",
            "b": "A rebuild from content and tool_calls: text and tool_use, with the thinking left out.",
            "c": "A rebuild with the thinking text from reasoning_content and a fresh signature.",
            "d": "The thinking alone: the API only needs the signed reasoning to continue the turn.",
        },
        feedback={
            "b": "that is what happens when the message has no saved blocks. Here it has them, and they win.",
            "c": "no one but Anthropic's servers can make a signature; a made-up one is refused. The saved "
            "signature is the only one that verifies.",
            "d": "the text and the tool call are part of the turn too; the tool result that follows must "
            "answer that very tool_use.",
        },
        hint="Look at what response_to_message saved under 'blocks', and at why a thinking block needs its "
        "signature.",
        explanation="with saved blocks the turn goes back exactly as Anthropic wrote it: same blocks, same "
        "order, same signature. Without them only text and tool calls can be rebuilt.",
        zh={
            "question": "response_to_message 把一个带签名的 Anthropic 轮次保存为一条聊天消息（文本在 content 里，"
            "thinking 在 reasoning_content 里，内容块保存在 'blocks' 下），用 to_anthropic 发回去时，"
            "发出的是这个轮次的哪个版本？",
            "choices": {
                "a": "保存下来的内容块，一字不差地包括 thinking 及其签名、文本和调用。",
                "b": "由 content 和 tool_calls 重建的 text 和 tool_use，不含 thinking。",
                "c": "重建的版本，thinking 文本取自 reasoning_content，配一个新签名。",
                "d": "只有 thinking，因为 API 只需要带签名的推理内容就能继续这一轮。",
            },
            "feedback": {
                "b": "消息里没有保存内容块时才会这样，而这里有保存的内容块，所以以保存的为准。",
                "c": "除了 Anthropic 的服务器，谁也无法生成签名，伪造的签名会被拒绝，"
                "所以保存下来的签名是唯一能通过验证的。",
                "d": "文本和工具调用也是这一轮的一部分，后面的工具结果必须回答的正是那个 tool_use。",
            },
            "hint": "看看 response_to_message 在 'blocks' 下保存了什么，以及 thinking 块为什么需要自己的签名。",
            "explanation": "有保存的内容块时，这一轮原样发回，内容块、顺序和签名都和 Anthropic 写出的一样，"
            "没有保存的内容块时，只能重建文本和工具调用。",
        },
    )
)

CHAT_PARTS: dict = {
    "role": "user",
    "content": [
        {"type": "text", "text": "这张截图和这份 PDF 说的是同一件事吗？"},
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "image_url", "image_url": {"url": "https://example.com/screenshot.png"}},
        {"type": "file", "file": {"filename": "spec.pdf", "file_data": "data:application/pdf;base64,JVBERi0xLjQK"}},
    ],
}
"""A chat-shaped user message with an inline image, an image URL and a PDF (section 4.1)."""


def _block_types() -> list[str]:
    return [block["type"] for block in to_anthropic([copy.deepcopy(CHAT_PARTS)])["messages"][0]["content"]]


add(
    Exercise(
        key="09.parts",
        question="to_anthropic receives a chat user message with [text, image_url (a data: URL), image_url (an "
        "https URL), file (a PDF)]. Which Anthropic block types come out, in order?",
        expected=_block_types,
        mistakes=(
            Mistake(
                ["text", "image", "text", "document"],
                "An https URL does not make a part text: both image_url parts are images, one with a base64 "
                "source, the other with a url source.",
                "https URL 不会让一个 content part 变成文本，两个 image_url content part 都是图片，一个用 base64 来源，"
                "另一个用 url 来源。",
                matches=lambda answer: list(answer)[2] == "text",
            ),
            Mistake(
                ["text", "image", "image", "file"],
                "file is the chat shape's name. What does the Messages API call a block that carries a PDF?",
                "file 是聊天格式的名字，那么 Messages API 把承载 PDF 的内容块叫什么？",
                matches=lambda answer: list(answer)[-1] in ("file", "pdf"),
            ),
            Mistake(
                ["text", "image_url", "image_url", "document"],
                "image_url is the chat shape's part type; the Anthropic block is named otherwise.",
                "image_url 是聊天格式的 content part 类型，Anthropic 的内容块另有名字。",
                matches=lambda answer: "image_url" in answer,
            ),
        ),
        hint="Both image_url parts are images, whatever kind of URL they carry: one becomes a base64 source, "
        "the other a url source. What does the API call a block that carries a PDF?",
        explanation="text, image (base64 source, split out of the data: URL), image (url source, fetched by "
        "Anthropic) and document (the PDF, with its file name as title).",
        form="a list of block types, e.g. ['text', ...]",
        zh={
            "question": "to_anthropic 收到一条聊天格式的 user 消息，content 里依次有四个 content part，分别是 text、"
            "image_url（data: URL）、image_url（https URL）和 file（一个 PDF）。按顺序会产生哪些 Anthropic 内容块类型？",
            "hint": "两个 image_url content part 都是图片，无论带的是哪种 URL，一个变成 base64 来源，另一个变成 url 来源，"
            "那么 API 把承载 PDF 的内容块叫什么？",
            "explanation": "text、image（base64 来源，从 data: URL 中拆出）、image（url 来源，由 Anthropic 获取）和 "
            "document（那个 PDF，文件名作为标题）。",
            "form": "内容块类型的列表，例如 ['text', ...]",
        },
    )
)
