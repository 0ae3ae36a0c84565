"""The labels the chapters' code cells print, and their Chinese: one catalogue, English → 中文.

A chapter's code is the same in both editions (only `tutorial.use_language(...)` differs), so a
label stays English in the code and is looked up when it is shown:

- `show_json(value, "the reply")`, `side_by_side(..., "blocks (sent to the CLI)", ...)` and
  `check(..., "the block order")` pass their titles through `said`;
- `show_json` also writes the label keys of the value it shows (`{"where": ..., "openai echo": ...}`)
  in the current language; keys that are data (JSON field names, code) are not in `LABELS`;
- a bare `print("dicts equal:", x)` becomes `say("dicts equal:", x)`;
- a label with values in it keeps them as fields: `say("{count} tokens", count=n)`;
- a column of a printed table is padded with `fit(said("family"), 18)`, which counts a Chinese
  character as two columns.

English is printed as it is written; Chinese comes from `LABELS`. `tests/test_catalogue.py` reads
the English chapters' code cells and fails on a label that has no entry here, and on a print
of English words that does not go through `say`.
"""

from __future__ import annotations

import re
from typing import Any

from ..watch import jsondiff
from ..words import current, pad

# English label (as a code cell writes it) → Chinese. `{name}` fields are filled after lookup.
LABELS: dict[str, str] = {
    # --- chapter 01
    "client:": "客户端：",
    "roles:": "角色：",
    "roles after translate:": "translate 之后的角色：",
    "roles after preprocess + translate:": "preprocess + translate 之后的角色：",
    "{count} system turn, first": "{count} 条 system 消息，位于最前",
    "the top-level fields left behind": "未进入输出的顶层字段",
    "message count": "消息条数",
    "the caller's body, untouched": "调用方的请求体，没有被改动",
    # --- chapter 02
    "dicts equal:": "两个字典相等：",
    "JSON text equal:": "两段 JSON 文本相等：",
    "arguments as JSON text:": "arguments 写成 JSON 文本：",
    "the template fails:": "模板出错：",
    "translate_messages returns": "translate_messages 的返回值",
    "is the id anywhere in translated": "translated 中是否有这个 id",
    "the type of arguments": "arguments 的类型",
    "is tool_use_id kept": "tool_use_id 是否保留",
    # --- chapter 03
    "keys before:": "翻译前的键：",
    "keys after:": "翻译后的键：",
    "a past call (translated[2])": "一次过去的调用（translated[2]）",
    "a tool on offer (tools_schema[0])": "一个可供调用的工具（tools_schema[0]）",
    "is the schema passed on as it is": "schema 是否原样传下去",
    "tools_schema without tools": "没有 tools 时的 tools_schema",
    "tools_schema with an empty tools list": "tools 为空列表时的 tools_schema",
    # --- chapter 04
    "{kind} of {parts} with lengths {lengths}": "{kind}，元素类型 {parts}，长度 {lengths}",
    "the lengths of (translated, tools_schema)": "(translated, tools_schema) 的长度",
    # --- chapter 04b
    "The real templates are not fetched; the outputs below are the stored ones. Run:": "真实模板还没有下载，下面是保存下来的输出。请运行：",
    "REFUSED: ": "未渲染：",
    "family": "模型家族",
    "template file (llama.cpp/models/templates/)": "模板文件（llama.cpp/models/templates/）",
    "vocabulary": "词表",
    "the number of families": "模型家族的个数",
    "Llama 3.3 writes the schema inside the first user turn": "Llama 3.3 把 schema 写进第一条 user 消息",
    "(the assistant's text {text} is not in the prompt)": "（prompt 中没有 assistant 的文本“{text}”）",
    "ends with {end!r}": "结尾是 {end!r}",
    "{count} token ids; the first 24 and the 12 around the call:": "{count} 个 token id，下面是前 24 个，以及调用前后的 12 个：",
    "the ids decode back to the prompt": "这些 id 解码后就是 prompt",
    "{count} token ids": "{count} 个 token id",
    "renders it: {text!r}": "渲染为：{text!r}",
    "renders: {text}": "渲染为：{text}",
    "Qwen3 prints the string as it is: the same prompt as with a mapping": "Qwen3 原样输出这个字符串，prompt 与传入字典时相同",
    "templates in the sdist that mention tool_reference:": "sdist 中提到 tool_reference 的模板：",
    "one tool message, [text, tool_reference, text]": "一条 tool 消息，[text, tool_reference, text]",
    "split into runs (the openai target)": "拆成若干段（openai 目标格式）",
    "README example:": "README 示例：",
    "first four messages, id 'toolu_demo':": "前四条消息，id 为 'toolu_demo'：",
    "with the id 'a1b2c3d4e':": "id 改为 'a1b2c3d4e'：",
    "request {n} ({target})": "请求 {n}（{target}）",
    "refused": "拒绝",
    "{count:,} chars": "{count:,} 个字符",
    # --- chapter 05
    "saved to": "已保存到",
    # --- chapter 06
    "a system prompt given as a plain string": "以普通字符串给出的系统提示词",
    "one user message with two text blocks": "一条带两个文本块的 user 消息",
    "an assistant turn that calls two tools": "一个调用两个工具的 assistant 轮次",
    "a user message with a screenshot": "一条带截图的 user 消息",
    # --- chapter 07
    "{preset} | {target} | error: {error} | stale: {stale}": "{preset} | 目标格式 {target} | {error} | {stale}",
    "error:": "错误：",
    "stale:": "已过时：",
    "still shown: {count} messages from the last good request": "仍然显示：上一次成功请求的 {count} 条消息",
    "error: {error} | stale: {stale}": "{error} | {stale}",
    "openai -> {error} | stale: {stale}": "openai -> {error} | {stale}",
    "{count} tokens": "{count} 个 token",
    "refused:": "拒绝：",
    # --- chapter 08
    "where": "位置",
    "lost value": "丢失的值",
    "why": "原因",
    "the list of differing places": "不同之处的列表",
    "the JSON text, parsed back": "JSON 文本解析回来的值",
    "the result's tool_call_id": "结果的 tool_call_id",
    "the losses of each target": "每种目标格式的丢失",
    "reply blocks (sent to the CLI)": "回复的内容块（发给 CLI）",
    "recorded turn": "本轮记录（manager message）",
    "which echo equals the recorded turn": "哪一种回传的历史轮次等于本轮记录",
    "chat_template contents": "chat_template 的各条 content",
    "openai parts": "openai 的各个 content part",
    "who reports the image as lost": "谁把图片报告为丢失",
    "the request the predictions below are judged on": "下面各项预测所依据的请求",
    'the tool messages of translate(search, target="openai")': 'translate(search, target="openai") 中的 tool 消息',
    "roles": "角色",
    "the shared tool_call_id": "共用的 tool_call_id",
    "the runs, in the original order": "各段，按原来的顺序",
    "tool message": "tool 消息",
    "lost": "丢失",
    "the flattened result": "展平后的结果",
    "what the unsplit message shows": "未拆分的消息显示了什么",
    "what the reordered message shows": "调换顺序后的消息显示了什么",
    "what the split shows": "拆分后显示了什么",
    "the original order": "原来的顺序",
    "before the split": "拆分前",
    "after the split": "拆分后",
    "sees": "模型看到",
    "characters in the tool turn": "tool 消息那一段的字符数",
    "ChatML shows the same parts either way": "两种方式下 ChatML 显示的 content part 相同",
    "extra messages": "多出的消息条数",
    "the way back merges the runs into one tool_result": "返回路径把各段合并回一个 tool_result",
    "message counts for a result of one kind of part": "只含一种 content part 的结果各成几条消息",
    "the openai target's prompt": "openai 目标格式的 prompt",
    "the dict, through tojson": "字典经过 tojson",
    "the JSON text, quoted a second time": "JSON 文本又加了一层引号",
    # --- chapter 09
    "where the README example stops: a tool result and a question": "README 示例停在一个工具结果和一个问题上",
    "the reply": "回复",
    "the block order": "内容块的顺序",
    "the signature of local thinking: empty, nobody signed it": "本地 thinking 的 signature：为空，没有人签过名",
    "blocks (sent to the CLI)": "blocks（发给 CLI）",
    "manager_message (recorded)": "manager_message（记录下来）",
    "is the id anywhere in manager_message": "manager_message 中是否有这个 id",
    "the number of events": "事件个数",
    "data.type beside the event name": "data.type 与事件名对照",
    "block 2": "内容块 2",
    "what the client holds after message_stop": "message_stop 之后客户端手里的消息",
    "the blocks rebuilt from the stream": "从事件流重建的内容块",
    "the stop fields": "停止字段",
    "the two messages the CLI added": "CLI 新加的两条消息",
    "next_body['messages'][3] (the echo)": "next_body['messages'][3]（回传的历史轮次）",
    "messages in the next translation": "下一次翻译的消息条数",
    "the earlier history, translated as before": "之前的对话历史，翻译结果不变",
    "the echoed turn": "回传的历史轮次",
    "a translation that keeps the id == manager_message:": "保留 id 的翻译 == manager_message：",
    "both look like toolu_ + 16 hex digits:": "两个 id 都是 toolu_ 加 16 位十六进制数字：",
    "same model output, same id:": "模型输出相同，id 也相同：",
    "openai echo": "openai 回传的历史轮次",
    "where the openai echo differs": "openai 回传的历史轮次不同的位置",
    "the same arguments, once parsed": "解析之后 arguments 相同",
    "which echo matches": "哪一种回传的历史轮次匹配",
    "back": "往返之后",
    "where the openai round trip differs": "openai 往返后不同的位置",
    "each one a lone text block vs its text": "每一处都是单个文本块对应其中的文本",
    "differences other than a lone text block": "单个文本块以外的差异",
    "what else differs": "其余的不同之处",
    "the result points at the call": "结果指向那次调用",
    "the request": "原请求",
    "openai round trip": "openai 往返",
    "chat_template round trip": "chat_template 往返",
    "with ids": "靠 id 配对",
    "by position": "靠位置配对",
    "README example": "README 示例",
    "results out of order": "结果顺序颠倒",
    "next request (our reply)": "带着本包回复的下一个请求",
    "an image": "一张图片",
    "openai: exact": "openai：完全一致",
    "what the openai round trip changes in our reply": "openai 往返改动了本包回复中的哪些地方",
    "our reply, sent back": "本包的回复，发回来之后",
    "the image, by the default target": "默认目标格式下的图片",
    "chat content parts": "聊天格式的 content part 列表",
    "Anthropic blocks": "Anthropic 内容块",
    "block types": "内容块类型",
    "source types": "source 类型",
    "the PDF's file name": "PDF 的文件名",
    "location:": "位置：",
    "where the refusal points": "拒绝指向的位置",
    "native blocks": "原生内容块",
    "the call's id": "调用的 id",
    "arguments as JSON text": "arguments 写成 JSON 文本",
    "the saved blocks": "保存下来的内容块",
    "the assistant turn, as sent back": "发回去的 assistant 轮次",
    "the replayed content": "重放出的 content",
    "the result's tool_use_id": "结果的 tool_use_id",
    "rebuilt from content and tool_calls": "由 content 和 tool_calls 重建",
    "what a rebuild can make": "重建能做出的内容",
    # --- chapter 11
    "listening on {host} · running: {running}": "正在监听 {host} · 运行中：{running}",
    "stop_reason: {stop_reason} · blocks: {blocks}": "stop_reason：{stop_reason} · 内容块：{blocks}",
    "running:": "仍在运行：",
    "{case}:": "{case}：",  # chapter 05's cases, each above its arguments
    "summary:": "摘要：",
    "the body the server received": "服务器收到的请求体",
    "the reply's id names its capture": "回复的 id 指明对应的捕获记录",
    "the server's translation of the README example": "服务器对 README 示例的翻译",
    "headers withheld:": "没有记下值的请求头：",
    "the key anywhere in the capture:": "捕获记录中是否有这个 API 密钥：",
    "the key in any capture": "任何捕获记录中是否有这个 API 密钥",
    "credential headers kept": "保存下来的凭据请求头",
    "trace's output beside the server's": "trace 的输出与服务器的对照",
    "the streamed message, all but its id": "流式返回的消息（id 除外）",
    "three requests, two streamed": "三个请求，其中两个是流式的",
    "the SDK's objects, as they went back": "SDK 的对象，按发回去的原样",
    "the echoed turn and the result, as sent": "回传的历史轮次和结果，按发送的原样",
    "what the default target makes of them": "默认目标格式把这些内容翻译成什么",
    "reply_as_chat_message (kept)": "reply_as_chat_message（保留的）",
    "the echo, by target": "各目标格式回传的历史轮次",
    "which echo equals the kept chat message": "哪一种回传的历史轮次等于保留的聊天消息",
    "the default target's echo beside build_reply's record": "默认目标格式回传的历史轮次与 build_reply 的记录对照",
    "exit code {code} · printed {printed!r} · {count} requests": "退出码 {code} · 输出 {printed!r} · {count} 个请求",
    "characters": "字符数",
    "messages[1] begins": "messages[1] 的开头",
    "the default target's roles": "默认目标格式的角色",
    "the openai target's roles": "openai 目标格式的角色",
    "translate alone, without preprocess": "只用 translate，不经过 preprocess",
    "the folded reminder": "折进去的 reminder",
    "every tool, in order": "每个工具，按顺序",
    "the flag in the loss report": "丢失报告中的这个标记",
    "what reaches the output": "带入输出的内容",
    "lost on the default target only": "只在默认目标格式下丢失",
    "lost on the openai target only": "只在 openai 目标格式下丢失",
    "system and tools, request to request": "system 和 tools，逐个请求对比",
    "messages[2:] (the call and its result)": "messages[2:]（调用及其结果）",
    "what the second request adds to the losses": "第二个请求新增的丢失",
    "where a loss path points: the folded body": "丢失路径指向折叠后的请求体",
    "and": "其余字段",
    "not sent (the body's other top-level fields)": "不发送（请求体的其他顶层字段）",
    "your translator:": "你的翻译器：",
    "the stand-in": "替身",
    "Claude Code request {n}": "Claude Code 请求 {n}",
    "where the stand-in differs": "替身不同的地方",
    "the agent's requests, which carry tools": "智能体的请求（带 tools）",
    "engine not built:": "引擎还没有构建：",
    "llama-server runs {model} and the bridge forwards to it": "llama-server 运行 {model}，桥把请求转发给这个引擎",
    "tool call": "工具调用",
    "the answer": "回答",
    "{name} ({count} tokens):": "{name}（{count} 个 token）：",
    "llama.cpp's files are not fetched:": "llama.cpp 的文件还没有下载：",
    "the same text in both:": "两边文本相同：",
    "{count} token ids; the same in both:": "{count} 个 token id，两边相同：",
    # --- chapter 10 (its tables are written by tutorial/peers; these are its checks)
    "the versions this chapter cites": "本章引用的版本",
    "the number of recorded requests and replies": "录下的请求数和回复数",
    "Slime, SGLang and both of our targets give the same role sequence": "Slime、SGLang 和本包的两种目标格式给出相同的角色序列",
    "vLLM and LiteLLM give another one": "vLLM 和 LiteLLM 给出另一种",
    "vLLM: the tool message first, then one user message with both notes": "vLLM：先是 tool 消息，再是一条带两段附注的 user 消息",
    "a newline between system blocks": "system 块之间用换行连接",
    "vLLM joins the system blocks with nothing": "vLLM 直接拼接 system 块，中间不加任何字符",
    "LiteLLM leaves the blocks as a list of parts": "LiteLLM 把这些块保留为 content part 列表",
    "vLLM keeps only the block after the billing header": "vLLM 只保留计费头之后的那个块",
    "assistant text blocks glued together": "assistant 的文本块直接拼在一起",
    "Slime: one user message per text block": "Slime：每个文本块一条 user 消息",
    "only LiteLLM keeps the signature": "只有 LiteLLM 保留 signature",
    "vLLM calls the field `reasoning`": "vLLM 把这个字段叫作 `reasoning`",
    "every other row has `reasoning_content`": "其他各行都用 `reasoning_content`",
    "SGLang refuses redacted thinking": "SGLang 拒绝 redacted thinking",
    "Slime and vLLM drop it the same way": "Slime 和 vLLM 以同样的方式丢掉 redacted thinking",
    "LiteLLM passes it on": "LiteLLM 把 redacted thinking 传下去",
    "our loss report names the dropped signature": "本包的丢失报告列出了被丢掉的 signature",
    "vLLM signs the same thinking with two different made-up values": "vLLM 给同一段 thinking 生成了两个不同的签名值",
    "LiteLLM sends null": "LiteLLM 发送 null",
    "Slime and SGLang send no signature at all": "Slime 和 SGLang 根本不发送 signature",
    "ours sends the field empty: nobody signed": "本包发送空字段：没有人签过名",
    "vLLM moves the image into a user message": "vLLM 把图片移到一条 user 消息里",
    "Slime and our default target: text plus a placeholder": "Slime 和本包的默认目标格式写成文本加一个占位符",
    "SGLang, LiteLLM and our openai target keep a list of parts in the tool message": "SGLang、LiteLLM 和本包的 openai 目标格式在 tool 消息里保留 content part 列表",
    "no stack carries is_error": "没有哪个系统带上 is_error",
    "tool messages per stack": "每个系统的 tool 消息条数",
    "SGLang: the reference opens a tool message of its own": "SGLang：引用单独开一条 tool 消息",
    "vLLM: the reference comes last, after the joined text": "vLLM：引用放在最后，在拼接好的文本之后",
    "Slime drops the reference": "Slime 丢掉引用",
    "LiteLLM keeps the wire key tool_name": "LiteLLM 保留传输格式里的键 tool_name",
    "LiteLLM writes defer_loading inside the JSON schema": "LiteLLM 把 defer_loading 写进 JSON schema 里",
    "SGLang and vLLM merge it into the system prompt": "SGLang 和 vLLM 把这条提醒并入系统提示词",
    "our openai target merges it as SGLang does": "本包的 openai 目标格式像 SGLang 一样并入",
    "Slime and our preprocess fold it into the user turns the same way": "Slime 和本包的 preprocess 以同样的方式把这条提醒折进 user 消息",
    "Slime keeps it where it was sent": "Slime 把这条提醒保留在发送时的位置",
    "LiteLLM keeps it in place and adds a sentence of its own": "LiteLLM 让这条提醒留在原位，还自己加了一句话",
    "who refuses server-tool history": "谁拒绝带服务端工具的对话历史",
    "who offers web_search as a function tool": "谁把 web_search 作为函数工具提供",
    "LiteLLM: no tools, yet a tool is required": "LiteLLM：没有工具，却要求调用一个工具",
    "every peer passes the stop strings on": "每个真实系统都把停止字符串传下去",
    "Slime samples fewer tokens than the body asks for": "Slime 采样的 token 比请求体要求的少",
    "ours: the setting stays in the body": "本包：这个设置留在请求体里",
    "who reports the stop sequence": "谁报告停止序列",
    "vLLM names the string the model produced": "vLLM 给出模型生成的那个字符串",
    "SGLang leaves stop_sequence out": "SGLang 不写 stop_sequence",
    "a length stop is max_tokens everywhere": "因长度停止时，各处都是 max_tokens",
    "vLLM drops the key": "vLLM 丢掉这个键",
    "who writes an empty string beside tool calls": "谁在工具调用旁边写一个空字符串",
    "SGLang leaves the key out, LiteLLM writes null": "SGLang 不写这个键，LiteLLM 写 null",
    "SGLang and vLLM stream no block at all": "SGLang 和 vLLM 的流式输出里一个块也没有",
    "bodies disagree with streams": "非流式响应体与事件流不一致",
    "ours answers as Slime does": "本包的回答与 Slime 相同",
    "who never refuses": "谁从不拒绝",
    "SGLang refuses all five": "SGLang 五个都拒绝",
    "our openai target refuses where SGLang does, except for 16 (a documented deviation)": "本包的 openai 目标格式在 SGLang 拒绝的地方也拒绝，16 除外（有记录的偏差）",
    "every refusal names the missing input_schema": "每次拒绝都指出缺少 input_schema",
    "who fails to build the body": "谁没能构造出请求体",
    "SGLang replaces the arguments with {}": "SGLang 把 arguments 换成 {}",
    "the same three stream the raw text, which is not JSON": "同样这三个系统以流式发出原始文本，而不是 JSON",
    "our row parses the model output before build_reply (which takes only JSON objects) and keeps unparsable text under _raw_arguments, as Slime does":
        "本包这一行在 build_reply 之前解析模型输出（build_reply 只接受 JSON 对象），无法解析的文本放在 _raw_arguments 下，与 Slime 相同",
    "one sentence for every rule in the table": "表中每条规则各有一句说明",
    "the number of rules the text below names": "下文提到的规则条数",
    "each rule reads the same in every entry": "每条规则在各个条目里写法相同",
    "every entry grouped": "每个条目都归了组",
    "cases where the table and the recorded data disagree": "表与录下的数据不一致的用例",
    # --- chapter 12 (its sheet is written by tutorial/notebook/cheat_sheet.py; these are its checks)
    "every block kind of the protocol has a row": "协议的每种块都有一行",
    "one row per probe, in order": "每个探测一行，按顺序",
    "a refusal is shown, not raised": "拒绝被显示出来，而不是抛出",
    "the dropped pairing id is listed": "被丢掉的配对 id 列了出来",
}

# Labels that are code (a name, a path, an expression): written the same in both languages.
# A label of plain English words that is not here must have an entry in LABELS.
KEPT: frozenset[str] = frozenset(
    {"chat_template", "openai", "translated", "tools_schema", "messages", "tools", "model", "system", "body",
     "blocks", "usage", "POST", "running", "unsplit", "split", "schema", "stop_reason", "message_start",
     "message_delta", "manager_message", "reasoning_content", "path", "value", "reason", "prompt", "arguments",
     "event", "data",  # SSE field names
     "ours: chat_template", "ours: openai",  # chapter 10's row names, keys of its lookups
     "text before", "text after"}  # chapter 08's answer keys: a learner types them
)

_CJK_END = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]$")


# The playground's status fields in Chinese words: Python's None/True/False never stand inside a
# Chinese line (「README 示例 | 目标格式 chat_template | 没有错误 | 结果是最新的」).
STATUS_ZH = {
    "error": lambda value: "没有错误" if value is None else f"错误：{value}",
    "stale": lambda value: {False: "结果是最新的", True: "已过时（显示的是上一次成功的结果）"}.get(value, value),
}


def said(label: str, **fields: Any) -> str:
    """`label` in the current language, its `{fields}` filled in.

    English is `label` itself; Chinese is `LABELS[label]` (the English, when the catalogue
    lacks it: tests/test_catalogue.py keeps that from happening in a chapter), a status field
    (error, stale) said in words."""
    if current() != "zh":
        return label.format(**fields) if fields else label
    text = LABELS.get(label, label)
    fields = {name: STATUS_ZH[name](value) if name in STATUS_ZH and label in LABELS else value for name, value in fields.items()}
    return text.format(**fields) if fields else text


def say(label: str, *values: Any, **fields: Any) -> None:
    """`print(label, *values)` with the label in the current language: `say("dicts equal:", a == b)`.

    After a Chinese colon the values follow without a space (「两个字典相等：True」)."""
    status = {"error:": "error", "stale:": "stale"}.get(label)
    if current() == "zh" and status is not None and len(values) == 1 and not fields:  # 「没有错误」, not 「错误：None」
        print(STATUS_ZH[status](values[0]))
        return
    text = said(label, **fields)
    if not values:
        print(text)
        return
    gap = "" if text.endswith("：") else " "
    print(text + gap + " ".join(str(value) for value in values))


def labelled(value: Any) -> Any:
    """`value` with every key that is a label (a key of LABELS) written in the current language,
    at any depth.

    Used by `show_json`: `{"where": ..., "openai echo": ...}` shows the keys "位置" and
    "openai 回传的历史轮次" in Chinese. Keys that are data are left alone (no JSON field name is a label;
    a test checks the package's example bodies for it)."""
    if current() != "zh":
        return value
    if value is jsondiff.ABSENT:
        return value.text()
    if isinstance(value, dict):
        return {(LABELS[key] if isinstance(key, str) and key in LABELS else key): labelled(item) for key, item in value.items()}
    if isinstance(value, list):
        return [labelled(item) for item in value]
    return value


def fit(text: str, width: int) -> str:
    """`text` padded with spaces to `width` columns, a Chinese character counting two: a
    column of a printed table lines up in both languages (`f"{text:<18}"` does not)."""
    return pad(text, width)


def title_colon(title: str) -> str:
    """The colon after a display title: full-width after Chinese, half-width after code."""
    return "：" if _CJK_END.search(title) else ":"
