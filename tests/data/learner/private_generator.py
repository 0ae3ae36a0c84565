"""A learner's answer to chapter 05 whose translate_messages is right but reaches its helpers
through a private generator, `_chat_messages`, and whose user_block_message has one mistake:
a tool_result keeps its tool_use_id as `tool_call_id`. `grade` must blame user_block_message
alone; translate_messages and translate call it (through the generator) and are told to wait
for it (tests/test_grade.py)."""

IMAGE_TYPES = {"image", "image_url", "input_image"}
TEXT_TYPES = {"text", "input_text", "output_text"}


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
        # The mistake: the id is kept, under the name the OpenAI shape gives it.
        return {"role": "tool", "tool_call_id": block["tool_use_id"], "content": flatten_content(block.get("content"))}
    return {"role": "user", "content": flatten_content([block]) or "[" + block["type"] + " omitted]"}


def assistant_message(blocks):
    message = {"role": "assistant", "content": ""}
    for block in blocks:
        if block["type"] == "text":
            message["content"] += block["text"]
        elif block["type"] == "thinking":
            message["reasoning_content"] = message.get("reasoning_content", "") + block["thinking"]
        elif block["type"] == "tool_use":
            call = {"type": "function", "function": {"name": block["name"], "arguments": block["input"] or {}}}
            message.setdefault("tool_calls", []).append(call)
    return message


def _chat_messages(messages, system):
    """Every chat message, one at a time: the helpers are called from here, not from
    translate_messages itself."""
    if system:
        yield {"role": "system", "content": system if isinstance(system, str) else flatten_content(system)}
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "system":
            yield {"role": "system", "content": flatten_content(content)}
        elif isinstance(content, str):
            yield {"role": role, "content": content}
        elif role == "assistant":
            yield assistant_message(content)
        else:
            yield from map(user_block_message, content)


def translate_messages(messages, system):
    return list(_chat_messages(messages, system))


def tools_to_chat_tools(tools):
    if not tools:
        return None
    return [
        {
            "type": "function",
            "function": {
                "name": tool["name"],
                "description": tool.get("description") or "",
                "parameters": tool.get("input_schema") or {"type": "object", "properties": {}},
            },
        }
        for tool in tools
    ]


def translate(body):
    return translate_messages(body["messages"], body.get("system")), tools_to_chat_tools(body.get("tools"))
