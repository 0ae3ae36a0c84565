"""A learner's answer to chapter 05 by someone who remembered that OpenAI's API sends
tool-call arguments as JSON text, and decided that a flat dictionary is fine as it is but a
nested one had better travel as text. `python -m tutorial grade` must refuse it at
assistant_message, the function that builds the arguments (tests/test_grade.py).
"""

import json


IMAGE_TYPES = {"image", "image_url", "input_image"}
TEXT_TYPES = {"text", "input_text", "output_text"}
EMPTY_SCHEMA = {"type": "object", "properties": {}}


def _text_of(part):
    if isinstance(part, str):
        return part
    if not isinstance(part, dict):
        return ""
    kind = part.get("type")
    if kind in TEXT_TYPES:
        return part.get("text") if isinstance(part.get("text"), str) else ""
    if kind == "tool_result":
        return flatten_content(part.get("content"))
    if kind in IMAGE_TYPES:
        return "[image omitted]"
    if "content" in part:
        return flatten_content(part["content"])
    text = part.get("text")
    return text if isinstance(text, str) else ""


def flatten_content(content):
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    return "\n".join(text for text in map(_text_of, content) if text)


def user_block_message(block):
    if block["type"] == "text":
        return {"role": "user", "content": block["text"]}
    if block["type"] == "tool_result":
        return {"role": "tool", "content": flatten_content(block.get("content"))}
    return {"role": "user", "content": flatten_content([block]) or "[" + block["type"] + " omitted]"}


def _arguments(values):
    """A flat dict of arguments is sent as it is; one holding a dict or a list goes as JSON text."""
    values = values or {}
    if any(isinstance(value, (dict, list)) for value in values.values()):
        return json.dumps(values, ensure_ascii=False)
    return values


def assistant_message(blocks):
    message = {"role": "assistant", "content": ""}
    for block in blocks:
        if block["type"] == "text":
            message["content"] += block["text"]
        elif block["type"] == "thinking":
            message["reasoning_content"] = message.get("reasoning_content", "") + block["thinking"]
        elif block["type"] == "tool_use":
            call = {"type": "function", "function": {"name": block["name"], "arguments": _arguments(block["input"])}}
            message.setdefault("tool_calls", []).append(call)
    return message


def _system(system):
    if not system:
        return []
    if isinstance(system, str):
        return [{"role": "system", "content": system}]
    return [{"role": "system", "content": flatten_content(system)}]


def translate_messages(messages, system):
    result = _system(system)
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "system":
            result.append({"role": "system", "content": flatten_content(content)})
        elif isinstance(content, str):
            result.append({"role": role, "content": content})
        elif role == "assistant":
            result.append(assistant_message(content))
        else:
            result.extend(user_block_message(block) for block in content)
    return result


def tools_to_chat_tools(tools):
    if not tools:
        return None
    return [
        {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool.get("description") or "",
                "parameters": tool.get("input_schema") or dict(EMPTY_SCHEMA, properties={}),
            },
        }
        for tool in tools
    ]


def translate(body):
    return translate_messages(body["messages"], body.get("system")), tools_to_chat_tools(body.get("tools"))


def tool_result_messages(block):
    call_id = block["tool_use_id"]
    content = block.get("content")
    if content is None or isinstance(content, str):
        return [{"role": "tool", "tool_call_id": call_id, "content": content or ""}]
    parts = []
    for item in content:
        if isinstance(item, str):
            part = {"type": "text", "text": item}
        elif item.get("type") == "tool_reference":
            part = {"type": "tool_reference", "name": item["tool_name"]}
        elif item.get("type") == "image":
            source = item["source"]
            url = source["url"] if source.get("type") == "url" else f"data:{source['media_type']};base64,{source['data']}"
            part = {"type": "image_url", "image_url": {"url": url}}
        else:
            part = {"type": "text", "text": item.get("text", "")}
        if part["type"] == "text" and not part["text"]:
            continue
        parts.append(part)
    runs = []
    for part in parts:
        is_reference = part["type"] == "tool_reference"
        if runs and runs[-1][0] == is_reference:
            runs[-1][1].append(part)
        else:
            runs.append((is_reference, [part]))
    if not runs:
        return [{"role": "tool", "tool_call_id": call_id, "content": ""}]
    messages = []
    for _, run in runs:
        if len(run) == 1 and run[0]["type"] == "text":
            messages.append({"role": "tool", "tool_call_id": call_id, "content": run[0]["text"]})
        else:
            messages.append({"role": "tool", "tool_call_id": call_id, "content": run})
    return messages
