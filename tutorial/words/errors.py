"""The lesson's located errors in Chinese, keyed by the English template the lesson raises with.

The lesson writes `RequestError(location, "must be {what}, got {got}", what="a string", got="int")`;
the Chinese reader meets `必须是字符串，实际是 int`: the template below under the same key, its
values filled in. A value that is a phrase the lesson writes ("a string", "a user message") is
looked up in PHRASES under the same English; a value that is itself an error is told in Chinese
too; any other value (a type name, a quoted value, a number) stays as it is. Nothing is read back
from an English sentence. `tests/test_words.py` checks every template the lesson raises with has
its Chinese here, with the same placeholders.
"""

from __future__ import annotations

from typing import Any, Mapping

from . import json_message

SURROGATE = "其中有孤立的代理项（UTF-16 代理对的一半）"

TEXTS: dict[str, str] = {
    # The contract (contract/wording.py, contract/checking.py).
    "{problem} ({hint})": "{problem}（{hint}）",
    "{pydantic}": "{pydantic}",  # pydantic's own words, for a check the contract does not word itself
    "is required": "是必填项",
    "does not match the request contract": "不符合请求契约",
    "must be a string, got {got}": "必须是字符串，实际是 {got}",
    "must be true or false, got {got}": "必须是 true 或 false，实际是 {got}",
    "must be a list, got {got}": "必须是列表，实际是 {got}",
    "must be an object, got {got}": "必须是 JSON 对象，实际是 {got}",
    "must be a content block: an object with a string 'type', got {got}":
        "必须是内容块，即带字符串 'type' 的 JSON 对象，实际是 {got}",
    "must be {allowed}, got {got}": "必须是 {allowed}，实际是 {got}",
    "has unknown type {tag} (expected {expected})": "类型 {tag} 未知（可用的类型有 {expected}）",
    "the request body must be a JSON object, got {got}": "请求体必须是 JSON 对象，实际是 {got}",
    "has a key of type {got}: JSON object keys are strings": "有一个 {got} 类型的键，而 JSON 对象的键只能是字符串",
    "is a key that is not valid Unicode: it holds a lone surrogate (half of a UTF-16 pair), "
    "and the contract can only match keys that are text": f"这个键不是有效的 Unicode，因为{SURROGATE}，而契约只能匹配文本形式的键",
    "must be valid Unicode text, got {got}: it holds a lone surrogate (half of a UTF-16 pair)":
        f"必须是有效的 Unicode 文本，实际是 {{got}}，{SURROGATE}",
    "contains itself (a cycle): a JSON value cannot refer back to itself": "包含自身（形成循环），而 JSON 值不能引用自己",
    "contains itself (a cycle): a JSON value cannot refer back to itself, got {got}":
        "包含自身（形成循环），而 JSON 值不能引用自己（这里是 {got}）",
    # A wrong argument from the caller's code (targets.py).
    "target must be one of {names}, got {got}": "target 只能是 {names}，实际是 {got}",
    "translate_json takes JSON text (str or bytes), got {got}": "translate_json 接受的是 JSON 文本（str 或 bytes），实际是 {got}",
    # Free values and JSON text (limits.py).
    "is an integer of more than {n} digits, longer than Python writes as JSON text": "是超过 {n} 位的整数，Python 无法把这样的整数写成 JSON 文本",
    "must be a finite number: JSON has no NaN or Infinity": "必须是有限的数，JSON 里没有 NaN 和 Infinity",
    "must be a JSON value (object, array, string, number, true, false or null), got {got}":
        "必须是 JSON 值（对象、数组、字符串、数字、true、false 或 null），实际是 {got}",
    "nests deeper than {n} levels of objects and arrays, the limit here": "对象和数组嵌套超过 {n} 层，超出了这里的上限",
    "holds more than {n:,} values (counted as its JSON text would write them)": "包含超过 {n:,} 个值（按 JSON 文本的写法计数）",
    "{name} is larger than {mb} MB ({size:,} bytes), the Messages API's request limit":
        "{name}超过 {mb} MB（{size:,} 字节），这是 Messages API 的请求上限",
    "{name} is not UTF-8: {why} at byte {at}": "{name}不是 UTF-8 文本（偏移 {at} 处无法解码）",
    "{name} is not valid JSON: {json} at line {line}, column {column}": "{name}不是有效的 JSON（第 {line} 行第 {column} 列），{json}",
    "{name} nests too deeply for Python's JSON reader": "{name}嵌套太深，Python 的 JSON 读取器无法读取",
    "{name} nests deeper than {n} levels of objects and arrays (at line {line}, column {column})":
        "{name}的对象和数组嵌套超过 {n} 层（第 {line} 行，第 {column} 列）",
    "{name} has an integer of more than {n} digits (at line {line}, column {column})":
        "{name}中有超过 {n} 位的整数（第 {line} 行，第 {column} 列）",
    "{name} is not valid JSON: {why}": "{name}不是有效的 JSON（{why}）",
    "the content nests deeper than {n} levels of blocks": "内容块嵌套超过 {n} 层",
    # The openai target (openai_target.py).
    "a block of type {kind} cannot be carried in {where}: it belongs in {places}":
        "{where}中不能携带类型为 {kind} 的内容块，这类内容块应当放进 {places}",
    "a block of type {kind} cannot be carried in {where}: {why}": "{where}中不能携带类型为 {kind} 的内容块，{why}",
    "is required: a tool_reference names the tool whose schema it loads": "是必填项，因为 tool_reference 要写明加载哪个工具的 schema",
    "is required for a custom tool by the openai target (the function needs parameters)":
        "是必填项（openai 目标格式要求自定义工具带 input_schema，因为 function 需要 parameters）",
    # From chat messages back to a request (round_trip.py).
    "a system message's content must be a string or a list of text parts, got {got}":
        "system 消息的 content 必须是字符串或 text 类型的 content part 列表，实际是 {got}",
    "a {kind} part has no Anthropic equivalent (refused, not dropped)":
        "{kind} 类型的 content part 在 Anthropic 格式中没有对应物（拒绝，而不是静默丢弃）",
    "an assistant {kind} part has no Anthropic equivalent": "assistant 消息中 {kind} 类型的 content part 在 Anthropic 格式中没有对应物",
    "must be system, user, assistant or tool, got {got}": "必须是 system、user、assistant 或 tool，实际是 {got}",
    "an input_audio part cannot be sent: the Anthropic Messages API accepts no audio":
        "input_audio 类型的 content part 无法发送，因为 Anthropic Messages API 不接受音频",
    "is required and must be a string": "是必填项，且必须是字符串",
    "an image_url part needs a URL string": "image_url 类型的 content part 需要字符串形式的 URL",
    "a data URL must be base64: data:<media_type>;base64,<data>": "data URL 必须是 base64 编码，形如 data:<media_type>;base64,<data>",
    "a file part needs a file object with file_data": "file 类型的 content part 需要一个带 file_data 的 file 对象",
    "a file part must carry its data as a data URL ({why})": "file 类型的 content part 必须以 data URL 携带数据（{why}）",
    "only a PDF (data:application/pdf;base64,...) becomes a document": "只有 PDF（data:application/pdf;base64,...）能变成 document",
    "a text part needs a string text": "text 类型的 content part 需要字符串形式的 text",
    "a tool message without tool_call_id must follow an assistant message with a call left to answer":
        "没有 tool_call_id 的 tool 消息必须跟在一条还有未回答调用的 assistant 消息之后",
    "a saved tool_use block needs its string id": "保存下来的 tool_use 块需要字符串形式的 id",
    "a tool call needs a function: an object with a string name": "工具调用需要 function，即一个带字符串 name 的 JSON 对象",
    "a tool call needs a function with a string name": "工具调用的 function 需要字符串形式的 name",
    "a function tool needs a function: an object with a string name": "function 工具需要 function，即一个带字符串 name 的 JSON 对象",
    "a function tool needs a function with a string name": "function 工具的 function 需要字符串形式的 name",
    "is JSON text whose value at {at} {inner}": "是 JSON 文本，其中 {at} 处的值{inner}",
    "the response must be an object, got {got}": "响应必须是 JSON 对象，实际是 {got}",
    "an error response carries no message: {error}": "错误响应里没有消息（{error}）",
    "must be {wanted} in a {kind} block": "在 {kind} 块中必须是{wanted}",
    "must be a list of messages, got {got}": "必须是消息列表，实际是 {got}",
    "must be a message object, got {got}": "必须是消息对象（JSON 对象），实际是 {got}",
    "must be a string or a list of content parts, got {got}": "必须是字符串或 content part 列表，实际是 {got}",
    "must be a string or a list of parts, got {got}": "必须是字符串或 content part 列表，实际是 {got}",
    "must be a content part (an object with a string type), got {got}":
        "必须是 content part（带字符串 type 的 JSON 对象），实际是 {got}",
    "must be the list of blocks Anthropic sent, got {got}": "必须是 Anthropic 发来的内容块列表，实际是 {got}",
    "must be a string, None or a list of content parts, got {got}": "必须是字符串、None 或 content part 列表，实际是 {got}",
    "must be a tool call object, got {got}": "必须是工具调用对象（JSON 对象），实际是 {got}",
    "must be JSON text or an object, got {got}": "必须是 JSON 文本或 JSON 对象，实际是 {got}",
    "must encode a JSON object (a tool_use input), got {got}": "必须是一个 JSON 对象（即 tool_use 的 input）的文本，实际是 {got}",
    "must be a list of tools, got {got}": "必须是工具列表，实际是 {got}",
    "must be a tool object, got {got}": "必须是工具对象（JSON 对象），实际是 {got}",
    "must be a JSON Schema object": "必须是 JSON Schema 对象",
    "must be a list of content blocks, got {got}": "必须是内容块列表，实际是 {got}",
    "must be a string": "必须是字符串",
    "must be a list of integer token ids": "必须是整数 token id 的列表",
    # From the model's output to a reply (way_back.py) and the engine's answer (serve/forward.py).
    "must be a string or None, got {got}": "必须是字符串或 None，实际是 {got}",
    "must be a function that returns a fresh id, got {got}": "必须是返回新 id 的函数，实际是 {got}",
    "must return a string id, returned {got} for tool_uses[{i}]": "必须返回字符串形式的 id，却为 tool_uses[{i}] 返回了 {got}",
    "the parsed model output must be an object, got {got}": "解析后的模型输出必须是 JSON 对象，实际是 {got}",
    "must be a string (or a stop token id), got {got}": "必须是字符串（或停止 token 的 id），实际是 {got}",
    "must be an object with name and input, not {got}": "必须是带 name 和 input 的 JSON 对象，而不是 {got}",
    "must be an object (parse the model's JSON arguments first), got {got}": "必须是 JSON 对象（先解析模型给出的 JSON 参数），实际是 {got}",
    "must be a non-negative integer, got {got}": "必须是非负整数，实际是 {got}",
    "must be a content block, got {got}": "必须是内容块，实际是 {got}",
    "a reply streams text, thinking and tool_use blocks, not {got}": "回复只以流式发送 text、thinking 和 tool_use 块，不发送 {got}",
    "must be a string in a {kind} block": "在 {kind} 块中必须是字符串",
    "must be an object in a tool_use block": "在 tool_use 块中必须是 JSON 对象",
    "is not the start of a JSON object ({why})": "不是一个 JSON 对象的开头（{why}）",
    "is not valid JSON ({why})": "不是有效的 JSON（{why}）",
    "must be a string or a list of content blocks": "必须是字符串或内容块列表",  # pydantic's message (shapes.py)
    "must be a string or a list of content blocks, got {got}": "必须是字符串或内容块列表，实际是 {got}",
    "must be a string or a list of text blocks": "必须是字符串或 text 块列表",
    "must be an object with type 'base64' (media_type, data), 'url' (url) or 'file' (file_id)":
        "必须是 type 为 'base64'（带 media_type、data）、'url'（带 url）或 'file'（带 file_id）的 JSON 对象",
    # A turn recorded for training (trajectory.py).
    "must be a TurnRecord, got {got}": "必须是 TurnRecord，实际是 {got}",
    "has {n} values for {ids} output ids": "有 {n} 个值，而输出 token id 有 {ids} 个",
    "must be a list of chat messages, got {got}": "必须是聊天消息列表，实际是 {got}",
    "must be a chat message (an object), got {got}": "必须是聊天消息（JSON 对象），实际是 {got}",
}

# Phrases the lesson passes as values (where a block goes, what a text is called, a hint, a reason).
PHRASES: dict[str, str] = {
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
    "the Chat Completions message shape has no document part": "Chat Completions 的消息格式没有 document 类型的 content part",
    "encrypted reasoning can only be replayed to Anthropic's servers": "加密的推理内容只能原样发回 Anthropic 的服务器",
    "server tools run on Anthropic's servers, not on this engine": "服务端工具在 Anthropic 的服务器上运行，不在这个引擎上",
    "the openai target does not know this block type": "openai 目标格式不认识这种内容块类型",
    "an uploaded file's id means nothing to Anthropic": "上传文件的 id 对 Anthropic 没有意义",
    "it is required": "这是必填项",
    "a tool_result names the tool_use it answers": "tool_result 要写明回答的是哪个 tool_use",
    "an image needs a base64, url or file source": "图片需要 base64、url 或 file 类型的 source",
    "a tool_use's input is a JSON object": "tool_use 的 input 直接写参数对象，而不是它的 JSON 文本",
    "a tool's input_schema is a JSON Schema object": "工具的 input_schema 是 JSON Schema 对象",
}


HINTED = "{problem} ({hint})"
HINTED_AFTER_BRACKETS = "{problem}，{hint}"


def chinese(key: str, values: Mapping[str, Any]) -> str:
    """The error's problem in Chinese, formatted forward from its key and values."""
    template = TEXTS.get(key)
    if template is None:  # a template with no Chinese yet (tests/test_words.py keeps this from happening)
        return key.format(**{name: _english(value) for name, value in values.items()}) if values else key
    said = {name: _value(name, value) for name, value in values.items()}
    if key == HINTED and str(said["problem"]).endswith("）"):  # no 实际是字符串（str）（…）: the hint after a comma
        template = HINTED_AFTER_BRACKETS
    text = template.format(**said).replace("  ", " ")
    for said in _CHINESE_TYPE_NAMES:  # the templates' spaces around {got} are for a Latin name: 实际是整数（int）
        text = text.replace(" " + said, said)
        text = _close_after(text, said)  # 有一个整数（int）类型的键
    return text


def _close_after(text: str, said: str) -> str:
    """`text` without the space after `said` where a Chinese character follows it."""
    parts = text.split(said + " ")
    joined = parts[0]
    for part in parts[1:]:
        joined += said + ("" if "\u4e00" <= part[:1] <= "\u9fff" else " ") + part
    return joined


# A type name the lesson passes as {got} ("must be a string, got int"), said in Chinese with the
# name kept: 实际是整数（int）. A value shown as data ('robot', 5) is quoted or a number, never these.
TYPE_NAMES: dict[str, str] = {
    "int": "整数（int）",
    "float": "浮点数（float）",
    "str": "字符串（str）",
    "bool": "布尔值（bool）",
    "list": "列表（list）",
    "dict": "字典",  # the term the glossary keeps for a Python dict (tests/test_zh_terms.py)
    "tuple": "元组（tuple）",
    "NoneType": "None",
}


_CHINESE_TYPE_NAMES = [said for said in TYPE_NAMES.values() if not said.isascii()]


def phrase(text: str) -> str:
    """A phrase the lesson's errors fill in (a `why`, a place), in Chinese."""
    return PHRASES.get(text, text)


def _value(name: str, value: Any) -> Any:
    if name == "got" and isinstance(value, str) and value in TYPE_NAMES:
        return TYPE_NAMES[value]
    if hasattr(value, "key") and hasattr(value, "values"):  # a problem inside a problem
        return chinese(value.key, value.values)
    if isinstance(value, tuple):  # alternatives
        return _either([str(_value(name, item)) for item in value])
    if name == "json":  # Python's json module's own message
        return json_message(value)
    if name == "allowed":  # pydantic's list of the values allowed, "'user' or 'assistant'", as pydantic wrote it
        return value.replace("' or '", "' 或 '").replace(", ", "、")
    if isinstance(value, str) and value in PHRASES:
        return PHRASES[value]
    return value


def _either(items: list[str]) -> str:
    """Alternatives joined with 或, a space beside it only where a Latin word or quote meets it."""
    text = items[0] if items else ""
    for item in items[1:]:
        text += (" 或" if text[-1:].isascii() else "或") + (" " if item[:1].isascii() else "") + item
    return text


def _english(value: Any) -> Any:
    return value.problem if hasattr(value, "key") and hasattr(value, "values") else value
