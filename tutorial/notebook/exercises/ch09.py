"""Chapter 09, the way back: predictions about the reply, the stream, the echo and the wire
direction. Every right answer is computed from `way_back` and `round_trip`."""

from __future__ import annotations

import copy
from typing import Any

from ...errors import RequestError
from ...examples import readme_request
from ...round_trip import response_to_message, to_anthropic
from ...translation import translate
from ...way_back import build_reply, counting_ids, sse_events
from . import Exercise, add

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


def _same_reply(answer: Any, expected: Any) -> bool:
    if not isinstance(answer, dict) or set(answer) != {"order", "stop_reason"}:
        return False
    order = answer["order"]
    return (
        isinstance(order, (list, tuple))
        and [str(kind).strip().lower() for kind in order] == expected["order"]
        and isinstance(answer["stop_reason"], str)
        and answer["stop_reason"].strip().lower() == expected["stop_reason"]
    )


add(
    Exercise(
        key="09.reply",
        question="build_reply(model_output, 'stop') turns reasoning, text and one tool call into Anthropic "
        "blocks. In what order do the block types come out, and what is the stop_reason?",
        expected=_order_and_reason,
        wrong={"order": ["thinking", "text", "tool_use"], "stop_reason": "end_turn"},
        hint="The engine said 'stop', but the reply asks the client to do something. Which stop reason tells a "
        "client that it has tools to run?",
        explanation="thinking, then text, then one tool_use per call, always in that order; and the stop reason "
        "is tool_use whenever the reply holds calls, whatever ended the sampling.",
        same=_same_reply,
        form="a dict {'order': ['<type>', ...], 'stop_reason': '<reason>'}",
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
        wrong=5,
        hint="Each block is opened, filled and closed by events of its own. Count those per block, then add "
        "what opens and what closes the message (the stop reason needs an event of its own).",
        explanation="1 message_start, then 3 events per block (content_block_start, one content_block_delta, "
        "content_block_stop), then message_delta (with the stop reason) and message_stop: 1 + 9 + 2 = 12.",
        form="a whole number",
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
    return "c" if not kept and translated[5] == recorded else "?"


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
            "c": "It is dropped from both, so the echoed turn equals the recorded manager_message.",
            "d": "It moves into the tool message's text, so the model can still see which call it was.",
        },
        feedback={
            "a": "that is the openai target. The default one keeps no id at all: the record it must match has "
            "none (the model never wrote it).",
            "b": "translation never invents ids; only the wire direction (to_anthropic) mints them, and only "
            "when it has none.",
            "d": "the tool message carries only the result's text; nothing is added to what the tool wrote.",
        },
        hint="Chapter 02 showed what tool_call_dict takes from a tool_use block, and what a tool message keeps "
        "of a tool_result.",
        explanation="the default target drops the id on the call and on the result, so the echoed turn comes "
        "out == manager_message, which is how the trajectory store finds its own turn again.",
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
        wrong="b.md",
        hint="Without ids, to_anthropic mints new ones and pairs the tool messages with the calls of the "
        "assistant message before them by position: first result, first call.",
        explanation="the first result is paired with the first call, which read a.md, so the content of b.md "
        "now claims to answer the a.md call. Nothing fails: the request is well formed and says something the "
        "client never said.",
        form="a file name",
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
        wrong=["text", "image", "text", "document"],
        hint="Both image_url parts are images, whatever kind of URL they carry: one becomes a base64 source, "
        "the other a url source. What does the API call a block that carries a PDF?",
        explanation="text, image (base64 source, split out of the data: URL), image (url source, fetched by "
        "Anthropic) and document (the PDF, with its file name as title).",
        same=lambda answer, expected: isinstance(answer, (list, tuple)) and [str(a).strip().lower() for a in answer] == expected,
        form="a list of block types, e.g. ['text', ...]",
    )
)
