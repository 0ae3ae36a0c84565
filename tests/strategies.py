"""Hypothesis strategies for Anthropic request bodies: every block kind, nesting, Unicode.

`requests()` draws bodies the default target takes; `requests(openai=True)` only what
the "openai" target carries (no documents, redacted thinking, server-tool or unknown
blocks; every custom tool has an input_schema). Tool inputs nest deeper than
pydantic-core's shallow check (tutorial/contract/), so both ways of checking a free value run.
"""

from __future__ import annotations

from hypothesis import strategies as st

# Chinese, accents, emoji, quotes, backslashes and newlines: the text that breaks things.
ALPHABET = st.sampled_from(list("ab z09你是代码助手。読みéß🙂\"'\\\n\t{}<>|#"))
texts = st.text(ALPHABET, max_size=12)
names = st.from_regex(r"[a-z_]{1,8}", fullmatch=True)
ids = st.from_regex(r"toolu_[0-9a-f]{6}", fullmatch=True)
cache = st.sampled_from([{}, {"cache_control": {"type": "ephemeral"}}])
json_leaves = st.one_of(texts, st.integers(-5, 5), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none())
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=2) | st.dictionaries(names, inner, max_size=2), max_leaves=10)
arguments = st.dictionaries(names, st.one_of(json_leaves, st.lists(json_leaves, max_size=2), json_values), max_size=3)


def text_block():
    return st.builds(lambda t, extra: {"type": "text", "text": t, **extra}, texts, cache)


def image_block():
    base64 = st.builds(lambda d: {"type": "base64", "media_type": "image/png", "data": d}, st.from_regex(r"[A-Za-z0-9+/]{4,12}", fullmatch=True))
    url = st.builds(lambda p: {"type": "url", "url": f"https://example.com/{p}.png"}, names)
    file = st.builds(lambda f: {"type": "file", "file_id": f"file_{f}"}, names)  # the Files API
    return st.builds(lambda source: {"type": "image", "source": source}, st.one_of(base64, url, file))


def tool_reference():
    return st.builds(lambda n: {"type": "tool_reference", "tool_name": n}, names)


def search_result():
    return st.builds(lambda title, source, body: {"type": "search_result", "title": title, "source": source, "content": [{"type": "text", "text": body}]}, texts, texts, texts)


def tool_result(openai: bool):
    items = st.one_of(text_block(), image_block(), tool_reference(), search_result())
    content = st.one_of(st.none(), texts, st.lists(items, max_size=4))
    flag = st.sampled_from([{}, {"is_error": True}, {"is_error": False}])
    return st.builds(lambda i, c, f: {"type": "tool_result", "tool_use_id": i, **({} if c is None else {"content": c}), **f}, ids, content, flag)


def odd_user_blocks():
    document = st.builds(lambda d: {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": d}, "title": "a.pdf"}, names)
    unknown = st.builds(lambda t, extra: {"type": "future_" + extra, "text": t, "extra": extra}, texts, names)
    bare = st.builds(lambda n: {"type": "hologram", "frames": n}, st.integers(0, 3))
    return st.one_of(document, unknown, bare)


def user_message(openai: bool):
    block = st.one_of(text_block(), image_block(), tool_result(openai), search_result())
    if not openai:
        block = st.one_of(block, odd_user_blocks())
    content = st.one_of(texts, st.lists(block, max_size=4))
    return st.builds(lambda c: {"role": "user", "content": c}, content)


def assistant_message(openai: bool):
    thinking = st.builds(lambda t, s: {"type": "thinking", "thinking": t, **s}, texts, st.sampled_from([{}, {"signature": "c2ln"}]))
    tool_use = st.builds(lambda i, n, a: {"type": "tool_use", "id": i, "name": n, "input": a}, ids, names, arguments)
    block = st.one_of(text_block(), thinking, tool_use)
    if not openai:
        redacted = st.just({"type": "redacted_thinking", "data": "ZW5j"})
        server = st.builds(lambda i: {"type": "server_tool_use", "id": i, "name": "web_search", "input": {"query": "q"}}, ids)
        block = st.one_of(block, redacted, server)
    content = st.one_of(texts, st.lists(block, max_size=4))
    return st.builds(lambda c: {"role": "assistant", "content": c}, content)


def system_message():
    return st.builds(lambda c: {"role": "system", "content": c}, st.one_of(texts, st.lists(text_block(), min_size=1, max_size=2)))


def tools(openai: bool):
    custom = st.builds(
        lambda n, d, schema: {"name": n, **d, **schema},
        names,
        st.sampled_from([{}, {"description": "读取文件"}, {"description": None}]),
        st.sampled_from([{"input_schema": {"type": "object", "properties": {"p": {"type": "string"}}}}] + ([] if openai else [{}])),
    )
    server = st.builds(lambda n: {"type": "web_search_20250305", "name": n, "max_uses": 2}, names)
    client = st.sampled_from([
        {"type": "bash_20250124", "name": "bash"},
        {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool", "max_characters": 10000},
        {"type": "computer_20250124", "name": "computer", "display_width_px": 1024, "display_height_px": 768},
        {"type": "memory_20250818", "name": "memory"},
        {"type": "bash_20991231", "name": "bash"},  # a version the package does not know
    ])  # fmt: skip
    toolset = st.just({"type": "mcp_toolset", "mcp_server_name": "example-mcp"})
    return st.lists(st.one_of(custom, server, client, toolset), max_size=3)


@st.composite
def requests(draw, openai: bool = False, mid_list_system: bool = True):
    messages = draw(st.lists(st.one_of(user_message(openai), assistant_message(openai)), max_size=5))
    if mid_list_system and messages and draw(st.booleans()):
        messages.insert(draw(st.integers(1, len(messages))), draw(system_message()))
    body = {"messages": messages}
    system = draw(st.one_of(st.none(), texts, st.lists(text_block(), max_size=2)))
    if system is not None:
        body["system"] = system
    if draw(st.booleans()):
        body["tools"] = draw(tools(openai))
    for key, value in draw(st.dictionaries(st.sampled_from(["max_tokens", "model", "temperature", "stream"]), st.integers(0, 9), max_size=2)).items():
        body[key] = value
    return body
