"""SPEC.md, rule by rule, for both targets: each row is a body and what it must become."""

from __future__ import annotations

import copy
import json

import pytest

from tutorial import flatten_content, tool_call_dict, tools_to_chat_tools, translate, translate_messages


def text(t, **extra):
    return {"type": "text", "text": t, **extra}


def user(*blocks):
    return {"role": "user", "content": list(blocks)}


def assistant(*blocks):
    return {"role": "assistant", "content": list(blocks)}


def tool_use(id_, name, input_):
    return {"type": "tool_use", "id": id_, "name": name, "input": input_}


def tool_result(id_, content, **extra):
    return {"type": "tool_result", "tool_use_id": id_, "content": content, **extra}


PNG = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
URL_IMAGE = {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}}
REFERENCE = {"type": "tool_reference", "tool_name": "grep"}


# (rule, messages, system, expected translated) for the default target
CHAT_TEMPLATE_MESSAGES = [
    ("system absent", [], None, []),
    ("system empty string", [], "", []),
    ("system empty list", [], [], []),
    ("system string", [], "be brief", [{"role": "system", "content": "be brief"}]),
    ("system blocks flattened with newline", [], [text("A"), text("B")], [{"role": "system", "content": "A\nB"}]),
    ("user string", [{"role": "user", "content": "hi"}], None, [{"role": "user", "content": "hi"}]),
    ("one message per user block", [user(text("one"), text("two"))], None,
     [{"role": "user", "content": "one"}, {"role": "user", "content": "two"}]),
    ("tool_result becomes a tool message without id", [user(tool_result("t1", [text("out")]), text("next"))], None,
     [{"role": "tool", "content": "out"}, {"role": "user", "content": "next"}]),
    ("tool_result string content", [user(tool_result("t1", "plain"))], None, [{"role": "tool", "content": "plain"}]),
    ("tool_result without content", [user({"type": "tool_result", "tool_use_id": "t1"})], None, [{"role": "tool", "content": ""}]),
    ("image gives a placeholder", [user(PNG)], None, [{"role": "user", "content": "[image omitted]"}]),
    ("empty other block names its type", [user({"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBE"}})], None,
     [{"role": "user", "content": "[document omitted]"}]),
    ("unknown block with text keeps the text", [user({"type": "future_block", "text": "still here"})], None,
     [{"role": "user", "content": "still here"}]),
    ("search_result flattens its content", [user({"type": "search_result", "title": "T", "source": "S", "content": [text("found")]})], None,
     [{"role": "user", "content": "found"}]),
    ("assistant string", [{"role": "assistant", "content": "ok"}], None, [{"role": "assistant", "content": "ok"}]),
    ("assistant texts joined with nothing", [assistant(text("a"), text("b"))], None, [{"role": "assistant", "content": "ab"}]),
    ("assistant without text has empty content", [assistant(tool_use("t", "f", {}))], None,
     [{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {}}}]}]),
    ("thinking joined, signature dropped", [assistant({"type": "thinking", "thinking": "x", "signature": "s"}, {"type": "thinking", "thinking": "y"}, text("t"))], None,
     [{"role": "assistant", "content": "t", "reasoning_content": "xy"}]),
    ("tool calls keep order, lose ids", [assistant(tool_use("a", "f", {"k": 1}), tool_use("b", "g", {"k": 2}))], None,
     [{"role": "assistant", "content": "", "tool_calls": [
         {"type": "function", "function": {"name": "f", "arguments": {"k": 1}}},
         {"type": "function", "function": {"name": "g", "arguments": {"k": 2}}}]}]),
    ("other assistant blocks dropped", [assistant({"type": "redacted_thinking", "data": "xx"}, text("t"))], None,
     [{"role": "assistant", "content": "t"}]),
    ("system message inside the list", [{"role": "system", "content": [text("rule")]}], None, [{"role": "system", "content": "rule"}]),
]  # fmt: skip


@pytest.mark.parametrize("rule, messages, system, expected", CHAT_TEMPLATE_MESSAGES, ids=[row[0] for row in CHAT_TEMPLATE_MESSAGES])
def test_chat_template_messages(rule, messages, system, expected):
    assert translate_messages(messages, system) == expected
    body = {"messages": messages, **({"system": system} if system is not None else {})}
    assert translate(body)[0] == expected


OPENAI_MESSAGES = [
    ("system string", [], "be brief", [{"role": "system", "content": "be brief"}]),
    ("system blocks joined, empty skipped", [], [text("A"), text(""), text("B")], [{"role": "system", "content": "A\nB"}]),
    ("blank system gives none", [], [text("")], []),
    ("single text part is a string", [user(text("hi"))], None, [{"role": "user", "content": "hi"}]),
    ("several parts stay a list", [user(text("a"), text("b"))], None,
     [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]),
    ("wire order kept around a tool result", [user(text("before"), tool_result("t1", "r"), text("after"))], None,
     [{"role": "user", "content": "before"}, {"role": "tool", "tool_call_id": "t1", "content": "r"}, {"role": "user", "content": "after"}]),
    ("base64 image becomes a data url", [user(PNG)], None,
     [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]}]),
    ("url image keeps its url", [user(URL_IMAGE)], None,
     [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}]}]),
    ("search_result becomes text", [user({"type": "search_result", "title": "T", "source": "S", "content": [text("found")]})], None,
     [{"role": "user", "content": "Title: T\nSource: S\nContent: found"}]),
    ("one text result is a string", [user(tool_result("t1", [text("out")]))], None, [{"role": "tool", "tool_call_id": "t1", "content": "out"}]),
    ("empty result gives one empty message", [user(tool_result("t1", []))], None, [{"role": "tool", "tool_call_id": "t1", "content": ""}]),
    ("only references stay one message", [user(tool_result("t1", [REFERENCE, {"type": "tool_reference", "tool_name": "ls"}]))], None,
     [{"role": "tool", "tool_call_id": "t1", "content": [{"type": "tool_reference", "name": "grep"}, {"type": "tool_reference", "name": "ls"}]}]),
    ("mixed result splits into runs", [user(tool_result("t1", [text("a"), REFERENCE, text("b"), text("c")]))], None,
     [{"role": "tool", "tool_call_id": "t1", "content": "a"},
      {"role": "tool", "tool_call_id": "t1", "content": [{"type": "tool_reference", "name": "grep"}]},
      {"role": "tool", "tool_call_id": "t1", "content": [{"type": "text", "text": "b"}, {"type": "text", "text": "c"}]}]),
    ("image inside a result", [user(tool_result("t1", [text("shot"), PNG]))], None,
     [{"role": "tool", "tool_call_id": "t1", "content": [{"type": "text", "text": "shot"},
                                                          {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]}]),
    ("one assistant text is a string", [assistant(text("t"))], None, [{"role": "assistant", "content": "t"}]),
    ("several assistant texts are parts", [assistant(text("a"), text("b"))], None,
     [{"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]),
    ("thinking joined with newline", [assistant({"type": "thinking", "thinking": "x", "signature": "s"}, {"type": "thinking", "thinking": "y"})], None,
     [{"role": "assistant", "content": "", "reasoning_content": "x\ny"}]),
    ("tool call keeps id, arguments become JSON text", [assistant(tool_use("toolu_1", "read", {"路径": "说明.md"}))], None,
     [{"role": "assistant", "content": "", "tool_calls": [
         {"id": "toolu_1", "type": "function", "function": {"name": "read", "arguments": '{"路径": "说明.md"}'}}]}]),
]  # fmt: skip


@pytest.mark.parametrize("rule, messages, system, expected", OPENAI_MESSAGES, ids=[row[0] for row in OPENAI_MESSAGES])
def test_openai_messages(rule, messages, system, expected):
    assert translate_messages(messages, system, target="openai") == expected


@pytest.mark.parametrize("kind", ["document", "redacted_thinking", "server_tool_use", "web_search_tool_result", "brand_new_block"])
def test_openai_refuses_blocks_it_cannot_carry(kind):
    from tutorial import RequestError

    block = {"type": kind, "data": "x"} if kind != "document" else {"type": "document", "source": {"type": "text", "data": "d"}}
    role = "user" if kind in ("document", "brand_new_block") else "assistant"
    body = {"messages": [{"role": "user", "content": "q"}, {"role": role, "content": [text("t"), block]}]}
    with pytest.raises(RequestError) as caught:
        translate(body, target="openai")
    assert caught.value.location == ("messages", 1, "content", 1, "type")
    assert kind in str(caught.value) and str(caught.value).startswith("messages[1].content[1].type: ")
    assert translate(body)[0]  # the default target takes the same body


SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}
TOOLS = [
    ("absent", None, None, None),
    ("empty", [], None, None),
    ("wrapped and renamed", [{"name": "f", "description": "d", "input_schema": SCHEMA}],
     [{"type": "function", "function": {"name": "f", "description": "d", "parameters": SCHEMA}}],
     [{"type": "function", "function": {"name": "f", "description": "d", "parameters": SCHEMA}}]),
    ("missing description and schema", [{"name": "f"}],
     [{"type": "function", "function": {"name": "f", "description": "", "parameters": {"type": "object", "properties": {}}}}], "error"),
    ("server tool", [{"type": "web_search_20250305", "name": "web_search"}],
     [{"type": "function", "function": {"name": "web_search", "description": "", "parameters": {"type": "object", "properties": {}}}}], None),
    ("custom type is an ordinary tool", [{"type": "custom", "name": "f", "input_schema": SCHEMA}],
     [{"type": "function", "function": {"name": "f", "description": "", "parameters": SCHEMA}}],
     [{"type": "function", "function": {"name": "f", "description": "", "parameters": SCHEMA}}]),
]  # fmt: skip


@pytest.mark.parametrize("rule, tools, chat_template, openai", TOOLS, ids=[row[0] for row in TOOLS])
def test_tools(rule, tools, chat_template, openai):
    from tutorial import RequestError

    assert tools_to_chat_tools(tools) == chat_template
    if openai == "error":
        with pytest.raises(RequestError, match=r"^tools\[0\]\.input_schema: "):
            tools_to_chat_tools(tools, target="openai")
    else:
        assert tools_to_chat_tools(tools, target="openai") == openai


FLATTEN = [
    ("None", None, ""),
    ("string", "s", "s"),
    ("single block", {"type": "text", "text": "t"}, "t"),
    ("string items", ["a", "b"], "a\nb"),
    ("text kinds", [{"type": "input_text", "text": "i"}, {"type": "output_text", "text": "o"}], "i\no"),
    ("nested tool_result", [{"type": "tool_result", "tool_use_id": "x", "content": [text("in")]}], "in"),
    ("image kinds", [{"type": "image"}, {"type": "image_url"}, {"type": "input_image"}], "[image omitted]\n[image omitted]\n[image omitted]"),
    ("other block with content", [{"type": "x", "content": "c"}], "c"),
    ("other block with text", [{"type": "x", "text": "t"}], "t"),
    ("anything else contributes nothing", [{"type": "x"}, 7, None], ""),
    ("empty parts skipped", [text(""), text("a"), text("")], "a"),
]


@pytest.mark.parametrize("rule, value, expected", FLATTEN, ids=[row[0] for row in FLATTEN])
def test_flatten_content(rule, value, expected):
    assert flatten_content(value) == expected


def test_tool_call_dict_keeps_a_dict_and_defaults_to_empty():
    arguments = {"path": "README.md"}
    call = tool_call_dict("read_file", arguments)
    assert call == {"type": "function", "function": {"name": "read_file", "arguments": {"path": "README.md"}}}
    assert isinstance(call["function"]["arguments"], dict)
    assert tool_call_dict("f", None)["function"]["arguments"] == {}


def test_readme_example_translates_exactly_to_the_brief(readme, brief_translated, brief_tools_schema):
    assert translate(readme) == (brief_translated, brief_tools_schema)


def test_no_tools_gives_none_in_the_tuple(readme):
    body = {key: value for key, value in readme.items() if key != "tools"}
    translated, tools_schema = translate(body)
    assert len(translated) == 5 and tools_schema is None


@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_no_function_mutates_its_arguments(readme, target):
    body = copy.deepcopy(readme)
    body["messages"].append({"role": "system", "content": "reminder"})
    before = json.dumps(body, sort_keys=True)
    from tutorial import preprocess, trace

    translate(body, target=target)
    preprocess(body)
    trace(body, target=target)
    assert json.dumps(body, sort_keys=True) == before


def test_unknown_target_is_a_clear_error(readme):
    with pytest.raises(ValueError, match="target must be one of"):
        translate(readme, target="vllm")
