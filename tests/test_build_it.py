"""Chapter 05's checker (tutorial.notebook.build_it) catches plausible wrong solutions and
explains them, and accepts correct ones written differently.

Each wrong solution below is a right one with one usual mistake made in it (a mutation of
the right source). For each, the check must say ✗, show the named trap built for that
mistake (never a generated input when a trap catches it), and end with the bullet of the
stage's rule that was broken. Where a right function calls a wrong helper of the learner's,
the helper is the one blamed. The bullets themselves are chapter 05's, word for word.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tutorial.notebook import build_it
from tutorial.notebook.build_it import RULES, check_stage, examine
from tutorial.words import using


def check_in(lang: str, stage: str, function):
    """`check_stage(stage, function)` with its verdict written in `lang`."""
    with using(lang):
        return check_stage(stage, function)


def examine_in(lang: str, stage: str, function):
    with using(lang):
        return examine(stage, function)

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = ROOT / "notebooks" / "05_build_it_yourself.ipynb"

# ---------------------------------------------------------------------------
# Right solutions, one per stage, written the way a learner would

RIGHT = {
    "flatten_content": '''
def flatten_content(content):
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    texts = []
    for part in content:
        if isinstance(part, str):
            text = part
        elif part.get("type") in ("text", "input_text", "output_text"):
            text = part["text"]
        elif part.get("type") == "tool_result":
            text = flatten_content(part.get("content"))
        elif part.get("type") in ("image", "image_url", "input_image"):
            text = "[image omitted]"
        elif "content" in part:
            text = flatten_content(part["content"])
        else:
            text = part.get("text", "")
        if text:
            texts.append(text)
    return "\\n".join(texts)
''',
    "user_block_message": '''
def user_block_message(block):
    if block["type"] == "text":
        return {"role": "user", "content": block["text"]}
    if block["type"] == "tool_result":
        return {"role": "tool", "content": flatten_content(block.get("content"))}
    return {"role": "user", "content": flatten_content([block]) or f"[{block['type']} omitted]"}
''',
    "assistant_message": '''
def assistant_message(blocks):
    texts, thinking, calls = [], [], []
    for block in blocks:
        if block["type"] == "text":
            texts.append(block["text"])
        elif block["type"] == "thinking":
            thinking.append(block["thinking"])
        elif block["type"] == "tool_use":
            calls.append({"type": "function", "function": {"name": block["name"], "arguments": block["input"] or {}}})
    message = {"role": "assistant", "content": "".join(texts)}
    if thinking:
        message["reasoning_content"] = "".join(thinking)
    if calls:
        message["tool_calls"] = calls
    return message
''',
    "translate_messages": '''
def translate_messages(messages, system):
    result = []
    if system:
        result.append({"role": "system", "content": system if isinstance(system, str) else flatten_content(system)})
    for message in messages:
        role, content = message["role"], message["content"]
        if role == "system":
            result.append({"role": "system", "content": flatten_content(content)})
        elif isinstance(content, str):
            result.append({"role": role, "content": content})
        elif role == "assistant":
            result.append(assistant_message(content))
        else:
            for block in content:
                result.append(user_block_message(block))
    return result
''',
    "tools_to_chat_tools": '''
def tools_to_chat_tools(tools):
    if not tools:
        return None
    return [
        {"type": "function", "function": {
            "name": tool["name"],
            "description": tool.get("description") or "",
            "parameters": tool.get("input_schema") or {"type": "object", "properties": {}},
        }}
        for tool in tools
    ]
''',
    "translate": '''
def translate(body):
    messages = translate_messages(body["messages"], body.get("system"))
    tools = tools_to_chat_tools(body.get("tools"))
    return messages, tools
''',
    "tool_result_messages": '''
def tool_result_messages(block):
    call_id = block["tool_use_id"]
    content = block.get("content")
    if content is None or isinstance(content, str):
        return [{"role": "tool", "tool_call_id": call_id, "content": content or ""}]
    parts = [content_part(item) for item in content]
    parts = [part for part in parts if not (part["type"] == "text" and not part["text"])]
    runs = []
    for part in parts:
        if runs and (runs[-1][-1]["type"] == "tool_reference") == (part["type"] == "tool_reference"):
            runs[-1].append(part)
        else:
            runs.append([part])
    if not runs:
        return [{"role": "tool", "tool_call_id": call_id, "content": ""}]
    return [
        {"role": "tool", "tool_call_id": call_id,
         "content": run[0]["text"] if len(run) == 1 and run[0]["type"] == "text" else run}
        for run in runs
    ]
''',
}

# ---------------------------------------------------------------------------
# Wrong solutions: (stage, what the learner got wrong, (old, new) in the right source,
# the trap that must be shown, the rule that must be quoted: "bullet" or "stage:bullet")

WRONG = [
    # flatten_content
    ("flatten_content", "parts glued with nothing", ('"\\n".join', '"".join'), "two text blocks", "join"),
    ("flatten_content", "parts joined with a space", ('"\\n".join', '" ".join'), "two text blocks", "join"),
    ("flatten_content", "parts joined with a blank line", ('"\\n".join', '"\\n\\n".join'), "two text blocks", "join"),
    ("flatten_content", "empty parts kept", ("        if text:\n            texts.append(text)", "        texts.append(text)"),
     "an empty text between two texts", "join"),
    ("flatten_content", "None not handled", ('    if content is None:\n        return ""\n', ""), "None", "empty"),
    ("flatten_content", "None gives 'None'", ('    if content is None:\n        return ""\n', '    if content is None:\n        return "None"\n'),
     "None", "empty"),
    ("flatten_content", "a lone block is not a list of one", ("    if isinstance(content, dict):\n        content = [content]\n", ""),
     "one block, not in a list", "empty"),
    ("flatten_content", "a lone block becomes its repr", ("    if isinstance(content, dict):\n        content = [content]\n",
     "    if isinstance(content, dict):\n        return str(content)\n"), "one block, not in a list", "empty"),
    ("flatten_content", "the image placeholder misspelt", ('text = "[image omitted]"', 'text = "[image]"'), "an image", "part"),
    ("flatten_content", "images give nothing", ('text = "[image omitted]"', 'text = ""'), "an image", "part"),
    ("flatten_content", "string items skipped", ("            text = part\n", '            text = ""\n'), "strings inside the list", "part"),
    ("flatten_content", "a tool_result inside gives nothing", ('text = flatten_content(part.get("content"))', 'text = ""'),
     "a tool_result inside the list", "part"),
    ("flatten_content", "input_image is not an image", ('("image", "image_url", "input_image")', '("image", "image_url")'),
     "an OpenAI-style input_image part", "part"),
    ("flatten_content", "image_url is not an image", ('("image", "image_url", "input_image")', '("image",)'),
     "an image_url part", "part"),
    ("flatten_content", "another block's content ignored", ('        elif "content" in part:\n            text = flatten_content(part["content"])\n', ""),
     "a block of unknown type with content", "part"),
    ("flatten_content", "another block's text ignored", ('text = part.get("text", "")', 'text = ""'),
     "a block of unknown type with text", "part"),
    ("flatten_content", "thinking read as text", ('text = part.get("text", "")', 'text = part.get("text") or part.get("thinking", "")'),
     "a thinking block (it has no text field)", "part"),
    ("flatten_content", "text parts stripped", ('            text = part["text"]\n', '            text = part["text"].strip()\n'),
     "texts with spaces and newlines around them", "part"),
    ("flatten_content", "a tool_reference gives its tool name", ('text = part.get("text", "")', 'text = part.get("text") or part.get("tool_name", "")'),
     "a tool_reference (nothing to read)", "part"),
    # user_block_message
    ("user_block_message", "the pairing id kept", ('{"role": "tool", "content"', '{"role": "tool", "tool_call_id": block["tool_use_id"], "content"'),
     "a tool_result with string content", "tool_result"),
    ("user_block_message", "a result as a user message", ('{"role": "tool", "content"', '{"role": "user", "content"'),
     "a tool_result with string content", "tool_result"),
    ("user_block_message", "the result's content not flattened", ('flatten_content(block.get("content"))', 'block.get("content")'),
     "a tool_result with no content", "tool_result"),
    ("user_block_message", "an error result marked in the text", ('flatten_content(block.get("content"))}',
     '("Error: " if block.get("is_error") else "") + flatten_content(block.get("content"))}'), "an error result", "tool_result"),
    ("user_block_message", "a placeholder without the type", ("f\"[{block['type']} omitted]\"", '"[omitted]"'), "a PDF document", "other"),
    ("user_block_message", "the raw block as text", ("flatten_content([block]) or f\"[{block['type']} omitted]\"", "str(block)"),
     "an image", "other"),
    ("user_block_message", "no placeholder at all", (" or f\"[{block['type']} omitted]\"", ""), "a PDF document", "other"),
    ("user_block_message", "other blocks dropped to empty text", ("flatten_content([block]) or f\"[{block['type']} omitted]\"", '""'),
     "an image", "other"),
    ("user_block_message", "a text block flattened with its type", ('{"role": "user", "content": block["text"]}',
     '{"role": "user", "content": block["text"] or "[text omitted]"}'), "an empty text block", "text"),
    ("user_block_message", "a text block stripped", ('"content": block["text"]}', '"content": block["text"].strip()}'),
     "a text block with spaces and newlines around it", "text"),
    # assistant_message
    ("assistant_message", "the call id kept", ('calls.append({"type": "function"', 'calls.append({"id": block["id"], "type": "function"'),
     "one call", "calls"),
    ("assistant_message", "arguments as JSON text", ('"arguments": block["input"] or {}', '"arguments": json.dumps(block["input"])'),
     "one call", "calls"),
    ("assistant_message", "arguments as JSON text only when nested", ('"arguments": block["input"] or {}',
     '"arguments": json.dumps(block["input"]) if any(isinstance(v, (dict, list)) for v in block["input"].values()) '
     'else block["input"] or {}'), "a call with nested arguments", "calls"),
    ("assistant_message", "the text beside a call dropped", ('"content": "".join(texts)}', '"content": "" if calls else "".join(texts)}'),
     "text beside a call", "text"),
    ("assistant_message", "texts stripped", ('texts.append(block["text"])', 'texts.append(block["text"].strip())'),
     "a text with spaces and newlines around it", "text"),
    ("assistant_message", "no empty dict for empty input", ('"arguments": block["input"] or {}', '"arguments": block["input"] or None'),
     "a call with empty input", "calls"),
    ("assistant_message", "no function wrapper", ('{"type": "function", "function": {"name": block["name"], "arguments": block["input"] or {}}}',
     '{"name": block["name"], "arguments": block["input"] or {}}'), "one call", "calls"),
    ("assistant_message", "texts joined with newlines", ('"content": "".join(texts)', '"content": "\\n".join(texts)'),
     "two text blocks", "text"),
    ("assistant_message", "None for no text", ('"content": "".join(texts)', '"content": "".join(texts) or None'),
     "empty content", "text"),
    ("assistant_message", "tool_calls always there", ("    if calls:\n        message", "    if True:\n        message"),
     "empty content", "calls"),
    ("assistant_message", "reasoning_content always there", ("    if thinking:\n        message", "    if True:\n        message"),
     "empty content", "thinking"),
    ("assistant_message", "thinking joined with newlines", ('message["reasoning_content"] = "".join(thinking)',
     'message["reasoning_content"] = "\\n".join(thinking)'), "two thinking blocks", "thinking"),
    ("assistant_message", "thinking put into the content", ('thinking.append(block["thinking"])', 'texts.append(block["thinking"])'),
     "thinking, text and a call", "thinking"),
    ("assistant_message", "the signature kept", ('        message["reasoning_content"] = "".join(thinking)\n',
     '        message["reasoning_content"] = "".join(thinking)\n        message["signature"] = blocks[0].get("signature")\n'),
     "thinking, text and a call", "thinking"),
    ("assistant_message", "redacted thinking shown as text", ('        elif block["type"] == "tool_use":',
     '        elif block["type"] == "redacted_thinking":\n            texts.append("[redacted]")\n        elif block["type"] == "tool_use":'),
     "redacted thinking", "other"),
    # translate_messages
    ("translate_messages", "an empty system string gives a message", ("    if system:\n", "    if system is not None:\n"),
     "an empty system string", "system"),
    ("translate_messages", "an empty system list gives a message", ("    if system:\n", "    if system is not None and system != \"\":\n"),
     "an empty system list", "system"),
    ("translate_messages", "a system list not flattened", ("system if isinstance(system, str) else flatten_content(system)", "system"),
     "a system list of two blocks", "system"),
    ("translate_messages", "a system list joined with nothing", ("system if isinstance(system, str) else flatten_content(system)",
     "system if isinstance(system, str) else \"\".join(block[\"text\"] for block in system)"), "a system list of two blocks", "system"),
    ("translate_messages", "a user list flattened into one message",
     ("            for block in content:\n                result.append(user_block_message(block))",
      '            result.append({"role": "user", "content": flatten_content(content)})'),
     "a user message with two text blocks", "user"),
    ("translate_messages", "a string content sent through the block rules",
     ('        elif isinstance(content, str):\n            result.append({"role": role, "content": content})\n', ""),
     "an empty user string", "string"),
    ("translate_messages", "a system message in the list dropped",
     ('        if role == "system":\n            result.append({"role": "system", "content": flatten_content(content)})\n        elif',
      '        if role == "system":\n            continue\n        elif'), "a system message inside the list", "inner_system"),
    ("translate_messages", "a system message in the list made a user message",
     ('result.append({"role": "system", "content": flatten_content(content)})', 'result.append({"role": "user", "content": flatten_content(content)})'),
     "a system message inside the list", "inner_system"),
    ("translate_messages", "an empty user list gives an empty message",
     ("            for block in content:\n", '            if not content:\n                result.append({"role": "user", "content": ""})\n            for block in content:\n'),
     "a user message with empty content", "user"),
    ("translate_messages", "an empty assistant turn dropped",
     ("            result.append(assistant_message(content))", "            if content:\n                result.append(assistant_message(content))"),
     "an assistant with empty content", "assistant"),
    ("translate_messages", "tool results moved after the user's text",
     ("            for block in content:\n                result.append(user_block_message(block))",
      '            result.extend(user_block_message(b) for b in content if b["type"] != "tool_result")\n'
      '            result.extend(user_block_message(b) for b in content if b["type"] == "tool_result")'),
     "a result, then text", "user"),
    ("translate_messages", "a string content stripped", ('result.append({"role": role, "content": content})',
     'result.append({"role": role, "content": content.strip()})'), "a user string with spaces around it", "string"),
    ("translate_messages", "the system string stripped", ("system if isinstance(system, str) else", "system.strip() if isinstance(system, str) else"),
     "a system string ending in a newline", "system"),
    # tools_to_chat_tools
    ("tools_to_chat_tools", "[] for no tools", ("    if not tools:\n        return None", "    if not tools:\n        return []"),
     "no tools (None)", "none"),
    ("tools_to_chat_tools", "only None counts as no tools", ("    if not tools:\n", "    if tools is None:\n"), "an empty list", "none"),
    ("tools_to_chat_tools", "input_schema not renamed", ('"parameters": tool.get("input_schema")', '"input_schema": tool.get("input_schema")'),
     "one tool", "wrap"),
    ("tools_to_chat_tools", "no function wrapper", ('{"type": "function", "function": {\n', '{"type": "function", **{\n'), "one tool", "wrap"),
    ("tools_to_chat_tools", "a description of None kept", ('tool.get("description") or ""', 'tool.get("description", "")'),
     "a description of None", "wrap"),
    ("tools_to_chat_tools", "a missing description read by key", ('tool.get("description") or ""', 'tool["description"] or ""'),
     "a tool without a description", "wrap"),
    ("tools_to_chat_tools", "a missing schema left as None", ('tool.get("input_schema") or {"type": "object", "properties": {}}',
     'tool.get("input_schema")'), "a tool without input_schema", "wrap"),
    ("tools_to_chat_tools", "a missing schema as {}", ('tool.get("input_schema") or {"type": "object", "properties": {}}',
     'tool.get("input_schema") or {}'), "a tool without input_schema", "wrap"),
    ("tools_to_chat_tools", "server tools dropped", ("        for tool in tools\n", '        for tool in tools if "type" not in tool\n'),
     "a server tool", "wrap"),
    # translate
    ("translate", "the tools read by key", ('tools_to_chat_tools(body.get("tools"))', 'tools_to_chat_tools(body["tools"])'),
     "the README example without tools", "tools_to_chat_tools:none"),
    ("translate", "the system prompt left out", ('translate_messages(body["messages"], body.get("system"))',
     'translate_messages(body["messages"], None)'), "the README example without tools", "translate_messages:system"),
    ("translate", "the two halves swapped", ("    return messages, tools", "    return tools, messages"),
     "the README example without tools", "both"),
    ("translate", "only the messages returned", ("    return messages, tools", "    return messages"),
     "the README example without tools", "both"),
    # tool_result_messages
    ("tool_result_messages", "the call id left out", ('{"role": "tool", "tool_call_id": call_id, "content": content or ""}',
     '{"role": "tool", "content": content or ""}'), "string content", "string"),
    ("tool_result_messages", "string content stripped", ('"content": content or ""}]', '"content": (content or "").strip()}]'),
     "string content ending in a newline", "string"),
    ("tool_result_messages", "a lone text part stripped", ('run[0]["text"] if len(run) == 1', 'run[0]["text"].strip() if len(run) == 1'),
     "one text part with spaces around it", "run"),
    ("tool_result_messages", "no content gives None", ('"content": content or ""}]', '"content": content}]'), "no content", "string"),
    ("tool_result_messages", "a lone text not collapsed", ('run[0]["text"] if len(run) == 1 and run[0]["type"] == "text" else run', "run"),
     "one text part", "run"),
    ("tool_result_messages", "no runs: everything in one message",
     ('        if runs and (runs[-1][-1]["type"] == "tool_reference") == (part["type"] == "tool_reference"):',
      "        if runs:"), "text, a reference, text (chapter 08's example)", "parts"),
    ("tool_result_messages", "empty texts kept", ('    parts = [part for part in parts if not (part["type"] == "text" and not part["text"])]\n', ""),
     "an empty text between a reference and text", "parts"),
    ("tool_result_messages", "no runs gives no message", ('        return [{"role": "tool", "tool_call_id": call_id, "content": ""}]\n    return [',
     "        return []\n    return ["), "an empty content list", "empty"),
    ("tool_result_messages", "references not converted", ("    parts = [content_part(item) for item in content]",
     '    parts = [item if item.get("type") == "tool_reference" else content_part(item) for item in content]'),
     "only a reference", "parts"),
]

MISTAKES = {mistake: (stage, mistake, mutation, trap, rule) for stage, mistake, mutation, trap, rule in WRONG}

# A right function calling a wrong helper of the learner's: (stage, the helper's mistake, the helper blamed)
BLAMED = [
    ("translate_messages", "the pairing id kept", "user_block_message"),
    ("translate_messages", "the call id kept", "assistant_message"),
    ("user_block_message", "parts glued with nothing", "flatten_content"),
    ("translate", "[] for no tools", "tools_to_chat_tools"),
    ("translate", "None not handled", "flatten_content"),  # two calls down
    ("translate_messages", "a text block stripped", "user_block_message"),
]

# Correct solutions written differently from the package: each must get ✓.
ALSO_RIGHT = {
    "flatten_content": '''
PLACEHOLDER = "[image omitted]"

def _text(part):
    if isinstance(part, str):
        return part
    kind = part.get("type")
    readers = {
        "text": lambda p: p["text"], "input_text": lambda p: p["text"], "output_text": lambda p: p["text"],
        "tool_result": lambda p: flatten_content(p.get("content")),
        "image": lambda p: PLACEHOLDER, "image_url": lambda p: PLACEHOLDER, "input_image": lambda p: PLACEHOLDER,
    }
    if kind in readers:
        return readers[kind](part)
    return flatten_content(part["content"]) if "content" in part else part.get("text", "")

def flatten_content(content):
    if content is None or isinstance(content, str):
        return content or ""
    return "\\n".join(filter(None, map(_text, [content] if isinstance(content, dict) else content)))
''',
    "user_block_message": '''
def user_block_message(block):
    match block:
        case {"type": "text", "text": text}:
            return {"role": "user", "content": text}
        case {"type": "tool_result"}:
            return {"role": "tool", "content": flatten_content(block.get("content"))}
        case _:
            text = flatten_content([block])
            return {"role": "user", "content": text if text else "[%s omitted]" % block["type"]}
''',
    "assistant_message": '''
def assistant_message(blocks):
    def joined(kind, key):
        return "".join(block[key] for block in blocks if block["type"] == kind)
    message = {"role": "assistant", "content": joined("text", "text")}
    if any(block["type"] == "thinking" for block in blocks):
        message["reasoning_content"] = joined("thinking", "thinking")
    calls = [tool_call_dict(block["name"], block["input"]) for block in blocks if block["type"] == "tool_use"]
    if calls:
        message["tool_calls"] = calls
    return message
''',
    "tools_to_chat_tools": '''
def tools_to_chat_tools(tools):
    result = []
    for tool in tools or []:
        function = {"name": tool["name"]}
        function["description"] = tool.get("description") or ""
        function["parameters"] = tool.get("input_schema") or {"type": "object", "properties": {}}
        result.append({"type": "function", "function": function})
    return result or None
''',
    "translate": '''
def translate(body):
    return [translate_messages(body["messages"], body.get("system")), tools_to_chat_tools(body.get("tools"))]
''',
    "tool_result_messages": '''
import itertools

def tool_result_messages(block):
    def message(content):
        return {"role": "tool", "tool_call_id": block["tool_use_id"], "content": content}
    content = block.get("content")
    if not isinstance(content, list):
        return [message(content or "")]
    parts = [p for p in map(content_part, content) if p != {"type": "text", "text": ""}]
    runs = [list(run) for _, run in itertools.groupby(parts, key=lambda p: p["type"] == "tool_reference")]
    return [message(run[0]["text"] if run == [{"type": "text", "text": run[0].get("text")}] else run) for run in runs] or [message("")]
''',
}


def wrong_source(stage: str, mutation: tuple[str, str]) -> str:
    old, new = mutation
    right = RIGHT[stage]
    assert right.count(old) == 1, f"the mutation {old!r} must match the right {stage} once"
    return ("import json\n" if "json." in new else "") + right.replace(old, new)


def rule_line(verdict) -> str:
    return repr(verdict).split("\n  The rule: ", 1)[1]


def expected_rule(stage: str, rule: str) -> str:
    owner, _, bullet = rule.rpartition(":")
    with using("en"):
        text = build_it.stages.plain(RULES["en"][owner or stage][bullet])
    return text if (owner or stage) == stage else f"({owner}) {text}"


# ---------------------------------------------------------------------------
# The proof


@pytest.mark.parametrize("stage", list(RIGHT))
def test_the_right_solution_passes(stage):
    verdict = check_in("en", stage, RIGHT[stage])
    assert verdict.ok, repr(verdict)


@pytest.mark.parametrize("stage, mistake, mutation, trap, rule", WRONG, ids=[f"{w[0]}: {w[1]}" for w in WRONG])
def test_a_wrong_solution_is_caught_at_its_trap_with_the_rule_it_breaks(stage, mistake, mutation, trap, rule):
    verdict = check_in("en", stage, wrong_source(stage, mutation))
    assert verdict.state == "wrong", f"{mistake}: {verdict!r}"
    text = repr(verdict)
    if trap is not None:
        assert f'The first is the trap "{trap}":' in text, f"{mistake}: {text}"
    else:  # no trap names this mistake: a generated input shows it
        assert "The first is generated variation #" in text, text
    assert rule_line(verdict) == expected_rule(stage, rule), f"{mistake}: {text}"


@pytest.mark.parametrize("stage, mistake, helper", BLAMED, ids=[f"{b[0]} calls a wrong {b[2]}" for b in BLAMED])
def test_a_wrong_helper_is_blamed_not_the_right_function_that_calls_it(stage, mistake, helper):
    wrong = MISTAKES[mistake]
    helper_source = wrong_source(wrong[0], wrong[2])
    found = examine_in("en", stage, helper_source + "\n" + _callers(helper, stage))
    assert found.verdict.state == "wrong" and found.blamed == helper, repr(found.verdict)
    text = repr(found.verdict)
    assert text.startswith(f"✗ not yet: {stage} calls your {helper}, which does not agree with the package yet"), text
    assert f'The first is the trap "{wrong[3]}"' in text and expected_rule(helper, wrong[4]) in text, text


def _callers(helper: str, stage: str) -> str:
    """The right sources of every stage from just after `helper` up to `stage`."""
    order = list(RIGHT)
    return "\n".join(RIGHT[name] for name in order[order.index(helper) + 1 : order.index(stage) + 1])


def test_a_helper_still_unwritten_is_named():
    source = "def assistant_message(blocks):\n    ...\n" + RIGHT["translate_messages"]
    verdict = check_in("en", "translate_messages", source)
    assert repr(verdict) == "✗ not yet: translate_messages calls your assistant_message, which is not written yet; write it first"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("body", ["return None", "result = content"])
def test_a_missing_return_is_named_not_called_unwritten(lang, body):
    """`return None` compiles to the starter's bytes, and a body without `return` returns None
    too: the learner has written something, and the verdict says what went wrong with it."""
    verdict = check_in(lang, "flatten_content", f"def flatten_content(content):\n    {body}\n")
    assert verdict.state == "wrong", repr(verdict)
    assert "return" in repr(verdict) and "None" in repr(verdict)
    assert ("not written yet" not in repr(verdict)) if lang == "en" else ("还没有写" not in repr(verdict))
    stub = check_in(lang, "flatten_content", 'def flatten_content(content):\n    """Mine."""\n    ...\n')
    assert stub.state == "unanswered", repr(stub)


@pytest.mark.parametrize("stage", list(ALSO_RIGHT))
def test_a_right_solution_written_differently_passes(stage):
    verdict = check_in("en", stage, ALSO_RIGHT[stage])
    assert verdict.ok, repr(verdict)


def test_the_proof_is_as_big_as_promised():
    """Issue 20 counted 53 wrong solutions caught and 5 right ones accepted; the proof keeps at least that."""
    assert len(WRONG) + len(BLAMED) >= 53 and len(ALSO_RIGHT) >= 5
    assert {stage for stage, *_ in WRONG} == set(build_it.stage_names())


# ---------------------------------------------------------------------------
# The wording


def test_a_wrong_verdict_shows_input_place_values_and_rule_in_chinese_too():
    source = wrong_source("user_block_message", MISTAKES["the pairing id kept"][2])
    verdict = repr(check_in("zh", "user_block_message", source))
    assert verdict.startswith("✗ 还不对：user_block_message 在 ")
    assert "第一个是陷阱「content 为字符串的 tool_result」" in verdict
    assert '返回值["tool_call_id"] 这个键不应存在，你的结果里却是 ' in verdict
    with using("zh"):  # the bullet in plain text: no Markdown backticks, a 。 at the end (L13)
        assert verdict.endswith("规则：" + build_it.stages.plain(RULES["zh"]["user_block_message"]["tool_result"]))
    assert "`" not in verdict


def test_every_trap_names_a_bullet_of_a_rule():
    for stage in build_it.stage_names():
        for label, _args, rule in build_it.STAGES[stage].traps():
            owner, _, bullet = rule.rpartition(":")
            assert bullet in RULES["en"][owner or stage], (stage, label, rule)
            assert set(RULES["zh"][owner or stage]) == set(RULES["en"][owner or stage])


def test_the_bullets_are_the_chapters_word_for_word():
    """A ✗ quotes the bullet as chapter 05 states it: each English bullet is in the chapter."""
    cells = json.loads(CHAPTER.read_text(encoding="utf-8"))["cells"]
    chapter = " ".join(" ".join("".join(cell["source"]).split()) for cell in cells if cell["cell_type"] == "markdown")
    for stage, bullets in RULES["en"].items():
        for key, bullet in bullets.items():
            assert " ".join(bullet.split()).rstrip(".") in chapter, f"{stage}.{key} is not in chapter 05: {bullet}"


def test_the_chinese_bullets_are_the_chinese_chapters_word_for_word():
    """A Chinese ✗ quotes the bullet as the Chinese chapter 05 states it (its last 。 or ； aside)."""
    cells = json.loads((ROOT / "notebooks" / "zh" / CHAPTER.name).read_text(encoding="utf-8"))["cells"]
    chapter = " ".join(" ".join("".join(cell["source"]).split()) for cell in cells if cell["cell_type"] == "markdown")
    for stage, bullets in RULES["zh"].items():
        for key, bullet in bullets.items():
            assert " ".join(bullet.split()).rstrip("。；") in chapter, f"{stage}.{key} is not in the Chinese chapter 05: {bullet}"


def test_the_chinese_verdicts_read_as_chinese_sentences():
    """Full-width brackets around an owner's name; a key that should not be there said as such
    (zh review 5, finding 5: not 应为（没有这个键）)."""
    verdict = repr(check_in("zh", "user_block_message", wrong_source("user_block_message", MISTAKES["the pairing id kept"][2])))
    assert '["tool_call_id"] 这个键不应存在，你的结果里却是 \'toolu_x\'' in verdict and "没有这个键" not in verdict, verdict
    with using("zh"):
        assert build_it.stages.rule_text("user_block_message:text", "translate_messages").startswith("（user_block_message）text 块")


def test_the_first_difference_comes_from_a_trap_before_any_generated_input():
    """The issue's example: a user_block_message that handles only text and tool_result used to be
    shown a generated `hologram` block; now it is shown the trap built for other blocks."""
    source = RIGHT["user_block_message"].replace("flatten_content([block]) or f\"[{block['type']} omitted]\"", 'block.get("text", "")')
    text = repr(check_in("en", "user_block_message", source))
    assert 'The first is the trap "an image"' in text and "hologram" not in text and "generated" not in text


def test_the_checker_reports_instead_of_raising():
    verdict = check_in("en", "flatten_content", "def flatten_content(content):\n    return content.upper()\n")
    assert verdict.state == "wrong"
    assert re.search(r"it raised AttributeError: 'NoneType' object has no attribute 'upper' \(line 2, in flatten_content\)", repr(verdict))
    changed = RIGHT["flatten_content"].replace("    return \"\\n\".join(texts)", "    joined = \"\\n\".join(texts)\n    content.clear()\n    return joined")
    assert "content.clear()" in changed
    assert "it changed its input" in repr(check_in("en", "flatten_content", changed))


# ---------------------------------------------------------------------------
# What the stages must catch themselves (issue 28): whitespace around every text, nested
# arguments, an input changed in place, and a difference always shown so it can be seen


def test_an_input_changed_in_place_cites_its_own_rule_not_a_traps():
    """A translate that pops max_tokens from the caller's body breaks no bullet of any stage: it
    breaks the rule every function keeps, and that is the rule quoted."""
    source = 'def translate(body):\n    body.pop("max_tokens", None)\n' \
             '    return translate_messages(body["messages"], body.get("system")), tools_to_chat_tools(body.get("tools"))\n'
    for lang in ("en", "zh"):
        text = repr(check_in(lang, "translate", source))
        rule = build_it.TEXT[lang]["rule_unchanged"]
        assert text.endswith(rule), text
        assert build_it.TEXT[lang]["changed"] in text
        assert "None" not in rule and "工具" not in rule


def test_generated_inputs_hold_nested_list_and_unicode_arguments():
    arguments = [block["input"] for case in build_it.all_cases("assistant_message") if case.kind == "generated"
                 for block in case.args[0] if block["type"] == "tool_use"]
    assert any(any(isinstance(value, dict) for value in found.values()) for found in arguments)
    assert any(any(isinstance(value, list) for value in found.values()) for found in arguments)
    assert any(not json.dumps(found).isascii() or not json.dumps(found, ensure_ascii=False).isascii() for found in arguments)
    assert {} in arguments


def _texts(value, place=""):
    """Every string under `value` with where it sits: (place, text)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, f"{place}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, f"{place}[]")
    elif isinstance(value, str):
        yield place, value


def test_generated_bodies_put_spaced_text_in_every_place_a_text_goes():
    """Leading/trailing spaces and newlines in the system prompt (string and blocks), user and
    assistant strings, text blocks of both roles, a tool_result's content string and list, and
    thinking: a .strip() anywhere is met by some generated input."""
    spaced_places = set()
    for case in build_it.all_cases("translate"):
        if case.kind != "generated":
            continue
        body = case.args[0]
        for place, text in _texts({"system": body.get("system"), "messages": body["messages"]}):
            if text and text != text.strip():
                role_free = re.sub(r"\[\]", "", place)
                spaced_places.add(role_free)
    for place in (".system", ".system.text", ".messages.content", ".messages.content.text",
                  ".messages.content.content", ".messages.content.content.text", ".messages.content.thinking"):
        assert place in spaced_places, (place, sorted(spaced_places))


@pytest.mark.parametrize("stage, mistake", [(w[0], w[1]) for w in WRONG if "stripped" in w[1]])
def test_a_stripped_text_is_shown_with_the_difference_in_view(stage, mistake):
    """Expected and got are never two strings that look alike: the first differing run is
    marked « », escaped (a newline is \\n, a space between the marks)."""
    text = repr(check_in("en", stage, wrong_source(stage, MISTAKES[mistake][2])))
    shown = re.search(r"expected (.+), got (.+)\n", text)
    assert shown, text
    want, have = shown.groups()
    assert want != have and "«" in want and "«" in have, text
    assert "\n" not in want + have  # escaped, not printed as a line break


@pytest.mark.parametrize("want, have", [
    ("  你好\n", "你好"),
    ("a" * 500 + "\n", "a" * 500),
    ("x" * 300 + " 中间 " + "y" * 300, "x" * 300 + "中间" + "y" * 300),
    ("第一段\n第二段", "第一段第二段"),
    ("tab\there", "tab here"),
    ("\u00e9", "e\u0301"),  # the same letter, composed and decomposed
])
def test_two_strings_that_differ_never_look_alike(want, have):
    from tutorial.notebook.build_it.checker import contrast

    for limit in (60, 160, 240):
        shown_want, shown_have = contrast(want, have, limit)
        assert shown_want != shown_have, (shown_want, shown_have)
        assert len(shown_want) <= limit + 20 and len(shown_have) <= limit + 20
        if "\u0301" not in have:  # what is between the marks differs
            inside = [re.search("«(.*)»", shown).group(1) for shown in (shown_want, shown_have)]
            assert inside[0] != inside[1]
        else:  # one letter written two ways: its code points are shown
            assert shown_want.isascii() and shown_have.isascii()


def test_a_difference_in_an_assistant_turn_without_thinking_cites_the_text_bullet():
    """Dropping the text beside a call used to cite the thinking bullet (the first trap that failed
    had thinking in it); the place says content, and only text makes it."""
    found = examine_in("en", "assistant_message", wrong_source("assistant_message", MISTAKES["the text beside a call dropped"][2]))
    assert found.rule == plain_in("en", RULES["en"]["assistant_message"]["text"])
    body = {"messages": [{"role": "user", "content": "读 a.py"},
                         {"role": "assistant", "content": [{"type": "text", "text": "我先读取文件。"},
                                                           {"type": "tool_use", "id": "toolu_a", "name": "read_file", "input": {}}]}]}
    expected = build_it.stages.translation.translate(body)
    yours = (expected[0][:1] + [{**expected[0][1], "content": ""}], expected[1])
    with using("en"):
        found = build_it.difference(yours, expected, body)
        assert found.rule == plain_in("en", RULES["en"]["assistant_message"]["text"]) and found.stage == "assistant_message"
        assert found.line().endswith("(the stage that checks this place: assistant_message).")


def test_a_replay_line_names_the_stage_of_the_place():
    body = {"system": "简短。", "messages": [{"role": "user", "content": [{"type": "text", "text": "你好\n"}]}],
            "tools": [{"name": "read_file"}]}
    expected = build_it.stages.translation.translate(body)
    cases = [
        ((expected[0][:1] + [{"role": "user", "content": "你好"}], expected[1]), "user_block_message", "text"),
        (([{"role": "system", "content": "简短"}] + expected[0][1:], expected[1]), "translate_messages", "system"),
        ((expected[0], []), "tools_to_chat_tools", None),
    ]
    for yours, stage, bullet in cases:
        with using("zh"):
            found = build_it.difference(yours, expected, body)
            assert found.stage == stage, found
            # zh review 3, M11: the stage is a note of its own after the rule's full stop, and 不同 is not said twice
            assert found.line().endswith(f"。（注：这个位置由 {stage} 这一阶段检查。）"), found.line()
            assert "不同" not in found.line().split("（« »")[0], found.line()
        if bullet:
            assert found.rule == plain_in("zh", RULES["zh"][stage][bullet])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_translate_that_returns_no_pair_is_told_so(lang):
    """A translate returning the message list alone was told 'differs at translated: expected [...],
    got {'role': 'system', ...}', which sends a learner into the messages (zh review 2, M5)."""
    import tutorial
    from tutorial.notebook.build_it.checker import check_stage

    def translate(body):
        return [{"role": "system", "content": "x"}]

    tutorial.use_language(lang)
    said = str(check_stage("translate", translate))
    assert ("(translated, tools_schema)" in said) and ("one item" in said if lang == "en" else "只有 1 项的列表（list）" in said), said
    assert "'role': 'system'" not in said.split("\n", 2)[-1], said


# ---------------------------------------------------------------------------
# An endless loop ends in a verdict, not a hung kernel (zh review 2, M10)


ENDLESS = """
import time
from tutorial.cli import grade
from tutorial.notebook.build_it import check_stage, guard
from tutorial.notebook.build_it.trajectory import check_trajectory_stage
from tutorial.words import use_language

def endless(*arguments):
    while True:
        pass

use_language({lang!r})
assert grade.CALL_SECONDS == guard.SECONDS == 5.0  # the one limit, grade's --timeout default
for check in (lambda: check_stage("tools_to_chat_tools", endless), lambda: check_trajectory_stage("classify", endless)):
    started = time.monotonic()
    verdict = check()
    print(round(time.monotonic() - started), verdict.state, repr(verdict).replace(chr(10), " "))
"""


@pytest.mark.parametrize("lang, said", [("en", "your function did not return within 5 s (an endless loop?)"),
                                        ("zh", "你的函数在 5 秒内没有返回，可能陷入了死循环")])
def test_check_stage_and_check_trajectory_stage_stop_an_endless_loop_after_grades_time_limit(lang, said):
    """zh review 2, M10. In a process of its own: the loop's thread spins on after the verdict
    (a thread cannot be stopped), and would slow every test after it."""
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", ENDLESS.format(lang=lang)], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 2, run.stdout
    for line in lines:
        seconds, state, verdict = line.split(" ", 2)
        assert int(seconds) < 15 and state == "wrong" and said in verdict, line


def _in(lang, function, *arguments):
    with using(lang):
        return function(*arguments)


def test_chapter_13s_verdicts_open_as_chapter_05s_with_the_rule_on_its_own_line():
    """zh review 2, M9: "✗ 还不对：" first, then "规则：…" on a line of its own, ending in 。."""
    from tutorial.notebook.build_it.trajectory import check_trajectory_stage

    def classify(held, response_start, prompt, output_length, fork_threshold):
        return "fork" if held else "clean"

    zh = repr(_in("zh", check_trajectory_stage, "classify", classify))
    assert zh.startswith("✗ 还不对：输入为「") and "\n  规则：" in zh and zh.endswith("。"), zh
    assert "下面这条规则" not in zh
    en = repr(_in("en", check_trajectory_stage, "classify", classify))
    assert en.startswith("✗ not yet: on ") and "\n  The rule: " in en and en.endswith("."), en


def plain_in(lang: str, bullet: str) -> str:
    """A bullet as a verdict prints it: no backticks, a full stop at the end (zh review 2, L13)."""
    with using(lang):
        return build_it.stages.plain(bullet)


# ---------------------------------------------------------------------------
# zh review 3 (M6, sweep M18): check_stage and check_trajectory_stage say the same situation in the same words


def test_the_two_checkers_say_the_same_situations_alike():
    from tutorial.notebook.build_it.trajectory import check_trajectory_stage

    def classify(held, response_start, prompt, output_length, fork_threshold):
        ...

    def flatten_content(content):
        ...

    def append(strip, prompt, output, kind):
        return None  # a value forgotten, not a stub (check_stage reads the source too)

    for lang in ("en", "zh"):
        stub = repr(_in(lang, check_trajectory_stage, "classify", classify))
        assert stub == repr(_in(lang, check_stage, "flatten_content", flatten_content)).replace("flatten_content", "classify")
        not_function = repr(_in(lang, check_trajectory_stage, "classify", 3))
        assert not_function == repr(_in(lang, check_stage, "flatten_content", 3)).replace("flatten_content", "classify")
        assert not_function.startswith("✗ ") and ("not written" not in not_function and "还没有写" not in not_function)
        none = repr(_in(lang, check_trajectory_stage, "append", append))
        assert ("Is a return missing?" in none) if lang == "en" else ("是不是漏写了 return？" in none and "return 出来" not in none)
    assert repr(_in("zh", check_trajectory_stage, "classify", classify)).startswith("… classify 还没有写：把 ... 换成你的代码")


@pytest.mark.parametrize("lang, close, listed", [
    ("en", "no stage called 'classfy'; did you mean 'classify'?", "no stage called 'nope'; the stages are classify, append"),
    ("zh", "没有名为 'classfy' 的阶段，是不是想写 'classify'？", "没有名为 'nope' 的阶段，可用的阶段是 classify、append"),
])
def test_both_checkers_refuse_a_stage_that_does_not_exist_alike(lang, close, listed):
    """zh review 4, finding 28: check_trajectory_stage returned a ✗ verdict for a misspelt stage
    while check_stage raised NoStage. Both raise it now (as check does for a misspelt exercise:
    a typo in the call is not a wrong answer to record), offering the close name."""
    from tutorial.notebook.build_it.stages import NoStage
    from tutorial.notebook.build_it.trajectory import check_trajectory_stage

    for function, name, said in ((check_trajectory_stage, "classfy", close), (check_trajectory_stage, "nope", listed)):
        with pytest.raises(NoStage) as refused:
            _in(lang, function, name, lambda *arguments: None)
        with using(lang):
            assert str(refused.value) == said
    with pytest.raises(NoStage) as refused:
        _in(lang, check_stage, "flatten", lambda content: "")
    with using(lang):
        assert str(refused.value) == ("no stage called 'flatten'; did you mean 'flatten_content'?" if lang == "en"
                                      else "没有名为 'flatten' 的阶段，是不是想写 'flatten_content'？")


def test_a_pass_opens_with_right_in_every_checker():
    """zh review 3: ✓ 正确：… as ✗ 还不对：… (and ✓ right: … as ✗ not yet: …)."""
    from tutorial import trajectory
    from tutorial.notebook.build_it.trajectory import check_trajectory_stage

    def classify(held, response_start, prompt, output_length, fork_threshold):
        return trajectory.drift_kind(list(held), response_start, trajectory.TurnRecord(list(prompt), [0] * output_length, "stop"),
                                     fork_threshold)  # fmt: skip

    assert repr(_in("zh", check_trajectory_stage, "classify", classify)).startswith("✓ 正确：classify 在全部 ")
    assert repr(_in("en", check_trajectory_stage, "classify", classify)).startswith("✓ right: classify agrees ")
    flatten = build_it.stages.translation.flatten_content
    assert repr(_in("zh", check_stage, "flatten_content", flatten)).startswith("✓ 正确：flatten_content 在全部 ")
    assert repr(_in("en", check_stage, "flatten_content", flatten)).startswith("✓ right: flatten_content agrees ")


def test_a_type_error_shows_how_the_function_is_called_instead_of_a_rule():
    """zh review sweep: a TypeError says how the check calls the function, not a rule it has nothing to do with."""
    from tutorial.notebook.build_it.trajectory import check_trajectory_stage

    def classify(held, prompt):
        return "clean"

    def inside(held, response_start, prompt, output_length, fork_threshold):
        return len(None)

    def translate_messages(messages):
        return []

    zh = repr(_in("zh", check_trajectory_stage, "classify", classify))
    assert "\n  检查时这样调用 classify：classify(held, response_start, prompt, output_length, fork_threshold)，请核对" in zh, zh
    assert "规则：" not in zh
    zh = repr(_in("zh", check_trajectory_stage, "classify", inside))
    assert "TypeError: object of type 'NoneType' has no len()" in zh and zh.endswith("fork_threshold)。") and "规则：" not in zh, zh
    en = repr(_in("en", check_trajectory_stage, "classify", classify))
    assert en.endswith("classify is called as classify(held, response_start, prompt, output_length, fork_threshold): "
                       "check how many arguments it takes and in what order."), en
    for lang, said in (("en", "translate_messages is called as translate_messages(messages, system)"),
                       ("zh", "检查时这样调用 translate_messages：translate_messages(messages, system)")):
        verdict = repr(_in(lang, check_stage, "translate_messages", translate_messages))
        assert said in verdict and "The rule:" not in verdict and "规则：" not in verdict, verdict



@pytest.mark.parametrize("lang, given, said", [
    ("zh", "flatten_content", "✗ 还不对：check_stage 要的是函数 flatten_content 本身（不加引号），这里拿到的是字符串 'flatten_content'。"),
    ("en", "flatten_content", "✗ not yet: check_stage wants the function flatten_content itself (no quotes), got the text 'flatten_content'"),
    ("zh", "x = 1\n", "✗ 还不对：作为 flatten_content 传进来的源代码里没有定义任何函数。"),
    ("zh", "def flatten_content(c:\n    pass\n", "✗ 还不对：作为 flatten_content 传进来的源代码无法运行，SyntaxError: '(' was never closed（第 1 行）"),
    ("en", "import no_such_module_here\n", "✗ not yet: the source text given for flatten_content does not run: "
                                          "ModuleNotFoundError: No module named 'no_such_module_here'"),
])
def test_a_string_that_is_not_a_function_gets_a_verdict_not_a_traceback(lang, given, said):
    """zh review 6, finding 3: the name in quotes, or source text that defines nothing or does not run."""
    verdict = check_in(lang, "flatten_content", given)
    assert verdict.state == "wrong" and repr(verdict) == said


def test_a_function_that_raises_on_every_input_is_told_to_fix_that_line_first():
    def flatten_content(content):
        raise RuntimeError("not yet")

    verdict = repr(check_in("en", "flatten_content", flatten_content))
    assert "It raised on every input" in verdict and "The rule:" not in verdict
    partly = repr(check_in("en", "flatten_content", lambda content: content.strip()))  # raises on lists only
    assert "The rule:" in partly and "every input" not in partly
