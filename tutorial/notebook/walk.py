"""The stage-by-stage walk of one request, as text: what `python -m tutorial walk` prints.

It is read straight off a `Trace`: for each piece of the body, its input, the helper
calls it went through, and the messages it produced; then the tools path, the
hand-back, and what stays behind. Under `using("zh")` (or `use_language("zh")`)
`walk_text(trace)` writes it in Chinese.
"""

from __future__ import annotations

import json

from ..words import current
from ..errors import format_location
from .show import as_json
from ..watch.losses import reason_in
from ..watch.trace import Trace

# Every line the walk writes, per language ("en" or "zh"; tutorial.words picks which).
TEXT = {
    "en": {
        "title": "Action 2 for target {target!r}: translated, tools_schema = translate(body)",
        "entry": "1. Entry: body, a dict with keys {keys}.",
        "folded": "   preprocess folded a system message from inside the list into a user message.",
        "unchanged": "   preprocess changed nothing (no system message inside the list).",
        "messages": "2. Messages path: translate_messages(body['messages'], body.get('system'))",
        "input": "  input:",
        "direct": "text taken directly, no helper",
        "part": "  {source} -> {roles} ({how})",
        "got": "  {name} got ({path}):",
        "returned": "  and returned:",
        "output": "  output:",
        "all_messages": "   translate_messages returned {count} messages:",
        "tools": "3. Tools path: tools_to_chat_tools(body.get('tools'))",
        "tools_output": "  output (tools_schema):",
        "message_list": "a list of {count}",
        "tool_list": "a list of {count}",
        "hand_back": [
            "4. Hand-back: translate returns (translated, tools_schema) = ({messages}, {tools})",
            "   to BaseAdapter._run_turn as a plain Python return value: no HTTP request is made here.",
            "   Next, Action 3 renders both with the model's chat template into a prompt, and the model's tokenizer",
            "   turns that prompt into token ids (which ids depends on the tokenizer).",
        ],
        "behind": "5. What stays behind:",
        "nothing_behind": "5. What stays behind: nothing.",
        "and": ", ",
    },
    "zh": {
        "title": "目标格式 {target!r} 的 Action 2：translated, tools_schema = translate(body)",
        "entry": "1. 入口：body，一个字典，键为 {keys}",
        "folded": "   preprocess 把列表内部的一条 system 消息折进了一条 user 消息。",
        "unchanged": "   preprocess 没有改动任何内容（列表内部没有 system 消息）。",
        "messages": "2. 消息路径：translate_messages(body['messages'], body.get('system'))",
        "input": "  输入：",
        "direct": "文本直接取用，没有经过辅助函数",
        "part": "  {source} -> {roles}（{how}）",
        "got": "  {name} 收到 {path}：",
        "returned": "  返回：",
        "output": "  输出：",
        "all_messages": "   translate_messages 返回了 {count} 条消息：",
        "tools": "3. 工具路径：tools_to_chat_tools(body.get('tools'))",
        "tools_output": "  输出 tools_schema：",
        "message_list": "{count} 条消息的列表",
        "tool_list": "{count} 个工具的列表",
        "hand_back": [
            "4. 交给调用方：translate 返回 (translated, tools_schema) = ({messages}, {tools})，",
            "   作为普通的 Python 返回值交给 BaseAdapter._run_turn，这一步不发出任何 HTTP 请求。",
            "   接下来，Action 3 用模型的聊天模板把两者渲染成 prompt，再由分词器变成 token id（具体是哪些 id 取决于分词器）。",
        ],
        "behind": "5. 未进入输出的内容：",
        "nothing_behind": "5. 没有未进入输出的内容",
        "and": "、",
    },
}


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


def walk_text(t: Trace) -> str:
    """The walk of trace `t`, written in the current language."""
    w = TEXT[current()]
    lines = [w["title"].format(target=t.target), ""]
    folded = t.preprocessed["messages"] != t.body["messages"]
    lines += [
        w["entry"].format(keys=w["and"].join(t.body)),
        w["folded"] if folded else w["unchanged"],
        "",
        w["messages"],
    ]
    groups: dict[tuple, list] = {}  # one section per system prompt or input message
    for produced in t.produced:
        groups.setdefault(produced.location[:2], []).append(produced)
    for number, (location, parts) in enumerate(groups.items(), start=1):
        outputs = [t.translated[i] for part in parts for i in part.outputs]
        roles = " + ".join(message["role"] for message in outputs)
        lines += ["", f"2.{number} {format_location(location)} -> {roles}", w["input"], _indent(as_json(t.at(location)))]
        for part in parts:
            how = w["and"].join(part.via) if part.via else w["direct"]
            if len(parts) > 1 or part.location != location:
                part_roles = " + ".join(t.translated[i]["role"] for i in part.outputs)
                lines.append(w["part"].format(source=part.source, roles=part_roles, how=how))
            for step in t.steps:
                if step.location[: len(part.location)] == part.location and step.name in part.via:
                    got = w["got"].format(name=step.name, path=step.path)
                    lines += [got, _indent(as_json(step.input)), w["returned"], _indent(as_json(step.output))]
        lines += [w["output"], _indent(as_json(outputs))]
    lines += ["", w["all_messages"].format(count=len(t.translated)), _indent(as_json(t.translated))]
    lines += ["", w["tools"], w["input"], _indent(as_json(t.preprocessed.get("tools")))]
    lines += [w["tools_output"], _indent(as_json(t.tools_schema))]
    tools = "None" if t.tools_schema is None else w["tool_list"].format(count=len(t.tools_schema))
    messages = w["message_list"].format(count=len(t.translated))
    lines += ["", w["hand_back"][0].format(messages=messages, tools=tools), *w["hand_back"][1:], ""]
    lines.append(w["behind"] if t.losses else w["nothing_behind"])
    for loss in t.losses:
        lines += [f"   {loss.path} = {json.dumps(loss.value, ensure_ascii=False)[:80]}", f"      {reason_in(loss.reason)}"]
    return "\n".join(lines) + "\n"
