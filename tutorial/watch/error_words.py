"""The lesson's located errors in Chinese.

A `RequestError` is written in English by the lesson (`error.problem`, the contract's words,
which programs and tests compare). A Chinese reader meets the same error with its reason in
Chinese and its location as it is, since the location names JSON:
`messages[0].content[0].tool_use_id: 是必填项（tool_result 要写明它回答的是哪个 tool_use）`.

`problem_in(problem, lang)` says an English problem in `lang`. It reads the problem against
the rules below, in order; a rule's named groups ending in `_p` are problems themselves
(said again), those ending in `_w` are looked up in `WORDS`, the rest are values (type
names, quoted values, numbers) kept as they are. `install()` makes `str(error)` follow the
current language (`tutorial.use_language`); the server and the command line, which know
the reader's language, call `message_in(error, lang)`.

`tests/test_errors.py` checks that every problem the package can raise has a Chinese form.
"""

from __future__ import annotations

import re
from typing import Optional

from ..errors import RequestError, format_location
from . import language

# Words that stand inside a problem: where a block goes, what a text is called.
WORDS = {
    "a user message": "user 消息",
    "an assistant message": "assistant 消息",
    "a tool_result": "tool_result",
    "a string": "字符串",
    "an object": "JSON 对象",
    "the JSON text": "JSON 文本",
    "the arguments": "arguments 的 JSON 文本",
    "the request body": "请求体",
    "the body": "请求体",
    "stdin": "标准输入",
    "the Chat Completions message shape has no document part":
        "Chat Completions 的消息格式没有 document 类型的 content part",
    "encrypted reasoning can only be replayed to Anthropic's servers": "加密的推理内容只能原样发回 Anthropic 的服务器",
    "server tools run on Anthropic's servers, not on this engine": "服务器工具在 Anthropic 的服务器上运行，不在这个引擎上",
    "the openai target does not know this block type": "openai 目标格式不认识这种内容块类型",
    "an uploaded file's id means nothing to Anthropic": "上传文件的 id 对 Anthropic 没有意义",
    "it is required": "它是必填项",
    "a tool_result names the tool_use it answers": "tool_result 要写明它回答的是哪个 tool_use",
    "inside messages, 'system' is accepted too": "在 messages 里也接受 'system'",
    "an image needs a base64, url or file source": "图片需要 base64、url 或 file 类型的 source",
    "a tool_use's input is a JSON object": "tool_use 的 input 是 JSON 对象",
    "a tool's input_schema is a JSON Schema object": "工具的 input_schema 是 JSON Schema 对象",
}

_SURROGATE = r"it holds a lone surrogate \(half of a UTF-16 pair\)"
_SURROGATE_ZH = "其中有孤立的代理项（UTF-16 代理对的一半）"
_VALUE = r"(?P<{}>.+?)"  # a value shown in the problem: a quoted string, a number, a type name

# (English, Chinese): the English is a regular expression matched against the whole problem.
RULES: tuple[tuple[str, str], ...] = (
    # A problem followed by a hint in parentheses (the contract's wording.py).
    (r"(?P<problem_p>.+) \((?P<hint_w>a tool_result names the tool_use it answers|inside messages, 'system' is "
     r"accepted too|an image needs a base64, url or file source|a tool_use's input is a JSON object|a tool's "
     r"input_schema is a JSON Schema object)\)", "{problem_p}（{hint_w}）"),
    # The contract (contract/wording.py, contract/checking.py).
    (r"is required", "是必填项"),
    (r"does not match the request contract", "不符合请求契约"),
    (r"must be true or false, got (?P<got>\w+)", "必须是 true 或 false，实际是 {got}"),
    (r"must be a content block: an object with a string 'type', got (?P<got>\w+)",
     "必须是内容块，即带字符串 'type' 的 JSON 对象，实际是 {got}"),
    (r"has unknown type (?P<tag>.+?) \(expected (?P<expected>.+)\)", "的类型 {tag} 未知（可用的类型：{expected}）"),
    (r"the request body must be a JSON object, got (?P<got>\w+)", "请求体必须是 JSON 对象，实际是 {got}"),
    (r"has a key of type (?P<got>\w+): JSON object keys are strings", "有一个 {got} 类型的键，而 JSON 对象的键只能是字符串"),
    (rf"is a key that is not valid Unicode: {_SURROGATE}, and the contract can only match keys that are text",
     f"这个键不是有效的 Unicode：{_SURROGATE_ZH}，而契约只能匹配文本形式的键"),
    (rf"must be valid Unicode text, got (?P<got>.+): {_SURROGATE}", f"必须是有效的 Unicode 文本，实际是 {{got}}：{_SURROGATE_ZH}"),
    (r"contains itself \(a cycle\): a JSON value cannot refer back to itself", "包含它自身（形成循环），而 JSON 值不能引用自己"),
    (r"contains itself \(a cycle\): a JSON value cannot refer back to itself, got (?P<got>\w+)",
     "包含它自身（形成循环），而 JSON 值不能引用自己（这里是 {got}）"),
    # Free values and JSON text (limits.py).
    (r"is an integer of more than (?P<n>\d+) digits, longer than Python writes as JSON text",
     "是超过 {n} 位的整数，Python 无法把它写成 JSON 文本"),
    (r"must be a finite number: JSON has no NaN or Infinity", "必须是有限的数，JSON 里没有 NaN 和 Infinity"),
    (r"must be a JSON value \(object, array, string, number, true, false or null\), got (?P<got>\w+)",
     "必须是 JSON 值（对象、数组、字符串、数字、true、false 或 null），实际是 {got}"),
    (r"nests deeper than (?P<n>\d+) levels of objects and arrays, the limit here", "对象和数组嵌套超过 {n} 层，超出了这里的上限"),
    (r"holds more than (?P<n>[\d,]+) values \(counted as its JSON text would write them\)",
     "包含超过 {n} 个值（按 JSON 文本的写法计数）"),
    (r"(?P<name_w>.+?) is larger than (?P<mb>\d+) MB \((?P<size>[\d,]+) bytes\), the Messages API's request limit",
     "{name_w}超过 {mb} MB（{size} 字节），这是 Messages API 的请求上限"),
    (r"(?P<name_w>.+?) is not UTF-8: (?P<why>.+) at byte (?P<at>\d+)", "{name_w}不是 UTF-8 文本（第 {at} 个字节：{why}）"),
    (r"(?P<name_w>.+?) is not valid JSON: (?P<json_j>.+) at line (?P<line>\d+), column (?P<column>\d+)",
     "{name_w}不是有效的 JSON：第 {line} 行，第 {column} 列，{json_j}"),
    (r"(?P<name_w>.+?) nests too deeply for Python's JSON reader", "{name_w}嵌套太深，Python 的 JSON 读取器无法读取"),
    (r"(?P<name_w>.+?) nests deeper than (?P<n>\d+) levels of objects and arrays \(at line (?P<line>\d+), "
     r"column (?P<column>\d+)\)", "{name_w}的对象和数组嵌套超过 {n} 层（第 {line} 行，第 {column} 列）"),
    (r"(?P<name_w>.+?) has an integer of more than (?P<n>\d+) digits \(at line (?P<line>\d+), column (?P<column>\d+)\)",
     "{name_w}中有超过 {n} 位的整数（第 {line} 行，第 {column} 列）"),
    (r"(?P<name_w>.+?) is not valid JSON: (?P<why>.+)", "{name_w}不是有效的 JSON：{why}"),
    (r"the content nests deeper than (?P<n>\d+) levels of blocks", "内容块嵌套超过 {n} 层"),
    # The openai target (openai_target.py).
    (r"a block of type (?P<kind>.+?) cannot be carried in (?P<where_w>a user message|an assistant message|a "
     r"tool_result): it belongs in (?P<places_w>.+)", "{where_w}中不能携带类型为 {kind} 的内容块：它应当出现在{places_w}中"),
    (r"a block of type (?P<kind>.+?) cannot be carried in (?P<where_w>a user message|an assistant message|a "
     r"tool_result): (?P<why_w>.+)", "{where_w}中不能携带类型为 {kind} 的内容块：{why_w}"),
    (r"is required: a tool_reference names the tool whose schema it loads", "是必填项：tool_reference 要写明加载哪个工具的 schema"),
    (r"is required for a custom tool by the openai target \(the function needs parameters\)",
     "是必填项：openai 目标格式要求自定义工具提供它（function 需要 parameters）"),
    # From chat messages back to a request (round_trip.py).
    (r"a system message's content must be a string or a list of text parts, got (?P<got>\w+)",
     "system 消息的 content 必须是字符串或 text 类型的 content part 列表，实际是 {got}"),
    (r"a (?P<kind>.+?) part has no Anthropic equivalent \(refused, not dropped\)",
     "{kind} 类型的 content part 在 Anthropic 格式中没有对应物（拒绝，而不是静默丢弃）"),
    (r"an assistant (?P<kind>.+?) part has no Anthropic equivalent",
     "assistant 消息中 {kind} 类型的 content part 在 Anthropic 格式中没有对应物"),
    (r"must be system, user, assistant or tool, got (?P<got>.+)", "必须是 system、user、assistant 或 tool，实际是 {got}"),
    (r"an input_audio part cannot be sent: the Anthropic Messages API accepts no audio",
     "input_audio 类型的 content part 无法发送：Anthropic Messages API 不接受音频"),
    (r"is required and must be a string", "是必填项，且必须是字符串"),
    (r"an image_url part needs a URL string", "image_url 类型的 content part 需要字符串形式的 URL"),
    (r"a data URL must be base64: data:<media_type>;base64,<data>", "data URL 必须是 base64 编码：data:<media_type>;base64,<data>"),
    (r"a file part needs a file object with file_data", "file 类型的 content part 需要一个带 file_data 的 file 对象"),
    (r"a file part must carry its data as a data URL \((?P<why_w>.+)\)", "file 类型的 content part 必须以 data URL 携带数据（{why_w}）"),
    (r"only a PDF \(data:application/pdf;base64,\.\.\.\) becomes a document",
     "只有 PDF（data:application/pdf;base64,...）能变成 document"),
    (r"a text part needs a string text", "text 类型的 content part 需要字符串形式的 text"),
    (r"a tool message without tool_call_id must follow an assistant message with a call left to answer",
     "没有 tool_call_id 的 tool 消息必须跟在一条还有未回答调用的 assistant 消息之后"),
    (r"a saved tool_use block needs its string id", "保存下来的 tool_use 块需要字符串形式的 id"),
    (r"a tool call needs a function: an object with a string name", "工具调用需要 function：一个带字符串 name 的 JSON 对象"),
    (r"a tool call needs a function with a string name", "工具调用的 function 需要字符串形式的 name"),
    (r"a function tool needs a function: an object with a string name", "function 工具需要 function：一个带字符串 name 的 JSON 对象"),
    (r"a function tool needs a function with a string name", "function 工具的 function 需要字符串形式的 name"),
    (r"is JSON text whose value at (?P<at>\S+) (?P<inner_p>.+)", "是 JSON 文本，其中 {at} 处的值{inner_p}"),
    (r"the response must be an object, got (?P<got>\w+)", "响应必须是 JSON 对象，实际是 {got}"),
    (r"an error response carries no message: (?P<error>.+)", "错误响应里没有消息：{error}"),
    (r"must be (?P<wanted_w>a string|an object) in a (?P<kind>.+?) block", "在 {kind} 块中必须是{wanted_w}"),
    # From the model's output to a reply (way_back.py) and the engine's answer (serve/forward.py).
    (r"must be a function that returns a fresh id, got (?P<got>\w+)", "必须是返回新 id 的函数，实际是 {got}"),
    (r"must return a string id, returned (?P<got>\w+) for tool_uses\[(?P<i>\d+)\]",
     "必须返回字符串形式的 id，却为 tool_uses[{i}] 返回了 {got}"),
    (r"the parsed model output must be an object, got (?P<got>\w+)", "解析后的模型输出必须是 JSON 对象，实际是 {got}"),
    (r"must be a string \(or a stop token id\), got (?P<got>\w+)", "必须是字符串（或停止 token 的 id），实际是 {got}"),
    (r"must be an object with name and input, not (?P<got>\w+)", "必须是带 name 和 input 的 JSON 对象，而不是 {got}"),
    (r"must be an object \(parse the model's JSON arguments first\), got (?P<got>\w+)",
     "必须是 JSON 对象（先解析模型给出的 JSON 参数），实际是 {got}"),
    (r"must be a non-negative integer, got (?P<got>.+)", "必须是非负整数，实际是 {got}"),
    (r"a reply streams text, thinking and tool_use blocks, not (?P<got>.+)", "回复只以流式发送 text、thinking 和 tool_use 块，不发送 {got}"),
    (r"must be a string in a (?P<kind>\w+) block", "在 {kind} 块中必须是字符串"),
    (r"must be an object in a tool_use block", "在 tool_use 块中必须是 JSON 对象"),
    (r"must be an object with type 'base64' \(media_type, data\), 'url' \(url\) or 'file' \(file_id\)",
     "必须是 type 为 'base64'（带 media_type、data）、'url'（带 url）或 'file'（带 file_id）的 JSON 对象"),
    (r"is not the start of a JSON object \((?P<why>.+)\)", "不是一个 JSON 对象的开头（{why}）"),
    (r"is not valid JSON \((?P<why>.+)\)", "不是有效的 JSON（{why}）"),
    # "must be <what>, got <type>": the many checks of one value's type.
    (r"must encode a JSON object \(a tool_use input\), got (?P<got>\w+)", "必须是一个 JSON 对象（即 tool_use 的 input）的文本，实际是 {got}"),
    (r"must be (?P<what_t>.+?), got (?P<got>.+)", "必须是{what_t}，实际是 {got}"),
    (r"must be (?P<what_t>.+)", "必须是{what_t}"),
)

# What a value must be, in "must be ..., got ...".
WHAT = {
    "a string": "字符串",
    "a list": "列表",
    "an object": "JSON 对象",
    "a JSON Schema object": " JSON Schema 对象",
    "a list of messages": "消息列表",
    "a message object": "消息对象（JSON 对象）",
    "a string or a list of content parts": "字符串或 content part 列表",
    "a string or a list of parts": "字符串或 content part 列表",
    "a content part (an object with a string type)": " content part（带字符串 type 的 JSON 对象）",
    "the list of blocks Anthropic sent": " Anthropic 发来的内容块列表",
    "a string, None or a list of content parts": "字符串、None 或 content part 列表",
    "a tool call object": "工具调用对象（JSON 对象）",
    "JSON text or an object": " JSON 文本或 JSON 对象",
    "a JSON object (a tool_use input)": " JSON 对象（即 tool_use 的 input）",
    "a list of tools": "工具列表",
    "a tool object": "工具对象（JSON 对象）",
    "a list of content blocks": "内容块列表",
    "a string or None": "字符串或 None",
    "a content block": "内容块",
    "a string or a list of content blocks": "字符串或内容块列表",
    "a string or a list of text blocks": "字符串或 text 块列表",
}

_COMPILED = [(re.compile(english, re.S), chinese) for english, chinese in RULES]


def problem_in(problem: str, lang: Optional[str] = None) -> str:
    """`problem` (English, as the lesson raised it) in `lang` (the current language by default)."""
    if language.resolve(lang) != "zh":
        return problem
    return said(problem) or problem


def said(problem: str) -> Optional[str]:
    """`problem` in Chinese, or None when no rule reads it (a test keeps that from happening)."""
    for english, chinese in _COMPILED:
        match = english.fullmatch(problem)
        if match is None:
            continue
        values = {}
        for name, value in match.groupdict().items():
            if name.endswith("_p"):
                value = said(value)
            elif name.endswith("_w"):
                value = _words(value)
            elif name.endswith("_t"):
                value = WHAT.get(value) or _literal(value)
            elif name == "json_j":
                value = language.json_message(value, "zh")
            if value is None:
                break
            values[name] = value
        else:
            return chinese.format(**values).replace("  ", " ")
    return None


def _words(text: str) -> Optional[str]:
    if text in WORDS:
        return WORDS[text]
    if " or " in text and all(part in WORDS for part in text.split(" or ")):  # "a user message or a tool_result"
        return "或".join(WORDS[part] for part in text.split(" or "))
    return None


def _literal(expected: str) -> Optional[str]:
    """pydantic's "'user' or 'assistant'" (the values a literal allows): the values kept."""
    values = re.split(r", | or ", expected)
    if all(re.fullmatch(r"'[^']*'|\d+|True|False|None", value) for value in values):
        return " " + "、".join(values[:-1]) + (" 或 " if len(values) > 1 else "") + values[-1]
    return None


def message_in(error: RequestError, lang: Optional[str] = None) -> str:
    """`str(error)` in `lang`: the location as it is, the problem in the reader's language."""
    return f"{format_location(error.location)}: {problem_in(error.problem, lang)}"


def install() -> None:
    """Make `str(error)` of every `RequestError` not keyed yet follow the current language."""
    from ..words import errors

    errors.FALLBACK = lambda problem: said(problem) or problem
