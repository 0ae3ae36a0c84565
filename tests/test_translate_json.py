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
