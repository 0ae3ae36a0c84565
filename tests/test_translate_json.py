"""`translate_json`: Action 2 from the bytes a server receives."""

from __future__ import annotations

import json

import pytest

import tutorial


@pytest.mark.parametrize("target", ["chat_template", "openai"])
def test_bytes_and_text_give_what_translate_gives(target):
    body = tutorial.readme_request()
    raw = json.dumps(body, ensure_ascii=False)
    expected = tutorial.translate(body, target=target)
    assert tutorial.translate_json(raw.encode("utf-8"), target=target) == expected
    assert tutorial.translate_json(raw, target=target) == expected
    assert tutorial.translate_json(b"\xef\xbb\xbf" + raw.encode("utf-8"), target=target) == expected  # a BOM is skipped


@pytest.mark.parametrize(
    "raw, start",
    [
        (b"{", "body: the request body is not valid JSON"),
        (b"\xff", "body: the request body is not UTF-8"),
        (b"[" * 50_000 + b"]" * 50_000, "body: the request body "),
        (b'{"messages": [{"role": "user", "content": [{"type": "tool_result"}]}]}', "messages[0].content[0].tool_use_id: is required"),
    ],
)
def test_bad_bytes_are_located(raw, start):
    with pytest.raises(tutorial.RequestError) as raised:
        tutorial.translate_json(raw)
    assert str(raised.value).startswith(start), str(raised.value)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("target", ["chat_template", "openai"])
@pytest.mark.parametrize("name", ["agent_request", "claude_code_request"])
def test_the_benchmark_bodies_read_in_one_pass_and_translate_as_dicts_do(name, target):
    """The bodies `benchmarks/translate_cost.py` measures take the one-pass way (`read_body`),
    deep tool schemas included, and come out as `translate` of the same dict."""
    from tutorial import contract, examples

    body = getattr(examples, name)()
    raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
    assert contract.read_body(raw) is not None, "the body took the slow way"
    assert tutorial.translate_json(raw, target=target) == tutorial.translate(body, target=target)


def _nested(depth: int) -> dict:
    value: object = 1
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize("depth", [11, 12, 13, 53, 54, 55, 60])
@pytest.mark.parametrize("where", ["input", "input_schema", "metadata"])
def test_free_values_at_every_depth_get_the_same_answer_from_bytes_and_dicts(where, depth):
    """In JSON text free values are checked twelve levels deep in Rust, deeper ones in Python:
    either way the bytes entry accepts what `translate` accepts and refuses it with the same words."""
    body = {"messages": [{"role": "user", "content": "hi"}]}
    if where == "input":
        body["messages"].append({"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": _nested(depth)}]})
    elif where == "input_schema":
        body["tools"] = [{"name": "f", "input_schema": _nested(depth)}]
    else:
        body["metadata"] = _nested(depth)
    raw = json.dumps(body).encode("utf-8")
    try:
        expected = tutorial.translate(body)
    except tutorial.RequestError as error:
        with pytest.raises(tutorial.RequestError) as raised:
            tutorial.translate_json(raw)
        assert str(raised.value) == str(error)
    else:
        assert tutorial.translate_json(raw) == expected
