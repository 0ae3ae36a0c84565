"""One test per kind of bad input: the error's location tuple and the start of its message."""

from __future__ import annotations

import copy

import pytest

from tutorial import RequestError, preprocess, trace, translate, translate_messages, tools_to_chat_tools


def readme_with(change):
    from tutorial import readme_request

    body = readme_request()
    change(body)
    return body


def setter(path, value):
    def change(body):
        target = body
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def deleter(path):
    def change(body):
        target = body
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


BAD_INPUT = [
    ("messages missing", deleter(("messages",)), ("messages",), "messages: is required"),
    ("messages not a list", setter(("messages",), {"role": "user"}), ("messages",), "messages: must be a list"),
    ("message not an object", setter(("messages", 1), "hello"), ("messages", 1), "messages[1]: must be an object"),
    ("role missing", deleter(("messages", 1, "role")), ("messages", 1, "role"), "messages[1].role: is required"),
    ("role invalid", setter(("messages", 1, "role"), "tool"), ("messages", 1, "role"), "messages[1].role: must be 'user', 'assistant' or 'system'"),
    ("content neither string nor list", setter(("messages", 0, "content"), 42), ("messages", 0, "content"), "messages[0].content: must be a string or a list"),
    ("content missing", deleter(("messages", 0, "content")), ("messages", 0, "content"), "messages[0].content: is required"),
    ("block not an object", setter(("messages", 0, "content", 0), "text"), ("messages", 0, "content", 0), "messages[0].content[0]: must be a content block"),
    ("block without type", deleter(("messages", 0, "content", 0, "type")), ("messages", 0, "content", 0, "type"), "messages[0].content[0].type: is required"),
    ("block type not a string", setter(("messages", 0, "content", 0, "type"), 3), ("messages", 0, "content", 0, "type"), "messages[0].content[0].type: must be a string"),
    ("text without text", deleter(("messages", 0, "content", 0, "text")), ("messages", 0, "content", 0, "text"), "messages[0].content[0].text: is required"),
    ("text not a string", setter(("messages", 0, "content", 0, "text"), ["x"]), ("messages", 0, "content", 0, "text"), "messages[0].content[0].text: must be a string"),
    ("tool_use without id", deleter(("messages", 1, "content", 1, "id")), ("messages", 1, "content", 1, "id"), "messages[1].content[1].id: is required"),
    ("tool_use without name", deleter(("messages", 1, "content", 1, "name")), ("messages", 1, "content", 1, "name"), "messages[1].content[1].name: is required"),
    ("tool_use input not an object", setter(("messages", 1, "content", 1, "input"), '{"path": "x"}'), ("messages", 1, "content", 1, "input"), "messages[1].content[1].input: must be an object"),
    ("tool_result without tool_use_id", deleter(("messages", 2, "content", 0, "tool_use_id")), ("messages", 2, "content", 0, "tool_use_id"), "messages[2].content[0].tool_use_id: is required"),
    ("tool_result id not a string", setter(("messages", 2, "content", 0, "tool_use_id"), 7), ("messages", 2, "content", 0, "tool_use_id"), "messages[2].content[0].tool_use_id: must be a string"),
    ("image without source", setter(("messages", 0, "content", 0), {"type": "image"}), ("messages", 0, "content", 0, "source"), "messages[0].content[0].source: is required"),
    ("image with an unusable source", setter(("messages", 0, "content", 0), {"type": "image", "source": {"type": "s3", "key": "f"}}), ("messages", 0, "content", 0, "source"), "messages[0].content[0].source: must be an object with type 'base64'"),
    ("image source without data", setter(("messages", 0, "content", 0), {"type": "image", "source": {"type": "base64", "media_type": "image/png"}}), ("messages", 0, "content", 0, "source", "data"), "messages[0].content[0].source.data: is required"),
    ("system not string or list", setter(("system",), {"text": "x"}), ("system",), "system: must be a string or a list of text blocks"),
    ("system with a non-text block", setter(("system", 0), {"type": "image", "source": {}}), ("system", 0, "type"), "system[0].type: must be 'text'"),
    ("tools not a list", setter(("tools",), {"name": "f"}), ("tools",), "tools: must be a list"),
    ("tool without name", deleter(("tools", 0, "name")), ("tools", 0, "name"), "tools[0].name: is required"),
    ("input_schema not an object", setter(("tools", 0, "input_schema"), "object"), ("tools", 0, "input_schema"), "tools[0].input_schema: must be an object"),
    ("nested image without source", setter(("messages", 2, "content", 0, "content", 0), {"type": "image"}), ("messages", 2, "content", 0, "content", 0, "source"), "messages[2].content[0].content[0].source: is required"),
    ("nested text without text", deleter(("messages", 2, "content", 0, "content", 0, "text")), ("messages", 2, "content", 0, "content", 0, "text"), "messages[2].content[0].content[0].text: is required"),
    ("thinking text not a string", setter(("messages", 1, "content", 0), {"type": "thinking", "thinking": 3}), ("messages", 1, "content", 0, "thinking"), "messages[1].content[0].thinking: must be a string"),
    ("signature not a string", setter(("messages", 1, "content", 0), {"type": "thinking", "thinking": "t", "signature": 5}), ("messages", 1, "content", 0, "signature"), "messages[1].content[0].signature: must be a string"),
    ("search_result content not a list", setter(("messages", 0, "content", 0), {"type": "search_result", "title": "T", "source": "S", "content": 5}), ("messages", 0, "content", 0, "content"), "messages[0].content[0].content: must be a list"),
    ("nested tool_result item not a block", setter(("messages", 2, "content", 0, "content", 0), 5), ("messages", 2, "content", 0, "content", 0), "messages[2].content[0].content[0]: must be a content block"),
]  # fmt: skip


@pytest.mark.parametrize("kind, change, location, start", BAD_INPUT, ids=[row[0] for row in BAD_INPUT])
@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_bad_input_is_located(kind, change, location, start, target):
    body = readme_with(change)
    for run in (lambda: translate(body, target=target), lambda: trace(body, target=target)):
        with pytest.raises(RequestError) as caught:
            run()
        assert caught.value.location == location
        assert str(caught.value).startswith(start), str(caught.value)
        assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("body", [None, [], "{}", 3])
def test_body_not_an_object(body):
    with pytest.raises(RequestError) as caught:
        translate(body)
    assert caught.value.location == ()
    assert str(caught.value).startswith("body: the request body must be a JSON object")


def test_first_problem_in_body_order_wins():
    from tutorial import readme_request

    body = readme_request()
    del body["messages"][2]["content"][0]["tool_use_id"]
    body["messages"][0]["content"][0]["text"] = 5
    with pytest.raises(RequestError) as caught:
        translate(body)
    assert caught.value.location == ("messages", 0, "content", 0, "text")


def test_structural_checks_come_before_the_target_rules():
    body = {"messages": [{"role": "user", "content": [{"type": "document", "source": {}}, {"type": "text"}]}]}
    with pytest.raises(RequestError) as caught:
        translate(body, target="openai")
    assert caught.value.location == ("messages", 0, "content", 1, "text")


def test_unknown_block_type_is_no_error_for_the_default_target():
    body = {"messages": [{"role": "user", "content": [{"type": "hologram", "frames": 3}]}]}
    assert translate(body)[0] == [{"role": "user", "content": "[hologram omitted]"}]
    assert [loss.path for loss in trace(body).losses] == ["messages[0].content[0]"]


def test_helpers_locate_errors_as_in_a_body():
    with pytest.raises(RequestError, match=r"^messages\[0\]\.content\[0\]\.tool_use_id: "):
        translate_messages([{"role": "user", "content": [{"type": "tool_result"}]}], None)
    with pytest.raises(RequestError, match=r"^system: "):
        translate_messages([], 5)
    with pytest.raises(RequestError, match=r"^tools\[1\]\.name: "):
        tools_to_chat_tools([{"name": "a"}, {"description": "no name"}])


def test_preprocess_checks_before_folding():
    with pytest.raises(RequestError) as caught:
        preprocess({"messages": [{"role": "user", "content": "a"}, {"role": "system"}]})
    assert caught.value.location == ("messages", 1, "content")


def test_errors_never_leak_other_exceptions_for_odd_json():
    odd = [{"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": {"type": "text"}}]}]},
           {"messages": [{"role": "assistant", "content": [{"type": "thinking"}]}]},
           {"messages": [], "tools": [None]},
           {"messages": [], "system": [None]}]  # fmt: skip
    for body in odd:
        for target in ("chat_template", "openai"):
            with pytest.raises(RequestError):
                translate(copy.deepcopy(body), target=target)


def test_a_null_signature_is_accepted_and_reported_as_lost():
    body = {"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": None}]}]}
    assert translate(body)[0][1] == {"role": "assistant", "content": "", "reasoning_content": "t"}
    assert [loss.path for loss in trace(body).losses] == ["messages[1].content[0].signature"]


def test_openai_refusals_say_where_a_misplaced_block_belongs():
    body = {"messages": [{"role": "user", "content": [{"type": "thinking", "thinking": "x"}]}]}
    with pytest.raises(RequestError, match=r"^messages\[0\]\.content\[0\]\.type: a block of type 'thinking' cannot be carried in a user message: it belongs in an assistant message"):
        translate(body, target="openai")
    empty_reference = {"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": [{"type": "tool_reference", "tool_name": ""}]}]}]}
    with pytest.raises(RequestError) as caught:
        translate(empty_reference, target="openai")
    assert caught.value.location == ("messages", 0, "content", 0, "content", 0, "tool_name")


def test_trace_locates_openai_refusals_in_the_body_as_sent():
    body = {"messages": [{"role": "user", "content": "a"}, {"role": "system", "content": "r"}, {"role": "user", "content": [{"type": "document", "source": {}}]}]}
    for run in (translate, trace):
        with pytest.raises(RequestError) as caught:
            run(body, target="openai")
        assert caught.value.location == ("messages", 2, "content", 0, "type")


@pytest.mark.parametrize("kind, change, location, start", BAD_INPUT[:6], ids=[row[0] for row in BAD_INPUT[:6]])
def test_located_errors_keep_their_location_and_give_their_reason_in_the_language(kind, change, location, start, monkeypatch):
    """Under Chinese a located error keeps its location (it names JSON) and gives its reason in
    Chinese; English is what it always was, and `error.problem` stays English for programs."""
    from tutorial.words import errors as error_words

    body = readme_with(change)
    said, problems = {}, {}
    for lang in ("en", "zh"):
        monkeypatch.setattr("tutorial.words._chosen", lang)
        with pytest.raises(RequestError) as caught:
            translate(copy.deepcopy(body))
        said[lang], problems[lang] = str(caught.value), caught.value.problem
    error = caught.value
    where = said["en"].split(": ", 1)[0]
    assert said["en"].startswith(start) and problems["zh"] == problems["en"]
    assert said["zh"] == f"{where}: {error_words.chinese(error.key, error.values)}" and said["zh"] != said["en"]
